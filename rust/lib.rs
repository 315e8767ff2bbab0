//! tarabish: a fast, exact rules engine for Tarabish (Cape Breton Belote).
//!
//! The rules are docs/RULES.md; each module names the rule ids it implements. Card sets are bit
//! masks ([`CardSet`]), states are `Copy` values ([`Hand`], [`TableHand`], [`Match`]), legal
//! actions are masks of the dense action ids of R0. The modules are private: what this crate
//! offers is the list of `pub use` below, by concept (docs/ARCHITECTURE.md). Only `py` (behind
//! the `python` feature) knows Python exists.
//!
//! ```
//! use tarabish::{legal_plays, parse_cards, Hand, Rules, Suit, TrickSoFar};
//!
//! // R5.1b: void in hearts, holding trump, the player must trump.
//! let hand = parse_cards("6C 7S").unwrap().into_iter().collect();
//! let trick = TrickSoFar::of(&parse_cards("AH").unwrap(), Suit::Clubs);
//! let legal = legal_plays(hand, &trick, Suit::Clubs, &Rules::default());
//! assert_eq!(legal.len(), 1);
//!
//! // A seeded hand: eldest (seat 1) speaks first (R3.1).
//! let hand = Hand::from_seed(42, 0, Rules::default(), [0, 0]);
//! assert_eq!(hand.to_move(), Some(1));
//! ```

#![warn(missing_docs)]

mod action_text;
mod bits;
mod bots;
mod cards;
mod compact;
mod cpu;
mod deal;
mod error;
mod events;
mod infoset;
mod lockstep;
mod matches;
mod observe;
mod registry;
mod rng;
mod rules;
mod runs;
mod scoring;
mod search;
mod seats;
mod self_play;
mod sim;
mod solver;
mod state;
mod table;
mod tournament;
mod tricks;
mod vector;
mod view_json;

// The public surface, by concept. Everything else is private to the crate (the modules
// themselves, bit tricks, lookup tables, the solver's internals).

// Cards, seats and the rule options (R0, R1.1, R9).
pub use cards::{parse_cards, Card, CardSet, Rank, Suit, MAX_CARDS};
pub use error::Error;
pub use rules::{Declarations, Rules};
pub use seats::{eldest, next_seat, partner, right_of, seat_after, seat_of, team_of, SEATS, TEAMS};

// The rule primitives (R1, R4, R5, R6) and the points they count.
pub use runs::{checked_run_winner, compare_runs, find_runs, Run, Runs, FIFTY, TWENTY};
pub use scoring::{score_hand, Outcome, BELLA_POINTS, CARD_COUNT, LAST_TRICK_BONUS};
pub use tricks::{
    card_points, checked_legal_plays, checked_trick_winner, distinct, implied_voids, legal_plays,
    TrickSoFar,
};

// Deals and randomness (R2, docs/ENGINE.md "Randomness").
pub use deal::{
    check_deal, deal_from_seed, deal_with, Deal, CARDS_PER_SEAT, FIRST_PACKETS, KITTY_SIZE,
};
pub use rng::{derive, mix64, SplitMix64};

// Hands and matches (R3-R8): action ids, the auto-mode hand, table mode, the match.
pub use action_text::parse_action;
pub use matches::Match;
pub use state::{
    Hand, Phase, TrickRecord, ANNOUNCE, BELLA, CALL_BASE, MISPLAY, NUM_ACTIONS, PASS,
    PLAYS_BEFORE_RUNS, SHOW, THROW, TRICKS,
};
pub use table::{CallRecord, Misplay, TableHand};

// What one seat knows and is told: information sets, views, events, sampled worlds.
pub use compact::{
    encode as encode_compact, expand as expand_compact, update_tensor, write_tensor, Kind, Row,
    Segment, COMPACT_SIZE, LAYOUT as COMPACT_LAYOUT,
};
pub use events::{hand_events, match_end_events, match_events, Event, EventKind};
pub use infoset::{InfoSet, InfoTracker};
pub use observe::{information_string, MAX_TEAM_POINTS, SCORE_SCALE, TENSOR_SIZE};
pub use search::worlds::WorldSampler;
pub use view_json::table_view_json;

// Bots, batches, tournaments and the double-dummy solver.
pub use bots::greedy::GreedyBot;
pub use bots::heuristic::HeuristicBot;
pub use bots::random::{random_action, RandomBot};
pub use bots::{Params, Policy};
pub use registry::{BotSpec, BOT_NAMES};
pub use search::ismcts::{IsmctsBot, IsmctsParams, Playout};
pub use self_play::{play_logs, row_starts, write_rows, HandLog, Rows};
pub use sim::{simulate, simulate_on, Batch, Summary};
pub use solver::{
    position_of, solve, solve_many, PimcBot, Solution, Solver, ENTRY_BYTES, TABLE_ENTRIES,
};
pub use tournament::{Standing, Tournament};
pub use vector::{
    observation_bytes, Config as VectorConfig, Encoding, Episode, Outputs, VectorEnv,
};

// The CPU's kernels: which instruction-set copy of the hot loops runs (TARABISH_KERNEL).
pub use cpu::{Job, Kernel, KernelError, KernelSet, KERNEL_VARIABLE};

#[cfg(feature = "python")]
mod py;
