//! A live contest at work: its rules applied to what teams and the jury
//! ask (submit, ask, answer, start, freeze, thaw, finalize), the clock's
//! state, and the scoreboard, over the [`Store`]. The main type is
//! [`LiveContest`]; the web layer above only turns requests into calls to
//! it and its answers into pages and JSON.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use super::auth::Verifier;
use super::board::Tally;
use super::model::{
    Audience, Clarification, EventData, JudgementRecord, LiveConfig, SourceFile, StateSnapshot,
    SubmissionRecord, TECHNICAL,
};
use super::store::{ClockRow, NewClarification, NewSubmission, Store};
use super::visibility::{EventTokens, Viewer};
use crate::config::ANSWERS;
use crate::contest::clock::{now_ms, EpochMs};
use crate::contest::{standings, ContestInfo, ContestProblem, ServerLimits, Standing};
use crate::error::Error;

/// Why a request was refused (the web layer picks the HTTP status).
#[derive(Debug)]
pub(crate) enum Refusal {
    /// Malformed or impossible (400).
    Invalid(String),
    /// Not allowed now, or not to this account (403).
    Forbidden(String),
    /// No such object, or not this account's to see (404).
    NotFound(String),
    /// Over the size limit (413).
    TooLarge(String),
    /// Over the rate limit (429).
    TooMany(String),
    /// The server failed.
    Failed(Error),
}

impl From<Error> for Refusal {
    fn from(e: Error) -> Self {
        Refusal::Failed(e)
    }
}

/// A problem's statement, as its package has it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Statement {
    /// Markdown.
    Markdown(String),
    /// A PDF file's bytes.
    Pdf(Vec<u8>),
    /// Text shown as it is (LaTeX).
    Text(String),
    /// None found.
    Missing,
}

/// A sample test, for teams to download.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Sample {
    /// Test name.
    pub(crate) name: String,
    /// Its input.
    pub(crate) input: Vec<u8>,
    /// Its answer (empty when the problem has none: interactive).
    pub(crate) answer: Vec<u8>,
}

/// What teams may read of a problem besides its snapshot.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ProblemPage {
    /// The statement.
    pub(crate) statement: Statement,
    /// The sample tests, in order.
    pub(crate) samples: Vec<Sample>,
}

impl ProblemPage {
    /// Whether the test named `name` is a sample (its diff may be shown).
    pub(crate) fn is_sample(&self, name: &str) -> bool {
        self.samples.iter().any(|s| s.name == name)
    }
}

/// Which scoreboard: the jury's (everything) or everyone else's (frozen
/// while the freeze lasts).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum View {
    /// Everything, as judged.
    Jury,
    /// Teams and the public: results of submissions made during the freeze
    /// are hidden (pending) until the thaw.
    Public,
}

/// A scoreboard at a moment.
#[derive(Debug, Clone)]
pub(crate) struct Board {
    /// The contest as scored (contestants: team ids).
    pub(crate) info: ContestInfo,
    /// The rows.
    pub(crate) standings: Vec<Standing>,
    /// The contest's state.
    pub(crate) state: StateSnapshot,
    /// Whether results are hidden by the freeze in this view.
    pub(crate) frozen: bool,
    /// When it was made.
    pub(crate) time: EpochMs,
}

/// The board of each view made from a tally, with the tally's
/// [`Tally::changed`] when it was made.
type MadeBoards = HashMap<View, (i64, Arc<Board>)>;

/// A submission with its current judgement (the latest, finished or not).
#[derive(Debug, Clone)]
pub(crate) struct SubmissionRow {
    /// The submission.
    pub(crate) submission: SubmissionRecord,
    /// Its latest judgement.
    pub(crate) judgement: Option<JudgementRecord>,
}

