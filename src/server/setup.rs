//! A server's database made to match contest.toml when it starts: the
//! contest it belongs to, the accounts and their password hashes, and
//! events for what changed in the configuration since the last start (the
//! first start publishes it all).

use std::collections::BTreeSet;

use super::model::{Audience, EventData, LiveConfig};
use super::store::{AccountRow, Store};
use crate::error::{Error, Result};

/// The kinds of configuration events, in the order they are published.
const CONFIG_KINDS: [&str; 7] = [
    "contest",
    "judgement-types",
    "languages",
    "problems",
    "groups",
    "organizations",
    "teams",
];

/// The file extensions the Contest API lists for `language`: its own, or,
/// for a variant without any (`cpp17`, `pypy`), those of the language it is
/// a variant of (the same source file name, else the same packages), so
/// that every language has some (DOMjudge's submit client needs them; two
/// languages sharing one are told apart with `-l`).
pub(crate) fn offered_extensions(
    language: &crate::config::Language,
    all: &[crate::config::Language],
) -> Vec<String> {
    if !language.extensions.is_empty() {
        return language.extensions.clone();
    }
    let source_ext = |l: &crate::config::Language| {
        l.source_name
            .as_deref()
            .and_then(|n| n.rsplit_once('.'))
            .map(|(_, e)| e.to_string())
    };
    let variant_of = |other: &&crate::config::Language| {
        !other.extensions.is_empty()
            && ((source_ext(language).is_some() && source_ext(other) == source_ext(language))
                || (!language.debian.is_empty() && other.debian == language.debian))
    };
    if let Some(base) = all.iter().find(variant_of) {
        return base.extensions.clone();
    }
    source_ext(language).into_iter().collect()
}

/// Brings `store` in line with `config`: refuses a database of another
/// contest, or one whose submissions name a team, problem or language
/// contest.toml no longer has; sets the accounts; publishes what changed.
pub(crate) async fn sync(
    store: &Store,
    config: &LiveConfig,
    accounts: &[AccountRow],
    contest_file: &std::path::Path,
) -> Result<()> {
    store.claim_for_contest(&config.contest.id).await?;
    let submissions = store.submissions(None).await?;
    let mut missing = BTreeSet::new();
    for s in &submissions {
        if config.team(&s.team).is_none() {
            missing.insert(format!("team `{}`", s.team));
        }
        if !config.problems.iter().any(|p| p.id == s.problem) {
            missing.insert(format!("problem `{}`", s.problem));
        }
        if !config.languages.iter().any(|l| l.id == s.language) {
            missing.insert(format!("language `{}`", s.language));
        }
    }
    if !missing.is_empty() {
        return Err(Error::Config {
            path: contest_file.to_path_buf(),
            source: crate::error::SpecError {
                problems: missing
                    .into_iter()
                    .map(|m| {
                        format!(
                            "the contest's database has submissions of {m}, which this file no longer has: put it back"
                        )
                    })
                    .collect(),
            },
        });
    }
    store.set_accounts(accounts).await?;
    let mut contest = config.contest.clone();
    contest.clock = store.clock().await?.applied(contest.clock);
    let mut current = config.events();
    current[0] = EventData::Contest(contest);
    let previous = store.latest_of_kinds(&CONFIG_KINDS).await?;
    let mut events: Vec<(Audience, EventData)> = Vec::new();
    for event in &current {
        let same = previous.iter().any(|p| p == event);
        if !same {
            events.push((Audience::Public, event.clone()));
        }
    }
    // What contest.toml no longer has (and nothing refers to) is deleted.
    for old in &previous {
        if matches!(old, EventData::Deleted { .. }) {
            continue;
        }
        let gone = !current
            .iter()
            .any(|c| c.kind() == old.kind() && c.object_id() == old.object_id());
        if gone {
            if let Some(id) = old.object_id() {
                events.push((
                    Audience::Public,
                    EventData::Deleted {
                        kind: old.kind().to_string(),
                        id,
                    },
                ));
            }
        }
    }
    store.publish(events).await
}
