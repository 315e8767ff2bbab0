//! Batch simulation: many hands or matches played by bots on every core (rayon). Game `i` of a
//! batch seeded `seed` uses seed `derive(seed, i)` (docs/ENGINE.md), and summaries are sums of
//! integers, so a batch gives exactly the same summary on one thread or many, in any chunking.
//! Table-mode rules (docs/TABLE.md) are played through [`TableHand`] (`play_table_hand`,
//! `play_table_match`); the auto-mode paths below never see it.

use std::ops::{Add, Range};
use std::sync::{Arc, Mutex, PoisonError};

use rayon::prelude::*;

use crate::bits::{count_with, select_with};
use crate::bots::random::random_action;
use crate::bots::Policy;
use crate::cards::Card;
use crate::deal::deal_with;
use crate::infoset::{InfoSet, InfoTracker};
use crate::matches::Match;
use crate::registry::BotSpec;
use crate::rng::{derive, SplitMix64};
use crate::rules::Rules;
use crate::scoring::Outcome;
use crate::seats::seat_of;
use crate::state::{Hand, Phase};
use crate::table::TableHand;

/// What a batch is: the bots by seat, the rules, the batch seed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Batch {
    /// The batch seed; game `i` uses `derive(seed, i)`.
    pub seed: u64,
    /// The rules of every game.
    pub rules: Rules,
    /// The bot of each seat.
    pub bots: [BotSpec; 4],
}

/// The bots of a batch, built once per worker and reused game after game.
pub type Seats = [Box<dyn Policy>; 4];

impl Batch {
    /// Builds the four seats' bots.
    pub fn seats(&self) -> Seats {
        self.bots.map(|spec| spec.build())
    }

    fn all_random(&self) -> bool {
        self.bots.iter().all(BotSpec::is_random)
    }
}

/// The action `seats` choose for the seat to move in `hand` (not over), from its information
/// set only: `tracker`, following `hand`, gives it (equal to `InfoSet::new(hand, seat)`).
#[inline]
pub fn seat_action(
    seats: &mut Seats,
    hand: &Hand,
    tracker: &mut InfoTracker,
    rng: &mut SplitMix64,
) -> u8 {
    let seat = hand.to_move().unwrap_or(0);
    let info = tracker.view(hand, seat);
    debug_assert_eq!(*info, InfoSet::new(hand, seat));
    seats[seat as usize].act(info, info.legal_mask(), rng)
}

/// The number of [`Outcome`]s.
pub const OUTCOMES: usize = 6;

/// Totals over a batch; every field is a count or a sum.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Hands played (void ones included).
    pub hands: u64,
    /// Matches played (0 for a batch of hands).
    pub matches: u64,
    /// Hands by [`Outcome`]: made, bait, half bait, void (R6, R3.3), misplay, throw-in (R8).
    pub outcomes: [u64; OUTCOMES],
    /// Hands in which each seat named trump (R3).
    pub calls_by_seat: [u64; 4],
    /// Card points and last taken in tricks won by each seat.
    pub trick_points_by_seat: [u64; 4],
    /// Team points (R6.1: cards, last, runs, bella).
    pub points_by_team: [u64; 2],
    /// What each team scored (R6.2-R6.4).
    pub score_by_team: [u64; 2],
    /// Hands in which runs were scored (R4.3).
    pub hands_with_runs: u64,
    /// Run points scored, all hands together.
    pub run_points: u64,
    /// Hands in which bella was credited (R4.5).
    pub hands_with_bella: u64,
    /// Matches won by each team (R7.1).
    pub match_wins: [u64; 2],
}