/// A live contest: its configuration, its store, its rules.
#[derive(Debug)]
pub(crate) struct LiveContest {
    /// The configuration.
    pub(crate) config: LiveConfig,
    /// What teams may upload.
    pub(crate) limits: ServerLimits,
    /// Statements and samples, by problem id.
    pub(crate) pages: BTreeMap<String, ProblemPage>,
    /// The database: private to `server`; the web layer reads through
    /// the viewer-taking methods of `super::door`.
    pub(super) store: Store,
    /// Passwords.
    pub(crate) verifier: Verifier,
    /// The event feed's tokens.
    pub(crate) tokens: EventTokens,
    /// The configuration as teams and the public see it before the start:
    /// no problems (not even their titles).
    unstarted: LiveConfig,
    recent_submissions: Mutex<HashMap<String, VecDeque<EpochMs>>>,
    /// The latest board of each view, with the event id it is up to date
    /// with.
    boards: Mutex<HashMap<View, (i64, Arc<Board>)>>,
    /// What the boards are made from, with the board of each view made
    /// from it and the tally's [`Tally::changed`] then; one request at a
    /// time brings it forward.
    tally: tokio::sync::Mutex<Option<(Tally, MadeBoards)>>,
    published: Mutex<Option<StateSnapshot>>,
    /// The clock as last read, with the clock's version it was read at.
    clock: Mutex<Option<(u64, ClockRow)>>,
    /// The printer's turn: one print command at a time, in order.
    pub(super) printer: Arc<tokio::sync::Mutex<()>>,
}

impl LiveContest {
    /// A live contest over `store`.
    pub(crate) fn new(
        config: LiveConfig,
        limits: ServerLimits,
        pages: BTreeMap<String, ProblemPage>,
        store: Store,
        verifier: Verifier,
    ) -> LiveContest {
        let tokens = EventTokens::new(verifier.derived_key("judge serve event tokens v1"));
        let unstarted = LiveConfig {
            problems: Vec::new(),
            ..config.clone()
        };
        LiveContest {
            unstarted,
            config,
            limits,
            pages,
            store,
            verifier,
            tokens,
            recent_submissions: Mutex::new(HashMap::new()),
            boards: Mutex::new(HashMap::new()),
            tally: tokio::sync::Mutex::new(None),
            published: Mutex::new(None),
            clock: Mutex::new(None),
            printer: Arc::default(),
        }
    }

    /// The configuration as `viewer` may see it in `state`: the problems
    /// only for the jury until the start.
    pub(crate) fn config_for(&self, viewer: &Viewer, state: &StateSnapshot) -> &LiveConfig {
        if *viewer != Viewer::Jury && state.started.is_none() {
            &self.unstarted
        } else {
            &self.config
        }
    }

    /// The clock as the jury set it, read again only after it changed.
    pub(super) async fn clock_row(&self) -> Result<ClockRow, Error> {
        let version = self.store.changes().clock_version();
        if let Some((v, row)) = *self.clock.lock().expect("not poisoned") {
            if v == version {
                return Ok(row);
            }
        }
        let row = self.store.clock().await?;
        *self.clock.lock().expect("not poisoned") = Some((version, row));
        Ok(row)
    }

    /// The contest's state now.
    pub(crate) async fn state(&self) -> Result<StateSnapshot, Error> {
        let row = self.clock_row().await?;
        Ok(state_of(&self.config, &row, now_ms()))
    }

    /// The start in effect: the jury's, else contest.toml's.
    pub(crate) async fn start(&self) -> Result<Option<EpochMs>, Error> {
        Ok(self
            .clock_row()
            .await?
            .start
            .or(self.config.contest.clock.start))
    }

