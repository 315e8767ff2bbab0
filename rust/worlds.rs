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
//! remaining hand sizes. One uniform number below the count is then decoded, suit by suit, into
//! a world (mixed radix): exactly uniform, no rejection.

use std::sync::{Mutex, PoisonError};

use crate::cards::{Card, CardSet, Suit};
use crate::deal::{Deal, FIRST_PACKETS, KITTY_SIZE};
use crate::infoset::InfoSet;
use crate::rng::SplitMix64;
use crate::rollout::Rollout;
use crate::runs::{find_runs, has_bella, runs_summary, suit_runs_summary};
use crate::scoring::BELLA_POINTS;
use crate::seats::team_of;
use crate::seats::{next_seat, partner, right_of};
use crate::state::Hand;
use crate::variants::Declarations;

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

/// One way of a suit in the draw's table: the suit's lane of the cards each other seat gets
/// (bit `r` = rank `r`, as [`CardSet::lane`]), and what they make with the cards of the suit it
/// is known to hold. 16 bytes: the table is half the size of one of whole card sets
/// (docs/SEARCH.md "Session 8: the sampler's build").
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(16))]
struct Way {
    lanes: [u16; 3],
    runs: SuitRuns,
}

/// What one suit gives each other seat toward auto mode's declarations: its best run's
/// strength in the suit ([`crate::runs::Run::strength`], R4.2; 0 for none), its runs' points
/// (R4.1) and, as a bit a seat, whether it holds trump's king and queen (R4.5). A world's are
/// its four suits' added ([`SuitRuns::add`]), so a draw finds its runs and bella without
/// looking at its cards again.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct SuitRuns {
    best: [u8; 3],
    points: [u8; 3],
    bella: u8,
}

impl SuitRuns {
    /// What the other seats' cards of `suit` make: `fixed` what they are known to hold,
    /// `given` this way's cards.
    fn of(suit: Suit, trump: Suit, fixed: &[CardSet; 3], given: &[CardSet; 3]) -> SuitRuns {
        let mut runs = SuitRuns::default();
        for j in 0..3 {
            let cards = fixed[j].union(given[j]);
            let (best, points) = suit_runs_summary(cards, suit, trump);
            runs.best[j] = best;
            // At most nine cards: two fifties at most (R4.1).
            runs.points[j] = points as u8;
            runs.bella |= (suit == trump && has_bella(cards, trump)) as u8 * (1 << j);
        }
        runs
    }

    /// Adds another suit's: the better run, the points summed, either's bella.
    #[inline(always)]
    fn add(&mut self, other: &SuitRuns) {
        for j in 0..3 {
            self.best[j] = self.best[j].max(other.best[j]);
            self.points[j] += other.points[j];
        }
        self.bella |= other.bella;
    }
}

/// One bucket a state of the dynamic program may take at a suit: the cumulative weight of
/// the state's moves up to this one, the completions after it, where the bucket's ways start
/// and the next state's moves.
#[derive(Clone, Copy, Debug)]
struct Move {
    end: u64,
    per_way: u64,
    /// The bucket's first way in [`WorldSampler::ways`].
    first_way: u32,
    /// The next state's moves (none after the last suit), kept here so that the draw's next
    /// read does not wait on a lookup of the state's.
    next_moves: StateMoves,
}

/// Where the draw looks for the move a number falls in.
const GUIDE: usize = 16;

/// A state's moves, from `moves[first]` on, with a guide: a number `x` below their total falls
/// in move `first + guide[g]` or a later one, where `g = (x * scale) >> 64` is `x`'s sixteenth
/// of the total rounded down, so the draw's scan starts at or just before its move instead of
/// at the first (its exit, a branch on the number, was mispredicted about once a suit).
#[derive(Clone, Copy, Debug, Default)]
struct StateMoves {
    first: u32,
    scale: u64,
    guide: [u8; GUIDE],
}

