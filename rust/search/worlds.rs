//! Sampled worlds (docs/SEARCH.md): from one seat's [`InfoSet`], full deals consistent with
//! everything the seat knows, drawn exactly uniformly, and their count.
//!
//! A world is which unseen cards each other seat holds (before trump is named: which cards
//! each seat was dealt and which three of them are its kitty, the seat's own kitty included;
//! R2.4). After trump a world must agree with the seat's view: every play legal (R5.1, through
//! [`InfoSet::cannot_hold`]), every announcement (R4.4: the size of a seat's best run once it
//! has played a card) and every shown run (all of a seat's runs once it has played a second
//! card) what the seat saw. Runs are per suit, so the sampler enumerates, suit by suit, every
//! way to give that suit's unseen cards to the other seats (at most 3^9), keeps those whose
//! runs agree, groups them by how many cards each seat gets and whether it reaches its announced
//! run size, and counts complete worlds by a dynamic program over the suits with the seats'
//! remaining hand sizes. A world is then drawn suit by suit: the bucket from the state's alias
//! table (Walker's method in integers: each bucket as likely as the worlds through it), then a
//! way of the bucket, each by Lemire's exact multiply-shift, so the draw is exactly uniform
//! (a rejected multiply-shift, rarer than one in 100,000, draws again).

use std::sync::{Mutex, PoisonError};

use crate::cards::{Card, CardSet, Suit};
use crate::cpu::KernelSet;
use crate::deal::{Deal, FIRST_PACKETS, KITTY_SIZE};
use crate::infoset::InfoSet;
use crate::rng::SplitMix64;
use crate::rules::Declarations;
use crate::runs::{find_runs, has_bella, runs_summary, suit_runs_summary};
use crate::scoring::BELLA_POINTS;
use crate::search::rollout::Rollout;
use crate::seats::team_of;
use crate::seats::{next_seat, partner, right_of};
use crate::state::Hand;

#[cfg(target_arch = "x86_64")]
mod avx512;

/// The most cards a seat holds (R2.4).
const HAND_CARDS: usize = 9;
/// Remaining-capacity values per seat in the dynamic program (0..=9).
const CAPACITIES: usize = HAND_CARDS + 1;
/// No bucket yet.
const NONE: u32 = u32::MAX;
/// The dynamic program's last level (levels are the suits, in suit order).
const LAST_LEVEL: usize = 3;
/// Bit flags: which announcing seats have reached their announced run size.
const FLAG_STATES: usize = 8;
/// States of the dynamic program at one suit: two seats' remaining capacities (the third
/// follows from the cards left) times the flags.
const STATES: usize = CAPACITIES * CAPACITIES * FLAG_STATES;

/// What one other seat's runs must be, from what the observer saw (R4.4 auto mode).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RunsSeen {
    /// The seat has not played yet: nothing announced.
    Nothing,
    /// The seat announced a best run of this class (0 none, 1 twenty, 2 fifty).
    Announced(u8),
    /// The seat showed all its runs.
    Shown,
}

/// A set of ways to give one suit's unseen cards to the other seats that agree on how many
/// each gets and which announcing seats they bring to their announced size.
#[derive(Clone, Debug)]
struct Bucket {
    counts: [u8; 3],
    /// Flag bit `j`: other seat `j` announced and a run of the announced size is in this suit.
    reached: u8,
    /// How many ways, and where they start in [`Tables::ways`].
    len: u32,
    first_way: u32,
}

/// One way of a suit in the draw's table, in one word: the suit's lane of the cards each other
/// seat gets (bits `9 j ..`, bit `r` = rank `r`, as [`CardSet::lane`]), and in the bits above
/// them what those cards make with the cards of the suit the seat is known to hold
/// ([`SuitRuns`]). 8 bytes, so the table a trick-one sampler reads (about 20,000 ways) stays
/// in the core's second-level cache beside the search tree (docs/SEARCH.md "The
/// draw").
#[derive(Clone, Copy, Debug, Default)]
struct Way(u64);

/// Bits of a lane (a suit's nine ranks).
const LANE_BITS: u32 = 9;
const LANE_MASK: u64 = (1 << LANE_BITS) - 1;
/// The lanes of a [`Way`]: the three other seats'.
const WAY_LANES: u64 = (1 << (3 * LANE_BITS)) - 1;

impl Way {
    fn new(lanes: [u16; 3], runs: SuitRuns) -> Way {
        let lanes = lanes.iter().enumerate().fold(0, |word, (j, &lane)| {
            word | (lane as u64) << (LANE_BITS as usize * j)
        });
        Way(lanes | runs.0)
    }

    /// Other seat `j`'s lane.
    #[inline(always)]
    fn lane(self, j: usize) -> u64 {
        (self.0 >> (LANE_BITS as usize * j)) & LANE_MASK
    }

    #[inline(always)]
    fn runs(self) -> SuitRuns {
        SuitRuns(self.0 & !WAY_LANES)
    }
}

/// What one suit gives each other seat toward auto mode's declarations: its best run's
/// strength in the suit ([`crate::runs::Run::strength`], R4.2; 0 for none), its runs' points
/// (R4.1) and, as a bit a seat, whether it holds trump's king and queen (R4.5). A world's are
/// its four suits' added ([`SuitRuns::add`]), so a draw finds its runs and bella without
/// looking at its cards again. Packed in the bits of a [`Way`] above its lanes: a strength in
/// a 7-bit slot a seat (its low six bits: a run's strength is 0x40 and six bits that are never
/// all 0), the points in tens in four bits a seat, bella a bit a seat; so adding a suit's is a
/// few operations on one register.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct SuitRuns(u64);

const STRENGTH_SHIFT: u32 = 3 * LANE_BITS;
const STRENGTH_SLOT: u32 = 7;
/// A run's strength without its constant 0x40 bit.
const STRENGTH_CODE: u64 = 0x3F;
const RUN_STRENGTH_BIT: u8 = 0x40;
/// A strength slot's spare top bit, and the slot's bits.
const STRENGTH_TOP_BIT: u32 = STRENGTH_SLOT - 1;
const STRENGTH_SLOT_MASK: u64 = (1 << STRENGTH_SLOT) - 1;
/// The seats' strength slots.
const STRENGTH_SLOTS: u64 = ((1 << (3 * STRENGTH_SLOT)) - 1) << STRENGTH_SHIFT;
/// The seats' slots' first bits.
const STRENGTH_SLOT_STARTS: u64 = 1 | 1 << STRENGTH_SLOT | 1 << (2 * STRENGTH_SLOT);
/// The spare top bit of each seat's strength slot.
const STRENGTH_TOPS: u64 = (STRENGTH_SLOT_STARTS << STRENGTH_TOP_BIT) << STRENGTH_SHIFT;
const POINTS_SHIFT: u32 = STRENGTH_SHIFT + 3 * STRENGTH_SLOT;
const POINTS_FIELD: u32 = 4;
const POINTS_MASK: u64 = (1 << POINTS_FIELD) - 1;
/// Runs score in tens (R4.1: 20 and 50).
const POINTS_UNIT: u32 = 10;
const BELLA_SHIFT: u32 = POINTS_SHIFT + 3 * POINTS_FIELD;
const _: () = assert!(BELLA_SHIFT + 3 <= u64::BITS);

impl SuitRuns {
    /// The summary of the other seats' best strengths, runs' points (at most 100 a seat: nine
    /// cards hold two fifties at most, R4.1) and bella bits.
    fn new(best: [u8; 3], points: [u32; 3], bella: u8) -> SuitRuns {
        let mut word = (bella as u64) << BELLA_SHIFT;
        for j in 0..3 {
            let slot = STRENGTH_SHIFT + STRENGTH_SLOT * j as u32;
            word |= (best[j] as u64 & STRENGTH_CODE) << slot;
            let field = POINTS_SHIFT + POINTS_FIELD * j as u32;
            word |= ((points[j] / POINTS_UNIT) as u64) << field;
        }
        SuitRuns(word)
    }

