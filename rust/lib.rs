//! tarabish: a fast, exact rules engine for Tarabish (Cape Breton Belote).
//!
//! The rules are RULES.md (docs/RULES.md); each module names the rule ids it implements.
//! Card sets are bit masks, states are `Copy`, legal actions are masks; only `py` (behind the
//! `python` feature) knows Python exists.

pub mod action_text;
pub mod bits;
pub mod bots;
pub mod cards;
pub mod deal;
pub mod error;
pub mod events;
pub mod heuristic;
pub mod infoset;
pub mod ismcts;
pub mod matches;
pub mod observe;
pub mod rng;
pub mod rules;
pub mod runs;
pub mod scoring;
pub mod seats;
pub mod sim;
pub mod solver;
pub mod state;
pub mod table;
pub mod tournament;
pub mod variants;
pub mod worlds;

pub use cards::{parse_cards, Card, CardSet, Rank, Suit};
pub use deal::{deal_from_seed, Deal};
pub use error::Error;
pub use matches::Match;
pub use rules::{card_points, legal_plays, TrickSoFar};
pub use runs::{compare_runs, find_runs, Run, Runs};
pub use scoring::{score_hand, Outcome};
pub use seats::{eldest, next_seat, partner, right_of, seat_after, seat_of, team_of, SEATS, TEAMS};
pub use state::{Hand, Phase};
pub use table::TableHand;
pub use variants::{Declarations, Rules};

#[cfg(feature = "python")]
mod py;
