//! The database schema: one set of migrations, written in the SQL that
//! SQLite and PostgreSQL both speak (BIGINT, TEXT, BYTEA; no
//! auto-increment: ids come from the `counters` table inside the writing
//! transaction, so event ids follow commit order on either database).

use std::borrow::Cow;
use std::future::Future;
use std::pin::Pin;

use sqlx::migrate::{Migration, MigrationSource, MigrationType};

/// The migrations, in order. A released migration is never edited: a
/// change is a new one.
const MIGRATIONS: &[(i64, &str, &str)] = &[
    (1, "contest server", INITIAL),
    (2, "judging hosts", HOSTS),
    (3, "the jury's desk and clock", DESK),
    (4, "submissions of several files", SEVERAL_FILES),
    (5, "ignored submissions", IGNORED),
    (6, "print jobs", PRINTING),
    (7, "rejudgings with a preview", REJUDGINGS),
];

/// A rejudging judged before it counts (DOMjudge's rejudgings): of every
/// submission of `problem`, or of one (`submission`); `state` pending,
/// applied or cancelled (one pending per problem: the partial unique
/// index). Its judgements are `valid = 0` until it is applied (no event,
/// no board, no team reads them); cancelling deletes them with their runs.
const REJUDGINGS: &str = r#"
INSERT INTO counters (name, value) VALUES ('rejudgings', 0);
CREATE TABLE rejudgings (
    id BIGINT PRIMARY KEY,
    problem TEXT NOT NULL,
    submission BIGINT,
    state TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    decided_ms BIGINT,
    note TEXT
);
CREATE UNIQUE INDEX rejudgings_one_pending ON rejudgings (problem) WHERE state = 'pending';
ALTER TABLE judgements ADD COLUMN rejudging BIGINT;
ALTER TABLE judgements ADD COLUMN valid BIGINT NOT NULL DEFAULT 1;
CREATE INDEX judgements_rejudging ON judgements (rejudging, id);
"#;

/// Files teams sent to print: the text as sent, its name as the team gave
/// it (shown escaped, never used as a path), when the jury marked it done,
/// and the print command's last outcome (`state`: waiting, printed,
/// failed; `output`: its exit and output).
const PRINTING: &str = r#"
INSERT INTO counters (name, value) VALUES ('print_jobs', 0);
CREATE TABLE print_jobs (
    id BIGINT PRIMARY KEY,
    team TEXT NOT NULL,
    filename TEXT NOT NULL,
    content BYTEA NOT NULL,
    time_ms BIGINT NOT NULL,
    done_ms BIGINT,
    state TEXT NOT NULL,
    output TEXT
);
CREATE INDEX print_jobs_team ON print_jobs (team, id);
"#;

/// A submission the jury ignores: it counts nowhere (DOMjudge's ignore).
const IGNORED: &str = r#"
ALTER TABLE submissions ADD COLUMN ignored BIGINT NOT NULL DEFAULT 0;
"#;

/// A submission of several files (DOMjudge's client, the Contest API's
/// zip): its first file stays in `submissions`, the others are here, in
/// the order sent.
const SEVERAL_FILES: &str = r#"
CREATE TABLE submission_files (
    submission BIGINT NOT NULL,
    ordinal BIGINT NOT NULL,
    name TEXT NOT NULL,
    content BYTEA NOT NULL,
    PRIMARY KEY (submission, ordinal)
);
"#;

/// The jury's desk: a question's category (technical; general is none)
/// and the judge who claimed it (a name shown, the claiming session's
/// tag), how far each team has read its clarifications, the balloons
/// handed out; the contest's length and freeze as the jury changed them.
const DESK: &str = r#"
ALTER TABLE clock ADD COLUMN duration_ms BIGINT;
ALTER TABLE clock ADD COLUMN freeze_length_ms BIGINT;
ALTER TABLE clarifications ADD COLUMN category TEXT;
ALTER TABLE clarifications ADD COLUMN claimed_by TEXT;
ALTER TABLE clarifications ADD COLUMN claim_session TEXT;
CREATE TABLE clarification_reads (
    team TEXT PRIMARY KEY,
    last_read BIGINT NOT NULL
);
CREATE TABLE balloons (
    submission BIGINT PRIMARY KEY,
    done_ms BIGINT NOT NULL
);
"#;