    /// What other seat `j`'s cards of `suit` make (its fields only; a way's are its seats' added
    /// by `|`): `cards` are what it is known to hold and what the way gives it.
    fn of_seat(j: usize, cards: CardSet, suit: Suit, trump: Suit) -> SuitRuns {
        let (strength, points) = suit_runs_summary(cards, suit, trump);
        let mut best = [0u8; 3];
        let mut all_points = [0u32; 3];
        best[j] = strength;
        all_points[j] = points;
        let bella = (suit == trump && has_bella(cards, trump)) as u8;
        SuitRuns::new(best, all_points, bella << j)
    }

    /// Other seat `j`'s best run strength.
    #[inline(always)]
    fn best(self, j: usize) -> u8 {
        let slot = STRENGTH_SHIFT as usize + STRENGTH_SLOT as usize * j;
        let code = ((self.0 >> slot) & STRENGTH_CODE) as u8;
        code | (RUN_STRENGTH_BIT * (code != 0) as u8)
    }

    /// Other seat `j`'s runs' points.
    #[inline(always)]
    fn points(self, j: usize) -> u32 {
        let field = POINTS_SHIFT as usize + POINTS_FIELD as usize * j;
        ((self.0 >> field) & POINTS_MASK) as u32 * POINTS_UNIT
    }

    /// Bit `j`: other seat `j` holds bella.
    #[inline(always)]
    fn bella(self) -> u8 {
        (self.0 >> BELLA_SHIFT) as u8
    }

    /// Adds another suit's: the better run of each seat (a slot-wise maximum: each slot plus
    /// its spare top bit minus the other's keeps that bit where it is not smaller), the points
    /// summed (no field overflows: at most ten tens a seat) and bella (one suit, trump, has
    /// any).
    #[inline(always)]
    fn add(&mut self, other: SuitRuns) {
        let (mine, theirs) = (self.0, other.0);
        let not_smaller =
            (((mine & STRENGTH_SLOTS) | STRENGTH_TOPS) - (theirs & STRENGTH_SLOTS)) & STRENGTH_TOPS;
        let keep = (not_smaller >> STRENGTH_TOP_BIT) * STRENGTH_SLOT_MASK;
        let best = (mine & keep) | (theirs & STRENGTH_SLOTS & !keep);
        self.0 = best | ((mine & !STRENGTH_SLOTS) + (theirs & !STRENGTH_SLOTS));
    }
}

/// One bucket a state of the dynamic program may take at a suit, and column `c` of its state's
/// alias table when it is the state's move `c` (Walker's alias method as Vose builds it, in
/// integers so that it is exact): a draw that lands in this column takes this move when its
/// number below the state's completions is below `threshold`, else the state's move `alias`.
/// `repr(C)`: the AVX-512 draw gathers its fields by their offsets (rust/search/worlds/avx512.rs).
#[derive(Clone, Copy, Debug)]
#[repr(C)]
struct Move {
    threshold: u64,
    alias: u32,
    /// The bucket's first way in [`Tables::ways`].
    first_way: u32,
    /// The bucket's ways.
    ways: Below32,
    /// The next state's draw (none after the last suit), kept here so that the draw's next
    /// read does not wait on a lookup of the state's.
    next: StateDraw,
}

/// What the draw reads of a state of the dynamic program: its moves (`moves[first..]`, as
/// many as `columns` draws) and its completions (`total`), each with Lemire's exact draw.
/// Move `m` of weight `w_m` (its ways times the next state's completions) is taken with
/// probability `w_m / total` (a column, then the number below `total` against the column's
/// threshold), so a world's probability is the product of its suits', 1 / count.
/// `repr(C)` with no padding between fields, for the AVX-512 draw's gathers.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
struct StateDraw {
    total: Below,
    first: u32,
    columns: Below32,
}

impl StateDraw {
    /// The move a world takes from this state, drawn from the world's generator `rng` and the
    /// suit's bits `choice` (its low half picks the column; a rejected draw takes more from
    /// `rng`).
    #[inline(always)]
    fn draw<'a>(&self, moves: &'a [Move], choice: u64, rng: &mut SplitMix64) -> &'a Move {
        let column = self.columns.below_from(choice as u32, rng);
        let number = self.total.below(rng);
        let landed = &moves[self.first as usize + column as usize];
        let taken = if number < landed.threshold {
            column
        } else {
            landed.alias
        };
        &moves[self.first as usize + taken as usize]
    }
}

/// Fills the alias columns of one state's `moves` from their weights (`threshold` holds each
/// move's weight on entry): Vose's pairing of a column under `total` with one over it, in
/// integers (each weight times the number of columns, each column `total` high), so the draw
/// is exact.
fn build_alias(
    moves: &mut [Move],
    total: u64,
    small: &mut Vec<(u32, u64)>,
    large: &mut Vec<(u32, u64)>,
) {
    small.clear();
    large.clear();
    let columns = moves.len() as u64;
    for (k, step) in moves.iter_mut().enumerate() {
        let scaled = step.threshold * columns;
        if scaled < total {
            small.push((k as u32, scaled));
        } else {
            large.push((k as u32, scaled));
        }
        // A column that is never paired keeps its own move whatever the number.
        step.threshold = total;
        step.alias = k as u32;
    }
    while let (Some(&(under, height)), Some(&(over, over_height))) = (small.last(), large.last()) {
        small.pop();
        large.pop();
        moves[under as usize].threshold = height;
        moves[under as usize].alias = over;
        let left = over_height - (total - height);
        if left < total {
            small.push((over, left));
        } else {
            large.push((over, left));
        }
    }
    // In exact integers every column left over is exactly `total` high.
    debug_assert!(small
        .iter()
        .chain(large.iter())
        .all(|&(_, height)| height == total));
}

/// A sampler's tables after trump, and the scratch that builds them. A search builds a sampler
/// a decision, and these tables are up to a megabyte: allocated afresh each time, their pages
/// were faulted in again at every build (about a third of a build at trick one), so a dropped
/// sampler leaves them in [`SPARE_TABLES`] for the next one (docs/SEARCH.md "Memory").
#[derive(Clone, Debug, Default)]
struct Tables {
    /// The buckets of each suit.
    buckets: [Vec<Bucket>; 4],
    /// The completion counts of each state before each suit (`completions[4]` is the end).
    completions: Vec<[u64; STATES]>,
    /// Every reachable state's moves (`Move::next_moves`).
    moves: Vec<Move>,
    /// Every bucket's ways, suit by suit, in one array (a draw reads one way a suit).
    ways: Vec<Way>,
    /// Scratch: a suit's ways as enumerated (bucket, lanes), each state's moves and guide,
    /// the states reached at a suit and the next.
    enumerated: Vec<(u32, [u16; 3])>,
    move_range: Vec<(u32, u32)>,
    state_draws: Vec<StateDraw>,
    /// Scratch of the alias tables' build: the columns under and over their height.
    small: Vec<(u32, u64)>,
    large: Vec<(u32, u64)>,
    reached: Vec<bool>,
    next_reached: Vec<bool>,
}

/// Tables that dropped samplers left for the next ones: at most [`SPARE_SAMPLERS`], each of at
/// most [`SPARE_TABLE_BYTES`], so the memory held between decisions stays bounded.
static SPARE_TABLES: Mutex<Vec<Tables>> = Mutex::new(Vec::new());
/// How many samplers' tables [`SPARE_TABLES`] keeps (two threads' samplers of two bots).
const SPARE_SAMPLERS: usize = 4;
/// The largest tables [`SPARE_TABLES`] keeps (a sampler at trick one uses about 0.3 MiB).
const SPARE_TABLE_BYTES: usize = 4 << 20;

impl Tables {
    /// Spare tables if some are left, else new ones.
    fn spare_or_new() -> Tables {
        SPARE_TABLES
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop()
            .unwrap_or_default()
    }

    /// The bytes the tables hold.
    fn capacity_bytes(&self) -> usize {
        fn bytes<T>(vector: &Vec<T>) -> usize {
            vector.capacity() * size_of::<T>()
        }
        self.buckets.iter().map(bytes).sum::<usize>()
            + bytes(&self.completions)
            + bytes(&self.moves)
            + bytes(&self.ways)
            + bytes(&self.enumerated)
            + bytes(&self.move_range)
            + bytes(&self.state_draws)
            + bytes(&self.small)
            + bytes(&self.large)
            + bytes(&self.reached)
            + bytes(&self.next_reached)
    }
}

