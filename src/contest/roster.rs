//! A live contest's teams from the files coaches already have, placed beside
//! contest.toml: DOMjudge's `teams.tsv` (with `accounts.tsv` and
//! `groups.tsv`), the Contest API's contest-package files (`teams.json` with
//! `accounts.json`, `groups.json`, `organizations.json`), or a `teams.csv`
//! (`id,name,affiliation,group[,password]`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::ids::is_identifier;
use crate::error::{Error, Result, SpecError};

/// A group of teams (a category: participants, observers, ...).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Group {
    /// Its id in the Contest API.
    pub(crate) id: String,
    /// Its name.
    pub(crate) name: String,
    /// Hidden from the public scoreboard.
    pub(crate) hidden: bool,
}

/// An organization (a team's affiliation: a university, a school).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Organization {
    /// Its id in the Contest API.
    pub(crate) id: String,
    /// Its short name.
    pub(crate) name: String,
    /// Its full name.
    pub(crate) formal_name: String,
    /// ISO 3166-1 alpha-3 country code, when known.
    pub(crate) country: Option<String>,
}

/// A team as a roster file gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RosterTeam {
    /// Its login (the account's username), also its id in the Contest API.
    pub(crate) id: String,
    /// Its label (DOMjudge's team number), when the file has one.
    pub(crate) label: Option<String>,
    /// Its name.
    pub(crate) name: String,
    /// Its organization's id.
    pub(crate) organization: Option<String>,
    /// Its groups' ids.
    pub(crate) groups: Vec<String>,
    /// Its password in clear, when the file gives one.
    pub(crate) password: Option<String>,
}

/// The teams, groups and organizations of a roster file.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Roster {
    /// The file the teams came from.
    pub(crate) source: PathBuf,
    pub(crate) teams: Vec<RosterTeam>,
    pub(crate) groups: Vec<Group>,
    pub(crate) organizations: Vec<Organization>,
}

/// The roster files a contest folder may hold, in the order they are looked for.
pub(crate) const ROSTER_FILES: [&str; 3] = ["teams.tsv", "teams.json", "teams.csv"];

/// Reads the roster beside contest.toml in `dir`, if there is one; two
/// kinds at once are refused (which would win is not obvious).
pub(crate) fn load(dir: &Path) -> Result<Option<Roster>> {
    let present: Vec<&str> = ROSTER_FILES
        .into_iter()
        .filter(|f| std::fs::symlink_metadata(dir.join(f)).is_ok())
        .collect();
    match present.as_slice() {
        [] => Ok(None),
        [one] => {
            let roster = match *one {
                "teams.tsv" => domjudge(dir)?,
                "teams.json" => package(dir)?,
                _ => csv_file(&dir.join(one))?,
            };
            check(&roster)?;
            Ok(Some(roster))
        }
        many => Err(Error::Config {
            path: dir.join(many[0]),
            source: SpecError::one(format!(
                "the folder holds {}: keep one list of teams",
                many.join(" and ")
            )),
        }),
    }
}

/// `count` teams for a quick camp: `team01`, `team02`, ...
pub(crate) fn numbered(count: u32) -> Vec<RosterTeam> {
    let width = count.to_string().len().max(2);
    (1..=count)
        .map(|n| RosterTeam {
            id: format!("team{n:0width$}"),
            label: Some(n.to_string()),
            name: format!("Team {n}"),
            organization: None,
            groups: Vec::new(),
            password: None,
        })
        .collect()
}

/// Reads a file of a roster: a regular file only (nothing of a contest
/// folder is read through links).
fn read(path: &Path) -> Result<String> {
    let meta = std::fs::symlink_metadata(path).map_err(|e| Error::io(path, e))?;
    if !meta.is_file() {
        return Err(bad(
            path,
            "not a regular file (a link, say): nothing of a contest folder is read through links",
        ));
    }
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    let text = String::from_utf8(bytes).map_err(|_| bad(path, "not UTF-8 text"))?;
    Ok(text.strip_prefix('\u{feff}').unwrap_or(&text).to_string())
}

fn bad(path: &Path, problem: impl Into<String>) -> Error {
    Error::Config {
        path: path.to_path_buf(),
        source: SpecError::one(problem),
    }
}

fn bad_all(path: &Path, problems: Vec<String>) -> Result<()> {
    if problems.is_empty() {
        Ok(())
    } else {
        Err(Error::Config {
            path: path.to_path_buf(),
            source: SpecError { problems },
        })
    }
}

