//! A contest folder's settings (`contest.toml`: title, scoring, penalty,
//! problems; for a live contest also the clock, the teams, the jury and the
//! languages) and how its files are named (`PROBLEM.EXT`, `PROBLEM.N.EXT`).

use std::collections::BTreeSet;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::awards::MedalCounts;
use super::clock::{datetime_ms, ContestClock};
pub(crate) use super::ids::is_identifier;
use super::ids::IDENTIFIER_RULE;
use super::roster::{self, Group, Organization};
use crate::error::{Error, Result, SpecError};

/// The file a contest directory may hold.
pub(crate) const CONTEST_FILE: &str = "contest.toml";

/// How a contest is scored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Scoring {
    /// Problems solved, then penalty: `penalty` minutes per rejected attempt
    /// before the first accepted one (compile errors are not counted).
    Icpc,
    /// Points: per problem the best attempt's points, a subtask (test group
    /// with `points`) scoring only when all its tests pass.
    Ioi,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ContestDeserialize {
    title: Option<String>,
    scoring: Option<Scoring>,
    penalty: Option<u64>,
    problems: Option<Vec<String>>,
    id: Option<String>,
    start: Option<toml::Value>,
    duration: Option<String>,
    freeze: Option<String>,
    languages: Option<Vec<String>>,
    teams: Option<TeamsDeserialize>,
    groups: Option<Vec<GroupDeserialize>>,
    organizations: Option<Vec<OrganizationDeserialize>>,
    jury: Option<CredentialDeserialize>,
    server: Option<ServerDeserialize>,
    awards: Option<AwardsDeserialize>,
    balloons: Option<std::collections::BTreeMap<String, String>>,
    printing: Option<super::printing::PrintingDeserialize>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct AwardsDeserialize {
    gold: Option<usize>,
    silver: Option<usize>,
    bronze: Option<usize>,
}

/// `teams = 20` (a quick camp) or one `[[teams]]` table per team.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum TeamsDeserialize {
    Count(u32),
    Tables(Vec<TeamDeserialize>),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TeamDeserialize {
    id: String,
    name: Option<String>,
    password: Option<String>,
    password_hash: Option<String>,
    organization: Option<String>,
    group: Option<String>,
    groups: Option<Vec<String>>,
    room: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct GroupDeserialize {
    id: String,
    name: Option<String>,
    #[serde(default)]
    hidden: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct OrganizationDeserialize {
    id: String,
    name: Option<String>,
    formal_name: Option<String>,
    country: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CredentialDeserialize {
    password: Option<String>,
    password_hash: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ServerDeserialize {
    max_source: Option<String>,
    submissions_per_minute: Option<u32>,
}

/// How long a contest lasts when contest.toml does not say.
pub(crate) const DEFAULT_DURATION_MS: i64 = 5 * 3_600_000;

/// A password as contest.toml gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Credential {
    /// In clear (`password = ...`): hashed when the server starts.
    Plain(String),
    /// An Argon2 hash in the PHC string format (`password_hash = ...`, as
    /// `judge passwords` writes).
    Hash(String),
}

/// A team of a live contest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TeamSpec {
    /// Its id: the login name, and the id in the Contest API.
    pub(crate) id: String,
    /// Its name (default: the id).
    pub(crate) name: String,
    /// Its password, when given.
    pub(crate) credential: Option<Credential>,
    /// Its label (DOMjudge's team number), when a roster file gives one.
    pub(crate) label: Option<String>,
    /// Its organization's id.
    pub(crate) organization: Option<String>,
    /// Its groups' ids.
    pub(crate) groups: Vec<String>,
    /// Where it sits (a room, a seat), for the jury's runners.
    pub(crate) room: Option<String>,
}

/// What a live contest's server accepts from a team.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ServerLimits {
    /// The largest source file, bytes.
    pub(crate) max_source: u64,
    /// Submissions a team may make per minute.
    pub(crate) submissions_per_minute: u32,
}

impl Default for ServerLimits {
    fn default() -> Self {
        ServerLimits {
            max_source: 256 << 10,
            submissions_per_minute: 10,
        }
    }
}

/// The settings of a contest (contest.toml, overridden by flags).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ContestSpec {
    /// Title shown on the scoreboard.
    pub(crate) title: String,
    /// Scoring mode.
    pub(crate) scoring: Scoring,
    /// ICPC penalty per rejected attempt, minutes.
    pub(crate) penalty: u64,
    /// Problems (ids or paths); `None`: the problems the submissions name.
    pub(crate) problems: Option<Vec<String>>,
    /// The contest's id in the Contest API (default: the folder's name).
    pub(crate) id: String,
    /// When it starts, how long it lasts, when the scoreboard freezes.
    pub(crate) clock: ContestClock,
    /// Language ids teams may submit in (`None`: every language of judge.toml).
    pub(crate) languages: Option<Vec<String>>,
    /// The teams of a live contest: contest.toml's, and a roster file's
    /// beside it ([`roster`](super::roster)).
    pub(crate) teams: Vec<TeamSpec>,
    /// Groups of teams (categories); hidden ones are not on the public board.
    pub(crate) groups: Vec<Group>,
    /// Organizations (teams' affiliations).
    pub(crate) organizations: Vec<Organization>,
    /// The jury's password.
    pub(crate) jury: Option<Credential>,
    /// Upload limits of a live contest.
    pub(crate) server: ServerLimits,
    /// Medals by place (`[awards]`).
    pub(crate) medals: MedalCounts,
    /// Each problem's balloon colour (`[balloons]`: a problem's id or
    /// label = a colour: `#rrggbb`, `#rgb` or a name such as `red`).
    pub(crate) balloons: std::collections::BTreeMap<String, String>,
    /// Printing (`[printing]`).
    pub(crate) printing: super::printing::Printing,
}

impl ContestSpec {
    /// Reads `DIR/contest.toml` if present.
    pub(crate) fn load(dir: &Path) -> Result<ContestSpec> {
        let path = dir.join(CONTEST_FILE);
        let default_title = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "contest".into());
        let meta = std::fs::symlink_metadata(&path).ok();
        if meta.as_ref().is_some_and(|m| !m.is_file()) {
            return Err(Error::Config {
                path: path.clone(),
                source: SpecError::one(
                    "not a regular file (a link, say): nothing of a contest folder is read \
                     through links",
                ),
            });
        }
        let default_id = contest_id_of(&default_title);
        if meta.is_none() {
            return Ok(ContestSpec {
                title: default_title,
                scoring: Scoring::Icpc,
                penalty: 20,
                problems: None,
                id: default_id,
                clock: ContestClock {
                    start: None,
                    duration_ms: DEFAULT_DURATION_MS,
                    freeze_ms: None,
                },
                languages: None,
                teams: Vec::new(),
                groups: Vec::new(),
                organizations: Vec::new(),
                jury: None,
                server: ServerLimits::default(),
                medals: MedalCounts::default(),
                balloons: Default::default(),
                printing: Default::default(),
            });
        }
        let text = std::fs::read_to_string(&path).map_err(|e| Error::io(&path, e))?;
        let raw: ContestDeserialize = toml::from_str(&text).map_err(|e| Error::Config {
            path: path.clone(),
            source: SpecError::one(e.to_string().trim_end()),
        })?;
        let mut problems = Vec::new();
        let clock = clock_of(&raw, &mut problems);
        let id = match raw.id {
            Some(id) if !is_identifier(&id) => {
                problems.push(format!("`id = {id:?}`: {IDENTIFIER_RULE}"));
                default_id
            }
            Some(id) => id,
            None => default_id,
        };
        let (teams, groups, organizations) =
            teams_of(dir, raw.teams, raw.groups, raw.organizations, &mut problems)?;
        let jury = raw
            .jury
            .and_then(|j| credential_of("jury", j.password, j.password_hash, &mut problems));
        let server = server_of(raw.server, &mut problems);
        let defaults = MedalCounts::default();
        let medals = raw.awards.map_or(defaults, |a| MedalCounts {
            gold: a.gold.unwrap_or(defaults.gold),
            silver: a.silver.unwrap_or(defaults.silver),
            bronze: a.bronze.unwrap_or(defaults.bronze),
        });
        let balloons = raw.balloons.unwrap_or_default();
        for (problem, colour) in &balloons {
            if !is_colour(colour) {
                problems.push(format!(
                    "[balloons] `{problem} = {colour:?}`: not a colour (write \"#ff0000\", \"#f00\" or a name such as \"red\")"
                ));
            }
        }
        let printing = super::printing::printing_of(raw.printing, &mut problems);
        if !problems.is_empty() {
            return Err(Error::Config {
                path,
                source: SpecError { problems },
            });
        }
        Ok(ContestSpec {
            title: raw.title.unwrap_or(default_title),
            scoring: raw.scoring.unwrap_or(Scoring::Icpc),
            penalty: raw.penalty.unwrap_or(20),
            problems: raw.problems,
            id,
            clock,
            languages: raw.languages,
            teams,
            groups,
            organizations,
            jury,
            server,
            medals,
            balloons,
            printing,
        })
    }
}

