//! The awards of a contest as the Contest API specification names them:
//! `winner`, `gold-medal`/`silver-medal`/`bronze-medal` by place,
//! `first-to-solve-<problem id>` and `group-winner-<group id>`. Pure
//! computation over the standings; who may see them when is the caller's.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::Standing;

/// How many medals of each colour (contest.toml `[awards]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct MedalCounts {
    pub(crate) gold: usize,
    pub(crate) silver: usize,
    pub(crate) bronze: usize,
}

impl Default for MedalCounts {
    /// The World Finals' and DOMjudge's default: four of each.
    fn default() -> Self {
        MedalCounts {
            gold: 4,
            silver: 4,
            bronze: 4,
        }
    }
}

/// One award: the Contest API's `awards` object.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Award {
    pub(crate) id: String,
    pub(crate) citation: String,
    pub(crate) team_ids: Vec<String>,
}

/// An accepted submission: who, which problem, when (ms into the contest).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Solve {
    pub(crate) team: String,
    pub(crate) problem: String,
    pub(crate) contest_ms: i64,
}

/// What the awards are computed from.
#[derive(Debug, Clone, Copy)]
pub(crate) struct AwardsInput<'a> {
    /// Ranked standings of the teams that take part (hidden groups left out).
    pub(crate) standings: &'a [Standing],
    /// Problems in scoreboard order: (id, label such as `A`).
    pub(crate) problems: &'a [(String, String)],
    /// Accepted submissions (first-to-solve looks at the earliest).
    pub(crate) solves: &'a [Solve],
    /// Submissions not judged yet (or whose verdict the viewer may not
    /// see): a first to solve is given only when none was made before or
    /// at the earliest accept, so that it never changes once given (as the
    /// specification asks).
    pub(crate) unjudged: &'a [Solve],
    /// Groups: (id, name, its teams).
    pub(crate) groups: &'a [(String, String, Vec<String>)],
    pub(crate) medals: MedalCounts,
}