/// The rows of a DOMjudge TSV file after its version line (`File_Version\tN`
/// or `KIND\tN`, N among `versions`), each with its line number.
fn tsv_rows<'a>(
    path: &Path,
    text: &'a str,
    kind: &str,
    versions: &[&str],
) -> Result<Vec<(usize, Vec<&'a str>)>> {
    let mut lines = text.lines().enumerate();
    let header = lines.next().map(|(_, l)| l.trim_end()).unwrap_or("");
    let fields: Vec<&str> = header.split('\t').collect();
    let ok = fields.len() == 2
        && (fields[0].eq_ignore_ascii_case("File_Version") || fields[0].eq_ignore_ascii_case(kind))
        && versions.contains(&fields[1].trim());
    if !ok {
        return Err(bad(
            path,
            format!(
                "line 1: {header:?} is not the version line DOMjudge writes (`{kind}\\t{}` or `File_Version\\t{}`)",
                versions[versions.len() - 1],
                versions[versions.len() - 1]
            ),
        ));
    }
    Ok(lines
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            (
                i + 1,
                l.trim_end_matches(['\r', '\n']).split('\t').collect(),
            )
        })
        .collect())
}

/// An id made of a name: other characters become `-`.
fn slug(name: &str) -> String {
    let id: String = name
        .trim()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '-') {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .take(36)
        .collect();
    let id = id.trim_matches('-').to_string();
    if id.is_empty() {
        "x".into()
    } else {
        id
    }
}

/// DOMjudge's files: `teams.tsv`, and when present `accounts.tsv` (team
/// accounts linked to teams as DOMjudge links them: `team001` is team 1)
/// and `groups.tsv`.
fn domjudge(dir: &Path) -> Result<Roster> {
    let path = dir.join("teams.tsv");
    let text = read(&path)?;
    let mut problems = Vec::new();
    let mut groups = BTreeMap::new();
    let groups_path = dir.join("groups.tsv");
    if groups_path.exists() {
        let text = read(&groups_path)?;
        let mut group_problems = Vec::new();
        for (line, f) in tsv_rows(&groups_path, &text, "groups", &["1"])? {
            match f.as_slice() {
                [id, name, ..] if !id.trim().is_empty() => {
                    groups.insert(
                        id.trim().to_string(),
                        Group {
                            id: id.trim().to_string(),
                            name: name.trim().to_string(),
                            hidden: false,
                        },
                    );
                }
                _ => group_problems.push(format!("line {line}: expected `id<TAB>name`")),
            }
        }
        bad_all(&groups_path, group_problems)?;
    }
    let mut organizations: BTreeMap<String, Organization> = BTreeMap::new();
    let mut teams = Vec::new();
    for (line, f) in tsv_rows(&path, &text, "teams", &["1", "2"])? {
        if f.len() < 4 {
            problems.push(format!(
                "line {line}: {} field(s); a team's line is number, external id, category id, \
                 name[, institution, short name, country, institution id]",
                f.len()
            ));
            continue;
        }
        let field = |i: usize| f.get(i).map(|s| s.trim()).filter(|s| !s.is_empty());
        let number = f[0].trim();
        if number.parse::<u64>().is_err() {
            problems.push(format!(
                "line {line}: team number {number:?} is not a number"
            ));
            continue;
        }
        let group = field(2).map(str::to_string);
        if let Some(g) = &group {
            groups.entry(g.clone()).or_insert_with(|| Group {
                id: g.clone(),
                name: g.clone(),
                hidden: false,
            });
        }
        let organization = field(4).map(|formal| {
            let short = field(5).unwrap_or(formal);
            let id = field(7).map(str::to_string).unwrap_or_else(|| slug(short));
            organizations
                .entry(id.clone())
                .or_insert_with(|| Organization {
                    id: id.clone(),
                    name: short.to_string(),
                    formal_name: formal.to_string(),
                    country: field(6).map(str::to_string),
                });
            id
        });
        teams.push(RosterTeam {
            id: format!("team{:0>3}", number.trim_start_matches('0')),
            label: Some(number.to_string()),
            name: field(3).unwrap_or(number).to_string(),
            organization,
            groups: group.into_iter().collect(),
            password: None,
        });
    }
    bad_all(&path, problems)?;
    let accounts_path = dir.join("accounts.tsv");
    if accounts_path.exists() {
        let text = read(&accounts_path)?;
        let mut problems = Vec::new();
        for (line, f) in tsv_rows(&accounts_path, &text, "accounts", &["1"])? {
            let [kind, _full_name, username, password, ..] = f.as_slice() else {
                problems.push(format!(
                    "line {line}: expected type, full name, username, password"
                ));
                continue;
            };
            if !kind.trim().eq_ignore_ascii_case("team") {
                continue; // the jury logs in as `jury`, with contest.toml's password
            }
            let username = username.trim();
            let Some(number) = username
                .strip_prefix("team")
                .and_then(|n| n.parse::<u64>().ok())
            else {
                problems.push(format!(
                    "line {line}: team account {username:?} names no team (DOMjudge links \
                     `teamN` to team N)"
                ));
                continue;
            };
            let Some(team) = teams
                .iter_mut()
                .find(|t| t.label.as_deref().and_then(|l| l.parse::<u64>().ok()) == Some(number))
            else {
                problems.push(format!(
                    "line {line}: account {username:?}: teams.tsv has no team {number}"
                ));
                continue;
            };
            team.id = username.to_string();
            if !password.is_empty() {
                team.password = Some(password.to_string());
            }
        }
        bad_all(&accounts_path, problems)?;
    }
    Ok(Roster {
        source: path,
        teams,
        groups: groups.into_values().collect(),
        organizations: organizations.into_values().collect(),
    })
}

