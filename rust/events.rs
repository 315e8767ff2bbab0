//! What each seat is told after every action (docs/EVENTS.md), for servers: derived from the
//! recorded action log by replaying it, so a state loaded from JSON or a record gives exactly
//! the events of the original. Private events (a seat's own cards) name their one seat; no
//! event shows a card another seat may not see (R2.4; misplays only through a call's ruling,
//! R8.2).

use crate::cards::{Card, Suit};
use crate::deal::{FIRST_PACKETS, KITTY_SIZE};
use crate::matches::Match;
use crate::runs::Runs;
use crate::state::{Phase, TrickRecord, MISPLAY, PASS};
use crate::table::{CallRecord, TableHand};

const CARDS_PER_TRICK: usize = 4;

/// One event's content (docs/EVENTS.md "Kinds").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// A hand begins: its index in the match, dealer, match scores before it.
    HandStart {
        /// The hand's index in the match (0 for a lone hand).
        hand: u32,
        /// The dealer.
        dealer: u8,
        /// The match scores before the hand.
        scores: [u32; 2],
    },
    /// The six cards a seat sees, in the order received (to that seat only).
    Deal {
        /// The seat.
        seat: u8,
        /// Its first six cards.
        cards: [Card; FIRST_PACKETS],
    },
    /// A pass (R3.1).
    Pass {
        /// The seat.
        seat: u8,
    },
    /// Trump named (R3.1).
    Call {
        /// The caller.
        seat: u8,
        /// Trump.
        suit: Suit,
    },
    /// A seat's kitty, now seen (to that seat only).
    Kitty {
        /// The seat.
        seat: u8,
        /// Its three kitty cards.
        cards: [Card; KITTY_SIZE],
    },
    /// A run announced (R4.4): the size of the seat's best run.
    Announce {
        /// The seat.
        seat: u8,
        /// 20 or 50.
        size: u32,
    },
    /// Runs shown (R4.4); `late` for a `late_twenty` show.
    Show {
        /// The seat.
        seat: u8,
        /// The runs shown.
        runs: Runs,
        /// A late twenty.
        late: bool,
    },
    /// Bella (R4.5): `counts` is false when lost as table talk.
    Bella {
        /// The seat.
        seat: u8,
        /// Whether it counts.
        counts: bool,
    },
    /// A card played.
    Play {
        /// The seat.
        seat: u8,
        /// The card.
        card: Card,
    },
    /// A trick completed (R5.2): its index and record.
    Trick {
        /// The trick's index 0-8.
        trick: u8,
        /// Leader, cards, winner, points.
        record: TrickRecord,
    },
    /// Runs credited (R4.3, R8.6c): the winner (or none) and all run points credited.
    Runs {
        /// The run winner, `None` when no run counts.
        seat: Option<u8>,
        /// All run points credited.
        points: u32,
    },
    /// A misplay or throw call and its ruling (R8.2, R8.3); the misplays are the hand's.
    CallMade {
        /// The hand's index in the match (its misplays are that hand's).
        hand: u32,
        /// The call.
        call: CallRecord,
    },
    /// A hand is over; `hand` is its index in the match (its result is that hand's).
    HandOver {
        /// The hand's index in the match.
        hand: u32,
    },
    /// The match is over (R7.1).
    MatchOver {
        /// The winning team.
        winner: u8,
        /// The final scores.
        scores: [u32; 2],
    },
}

/// An event and who is told it: one seat, or everyone (`None`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Event {
    /// The one seat told, or `None` for every seat and spectators.
    pub to: Option<u8>,
    /// What happened.
    pub kind: EventKind,
}

impl Event {
    fn public(kind: EventKind) -> Event {
        Event { to: None, kind }
    }

    /// Whether `seat` (`None`: a spectator) is told this event.
    pub fn is_for(&self, seat: Option<u8>) -> bool {
        self.to.is_none() || self.to == seat
    }
}

/// The events of one hand (index `hand_index` in its match), from its start, in order.
pub fn hand_events(hand: &TableHand, hand_index: u32, out: &mut Vec<Event>) {
    let core = hand.hand();
    out.push(Event::public(EventKind::HandStart {
        hand: hand_index,
        dealer: core.dealer(),
        scores: core.scores_before(),
    }));
    let deal = core.deal();
    for seat in 0..4u8 {
        out.push(Event {
            to: Some(seat),
            kind: EventKind::Deal {
                seat,
                cards: std::array::from_fn(|i| deal[seat as usize][i]),
            },
        });
    }
    let mut state = TableHand::from_deal(*deal, core.dealer(), *core.rules(), core.scores_before());
    for (seat, id) in hand.log() {
        let before = state;
        state.apply_unchecked(seat, id);
        action_events(&before, &state, seat, id, hand_index, out);
    }
}

