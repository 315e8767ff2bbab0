//! The vectorized environment (docs/RL.md "Vectorized environment"): `N` auto-mode games
//! stepped together, each step one decision in every game, with the observations, action
//! masks, rewards and ends written into caller-owned arrays. Seats outside `controlled` are
//! played by a bot between the caller's steps. Rules: R3, R5 (the hand, through [`Hand`]),
//! R6 (the reward: the acting team's hand score minus the other team's), R7 (matches).
//!
//! Randomness: environment `i` of a vector seeded `seed` has the seed `derive(seed, i)`, and
//! its episode `k` is game `k` of a batch with that seed (rust/sim.rs: hand seed
//! `derive(env seed, k)`, dealer `k % 4`; the bots draw from the generator that dealt), so the
//! results do not depend on the thread count. Nothing is allocated per step.

use crate::bots::Policy;
use crate::compact::{
    encode_following, hand_runs, update_tensor, write_mask, HandSeen, Row, SeatView, COMPACT_SIZE,
    EMPTY_ROW,
};
use crate::cpu::{Job, KernelSet};
use crate::deal::deal_with;
use crate::error::Error;
use crate::infoset::InfoTracker;
use crate::lockstep::Lockstep;
use crate::matches::Match;
use crate::observe::TENSOR_SIZE;
use crate::registry::BotSpec;
use crate::rng::{derive, SplitMix64};
use crate::rules::Rules;
use crate::runs::Runs;
use crate::seats::{seat_of, team_of, SEATS};
use crate::state::{Hand, NUM_ACTIONS};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// What one episode is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Episode {
    /// One hand.
    Hand,
    /// A match to the target (R7.1).
    Match,
}

/// How observations are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// The float32 information-state tensor, `TENSOR_SIZE` values a game.
    Tensor,
    /// The compact rows of rust/compact.rs, `COMPACT_SIZE` bytes a game.
    Compact,
}

/// What every game of a vector plays.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    /// The rules (auto mode).
    pub rules: Rules,
    /// The seats whose decisions the caller makes.
    pub controlled: [bool; SEATS as usize],
    /// The bot of the other seats.
    pub opponents: Option<BotSpec>,
    /// A hand or a match an episode.
    pub episode: Episode,
    /// How observations are written.
    pub encoding: Encoding,
}

/// The arrays a vector writes, one row a game (C order, owned by the caller).
#[derive(Clone, Copy, Debug)]
pub struct Outputs {
    /// `TENSOR_SIZE` float32 or `COMPACT_SIZE` bytes a game, as the encoding says.
    pub observation: *mut u8,
    /// `NUM_ACTIONS` int8 a game: 1 for each legal action of the observer.
    pub action_mask: *mut i8,
    /// The observer: the seat to move, or at an episode's end the seat that acted.
    pub seat: *mut i64,
    /// The reward of the step for the acting seat's team.
    pub reward: *mut f32,
    /// Whether the episode ended at this step.
    pub terminated: *mut bool,
    /// Whether a hand ended at this step.
    pub hand_over: *mut bool,
    /// Two int32 a game: the finished hand's score by team (zero when none finished).
    pub score: *mut i32,
}

// SAFETY: the pointers are only written through `Outputs::row`, whose caller guarantees that
// every game's row is written by one thread at a time.
unsafe impl Send for Outputs {}
unsafe impl Sync for Outputs {}

/// One game's rows of the outputs.
struct OutRow<'a> {
    tensor: Option<&'a mut [f32; TENSOR_SIZE]>,
    compact: Option<&'a mut Row>,
    action_mask: &'a mut [i8; NUM_ACTIONS as usize],
    seat: &'a mut i64,
    reward: &'a mut f32,
    terminated: &'a mut bool,
    hand_over: &'a mut bool,
    score: &'a mut [i32; 2],
}