impl Drop for WorldSampler {
    fn drop(&mut self) {
        let tables = std::mem::take(&mut self.tables);
        let mut spare = SPARE_TABLES.lock().unwrap_or_else(PoisonError::into_inner);
        if spare.len() < SPARE_SAMPLERS && tables.capacity_bytes() <= SPARE_TABLE_BYTES {
            spare.push(tables);
        }
    }
}

/// Draws worlds consistent with one seat's information set, exactly uniformly.
#[derive(Clone, Debug)]
pub struct WorldSampler {
    info: InfoSet,
    /// The other seats, in seat order.
    others: [u8; 3],
    /// The cards each other seat is known to hold or have held (plays, shown runs).
    fixed: [CardSet; 3],
    /// Cards no one in the view has seen.
    unseen: CardSet,
    /// After trump: the tables of the count and the draw.
    tables: Tables,
    /// The unseen cards left after each suit.
    left_after: [u32; 5],
    /// Flags every announcing seat must reach.
    target_flags: u8,
    /// After trump: the state of the dynamic program at the first suit and its draw (every
    /// reachable state's is in the moves that lead to it, `Move::next`).
    root_state: usize,
    root: StateDraw,
    count: u128,
    /// One consistent world, replayed once: later worlds are this one redealt.
    template: Option<Hand>,
    /// What the seat's own cards and the view give a drawn world's runs and bella to credit
    /// (auto mode after trump; the same for every world of the view).
    credit: Credit,
}

impl WorldSampler {
    /// A sampler for the worlds `info`'s seat cannot tell apart.
    pub fn new(info: &InfoSet) -> WorldSampler {
        let tables = match info.trump() {
            Some(_) => Tables::spare_or_new(),
            None => Tables::default(),
        };
        WorldSampler::with_tables(info, tables)
    }

    /// [`WorldSampler::new`] building in `tables` (whatever they held before).
    fn with_tables(info: &InfoSet, tables: Tables) -> WorldSampler {
        let seat = info.seat();
        let others = [next_seat(seat), partner(seat), right_of(seat)];
        let seen = info.seen();
        let mut sampler = WorldSampler {
            info: *info,
            others,
            fixed: others.map(|who| info.played_by(who).union(info.known_held(who))),
            unseen: CardSet::DECK.minus(seen),
            tables,
            left_after: [0; 5],
            target_flags: 0,
            root_state: 0,
            root: StateDraw::default(),
            count: 0,
            template: None,
            credit: Credit::of(info),
        };
        sampler.count = if info.trump().is_some() {
            match sampler.prepare_after_trump(true) {
                // No world agrees with the declarations: a table-mode view, whose declarations
                // are as made (docs/TABLE.md); search then ignores them.
                0 => sampler.prepare_after_trump(false) as u128,
                count => count as u128,
            }
        } else {
            before_trump_count()
        };
        if sampler.count > 0 {
            let (deal, _) = sampler.sample_world_cards(&mut SplitMix64::new(0));
            sampler.template = Some(sampler.world(&deal));
        }
        sampler
    }

    /// The number of consistent worlds (at least 1: the real one).
    pub fn count(&self) -> u128 {
        self.count
    }

    /// The seat whose view the worlds keep.
    pub fn info(&self) -> &InfoSet {
        &self.info
    }

    /// A uniformly drawn consistent world as a deal (cards in the order received).
    pub fn sample_deal(&self, rng: &mut SplitMix64) -> Deal {
        self.sample_world_cards(rng).0
    }

    /// A uniformly drawn consistent world as its deal and the cards each seat holds now.
    fn sample_world_cards(&self, rng: &mut SplitMix64) -> (Deal, [CardSet; 4]) {
        if self.info.trump().is_some() {
            self.sample_after_trump(rng)
        } else {
            self.sample_before_trump(rng)
        }
    }

    /// A uniformly drawn consistent world as a full state: the same rules, dealer, scores and
    /// actions as the view, dealt from [`WorldSampler::sample_deal`]. The count must not be
    /// 0 (it never is for a view of an auto-mode hand: the real world is one).
    pub fn sample(&self, rng: &mut SplitMix64) -> Hand {
        let (deal, hands) = self.sample_world_cards(rng);
        match &self.template {
            Some(template) => template.redealt(deal, hands),
            None => self.world(&deal),
        }
    }

    /// The state of `deal` with the view's public history replayed (each action legal in a
    /// consistent world).
    pub fn world(&self, deal: &Deal) -> Hand {
        let info = &self.info;
        let mut hand = Hand::from_deal(*deal, info.dealer(), *info.rules(), info.scores_before());
        for (_, id) in info.auction() {
            hand.apply_unchecked(id);
        }
        for &card in info.plays() {
            hand.play_unchecked(card);
        }
        hand
    }

    /// Before trump: the seat's first six are its own; the other 30 cards fall anywhere.
    fn sample_before_trump(&self, rng: &mut SplitMix64) -> (Deal, [CardSet; 4]) {
        let mut cards = [Card::from_index_unchecked(0); 30];
        for (slot, card) in cards.iter_mut().zip(self.unseen) {
            *slot = card;
        }
        // Fisher-Yates: a uniform order gives a uniform split into kitties and hands.
        for i in (1..cards.len()).rev() {
            cards.swap(i, rng.below(i as u32 + 1) as usize);
        }
        let seat = self.info.seat() as usize;
        let mut deal = [[Card::from_index_unchecked(0); 9]; 4];
        deal[seat] = *self.info.own_deal();
        deal[seat][FIRST_PACKETS..].copy_from_slice(&cards[..KITTY_SIZE]);
        for (k, &who) in self.others.iter().enumerate() {
            let start = 3 + HAND_CARDS * k;
            deal[who as usize].copy_from_slice(&cards[start..start + HAND_CARDS]);
        }
        (deal, deal.map(|cards| cards.iter().copied().collect()))
    }

    /// After trump: enumerate each suit's ways, group them, count completions backwards;
    /// with `declarations`, the worlds must agree with what each seat declared.
    fn prepare_after_trump(&mut self, declarations: bool) -> u64 {
        let info = self.info;
        let mut seen_runs = [RunsSeen::Nothing; 3];
        self.target_flags = 0;
        for (j, &who) in self.others.iter().enumerate().filter(|_| declarations) {
            seen_runs[j] = match (info.played_by(who).len(), info.announced(who)) {
                (0, _) | (_, None) => RunsSeen::Nothing,
                (1, Some(points)) => {
                    self.target_flags |= 1 << j;
                    RunsSeen::Announced(run_class_of_points(points))
                }
                _ => RunsSeen::Shown,
            };
        }
        let allowed: [CardSet; 3] = self
            .others
            .map(|who| CardSet::DECK.minus(info.cannot_hold(who)));
        self.tables.ways.clear();
        for suit in Suit::ALL {
            self.suit_buckets(suit, &seen_runs, &allowed);
        }
        let mut left = self.unseen.len();
        self.left_after[0] = left;
        for suit in Suit::ALL {
            left -= self.unseen.of_suit(suit).len();
            self.left_after[suit as usize + 1] = left;
        }
        let mut completions = std::mem::take(&mut self.tables.completions);
        completions.clear();
        completions.resize(LAST_LEVEL + 2, [0u64; STATES]);
        completions[4][state_index(0, 0, self.target_flags)] = 1;
        for level in (0..4).rev() {
            let (now, next) = completions.split_at_mut(level + 1);
            let next = &next[0];
            let left = self.left_after[level] as usize;
            for (index, slot) in now[level].iter_mut().enumerate() {
                let (r0, r1, flags) = state_parts(index);
                // Only announcing seats' flags are ever set: other states are unreachable.
                let unreachable = flags & !self.target_flags != 0;
                if unreachable || r0 + r1 > left || left - r0 - r1 > HAND_CARDS {
                    continue;
                }
                let r = [r0, r1, left - r0 - r1];
                *slot = self.tables.buckets[level]
                    .iter()
                    .filter_map(|b| step(r, flags, b).map(|n| b.len as u64 * next[n]))
                    .sum();
            }
        }
        let caps = self
            .others
            .map(|who| (info.hand_size(who) - info.known_held(who).len()) as usize);
        self.tables.completions = completions;
        let root = state_index(caps[0], caps[1], 0);
        let count = self.tables.completions[0][root];
        self.root_state = root;
        self.list_moves();
        count
    }