/// The awards, in a stable order: winner, medals, first to solve by
/// problem, group winners. An award nobody has is left out.
pub(crate) fn awards(input: AwardsInput<'_>) -> Vec<Award> {
    let mut out = Vec::new();
    // Only teams that solved something place (as DOMjudge gives medals).
    let placed: Vec<&Standing> = input.standings.iter().filter(|s| s.solved > 0).collect();
    let at_rank = |wanted: &dyn Fn(usize) -> bool| -> Vec<String> {
        placed
            .iter()
            .filter(|s| wanted(s.rank))
            .map(|s| s.contestant.clone())
            .collect()
    };
    let winners = at_rank(&|r| r == 1);
    if !winners.is_empty() {
        out.push(Award {
            id: "winner".into(),
            citation: "Contest winner".into(),
            team_ids: winners,
        });
    }
    let m = input.medals;
    let tiers = [
        ("gold-medal", "Gold medal", 0, m.gold),
        ("silver-medal", "Silver medal", m.gold, m.gold + m.silver),
        (
            "bronze-medal",
            "Bronze medal",
            m.gold + m.silver,
            m.gold + m.silver + m.bronze,
        ),
    ];
    for (id, citation, after, upto) in tiers {
        // A tie at the border takes the better medal: rank, not position.
        let teams = at_rank(&|r| r > after && r <= upto);
        if !teams.is_empty() {
            out.push(Award {
                id: id.into(),
                citation: citation.into(),
                team_ids: teams,
            });
        }
    }
    let taking_part: BTreeSet<&str> = input
        .standings
        .iter()
        .map(|s| s.contestant.as_str())
        .collect();
    for (problem, label) in input.problems {
        let mut first: Option<i64> = None;
        let mut teams = BTreeSet::new();
        for s in input
            .solves
            .iter()
            .filter(|s| &s.problem == problem && taking_part.contains(s.team.as_str()))
        {
            match first {
                Some(t) if s.contest_ms > t => {}
                Some(t) if s.contest_ms == t => {
                    teams.insert(s.team.clone());
                }
                _ => {
                    first = Some(s.contest_ms);
                    teams = BTreeSet::from([s.team.clone()]);
                }
            }
        }
        let settled = first.is_some_and(|first| {
            !input.unjudged.iter().any(|u| {
                &u.problem == problem
                    && u.contest_ms <= first
                    && taking_part.contains(u.team.as_str())
            })
        });
        if settled {
            out.push(Award {
                id: format!("first-to-solve-{problem}"),
                citation: format!("First to solve problem {label}"),
                team_ids: teams.into_iter().collect(),
            });
        }
    }
    let rank_of: BTreeMap<&str, usize> = placed
        .iter()
        .map(|s| (s.contestant.as_str(), s.rank))
        .collect();
    for (id, name, members) in input.groups {
        let best = members.iter().filter_map(|t| rank_of.get(t.as_str())).min();
        let Some(best) = best else { continue };
        let teams: Vec<String> = members
            .iter()
            .filter(|t| rank_of.get(t.as_str()) == Some(best))
            .cloned()
            .collect();
        out.push(Award {
            id: format!("group-winner-{id}"),
            citation: format!("Winner of {name}"),
            team_ids: teams,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(rank: usize, who: &str, solved: usize) -> Standing {
        Standing {
            rank,
            contestant: who.into(),
            solved,
            penalty: 0,
            score: 0,
            last_solve: None,
            cells: Vec::new(),
        }
    }

    fn ids(a: &[Award]) -> Vec<(&str, Vec<&str>)> {
        a.iter()
            .map(|a| {
                (
                    a.id.as_str(),
                    a.team_ids.iter().map(String::as_str).collect(),
                )
            })
            .collect()
    }

    #[test]
    fn medals_go_by_rank_ties_take_the_better_and_the_unsolved_get_none() {
        let standings = [
            row(1, "a", 3),
            row(2, "b", 2),
            row(2, "c", 2),
            row(4, "d", 1),
            row(5, "e", 0),
        ];
        let got = awards(AwardsInput {
            standings: &standings,
            problems: &[],
            solves: &[],
            unjudged: &[],
            groups: &[],
            medals: MedalCounts {
                gold: 1,
                silver: 1,
                bronze: 3,
            },
        });
        assert_eq!(
            ids(&got),
            [
                ("winner", vec!["a"]),
                ("gold-medal", vec!["a"]),
                ("silver-medal", vec!["b", "c"]),
                ("bronze-medal", vec!["d"]),
            ]
        );
    }

    #[test]
    fn first_to_solve_is_the_earliest_accept_and_group_winners_the_best_placed() {
        let standings = [row(1, "a", 2), row(2, "b", 1), row(3, "c", 1)];
        let solve = |team: &str, problem: &str, contest_ms| Solve {
            team: team.into(),
            problem: problem.into(),
            contest_ms,
        };
        let got = awards(AwardsInput {
            standings: &standings,
            problems: &[("p".into(), "A".into()), ("q".into(), "B".into())],
            solves: &[
                solve("a", "p", 5000),
                solve("b", "p", 4000),
                solve("a", "q", 100),
                solve("c", "q", 100),
                solve("hidden", "p", 1),
            ],
            unjudged: &[solve("c", "p", 4500), solve("hidden", "q", 1)],
            groups: &[(
                "students".into(),
                "Students".into(),
                vec!["b".into(), "c".into()],
            )],
            medals: MedalCounts {
                gold: 0,
                silver: 0,
                bronze: 0,
            },
        });
        assert_eq!(
            ids(&got),
            [
                ("winner", vec!["a"]),
                ("first-to-solve-p", vec!["b"]),
                ("first-to-solve-q", vec!["a", "c"]),
                ("group-winner-students", vec!["b"]),
            ]
        );
        assert_eq!(got[1].citation, "First to solve problem A");
    }

    /// A first to solve is never taken back: while a submission made
    /// before the earliest accept is not judged, it is not given.
    #[test]
    fn first_to_solve_waits_for_earlier_submissions_still_judged() {
        let standings = [row(1, "a", 1), row(2, "b", 0)];
        let solve = |team: &str, contest_ms| Solve {
            team: team.into(),
            problem: "p".into(),
            contest_ms,
        };
        let first = |unjudged: &[Solve]| {
            let got = awards(AwardsInput {
                standings: &standings,
                problems: &[("p".into(), "A".into())],
                solves: &[solve("a", 5000)],
                unjudged,
                groups: &[],
                medals: MedalCounts::default(),
            });
            got.iter().any(|a| a.id == "first-to-solve-p")
        };
        assert!(first(&[]));
        assert!(first(&[solve("b", 6000)]), "a later one changes nothing");
        assert!(!first(&[solve("b", 4000)]), "an earlier one may win it");
        assert!(!first(&[solve("b", 5000)]), "so may one at the same time");
    }
}