impl Outputs {
    /// The rows of game `i`.
    ///
    /// # Safety
    /// The arrays hold at least `i + 1` rows of the sizes above (`encoding` giving the
    /// observation's), and no other reference to game `i`'s rows is alive.
    unsafe fn row<'a>(self, i: usize, encoding: Encoding) -> OutRow<'a> {
        // SAFETY: passed on from the caller; each row lies inside its array and is aligned
        // since the arrays are of the element types named.
        unsafe {
            let (tensor, compact) = match encoding {
                Encoding::Tensor => (
                    Some(&mut *(self.observation as *mut [f32; TENSOR_SIZE]).add(i)),
                    None,
                ),
                Encoding::Compact => (None, Some(&mut *(self.observation as *mut Row).add(i))),
            };
            OutRow {
                tensor,
                compact,
                action_mask: &mut *(self.action_mask as *mut [i8; NUM_ACTIONS as usize]).add(i),
                seat: &mut *self.seat.add(i),
                reward: &mut *self.reward.add(i),
                terminated: &mut *self.terminated.add(i),
                hand_over: &mut *self.hand_over.add(i),
                score: &mut *(self.score as *mut [i32; 2]).add(i),
            }
        }
    }
}

/// An episode in progress: a hand, or a match.
#[derive(Clone, Copy, Debug)]
enum Game {
    Hand(Hand),
    Match(Match),
}

impl Game {
    fn hand(&self) -> &Hand {
        match self {
            Game::Hand(hand) => hand,
            Game::Match(game) => game.hand(),
        }
    }

    fn is_over(&self) -> bool {
        match self {
            Game::Hand(hand) => hand.is_terminal(),
            Game::Match(game) => game.is_terminal(),
        }
    }

    /// Applies a legal action; the finished hand when it ended one.
    #[inline(always)]
    fn apply(&mut self, action: u8) -> Option<Hand> {
        match self {
            Game::Hand(hand) => {
                hand.apply_unchecked(action);
                hand.is_terminal().then_some(*hand)
            }
            Game::Match(game) => game.apply_unchecked(action),
        }
    }
}

/// One game of the vector.
#[derive(Clone, Debug)]
struct Env {
    game: Game,
    /// Follows the hand in play for the bots: started at a bot's first decision in the hand
    /// and caught up before each.
    tracker: Option<InfoTracker>,
    /// Each seat's runs in the hand in play, for the observations (R4.4).
    runs: [Runs; SEATS as usize],
    /// The bots' generator (seeded with the episode's seed, which dealt the hand).
    rng: SplitMix64,
    /// Episode `k` is game `k` of a batch with this seed.
    seed: u64,
    /// The next episode's number.
    next_episode: u64,
    /// The episode's seed and first dealer, and its actions so far (for [`VectorEnv::record`]).
    episode_seed: u64,
    first_dealer: u8,
    actions: Vec<u8>,
    /// The episode ended at the last step: the next step starts the next one.
    ended: bool,
    /// The row whose tensor the observation array holds for this game.
    shown: Row,
    /// The legal actions written with the last observation (the seat to move's).
    legal: u64,
    /// What of the hand in play is already read into rows (its completed tricks, its runs).
    seen: HandSeen,
}

/// The most actions of a hand: three passes and a call, and 36 cards (R3, R5).
const HAND_ACTIONS: usize = 40;

impl Env {
    fn new(seed: u64, rules: Rules) -> Env {
        let hand = Hand::from_seed(0, 0, rules, [0, 0]);
        Env {
            game: Game::Hand(hand),
            tracker: None,
            runs: [Runs::NONE; SEATS as usize],
            rng: SplitMix64::new(0),
            seed,
            next_episode: 0,
            episode_seed: 0,
            first_dealer: 0,
            actions: Vec::with_capacity(HAND_ACTIONS),
            ended: true,
            shown: EMPTY_ROW,
            legal: 0,
            seen: HandSeen::new(0),
        }
    }

    /// Deals the next episode and lets the bots play up to the first controlled decision.
    fn start(&mut self, config: &Config, bot: &mut ChunkBot) {
        let k = self.next_episode;
        self.next_episode += 1;
        self.episode_seed = derive(self.seed, k);
        self.first_dealer = seat_of(k);
        let mut rng = SplitMix64::new(self.episode_seed);
        self.game = match config.episode {
            Episode::Hand => Game::Hand(Hand::from_deal(
                deal_with(&mut rng, self.first_dealer),
                self.first_dealer,
                config.rules,
                [0, 0],
            )),
            Episode::Match => Game::Match(Match::new(
                self.episode_seed,
                config.rules,
                self.first_dealer,
                [0, 0],
            )),
        };
        self.rng = rng;
        self.new_hand();
        self.actions.clear();
        self.ended = false;
        if let Some(bot) = bot {
            // Every seat speaks before a hand can end (R3.3, R5), so no hand ends here.
            let finished = self.play_bots(config, bot.as_mut());
            debug_assert!(finished.is_none());
        }
    }

