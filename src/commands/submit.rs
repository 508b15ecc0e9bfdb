//! `judge submit` (a file sent to a contest server through the Contest
//! API, as DOMjudge's submit client does: the team's password from
//! `JUDGE_PASSWORD` or `~/.netrc`), `judge archive` (the contest's archive
//! downloaded as the jury) and `judge passwords` (passwords made
//! for a contest's teams and jury: their hashes written into contest.toml,
//! the passwords printed to hand out).

use std::io::Write;
use std::path::Path;
use std::time::Duration;

use base64::Engine;
use serde_json::{json, Value};

use super::print;
use crate::cli::args::{ArchiveArgs, PasswordsArgs, SubmitArgs};
use crate::contest::{ContestSpec, CONTEST_FILE};
use crate::error::{exit_code, Error, Result, SpecError};
use crate::server::auth::{generate_password, Argon};
use crate::server::files::zip_one;

/// A client of the server at `server` (`http://HOST:PORT`) logged in as
/// `login` (its password from `JUDGE_PASSWORD` or `~/.netrc`), a request
/// taking at most `timeout`, and the server's address without a trailing
/// `/`.
fn client(server: &str, login: &str, timeout: Duration) -> Result<(Client, String)> {
    let base = server.trim_end_matches('/').to_string();
    let Some(host) = base
        .strip_prefix("http://")
        .or_else(|| base.strip_prefix("https://"))
        .map(|rest| rest.split(['/', ':']).next().unwrap_or(""))
    else {
        return Err(Error::Usage(format!(
            "--server `{server}`: give the server's address as http://HOST:PORT"
        )));
    };
    if base.starts_with("https://") {
        return Err(Error::Usage(
            "judge speaks plain HTTP to a server (judge serve's); for an HTTPS server use its web page"
                .into(),
        ));
    }
    let password = password_for(host, login)?;
    let client = Client {
        agent: ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(timeout))
            .build()
            .into(),
        auth: format!(
            "Basic {}",
            base64::engine::general_purpose::STANDARD.encode(format!("{login}:{password}"))
        ),
        api: format!("{base}/api"),
    };
    Ok((client, base))
}

impl Client {
    /// The contest named, or the server's only one.
    fn contest(&self, named: Option<&String>) -> Result<String> {
        let contests = self.get("/contests")?;
        Ok(match (named, contests.as_array().map(Vec::as_slice)) {
            (Some(id), _) => id.clone(),
            (None, Some([only])) => only["id"].as_str().unwrap_or_default().to_string(),
            (None, _) => {
                return Err(Error::Usage(
                    "the server has several contests (or none): name one with --contest".into(),
                ))
            }
        })
    }
}

pub(super) fn submit(args: SubmitArgs) -> Result<i32> {
    let (client, base) = client(&args.server, &args.team, Duration::from_secs(60))?;
    let source = std::fs::read(&args.file).map_err(|e| Error::io(&args.file, e))?;
    let filename = args
        .file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let contest = client.contest(args.contest.as_ref())?;
    let stem = filename
        .rsplit_once('.')
        .map(|(s, _)| s)
        .unwrap_or(&filename);
    let wanted_problem = args.problem.clone().unwrap_or_else(|| stem.to_string());
    let problems = client.get(&format!("/contests/{contest}/problems"))?;
    let problem = problems
        .as_array()
        .into_iter()
        .flatten()
        .find(|p| {
            ["id", "label"].iter().any(|k| {
                p[k].as_str()
                    .is_some_and(|v| v.eq_ignore_ascii_case(&wanted_problem))
            })
        })
        .and_then(|p| p["id"].as_str())
        .ok_or_else(|| {
            Error::Usage(format!(
                "the contest has no problem `{wanted_problem}` (give --problem ID or LABEL)"
            ))
        })?
        .to_string();
    let ext = filename.rsplit_once('.').map(|(_, e)| e).unwrap_or("");
    let wanted_language = args.language.clone().unwrap_or_else(|| ext.to_string());
    let languages = client.get(&format!("/contests/{contest}/languages"))?;
    let language = languages
        .as_array()
        .into_iter()
        .flatten()
        .find(|l| {
            l["id"].as_str() == Some(wanted_language.as_str())
                || l["extensions"].as_array().into_iter().flatten().any(|e| {
                    e.as_str()
                        .is_some_and(|e| e.eq_ignore_ascii_case(&wanted_language))
                })
        })
        .and_then(|l| l["id"].as_str())
        .ok_or_else(|| {
            Error::Usage(format!(
                "the contest has no language `{wanted_language}` (give --language ID)"
            ))
        })?
        .to_string();
    let body = json!({
        "problem_id": problem,
        "language_id": language,
        "files": [{"data": base64::engine::general_purpose::STANDARD.encode(zip_one(&filename, &source))}],
    });
    let created = client.post(&format!("/contests/{contest}/submissions"), &body)?;
    let id = created["id"].as_str().unwrap_or("?");
    print(&format!(
        "submission {id} received at {} (contest time {}): {problem}, {language}, {filename}\n\
         follow it at {base}/team/submissions/{id}\n",
        created["time"].as_str().unwrap_or("?"),
        created["contest_time"].as_str().unwrap_or("?"),
    ));
    Ok(exit_code::OK)
}

