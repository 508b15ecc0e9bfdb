//! The ICPC Contest API (CCS specification 2023-06) as JSON: pure functions
//! from a live contest's data ([`crate::server::model`]) to the objects the
//! specification defines, and the event feed's lines. Absolute times are
//! written in UTC with milliseconds, relative ones as `h:mm:ss.uuu`.

use serde_json::{json, Map, Value};

use crate::contest::clock::{format_reltime, format_time, EpochMs};
use crate::contest::{Scoring, Standing};
use crate::server::live::Board;
use crate::server::model::{
    judgement_type_id, Clarification, ContestSnapshot, Event, EventData, GroupSnapshot,
    JudgementRecord, JudgementState, LanguageSnapshot, OrganizationSnapshot, ProblemSnapshot,
    RunRecord, StateSnapshot, SubmissionRecord, TeamSnapshot,
};
use crate::verdict::Verdict;

/// The version of the specification.
pub(crate) const API_VERSION: &str = "2023-06";

/// What a renderer needs besides the object: the contest's id, scoring and
/// effective start (for contest-relative times).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Context<'a> {
    /// The contest's id (in `files` links).
    pub(crate) contest_id: &'a str,
    /// Its scoring.
    pub(crate) scoring: Scoring,
    /// When it started (or is to start).
    pub(crate) start: Option<EpochMs>,
}

impl Context<'_> {
    fn reltime(&self, t: EpochMs) -> String {
        format_reltime(t - self.start.unwrap_or(t))
    }
}

fn time_or_null(t: Option<EpochMs>) -> Value {
    t.map(|t| Value::String(format_time(t)))
        .unwrap_or(Value::Null)
}

fn seconds(ms: u64) -> Value {
    // A multiple of 0.001 exactly: whole seconds as integers.
    if ms % 1000 == 0 {
        json!(ms / 1000)
    } else {
        json!(ms as f64 / 1000.0)
    }
}

/// `GET /api`: the API's version and provider.
pub(crate) fn api_info() -> Value {
    json!({
        "version": API_VERSION,
        "version_url": "https://ccs-specs.icpc.io/2023-06/contest_api",
        "provider": {"name": "judge", "version": env!("CARGO_PKG_VERSION")},
    })
}

/// Which properties an answer carries besides the specification's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// The specification's only (what its checker asks in strict mode).
    Strict,
    /// Also DOMjudge's own (a contest's `shortname`), which DOMjudge's
    /// clients need.
    Domjudge,
}

/// A contest.
pub(crate) fn contest(c: &ContestSnapshot, dialect: Dialect) -> Value {
    let mut v = json!({
        "id": c.id,
        "name": c.title,
        "formal_name": c.title,
        // A start beyond any date (the jury cleared contest.toml's start and
        // starts it by hand) is no start time.
        "start_time": time_or_null(c.clock.start.filter(|s| *s <= i64::MAX / 8)),
        "duration": format_reltime(c.clock.duration_ms),
        "scoreboard_type": match c.scoring { Scoring::Icpc => "pass-fail", Scoring::Ioi => "score" },
    });
    let o = v.as_object_mut().expect("an object");
    if let Some(f) = c.clock.freeze_ms {
        o.insert(
            "scoreboard_freeze_duration".into(),
            json!(format_reltime(f)),
        );
    }
    if c.scoring == Scoring::Icpc {
        o.insert("penalty_time".into(), json!(c.penalty));
    }
    if dialect == Dialect::Domjudge {
        o.insert("shortname".into(), json!(c.id));
    }
    v
}