    /// Applies a legal action of the seat to move; the finished hand when it ended one.
    #[inline(always)]
    fn apply(&mut self, action: u8) -> Option<Hand> {
        self.actions.push(action);
        let finished = self.game.apply(action);
        if finished.is_some() && !self.game.is_over() {
            self.new_hand();
        }
        finished
    }

    /// Starts on the hand in play, just dealt: its runs, and nothing of it read yet (the
    /// bots' tracker starts at their first decision in it).
    fn new_hand(&mut self) {
        let hand = self.game.hand();
        self.tracker = None;
        self.runs = hand_runs(hand);
        self.seen = HandSeen::new(hand.dealer());
    }

    /// The bot plays the seats outside `controlled` until a controlled seat is to move or
    /// the episode ends; the hand finished on the way, if any.
    fn play_bots(&mut self, config: &Config, bot: &mut dyn Policy) -> Option<Hand> {
        let mut finished = None;
        while let Some(seat) = self.to_move() {
            if config.controlled[seat as usize] {
                break;
            }
            let hand = self.game.hand();
            let tracker = self.tracker.get_or_insert_with(|| InfoTracker::new(hand));
            tracker.follow(hand);
            let info = tracker.view(hand, seat);
            let action = bot.act(info, info.legal_mask(), &mut self.rng);
            finished = self.apply(action).or(finished);
        }
        finished
    }

    /// The seat to move, none once the episode is over.
    fn to_move(&self) -> Option<u8> {
        if self.game.is_over() {
            None
        } else {
            self.game.hand().to_move()
        }
    }

    /// Writes what the seat to move knows and its legal actions, or once the episode is over
    /// what `last` (the seat that acted last) knows; whether the episode is over.
    #[inline(always)]
    fn observe(&mut self, last: u8, out: &mut OutRow<'_>) -> bool {
        let to_move = self.to_move();
        let hand = self.game.hand();
        let (observer, legal) = match to_move {
            Some(seat) => (seat, hand.legal_mask()),
            None => (last, 0),
        };
        let info = SeatView::new(hand, observer, &self.runs);
        match (&mut out.tensor, &mut out.compact) {
            (Some(tensor), _) => {
                let mut row = EMPTY_ROW;
                encode_following(&info, &mut row, &mut self.seen);
                update_tensor(&self.shown, &row, tensor);
                self.shown = row;
            }
            (None, Some(row)) => encode_following(&info, row, &mut self.seen),
            (None, None) => {}
        }
        write_mask(legal, out.action_mask);
        self.legal = legal;
        *out.seat = observer as i64;
        to_move.is_none()
    }

    /// One step: the next episode's start if the last one ended (the action is not used),
    /// else `action` (legal, checked by the caller) then the bots' moves.
    // Inlined into the loop over a chunk's games, with `apply`, `observe` and the row's
    // encoding: the calls' register saves and restores cost a sixth of a compact step.
    #[inline(always)]
    fn step(&mut self, config: &Config, bot: &mut ChunkBot, action: u8, out: &mut OutRow<'_>) {
        *out.reward = 0.0;
        *out.terminated = false;
        *out.hand_over = false;
        *out.score = [0, 0];
        if self.ended {
            self.start(config, bot);
            // A seat is to move once an episode starts (every seat speaks first, R3).
            self.observe(0, out);
            return;
        }
        let seat = self.to_move().unwrap_or(0);
        let mut finished = self.apply(action);
        if let Some(bot) = bot {
            if !self.game.is_over() {
                finished = self.play_bots(config, bot.as_mut()).or(finished);
            }
        }
        if let Some(hand) = finished {
            // R6: the acting team's score for the hand minus the other team's.
            let score = hand.score();
            let team = team_of(seat);
            *out.reward = score[team] as f32 - score[1 - team] as f32;
            *out.hand_over = true;
            *out.score = [score[0] as i32, score[1] as i32];
        }
        if self.observe(seat, out) {
            self.ended = true;
            *out.terminated = true;
        }
    }
}

/// The bot of one chunk of games, if seats are played by a bot.
type ChunkBot = Option<Box<dyn Policy>>;

/// A run of consecutive games, stepped by one thread at a time, with its own bot (bots keep
/// no state between decisions that changes what they choose, so which chunk's bot plays a
/// game changes nothing).
struct Chunk {
    envs: Vec<Env>,
    bot: ChunkBot,
}

