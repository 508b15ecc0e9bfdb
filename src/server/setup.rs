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

/// The contest's languages in the order the API lists them: those with
/// extensions of their own first (`python` before `pypy`, which offers
/// `python`'s), each part by id, so that a client taking the first
/// language of a file's extension (DOMjudge's submit client), the server's
/// own guess from a file's name and `judge run` agree.
pub(crate) fn offered_order<'a>(
    languages: impl Iterator<Item = &'a crate::config::Language>,
) -> impl Iterator<Item = &'a crate::config::Language> {
    let mut ordered: Vec<&crate::config::Language> = languages.collect();
    ordered.sort_by_key(|l| (l.extensions.is_empty(), l.id.clone()));
    ordered.into_iter()
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The repository's judge.toml: its 21 languages and their variants.
    fn shipped() -> Vec<crate::config::Language> {
        let text = include_str!("../../judge.toml");
        crate::config::Config::parse(text, None, std::path::PathBuf::from("."))
            .unwrap()
            .languages
    }

    #[test]
    fn every_shipped_language_is_offered_with_extensions() {
        let all = shipped();
        for l in &all {
            assert!(!offered_extensions(l, &all).is_empty(), "{}", l.id);
        }
    }

    /// DOMjudge's submit client takes the first language the API lists
    /// with a file's extension: that is the language owning it, as `judge
    /// run` guesses, not a variant offering it too.
    #[test]
    fn the_first_language_listed_for_an_extension_owns_it() {
        let all = shipped();
        let first_for = |ext: &str| {
            offered_order(all.iter())
                .find(|l| offered_extensions(l, &all).iter().any(|e| e == ext))
                .map(|l| l.id.clone())
        };
        assert_eq!(first_for("py").as_deref(), Some("python"));
        assert_eq!(first_for("cpp").as_deref(), Some("cpp"));
        assert_eq!(first_for("c").as_deref(), Some("c"));
    }
}