    /// For every state the draw can reach, suit by suit from the root, the buckets it may
    /// take next as the columns of the state's alias table ([`StateDraw`]).
    fn list_moves(&mut self) {
        let tables = &mut self.tables;
        tables.moves.clear();
        // Each reachable state's moves, `move_range[level * STATES + state]`.
        tables.move_range.clear();
        tables.move_range.resize(4 * STATES, (0, 0));
        let mut level_moves = [0usize; 5];
        tables.reached.clear();
        tables.reached.resize(STATES, false);
        tables.reached[self.root_state] = true;
        for (level, level_start) in level_moves[..=LAST_LEVEL].iter_mut().enumerate() {
            *level_start = tables.moves.len();
            tables.next_reached.clear();
            tables.next_reached.resize(STATES, false);
            for state in 0..STATES {
                if !tables.reached[state] {
                    continue;
                }
                let (r0, r1, flags) = state_parts(state);
                let r = [r0, r1, self.left_after[level] as usize - r0 - r1];
                let first = tables.moves.len();
                for bucket in &tables.buckets[level] {
                    let Some(next) = step(r, flags, bucket) else {
                        continue;
                    };
                    let per_way = tables.completions[level + 1][next];
                    if per_way == 0 {
                        continue;
                    }
                    tables.next_reached[next] = true;
                    tables.moves.push(Move {
                        // The move's weight until the alias columns are built below.
                        threshold: bucket.len as u64 * per_way,
                        alias: 0,
                        first_way: bucket.first_way,
                        ways: Below32::new(bucket.len),
                        // The next state's index until its draw is known.
                        next: StateDraw {
                            first: next as u32,
                            ..StateDraw::default()
                        },
                    });
                }
                let total = tables.completions[level][state];
                build_alias(
                    &mut tables.moves[first..],
                    total,
                    &mut tables.small,
                    &mut tables.large,
                );
                tables.move_range[level * STATES + state] =
                    (first as u32, tables.moves.len() as u32);
            }
            std::mem::swap(&mut tables.reached, &mut tables.next_reached);
        }
        level_moves[LAST_LEVEL + 1] = tables.moves.len();
        // Each reachable state's draw, computed once a state.
        tables.state_draws.clear();
        let completions = &tables.completions;
        let draws = tables.move_range.iter().enumerate();
        let draws = draws.map(|(index, &(first, last))| StateDraw {
            first,
            columns: Below32::new(last - first),
            total: Below::new(completions[index / STATES][index % STATES]),
        });
        tables.state_draws.extend(draws);
        for level in 0..LAST_LEVEL {
            for step in &mut tables.moves[level_moves[level]..level_moves[level + 1]] {
                step.next = tables.state_draws[(level + 1) * STATES + step.next.first as usize];
            }
        }
        for step in &mut tables.moves[level_moves[LAST_LEVEL]..] {
            step.next = StateDraw::default();
        }
        self.root = tables.state_draws[self.root_state];
    }

    /// Every way to give `suit`'s unseen cards to the other seats that agrees with their
    /// plays and runs, grouped.
    fn suit_buckets(&mut self, suit: Suit, seen_runs: &[RunsSeen; 3], allowed: &[CardSet; 3]) {
        let mut tables = std::mem::take(&mut self.tables);
        let buckets = &mut tables.buckets[suit as usize];
        buckets.clear();
        tables.enumerated.clear();
        let mut cards = [Card::from_index_unchecked(0); HAND_CARDS];
        let mut suit_cards = 0;
        for (slot, card) in cards.iter_mut().zip(self.unseen.of_suit(suit)) {
            *slot = card;
            suit_cards += 1;
        }
        // Each (counts, flags) bucket's place in `buckets`, by the state index of its counts.
        let mut bucket_of = [NONE; STATES];
        let mut given = [CardSet::EMPTY; 3];
        self.enumerate(&cards[..suit_cards], allowed, &mut given, &mut |given| {
            let mut reached = 0u8;
            for j in 0..3 {
                let lane = self.fixed[j].union(given[j]).of_suit(suit);
                match seen_runs[j] {
                    RunsSeen::Nothing => {}
                    RunsSeen::Announced(class) => {
                        let here = run_class(lane);
                        if here > class {
                            return;
                        }
                        if here == class {
                            reached |= 1 << j;
                        }
                    }
                    RunsSeen::Shown => {
                        let shown = self.info.shown(self.others[j]);
                        let want = shown.as_slice().iter().filter(|r| r.suit == suit);
                        if !want.copied().eq(find_runs(lane).as_slice().iter().copied()) {
                            return;
                        }
                    }
                }
            }
            let counts = given.map(|set| set.len() as u8);
            // Two seats' counts fix the third's: the suit's cards are all given.
            let key = state_index(counts[0] as usize, counts[1] as usize, reached);
            if bucket_of[key] == NONE {
                bucket_of[key] = buckets.len() as u32;
                buckets.push(Bucket {
                    counts,
                    reached,
                    len: 0,
                    first_way: 0,
                });
            }
            buckets[bucket_of[key] as usize].len += 1;
            let lanes = given.map(|cards| cards.lane(suit) as u16);
            tables.enumerated.push((bucket_of[key], lanes));
        });
        // The suit's ways bucket by bucket, each bucket's in the order enumerated: each
        // bucket's count starts again from 0 and is counted back up as its ways are placed.
        let mut next_way = tables.ways.len() as u32;
        for bucket in buckets.iter_mut() {
            bucket.first_way = next_way;
            next_way += std::mem::take(&mut bucket.len);
        }
        let trump = self.info.trump().unwrap_or(Suit::Clubs);
        // What each seat makes with each set of the suit's unseen cards it may be given, found
        // once a set (at most 2^9) rather than once a way (at most 3^9).
        let unseen = self.unseen.lane(suit) as usize;
        let mut by_lane = [[SuitRuns::default(); 1 << LANE_BITS]; 3];
        for (j, runs) in by_lane.iter_mut().enumerate() {
            let mut lane = 0;
            loop {
                let cards = self.fixed[j].union(CardSet::from_lane(lane as u32, suit));
                runs[lane] = SuitRuns::of_seat(j, cards, suit, trump);
                // The next subset of the unseen lane, in counting order.
                lane = lane.wrapping_sub(unseen) & unseen;
                if lane == 0 {
                    break;
                }
            }
        }
        tables.ways.resize(next_way as usize, Way::default());
        for &(index, lanes) in &tables.enumerated {
            let bucket = &mut buckets[index as usize];
            let runs = (0..3).fold(0, |word, j| word | by_lane[j][lanes[j] as usize].0);
            tables.ways[(bucket.first_way + bucket.len) as usize] = Way::new(lanes, SuitRuns(runs));
            bucket.len += 1;
        }
        self.tables = tables;
    }

    fn enumerate(
        &self,
        cards: &[Card],
        allowed: &[CardSet; 3],
        given: &mut [CardSet; 3],
        found: &mut impl FnMut(&[CardSet; 3]),
    ) {
        let Some((&card, rest)) = cards.split_first() else {
            found(given);
            return;
        };
        for j in 0..3 {
            if allowed[j].contains(card) {
                given[j].insert(card);
                self.enumerate(rest, allowed, given, found);
                given[j].remove(card);
            }
        }
    }