#[derive(Deserialize)]
struct JsonTeam {
    id: String,
    label: Option<String>,
    name: String,
    display_name: Option<String>,
    organization_id: Option<String>,
    #[serde(default)]
    group_ids: Vec<String>,
}

#[derive(Deserialize)]
struct JsonGroup {
    id: String,
    name: String,
    #[serde(default)]
    hidden: bool,
}

#[derive(Deserialize)]
struct JsonOrganization {
    id: String,
    name: String,
    formal_name: Option<String>,
    country: Option<String>,
}

#[derive(Deserialize)]
struct JsonAccount {
    username: String,
    password: Option<String>,
    #[serde(rename = "type")]
    kind: Option<String>,
    team_id: Option<String>,
}

fn json<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<Vec<T>> {
    let text = read(path)?;
    serde_json::from_str(&text).map_err(|e| bad(path, e.to_string()))
}

/// A contest package's files, as the Contest API specification names them.
fn package(dir: &Path) -> Result<Roster> {
    let path = dir.join("teams.json");
    let raw: Vec<JsonTeam> = json(&path)?;
    let optional = |name: &str| {
        let p = dir.join(name);
        p.exists().then_some(p)
    };
    let groups = match optional("groups.json") {
        Some(p) => json::<JsonGroup>(&p)?
            .into_iter()
            .map(|g| Group {
                id: g.id,
                name: g.name,
                hidden: g.hidden,
            })
            .collect(),
        None => Vec::new(),
    };
    let organizations = match optional("organizations.json") {
        Some(p) => json::<JsonOrganization>(&p)?
            .into_iter()
            .map(|o| Organization {
                formal_name: o.formal_name.unwrap_or_else(|| o.name.clone()),
                id: o.id,
                name: o.name,
                country: o.country,
            })
            .collect(),
        None => Vec::new(),
    };
    let mut teams: Vec<RosterTeam> = raw
        .into_iter()
        .map(|t| RosterTeam {
            label: t.label,
            name: t.display_name.unwrap_or(t.name),
            organization: t.organization_id,
            groups: t.group_ids,
            password: None,
            id: t.id,
        })
        .collect();
    if let Some(accounts_path) = optional("accounts.json") {
        let mut problems = Vec::new();
        for (i, a) in json::<JsonAccount>(&accounts_path)?.into_iter().enumerate() {
            let is_team = a.kind.as_deref().is_none_or(|k| k == "team");
            let Some(team_id) = a.team_id.filter(|_| is_team) else {
                continue;
            };
            let Some(team) = teams.iter_mut().find(|t| t.id == team_id) else {
                problems.push(format!(
                    "account {} ({:?}): teams.json has no team {team_id:?}",
                    i + 1,
                    a.username
                ));
                continue;
            };
            team.id = a.username;
            if let Some(p) = a.password.filter(|p| !p.is_empty()) {
                team.password = Some(p);
            }
        }
        bad_all(&accounts_path, problems)?;
    }
    Ok(Roster {
        source: path,
        teams,
        groups,
        organizations,
    })
}