/// `judge archive`: the contest's archive, downloaded as the jury.
pub(super) fn archive(args: ArchiveArgs) -> Result<i32> {
    let (client, _) = client(&args.server, "jury", Duration::from_secs(600))?;
    let contest = client.contest(args.contest.as_ref())?;
    let zip = client.get_bytes(&format!("/contests/{contest}/archive"))?;
    let out = args
        .out
        .unwrap_or_else(|| std::path::PathBuf::from(format!("{contest}.zip")));
    std::fs::write(&out, &zip).map_err(|source| Error::Write {
        path: out.clone(),
        source,
    })?;
    print(&format!(
        "the archive of {contest} ({} bytes) is in {}\n\
         replay it: unzip -d {contest}-archive {} && judge batch {contest}-archive --out replay\n",
        zip.len(),
        out.display(),
        out.display(),
    ));
    Ok(exit_code::OK)
}

/// The team's password: `JUDGE_PASSWORD`, else `~/.netrc`'s entry for the
/// host and the team (as DOMjudge's client reads it).
fn password_for(host: &str, team: &str) -> Result<String> {
    if let Ok(p) = std::env::var("JUDGE_PASSWORD") {
        return Ok(p);
    }
    let netrc = std::env::var_os("HOME").map(|h| Path::new(&h).join(".netrc"));
    if let Some(text) = netrc.as_ref().and_then(|p| std::fs::read_to_string(p).ok()) {
        let words: Vec<&str> = text.split_whitespace().collect();
        let mut i = 0;
        while i < words.len() {
            if words[i] == "machine" && words.get(i + 1) == Some(&host) {
                let (mut login, mut password) = (None, None);
                let mut j = i + 2;
                while j + 1 < words.len() && words[j] != "machine" {
                    match words[j] {
                        "login" => login = Some(words[j + 1]),
                        "password" => password = Some(words[j + 1]),
                        _ => {}
                    }
                    j += 2;
                }
                if login == Some(team) {
                    if let Some(p) = password {
                        return Ok(p.to_string());
                    }
                }
                i = j;
            } else {
                i += 1;
            }
        }
    }
    Err(Error::Usage(format!(
        "no password for team `{team}`: set JUDGE_PASSWORD, or add to ~/.netrc the line \
         `machine {host} login {team} password YOUR-PASSWORD`"
    )))
}

struct Client {
    agent: ureq::Agent,
    auth: String,
    api: String,
}

impl Client {
    fn answer(&self, url: &str, response: ureq::http::Response<ureq::Body>) -> Result<Value> {
        let status = response.status().as_u16();
        let text = response
            .into_body()
            .read_to_string()
            .map_err(|e| Error::server(format!("{url}: an unreadable answer"), e))?;
        let value: Value = serde_json::from_str(&text).unwrap_or(Value::String(text));
        if status >= 300 {
            let message = value["message"].as_str().unwrap_or("").to_string();
            return Err(Error::Server {
                what: format!("{url}: the server answered {status}: {message}"),
                source: None,
            });
        }
        Ok(value)
    }

    /// `path`'s answer, whatever its status, with the URL it came from.
    fn fetch(&self, path: &str) -> Result<(String, ureq::http::Response<ureq::Body>)> {
        let url = format!("{}{path}", self.api);
        let response = self
            .agent
            .get(&url)
            .header("Authorization", &self.auth)
            .call()
            .map_err(|e| Error::server(format!("cannot reach {url}"), e))?;
        Ok((url, response))
    }

    fn get(&self, path: &str) -> Result<Value> {
        let (url, response) = self.fetch(path)?;
        self.answer(&url, response)
    }

    /// The bytes of `path` (a zip), or the server's error.
    fn get_bytes(&self, path: &str) -> Result<Vec<u8>> {
        let (url, response) = self.fetch(path)?;
        if response.status().as_u16() >= 300 {
            return self.answer(&url, response).map(|_| Vec::new());
        }
        response
            .into_body()
            .with_config()
            .limit(4 << 30)
            .read_to_vec()
            .map_err(|e| Error::server(format!("{url}: an unreadable answer"), e))
    }

