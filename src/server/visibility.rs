//! Who may see what of a live contest, written once: the [`Viewer`]
//! (public, a team, the jury), whether an event is theirs to read, and the
//! opaque event tokens ([`EventTokens`]) that keep the database's global
//! event counter (one event per test run, whoever's) out of what teams and
//! the public receive: a gap between two tokens says nothing about how many
//! events the viewer did not see, so the freeze cannot be read from them.

use super::model::{Audience, Event, EventData};

/// Who is looking.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Viewer {
    /// Anyone, without logging in.
    Public,
    /// A team, by id.
    Team(String),
    /// The jury.
    Jury,
}

impl Viewer {
    /// Whether this viewer may read `event` (the jury all; a team the
    /// public ones and its own; the public the public ones).
    pub(crate) fn sees(&self, event: &Event) -> bool {
        match (self, &event.audience) {
            (Viewer::Jury, _) | (_, Audience::Public) => true,
            (Viewer::Team(t), Audience::Team(owner)) => t == owner,
            (Viewer::Public, Audience::Team(_)) => false,
            (Viewer::Public | Viewer::Team(_), Audience::Jury) => false,
        }
    }

    /// Whether `event` is a message this viewer is told of at once, on
    /// whatever page it has open (a badge and a notice): for a team, a
    /// clarification it may read and did not write (an answer to it, an
    /// announcement); for the jury, a team's question; for the public,
    /// nothing (it has no messages to read). Nothing else: another team's
    /// question or answer tells a team nothing.
    pub(crate) fn notified_by(&self, event: &Event) -> bool {
        let EventData::Clarification(c) = &event.data else {
            return false;
        };
        if !self.sees(event) {
            return false;
        }
        match self {
            Viewer::Public => false,
            Viewer::Team(t) => c.visible_to(t) && c.from_team.as_deref() != Some(t.as_str()),
            Viewer::Jury => c.from_team.is_some(),
        }
    }
}

/// Event ids sealed into opaque tokens and opened again: a keyed
/// permutation of 64-bit blocks (a four-round Feistel network over
/// keyed BLAKE3) of the id with 24 zero bits, so that a token not made
/// here (a guess, a token of another contest) is refused instead of
/// read as some other place in the feed.
#[derive(Debug, Clone)]
pub(crate) struct EventTokens {
    key: [u8; 32],
}

/// Ids up to 2^40: the rest of the block must open to zeros.
const ID_BITS: u32 = 40;

impl EventTokens {
    /// Tokens under `key` (the same key gives the same tokens after a
    /// restart, so a client resumes with the token it last read).
    pub(crate) fn new(key: [u8; 32]) -> EventTokens {
        EventTokens { key }
    }

    fn round(&self, round: u8, half: u32) -> u32 {
        let mut hasher = blake3::Hasher::new_keyed(&self.key);
        hasher.update(&[round]);
        hasher.update(&half.to_le_bytes());
        let bytes = hasher.finalize();
        let b = bytes.as_bytes();
        u32::from_le_bytes([b[0], b[1], b[2], b[3]])
    }

    /// The token of event `id`.
    pub(crate) fn seal(&self, id: i64) -> String {
        assert!((0..1 << ID_BITS).contains(&id), "event ids stay below 2^40");
        let block = id as u64;
        let (mut left, mut right) = ((block >> 32) as u32, block as u32);
        for round in 0..4 {
            let next = left ^ self.round(round, right);
            left = right;
            right = next;
        }
        format!("{:016x}", (u64::from(left) << 32) | u64::from(right))
    }

    /// The event id of a token made by [`EventTokens::seal`], if it is one.
    pub(crate) fn open(&self, token: &str) -> Option<i64> {
        if token.len() != 16 {
            return None;
        }
        let block = u64::from_str_radix(token, 16).ok()?;
        let (mut left, mut right) = ((block >> 32) as u32, block as u32);
        for round in (0..4).rev() {
            let previous = right ^ self.round(round, left);
            right = left;
            left = previous;
        }
        let id = (u64::from(left) << 32) | u64::from(right);
        (id >> ID_BITS == 0).then_some(id as i64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::model::StateSnapshot;

    #[test]
    fn tokens_open_to_their_ids_and_reveal_no_gaps() {
        let tokens = EventTokens::new([7; 32]);
        for id in [0, 1, 2, 3, 31, 57, 1 << 20, (1 << 40) - 1] {
            assert_eq!(tokens.open(&tokens.seal(id)), Some(id), "{id}");
        }
        // Neighbours share nothing visible: no prefix, no order.
        let (a, b) = (tokens.seal(31), tokens.seal(32));
        assert_ne!(a[..8], b[..8]);
        // Another key's tokens, guesses and the old numeric ones are refused.
        let other = EventTokens::new([8; 32]);
        let refused = (0..200).filter(|i| tokens.open(&other.seal(*i)).is_none());
        assert_eq!(refused.count(), 200);
        for bad in ["", "28", "zzzzzzzzzzzzzzzz", "00000000000000000"] {
            assert_eq!(tokens.open(bad), None, "{bad}");
        }
    }

    fn event(audience: Audience) -> Event {
        Event {
            id: 1,
            audience,
            data: EventData::State(StateSnapshot::default()),
        }
    }

    fn message(from: Option<&str>, to: Option<&str>) -> Event {
        let audience = match from.or(to) {
            Some(t) => Audience::Team(t.into()),
            None => Audience::Public,
        };
        Event {
            id: 2,
            audience,
            data: EventData::Clarification(crate::server::model::Clarification {
                id: 1,
                from_team: from.map(str::to_string),
                to_team: to.map(str::to_string),
                reply_to: None,
                problem: None,
                text: "?".into(),
                time: 0,
                category: None,
            }),
        }
    }

    /// Viewer × message: who is told at once of a new clarification.
    #[test]
    fn only_a_message_for_the_viewer_notifies_it() {
        let question = message(Some("t1"), None);
        let answer = message(None, Some("t1"));
        let announcement = message(None, None);
        let (t1, t2) = (Viewer::Team("t1".into()), Viewer::Team("t2".into()));
        let table = [
            (&t1, &question, false, "its own question"),
            (&t1, &answer, true, "an answer to it"),
            (&t1, &announcement, true, "an announcement"),
            (&t2, &question, false, "another team's question"),
            (&t2, &answer, false, "another team's answer"),
            (&t2, &announcement, true, "an announcement"),
            (
                &Viewer::Public,
                &announcement,
                false,
                "the public reads none",
            ),
            (&Viewer::Public, &answer, false, "the public reads none"),
            (&Viewer::Jury, &question, true, "a question"),
            (&Viewer::Jury, &answer, false, "the jury's own answer"),
            (&Viewer::Jury, &announcement, false, "the jury's own"),
            (&t1, &event(Audience::Public), false, "not a message"),
        ];
        for (viewer, event, expected, why) in table {
            assert_eq!(viewer.notified_by(event), expected, "{viewer:?}: {why}");
        }
    }

    #[test]
    fn events_reach_their_audience_only() {
        let public = event(Audience::Public);
        let own = event(Audience::Team("t1".into()));
        let table = [
            (Viewer::Public, &public, true),
            (Viewer::Public, &own, false),
            (Viewer::Team("t1".into()), &public, true),
            (Viewer::Team("t1".into()), &own, true),
            (Viewer::Team("t2".into()), &own, false),
            (Viewer::Jury, &own, true),
            (Viewer::Jury, &public, true),
        ];
        for (viewer, event, expected) in table {
            assert_eq!(
                viewer.sees(event),
                expected,
                "{viewer:?} {:?}",
                event.audience
            );
        }
    }
}