impl StateMoves {
    /// The guide of `moves[first..last]` (cumulative ends).
    fn of(moves: &[Move], first: usize, last: usize) -> StateMoves {
        let mut state = StateMoves {
            first: first as u32,
            ..StateMoves::default()
        };
        let Some(total) = last.checked_sub(1).map(|end| moves[end].end) else {
            return state;
        };
        // At most GUIDE * 2^64 / total (so `x`'s sixteenth is never overestimated), in 64 bits
        // when total > GUIDE; else every number starts at the first move.
        if total > GUIDE as u64 {
            state.scale = (u64::MAX / total) * GUIDE as u64;
        }
        let mut at = first;
        for (g, slot) in state.guide.iter_mut().enumerate() {
            // The smallest number whose sixteenth is g, and the move it falls in: every number
            // whose computed sixteenth is g (never more than its true one) falls there or later.
            let least = ((g as u128 * total as u128 + GUIDE as u128 - 1) >> GUIDE.ilog2()) as u64;
            while at < last && moves[at].end <= least {
                at += 1;
            }
            *slot = (at - first).min(u8::MAX as usize) as u8;
        }
        state
    }

    /// The index of the first move whose end exceeds `x`, and that end's predecessor (0 for
    /// the first move).
    #[inline(always)]
    fn find(&self, moves: &[Move], x: u64) -> (usize, u64) {
        let g = ((x as u128 * self.scale as u128) >> 64) as usize;
        let first = self.first as usize;
        let mut at = first + self.guide[g % GUIDE] as usize;
        let mut start = if at > first { moves[at - 1].end } else { 0 };
        while x >= moves[at].end {
            start = moves[at].end;
            at += 1;
        }
        (at, start)
    }
}

