//! A throwaway PostgreSQL cluster for the tests: `initdb` in a temporary
//! folder, started with `pg_ctl` on a Unix socket in that folder only (no
//! TCP port), as an unprivileged user when the tests run as root
//! (PostgreSQL refuses root), stopped and removed when dropped. Where
//! PostgreSQL is not installed the tests that need it say so and skip,
//! unless `JUDGE_TEST_REQUIRE_POSTGRES` is set (`.ci/run` sets it, so CI
//! never skips). The main type is [`Postgres`].

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::is_root;

/// A running cluster.
pub(crate) struct Postgres {
    bin: PathBuf,
    /// The socket's folder (and the data's parent).
    dir: tempfile::TempDir,
    /// The user it runs as, when the tests run as root.
    user: Option<(u32, u32)>,
}

/// The newest installed PostgreSQL's `bin` folder (`JUDGE_TEST_PG_BIN`
/// overrides; Debian keeps them in /usr/lib/postgresql/N/bin).
fn find_bin() -> Option<PathBuf> {
    if let Some(bin) = std::env::var_os("JUDGE_TEST_PG_BIN") {
        return Some(PathBuf::from(bin));
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let n = e.file_name().to_string_lossy().parse::<u32>().ok()?;
            let bin = e.path().join("bin");
            bin.join("initdb").is_file().then_some((n, bin))
        })
        .collect();
    versions.sort();
    versions.pop().map(|(_, bin)| bin)
}

fn ids_of(user: &str) -> (u32, u32) {
    let id = |flag: &str| -> u32 {
        let out = Command::new("id").args([flag, user]).output().unwrap();
        assert!(out.status.success(), "no user {user} to run PostgreSQL as");
        String::from_utf8_lossy(&out.stdout).trim().parse().unwrap()
    };
    (id("-u"), id("-g"))
}

impl Postgres {
    /// Starts a fresh cluster; `None` (having said why) when PostgreSQL is
    /// not installed and not required.
    pub(crate) fn start(test: &str) -> Option<Postgres> {
        let Some(bin) = find_bin() else {
            if std::env::var_os("JUDGE_TEST_REQUIRE_POSTGRES").is_some() {
                panic!("PostgreSQL is required (JUDGE_TEST_REQUIRE_POSTGRES) but not installed");
            }
            eprintln!(
                "SKIPPED {test}: PostgreSQL is not installed (apt-get install postgresql; .ci/run does)"
            );
            return None;
        };
        let dir = tempfile::Builder::new()
            .prefix("judge-pg-")
            .tempdir_in("/tmp")
            .unwrap();
        let user = is_root().then(|| {
            let name = std::env::var("JUDGE_TEST_PG_USER").unwrap_or_else(|_| "postgres".into());
            let name = if Command::new("id")
                .arg(&name)
                .output()
                .unwrap()
                .status
                .success()
            {
                name
            } else {
                std::env::var("JUDGE_TEST_UNPRIVILEGED_USER").unwrap_or_else(|_| "nobody".into())
            };
            ids_of(&name)
        });
        if let Some((uid, gid)) = user {
            std::os::unix::fs::chown(dir.path(), Some(uid), Some(gid)).unwrap();
        }
        let pg = Postgres { bin, dir, user };
        let data = pg.data();
        pg.run(
            "initdb",
            &[
                "-D",
                data.to_str().unwrap(),
                "-U",
                "judge",
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-sync",
            ],
        );
        let options = format!(
            "-c listen_addresses='' -k {} -c max_connections=200 -c shared_buffers=32MB",
            pg.dir.path().display()
        );
        pg.run(
            "pg_ctl",
            &[
                "-D",
                data.to_str().unwrap(),
                "-o",
                &options,
                "-l",
                pg.dir.path().join("log").to_str().unwrap(),
                "-w",
                "start",
            ],
        );
        Some(pg)
    }

    fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    fn command(&self, program: &str) -> Command {
        let mut command = Command::new(self.bin.join(program));
        command.current_dir(self.dir.path());
        if let Some((uid, gid)) = self.user {
            command.uid(uid).gid(gid);
        }
        command
    }

    fn run(&self, program: &str, args: &[&str]) -> String {
        let out = self.command(program).args(args).output().unwrap();
        assert!(
            out.status.success(),
            "{program} {args:?} failed: {}{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
            std::fs::read_to_string(self.dir.path().join("log")).unwrap_or_default()
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// The socket's folder.
    pub(crate) fn socket_dir(&self) -> &Path {
        self.dir.path()
    }

    /// Creates the database `name`; its URL.
    pub(crate) fn create(&self, name: &str) -> String {
        self.sql("postgres", &format!("CREATE DATABASE {name}"));
        self.url(name)
    }

    /// The URL of the database `name`.
    pub(crate) fn url(&self, name: &str) -> String {
        format!(
            "postgres://judge@localhost/{name}?host={}",
            self.socket_dir().display()
        )
    }

    /// Runs `sql` in the database `db` with psql: its rows, one a line,
    /// columns separated by `|`.
    pub(crate) fn sql(&self, db: &str, sql: &str) -> String {
        let socket = self.socket_dir().display().to_string();
        self.run(
            "psql",
            &[
                "-h",
                &socket,
                "-U",
                "judge",
                "-d",
                db,
                "-X",
                "-A",
                "-t",
                "-q",
                "-v",
                "ON_ERROR_STOP=1",
                "-c",
                sql,
            ],
        )
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        let data = self.data();
        let _ = self
            .command("pg_ctl")
            .args(["-D", data.to_str().unwrap(), "-m", "immediate", "stop"])
            .output();
    }
}