impl Add for Summary {
    type Output = Summary;
    fn add(mut self, other: Summary) -> Summary {
        fn add_all<const N: usize>(a: &mut [u64; N], b: [u64; N]) {
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
        self.hands += other.hands;
        self.matches += other.matches;
        add_all(&mut self.outcomes, other.outcomes);
        add_all(&mut self.calls_by_seat, other.calls_by_seat);
        add_all(&mut self.trick_points_by_seat, other.trick_points_by_seat);
        add_all(&mut self.points_by_team, other.points_by_team);
        add_all(&mut self.score_by_team, other.score_by_team);
        self.hands_with_runs += other.hands_with_runs;
        self.run_points += other.run_points;
        self.hands_with_bella += other.hands_with_bella;
        add_all(&mut self.match_wins, other.match_wins);
        self
    }
}

impl Summary {
    /// Every field by name, scalars as one-value slices: the one list of a summary's fields
    /// that the Python API reads (rust/py/batch.rs; `tarabish.Summary` takes its counts from
    /// these names).
    pub fn fields(&self) -> [(&'static str, &[u64]); 11] {
        use std::slice::from_ref as one;
        [
            ("hands", one(&self.hands)),
            ("matches", one(&self.matches)),
            ("outcomes", &self.outcomes),
            ("calls_by_seat", &self.calls_by_seat),
            ("trick_points_by_seat", &self.trick_points_by_seat),
            ("points_by_team", &self.points_by_team),
            ("score_by_team", &self.score_by_team),
            ("hands_with_runs", one(&self.hands_with_runs)),
            ("run_points", one(&self.run_points)),
            ("hands_with_bella", one(&self.hands_with_bella)),
            ("match_wins", &self.match_wins),
        ]
    }

    /// Adds one finished auto-mode hand.
    pub fn record(&mut self, hand: &Hand) {
        self.add_hand(hand, hand.runs_scored(), hand.bella());
    }

    /// Adds one finished table-mode hand: its runs and bella as table mode credited them
    /// (R4.4, R4.5), its outcome possibly a call (R8.2, R8.3).
    pub fn record_table(&mut self, hand: &TableHand) {
        self.add_hand(hand.hand(), hand.runs_scored(), hand.bella());
    }

    #[inline]
    fn add_hand(&mut self, hand: &Hand, runs: Option<(u8, u32)>, bella: Option<u8>) {
        self.hands += 1;
        let outcome = hand.outcome().unwrap_or(Outcome::Void);
        self.outcomes[outcome as usize] += 1;
        if outcome == Outcome::Void {
            return;
        }
        if let Some(caller) = hand.caller() {
            self.calls_by_seat[caller as usize] += 1;
        }
        for seat in 0..4 {
            self.trick_points_by_seat[seat] += hand.taken_by(seat) as u64;
        }
        for team in 0..2 {
            self.points_by_team[team] += hand.points()[team] as u64;
            self.score_by_team[team] += hand.score()[team] as u64;
        }
        if let Some((_, points)) = runs {
            self.hands_with_runs += 1;
            self.run_points += points as u64;
        }
        self.hands_with_bella += bella.is_some() as u64;
    }
}

/// Plays hand `index` of the batch: dealt and played with one generator seeded
/// `derive(seed, index)`, dealer `index % 4`.
pub fn play_hand(batch: &Batch, index: u64, seats: &mut Seats) -> Hand {
    if batch.all_random() {
        return play_random_hand(batch, index);
    }
    play_hand_noting(batch, index, seats, |_| {})
}

/// [`play_hand`] through the bots' interface whatever they are (the same hand: the random
/// fast path draws as [`crate::bots::random::RandomBot`] does), telling `note` every action in turn.
pub fn play_hand_noting(
    batch: &Batch,
    index: u64,
    seats: &mut Seats,
    mut note: impl FnMut(u8),
) -> Hand {
    let mut rng = SplitMix64::new(derive(batch.seed, index));
    let dealer = seat_of(index);
    let mut hand = Hand::from_deal(deal_with(&mut rng, dealer), dealer, batch.rules, [0, 0]);
    let mut tracker = InfoTracker::new(&hand);
    while !hand.is_terminal() {
        let action = seat_action(seats, &hand, &mut tracker, &mut rng);
        note(action);
        hand.apply_unchecked(action);
        tracker.follow(&hand);
    }
    hand
}

/// [`play_hand`] for four random bots: the same draws as [`crate::bots::random::RandomBot`], without
/// building information sets or dispatching per action.
fn play_random_hand(batch: &Batch, index: u64) -> Hand {
    crate::cpu::KernelSet::chosen().run(RandomHand { batch, index })
}

/// [`play_random_hand`] as a kernel's job.
struct RandomHand<'a> {
    batch: &'a Batch,
    index: u64,
}

impl crate::cpu::Job for RandomHand<'_> {
    type Output = Hand;
    #[inline(always)]
    unsafe fn run<const BMI2: bool, const AVX512: bool, const PDEP: bool>(self) -> Hand {
        // SAFETY: the caller's guarantee.
        unsafe { play_random_hand_with::<BMI2, PDEP>(self.batch, self.index) }
    }
}