/// `N` games stepped together (docs/RL.md).
pub struct VectorEnv {
    config: Config,
    /// The games, in chunks claimed by the team's threads (rust/lockstep.rs).
    chunks: Vec<Mutex<Chunk>>,
    /// Games a chunk (the last may have fewer).
    chunk: usize,
    /// Game by game, the legal actions written with its last observation, or [`ENDED`].
    /// Kept apart from the games so that checking the actions of a step reads these 8 bytes a
    /// game rather than cache lines of games that another core steps and writes.
    accepted: Vec<AtomicU64>,
    team: Lockstep,
}

/// In [`VectorEnv::accepted`]: the game's episode ended at the last step, so the next step
/// starts the next one whatever the action (no mask of legal actions is all ones).
const ENDED: u64 = u64::MAX;

/// Chunks of games a thread: a thread held up by other work on the machine leaves its
/// chunks to the others instead of making every step wait for it.
const CHUNKS_A_THREAD: usize = 16;

/// The number of threads `threads` means (0: every core, as for `simulate`).
fn thread_count(threads: usize) -> usize {
    if threads == 0 {
        rayon::current_num_threads()
    } else {
        threads
    }
}

impl VectorEnv {
    /// `num_envs` games under `config`, seeded `seed`, run on `threads` threads (0: every
    /// core). The games start at the first `reset`.
    pub fn new(num_envs: usize, config: Config, seed: u64, threads: usize) -> VectorEnv {
        let threads = thread_count(threads).min(num_envs.max(1));
        let chunk = num_envs.div_ceil(CHUNKS_A_THREAD * threads).max(1);
        let chunks = (0..num_envs)
            .step_by(chunk)
            .map(|first| {
                Mutex::new(Chunk {
                    envs: (first..num_envs.min(first + chunk))
                        .map(|i| Env::new(derive(seed, i as u64), config.rules))
                        .collect(),
                    bot: config.opponents.map(|spec| spec.build()),
                })
            })
            .collect();
        VectorEnv {
            config,
            chunks,
            chunk,
            accepted: (0..num_envs).map(|_| AtomicU64::new(ENDED)).collect(),
            team: Lockstep::new(threads),
        }
    }

    /// The number of games.
    pub fn len(&self) -> usize {
        self.accepted.len()
    }

    /// Whether there are no games.
    pub fn is_empty(&self) -> bool {
        self.accepted.is_empty()
    }

    /// What the games play.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Game `i`, through `look`; `None` if `i` is out of range.
    fn with_env<T>(&self, i: usize, look: impl FnOnce(&Env) -> T) -> Option<T> {
        let chunk = lock(self.chunks.get(i / self.chunk)?);
        chunk.envs.get(i % self.chunk).map(look)
    }

    /// Starts a new episode in every game (with `seed`: the seeds of a new vector seeded so,
    /// episodes counted from 0) and writes the first observations.
    ///
    /// # Safety
    /// `out` holds `len()` rows of every array, and nothing else reads or writes them during
    /// the call.
    pub unsafe fn reset(&mut self, seed: Option<u64>, out: Outputs) {
        for (c, chunk) in self.chunks.iter_mut().enumerate() {
            let chunk = chunk.get_mut().unwrap_or_else(PoisonError::into_inner);
            for (j, env) in chunk.envs.iter_mut().enumerate() {
                if let Some(seed) = seed {
                    env.seed = derive(seed, (c * self.chunk + j) as u64);
                    env.next_episode = 0;
                }
                env.ended = true;
            }
        }
        // SAFETY: passed on from the caller; ended games start an episode whatever the action.
        unsafe { self.run(|_| 0, out) }
    }

    /// Checks the action of every game: an id whose bit is set in the game's legal mask
    /// (games whose episode ended at the last step take any id: they start the next one).
    pub fn check(&self, actions: &[i64]) -> Result<(), Error> {
        if actions.len() != self.len() {
            return Err(Error::invalid(format!(
                "actions: one a game ({}), got {}",
                self.len(),
                actions.len()
            )));
        }
        for (i, (accepted, &action)) in self.accepted.iter().zip(actions).enumerate() {
            let accepted = accepted.load(Ordering::Relaxed);
            if accepted == ENDED {
                continue;
            }
            if !(0..NUM_ACTIONS as i64).contains(&action) {
                return Err(Error::invalid(format!(
                    "actions[{i}]: an action id is 0..{}, got {action}",
                    NUM_ACTIONS - 1
                )));
            }
            if accepted & (1 << action) == 0 {
                let rule = self.with_env(i, |env| env.game.hand().check(action as u8).err());
                let error = rule.flatten().unwrap_or_else(|| {
                    Error::invalid(format!("actions[{i}]: {action} is not legal"))
                });
                return Err(in_game(i, error));
            }
        }
        Ok(())
    }