/// The events of one action: `before` and `after` are the states around it.
fn action_events(
    before: &TableHand,
    after: &TableHand,
    seat: u8,
    id: u8,
    hand_index: u32,
    out: &mut Vec<Event>,
) {
    let core = after.hand();
    if before.hand().phase() == Phase::Auction {
        if id == PASS {
            out.push(Event::public(EventKind::Pass { seat }));
        } else if let Some(suit) = core.trump() {
            out.push(Event::public(EventKind::Call { seat, suit }));
            for who in 0..4u8 {
                let dealt = &core.deal()[who as usize];
                out.push(Event {
                    to: Some(who),
                    kind: EventKind::Kitty {
                        seat: who,
                        cards: std::array::from_fn(|i| dealt[FIRST_PACKETS + i]),
                    },
                });
            }
        }
    } else {
        if before.announced(seat).is_none() {
            if let Some(size) = after.announced(seat) {
                out.push(Event::public(EventKind::Announce { seat, size }));
            }
        }
        let runs = after.shown(seat);
        if before.shown(seat).is_empty() && !runs.is_empty() {
            let late = after.shown_late(seat);
            out.push(Event::public(EventKind::Show { seat, runs, late }));
        }
        let plays = core.plays().len();
        if plays > before.hand().plays().len() {
            let card = core.plays()[plays - 1];
            out.push(Event::public(EventKind::Play { seat, card }));
        }
        let bella = match (after.bella(), after.bella_forfeited()) {
            (Some(who), _) if before.bella().is_none() => Some((who, true)),
            (_, Some(who)) if before.bella_forfeited().is_none() => Some((who, false)),
            _ => None,
        };
        if let Some((seat, counts)) = bella {
            out.push(Event::public(EventKind::Bella { seat, counts }));
        }
        if plays > before.hand().plays().len() && plays.is_multiple_of(CARDS_PER_TRICK) {
            if let Some(record) = core.completed_tricks().last() {
                let trick = (plays / CARDS_PER_TRICK - 1) as u8;
                out.push(Event::public(EventKind::Trick { trick, record }));
            }
        }
        if !before.runs_credited() && after.runs_credited() {
            let scored = after.runs_scored();
            out.push(Event::public(EventKind::Runs {
                seat: scored.map(|(who, _)| who),
                points: scored.map_or(0, |(_, points)| points),
            }));
        }
        if let Some(call) = after.call() {
            debug_assert!(call.verb == MISPLAY || call.verb == crate::state::THROW);
            out.push(Event::public(EventKind::CallMade {
                hand: hand_index,
                call,
            }));
        }
    }
    if core.is_terminal() {
        out.push(Event::public(EventKind::HandOver { hand: hand_index }));
    }
}

/// The events of a match: its finished hands (`finished`, in order), then the hand in play or
/// the end of the match.
pub fn match_events(finished: &[TableHand], game: &Match<TableHand>) -> Vec<Event> {
    let mut out = Vec::new();
    for (index, hand) in finished.iter().enumerate() {
        hand_events(hand, index as u32, &mut out);
    }
    match_end_events(game, &mut out);
    out
}

/// The events that follow a match's finished hands: those of the hand in play, or the end of
/// the match (R7.1).
pub fn match_end_events(game: &Match<TableHand>, out: &mut Vec<Event>) {
    match game.winner() {
        Some(winner) => out.push(Event::public(EventKind::MatchOver {
            winner,
            scores: game.scores(),
        })),
        None => hand_events(game.hand(), game.hand_index(), out),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;
    use crate::rules::Rules;
    use crate::seats::seat_of;
    use crate::state::Hand;

    #[test]
    fn an_auto_hand_tells_every_card_once_and_ends_with_its_result() {
        for seed in 0..50 {
            let mut rng = SplitMix64::new(seed);
            let mut hand = TableHand::from_seed(seed, seat_of(seed), Rules::default(), [0, 0]);
            while let Some(seat) = hand.hand().to_move() {
                let mask = hand.legal_mask(seat);
                let id = crate::bots::random::random_action(mask, &mut rng);
                hand.apply(Some(seat), id).unwrap();
            }
            let mut events = Vec::new();
            hand_events(&hand, 0, &mut events);
            let plays = events
                .iter()
                .filter(|e| matches!(e.kind, EventKind::Play { .. }))
                .count();
            assert_eq!(plays, hand.hand().plays().len());
            let tricks = events
                .iter()
                .filter(|e| matches!(e.kind, EventKind::Trick { .. }))
                .count();
            assert_eq!(tricks, plays / 4);
            assert_eq!(events.last().unwrap().kind, EventKind::HandOver { hand: 0 });
            let core: &Hand = hand.hand();
            let runs_events = events
                .iter()
                .filter(|e| matches!(e.kind, EventKind::Runs { .. }))
                .count();
            assert_eq!(runs_events, (core.plays().len() >= 8) as usize);
            for seat in 0..4u8 {
                let private = events.iter().filter(|e| e.to == Some(seat)).count();
                let kitty = core.trump().is_some() as usize;
                assert_eq!(private, 1 + kitty, "deal and kitty only");
            }
        }
    }
}