/// Whether `text` is a colour a page may show: `#` and 3 or 6 hex digits,
/// or a name of at most 20 letters (as CSS names them).
fn is_colour(text: &str) -> bool {
    match text.strip_prefix('#') {
        Some(hex) => matches!(hex.len(), 3 | 6) && hex.chars().all(|c| c.is_ascii_hexdigit()),
        None => (1..=20).contains(&text.len()) && text.chars().all(|c| c.is_ascii_alphabetic()),
    }
}

/// A folder name made a contest id: other characters become `-`.
fn contest_id_of(name: &str) -> String {
    let mut id: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '-') {
                c
            } else {
                '-'
            }
        })
        .take(36)
        .collect();
    id = id.trim_start_matches('-').to_string();
    if id.is_empty() {
        "contest".into()
    } else {
        id
    }
}

fn clock_of(raw: &ContestDeserialize, problems: &mut Vec<String>) -> ContestClock {
    let duration = |key: &str, text: &Option<String>, problems: &mut Vec<String>| {
        let text = text.as_deref()?;
        match humantime::parse_duration(text.trim()) {
            Ok(d) if d.as_millis() > 0 => Some(d.as_millis() as i64),
            Ok(_) => {
                problems.push(format!("`{key} = {text:?}`: must be more than zero"));
                None
            }
            Err(e) => {
                problems.push(format!(
                    "`{key} = {text:?}`: {e} (write e.g. \"5h\", \"4h 30m\")"
                ));
                None
            }
        }
    };
    let duration_ms = duration("duration", &raw.duration, problems).unwrap_or(DEFAULT_DURATION_MS);
    let freeze_ms = duration("freeze", &raw.freeze, problems);
    if freeze_ms.is_some_and(|f| f > duration_ms) {
        problems.push("`freeze` is longer than the contest's `duration`".into());
    }
    let start = match &raw.start {
        None => None,
        Some(toml::Value::Datetime(dt)) => datetime_ms(dt)
            .map_err(|e| problems.push(format!("`start`: {e}")))
            .ok(),
        Some(toml::Value::String(text)) => match text.parse::<toml::value::Datetime>() {
            Ok(dt) => datetime_ms(&dt)
                .map_err(|e| problems.push(format!("`start`: {e}")))
                .ok(),
            Err(_) => {
                problems.push(format!(
                    "`start = {text:?}`: not a date and time (write start = 2026-12-01T09:00:00Z)"
                ));
                None
            }
        },
        Some(other) => {
            problems.push(format!(
                "`start = {other}`: not a date and time (write start = 2026-12-01T09:00:00Z)"
            ));
            None
        }
    };
    ContestClock {
        start,
        duration_ms,
        freeze_ms,
    }
}