/// A judgement type.
pub(crate) fn judgement_type(verdict: Verdict, scoring: Scoring) -> Value {
    let name = match verdict {
        Verdict::AC => "Accepted",
        Verdict::WA => "Wrong Answer",
        Verdict::PE => "Presentation Error",
        Verdict::TLE => "Time Limit Exceeded",
        Verdict::MLE => "Memory Limit Exceeded",
        Verdict::OLE => "Output Limit Exceeded",
        Verdict::RE => "Run-Time Error",
        Verdict::CE => "Compile Error",
        Verdict::IE => "Judging Error",
    };
    let mut v = json!({
        "id": judgement_type_id(verdict),
        "name": name,
        "solved": verdict == Verdict::AC,
    });
    if scoring == Scoring::Icpc {
        let penalty = !matches!(verdict, Verdict::AC | Verdict::CE | Verdict::IE);
        v["penalty"] = json!(penalty);
    }
    v
}

/// A language.
pub(crate) fn language(l: &LanguageSnapshot) -> Value {
    let mut v = json!({
        "id": l.id,
        "name": l.name,
        "entry_point_required": l.entry_point_name.is_some(),
        "extensions": l.extensions,
    });
    if let Some(name) = &l.entry_point_name {
        v["entry_point_name"] = json!(name);
    }
    v
}

/// A problem.
pub(crate) fn problem(p: &ProblemSnapshot, scoring: Scoring) -> Value {
    let mut v = json!({
        "id": p.id,
        "label": p.label,
        "name": p.name,
        "ordinal": p.ordinal,
        "time_limit": seconds(p.time_limit_ms),
        "test_data_count": p.test_data_count,
    });
    if scoring == Scoring::Ioi {
        v["max_score"] = json!(p.max_score);
    }
    v
}

/// A team.
pub(crate) fn team(t: &TeamSnapshot) -> Value {
    json!({
        "id": t.id,
        "name": t.name,
        "label": t.label.as_ref().unwrap_or(&t.id),
        "display_name": t.name,
        "organization_id": t.organization_id,
        "group_ids": t.group_ids,
        "hidden": t.hidden,
    })
}

/// The accounts: the jury's (`jury`, an administrator: it starts the
/// contest) and each team's (its id is its login), never with a password.
pub(crate) fn accounts(teams: &[TeamSnapshot]) -> Vec<Value> {
    let jury = json!({"id": "jury", "username": "jury", "type": "admin"});
    let teams = teams
        .iter()
        .map(|t| json!({"id": t.id, "username": t.id, "type": "team", "team_id": t.id}));
    std::iter::once(jury).chain(teams).collect()
}

/// A group of teams (a hidden group's teams are `hidden`; 2023-06 has no
/// such property on the group).
pub(crate) fn group(g: &GroupSnapshot) -> Value {
    json!({"id": g.id, "name": g.name})
}

/// An award.
pub(crate) fn award(a: &crate::contest::awards::Award) -> Value {
    json!({"id": a.id, "citation": a.citation, "team_ids": a.team_ids})
}

/// An organization.
pub(crate) fn organization(o: &OrganizationSnapshot) -> Value {
    let mut v = json!({"id": o.id, "name": o.name, "formal_name": o.formal_name});
    if let Some(country) = &o.country {
        v["country"] = json!(country);
    }
    v
}

/// The contest's state.
pub(crate) fn state(s: &StateSnapshot) -> Value {
    json!({
        "started": time_or_null(s.started),
        "frozen": time_or_null(s.frozen),
        "ended": time_or_null(s.ended),
        "thawed": time_or_null(s.thawed),
        "finalized": time_or_null(s.finalized),
        "end_of_updates": time_or_null(s.end_of_updates),
    })
}

/// A submission (its files as a link to a zip).
pub(crate) fn submission(s: &SubmissionRecord, cx: &Context) -> Value {
    json!({
        "id": s.id.to_string(),
        "language_id": s.language,
        "problem_id": s.problem,
        "team_id": s.team,
        "time": format_time(s.time),
        "contest_time": cx.reltime(s.time),
        "entry_point": s.entry_point,
        "files": [{
            "href": format!("contests/{}/submissions/{}/files", cx.contest_id, s.id),
            "filename": "files.zip",
            "mime": "application/zip",
        }],
    })
}

