//! A live contest as plain data: what it is (its configuration, problems,
//! languages, teams), what happened in it (submissions, judgements, runs,
//! clarifications, the clock's state), and the change log every client
//! follows ([`Event`]). The web pages and the Contest API are renderers of
//! these types; storage keeps them. The main types are [`LiveConfig`] and
//! [`Event`].

use serde::{Deserialize, Serialize};

use crate::contest::clock::{ContestClock, EpochMs};
use crate::contest::Scoring;
use crate::verdict::Verdict;

/// The contest as the server shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct ContestSnapshot {
    /// Id in the Contest API.
    pub(crate) id: String,
    /// Title.
    pub(crate) title: String,
    /// Scoring.
    pub(crate) scoring: Scoring,
    /// ICPC minutes per rejected attempt.
    pub(crate) penalty: u64,
    /// The clock as configured, with the actual start once known.
    pub(crate) clock: ContestClock,
}

/// A problem of the contest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct ProblemSnapshot {
    /// Id (the package's).
    pub(crate) id: String,
    /// Scoreboard label: A, B, ...
    pub(crate) label: String,
    /// Title.
    pub(crate) name: String,
    /// Place on the scoreboard, from 1.
    pub(crate) ordinal: u32,
    /// CPU time limit per test, ms.
    pub(crate) time_limit_ms: u64,
    /// Memory limit, bytes.
    pub(crate) memory_limit: u64,
    /// Number of tests.
    pub(crate) test_data_count: u32,
    /// Points available (IOI).
    pub(crate) max_score: u64,
}

/// A language teams may submit in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct LanguageSnapshot {
    /// Id (judge.toml's).
    pub(crate) id: String,
    /// Name.
    pub(crate) name: String,
    /// File extensions, without the dot.
    pub(crate) extensions: Vec<String>,
    /// What its entry point is called, when it needs one (`Main class`).
    pub(crate) entry_point_name: Option<String>,
}

/// A team.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct TeamSnapshot {
    /// Id (the login name).
    pub(crate) id: String,
    /// Name.
    pub(crate) name: String,
    /// Label (DOMjudge's team number), when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) label: Option<String>,
    /// Its organization's id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) organization_id: Option<String>,
    /// Its groups' ids.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) group_ids: Vec<String>,
    /// In a hidden group: not on the public scoreboard.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) hidden: bool,
}

/// A group of teams (a category).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct GroupSnapshot {
    /// Id.
    pub(crate) id: String,
    /// Name.
    pub(crate) name: String,
    /// Kept off the public scoreboard.
    pub(crate) hidden: bool,
}

/// An organization (an affiliation).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct OrganizationSnapshot {
    /// Id.
    pub(crate) id: String,
    /// Short name.
    pub(crate) name: String,
    /// Full name.
    pub(crate) formal_name: String,
    /// ISO 3166-1 alpha-3 country code.
    pub(crate) country: Option<String>,
}

/// The state of the contest: when each step happened (ms since the epoch),
/// `None` while it has not.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct StateSnapshot {
    /// The contest started.
    pub(crate) started: Option<EpochMs>,
    /// The scoreboard froze.
    pub(crate) frozen: Option<EpochMs>,
    /// The contest ended.
    pub(crate) ended: Option<EpochMs>,
    /// The scoreboard was thawed (shown whole again).
    pub(crate) thawed: Option<EpochMs>,
    /// The results were declared final.
    pub(crate) finalized: Option<EpochMs>,
    /// Nothing will change any more.
    pub(crate) end_of_updates: Option<EpochMs>,
}

impl StateSnapshot {
    /// Whether teams may submit.
    pub(crate) fn running(&self) -> bool {
        self.started.is_some() && self.ended.is_none()
    }

    /// Whether the scoreboard others see is frozen now.
    pub(crate) fn is_frozen(&self) -> bool {
        self.frozen.is_some() && self.thawed.is_none()
    }
}

/// A file of a submission: its name (no folders) and its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SourceFile {
    /// The name, as sent.
    pub(crate) name: String,
    /// The bytes.
    pub(crate) content: Vec<u8>,
}