    /// Appends a state event (and a contest event when the start changed)
    /// when the state differs from the one last published: called on a
    /// timer, so the start, the freeze and the end appear as they happen.
    pub(crate) async fn tick(&self) -> Result<(), Error> {
        let row = self.clock_row().await?;
        let state = state_of(&self.config, &row, now_ms());
        let last = *self.published.lock().expect("not poisoned");
        // A fresh database has no state yet: its problems were just
        // written, and need no second copy at the start.
        let (last, fresh) = match last {
            Some(last) => (last, false),
            None => {
                let latest = self.store.latest_of_kinds(&["state"]).await?;
                match latest.into_iter().next() {
                    Some(EventData::State(s)) => (s, false),
                    _ => (StateSnapshot::default(), true),
                }
            }
        };
        if state != last || self.published.lock().expect("not poisoned").is_none() {
            if state != last {
                let mut events = vec![(Audience::Public, EventData::State(state))];
                if state.started.is_some() && last.started.is_none() && !fresh {
                    events.extend(self.problem_events());
                }
                self.store.publish(events).await?;
            }
            *self.published.lock().expect("not poisoned") = Some(state);
        }
        Ok(())
    }

    /// The problems again, for the feed's public and team readers, who do
    /// not see them before the start.
    fn problem_events(&self) -> Vec<(Audience, EventData)> {
        self.config
            .problems
            .iter()
            .map(|p| (Audience::Public, EventData::Problem(p.clone())))
            .collect()
    }

    /// Changes the clock as the jury asks; `events` also publish the new
    /// state (and the contest, when its start, length or freeze changed).
    pub(super) async fn set_clock(
        &self,
        row: ClockRow,
        contest_changed: bool,
    ) -> Result<(), Error> {
        let state = state_of(&self.config, &row, now_ms());
        let mut events = Vec::new();
        if contest_changed {
            let mut contest = self.config.contest.clone();
            contest.clock = row.applied(contest.clock);
            events.push((Audience::Public, EventData::Contest(contest)));
        }
        events.push((Audience::Public, EventData::State(state)));
        let before = *self.published.lock().expect("not poisoned");
        if state.started.is_some() && before.is_none_or(|b| b.started.is_none()) {
            events.extend(self.problem_events());
        }
        self.store.set_clock(row, events).await?;
        *self.published.lock().expect("not poisoned") = Some(state);
        Ok(())
    }

    /// The jury starts the contest now.
    pub(crate) async fn start_now(&self) -> Result<(), Refusal> {
        let mut row = self.store.clock().await?;
        let now = now_ms();
        if state_of(&self.config, &row, now).started.is_some() {
            return Err(Refusal::Forbidden("the contest has already started".into()));
        }
        row.start = Some(now);
        self.set_clock(row, true).await?;
        Ok(())
    }

    /// The jury (or the Contest API's `contest_start`) sets the start, or
    /// clears it (`None`: the countdown waits for the jury).
    pub(crate) async fn schedule_start(&self, start: Option<EpochMs>) -> Result<(), Refusal> {
        let mut row = self.store.clock().await?;
        let now = now_ms();
        if state_of(&self.config, &row, now).started.is_some() {
            return Err(Refusal::Forbidden("the contest has already started".into()));
        }
        if start.is_some_and(|s| s < now) {
            return Err(Refusal::Forbidden("the start is in the past".into()));
        }
        row.start = start;
        if start.is_none() && self.config.contest.clock.start.is_some() {
            // contest.toml's start no longer applies: far in the future
            // until the jury starts it.
            row.start = Some(i64::MAX / 4);
        }
        self.set_clock(row, true).await?;
        Ok(())
    }

    /// The jury freezes the scoreboard now.
    pub(crate) async fn freeze_now(&self) -> Result<(), Refusal> {
        let mut row = self.store.clock().await?;
        let now = now_ms();
        let state = state_of(&self.config, &row, now);
        if !state.running() {
            return Err(Refusal::Forbidden(
                "the scoreboard freezes only while the contest runs".into(),
            ));
        }
        if state.frozen.is_some() {
            return Err(Refusal::Forbidden(
                "the scoreboard is already frozen".into(),
            ));
        }
        row.freeze = Some(now);
        self.set_clock(row, false).await?;
        Ok(())
    }