fn credential_of(
    who: &str,
    password: Option<String>,
    hash: Option<String>,
    problems: &mut Vec<String>,
) -> Option<Credential> {
    match (password, hash) {
        (Some(_), Some(_)) => {
            problems.push(format!(
                "{who}: give `password` or `password_hash`, not both"
            ));
            None
        }
        (Some(p), None) if p.is_empty() => {
            problems.push(format!("{who}: `password` is empty"));
            None
        }
        (Some(p), None) => Some(Credential::Plain(p)),
        (None, Some(h)) if !h.starts_with("$argon2") => {
            problems.push(format!(
                "{who}: `password_hash` is not an Argon2 hash (`$argon2id$...`, as `judge passwords` writes)"
            ));
            None
        }
        (None, Some(h)) => Some(Credential::Hash(h)),
        (None, None) => None,
    }
}

type Teams = (Vec<TeamSpec>, Vec<Group>, Vec<Organization>);

/// A roster file's teams as the contest's (a password in clear hashed at start).
fn specs_of(teams: Vec<roster::RosterTeam>) -> Vec<TeamSpec> {
    teams
        .into_iter()
        .map(|t| TeamSpec {
            id: t.id,
            name: t.name,
            credential: t.password.map(Credential::Plain),
            label: t.label,
            organization: t.organization,
            groups: t.groups,
            room: None,
        })
        .collect()
}