    /// A uniformly drawn world after trump ([`Self::draw_after_trump`]) as a deal and hands.
    fn sample_after_trump(&self, rng: &mut SplitMix64) -> (Deal, [CardSet; 4]) {
        let info = &self.info;
        let hands = self.draw_after_trump(rng);
        let mut deal = [[Card::from_index_unchecked(0); 9]; 4];
        let mut held = [CardSet::EMPTY; 4];
        let seat = info.seat() as usize;
        deal[seat] = *info.own_deal();
        held[seat] = info.hand();
        for (j, &who) in self.others.iter().enumerate() {
            // The order of a deal after trump is not part of a world: index order.
            for (slot, card) in deal[who as usize].iter_mut().zip(hands[j]) {
                *slot = card;
            }
            held[who as usize] = hands[j].minus(info.played_by(who));
        }
        (deal, held)
    }

    /// After trump: the cards each other seat was dealt in a uniformly drawn world.
    #[inline]
    fn draw_after_trump(&self, rng: &mut SplitMix64) -> [CardSet; 3] {
        self.draw_with_runs(rng).0
    }

    /// A uniformly drawn world after trump: the cards each other seat was dealt, and what its
    /// suits make toward the declarations. Suit by suit, the state's move (which bucket) from
    /// its alias table and a way of the bucket uniformly, each from fresh random bits, so no
    /// choice waits on a division of the one before (docs/SEARCH.md "The draw").
    #[inline(always)]
    fn draw_with_runs(&self, rng: &mut SplitMix64) -> ([CardSet; 3], SuitRuns) {
        let mut hand = self.fixed;
        let mut runs = SuitRuns::default();
        // Suit by suit, written out so that each suit's shift is a constant.
        let state = self.draw_suit::<0>(&self.root, rng, &mut hand, &mut runs);
        let state = self.draw_suit::<1>(state, rng, &mut hand, &mut runs);
        let state = self.draw_suit::<2>(state, rng, &mut hand, &mut runs);
        self.draw_suit::<3>(state, rng, &mut hand, &mut runs);
        (hand, runs)
    }

    /// A batch of eight or sixteen worlds drawn at once in AVX-512 registers where the CPU has
    /// them (rust/search/worlds/avx512.rs; sixteen as two registers whose suits interleave):
    /// the worlds [`Self::draw_with_runs`] draws one after another. `false`, and nothing drawn,
    /// elsewhere (a `kernel` without AVX-512), for other sizes, or when a choice is rejected
    /// (rarely).
    #[inline(always)]
    #[cfg_attr(not(target_arch = "x86_64"), expect(unused_variables))]
    fn draw_in_lanes(
        &self,
        rng: &mut SplitMix64,
        drawn: &mut [([CardSet; 3], SuitRuns)],
        kernel: KernelSet,
    ) -> bool {
        // A world to draw means every state a draw reaches has a move: the kernel's reads stay
        // in the tables.
        #[cfg(target_arch = "x86_64")]
        if self.count > 0 && kernel.avx512() {
            // SAFETY: the kernel set proves the CPU has the extensions.
            match drawn.len() {
                avx512::LANES => return unsafe { avx512::draw_lanes::<1>(self, rng, drawn) },
                MAX_TOGETHER => return unsafe { avx512::draw_lanes::<2>(self, rng, drawn) },
                _ => {}
            }
        }
        false
    }

    /// One suit of [`Self::draw_with_runs`] from `state`: adds the way drawn to `hand` and
    /// `runs` and returns the next state's draw.
    #[inline(always)]
    fn draw_suit<'a, const SUIT: usize>(
        &'a self,
        state: &StateDraw,
        rng: &mut SplitMix64,
        hand: &mut [CardSet; 3],
        runs: &mut SuitRuns,
    ) -> &'a StateDraw {
        // The low half picks the column, the high half the way.
        let choice = rng.next_u64();
        let step = state.draw(&self.tables.moves, choice, rng);
        let way = step.ways.below_from((choice >> 32) as u32, rng);
        let way = &self.tables.ways[step.first_way as usize + way as usize];
        let way = *way;
        for (j, cards) in hand.iter_mut().enumerate() {
            *cards = cards.union(CardSet(way.lane(j) << (LANE_BITS as usize * SUIT)));
        }
        runs.add(way.runs());
        &step.next
    }

    /// Uniformly drawn consistent worlds as the search kernel's states, one for each of
    /// `worlds` (at most [`MAX_TOGETHER`]; docs/SEARCH.md "The draw"): `template` is
    /// [`Rollout::of`] a world of this view ([`WorldSampler::sample`]), and `worlds[i]` is
    /// `Rollout::of(&self.sample(rng))` for the `i`-th of as many calls in turn on the same `rng`,
    /// without building the [`Hand`]s, drawn with `kernel`'s copy. Auto mode after trump only
    /// (table mode's worlds go through the `Hand`).
    #[inline]
    pub(crate) fn sample_rollouts(
        &self,
        template: &Rollout,
        rng: &mut SplitMix64,
        worlds: &mut [Rollout],
        kernel: KernelSet,
    ) {
        let info = &self.info;
        if info.rules().declarations != Declarations::Auto {
            for world in worlds.iter_mut() {
                *world = Rollout::of(&self.sample(rng)).unwrap_or(*template);
            }
            return;
        }
        let mut drawn = [([CardSet::EMPTY; 3], SuitRuns::default()); MAX_TOGETHER];
        let drawn = &mut drawn[..worlds.len()];
        if !self.draw_in_lanes(rng, drawn, kernel) {
            for world in drawn.iter_mut() {
                *world = self.draw_with_runs(rng);
            }
        }
        for (world, (hands, runs)) in worlds.iter_mut().zip(drawn.iter()) {
            let mut held = [info.hand(); 4];
            for (j, &who) in self.others.iter().enumerate() {
                held[who as usize] = hands[j].minus(info.played_by(who));
            }
            let pending = self.credit.pending(runs);
            *world = template.redealt(held, pending);
        }
    }
}

/// What a drawn world still credits for runs (R4.3) and bella (R4.5) in auto mode, from its
/// suits' [`SuitRuns`] and the observing seat's own: the same as
/// [`crate::state::AutoDeclarations::of_summaries`] on the world's four seats, without a branch on the
/// world (whether anyone has a run, ties, who holds bella cannot be predicted) and in
/// registers (the seats' best runs written byte by byte and read back as one word stalled the
/// draw: docs/SEARCH.md "The draw"). The seats are taken in the order of
/// [`WorldSampler::others`] and then the seat: the next seat, its partner, the seat on its
/// right, itself, so place `i`'s partner is place `i ^ 2` and its team is the seat's when `i`
/// is odd.
#[derive(Clone, Copy, Debug)]
struct Credit {
    own_best: u8,
    own_points: u32,
    own_bella: bool,
    team_runs: bool,
    /// Whether runs and bella are still to be credited (not yet scored in the view).
    runs_open: bool,
    bella_open: bool,
    /// The observing seat's team.
    team: usize,
}

impl Credit {
    /// The credit of the worlds `info`'s seat cannot tell apart (trump taken as clubs before
    /// it is named: nothing is drawn into the search kernel then).
    fn of(info: &InfoSet) -> Credit {
        let trump = info.trump().unwrap_or(Suit::Clubs);
        let seat = info.seat();
        let own = info.hand().union(info.played_by(seat));
        let (own_best, own_points) = runs_summary(own, trump);
        Credit {
            own_best,
            own_points,
            own_bella: has_bella(own, trump),
            team_runs: info.rules().team_runs,
            runs_open: info.runs_scored().is_none(),
            bella_open: info.bella().is_none(),
            team: team_of(seat),
        }
    }