    /// The jury thaws the scoreboard (after the end, as the Contest API
    /// orders it: started < frozen < ended < thawed).
    pub(crate) async fn thaw_now(&self) -> Result<(), Refusal> {
        let mut row = self.store.clock().await?;
        let now = now_ms();
        let state = state_of(&self.config, &row, now);
        if state.frozen.is_none() || state.thawed.is_some() {
            return Err(Refusal::Forbidden("the scoreboard is not frozen".into()));
        }
        if state.ended.is_none() {
            return Err(Refusal::Forbidden(
                "the scoreboard is thawed after the contest ends".into(),
            ));
        }
        row.thawed = Some(now);
        let finalized = row.finalized.is_some();
        if finalized {
            row.end_of_updates = Some(now);
            // Before the state that ends the updates.
            self.publish_awards(Audience::Public).await?;
        }
        self.set_clock(row, false).await?;
        Ok(())
    }

    /// The jury declares the results final (after the end, once every
    /// submission is judged).
    pub(crate) async fn finalize(&self) -> Result<(), Refusal> {
        let mut row = self.store.clock().await?;
        let now = now_ms();
        let state = state_of(&self.config, &row, now);
        if state.ended.is_none() {
            return Err(Refusal::Forbidden(
                "the results are finalized after the contest ends".into(),
            ));
        }
        if state.finalized.is_some() {
            return Err(Refusal::Forbidden("the results are already final".into()));
        }
        if let Some(r) = self
            .store
            .rejudgings()
            .await?
            .into_iter()
            .find(|r| r.state == super::store::RejudgingState::Pending)
        {
            return Err(Refusal::Forbidden(format!(
                "rejudging {} is pending: apply or cancel it first (/jury/rejudgings/{})",
                r.id, r.id
            )));
        }
        let unfinished = self.store.unfinished().await?;
        if unfinished > 0 {
            return Err(Refusal::Forbidden(format!(
                "{unfinished} judgement(s) are not finished yet"
            )));
        }
        row.finalized = Some(now);
        let open = state.frozen.is_none() || state.thawed.is_some();
        if open {
            row.end_of_updates = Some(now);
        }
        // The awards of the final results, before the state that may end
        // the updates: the jury's (the Resolver's) while the board is
        // frozen, everyone's once it is thawed.
        self.publish_awards(if open {
            Audience::Public
        } else {
            Audience::Jury
        })
        .await?;
        self.set_clock(row, false).await?;
        Ok(())
    }

    /// Publishes the awards of the jury's board as events for `audience`.
    async fn publish_awards(&self, audience: Audience) -> Result<(), Refusal> {
        let awards = self.awards_for(&Viewer::Jury).await?;
        let events = awards
            .into_iter()
            .map(|a| (audience.clone(), EventData::Award(a)))
            .collect();
        self.store.publish(events).await?;
        Ok(())
    }