/// A judgement: started, or finished with its verdict.
pub(crate) fn judgement(j: &JudgementRecord, cx: &Context) -> Value {
    let start = j.start.unwrap_or(0);
    let mut v = json!({
        "id": j.id.to_string(),
        "submission_id": j.submission.to_string(),
        "start_time": format_time(start),
        "start_contest_time": cx.reltime(start),
    });
    if let (JudgementState::Done, Some(verdict), Some(end)) = (j.state, j.verdict, j.end) {
        let o = v.as_object_mut().expect("an object");
        o.insert(
            "judgement_type_id".into(),
            json!(judgement_type_id(verdict)),
        );
        o.insert("end_time".into(), json!(format_time(end)));
        o.insert("end_contest_time".into(), json!(cx.reltime(end)));
        o.insert("max_run_time".into(), seconds(j.max_run_ms.unwrap_or(0)));
        if cx.scoring == Scoring::Ioi {
            o.insert("score".into(), json!(j.score.unwrap_or(0)));
        }
    }
    v
}

/// A run.
pub(crate) fn run(r: &RunRecord, cx: &Context) -> Value {
    json!({
        "id": r.public_id(),
        "judgement_id": r.judgement.to_string(),
        "ordinal": r.ordinal,
        "judgement_type_id": judgement_type_id(r.verdict),
        "time": format_time(r.time),
        "contest_time": cx.reltime(r.time),
        "run_time": seconds(r.run_time_ms),
    })
}

/// A clarification.
pub(crate) fn clarification(c: &Clarification, cx: &Context) -> Value {
    json!({
        "id": c.id.to_string(),
        "from_team_id": c.from_team,
        "to_team_id": c.to_team,
        "reply_to_id": c.reply_to.map(|r| r.to_string()),
        "problem_id": c.problem,
        "text": c.text,
        "time": format_time(c.time),
        "contest_time": cx.reltime(c.time),
    })
}

/// The scoreboard.
pub(crate) fn scoreboard(board: &Board, cx: &Context) -> Value {
    let rows: Vec<Value> = board
        .standings
        .iter()
        .map(|s| scoreboard_row(s, board.info.scoring))
        .collect();
    json!({
        "time": format_time(board.time),
        "contest_time": cx.reltime(board.time),
        "state": state(&board.state),
        "rows": rows,
    })
}

fn scoreboard_row(s: &Standing, scoring: Scoring) -> Value {
    let mut score = Map::new();
    match scoring {
        Scoring::Icpc => {
            score.insert("num_solved".into(), json!(s.solved));
            score.insert("total_time".into(), json!(s.penalty));
        }
        Scoring::Ioi => {
            score.insert("score".into(), json!(s.score));
        }
    }
    if let Some(t) = s.last_solve.filter(|_| s.solved > 0 || s.score > 0) {
        score.insert("time".into(), json!(t));
    }
    let problems: Vec<Value> = s
        .cells
        .iter()
        .map(|c| {
            let mut p = json!({
                "problem_id": c.problem,
                "num_judged": c.counted.max(if scoring == Scoring::Ioi { c.attempts } else { 0 }),
                "num_pending": c.pending,
            });
            match scoring {
                Scoring::Icpc => {
                    p["solved"] = json!(c.solved);
                    if c.solved {
                        p["time"] = json!(c.minute.unwrap_or(0));
                    }
                }
                Scoring::Ioi => {
                    p["score"] = json!(c.score);
                    if c.score > 0 {
                        p["time"] = json!(c.minute.unwrap_or(0));
                    }
                }
            }
            p
        })
        .collect();
    json!({"rank": s.rank, "team_id": s.contestant, "score": score, "problems": problems})
}