    /// Each team's points still to credit in the world whose other seats' suits make `runs`.
    #[inline(always)]
    fn pending(&self, runs: &SuitRuns) -> [u32; 2] {
        let best = [runs.best(0), runs.best(1), runs.best(2), self.own_best];
        let totals = [
            runs.points(0),
            runs.points(1),
            runs.points(2),
            self.own_points,
        ];
        let top = best[0].max(best[1]).max(best[2].max(best[3]));
        let mut at_top = 0u32;
        for (place, &strength) in best.iter().enumerate() {
            at_top |= ((strength == top) as u32) << place;
        }
        // R4.3: one seat's best run beats every other's; none when no run or a tie.
        let winner = at_top.trailing_zeros() as usize;
        let scores = self.runs_open & (top != 0) & at_top.is_power_of_two();
        let partner_runs = totals[winner ^ 2] * self.team_runs as u32;
        let runs_points = (totals[winner] + partner_runs) * scores as u32;
        let bella = runs.bella() as u32 | (self.own_bella as u32) << 3;
        // Bella's place (at most one seat holds trump's king and queen); 4 when no one does.
        let holder = (bella | 1 << 4).trailing_zeros() as usize;
        let credited = self.bella_open & (bella != 0);
        let bella_points = BELLA_POINTS * credited as u32;
        // Each team's points in its half of one word, the half chosen by a shift: nothing is
        // written to memory and read back wider (that stalled as the best runs did).
        let team_half = |place: usize| 32 * (self.team ^ (!place & 1));
        let both = ((runs_points as u64) << team_half(winner))
            + ((bella_points as u64) << team_half(holder));
        [both as u32, (both >> 32) as u32]
    }
}

/// The most worlds [`WorldSampler::sample_rollouts`] draws at once (the search's batch).
pub(crate) const MAX_TOGETHER: usize = 16;
// A full batch is two registers of the vector draw (`draw_in_lanes`).
#[cfg(target_arch = "x86_64")]
const _: () = assert!(MAX_TOGETHER == 2 * avx512::LANES);

/// The state after giving `bucket`'s counts from remaining capacities `r` with `flags`.
#[inline]
fn step(r: [usize; 3], flags: u8, bucket: &Bucket) -> Option<usize> {
    let c = bucket.counts.map(|n| n as usize);
    (c[0] <= r[0] && c[1] <= r[1] && c[2] <= r[2])
        .then(|| state_index(r[0] - c[0], r[1] - c[1], flags | bucket.reached))
}

#[inline]
fn state_index(r0: usize, r1: usize, flags: u8) -> usize {
    (r0 * CAPACITIES + r1) * FLAG_STATES + flags as usize
}

fn state_parts(index: usize) -> (usize, usize, u8) {
    let flags = (index % FLAG_STATES) as u8;
    let r = index / FLAG_STATES;
    (r / CAPACITIES, r % CAPACITIES, flags)
}

/// R4.1 in one suit: 2 if the cards hold a fifty, 1 if only a twenty, 0 if no run.
fn run_class(cards: CardSet) -> u8 {
    match find_runs(cards).as_slice().first() {
        Some(run) if run.len == 4 => 2,
        Some(_) => 1,
        None => 0,
    }
}

fn run_class_of_points(points: u32) -> u8 {
    match points {
        0 => 0,
        20 => 1,
        _ => 2,
    }
}

/// Worlds before trump: 30 unseen cards into the seat's kitty (3) and the others' first six
/// and kitties: 30! / (3! (6! 3!)^3).
fn before_trump_count() -> u128 {
    let factorial = |n: u128| (1..=n).product::<u128>();
    factorial(30) / (factorial(3) * (factorial(6) * factorial(3)).pow(3))
}

/// Uniform numbers in `0..n` (n > 0) from 32 random bits: Lemire's multiply-shift with its
/// rejection step, so exactly uniform; the rejection threshold (a division) is found once.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
struct Below32 {
    n: u32,
    threshold: u32,
}

impl Below32 {
    fn new(n: u32) -> Below32 {
        Below32 {
            n,
            threshold: if n == 0 { 0 } else { n.wrapping_neg() % n },
        }
    }

    /// The number `bits` give, or, when they fall in the rejected few, the low half of the
    /// next of `rng`'s numbers that do not.
    #[inline(always)]
    fn below_from(&self, bits: u32, rng: &mut SplitMix64) -> u32 {
        let mut product = bits as u64 * self.n as u64;
        while (product as u32) < self.threshold {
            product = rng.next_u64() as u32 as u64 * self.n as u64;
        }
        (product >> 32) as u32
    }
}

/// Uniform numbers in `0..n` (n > 0): Lemire's multiply-shift with its rejection step, so
/// exactly uniform; the rejection threshold (a division) is found once.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
struct Below {
    n: u64,
    threshold: u64,
}

impl Below {
    fn new(n: u64) -> Below {
        Below {
            n,
            threshold: if n == 0 { 0 } else { n.wrapping_neg() % n },
        }
    }

