//! A small live contest for unit tests of the layers above the store
//! ([`live_contest`]): teams t1 and t2 (passwords `p1`, `p2`), the jury
//! (`pj`), problem `a` ("Secret Title") with 25 tests, a Markdown
//! statement and one sample.

use std::collections::BTreeMap;
use std::path::Path;

use super::auth::{Argon, Verifier};
use super::live::{LiveContest, ProblemPage, Sample, Statement};
use super::model::{ContestSnapshot, LanguageSnapshot, LiveConfig, ProblemSnapshot, TeamSnapshot};
use super::store::{AccountRow, Changes, Database, Store};
use crate::contest::clock::{now_ms, ContestClock, EpochMs};
use crate::contest::Scoring;

/// A cheap Argon2 hash of `password` (tests need no strength).
pub(crate) fn quick_hash(password: &str) -> String {
    use argon2::password_hash::{PasswordHasher, SaltString};
    let params = argon2::Params::new(8, 1, 1, None).unwrap();
    argon2::Argon2::new(argon2::Algorithm::Argon2id, argon2::Version::V0x13, params)
        .hash_password(
            password.as_bytes(),
            &SaltString::encode_b64(b"0123456789abcdef").unwrap(),
        )
        .unwrap()
        .to_string()
}

/// Problem `a`'s statement (Markdown) and its one sample, `1`.
fn page() -> ProblemPage {
    ProblemPage {
        statement: Statement::Markdown("Add one to the number.\n".into()),
        samples: vec![Sample {
            name: "1".into(),
            input: b"1\n".to_vec(),
            answer: b"2\n".to_vec(),
        }],
    }
}

/// The contest in `dir`, started an hour ago (or starting in an hour) and
/// frozen from the start when `frozen`, its clock ticked once.
pub(crate) async fn live_contest(dir: &Path, started: bool, frozen: bool) -> LiveContest {
    live_contest_printing(dir, started, frozen, Default::default()).await
}

/// [`live_contest`] with `printing` as contest.toml's `[printing]`.
pub(crate) async fn live_contest_printing(
    dir: &Path,
    started: bool,
    frozen: bool,
    printing: crate::contest::printing::Printing,
) -> LiveContest {
    let hour = 3_600_000;
    let start: EpochMs = if started {
        now_ms() - hour
    } else {
        now_ms() + hour
    };
    let config = LiveConfig {
        contest: ContestSnapshot {
            id: "mock".into(),
            title: "Mock".into(),
            scoring: Scoring::Icpc,
            penalty: 20,
            clock: ContestClock {
                start: Some(start),
                duration_ms: 5 * hour,
                freeze_ms: frozen.then_some(5 * hour),
            },
        },
        problems: vec![ProblemSnapshot {
            id: "a".into(),
            label: "A".into(),
            name: "Secret Title".into(),
            ordinal: 0,
            time_limit_ms: 1000,
            memory_limit: 1 << 28,
            test_data_count: 25,
            max_score: 1,
        }],
        languages: vec![LanguageSnapshot {
            id: "python3".into(),
            name: "Python 3".into(),
            extensions: vec!["py".into()],
            entry_point_name: None,
        }],
        teams: ["t1", "t2"]
            .iter()
            .map(|t| TeamSnapshot {
                id: t.to_string(),
                name: t.to_uppercase(),
                ..TeamSnapshot::default()
            })
            .collect(),
        groups: vec![],
        organizations: vec![],
        medals: Default::default(),
        balloons: [("A".to_string(), "#ff0000".to_string())].into(),
        printing,
        rooms: [("t2".to_string(), "Lab 2, seat 14".to_string())].into(),
        answer_problems: Default::default(),
    };
    let accounts: Vec<AccountRow> = [("t1", "p1"), ("t2", "p2"), ("jury", "pj")]
        .iter()
        .map(|(id, pw)| AccountRow {
            id: id.to_string(),
            password_hash: quick_hash(pw),
            is_team: *id != "jury",
        })
        .collect();
    let db = Database::Sqlite(dir.join(".judge-serve").join("contest.sqlite"));
    std::fs::create_dir_all(dir.join(".judge-serve")).unwrap();
    let store = Store::open(&db, Changes::new(0)).await.unwrap();
    let contest_file = dir.join("contest.toml");
    crate::server::setup::sync(&store, &config, &accounts, &contest_file)
        .await
        .unwrap();
    let last = store.last_event().await.unwrap();
    store.changes().bump(last);
    let verifier = Verifier::new(
        Argon::default(),
        accounts
            .iter()
            .map(|a| (a.id.clone(), a.password_hash.clone())),
    );
    let live = LiveContest::new(
        config,
        crate::contest::ServerLimits::default(),
        BTreeMap::from([("a".to_string(), page())]),
        store,
        verifier,
    );
    live.tick().await.unwrap();
    live
}

/// Judges the queued judgements, oldest first, with `verdicts` in turn,
/// as the judging writes them (their events; no runs).
pub(crate) async fn judge_queued(live: &LiveContest, verdicts: &[crate::verdict::Verdict]) {
    for verdict in verdicts {
        judge_next(live, *verdict, 0).await;
    }
}

/// Judges the next queued judgement (the judges' order: the teams' before
/// a pending rejudging's) with `verdict` and `runs` test runs of that
/// verdict, as the judging writes it: its id.
pub(crate) async fn judge_next(
    live: &LiveContest,
    verdict: crate::verdict::Verdict,
    runs: u32,
) -> i64 {
    use super::store::{Finished, Holder};
    let holder = Holder {
        name: "test".into(),
        key: None,
        fingerprint: None,
    };
    let claim = live
        .test_store()
        .claim(&holder, now_ms(), 60_000)
        .await
        .unwrap()
        .unwrap()
        .expect("a queued judgement");
    let mut report = super::worker::could_not_judge(&claim, "a test");
    report.verdict = verdict;
    let finished = Finished {
        verdict,
        score: 0,
        max_run_ms: 1,
        end: now_ms(),
        runs: (1..=runs).map(|i| (i, verdict, 1, now_ms())).collect(),
        report,
    };
    assert!(live
        .test_store()
        .finish("test", &claim, finished)
        .await
        .unwrap());
    claim.judgement
}