/// Judging hosts on other machines: a claim names its holder's advisory
/// lock (PostgreSQL), so a dead holder's claims are taken over at once; a
/// finished judgement names the judge that wrote it.
const HOSTS: &str = r#"
ALTER TABLE judgements ADD COLUMN claim_key BIGINT;
ALTER TABLE judgements ADD COLUMN judged_by TEXT;
"#;

const INITIAL: &str = r#"
CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE counters (
    name TEXT PRIMARY KEY,
    value BIGINT NOT NULL
);
INSERT INTO counters (name, value) VALUES
    ('events', 0), ('submissions', 0), ('judgements', 0), ('runs', 0), ('clarifications', 0);
CREATE TABLE clock (
    id BIGINT PRIMARY KEY,
    start_ms BIGINT,
    freeze_ms BIGINT,
    thawed_ms BIGINT,
    finalized_ms BIGINT,
    end_of_updates_ms BIGINT
);
INSERT INTO clock (id) VALUES (1);
CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    is_team BIGINT NOT NULL
);
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    account TEXT NOT NULL,
    csrf TEXT NOT NULL,
    expires_ms BIGINT NOT NULL
);
CREATE TABLE submissions (
    id BIGINT PRIMARY KEY,
    team TEXT NOT NULL,
    problem TEXT NOT NULL,
    language TEXT NOT NULL,
    time_ms BIGINT NOT NULL,
    filename TEXT NOT NULL,
    entry_point TEXT,
    source BYTEA NOT NULL
);
CREATE INDEX submissions_team ON submissions (team, id);
CREATE TABLE judgements (
    id BIGINT PRIMARY KEY,
    submission BIGINT NOT NULL,
    state TEXT NOT NULL,
    rejudge BIGINT NOT NULL,
    claimed_by TEXT,
    claim_expires_ms BIGINT,
    start_ms BIGINT,
    end_ms BIGINT,
    verdict TEXT,
    score BIGINT,
    max_run_ms BIGINT,
    report TEXT
);
CREATE INDEX judgements_queue ON judgements (state, id);
CREATE INDEX judgements_submission ON judgements (submission, id);
CREATE TABLE runs (
    id BIGINT PRIMARY KEY,
    judgement BIGINT NOT NULL,
    ordinal BIGINT NOT NULL,
    verdict TEXT NOT NULL,
    time_ms BIGINT NOT NULL,
    run_time_ms BIGINT NOT NULL
);
CREATE INDEX runs_judgement ON runs (judgement, ordinal);
CREATE TABLE clarifications (
    id BIGINT PRIMARY KEY,
    from_team TEXT,
    to_team TEXT,
    reply_to BIGINT,
    problem TEXT,
    text TEXT NOT NULL,
    time_ms BIGINT NOT NULL
);
CREATE TABLE events (
    id BIGINT PRIMARY KEY,
    kind TEXT NOT NULL,
    object TEXT,
    audience TEXT NOT NULL,
    data TEXT NOT NULL
);
"#;

/// The migrations as sqlx's migrator takes them.
#[derive(Debug)]
pub(super) struct Migrations;

impl MigrationSource<'static> for Migrations {
    fn resolve(
        self,
    ) -> Pin<
        Box<
            dyn Future<Output = Result<Vec<Migration>, Box<dyn std::error::Error + Send + Sync>>>
                + Send,
        >,
    > {
        Box::pin(async {
            Ok(MIGRATIONS
                .iter()
                .map(|(version, description, sql)| {
                    Migration::new(
                        *version,
                        Cow::Borrowed(*description),
                        MigrationType::Simple,
                        Cow::Borrowed(*sql),
                        false,
                    )
                })
                .collect())
        })
    }
}
