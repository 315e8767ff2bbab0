//! Self-play data (docs/RL.md "Self-play data"): every decision of many bot-played hands as
//! rows of arrays (the hand's number, the seat, its observation, its legal actions, the action
//! taken, the hand's score by team), on every core. Hand `i` is hand `i` of the batch
//! (rust/sim.rs: hand seed `derive(seed, i)`, dealer `i % 4`), so the rows are the same on any
//! thread count. Two passes: the bots play every hand, noting its actions, which fixes where
//! each hand's rows go; then each hand is replayed into its rows, written in place.
//! Rules: R3, R5 (through [`Hand`]), R6 (the score).

use rayon::prelude::*;

use crate::compact::{
    encode_following, expand, hand_runs, write_mask, HandSeen, Row, SeatView, EMPTY_ROW,
};
use crate::observe::TENSOR_SIZE;
use crate::rng::derive;
use crate::seats::seat_of;
use crate::sim::{on_pool, play_hand_noting, Batch};
use crate::state::{Hand, NUM_ACTIONS};
use crate::vector::Encoding;

/// The most actions of a hand: three passes and a call, and 36 cards (R3, R5).
const HAND_ACTIONS: usize = 40;

/// One played hand: its actions in order and its score by team (R6).
#[derive(Clone, Copy, Debug)]
pub struct HandLog {
    actions: [u8; HAND_ACTIONS],
    len: u8,
    score: [u32; 2],
}

impl HandLog {
    /// The hand's actions in order.
    pub fn actions(&self) -> &[u8] {
        &self.actions[..self.len as usize]
    }
}

/// Plays hands `0..hands` of `batch` on `threads` threads (0: every core; 1: this thread).
pub fn play_logs(batch: &Batch, hands: u64, threads: usize) -> Vec<HandLog> {
    let play = |seats: &mut crate::sim::Seats, index: u64| {
        let mut log = HandLog {
            actions: [0; HAND_ACTIONS],
            len: 0,
            score: [0, 0],
        };
        let hand = play_hand_noting(batch, index, seats, |action| {
            log.actions[log.len as usize] = action;
            log.len += 1;
        });
        log.score = hand.score();
        log
    };
    if threads == 1 {
        let mut seats = batch.seats();
        return (0..hands).map(|index| play(&mut seats, index)).collect();
    }
    on_pool(threads, || {
        (0..hands)
            .into_par_iter()
            .map_init(|| batch.seats(), play)
            .collect()
    })
}

/// The arrays the rows go to, one row a decision (C order, owned by the caller).
#[derive(Clone, Copy, Debug)]
pub struct Rows {
    /// The hand's number.
    pub hand: *mut i64,
    /// The deciding seat.
    pub seat: *mut i8,
    /// Its observation: `TENSOR_SIZE` float32 or `COMPACT_SIZE` bytes, as the encoding says.
    pub observation: *mut u8,
    /// `NUM_ACTIONS` int8: 1 for each legal action.
    pub action_mask: *mut i8,
    /// The action taken.
    pub action: *mut i8,
    /// Two int32: the hand's score by team.
    pub score: *mut i32,
}

// SAFETY: each hand's rows are written by one thread only (`write_rows`).
unsafe impl Send for Rows {}
unsafe impl Sync for Rows {}

/// Where each hand's rows start: the decisions before it; the last entry is the total.
pub fn row_starts(logs: &[HandLog]) -> Vec<usize> {
    let mut starts = Vec::with_capacity(logs.len() + 1);
    let mut total = 0;
    starts.push(0);
    for log in logs {
        total += log.len as usize;
        starts.push(total);
    }
    starts
}

/// Replays every hand of `logs` (played from `batch`) into its rows (`starts` from
/// [`row_starts`]), hands in parallel.
///
/// # Safety
/// `rows` holds `starts[logs.len()]` rows of every array (observations as `encoding` says),
/// and nothing else reads or writes them during the call.
pub unsafe fn write_rows(
    batch: &Batch,
    logs: &[HandLog],
    starts: &[usize],
    encoding: Encoding,
    rows: Rows,
    threads: usize,
) {
    let write = |index: usize| {
        // SAFETY: hand `index` writes rows `starts[index]..starts[index + 1]` only.
        unsafe { write_hand(batch, index, &logs[index], starts[index], encoding, rows) }
    };
    if threads == 1 {
        (0..logs.len()).for_each(write);
    } else {
        on_pool(threads, || (0..logs.len()).into_par_iter().for_each(write));
    }
}

/// # Safety
/// Rows `first..first + log.len` exist and no other thread touches them.
unsafe fn write_hand(
    batch: &Batch,
    index: usize,
    log: &HandLog,
    first: usize,
    encoding: Encoding,
    rows: Rows,
) {
    let dealer = seat_of(index as u64);
    let mut hand = Hand::from_seed(
        derive(batch.seed, index as u64),
        dealer,
        batch.rules,
        [0, 0],
    );
    // The rows are read straight from the hand (auto mode): what a row holds needs nothing
    // the InfoTracker reads backwards from the plays.
    let runs = hand_runs(&hand);
    let mut compact: Row = EMPTY_ROW;
    let mut seen = HandSeen::new(dealer);
    for (k, &action) in log.actions().iter().enumerate() {
        let at = first + k;
        let seat = hand.to_move().unwrap_or(0);
        let info = SeatView::new(&hand, seat, &runs);
        let legal = hand.legal_mask();
        // SAFETY: row `at` is this hand's (the caller's guarantee); the arrays are of the
        // element types named, so every row is aligned.
        unsafe {
            match encoding {
                Encoding::Compact => encode_following(
                    &info,
                    &mut *(rows.observation as *mut Row).add(at),
                    &mut seen,
                ),
                Encoding::Tensor => {
                    encode_following(&info, &mut compact, &mut seen);
                    expand(
                        &compact,
                        &mut *(rows.observation as *mut [f32; TENSOR_SIZE]).add(at),
                    );
                }
            }
            write_mask(
                legal,
                &mut *(rows.action_mask as *mut [i8; NUM_ACTIONS as usize]).add(at),
            );
            *rows.hand.add(at) = index as i64;
            *rows.seat.add(at) = seat as i8;
            *rows.action.add(at) = action as i8;
            *(rows.score as *mut [i32; 2]).add(at) = [log.score[0] as i32, log.score[1] as i32];
        }
        hand.apply_unchecked(action);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::BotSpec;
    use crate::rules::Rules;
    use crate::sim::play_hand;

    /// The logged hands are the hands `simulate` plays (the random fast path too), on one
    /// thread or several.
    #[test]
    fn logs_are_the_simulated_hands() {
        for bots in [
            [BotSpec::Random; 4],
            [
                BotSpec::Greedy,
                BotSpec::Random,
                BotSpec::Greedy,
                BotSpec::Random,
            ],
        ] {
            let batch = Batch {
                seed: 9,
                rules: Rules::default(),
                bots,
            };
            let logs = play_logs(&batch, 50, 1);
            let mut seats = batch.seats();
            for (index, log) in logs.iter().enumerate() {
                let played = play_hand(&batch, index as u64, &mut seats);
                let actions: Vec<u8> = played.history().iter().map(|&(_, id)| id).collect();
                assert_eq!(log.actions(), actions.as_slice());
                assert_eq!(log.score, played.score());
            }
            let parallel = play_logs(&batch, 50, 3);
            assert!(logs
                .iter()
                .zip(&parallel)
                .all(|(a, b)| a.actions() == b.actions()));
        }
    }
}