    /// One step in every game with `actions` (checked by [`VectorEnv::check`]).
    ///
    /// # Safety
    /// As [`VectorEnv::reset`]; `actions` passed [`VectorEnv::check`].
    pub unsafe fn step(&mut self, actions: &[i64], out: Outputs) {
        // SAFETY: passed on from the caller.
        unsafe { self.run(|i| actions[i] as u8, out) }
    }

    /// Steps every game `i` with `action(i)`, chunks on the team's threads.
    ///
    /// # Safety
    /// As [`VectorEnv::step`].
    unsafe fn run(&mut self, action: impl Fn(usize) -> u8 + Sync, out: Outputs) {
        let config = self.config;
        let chunks = &self.chunks;
        let chunk_size = self.chunk;
        let accepted = &self.accepted;
        let kernel = KernelSet::chosen();
        let work = |c: usize| {
            let mut chunk = lock(&chunks[c]);
            let Chunk { envs, bot } = &mut *chunk;
            kernel.run(StepChunk {
                envs,
                bot,
                first: c * chunk_size,
                config: &config,
                action: &action,
                out,
                accepted,
            });
        };
        self.team.run(chunks.len(), &work);
    }

    /// Game `i`'s episode so far: its seed, its (first) dealer and its actions in order (a
    /// `HandState` or `MatchState` of that seed and dealer replaying them is the game's
    /// state). `None` if `i` is out of range.
    pub fn record(&self, i: usize) -> Option<(u64, u8, Vec<u8>)> {
        self.with_env(i, |env| {
            (env.episode_seed, env.first_dealer, env.actions.clone())
        })
    }
}

/// One chunk's games stepped, as a kernel's job (rust/cpu.rs): the step is inlined into the
/// kernel's copy, so its counts of card sets and its bit tricks are compiled for the CPU's
/// extensions (POPCNT, BMI1, BMI2) rather than the baseline's.
struct StepChunk<'a, A> {
    envs: &'a mut [Env],
    bot: &'a mut ChunkBot,
    /// The chunk's first game.
    first: usize,
    config: &'a Config,
    action: &'a A,
    out: Outputs,
    accepted: &'a [AtomicU64],
}

impl<A: Fn(usize) -> u8> Job for StepChunk<'_, A> {
    type Output = ();

    #[inline(always)]
    unsafe fn run<const BMI2: bool, const AVX512: bool, const PDEP: bool>(self) {
        let StepChunk {
            envs,
            bot,
            first,
            config,
            action,
            out,
            accepted,
        } = self;
        let prefetch = config.encoding == Encoding::Tensor;
        let len = envs.len();
        for (j, env) in envs.iter_mut().enumerate() {
            let i = first + j;
            if prefetch && j + PREFETCH_AHEAD < len {
                out.prefetch_tensor(i + PREFETCH_AHEAD);
            }
            // SAFETY: game i's rows are written only by the thread holding its chunk.
            let mut row = unsafe { out.row(i, config.encoding) };
            env.step(config, bot, action(i), &mut row);
            let legal = if env.ended { ENDED } else { env.legal };
            accepted[i].store(legal, Ordering::Relaxed);
        }
    }
}

/// Locks a chunk, whatever a panicking holder left (a step that panicked is a bug; the games
/// are still whole values).
fn lock(chunk: &Mutex<Chunk>) -> MutexGuard<'_, Chunk> {
    chunk.lock().unwrap_or_else(PoisonError::into_inner)
}

/// How many games ahead a game's tensor row is fetched into the cache.
const PREFETCH_AHEAD: usize = 2;

/// The size of a cache line.
const LINE: usize = 64;