    /// Stores a team's submission after checking it against the rules:
    /// the contest runs, the problem and language exist (the language
    /// named, else the first file's), the files are named, distinct, at
    /// most [`MAX_FILES`] and small enough together, and the team is
    /// within its rate. Several files are judged as a folder, as `judge
    /// run` judges one.
    pub(crate) async fn submit(
        &self,
        team: &str,
        problem: &str,
        language: Option<&str>,
        entry_point: Option<String>,
        files: Vec<SourceFile>,
    ) -> Result<SubmissionRecord, Refusal> {
        let now = now_ms();
        let state = self.state().await?;
        if state.started.is_none() {
            return Err(Refusal::Forbidden("the contest has not started".into()));
        }
        if state.ended.is_some() {
            return Err(Refusal::Forbidden("the contest is over".into()));
        }
        let problem = self
            .config
            .problem(problem)
            .ok_or_else(|| {
                let known: Vec<String> = self
                    .config
                    .problems
                    .iter()
                    .map(|p| format!("{} ({})", p.label, p.id))
                    .collect();
                Refusal::Invalid(format!(
                    "no problem `{problem}` in this contest (one of: {})",
                    known.join(", ")
                ))
            })?
            .id
            .clone();
        let mut files = files.into_iter();
        let first = files
            .next()
            .ok_or_else(|| Refusal::Invalid("no file: a submission has a source file".into()))?;
        let others: Vec<SourceFile> = files.collect();
        if others.len() >= MAX_FILES {
            return Err(Refusal::Invalid(format!(
                "{} files: a submission has at most {MAX_FILES}",
                others.len() + 1
            )));
        }
        let mut total = 0_u64;
        let mut names = std::collections::HashSet::new();
        for file in std::iter::once(&first).chain(&others) {
            let name = &file.name;
            check_filename(name)?;
            if !names.insert(name.as_str()) {
                return Err(Refusal::Invalid(format!("`{name}` is sent twice")));
            }
            if file.content.is_empty() {
                return Err(Refusal::Invalid(format!("`{name}` is empty")));
            }
            total += file.content.len() as u64;
        }
        if total > self.limits.max_source {
            return Err(Refusal::TooLarge(format!(
                "`{}` has {total} bytes; at most {} are accepted",
                if others.is_empty() {
                    first.name.as_str()
                } else {
                    "the submission"
                },
                self.limits.max_source
            )));
        }
        // A submit-answer problem's files are its answers: one answers every
        // test, several are a folder of one per test (`1.ans` for `secret/1`).
        let language = match self.config.answer_problems.contains(&problem) {
            true => ANSWERS.to_string(),
            false => match self.language_of(language, &first.name)? {
                answers if answers == ANSWERS => {
                    return Err(Refusal::Invalid(format!(
                        "`{ANSWERS}` is the language of submit-answer problems only; choose the language of `{}`",
                        first.name
                    )))
                }
                language => language,
            },
        };
        self.take_rate(team, now)?;
        let record = self
            .store
            .submit(NewSubmission {
                team: team.to_string(),
                problem,
                language,
                filename: first.name,
                entry_point,
                source: first.content,
                others,
                time: now,
            })
            .await?;
        Ok(record)
    }