/// `teams.csv`: `id,name,affiliation,group[,password]`, a header line
/// optional; affiliations and groups by name.
fn csv_file(path: &Path) -> Result<Roster> {
    let text = read(path)?;
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let mut problems = Vec::new();
    let mut teams = Vec::new();
    let mut groups: BTreeMap<String, Group> = BTreeMap::new();
    let mut organizations: BTreeMap<String, Organization> = BTreeMap::new();
    for (i, record) in reader.records().enumerate() {
        let line = i + 1;
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                problems.push(format!("line {line}: {e}"));
                continue;
            }
        };
        let field = |i: usize| record.get(i).filter(|s| !s.is_empty());
        if line == 1 && field(0).is_some_and(|f| f.eq_ignore_ascii_case("id")) {
            continue;
        }
        if record.iter().all(str::is_empty) {
            continue;
        }
        let (Some(id), Some(name)) = (field(0), field(1)) else {
            problems.push(format!(
                "line {line}: expected id,name[,affiliation[,group[,password]]]"
            ));
            continue;
        };
        let organization = field(2).map(|org| {
            let id = slug(org);
            organizations
                .entry(id.clone())
                .or_insert_with(|| Organization {
                    id: id.clone(),
                    name: org.to_string(),
                    formal_name: org.to_string(),
                    country: None,
                });
            id
        });
        let group = field(3).map(|g| {
            let id = slug(g);
            groups.entry(id.clone()).or_insert_with(|| Group {
                id: id.clone(),
                name: g.to_string(),
                hidden: false,
            });
            id
        });
        teams.push(RosterTeam {
            id: id.to_string(),
            label: None,
            name: name.to_string(),
            organization,
            groups: group.into_iter().collect(),
            password: field(4).map(str::to_string),
        });
    }
    bad_all(path, problems)?;
    Ok(Roster {
        source: path.to_path_buf(),
        teams,
        groups: groups.into_values().collect(),
        organizations: organizations.into_values().collect(),
    })
}