/// A sampler's tables after trump, and the scratch that builds them. A search builds a sampler
/// a decision, and these tables are up to a megabyte: allocated afresh each time, their pages
/// were faulted in again at every build (about a third of a build at trick one), so a dropped
/// sampler leaves them in [`SPARE_TABLES`] for the next one (docs/SEARCH.md "Session 8: the
/// sampler's build").
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
    guided: Vec<StateMoves>,
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
            + bytes(&self.guided)
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
    /// After trump: the state of the dynamic program at the first suit, the draw below the
    /// count, the root's moves and every reachable state's (`Move::next_moves`).
    root_state: usize,
    root_draw: Below,
    root_moves: StateMoves,
    count: u128,
    /// One consistent world, replayed once: later worlds are this one redealt.
    template: Option<Hand>,
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
            root_draw: Below::default(),
            root_moves: StateMoves::default(),
            count: 0,
            template: None,
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
        self.root_draw = Below::new(count);
        self.root_state = root;
        self.list_moves();
        count
    }

    /// For every state the draw can reach, suit by suit from the root, the buckets it may
    /// take next with their cumulative weights (the decoding of [`Self::draw_after_trump`]
    /// then scans only these, heaviest first).
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
                        // The move's weight until the ends are summed below.
                        end: bucket.len as u64 * per_way,
                        per_way,
                        first_way: bucket.first_way,
                        // The next state's index until its moves are listed.
                        next_moves: StateMoves {
                            first: next as u32,
                            ..StateMoves::default()
                        },
                    });
                }
                // The heaviest moves first, so that the decoding's scan stops early on
                // average (docs/SEARCH.md "Speed"; any fixed order decodes uniformly).
                let moves = &mut tables.moves[first..];
                moves.sort_by_key(|step| std::cmp::Reverse(step.end));
                let mut end = 0u64;
                for step in moves.iter_mut() {
                    end += step.end;
                    step.end = end;
                }
                tables.move_range[level * STATES + state] =
                    (first as u32, tables.moves.len() as u32);
            }
            std::mem::swap(&mut tables.reached, &mut tables.next_reached);
        }
        level_moves[LAST_LEVEL + 1] = tables.moves.len();
        // Each reachable state's moves with their guide, computed once a state.
        tables.guided.clear();
        let moves = &tables.moves;
        let guides = tables.move_range.iter();
        let guides =
            guides.map(|&(first, last)| StateMoves::of(moves, first as usize, last as usize));
        tables.guided.extend(guides);
        for level in 0..LAST_LEVEL {
            for step in &mut tables.moves[level_moves[level]..level_moves[level + 1]] {
                step.next_moves =
                    tables.guided[(level + 1) * STATES + step.next_moves.first as usize];
            }
        }
        for step in &mut tables.moves[level_moves[LAST_LEVEL]..] {
            step.next_moves = StateMoves::default();
        }
        self.root_moves = tables.guided[self.root_state];
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
        tables.ways.resize(next_way as usize, Way::default());
        for &(index, lanes) in &tables.enumerated {
            let bucket = &mut buckets[index as usize];
            let given = lanes.map(|lane| CardSet::from_lane(lane as u32, suit));
            tables.ways[(bucket.first_way + bucket.len) as usize] = Way {
                lanes,
                runs: SuitRuns::of(suit, trump, &self.fixed, &given),
            };
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

    /// Decodes one uniform number below the count, suit by suit (mixed radix).
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
        let mut hands = [[CardSet::EMPTY; 3]];
        let mut runs = [SuitRuns::default()];
        self.decode_after_trump(&[self.root_draw.below(rng)], &mut hands, &mut runs);
        hands[0]
    }

    /// The worlds numbered `numbers` (each below the count), decoded suit by suit into
    /// `hands` (mixed radix), with what their suits make toward the declarations in `runs`.
    /// Several numbers are decoded level by level together: each world's chain of dependent
    /// table reads (often a cache miss) overlaps the others' (docs/SEARCH.md "Speed").
    #[inline(always)]
    fn decode_after_trump(
        &self,
        numbers: &[u64],
        hands: &mut [[CardSet; 3]],
        runs: &mut [SuitRuns],
    ) {
        let mut xs = [0u64; MAX_TOGETHER];
        let mut ranges = [self.root_moves; MAX_TOGETHER];
        let xs = &mut xs[..numbers.len()];
        xs.copy_from_slice(numbers);
        for hand in hands.iter_mut() {
            *hand = self.fixed;
        }
        runs.fill(SuitRuns::default());
        for suit in Suit::ALL {
            let worlds = xs
                .iter_mut()
                .zip(&mut ranges)
                .zip(hands.iter_mut().zip(runs.iter_mut()));
            for ((x, range), (hand, runs)) in worlds {
                let (at, start) = range.find(&self.tables.moves, *x);
                let step = &self.tables.moves[at];
                *x -= start;
                let way = &self.tables.ways[step.first_way as usize + (*x / step.per_way) as usize];
                *x %= step.per_way;
                for (cards, lane) in hand.iter_mut().zip(way.lanes) {
                    *cards = cards.union(CardSet::from_lane(lane as u32, suit));
                }
                runs.add(&way.runs);
                *range = step.next_moves;
            }
        }
    }

    /// Uniformly drawn consistent worlds as the search kernel's states, one for each of
    /// `worlds` (at most [`MAX_TOGETHER`]; docs/SEARCH.md "Speed"): `template` is
    /// [`Rollout::of`] a world of this view ([`WorldSampler::sample`]), and `worlds[i]` is
    /// `Rollout::of(&self.sample(rng))` for the `i`-th of as many calls in turn on the same `rng`,
    /// without building the [`Hand`]s; the worlds' numbers are drawn first, then decoded
    /// together. Auto mode after trump only (table mode's worlds go through the `Hand`).
    #[inline]
    pub(crate) fn sample_rollouts(
        &self,
        template: &Rollout,
        rng: &mut SplitMix64,
        worlds: &mut [Rollout],
    ) {
        let info = &self.info;
        if info.rules().declarations != Declarations::Auto {
            for world in worlds.iter_mut() {
                *world = Rollout::of(&self.sample(rng)).unwrap_or(*template);
            }
            return;
        }
        let mut numbers = [0u64; MAX_TOGETHER];
        let numbers = &mut numbers[..worlds.len()];
        for number in numbers.iter_mut() {
            *number = self.root_draw.below(rng);
        }
        let mut drawn = [[CardSet::EMPTY; 3]; MAX_TOGETHER];
        let drawn = &mut drawn[..worlds.len()];
        let mut drawn_runs = [SuitRuns::default(); MAX_TOGETHER];
        let drawn_runs = &mut drawn_runs[..worlds.len()];
        self.decode_after_trump(numbers, drawn, drawn_runs);
        let trump = info.trump().unwrap_or(Suit::Clubs);
        let seat = info.seat();
        let own = info.hand().union(info.played_by(seat));
        let (own_best, own_points) = runs_summary(own, trump);
        let credit = Credit {
            own_best,
            own_points,
            own_bella: has_bella(own, trump),
            team_runs: info.rules().team_runs,
            runs_open: info.runs_scored().is_none(),
            bella_open: info.bella().is_none(),
            team: team_of(seat),
        };
        let worlds = worlds.iter_mut().zip(drawn.iter().zip(drawn_runs.iter()));
        for (world, (hands, runs)) in worlds {
            let mut held = [info.hand(); 4];
            for (j, &who) in self.others.iter().enumerate() {
                held[who as usize] = hands[j].minus(info.played_by(who));
            }
            let pending = credit.pending(runs);
            *world = template.redealt(held, pending);
        }
    }
}