/// # Safety
/// With `BMI2 = true` the CPU must support BMI2.
#[inline(always)]
unsafe fn play_random_hand_with<const BMI2: bool, const PDEP: bool>(
    batch: &Batch,
    index: u64,
) -> Hand {
    let mut rng = SplitMix64::new(derive(batch.seed, index));
    let dealer = seat_of(index);
    let mut hand = Hand::from_deal(deal_with(&mut rng, dealer), dealer, batch.rules, [0, 0]);
    while hand.phase() == Phase::Auction {
        let mask = hand.legal_mask();
        // SAFETY (the count and the select): passed on from the caller.
        let k = rng.below(unsafe { count_with::<BMI2>(mask) });
        hand.apply_unchecked(unsafe { select_with::<PDEP>(mask, k) } as u8);
    }
    while hand.phase() == Phase::Play {
        let cards = hand.legal_cards().bits();
        // SAFETY (the count and the select): passed on from the caller.
        let k = rng.below(unsafe { count_with::<BMI2>(cards) });
        let index = unsafe { select_with::<PDEP>(cards, k) } as u8;
        hand.play_unchecked(Card::from_index_unchecked(index));
    }
    hand
}

/// The action the bot of `seat` takes in a table-mode hand (docs/TABLE.md "Allowed and
/// legal"): a random bot draws among the seat's legal ids, declarations and calls included, as
/// `play_random_hand` does; any other bot decides from its information set on the ids it knows
/// (cards and trump calls, [`TableHand::bot_mask`]).
fn table_action(
    batch: &Batch,
    seats: &mut Seats,
    hand: &TableHand,
    tracker: &mut Option<InfoTracker>,
    rng: &mut SplitMix64,
) -> u8 {
    let seat = hand.hand().to_move().unwrap_or(0);
    if batch.bots[seat as usize].is_random() {
        return random_action(hand.legal_mask(seat), rng);
    }
    // Started at the first decision of a bot that reads it (random bots never do), then
    // followed action by action.
    let tracker = tracker.get_or_insert_with(|| InfoTracker::new(hand.hand()));
    let info = tracker.view_table(hand, seat);
    debug_assert_eq!(info, InfoSet::of_table(hand, seat));
    seats[seat as usize].act(&info, hand.bot_mask(seat), rng)
}

/// [`play_hand`] under table-mode rules: hand `index` dealt the same way, then the seat to
/// move acts until the hand ends (played out, or by a call). With four random bots this is
/// `play_random_hand` of hand seed `derive(seed, index)`, dealer `index % 4`.
pub fn play_table_hand(batch: &Batch, index: u64, seats: &mut Seats) -> TableHand {
    let mut rng = SplitMix64::new(derive(batch.seed, index));
    let dealer = seat_of(index);
    let mut hand = TableHand::from_deal(deal_with(&mut rng, dealer), dealer, batch.rules, [0, 0]);
    let mut tracker = None;
    while let Some(seat) = hand.hand().to_move() {
        let action = table_action(batch, seats, &hand, &mut tracker, &mut rng);
        hand.apply_unchecked(seat, action);
        if let Some(tracker) = &mut tracker {
            tracker.follow(hand.hand());
        }
    }
    hand
}

