//! A judged contest folder (`judge batch`'s results) as the events of a
//! live contest, so it can be written as the Contest API's event feed for
//! the ICPC Resolver: the configuration, each judged file as a submission
//! at its time (the file's modification time, from contest.toml `start`),
//! its judgement and runs, and the state of a finished contest. The main
//! function is [`events_of`].

use std::collections::BTreeSet;

use super::model::{
    Audience, ContestSnapshot, Event, EventData, JudgementRecord, JudgementState, LanguageSnapshot,
    ProblemSnapshot, RunRecord, StateSnapshot, SubmissionRecord, TeamSnapshot,
};
use super::problems::label;
use crate::contest::clock::ContestClock;
use crate::contest::{Results, Scoring};
use crate::verdict::Verdict;

/// The events, or `None` when the contest has no start (times are counted
/// from it).
pub(crate) fn events_of(results: &Results) -> Option<Vec<Event>> {
    let info = &results.contest;
    let clock: ContestClock = info.clock?;
    let start = clock.start?;
    let id = if info.id.is_empty() {
        "contest".to_string()
    } else {
        info.id.clone()
    };
    let mut data = vec![EventData::Contest(ContestSnapshot {
        id,
        title: info.title.clone(),
        scoring: info.scoring,
        penalty: info.penalty,
        clock,
    })];
    data.extend(Verdict::ALL.iter().map(|v| EventData::JudgementType(*v)));
    let judged: Vec<_> = results
        .entries
        .iter()
        .filter_map(|e| Some((e, e.report.as_ref()?, e.problem.as_ref()?)))
        .collect();
    let languages: BTreeSet<&str> = judged.iter().map(|(_, r, _)| r.language.as_str()).collect();
    data.extend(languages.iter().map(|l| {
        EventData::Language(LanguageSnapshot {
            id: l.to_string(),
            name: l.to_string(),
            extensions: Vec::new(),
            entry_point_name: None,
        })
    }));
    for (i, p) in info.problems.iter().enumerate() {
        let report = judged
            .iter()
            .find(|(_, _, id)| *id == &p.id)
            .map(|(_, r, _)| r);
        data.push(EventData::Problem(ProblemSnapshot {
            id: p.id.clone(),
            label: label(i),
            name: p.title.clone(),
            ordinal: i as u32 + 1,
            time_limit_ms: report.map_or(0, |r| r.limits.time_ms),
            memory_limit: report.map_or(0, |r| r.limits.memory_kib << 10),
            test_data_count: report.map_or(0, |r| (r.tests.len() + r.skipped.len()) as u32),
            max_score: p.points,
        }));
    }
    data.extend(info.contestants.iter().map(|c| {
        EventData::Team(TeamSnapshot {
            id: c.clone(),
            name: c.clone(),
            ..TeamSnapshot::default()
        })
    }));
    let end = clock.end(start);
    let frozen = clock.freeze_at(start);
    data.push(EventData::State(StateSnapshot {
        started: Some(start),
        ..StateSnapshot::default()
    }));
    let mut in_time: Vec<_> = judged;
    in_time.sort_by_key(|(e, _, _)| {
        (
            e.submitted_ms.unwrap_or(start),
            e.contestant.clone(),
            e.attempt,
        )
    });
    let mut run_id = 0;
    for (n, (entry, report, problem)) in in_time.iter().enumerate() {
        let id = n as i64 + 1;
        let time = entry.submitted_ms.unwrap_or(start).max(start);
        data.push(EventData::Submission(SubmissionRecord {
            id,
            team: entry.contestant.clone(),
            problem: problem.to_string(),
            language: report.language.clone(),
            time,
            filename: entry
                .file
                .rsplit('/')
                .next()
                .unwrap_or(&entry.file)
                .to_string(),
            entry_point: None,
        }));
        data.push(EventData::Judgement(JudgementRecord {
            id,
            submission: id,
            state: JudgementState::Running,
            start: Some(time),
            end: None,
            verdict: None,
            score: None,
            max_run_ms: None,
        }));
        for (i, t) in report.tests.iter().enumerate() {
            run_id += 1;
            data.push(EventData::Run(RunRecord {
                id: run_id,
                judgement: id,
                ordinal: i as u32 + 1,
                verdict: t.verdict,
                time,
                run_time_ms: t.time_ms,
            }));
        }
        data.push(EventData::Judgement(JudgementRecord {
            id,
            submission: id,
            state: JudgementState::Done,
            start: Some(time),
            end: Some(time),
            verdict: Some(report.verdict),
            score: (info.scoring == Scoring::Ioi).then_some(entry.score.unwrap_or(0)),
            max_run_ms: Some(report.summary.max_time_ms),
        }));
    }
    let mut last = StateSnapshot {
        started: Some(start),
        frozen: frozen.filter(|f| *f < end),
        ended: Some(end),
        finalized: Some(end),
        ..StateSnapshot::default()
    };
    // A frozen contest waits for the Resolver to reveal it: no thaw, so
    // no end of updates yet.
    if last.frozen.is_none() {
        last.end_of_updates = Some(end);
    }
    data.push(EventData::State(last));
    Some(
        data.into_iter()
            .enumerate()
            .map(|(i, data)| Event {
                id: i as i64 + 1,
                audience: Audience::Public,
                data,
            })
            .collect(),
    )
}