impl SourceFile {
    /// The file `name` of `content`.
    pub(crate) fn new(name: &str, content: Vec<u8>) -> SourceFile {
        SourceFile {
            name: name.to_string(),
            content,
        }
    }
}

/// A submission (without its source).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct SubmissionRecord {
    /// Id, from 1 in order of arrival.
    pub(crate) id: i64,
    /// The team.
    pub(crate) team: String,
    /// The problem.
    pub(crate) problem: String,
    /// The language.
    pub(crate) language: String,
    /// When it arrived.
    pub(crate) time: EpochMs,
    /// The file's name (the first file's, when it has several).
    pub(crate) filename: String,
    /// Its entry point, when the language needs one.
    pub(crate) entry_point: Option<String>,
}

/// Where a judgement is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum JudgementState {
    /// Waiting for a judge.
    Queued,
    /// Claimed by a judge.
    Running,
    /// Finished.
    Done,
}

impl JudgementState {
    /// As stored.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            JudgementState::Queued => "queued",
            JudgementState::Running => "running",
            JudgementState::Done => "done",
        }
    }

    /// From storage.
    pub(crate) fn parse(text: &str) -> Option<JudgementState> {
        match text {
            "queued" => Some(JudgementState::Queued),
            "running" => Some(JudgementState::Running),
            "done" => Some(JudgementState::Done),
            _ => None,
        }
    }
}

/// A judging of a submission (a rejudge is another one).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct JudgementRecord {
    /// Id, from 1.
    pub(crate) id: i64,
    /// The submission judged.
    pub(crate) submission: i64,
    /// Where it is.
    pub(crate) state: JudgementState,
    /// When judging started (first claimed).
    pub(crate) start: Option<EpochMs>,
    /// When it finished.
    pub(crate) end: Option<EpochMs>,
    /// The verdict, once finished.
    pub(crate) verdict: Option<Verdict>,
    /// IOI points, once finished.
    pub(crate) score: Option<u64>,
    /// The slowest test's CPU time, ms.
    pub(crate) max_run_ms: Option<u64>,
}

/// One test of a finished judgement.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct RunRecord {
    /// Id, from 1.
    pub(crate) id: i64,
    /// The judgement it belongs to.
    pub(crate) judgement: i64,
    /// The test's place in the test set, from 1.
    pub(crate) ordinal: u32,
    /// Its verdict.
    pub(crate) verdict: Verdict,
    /// When it finished.
    pub(crate) time: EpochMs,
    /// Its CPU time, ms.
    pub(crate) run_time_ms: u64,
}

impl RunRecord {
    /// Its id as shown outside: its judgement's and its test's, never the
    /// database's run counter (which counts every team's runs, and would
    /// tell a team how many tests others' submissions ran during the
    /// freeze).
    pub(crate) fn public_id(&self) -> String {
        format!("{}-{}", self.judgement, self.ordinal)
    }
}

/// A clarification: a team's question, the jury's answer to one team, or
/// an announcement to all.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Clarification {
    /// Id, from 1.
    pub(crate) id: i64,
    /// The team that asked (`None`: from the jury).
    pub(crate) from_team: Option<String>,
    /// The team it answers (`None`: to everyone, or a question).
    pub(crate) to_team: Option<String>,
    /// The question it answers.
    pub(crate) reply_to: Option<i64>,
    /// The problem it is about.
    pub(crate) problem: Option<String>,
    /// What was said.
    pub(crate) text: String,
    /// When.
    pub(crate) time: EpochMs,
    /// Its category when about no problem: [`TECHNICAL`], or `None`
    /// (general). The Contest API has no such property: there it is a
    /// clarification without a problem.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) category: Option<String>,
}

/// The category of a technical question (not about the contest's rules or
/// a problem: the machines, the compilers).
pub(crate) const TECHNICAL: &str = "technical";

impl Clarification {
    /// Whether `team` may read it.
    pub(crate) fn visible_to(&self, team: &str) -> bool {
        self.from_team.as_deref() == Some(team)
            || self.to_team.as_deref() == Some(team)
            || (self.from_team.is_none() && self.to_team.is_none())
    }