/// [`play_match`] under table-mode rules: the hands are [`TableHand`]s.
pub fn play_table_match(batch: &Batch, index: u64, seats: &mut Seats, summary: &mut Summary) {
    let seed = derive(batch.seed, index);
    let mut game: Match<TableHand> = Match::new(seed, batch.rules, seat_of(index), [0, 0]);
    let mut rng = SplitMix64::new(seed);
    let mut tracker = None;
    while let Some(seat) = game.hand().hand().to_move().filter(|_| !game.is_terminal()) {
        let action = table_action(batch, seats, game.hand(), &mut tracker, &mut rng);
        match game.apply_table_unchecked(seat, action) {
            Some(done) => {
                summary.record_table(&done);
                tracker = None;
            }
            None => {
                if let Some(tracker) = &mut tracker {
                    tracker.follow(game.hand().hand());
                }
            }
        }
    }
    summary.matches += 1;
    if let Some(team) = game.winner() {
        summary.match_wins[team as usize] += 1;
    }
}

/// Plays match `index` of the batch: match seed `derive(seed, index)`, first dealer
/// `index % 4`; the bots' generator is seeded with the match seed.
pub fn play_match(batch: &Batch, index: u64, seats: &mut Seats, summary: &mut Summary) {
    let seed = derive(batch.seed, index);
    let mut game: Match = Match::new(seed, batch.rules, seat_of(index), [0, 0]);
    let mut rng = SplitMix64::new(seed);
    let mut tracker = InfoTracker::new(game.hand());
    while game.hand().to_move().is_some() && !game.is_terminal() {
        let action = seat_action(seats, game.hand(), &mut tracker, &mut rng);
        match game.apply_unchecked(action) {
            Some(done) => {
                summary.record(&done);
                tracker = InfoTracker::new(game.hand());
            }
            None => tracker.follow(game.hand()),
        }
    }
    summary.matches += 1;
    if let Some(team) = game.winner() {
        summary.match_wins[team as usize] += 1;
    }
}

/// Plays games `range` of the batch (hands, or matches if `matches`) on the current rayon
/// pool.
pub fn simulate(batch: &Batch, range: Range<u64>, matches: bool) -> Summary {
    range
        .into_par_iter()
        .fold(
            || (Summary::default(), batch.seats()),
            |(summary, mut seats), index| {
                let summary = play_into(batch, index, matches, &mut seats, summary);
                (summary, seats)
            },
        )
        .map(|(summary, _)| summary)
        .reduce(Summary::default, Summary::add)
}

/// Plays game `index` (a hand, or a match if `matches`) and adds it to `summary`.
#[inline]
fn play_into(
    batch: &Batch,
    index: u64,
    matches: bool,
    seats: &mut Seats,
    mut summary: Summary,
) -> Summary {
    match (matches, batch.rules.is_table_mode()) {
        (true, false) => play_match(batch, index, seats, &mut summary),
        (false, false) => summary.record(&play_hand(batch, index, seats)),
        (true, true) => play_table_match(batch, index, seats, &mut summary),
        (false, true) => summary.record_table(&play_table_hand(batch, index, seats)),
    }
    summary
}

/// Plays games `range` of the batch on the calling thread, in order.
pub fn simulate_serial(batch: &Batch, range: Range<u64>, matches: bool) -> Summary {
    let mut seats = batch.seats();
    range.fold(Summary::default(), |summary, index| {
        play_into(batch, index, matches, &mut seats, summary)
    })
}

/// The most threads a batch runs on (docs/ENGINE.md "Batches"): more is refused by the Python
/// API and capped here. Far more threads than cores only add the cost of starting them.
pub const MAX_THREADS: usize = 256;

/// Like [`simulate`], on `threads` threads (0: all cores; 1: the calling thread, no pool).
pub fn simulate_on(batch: &Batch, range: Range<u64>, matches: bool, threads: usize) -> Summary {
    if threads == 1 {
        return simulate_serial(batch, range, matches);
    }
    on_pool(threads, || simulate(batch, range, matches))
}