/// The teams: a roster file's beside contest.toml (its `[[teams]]` with the
/// same id give their password and name), `teams = N`, or contest.toml's own.
fn teams_of(
    dir: &Path,
    raw: Option<TeamsDeserialize>,
    raw_groups: Option<Vec<GroupDeserialize>>,
    raw_orgs: Option<Vec<OrganizationDeserialize>>,
    problems: &mut Vec<String>,
) -> Result<Teams> {
    let roster = roster::load(dir)?;
    let (tables, mut teams, mut groups, mut organizations) = match (raw, roster) {
        (Some(TeamsDeserialize::Count(_)), Some(r)) => {
            problems.push(format!(
                "`teams = N` and {} both list teams: keep one",
                r.source.display()
            ));
            return Ok((Vec::new(), Vec::new(), Vec::new()));
        }
        (Some(TeamsDeserialize::Count(0)), None) => {
            problems.push("`teams = 0`: a contest needs a team".into());
            return Ok((Vec::new(), Vec::new(), Vec::new()));
        }
        (Some(TeamsDeserialize::Count(n)), None) if n > 10_000 => {
            problems.push(format!("`teams = {n}`: at most 10000"));
            return Ok((Vec::new(), Vec::new(), Vec::new()));
        }
        (Some(TeamsDeserialize::Count(n)), None) => (
            Vec::new(),
            specs_of(roster::numbered(n)),
            Vec::new(),
            Vec::new(),
        ),
        (tables, roster) => {
            let tables = match tables {
                Some(TeamsDeserialize::Tables(t)) => t,
                _ => Vec::new(),
            };
            let r = roster.unwrap_or_default();
            (tables, specs_of(r.teams), r.groups, r.organizations)
        }
    };
    for g in raw_groups.unwrap_or_default() {
        let at = format!("[[groups]] `id = {:?}`", g.id);
        if !is_identifier(&g.id) {
            problems.push(format!("{at}: {IDENTIFIER_RULE}"));
            continue;
        }
        let group = Group {
            name: g.name.unwrap_or_else(|| g.id.clone()),
            id: g.id,
            hidden: g.hidden,
        };
        match groups.iter_mut().find(|x| x.id == group.id) {
            Some(x) => *x = group,
            None => groups.push(group),
        }
    }
    for o in raw_orgs.unwrap_or_default() {
        let at = format!("[[organizations]] `id = {:?}`", o.id);
        if !is_identifier(&o.id) {
            problems.push(format!("{at}: {IDENTIFIER_RULE}"));
            continue;
        }
        let name = o.name.unwrap_or_else(|| o.id.clone());
        let org = Organization {
            formal_name: o.formal_name.unwrap_or_else(|| name.clone()),
            name,
            id: o.id,
            country: o.country,
        };
        match organizations.iter_mut().find(|x| x.id == org.id) {
            Some(x) => *x = org,
            None => organizations.push(org),
        }
    }
    let mut seen: BTreeSet<String> = BTreeSet::new();
    for (i, t) in tables.into_iter().enumerate() {
        let at = format!("[[teams]] {} (`id = {:?}`)", i + 1, t.id);
        if !is_identifier(&t.id) {
            problems.push(format!("{at}: {IDENTIFIER_RULE}"));
            continue;
        }
        if t.id == "jury" {
            problems.push(format!(
                "{at}: `jury` is the jury's login; give the team another id"
            ));
            continue;
        }
        if !seen.insert(t.id.clone()) {
            problems.push(format!("{at}: two teams have this id"));
            continue;
        }
        let credential = credential_of(&at, t.password, t.password_hash, problems);
        let mut team_groups: Vec<String> = t.group.into_iter().collect();
        team_groups.extend(t.groups.unwrap_or_default());
        let name = t.name.filter(|n| !n.trim().is_empty());
        let room = t.room.filter(|r| !r.trim().is_empty());
        match teams.iter_mut().find(|x| x.id == t.id) {
            Some(x) => {
                // A roster team: the table adds its password, or renames it.
                if credential.is_some() {
                    x.credential = credential;
                }
                if let Some(name) = name {
                    x.name = name;
                }
                if t.organization.is_some() {
                    x.organization = t.organization;
                }
                if !team_groups.is_empty() {
                    x.groups = team_groups;
                }
                if room.is_some() {
                    x.room = room;
                }
            }
            None => teams.push(TeamSpec {
                name: name.unwrap_or_else(|| t.id.clone()),
                id: t.id,
                label: None,
                organization: t.organization,
                groups: team_groups,
                credential,
                room,
            }),
        }
    }
    for t in &teams {
        if let Some(o) = &t.organization {
            if !organizations.iter().any(|x| &x.id == o) {
                problems.push(format!(
                    "team `{}`: no organization `{o}` (add [[organizations]] with `id = {o:?}`)",
                    t.id
                ));
            }
        }
        for g in &t.groups {
            if !groups.iter().any(|x| &x.id == g) {
                problems.push(format!(
                    "team `{}`: no group `{g}` (add [[groups]] with `id = {g:?}`)",
                    t.id
                ));
            }
        }
    }
    Ok((teams, groups, organizations))
}