/// Ids are the Contest API's, unique, and what teams name exists.
fn check(roster: &Roster) -> Result<()> {
    let mut problems = Vec::new();
    let groups: BTreeSet<&str> = roster.groups.iter().map(|g| g.id.as_str()).collect();
    let orgs: BTreeSet<&str> = roster.organizations.iter().map(|o| o.id.as_str()).collect();
    let mut seen = BTreeSet::new();
    for t in &roster.teams {
        if !is_identifier(&t.id) {
            problems.push(format!(
                "team {:?} ({}): not a login the server takes (1 to 36 of `A-Z a-z 0-9 _ . -`)",
                t.id, t.name
            ));
        } else if t.id == "jury" {
            problems.push("a team is called `jury`, the jury's login".into());
        } else if !seen.insert(t.id.as_str()) {
            problems.push(format!("two teams have the login {:?}", t.id));
        }
        if let Some(o) = &t.organization {
            if !orgs.contains(o.as_str()) {
                problems.push(format!("team {:?}: no organization {o:?}", t.id));
            }
        }
        for g in &t.groups {
            if !groups.contains(g.as_str()) {
                problems.push(format!("team {:?}: no group {g:?}", t.id));
            }
        }
    }
    for id in groups.iter().chain(orgs.iter()) {
        if !is_identifier(id) {
            problems.push(format!("{id:?} is not an id of the Contest API"));
        }
    }
    bad_all(&roster.source, problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in files {
            std::fs::write(dir.path().join(name), text).unwrap();
        }
        dir
    }

    fn problems(e: Error) -> String {
        match e {
            Error::Config { path, source } => {
                format!("{}: {}", path.display(), source.problems.join("; "))
            }
            other => panic!("not a config error: {other}"),
        }
    }

    #[test]
    fn domjudge_teams_are_linked_to_their_accounts() {
        let dir = folder(&[
            (
                "teams.tsv",
                "File_Version\t2\n1\t1\t3\tNull Pointers\tUniversity of Utrecht\tUU\tNLD\tuu\n\
                 2\t2\t3\tOff By One\tUniversity of Utrecht\tUU\tNLD\tuu\n\
                 10\t10\t4\tGuests\n",
            ),
            (
                "accounts.tsv",
                "accounts\t1\nteam\tNull Pointers\tteam001\tsecret1\nteam\tOff By One\tteam002\tsecret2\n\
                 judge\tAlice\talice\tpw\n",
            ),
            ("groups.tsv", "File_Version\t1\n3\tParticipants\n4\tObservers\n"),
        ]);
        let r = load(dir.path()).unwrap().unwrap();
        let ids: Vec<&str> = r.teams.iter().map(|t| t.id.as_str()).collect();
        assert_eq!(ids, ["team001", "team002", "team010"]);
        assert_eq!(r.teams[0].password.as_deref(), Some("secret1"));
        assert_eq!(r.teams[2].password, None);
        assert_eq!(r.teams[0].organization.as_deref(), Some("uu"));
        assert_eq!(r.teams[0].groups, ["3"]);
        assert_eq!(r.organizations.len(), 1);
        assert_eq!(r.organizations[0].country.as_deref(), Some("NLD"));
        assert_eq!(r.groups[1].name, "Observers");
    }

    #[test]
    fn a_bad_domjudge_file_is_named_with_its_line() {
        let dir = folder(&[("teams.tsv", "teams\t2\n1\tx\n")]);
        let e = problems(load(dir.path()).unwrap_err());
        assert!(e.contains("teams.tsv") && e.contains("line 2"), "{e}");
        let dir = folder(&[("teams.tsv", "name\tid\n")]);
        let e = problems(load(dir.path()).unwrap_err());
        assert!(e.contains("line 1") && e.contains("version line"), "{e}");
        let dir = folder(&[
            ("teams.tsv", "teams\t2\n1\t1\t3\tA\n"),
            ("accounts.tsv", "accounts\t1\nteam\tB\tteam007\tpw\n"),
        ]);
        let e = problems(load(dir.path()).unwrap_err());
        assert!(e.contains("accounts.tsv") && e.contains("no team 7"), "{e}");
    }

    #[test]
    fn a_contest_package_links_accounts_by_team_id() {
        let dir = folder(&[
            (
                "teams.json",
                r#"[{"id":"1","name":"A","organization_id":"inst","group_ids":["p"]},
                    {"id":"2","name":"B","display_name":"Bee"}]"#,
            ),
            (
                "organizations.json",
                r#"[{"id":"inst","name":"Inst","country":"DEU"}]"#,
            ),
            (
                "groups.json",
                r#"[{"id":"p","name":"Participants"},{"id":"o","name":"Obs","hidden":true}]"#,
            ),
            (
                "accounts.json",
                r#"[{"id":"a1","username":"team1","password":"pw","type":"team","team_id":"1"},
                    {"id":"j","username":"judge","type":"judge"}]"#,
            ),
        ]);
        let r = load(dir.path()).unwrap().unwrap();
        assert_eq!(r.teams[0].id, "team1");
        assert_eq!(r.teams[0].password.as_deref(), Some("pw"));
        assert_eq!(r.teams[1].id, "2");
        assert_eq!(r.teams[1].name, "Bee");
        assert!(r.groups[1].hidden);
    }

    #[test]
    fn a_csv_with_quotes_and_a_header() {
        let dir = folder(&[(
            "teams.csv",
            "id,name,affiliation,group\nt1,\"Commas, Inc.\",Uni A,Participants\nt2,Two,,Observers\n",
        )]);
        let r = load(dir.path()).unwrap().unwrap();
        assert_eq!(r.teams[0].name, "Commas, Inc.");
        assert_eq!(r.teams[0].organization.as_deref(), Some("uni-a"));
        assert_eq!(r.teams[1].groups, ["observers"]);
        assert_eq!(r.teams[1].organization, None);
    }

    #[test]
    fn duplicates_two_kinds_and_links_are_refused() {
        let dir = folder(&[("teams.csv", "a,A\na,B\n")]);
        let e = problems(load(dir.path()).unwrap_err());
        assert!(e.contains("two teams have the login \"a\""), "{e}");
        let dir = folder(&[("teams.csv", "a,A\n"), ("teams.json", "[]")]);
        let e = problems(load(dir.path()).unwrap_err());
        assert!(e.contains("keep one list"), "{e}");
        let dir = folder(&[]);
        std::os::unix::fs::symlink("/etc/passwd", dir.path().join("teams.csv")).unwrap();
        let e = problems(load(dir.path()).unwrap_err());
        assert!(e.contains("through links"), "{e}");
    }

    #[test]
    fn numbered_teams_pad_their_numbers() {
        let t = numbered(12);
        assert_eq!(t[0].id, "team01");
        assert_eq!(t[11].id, "team12");
        assert_eq!(numbered(100)[0].id, "team001");
    }
}