    /// Whether `team` (`None`: the public) may read it.
    pub(crate) fn readable_by(&self, team: Option<&str>) -> bool {
        match team {
            Some(team) => self.visible_to(team),
            None => self.from_team.is_none() && self.to_team.is_none(),
        }
    }

    /// It as `team` (`None`: the public) sees it: an answer to everyone of
    /// a question that only its team reads refers to no question (the
    /// others would hold the id of an object they never see).
    pub(crate) fn seen_by(&self, team: Option<&str>, all: &[Clarification]) -> Clarification {
        let mut seen = self.clone();
        if let Some(question) = self.reply_to {
            if !all.iter().any(|c| c.id == question && c.readable_by(team)) {
                seen.reply_to = None;
            }
        }
        seen
    }
}

/// Who an event (and the object it carries) may be shown to, besides the
/// jury, who sees everything.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Audience {
    /// Everyone, without logging in.
    Public,
    /// One team.
    Team(String),
    /// The jury only (awards computed while the board is still frozen).
    Jury,
}

/// How [`Audience::Jury`] is stored: no team id holds a `*`.
const JURY_AUDIENCE: &str = "*jury";

impl Audience {
    /// As stored.
    pub(crate) fn as_str(&self) -> &str {
        match self {
            Audience::Public => "",
            Audience::Team(team) => team,
            Audience::Jury => JURY_AUDIENCE,
        }
    }

    /// From storage.
    pub(crate) fn parse(text: &str) -> Audience {
        match text {
            "" => Audience::Public,
            JURY_AUDIENCE => Audience::Jury,
            team => Audience::Team(team.to_string()),
        }
    }
}

/// What changed: the new state of one object (the Contest API's event
/// types, with our data).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) enum EventData {
    /// The contest.
    Contest(ContestSnapshot),
    /// A judgement type (one of our verdicts).
    JudgementType(Verdict),
    /// A language.
    Language(LanguageSnapshot),
    /// A problem.
    Problem(ProblemSnapshot),
    /// A team.
    Team(TeamSnapshot),
    /// A group of teams.
    Group(GroupSnapshot),
    /// An organization.
    Organization(OrganizationSnapshot),
    /// The contest's state.
    State(StateSnapshot),
    /// A submission.
    Submission(SubmissionRecord),
    /// A judgement (started, then finished).
    Judgement(JudgementRecord),
    /// A run.
    Run(RunRecord),
    /// A clarification.
    Clarification(Clarification),
    /// An award (published when the results are final).
    Award(crate::contest::awards::Award),
    /// An object removed (a team or problem no longer in contest.toml).
    Deleted {
        /// Its event type (`teams`).
        kind: String,
        /// Its id.
        id: String,
    },
}

impl EventData {
    /// The Contest API's event type.
    pub(crate) fn kind(&self) -> &str {
        match self {
            EventData::Contest(_) => "contest",
            EventData::JudgementType(_) => "judgement-types",
            EventData::Language(_) => "languages",
            EventData::Problem(_) => "problems",
            EventData::Team(_) => "teams",
            EventData::Group(_) => "groups",
            EventData::Organization(_) => "organizations",
            EventData::State(_) => "state",
            EventData::Submission(_) => "submissions",
            EventData::Judgement(_) => "judgements",
            EventData::Run(_) => "runs",
            EventData::Clarification(_) => "clarifications",
            EventData::Award(_) => "awards",
            EventData::Deleted { kind, .. } => kind,
        }
    }

    /// The id of the object (`None` for the contest and its state).
    pub(crate) fn object_id(&self) -> Option<String> {
        match self {
            EventData::Contest(_) | EventData::State(_) => None,
            EventData::JudgementType(v) => Some(judgement_type_id(*v).to_string()),
            EventData::Language(l) => Some(l.id.clone()),
            EventData::Problem(p) => Some(p.id.clone()),
            EventData::Team(t) => Some(t.id.clone()),
            EventData::Group(g) => Some(g.id.clone()),
            EventData::Organization(o) => Some(o.id.clone()),
            EventData::Submission(s) => Some(s.id.to_string()),
            EventData::Judgement(j) => Some(j.id.to_string()),
            EventData::Run(r) => Some(r.public_id()),
            EventData::Clarification(c) => Some(c.id.to_string()),
            EventData::Award(a) => Some(a.id.clone()),
            EventData::Deleted { id, .. } => Some(id.clone()),
        }
    }
}