/// What a drawn world still credits for runs (R4.3) and bella (R4.5) in auto mode, from its
/// suits' [`SuitRuns`] and the observing seat's own: the same as
/// [`crate::state::AutoDeclarations::of_summaries`] on the world's four seats, without a branch on the
/// world (whether anyone has a run, ties, who holds bella cannot be predicted) and in
/// registers (the seats' best runs written byte by byte and read back as one word stalled the
/// draw: docs/SEARCH.md "Session 9"). The seats are taken in the order of
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
    /// Each team's points still to credit in the world whose other seats' suits make `runs`.
    #[inline(always)]
    fn pending(&self, runs: &SuitRuns) -> [u32; 2] {
        let best = [runs.best[0], runs.best[1], runs.best[2], self.own_best];
        let totals = [
            runs.points[0] as u32,
            runs.points[1] as u32,
            runs.points[2] as u32,
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
        let mut pending = [0u32; 2];
        pending[self.team ^ (!winner & 1)] += (totals[winner] + partner_runs) * scores as u32;
        let bella = runs.bella as u32 | (self.own_bella as u32) << 3;
        // Bella's place (at most one seat holds trump's king and queen); 4 when no one does.
        let holder = (bella | 1 << 4).trailing_zeros() as usize;
        let credited = self.bella_open & (bella != 0);
        pending[self.team ^ (!holder & 1)] += BELLA_POINTS * credited as u32;
        pending
    }
}

/// The most worlds [`WorldSampler::sample_rollouts`] draws at once (the search's batch).
pub(crate) const MAX_TOGETHER: usize = 8;

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

/// Uniform numbers in `0..n` (n > 0): Lemire's multiply-shift with its rejection step, so
/// exactly uniform; the rejection threshold (a division) is found once.
#[derive(Clone, Copy, Debug, Default)]
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
    use crate::seats::seat_of;
    use crate::state::AutoDeclarations;
    use crate::state::NUM_ACTIONS;
    use crate::variants::Rules;

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
            let strength = |rng: &mut SplitMix64| rng.below(4) as u8 * rng.below(3) as u8;
            let runs = SuitRuns {
                best: [strength(&mut rng), strength(&mut rng), strength(&mut rng)],
                points: [0; 3].map(|_| rng.below(6) as u8 * 20),
                bella: 0,
            };
            let bella_at = rng.below(5) as usize;
            let runs = SuitRuns {
                bella: if bella_at < 3 { 1 << bella_at } else { 0 },
                ..runs
            };
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
                best[who as usize] = runs.best[j];
                totals[who as usize] = runs.points[j] as u32;
                if runs.bella & (1 << j) != 0 {
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
        let mut checked = 0;
        for seed in 0..300u64 {
            let rules = Rules {
                team_runs: seed & 8 != 0,
                ..variant(seed)
            };
            let real = random_state(seed, 1 + (seed % 40) as usize, rules);
            let Some(seat) = real.to_move() else {
                continue;
            };
            let sampler = WorldSampler::new(&InfoSet::new(&real, seat));
            let Some(template) = Rollout::of(&sampler.sample(&mut SplitMix64::new(0))) else {
                continue;
            };
            for draw in 0..4 {
                let mut kernel = [template];
                sampler.sample_rollouts(&template, &mut SplitMix64::new(draw), &mut kernel);
                let world = sampler.sample(&mut SplitMix64::new(draw));
                assert_eq!(Some(kernel[0]), Rollout::of(&world), "seed {seed}");
            }
            // A batch is the same worlds as one draw after another from the same generator.
            let size = 1 + seed as usize % MAX_TOGETHER;
            let mut batch = [template; MAX_TOGETHER];
            sampler.sample_rollouts(&template, &mut SplitMix64::new(seed), &mut batch[..size]);
            let mut rng = SplitMix64::new(seed);
            for kernel in &batch[..size] {
                assert_eq!(
                    Some(*kernel),
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