impl Outputs {
    /// Fetches the lines of game `i`'s tensor row that nearly every step writes. A row is
    /// 6.8 KB and a step changes a few scattered entries (the observer's seat and cards in the
    /// first lines, the seat to move in the last), so without this each of them waits for
    /// memory. Compact rows stay in the stepping core's cache and are not fetched, on any
    /// number of threads: fetching them to be written (PREFETCHW), ahead of the caller's
    /// copies being given up, cost more than it saved (docs/RL.md).
    #[inline(always)]
    fn prefetch_tensor(self, i: usize) {
        let row = self
            .observation
            .wrapping_add(i * observation_bytes(Encoding::Tensor));
        for offset in [0, LINE, 2 * LINE, TENSOR_SIZE * 4 - LINE] {
            prefetch_line(row.wrapping_add(offset));
        }
    }
}

/// Fetches the cache line of `address`.
#[inline(always)]
fn prefetch_line(address: *const u8) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: a prefetch has no effect on memory, whatever the address.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(address as *const i8) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = address;
}

/// `error` for game `i`: its state description names the game.
fn in_game(i: usize, error: Error) -> Error {
    match error {
        Error::Illegal {
            action,
            rule,
            state,
            reason,
        } => Error::Illegal {
            action,
            rule,
            state: format!("game {i}: {state}"),
            reason,
        },
        other => other,
    }
}

/// The bytes of one observation row under `encoding`.
pub const fn observation_bytes(encoding: Encoding) -> usize {
    match encoding {
        Encoding::Tensor => TENSOR_SIZE * 4,
        Encoding::Compact => COMPACT_SIZE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Buffers for `n` games.
    struct Buffers {
        tensor: Vec<f32>,
        compact: Vec<u8>,
        mask: Vec<i8>,
        seat: Vec<i64>,
        reward: Vec<f32>,
        terminated: Vec<bool>,
        hand_over: Vec<bool>,
        score: Vec<i32>,
    }

    impl Buffers {
        fn new(n: usize) -> Buffers {
            Buffers {
                tensor: vec![0.0; n * TENSOR_SIZE],
                compact: vec![0; n * COMPACT_SIZE],
                mask: vec![0; n * NUM_ACTIONS as usize],
                seat: vec![0; n],
                reward: vec![0.0; n],
                terminated: vec![false; n],
                hand_over: vec![false; n],
                score: vec![0; 2 * n],
            }
        }

        fn outputs(&mut self, encoding: Encoding) -> Outputs {
            Outputs {
                observation: match encoding {
                    Encoding::Tensor => self.tensor.as_mut_ptr() as *mut u8,
                    Encoding::Compact => self.compact.as_mut_ptr(),
                },
                action_mask: self.mask.as_mut_ptr(),
                seat: self.seat.as_mut_ptr(),
                reward: self.reward.as_mut_ptr(),
                terminated: self.terminated.as_mut_ptr(),
                hand_over: self.hand_over.as_mut_ptr(),
                score: self.score.as_mut_ptr(),
            }
        }
    }

    /// The lowest legal action of every game, read from its mask.
    fn lowest(buffers: &Buffers, n: usize) -> Vec<i64> {
        (0..n)
            .map(|i| {
                let mask = &buffers.mask[i * NUM_ACTIONS as usize..][..NUM_ACTIONS as usize];
                mask.iter().position(|&m| m == 1).unwrap_or(0) as i64
            })
            .collect()
    }

    /// One and three threads give the same observations, rewards and ends, with bots in the
    /// other team's seats, for hands and matches.
    #[test]
    fn thread_count_changes_nothing() {
        for episode in [Episode::Hand, Episode::Match] {
            let config = Config {
                rules: Rules::default(),
                controlled: [true, false, true, false],
                opponents: Some(BotSpec::Greedy),
                episode,
                encoding: Encoding::Compact,
            };
            let n = 7;
            let mut one = VectorEnv::new(n, config, 3, 1);
            let mut three = VectorEnv::new(n, config, 3, 3);
            let (mut a, mut b) = (Buffers::new(n), Buffers::new(n));
            // SAFETY: the buffers hold n rows each.
            unsafe {
                one.reset(Some(11), a.outputs(Encoding::Compact));
                three.reset(Some(11), b.outputs(Encoding::Compact));
            }
            for _ in 0..600 {
                assert_eq!(a.compact, b.compact);
                assert_eq!(
                    (&a.reward, &a.terminated, &a.score),
                    (&b.reward, &b.terminated, &b.score)
                );
                let actions = lowest(&a, n);
                one.check(&actions).unwrap();
                // SAFETY: as above.
                unsafe {
                    one.step(&actions, a.outputs(Encoding::Compact));
                    three.step(&actions, b.outputs(Encoding::Compact));
                }
            }
        }
    }
}
