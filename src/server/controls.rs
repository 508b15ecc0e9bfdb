//! The jury's controls of the contest's clock beyond its steps (start,
//! freeze, thaw, finalize are in [`super::live`]): end the contest now,
//! make it longer or shorter, move the freeze. Each change is recorded in
//! the event feed as the Contest API says: a `contests` event with the new
//! `duration` and `scoreboard_freeze_duration`, and a `state` event. What
//! teams and the public saw never becomes hidden again: a freeze under way
//! stays where it began, and one that a shorter contest would have begun
//! in the past begins now instead.

use super::live::{state_of, LiveContest, Refusal};
use super::model::{ContestSnapshot, StateSnapshot};
use super::store::{ClockRow, NO_FREEZE};
use crate::contest::clock::{now_ms, EpochMs};
use crate::error::Error;

/// The longest contest the jury may set: a week.
const LONGEST_MS: i64 = 7 * 24 * 3_600_000;

impl LiveContest {
    /// The contest as it stands: contest.toml's, with the jury's start,
    /// length and freeze.
    pub(crate) async fn contest_now(&self) -> Result<ContestSnapshot, Error> {
        let row = self.clock_row().await?;
        let mut contest = self.config.contest.clone();
        contest.clock = row.applied(contest.clock);
        Ok(contest)
    }

    /// The jury ends the contest now (while it runs).
    pub(crate) async fn end_now(&self) -> Result<(), Refusal> {
        let row = self.store.clock().await?;
        let now = now_ms();
        let state = state_of(&self.config, &row, now);
        match (state.started, state.ended) {
            (Some(start), None) => self.set_length(row, state, now, now - start).await,
            _ => Err(Refusal::Forbidden(
                "the contest ends now only while it runs".into(),
            )),
        }
    }

    /// The jury makes the contest `duration_ms` long (longer or shorter):
    /// before the start, or while it runs to an end still ahead.
    pub(crate) async fn set_duration(&self, duration_ms: i64) -> Result<(), Refusal> {
        if !(60_000..=LONGEST_MS).contains(&duration_ms) {
            return Err(Refusal::Invalid(
                "a contest lasts from one minute to a week".into(),
            ));
        }
        let row = self.store.clock().await?;
        let now = now_ms();
        let state = state_of(&self.config, &row, now);
        if state.ended.is_some() {
            return Err(Refusal::Forbidden(
                "the contest is over: its length no longer changes".into(),
            ));
        }
        if state.started.is_some_and(|s| s + duration_ms <= now) {
            return Err(Refusal::Forbidden(
                "that end has passed: end the contest now instead".into(),
            ));
        }
        self.set_length(row, state, now, duration_ms).await
    }

    /// Sets the length, keeping what was seen seen: a freeze under way
    /// stays where it began; one the new end would put in the past begins
    /// now.
    async fn set_length(
        &self,
        mut row: ClockRow,
        state: StateSnapshot,
        now: EpochMs,
        duration_ms: i64,
    ) -> Result<(), Refusal> {
        row.duration = Some(duration_ms);
        let clock = row.applied(self.config.contest.clock);
        if let Some(start) = clock.start.filter(|_| state.started.is_some()) {
            let end = clock.end(start);
            let earliest = state.frozen.unwrap_or(now);
            if clock.freeze_at(start).is_some_and(|f| f < earliest) {
                row.freeze_length = Some(end - earliest);
            }
            if let Some(f) = state.frozen {
                row.freeze = Some(f);
            }
        }
        self.set_clock(row, true).await?;
        Ok(())
    }