/// One change, in the order they happened.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Event {
    /// Its place in the log, from 1 (the event feed's token).
    pub(crate) id: i64,
    /// Who may see it (the jury sees all).
    pub(crate) audience: Audience,
    /// What changed.
    pub(crate) data: EventData,
}

/// The Contest API's judgement type of a verdict.
pub(crate) fn judgement_type_id(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::RE => "RTE",
        Verdict::IE => "JE",
        // The others are spelled as the judge spells them.
        other => other.as_str(),
    }
}

/// Everything fixed about a live contest: contest.toml and the problems as
/// loaded (what the pages and the API show of them).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LiveConfig {
    /// The contest.
    pub(crate) contest: ContestSnapshot,
    /// Its problems, in scoreboard order.
    pub(crate) problems: Vec<ProblemSnapshot>,
    /// The languages teams may use.
    pub(crate) languages: Vec<LanguageSnapshot>,
    /// The teams, in contest.toml's order.
    pub(crate) teams: Vec<TeamSnapshot>,
    /// Groups of teams.
    pub(crate) groups: Vec<GroupSnapshot>,
    /// Organizations.
    pub(crate) organizations: Vec<OrganizationSnapshot>,
    /// Medals by place (contest.toml `[awards]`).
    pub(crate) medals: crate::contest::awards::MedalCounts,
    /// Balloon colours by problem id or label (contest.toml `[balloons]`).
    pub(crate) balloons: std::collections::BTreeMap<String, String>,
    /// Printing (contest.toml `[printing]`).
    pub(crate) printing: crate::contest::printing::Printing,
    /// Where each team sits (contest.toml's `room`, by team id): for the
    /// jury's pages only, never in the Contest API.
    pub(crate) rooms: std::collections::BTreeMap<String, String>,
    /// The submit-answer problems (by id): a submission of one is its
    /// answers, in the `answers` language whatever the team chose.
    pub(crate) answer_problems: std::collections::BTreeSet<String>,
}

impl LiveConfig {
    /// The balloon colour of problem `id` (`[balloons]` names it by id or
    /// label).
    pub(crate) fn balloon_colour(&self, id: &str) -> Option<&str> {
        let label = self.problems.iter().find(|p| p.id == id).map(|p| &p.label);
        self.balloons
            .get(id)
            .or_else(|| label.and_then(|l| self.balloons.get(l)))
            .map(String::as_str)
    }

    /// The config events, in the order a client needs them (an object
    /// before what refers to it).
    pub(crate) fn events(&self) -> Vec<EventData> {
        let mut events = vec![EventData::Contest(self.contest.clone())];
        events.extend(Verdict::ALL.iter().map(|v| EventData::JudgementType(*v)));
        events.extend(self.languages.iter().cloned().map(EventData::Language));
        events.extend(self.problems.iter().cloned().map(EventData::Problem));
        events.extend(self.groups.iter().cloned().map(EventData::Group));
        events.extend(
            self.organizations
                .iter()
                .cloned()
                .map(EventData::Organization),
        );
        events.extend(self.teams.iter().cloned().map(EventData::Team));
        events
    }

    /// A problem by id or label (case-insensitive, as DOMjudge's submit
    /// client matches them).
    pub(crate) fn problem(&self, name: &str) -> Option<&ProblemSnapshot> {
        self.problems.iter().find(|p| p.id == name).or_else(|| {
            self.problems
                .iter()
                .find(|p| p.id.eq_ignore_ascii_case(name) || p.label.eq_ignore_ascii_case(name))
        })
    }

    /// A team by id.
    pub(crate) fn team(&self, id: &str) -> Option<&TeamSnapshot> {
        self.teams.iter().find(|t| t.id == id)
    }
}