    fn post(&self, path: &str, body: &Value) -> Result<Value> {
        let url = format!("{}{path}", self.api);
        let response = self
            .agent
            .post(&url)
            .header("Authorization", &self.auth)
            .content_type("application/json")
            .send(body.to_string().as_bytes())
            .map_err(|e| Error::server(format!("cannot reach {url}"), e))?;
        self.answer(&url, response)
    }
}

pub(super) fn passwords(args: PasswordsArgs) -> Result<i32> {
    let path = args.dir.join(CONTEST_FILE);
    if !path.is_file() {
        return Err(Error::Config {
            path,
            source: SpecError::one("no such file: write the contest's teams in it first"),
        });
    }
    // The file must be valid before it is rewritten.
    let spec = ContestSpec::load(&args.dir)?;
    let text = std::fs::read_to_string(&path).map_err(|e| Error::io(&path, e))?;
    let mut doc: toml_edit::DocumentMut =
        text.parse()
            .map_err(|e: toml_edit::TomlError| Error::Config {
                path: path.clone(),
                source: SpecError::one(e.to_string()),
            })?;
    let mut sheet: Vec<(String, String, String)> = Vec::new();
    let argon = Argon::default();
    let mut set = |table: &mut dyn toml_edit::TableLike, who: &str, name: &str| {
        let has = table.contains_key("password") || table.contains_key("password_hash");
        if has && !args.all {
            return;
        }
        let password = generate_password();
        table.remove("password");
        table.insert("password_hash", toml_edit::value(argon.hash(&password)));
        sheet.push((who.to_string(), name.to_string(), password));
    };
    // Each team by its id: a team of a roster file (teams.tsv, ...) or of
    // `teams = N` without a table gets one, holding only its id and hash.
    let counted = doc.get("teams").is_some_and(|t| t.is_integer());
    if counted {
        doc.remove("teams");
    }
    if !doc.contains_key("teams") {
        doc.insert(
            "teams",
            toml_edit::Item::ArrayOfTables(toml_edit::ArrayOfTables::new()),
        );
    }
    if let Some(teams) = doc
        .get_mut("teams")
        .and_then(|t| t.as_array_of_tables_mut())
    {
        for spec_team in &spec.teams {
            let found = teams
                .iter()
                .position(|t| t.get("id").and_then(|i| i.as_str()) == Some(spec_team.id.as_str()));
            let index = match found {
                Some(i) => i,
                None => {
                    // A roster team's password may be in its file (accounts.tsv).
                    if spec_team.credential.is_some() && !args.all {
                        continue;
                    }
                    let mut table = toml_edit::Table::new();
                    table.insert("id", toml_edit::value(spec_team.id.clone()));
                    if counted {
                        table.insert("name", toml_edit::value(spec_team.name.clone()));
                    }
                    teams.push(table);
                    teams.len() - 1
                }
            };
            if let Some(team) = teams.get_mut(index) {
                set(team, &spec_team.id, &spec_team.name);
            }
        }
    }
    if doc
        .get("teams")
        .and_then(|t| t.as_array_of_tables())
        .is_some_and(|t| t.is_empty())
    {
        doc.remove("teams");
    }
    if !doc.contains_key("jury") {
        doc.insert("jury", toml_edit::Item::Table(toml_edit::Table::new()));
    }
    if let Some(jury) = doc.get_mut("jury").and_then(|j| j.as_table_like_mut()) {
        set(jury, "jury", "(the jury)");
    }
    if sheet.is_empty() {
        print("every team and the jury have a password already (--all makes new ones)\n");
        return Ok(exit_code::OK);
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut temp = tempfile::NamedTempFile::new_in(dir).map_err(|source| Error::Write {
        path: path.clone(),
        source,
    })?;
    temp.write_all(doc.to_string().as_bytes())
        .and_then(|()| temp.as_file().sync_all())
        .map_err(|source| Error::Write {
            path: path.clone(),
            source,
        })?;
    temp.persist(&path).map_err(|e| Error::Write {
        path: path.clone(),
        source: e.error,
    })?;
    let width = sheet
        .iter()
        .map(|(id, _, _)| id.chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    let mut out = format!(
        "{}: the hashes of {} new password(s) are in {}; hand these out (they are not stored anywhere):\n\n",
        spec.title,
        sheet.len(),
        path.display()
    );
    for (id, name, password) in &sheet {
        out.push_str(&format!(
            "  login {id:<width$}  password {password}   {name}\n"
        ));
    }
    print(&out);
    Ok(exit_code::OK)
}