    #[inline]
    fn below(&self, rng: &mut SplitMix64) -> u64 {
        loop {
            let product = rng.next_u64() as u128 * self.n as u128;
            if (product as u64) >= self.threshold {
                return (product >> 64) as u64;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;
    use crate::seats::seat_of;
    use crate::state::AutoDeclarations;
    use crate::state::NUM_ACTIONS;

    /// A random hand stopped after `steps` actions.
    fn random_state(seed: u64, steps: usize, rules: Rules) -> Hand {
        let mut rng = SplitMix64::new(seed);
        let mut hand = Hand::from_seed(rng.next_u64(), seat_of(seed), rules, [0, 0]);
        for _ in 0..steps {
            if hand.is_terminal() {
                break;
            }
            let mask = hand.legal_mask();
            hand.apply_unchecked(CardSet(mask).nth(rng.below(mask.count_ones())).index());
        }
        hand
    }

    fn variant(seed: u64) -> Rules {
        Rules {
            head_plain: seed & 1 != 0,
            undertrump_optional: seed & 2 != 0,
            partner_exempt: seed & 4 != 0,
            ..Rules::default()
        }
    }

    /// Replays the real hand's actions on `deal` with every action checked.
    fn replay_checked(real: &Hand, deal: &Deal) -> Hand {
        let mut world = Hand::from_deal(*deal, real.dealer(), *real.rules(), real.scores_before());
        for (_, id) in real.history() {
            assert!(id < NUM_ACTIONS);
            world
                .apply(id)
                .expect("every action replays legally in a sampled world");
        }
        world
    }

    /// Divisors for the bounded draws: the small ones, the powers of two and their
    /// neighbours (where `2^k mod n` is 0 or jumps), and the largest.
    fn divisors_to_check() -> impl Iterator<Item = u64> {
        let powers = (1..32).flat_map(|k| [(1u64 << k) - 1, 1u64 << k, (1u64 << k) + 1]);
        (1..=1u64 << 16).chain(powers).chain([
            u32::MAX as u64 - 1,
            u32::MAX as u64,
            3 * 5 * 7 * 11 * 13 * 17 * 19 * 23,
        ])
    }

    #[test]
    fn the_bounded_draws_reject_exactly_two_to_the_width_mod_n() {
        // Lemire's method is exactly uniform only if the rejected low products are the
        // `2^w mod n` smallest (w the width): any other threshold biases the draw by
        // about 2^-w, far below what a frequency test can see.
        for n in divisors_to_check() {
            let n32 = n as u32;
            assert_eq!(
                Below32::new(n32).threshold as u64,
                (1u64 << 32) % n,
                "Below32 n = {n}"
            );
            assert_eq!(
                Below::new(n).threshold as u128,
                (1u128 << 64) % n as u128,
                "Below n = {n}"
            );
        }
        let mut rng = SplitMix64::new(2026);
        for _ in 0..10_000 {
            let n = rng.next_u64() >> rng.below(64);
            if n > 0 {
                assert_eq!(Below::new(n).threshold as u128, (1u128 << 64) % n as u128);
            }
        }
    }

    #[test]
    fn a_bounded_draw_redraws_just_below_the_threshold_and_not_at_it() {
        // For odd n every low product is reachable: bits = low * n^-1 (mod 2^32).
        let inverse = |n: u32| {
            (0..5).fold(n, |x, _| {
                x.wrapping_mul(2u32.wrapping_sub(n.wrapping_mul(x)))
            })
        };
        for n in [3u32, 7, 1_000_001, 36 * 35 * 34 + 1, u32::MAX] {
            let below = Below32::new(n);
            assert_eq!(n.wrapping_mul(inverse(n)), 1);
            let bits_with_low = |low: u32| low.wrapping_mul(inverse(n));
            let start = SplitMix64::new(99);
            let mut rng = start;
            let at = bits_with_low(below.threshold);
            assert_eq!(
                below.below_from(at, &mut rng),
                ((at as u64 * n as u64) >> 32) as u32
            );
            assert_eq!(rng, start, "n = {n}: a product at the threshold is kept");
            let under = bits_with_low(below.threshold - 1);
            let drawn = below.below_from(under, &mut rng);
            assert_ne!(
                rng, start,
                "n = {n}: a product under the threshold is drawn again"
            );
            assert!(drawn < n);
        }
    }

    #[test]
    fn samples_keep_the_view_and_replay_legally() {
        for seed in 0..600u64 {
            let real = random_state(seed, (seed % 41) as usize, variant(seed));
            let seat = seat_of(seed);
            let info = InfoSet::new(&real, seat);
            let sampler = WorldSampler::new(&info);
            assert!(sampler.count() >= 1);
            let mut rng = SplitMix64::new(seed);
            for _ in 0..5 {
                let deal = sampler.sample_deal(&mut rng);
                let all: CardSet = deal.iter().flatten().copied().collect();
                assert_eq!(all, CardSet::DECK);
                let world = replay_checked(&real, &deal);
                assert_eq!(world, sampler.world(&deal));
                assert_eq!(InfoSet::new(&world, seat), info, "seed {seed}");
                for who in 0..4u8 {
                    let seen = info.known_held(who);
                    assert_eq!(world.hand(who as usize).intersect(seen), seen);
                }
                // A redealt template is the replayed world.
                let redealt = sampler.sample(&mut rng);
                assert_eq!(
                    redealt,
                    replay_checked(&real, redealt.deal()),
                    "seed {seed}"
                );
            }
        }
    }

    #[test]
    fn a_sampler_built_in_used_tables_draws_as_a_fresh_one() {
        let states: Vec<(Hand, u8)> = (0..60u64)
            .map(|seed| {
                (
                    random_state(seed, 4 + (seed % 33) as usize, variant(seed)),
                    seat_of(seed),
                )
            })
            .filter(|(hand, _)| hand.trump().is_some())
            .collect();
        let mut used = Tables::default();
        for (k, (hand, seat)) in states.iter().enumerate() {
            let info = InfoSet::new(hand, *seat);
            let fresh = WorldSampler::with_tables(&info, Tables::default());
            // Tables left by the previous state's sampler (another deal, other constraints).
            let mut reused = WorldSampler::with_tables(&info, std::mem::take(&mut used));
            assert_eq!(reused.count(), fresh.count());
            let (mut a, mut b) = (SplitMix64::new(k as u64), SplitMix64::new(k as u64));
            for _ in 0..20 {
                assert_eq!(
                    reused.sample_deal(&mut a),
                    fresh.sample_deal(&mut b),
                    "state {k}"
                );
            }
            used = std::mem::take(&mut reused.tables);
        }
        assert!(states.len() > 30);
    }

    /// A sampler for the seat to move in each of 300 random states (every point of a hand)
    /// under every variant, `team_runs` on and off, with the state's seed.
    fn samplers_of_random_states() -> impl Iterator<Item = (u64, WorldSampler)> {
        (0..300u64).filter_map(|seed| {
            let rules = Rules {
                team_runs: seed & 8 != 0,
                ..variant(seed)
            };
            let real = random_state(seed, 1 + (seed % 40) as usize, rules);
            let seat = real.to_move()?;
            Some((seed, WorldSampler::new(&InfoSet::new(&real, seat))))
        })
    }

    /// The AVX-512 draw of a batch of eight or sixteen (rust/search/worlds/avx512.rs) is the scalar
    /// draw's worlds and leaves the generator where as many scalar draws leave it: states under
    /// every variant and `team_runs` (voids, announced and shown runs, tricks under way). A
    /// batch the vector path turns down (a rejected choice) leaves the generator untouched.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_vector_draw_is_the_scalar_draw() {
        if crate::cpu::kernel_for(
            "the_vector_draw_is_the_scalar_draw",
            crate::cpu::Kernel::Avx512,
        )
        .is_none()
        {
            return;
        }
        let mut checked = 0;
        for (seed, sampler) in samplers_of_random_states() {
            if sampler.info().trump().is_none() {
                continue;
            }
            for draw in 0..20 {
                let mut vector_rng = SplitMix64::new(draw);
                let mut scalar_rng = vector_rng;
                let mut batch = [([CardSet::EMPTY; 3], SuitRuns::default()); 2 * avx512::LANES];
                let size = avx512::LANES * (1 + (draw as usize & 1));
                let batch = &mut batch[..size];
                // SAFETY: the CPU has the kernel's extensions.
                let drawn = unsafe {
                    match size / avx512::LANES {
                        1 => avx512::draw_lanes::<1>(&sampler, &mut vector_rng, batch),
                        _ => avx512::draw_lanes::<2>(&sampler, &mut vector_rng, batch),
                    }
                };
                if !drawn {
                    assert_eq!(vector_rng, scalar_rng);
                    continue;
                }
                for world in batch.iter() {
                    assert_eq!(
                        *world,
                        sampler.draw_with_runs(&mut scalar_rng),
                        "seed {seed}"
                    );
                }
                assert_eq!(vector_rng, scalar_rng, "seed {seed}");
                checked += 1;
            }
        }
        assert!(checked > 2000, "{checked}");
    }

    /// The AVX-512 128-bit products' halves (the draw's Lemire test on the number below the
    /// total) are the scalar `u128` product's, for random and extreme operands.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_vector_wide_multiply_is_u128() {
        if crate::cpu::kernel_for(
            "the_vector_wide_multiply_is_u128",
            crate::cpu::Kernel::Avx512,
        )
        .is_none()
        {
            return;
        }
        let mut rng = SplitMix64::new(46);
        let extremes = [0, 1, u32::MAX as u64, 1 << 32, u64::MAX - 1, u64::MAX];
        for round in 0..5_000 {
            let pick = |rng: &mut SplitMix64| match rng.below(3) {
                0 => extremes[rng.below(extremes.len() as u32) as usize],
                _ => rng.next_u64() >> rng.below(64),
            };
            let a: [u64; avx512::LANES] = std::array::from_fn(|_| pick(&mut rng));
            let b: [u64; avx512::LANES] = std::array::from_fn(|_| pick(&mut rng));
            // SAFETY: the CPU has the kernel's extensions.
            let (high, low) = unsafe { avx512::multiply_wide_lanes(a, b) };
            for k in 0..avx512::LANES {
                let product = a[k] as u128 * b[k] as u128;
                assert_eq!(
                    (high[k], low[k]),
                    ((product >> 64) as u64, product as u64),
                    "{round}"
                );
            }
        }
    }

    /// Each move of an alias table is taken with probability exactly its weight over the
    /// total: over the columns (each `1 / columns` likely), the share of the numbers below
    /// `total` that land on it, for random weights (one move, equal weights, one heavy, many
    /// light, totals up to 2^40).
    #[test]
    fn alias_columns_give_each_move_its_weight() {
        let mut rng = SplitMix64::new(45);
        let (mut small, mut large) = (Vec::new(), Vec::new());
        for round in 0..2_000u64 {
            let count = 1 + rng.below(60) as usize;
            let scale = 1u64 << rng.below(30);
            let weights: Vec<u64> = (0..count)
                .map(|k| match round % 3 {
                    0 => scale,
                    1 if k == 0 => scale << 10,
                    _ => 1 + rng.next_u64() % scale,
                })
                .collect();
            let total: u64 = weights.iter().sum();
            let mut moves: Vec<Move> = weights
                .iter()
                .map(|&weight| Move {
                    threshold: weight,
                    alias: 0,
                    first_way: 0,
                    ways: Below32::default(),
                    next: StateDraw::default(),
                })
                .collect();
            build_alias(&mut moves, total, &mut small, &mut large);
            let mut landed = vec![0u128; count];
            for (column, step) in moves.iter().enumerate() {
                assert!(step.threshold <= total && (step.alias as usize) < count);
                landed[column] += step.threshold as u128;
                landed[step.alias as usize] += (total - step.threshold) as u128;
            }
            for (k, &weight) in weights.iter().enumerate() {
                assert_eq!(landed[k], weight as u128 * count as u128, "round {round}");
            }
        }
    }

    /// Adding suits' packed summaries is each seat's best strength (R4.2), points summed
    /// (R4.1) and bella (R4.5) as field by field: strengths as the run tables make them (none,
    /// or 0x40 and a top card of at least the third rank), at most 100 points a seat.
    #[test]
    fn suit_runs_add_field_by_field() {
        let mut rng = SplitMix64::new(44);
        let strength = |rng: &mut SplitMix64| match rng.below(3) {
            0 => 0,
            _ => 0x44 + rng.below(0x3C) as u8,
        };
        for _ in 0..20_000 {
            let (mut best, mut points, mut bella) = ([0u8; 3], [0u32; 3], 0u8);
            let mut sum = SuitRuns::default();
            let trump = rng.below(4);
            for suit in 0..4 {
                let runs = SuitRuns::new(
                    [0; 3].map(|_| strength(&mut rng)),
                    // Two suits with runs at most: 100 points a seat at most.
                    [0; 3].map(|_| [0, 20, 50][rng.below(3) as usize] * (suit < 2) as u32),
                    if suit == trump {
                        1 << rng.below(4) & 7
                    } else {
                        0
                    },
                );
                for j in 0..3 {
                    best[j] = best[j].max(runs.best(j));
                    points[j] += runs.points(j);
                }
                bella |= runs.bella();
                sum.add(runs);
            }
            assert_eq!(sum, SuitRuns::new(best, points, bella));
        }
    }

    /// A drawn world's credit for runs and bella, without branches, is what R4.3 and R4.5 give
    /// the four seats' summaries ([`AutoDeclarations::of_summaries`]): every seat observing,
    /// with and without `team_runs`, runs and bella scored or not, ties, no runs, bella with any
    /// seat or none.
    #[test]
    fn credit_is_the_declarations_winner() {
        let mut rng = SplitMix64::new(43);
        for _ in 0..20_000 {
            let seat = rng.below(4) as u8;
            let others = [next_seat(seat), partner(seat), right_of(seat)];
            // No run, or one of a few strengths (ties are common).
            let strength = |rng: &mut SplitMix64| match rng.below(3) {
                0 => 0,
                _ => 0x46 + rng.below(4) as u8,
            };
            let best = [strength(&mut rng), strength(&mut rng), strength(&mut rng)];
            let points = [0; 3].map(|_| rng.below(6) * 20);
            let bella_at = rng.below(5) as usize;
            let bella = if bella_at < 3 { 1 << bella_at } else { 0 };
            let runs = SuitRuns::new(best, points, bella);
            let credit = Credit {
                own_best: strength(&mut rng),
                own_points: rng.below(6) * 20,
                own_bella: bella_at == 3,
                team_runs: rng.below(2) == 1,
                runs_open: rng.below(4) != 0,
                bella_open: rng.below(4) != 0,
                team: team_of(seat),
            };
            let mut best = [credit.own_best; 4];
            let mut totals = [credit.own_points; 4];
            let mut bella = credit.own_bella.then_some(seat);
            for (j, &who) in others.iter().enumerate() {
                best[who as usize] = runs.best(j);
                totals[who as usize] = runs.points(j);
                if runs.bella() & (1 << j) != 0 {
                    bella = Some(who);
                }
            }
            let rules = Rules {
                team_runs: credit.team_runs,
                ..Rules::default()
            };
            let declared = AutoDeclarations::of_summaries(best, totals, bella, &rules);
            let mut expected = [0u32; 2];
            if let (Some((winner, points)), true) = (declared.runs, credit.runs_open) {
                expected[team_of(winner)] += points;
            }
            if let (Some(holder), true) = (declared.bella, credit.bella_open) {
                expected[team_of(holder)] += BELLA_POINTS;
            }
            assert_eq!(credit.pending(&runs), expected, "{credit:?} {runs:?}");
        }
    }

    /// A world drawn straight into the search kernel is the kernel of the world `sample`
    /// draws from the same generator: the same cards held and the same runs and bella still to
    /// credit (R4.3, R4.5), at every point of the play, under every variant and `team_runs`;
    /// a batch drawn together is the worlds drawn one after another.
    #[test]
    fn kernel_worlds_are_the_sampled_worlds() {
        let kernels = crate::cpu::kernels_compared("kernel_worlds_are_the_sampled_worlds");
        let mut checked = 0;
        for ((seed, sampler), kernel) in samplers_of_random_states().zip(kernels.iter().cycle()) {
            let kernel = *kernel;
            let Some(template) = Rollout::of(&sampler.sample(&mut SplitMix64::new(0))) else {
                continue;
            };
            for draw in 0..4 {
                let mut world = [template];
                sampler.sample_rollouts(&template, &mut SplitMix64::new(draw), &mut world, kernel);
                let sampled = sampler.sample(&mut SplitMix64::new(draw));
                assert_eq!(Some(world[0]), Rollout::of(&sampled), "seed {seed}");
            }
            // A batch is the same worlds as one draw after another from the same generator.
            let size = 1 + seed as usize % MAX_TOGETHER;
            let mut batch = [template; MAX_TOGETHER];
            sampler.sample_rollouts(
                &template,
                &mut SplitMix64::new(seed),
                &mut batch[..size],
                kernel,
            );
            let mut rng = SplitMix64::new(seed);
            for world in &batch[..size] {
                assert_eq!(
                    Some(*world),
                    Rollout::of(&sampler.sample(&mut rng)),
                    "seed {seed}"
                );
            }
            checked += 1;
        }
        assert!(checked > 200);
    }

    /// Every consistent world by brute force: each way to give the unseen cards to the other
    /// seats (or, before trump, too many to list), kept when its view is the seat's view.
    fn brute_count(real: &Hand, seat: u8) -> u64 {
        let info = InfoSet::new(real, seat);
        let others = [next_seat(seat), partner(seat), right_of(seat)];
        let unseen: Vec<Card> = CardSet::DECK.minus(info.seen()).iter().collect();
        let mut count = 0;
        for code in 0..3u64.pow(unseen.len() as u32) {
            let mut hands = others.map(|who| info.played_by(who).union(info.known_held(who)));
            let mut c = code;
            for &card in &unseen {
                hands[(c % 3) as usize].insert(card);
                c /= 3;
            }
            if hands.iter().any(|h| h.len() != 9) {
                continue;
            }
            let mut deal = *real.deal();
            for (j, &who) in others.iter().enumerate() {
                for (slot, card) in deal[who as usize].iter_mut().zip(hands[j]) {
                    *slot = card;
                }
            }
            let mut world = Hand::from_deal(deal, real.dealer(), *real.rules(), [0, 0]);
            let legal = real
                .history()
                .iter()
                .all(|&(_, id)| world.apply(id).is_ok());
            count += (legal && InfoSet::new(&world, seat) == info) as u64;
        }
        count
    }

    #[test]
    fn counts_match_brute_force_in_endgames() {
        let mut checked = 0;
        for seed in 0..400u64 {
            let real = random_state(seed, 26 + (seed % 12) as usize, variant(seed));
            let seat = seat_of(seed);
            let info = InfoSet::new(&real, seat);
            if info.trump().is_none() || CardSet::DECK.minus(info.seen()).len() > 9 {
                continue;
            }
            let sampler = WorldSampler::new(&info);
            assert_eq!(
                sampler.count(),
                brute_count(&real, seat) as u128,
                "seed {seed}"
            );
            checked += 1;
        }
        assert!(checked > 100, "{checked}");
    }

    #[test]
    fn before_trump_every_split_counts() {
        let real = random_state(3, 0, Rules::default());
        let sampler = WorldSampler::new(&InfoSet::new(&real, 2));
        // 30! / (3! (6! 3!)^3)
        assert_eq!(sampler.count(), 548_349_667_035_730_560_000);
    }
}