/// The data of an event.
pub(crate) fn event_data(data: &EventData, cx: &Context) -> Value {
    match data {
        EventData::Contest(c) => contest(c, Dialect::Strict),
        EventData::JudgementType(v) => judgement_type(*v, cx.scoring),
        EventData::Language(l) => language(l),
        EventData::Problem(p) => problem(p, cx.scoring),
        EventData::Team(t) => team(t),
        EventData::Group(g) => group(g),
        EventData::Organization(o) => organization(o),
        EventData::State(s) => state(s),
        EventData::Submission(s) => submission(s, cx),
        EventData::Judgement(j) => judgement(j, cx),
        EventData::Run(r) => run(r, cx),
        EventData::Clarification(c) => clarification(c, cx),
        EventData::Award(a) => award(a),
        EventData::Deleted { .. } => Value::Null,
    }
}

/// One line of the event feed (without its newline).
/// One line of the event feed; `token` is what a client resumes from
/// (opaque to it).
pub(crate) fn event_line(event: &Event, token: &str, cx: &Context) -> String {
    let id = match &event.data {
        EventData::Contest(_) | EventData::State(_) => Value::Null,
        other => other.object_id().map(Value::String).unwrap_or(Value::Null),
    };
    json!({
        "type": event.data.kind(),
        "id": id,
        "data": event_data(&event.data, cx),
        "token": token,
    })
    .to_string()
}

/// `GET /access`: the endpoints and properties offered, and what this
/// client may do (`team`: a team's, `jury`: the jury's, neither: public).
pub(crate) fn access(team: bool, jury: bool) -> Value {
    let mut capabilities = Vec::new();
    if team {
        capabilities.extend(["team_submit", "team_clar"]);
    }
    if jury {
        capabilities.extend(["contest_start", "admin_clar"]);
    }
    let mut endpoints = vec![
        json!({"type": "contest", "properties": ["id", "name", "formal_name", "start_time", "duration", "scoreboard_freeze_duration", "scoreboard_type", "penalty_time"]}),
        json!({"type": "judgement-types", "properties": ["id", "name", "penalty", "solved"]}),
        json!({"type": "languages", "properties": ["id", "name", "entry_point_required", "entry_point_name", "extensions"]}),
        json!({"type": "problems", "properties": ["id", "label", "name", "ordinal", "time_limit", "test_data_count", "max_score"]}),
        json!({"type": "teams", "properties": ["id", "name", "label", "display_name", "hidden"]}),
        json!({"type": "state", "properties": ["started", "frozen", "ended", "thawed", "finalized", "end_of_updates"]}),
        json!({"type": "clarifications", "properties": ["id", "from_team_id", "to_team_id", "reply_to_id", "problem_id", "text", "time", "contest_time"]}),
        json!({"type": "scoreboard", "properties": ["time", "contest_time", "state", "rows"]}),
        json!({"type": "event-feed", "properties": ["type", "id", "data", "token"]}),
    ];
    if team || jury {
        endpoints.extend([
            json!({"type": "submissions", "properties": ["id", "language_id", "problem_id", "team_id", "time", "contest_time", "entry_point", "files"]}),
            json!({"type": "judgements", "properties": ["id", "submission_id", "judgement_type_id", "score", "start_time", "start_contest_time", "end_time", "end_contest_time", "max_run_time"]}),
            json!({"type": "runs", "properties": ["id", "judgement_id", "ordinal", "judgement_type_id", "time", "contest_time", "run_time"]}),
        ]);
    }
    json!({"capabilities": capabilities, "endpoints": endpoints})
}

/// An error body: `{"code": 404, "message": "..."}`.
pub(crate) fn error(code: u16, message: &str) -> Value {
    json!({"code": code, "message": message})
}

/// The event feed of finished events, one line each.
pub(crate) fn feed(events: &[Event], cx: &Context) -> String {
    let mut out = String::new();
    for e in events {
        out.push_str(&event_line(e, &e.id.to_string(), cx));
        out.push('\n');
    }
    out
}