    /// The jury moves the freeze: `length_ms` before the end, or never
    /// (`None`); before it has begun, and not into the past.
    pub(crate) async fn set_freeze(&self, length_ms: Option<i64>) -> Result<(), Refusal> {
        let mut row = self.store.clock().await?;
        let now = now_ms();
        let state = state_of(&self.config, &row, now);
        if state.frozen.is_some() || state.ended.is_some() {
            return Err(Refusal::Forbidden(
                "the freeze has begun (or the contest is over): thaw it after the end instead"
                    .into(),
            ));
        }
        let clock = row.applied(self.config.contest.clock);
        if let Some(length) = length_ms {
            if !(0..=clock.duration_ms).contains(&length) {
                return Err(Refusal::Invalid(
                    "the freeze begins between the start and the end".into(),
                ));
            }
            if let Some(start) = state.started {
                if clock.end(start) - length <= now {
                    return Err(Refusal::Forbidden(
                        "that freeze would have begun already: freeze the scoreboard now instead"
                            .into(),
                    ));
                }
            }
        }
        row.freeze_length = Some(length_ms.unwrap_or(NO_FREEZE));
        self.set_clock(row, true).await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::model::EventData;
    use crate::server::testing::live_contest;
    use crate::server::visibility::Viewer;

    const MIN: i64 = 60_000;

    /// The contests of the feed (as everyone reads it), the latest last.
    async fn contests(live: &LiveContest) -> Vec<ContestSnapshot> {
        let (events, _) = live
            .events_for(&Viewer::Public, 0, 10_000)
            .await
            .unwrap()
            .unwrap();
        events
            .into_iter()
            .filter_map(|e| match e.data {
                EventData::Contest(c) => Some(c),
                _ => None,
            })
            .collect()
    }

    #[tokio::test]
    async fn the_jury_extends_shortens_and_ends_and_the_feed_says_so() {
        let dir = tempfile::tempdir().unwrap();
        // Started an hour ago, 5 hours long, no freeze.
        let live = live_contest(dir.path(), true, false).await;
        live.set_duration(6 * 60 * MIN).await.unwrap();
        assert_eq!(
            contests(&live).await.last().unwrap().clock.duration_ms,
            6 * 60 * MIN
        );
        assert_eq!(
            live.contest_now().await.unwrap().clock.duration_ms,
            6 * 60 * MIN
        );
        // An end already passed is refused; so is a silly length.
        assert!(matches!(
            live.set_duration(30 * MIN).await,
            Err(Refusal::Forbidden(_))
        ));
        assert!(matches!(
            live.set_duration(0).await,
            Err(Refusal::Invalid(_))
        ));
        // A freeze 30 minutes before the end, then ended now: the freeze
        // never began, so nothing is hidden afterwards.
        live.set_freeze(Some(30 * MIN)).await.unwrap();
        let clock = contests(&live).await.last().unwrap().clock;
        assert_eq!(clock.freeze_ms, Some(30 * MIN));
        live.end_now().await.unwrap();
        let state = live.state().await.unwrap();
        assert!(state.ended.is_some());
        assert_eq!(state.frozen, None, "ended before the freeze");
        let last = contests(&live).await.last().unwrap().clock;
        assert!(last.duration_ms < 61 * MIN && last.duration_ms >= 60 * MIN);
        // Over: nothing more changes.
        assert!(live.end_now().await.is_err());
        assert!(live.set_duration(9 * 60 * MIN).await.is_err());
        assert!(live.set_freeze(None).await.is_err());
    }

    #[tokio::test]
    async fn a_freeze_under_way_stays_where_it_began() {
        let dir = tempfile::tempdir().unwrap();
        // Started an hour ago, frozen from its start (5 h before the end).
        let live = live_contest(dir.path(), true, true).await;
        let began = live.state().await.unwrap().frozen.expect("frozen");
        live.set_duration(7 * 60 * MIN).await.unwrap();
        assert_eq!(live.state().await.unwrap().frozen, Some(began), "longer");
        live.set_duration(2 * 60 * MIN).await.unwrap();
        assert_eq!(live.state().await.unwrap().frozen, Some(began), "shorter");
        assert!(
            live.set_freeze(None).await.is_err(),
            "a freeze under way is thawed after the end only"
        );
    }
}