/// Runs `work` (rayon work) on `threads` threads: 0 means rayon's global pool (all cores);
/// otherwise a pool of that size (at most [`MAX_THREADS`]), or the global pool if one cannot
/// be built.
pub fn on_pool<T: Send>(threads: usize, work: impl FnOnce() -> T + Send) -> T {
    match (threads > 0)
        .then(|| pool_of(threads.min(MAX_THREADS)))
        .flatten()
    {
        Some(pool) => pool.install(work),
        None => work(),
    }
}

/// The pool of `threads` threads, built once and kept for the next batch with that many
/// threads (a batch played in chunks, for progress, builds it once: building a pool of
/// hundreds of threads costs far more than a small chunk). One pool is kept, the last used.
pub(crate) fn pool_of(threads: usize) -> Option<Arc<rayon::ThreadPool>> {
    static LAST: Mutex<Option<(usize, Arc<rayon::ThreadPool>)>> = Mutex::new(None);
    let mut last = LAST.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some((_, pool)) = last.as_ref().filter(|(size, _)| *size == threads) {
        return Some(Arc::clone(pool));
    }
    let pool = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .ok()?,
    );
    *last = Some((threads, Arc::clone(&pool)));
    Some(pool)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Declarations;

    fn batch(bots: [&str; 4]) -> Batch {
        Batch {
            seed: 2026,
            rules: Rules::default(),
            bots: bots.map(|name| BotSpec::parse(name).unwrap()),
        }
    }

    #[test]
    fn one_thread_and_many_give_the_same_summary() {
        let batch = batch(["random", "greedy", "random", "greedy"]);
        let serial = simulate_serial(&batch, 0..500, false);
        assert_eq!(simulate_on(&batch, 0..500, false, 1), serial);
        assert_eq!(simulate_on(&batch, 0..500, false, 2), serial);
        let halves = simulate(&batch, 0..250, false) + simulate(&batch, 250..500, false);
        assert_eq!(halves, serial);
        assert_eq!(serial.outcomes.iter().sum::<u64>(), 500);
    }

    #[test]
    fn table_mode_batches_are_table_hands_played_one_by_one() {
        let misplays = Rules {
            declarations: Declarations::Manual,
            enforce_legal_play: false,
            late_twenty: true,
            ..Rules::default()
        };
        let manual = Rules {
            declarations: Declarations::Manual,
            first_bell_ok: true,
            ..Rules::default()
        };
        for rules in [misplays, manual] {
            for bots in [["random"; 4], ["greedy", "random", "heuristic", "random"]] {
                let batch = Batch {
                    rules,
                    ..batch(bots)
                };
                let serial = simulate_serial(&batch, 0..300, false);
                assert_eq!(simulate_on(&batch, 0..300, false, 2), serial);
                let mut seats = batch.seats();
                let mut by_hand = Summary::default();
                for index in 0..300 {
                    by_hand.record_table(&play_table_hand(&batch, index, &mut seats));
                }
                assert_eq!(by_hand, serial);
                assert_eq!(serial.outcomes.iter().sum::<u64>(), 300);
                let called =
                    [Outcome::Misplay, Outcome::ThrowIn].map(|o| serial.outcomes[o as usize]);
                if rules.enforce_legal_play {
                    // R8.2, R8.3 need enforce_legal_play off: every hand is played out, and
                    // random seats announce, show and call bella (R4.4, R4.5).
                    assert_eq!(called, [0, 0], "{serial:?}");
                    assert!(serial.hands_with_runs > 0 && serial.hands_with_bella > 0);
                } else {
                    // Random seats call at random (docs/TABLE.md "Allowed and legal").
                    assert!(called.iter().all(|&n| n > 0), "{serial:?}");
                }
                let matches = simulate_serial(&batch, 0..4, true);
                assert_eq!(simulate_on(&batch, 0..4, true, 2), matches);
                assert_eq!(matches.match_wins.iter().sum::<u64>(), 4);
            }
        }
    }

    #[test]
    fn greedy_team_beats_random_team() {
        let batch = batch(["greedy", "random", "greedy", "random"]);
        let summary = simulate(&batch, 0..200, true);
        assert_eq!(summary.matches, 200);
        assert!(
            summary.match_wins[0] > summary.match_wins[1] * 2,
            "{summary:?}"
        );
    }
}