fn server_of(raw: Option<ServerDeserialize>, problems: &mut Vec<String>) -> ServerLimits {
    let mut limits = ServerLimits::default();
    let Some(raw) = raw else {
        return limits;
    };
    if let Some(text) = raw.max_source {
        match crate::units::parse_size(&text) {
            Ok(0) | Err(_) => problems.push(format!(
                "[server] `max_source = {text:?}`: not a size above zero (write e.g. \"256KiB\")"
            )),
            Ok(bytes) => limits.max_source = bytes,
        }
    }
    if let Some(n) = raw.submissions_per_minute {
        if n == 0 {
            problems.push("[server] `submissions_per_minute` must be at least 1".into());
        } else {
            limits.submissions_per_minute = n;
        }
    }
    limits
}

/// A file name split into problem and attempt: `hdu-1527.cpp` -> (`hdu-1527`, 1),
/// `hdu-1527.2.cpp` -> (`hdu-1527`, 2); `None` when it names no known problem.
pub(crate) fn parse_submission_name(name: &str, known: &BTreeSet<String>) -> Option<(String, u32)> {
    let stem = match name.rsplit_once('.') {
        Some((stem, _ext)) => stem,
        None => name,
    };
    if known.contains(stem) {
        return Some((stem.to_string(), 1));
    }
    let (problem, attempt) = stem.rsplit_once('.')?;
    let attempt: u32 = attempt.parse().ok().filter(|n| *n >= 1)?;
    known
        .contains(problem)
        .then(|| (problem.to_string(), attempt))
}