    /// The language of a submission: the one named (an id, or an extension
    /// as DOMjudge's submit client sends), else the file's extension.
    fn language_of(&self, named: Option<&str>, filename: &str) -> Result<String, Refusal> {
        let languages = &self.config.languages;
        let known = || {
            languages
                .iter()
                .map(|l| l.id.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        if let Some(name) = named.filter(|n| !n.is_empty()) {
            let found = languages
                .iter()
                .find(|l| l.id == name)
                .or_else(|| {
                    languages.iter().find(|l| {
                        l.id.eq_ignore_ascii_case(name)
                            || l.extensions.iter().any(|e| e.eq_ignore_ascii_case(name))
                    })
                })
                .ok_or_else(|| {
                    Refusal::Invalid(format!(
                        "no language `{name}` in this contest (one of: {})",
                        known()
                    ))
                })?;
            return Ok(found.id.clone());
        }
        let ext = filename.rsplit_once('.').map(|(_, e)| e).unwrap_or("");
        languages
            .iter()
            .find(|l| l.extensions.iter().any(|e| e == ext))
            .or_else(|| {
                languages
                    .iter()
                    .find(|l| l.extensions.iter().any(|e| e.eq_ignore_ascii_case(ext)))
            })
            .map(|l| l.id.clone())
            .ok_or_else(|| {
                Refusal::Invalid(format!(
                    "cannot tell the language of `{filename}` from its extension; choose one of: {}",
                    known()
                ))
            })
    }

    pub(super) fn take_rate(&self, team: &str, now: EpochMs) -> Result<(), Refusal> {
        let mut recent = self.recent_submissions.lock().expect("not poisoned");
        let times = recent.entry(team.to_string()).or_default();
        while times.front().is_some_and(|t| now - t >= 60_000) {
            times.pop_front();
        }
        if times.len() >= self.limits.submissions_per_minute as usize {
            let wait = 60 - (now - times.front().copied().unwrap_or(now)) / 1000;
            return Err(Refusal::TooMany(format!(
                "at most {} submissions a minute; try again in {wait} s",
                self.limits.submissions_per_minute
            )));
        }
        times.push_back(now);
        Ok(())
    }

    /// A team asks the jury.
    pub(crate) async fn ask(
        &self,
        team: &str,
        problem: Option<&str>,
        text: &str,
    ) -> Result<Clarification, Refusal> {
        let (problem, category) = self.clarification_about(problem)?;
        let text = clarification_text(text)?;
        self.take_rate(team, now_ms())?;
        Ok(self
            .store
            .clarify(NewClarification {
                from_team: Some(team.to_string()),
                to_team: None,
                reply_to: None,
                problem,
                category,
                text,
                time: now_ms(),
            })
            .await?)
    }

    /// The jury answers a question (to its team, or to everyone) or
    /// announces something to everyone (`reply_to` and `to_team` empty).
    pub(crate) async fn answer(
        &self,
        reply_to: Option<i64>,
        to_team: Option<&str>,
        problem: Option<&str>,
        text: &str,
    ) -> Result<Clarification, Refusal> {
        let text = clarification_text(text)?;
        let (mut problem, mut category) = self.clarification_about(problem)?;
        if let Some(team) = to_team {
            if self.config.team(team).is_none() {
                return Err(Refusal::Invalid(format!("no team `{team}`")));
            }
        }
        if let Some(id) = reply_to {
            let question = self
                .store
                .clarifications()
                .await?
                .into_iter()
                .find(|c| c.id == id)
                .ok_or_else(|| Refusal::Invalid(format!("no clarification {id}")))?;
            if problem.is_none() && category.is_none() {
                problem = question.problem;
                category = question.category;
            }
        }
        Ok(self
            .store
            .clarify(NewClarification {
                from_team: None,
                to_team: to_team.map(str::to_string),
                reply_to,
                problem,
                category,
                text,
                time: now_ms(),
            })
            .await?)
    }

    /// What a message is about, as a form or the API names it: a
    /// problem (its id or label), [`ABOUT_TECHNICAL`] (a technical
    /// question), or nothing, `general` (the contest in general): the
    /// problem's id and the category.
    fn clarification_about(
        &self,
        about: Option<&str>,
    ) -> Result<(Option<String>, Option<String>), Refusal> {
        match about.filter(|p| !p.is_empty() && *p != ABOUT_GENERAL) {
            None => Ok((None, None)),
            Some(ABOUT_TECHNICAL) => Ok((None, Some(TECHNICAL.to_string()))),
            Some(p) => self
                .config
                .problem(p)
                .map(|p| (Some(p.id.clone()), None))
                .ok_or_else(|| Refusal::Invalid(format!("no problem `{p}` in this contest"))),
        }
    }

    /// Queues a rejudge of submission `id` that counts at once (no
    /// preview: see `super::rejudging`); refused while a rejudging of its
    /// problem is pending.
    pub(crate) async fn rejudge(&self, id: i64) -> Result<(), Refusal> {
        let submission = self
            .store
            .submissions(None)
            .await?
            .into_iter()
            .find(|s| s.id == id)
            .ok_or_else(|| Refusal::NotFound(format!("no submission {id}")))?;
        self.refuse_while_pending(&submission.problem).await?;
        self.store.rejudge(&[id]).await?;
        Ok(())
    }

    /// The jury ignores submission `id` (DOMjudge's ignore), or counts it
    /// again (`ignored` false): it leaves every board, list, balloon and
    /// award, and the Contest API deletes it (or creates it again).
    pub(crate) async fn ignore(&self, id: i64, ignored: bool) -> Result<(), Refusal> {
        if !self.store.set_ignored(id, ignored).await? {
            return Err(Refusal::NotFound(format!("no submission {id}")));
        }
        // Tallied afresh: a submission counted again brings its verdict.
        *self.tally.lock().await = None;
        Ok(())
    }

    /// The scoreboard in `view`, as of at least the latest event announced
    /// before the call (a verdict announced is on it); made again only
    /// when a submission, a verdict, the clock or the contest changed.
    pub(crate) async fn scoreboard(&self, view: View) -> Result<Arc<Board>, Error> {
        if let Some(board) = self.cached_board(view, self.store.changes().latest()) {
            return Ok(board);
        }
        // One request at a time brings the tally forward: the requests that
        // arrive meanwhile (a room of browsers refreshing after a verdict)
        // take its result.
        let mut tally = self.tally.lock().await;
        // Read again: what changed while waiting is in the board made now.
        let version = self.store.changes().latest();
        if let Some(board) = self.cached_board(view, version) {
            return Ok(board);
        }
        let (tally, made) = match &mut *tally {
            Some(t) => {
                t.0.catch_up(&self.store).await?;
                t
            }
            None => tally.insert((Tally::load(&self.store).await?, HashMap::new())),
        };
        let board = match made.get(&view) {
            Some((changed, board)) if *changed == tally.changed() => Arc::clone(board),
            _ => {
                let board = Arc::new(self.make_board(view, tally).await?);
                made.insert(view, (tally.changed(), Arc::clone(&board)));
                board
            }
        };
        self.boards
            .lock()
            .expect("not poisoned")
            .insert(view, (version, Arc::clone(&board)));
        Ok(board)
    }

    fn cached_board(&self, view: View, version: i64) -> Option<Arc<Board>> {
        let boards = self.boards.lock().expect("not poisoned");
        let (v, board) = boards.get(&view)?;
        (*v == version).then(|| Arc::clone(board))
    }

    async fn make_board(&self, view: View, tally: &Tally) -> Result<Board, Error> {
        let now = now_ms();
        let row = self.clock_row().await?;
        let state = state_of(&self.config, &row, now);
        let start = row.start.or(self.config.contest.clock.start);
        let hide_from = match view {
            View::Public if state.is_frozen() => state.frozen,
            _ => None,
        };
        let mut info = self.contest_info();
        info.clock = Some(row.applied(self.config.contest.clock));
        if view == View::Public && state.started.is_none() {
            info.problems.clear();
        }
        if view == View::Public {
            // A hidden group's teams (observers, coaches) are the jury's only.
            let hidden: std::collections::HashSet<&str> = self
                .config
                .teams
                .iter()
                .filter(|t| t.hidden)
                .map(|t| t.id.as_str())
                .collect();
            info.contestants.retain(|c| !hidden.contains(c.as_str()));
        }
        let standings = standings(&info, &tally.attempts(start, hide_from));
        Ok(Board {
            info,
            standings,
            state,
            frozen: hide_from.is_some(),
            time: now,
        })
    }

    /// The contest as the scoring sees it.
    pub(crate) fn contest_info(&self) -> ContestInfo {
        let c = &self.config.contest;
        ContestInfo {
            title: c.title.clone(),
            scoring: c.scoring,
            penalty: c.penalty,
            problems: self
                .config
                .problems
                .iter()
                .map(|p| ContestProblem {
                    id: p.id.clone(),
                    title: p.name.clone(),
                    points: p.max_score,
                })
                .collect(),
            contestants: self.config.teams.iter().map(|t| t.id.clone()).collect(),
            id: c.id.clone(),
            clock: Some(c.clock),
        }
    }
}

/// The state at `now` from contest.toml's clock and the jury's changes.
pub(crate) fn state_of(config: &LiveConfig, row: &ClockRow, now: EpochMs) -> StateSnapshot {
    let clock = row.applied(config.contest.clock);
    let mut state = StateSnapshot::default();
    let Some(start) = clock.start.filter(|s| *s <= now) else {
        return state;
    };
    state.started = Some(start);
    let end = clock.end(start);
    let freeze = match (row.freeze, clock.freeze_at(start)) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    state.frozen = freeze.filter(|f| *f <= now && *f < end);
    state.ended = Some(end).filter(|e| *e <= now);
    if state.ended.is_some() {
        state.thawed = row.thawed.filter(|_| state.frozen.is_some());
        state.finalized = row.finalized;
        state.end_of_updates = row.end_of_updates;
    }
    state
}

/// What a form says for a question about the contest in general.
pub(crate) const ABOUT_GENERAL: &str = "*general";
/// What a form says for a technical question (no problem id holds `*`).
pub(crate) const ABOUT_TECHNICAL: &str = "*technical";

/// A submitted file's name: a plain name, not a path.
/// The most files one submission may have (DOMjudge's default too).
pub(crate) const MAX_FILES: usize = 100;

fn check_filename(filename: &str) -> Result<(), Refusal> {
    let ok = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '+');
    if filename.is_empty()
        || filename.len() > 128
        || filename.starts_with('.')
        || !filename.chars().all(ok)
    {
        return Err(Refusal::Invalid(format!(
            "the file name `{}` is not accepted: use letters, digits, `.`, `_`, `-`, `+` \
             (at most 128, not starting with `.`)",
            filename.escape_debug()
        )));
    }
    Ok(())
}

/// A clarification's text: not empty, at most 10000 characters.
fn clarification_text(text: &str) -> Result<String, Refusal> {
    let text = text.trim();
    if text.is_empty() {
        return Err(Refusal::Invalid("the text is empty".into()));
    }
    if text.chars().count() > 10_000 {
        return Err(Refusal::TooLarge(
            "a clarification has at most 10000 characters".into(),
        ));
    }
    Ok(text.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contest::clock::ContestClock;
    use crate::contest::Scoring;
    use crate::server::model::ContestSnapshot;

    fn config(start: Option<EpochMs>, freeze: Option<i64>) -> LiveConfig {
        LiveConfig {
            contest: ContestSnapshot {
                id: "c".into(),
                title: "c".into(),
                scoring: Scoring::Icpc,
                penalty: 20,
                clock: ContestClock {
                    start,
                    duration_ms: 5 * 3_600_000,
                    freeze_ms: freeze,
                },
            },
            problems: vec![],
            languages: vec![],
            teams: vec![],
            groups: vec![],
            organizations: vec![],
            medals: Default::default(),
            balloons: Default::default(),
            printing: Default::default(),
            rooms: Default::default(),
            answer_problems: Default::default(),
        }
    }

    #[test]
    fn the_state_follows_the_clock_and_the_jury() {
        let h = 3_600_000;
        let c = config(Some(10 * h), Some(h));
        let row = ClockRow::default();
        assert_eq!(state_of(&c, &row, 9 * h), StateSnapshot::default());
        let s = state_of(&c, &row, 11 * h);
        assert_eq!((s.started, s.frozen, s.ended), (Some(10 * h), None, None));
        let s = state_of(&c, &row, 14 * h + 1);
        assert_eq!(s.frozen, Some(14 * h));
        let s = state_of(&c, &row, 15 * h);
        assert_eq!(
            (s.frozen, s.ended, s.thawed),
            (Some(14 * h), Some(15 * h), None)
        );
        // The jury froze early, thawed and finalized after the end.
        let row = ClockRow {
            freeze: Some(12 * h),
            thawed: Some(16 * h),
            finalized: Some(16 * h),
            end_of_updates: Some(16 * h),
            ..ClockRow::default()
        };
        let s = state_of(&c, &row, 17 * h);
        assert_eq!(s.frozen, Some(12 * h));
        assert_eq!(s.end_of_updates, Some(16 * h));
        // No start in contest.toml: nothing until the jury starts it.
        let c = config(None, None);
        assert_eq!(
            state_of(&c, &ClockRow::default(), 20 * h),
            StateSnapshot::default()
        );
        let row = ClockRow {
            start: Some(20 * h),
            ..ClockRow::default()
        };
        assert_eq!(state_of(&c, &row, 21 * h).started, Some(20 * h));
    }

    #[test]
    fn file_names_are_plain() {
        assert!(check_filename("a.cpp").is_ok());
        assert!(check_filename("Main.java").is_ok());
        for bad in ["", "../a.cpp", ".hidden", "a b.py", "a/b.c", "é.py"] {
            assert!(check_filename(bad).is_err(), "{bad}");
        }
    }
}
