//! Single-observer information-set Monte Carlo tree search (Cowling, Powley and Whitehouse,
//! 2012; docs/SEARCH.md). One tree over the acting seat's information set: each iteration draws
//! a world uniformly from what the seat knows ([`WorldSampler`]), walks the tree with the
//! actions legal in that world (UCB1 with availability counts), adds one node, plays the rest
//! of the hand out at random and backs up each team's share of the hand's score (R6).
//! Iterations run in batches ([`batch_size`]): the walks first, each counting its visits on the way
//! down (a virtual loss), then their playouts interleaved, then the back-ups (docs/SEARCH.md
//! "ISMCTS"). Root parallelism: each thread grows its own tree from its own seed and the root
//! visit counts are summed, so a decision depends only on the seed and the thread count.

use std::mem::offset_of;
use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use crate::bits::select_with;
use crate::bots::heuristic::HeuristicBot;
use crate::bots::random::random_action;
use crate::bots::{Params, Policy};
use crate::cards::{Card, CardSet, Suit};
use crate::cpu::{Job, KernelSet};
use crate::infoset::InfoSet;
use crate::rng::{derive, SplitMix64};
use crate::search::rollout::{Rollout, MOST_TOGETHER};
use crate::search::worlds::{WorldSampler, MAX_TOGETHER};
use crate::seats::team_of;
use crate::state::{Hand, Phase};
use crate::tricks::{card_points, strength, LANE};

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;

const NONE: u32 = u32::MAX;
/// Iterations between two looks at the clock under a time budget.
const CLOCK_EVERY: u32 = 64;

/// The knobs of an [`IsmctsBot`] (text form `ismcts:iterations=2000,c=0.7,threads=2,seed=3`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IsmctsParams {
    /// Iterations a decision, over all threads (ignored when `millis` > 0).
    pub iterations: u32,
    /// A time budget a decision in milliseconds instead (0: use `iterations`).
    pub millis: u32,
    /// The UCB1 exploration constant (rewards are in 0..1).
    pub c: f64,
    /// Root-parallel threads.
    pub threads: u32,
    /// Mixed into every decision's seed.
    pub seed: u64,
    /// How playouts choose cards.
    pub playout: Playout,
    /// Whether the auction is left to the rule heuristic's call (R3) instead of searched.
    pub heuristic_bid: bool,
}

/// The playout policy of an [`IsmctsBot`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Playout {
    /// Every legal action equally likely (`playout=0`).
    Random,
    /// In the sampled world: lead at random, feed a winning partner, else win as cheaply as
    /// possible, else throw the cheapest card (`playout=1`).
    Greedy,
}

impl Default for IsmctsParams {
    fn default() -> IsmctsParams {
        IsmctsParams {
            iterations: DEFAULT_ITERATIONS,
            millis: 0,
            c: 0.7,
            threads: 1,
            seed: 0,
            playout: Playout::Greedy,
            heuristic_bid: true,
        }
    }
}

/// The default budget: a decision well under 100 ms on one core (docs/SEARCH.md).
pub const DEFAULT_ITERATIONS: u32 = 4000;
const MAX_ITERATIONS: f64 = 100_000_000.0;
const MAX_MILLIS: f64 = 3_600_000.0;
const MAX_THREADS: f64 = 256.0;

impl IsmctsParams {
    /// Takes the ISMCTS keys of a bot spec.
    pub fn take(params: &mut Params) -> Result<IsmctsParams, crate::error::Error> {
        let defaults = IsmctsParams::default();
        Ok(IsmctsParams {
            iterations: params.take(
                "iterations",
                defaults.iterations as f64,
                1.0,
                MAX_ITERATIONS,
            )? as u32,
            millis: params.take("millis", 0.0, 0.0, MAX_MILLIS)? as u32,
            c: params.take("c", defaults.c, 0.0, 100.0)?,
            threads: params.take("threads", 1.0, 1.0, MAX_THREADS)? as u32,
            seed: params.take("seed", 0.0, 0.0, u32::MAX as f64)? as u64,
            playout: if params.take("playout", 1.0, 0.0, 1.0)? == 0.0 {
                Playout::Random
            } else {
                Playout::Greedy
            },
            heuristic_bid: params.take("bid", 1.0, 0.0, 1.0)? != 0.0,
        })
    }
}

/// The rest of a node, read only for the child a walk takes and in the back-up (off the walk's
/// chain from level to level, which reads only blocks).
#[derive(Clone, Copy, Debug)]
struct Node {
    reward: f64,
    visits: u32,
}

/// An unused slot of a block.
const EMPTY: u8 = u8::MAX;
/// Children are kept in blocks of this many adjacent slots, so the walk over a node's children
/// reads a few cache lines instead of chasing one pointer a child, and scores a block in one
/// pass of vector registers where the CPU has AVX-512 (rust/search/ismcts/avx512.rs).
const BLOCK: usize = 8;

/// What the walk over [`BLOCK`] siblings reads of them, field by field (a structure of arrays,
/// so that each field of the whole block is one vector load): UCB1's terms kept ready (`mean`
/// = reward / visits, `scale` = 1 / sqrt(visits), updated when the visits or the reward
/// change, so the walk does no division and no square root), the availability counts, the
/// actions and the teams of the seats that took them (whose reward each node sums). Slots are
/// filled in order; an unused one has the action [`EMPTY`]. 189 bytes in three cache lines,
/// the last of which holds what the walk reads of a block before its scores (its actions,
/// the next block), so that a block with nothing legal in the world walked costs that one
/// line, and what it reads of the child it takes (the child's blocks: how many, and the
/// first), so that the next level starts from a line just read rather than the child's node.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
struct Block {
    mean: [f32; BLOCK],
    scale: [f32; BLOCK],
    /// `sqrt(ln (available + 1))`: the term a child scores with when the next walk finds it
    /// available, kept ready so that the walk's chain from level to level does not wait on
    /// a lookup (the update for the next walk is off that chain).
    explore: [f32; BLOCK],
    available: [u32; BLOCK],
    action: [u8; BLOCK],
    /// How many blocks each child's children take (at most 8: a node has at most 64 actions).
    /// The walk's loop over a node's blocks runs this many times, a count in the line of its
    /// parent's block that the walk has just read, so the loop's end is known (and a
    /// mispredicted end corrected) long before the blocks' lines arrive; ended by a block's
    /// fill, it waited for the last block's line (docs/SEARCH.md "The walk").
    child_blocks: [u8; BLOCK],
    /// The block's actions as a mask (bit `action` of each used slot).
    actions: u64,
    /// Each child's first block of children, or `NONE`: in the line the walk has just read,
    /// so the next level's first block is known without waiting for the child's node.
    first_blocks: [u32; BLOCK],
    /// The block after this one among the same parent's children, or `NONE`.
    next: u32,
    /// Bit `k`: the team of the seat that took slot `k`'s action (whose reward it sums).
    teams: u8,
}

// The walk's first read of a block (its actions, and the next block) is one cache line, which
// also holds what the walk reads of a child it takes (its blocks).
const _: () = assert!(
    offset_of!(Block, actions) / 64 == offset_of!(Block, next) / 64
        && offset_of!(Block, actions) / 64 == offset_of!(Block, child_blocks) / 64
        && offset_of!(Block, actions) / 64 == offset_of!(Block, first_blocks) / 64
        && offset_of!(Block, actions) / 64 == (offset_of!(Block, first_blocks) + 31) / 64
        && offset_of!(Block, actions) / 64 == offset_of!(Block, action) / 64
);

impl Block {
    const EMPTY: Block = Block {
        mean: [0.0; BLOCK],
        scale: [0.0; BLOCK],
        explore: [0.0; BLOCK],
        available: [0; BLOCK],
        action: [EMPTY; BLOCK],
        child_blocks: [0; BLOCK],
        actions: 0,
        first_blocks: [NONE; BLOCK],
        next: NONE,
        teams: 0,
    };
}

impl Node {
    const EMPTY: Node = Node {
        reward: 0.0,
        visits: 0,
    };
}

/// One search tree: nodes in blocks of [`BLOCK`] siblings (block `b` is slots
/// `b * BLOCK ..`), a node's blocks chained by [`Block::next`]; the root is slot 0 of block
/// 0, alone.
/// Aligned to two cache lines so that two threads growing neighbouring trees never write to
/// one line (false sharing of the vectors' lengths).
#[derive(Clone, Debug)]
#[repr(align(128))]
struct Tree {
    blocks: Vec<Block>,
    nodes: Vec<Node>,
    /// The most slots the tree grows to ([`MAX_TREE_SLOTS`]; smaller in tests).
    max_slots: usize,
}

/// The most slots a tree holds, about 170 MiB (a slot is 40 bytes: its node and its share of
/// a block): a tree grows a node an iteration, so a search of some minutes (a time budget may
/// be an hour, an iteration budget 100 million) would otherwise take all the memory there is.
/// A full tree adds no node: its walks go on through the children it has, and one that
/// reaches a position none of whose legal actions has a child plays out from there.
const MAX_TREE_SLOTS: usize = 1 << 22;
/// The most iterations one tree takes: its visit and availability counts are `u32`. A time
/// budget stops there too (at about 3 million iterations a second, after some 20 minutes).
const MAX_TREE_ITERATIONS: u32 = u32::MAX - (1 << 16);

impl Default for Tree {
    fn default() -> Tree {
        Tree {
            blocks: Vec::new(),
            nodes: Vec::new(),
            max_slots: MAX_TREE_SLOTS,
        }
    }
}

impl Tree {
    /// Whether the tree has no room for another block of children.
    #[inline(always)]
    fn is_full(&self) -> bool {
        self.nodes.len() + BLOCK > self.max_slots
    }

    /// Empties the tree for a search of `iterations` (0: a time budget, whose size is not
    /// known), with room for every block it can add: an iteration adds at most one. Reserved
    /// once, the vectors are not copied at each doubling while the walks read them, and a
    /// page is faulted in once, when a block first lands there (the room never used is address
    /// space only); a large search gains about a tenth (docs/SEARCH.md "Memory"). Where the
    /// room cannot be had, the vectors grow as they go.
    fn reset(&mut self, iterations: u32) {
        self.blocks.clear();
        self.nodes.clear();
        let blocks = (iterations as usize)
            .saturating_add(1)
            .min(self.max_slots / BLOCK);
        // A failed reservation changes nothing but the speed: the pushes grow the vectors.
        let _ = self.blocks.try_reserve_exact(blocks);
        let _ = self.nodes.try_reserve_exact(blocks * BLOCK);
        self.new_block();
    }

    fn new_block(&mut self) -> u32 {
        let block = self.blocks.len() as u32;
        self.blocks.push(Block::EMPTY);
        self.nodes.extend_from_slice(&[Node::EMPTY; BLOCK]);
        block
    }

    /// The block of `slot` and its place there.
    #[inline(always)]
    fn block_of(slot: u32) -> (usize, usize) {
        (slot as usize / BLOCK, slot as usize % BLOCK)
    }

    /// The action taken to reach `slot`.
    #[inline(always)]
    fn action(&self, slot: u32) -> u8 {
        let (block, k) = Tree::block_of(slot);
        self.blocks[block].action[k]
    }

    /// Adds a child taking `action` (by `mover`) to `parent`, in the first empty slot of
    /// `last` (its children's last block, `NONE` if it has none; slots fill in order, so only
    /// the last block may have room) or else in a new block after it, counting the walk's
    /// visit; returns its slot.
    fn add_child(&mut self, parent: u32, last: u32, action: u8, mover: u8) -> u32 {
        let filled = if last == NONE {
            BLOCK as u32
        } else {
            self.blocks[last as usize].actions.count_ones()
        };
        let slot = if filled < BLOCK as u32 {
            last * BLOCK as u32 + filled
        } else {
            let fresh = self.new_block();
            let (parent_block, k) = Tree::block_of(parent);
            self.blocks[parent_block].child_blocks[k] += 1;
            if last == NONE {
                self.blocks[parent_block].first_blocks[k] = fresh;
            } else {
                self.blocks[last as usize].next = fresh;
            }
            fresh * BLOCK as u32
        };
        let (block, k) = Tree::block_of(slot);
        let block = &mut self.blocks[block];
        block.mean[k] = 0.0;
        block.scale[k] = 1.0;
        block.available[k] = 1;
        block.explore[k] = explore_term(2, sqrt_ln_table());
        block.action[k] = action;
        block.teams |= (team_of(mover) as u8) << k;
        block.actions |= 1 << action;
        self.nodes[slot as usize] = Node {
            reward: 0.0,
            visits: 1,
        };
        slot
    }

    /// Counts a walk's visit to `slot` before its reward is known (the virtual loss of a
    /// batch: docs/SEARCH.md "ISMCTS").
    #[inline(always)]
    fn visit(&mut self, slot: u32) {
        let node = &mut self.nodes[slot as usize];
        node.visits += 1;
        let (reward, visits) = (node.reward, node.visits);
        let (block, k) = Tree::block_of(slot);
        let block = &mut self.blocks[block];
        block.mean[k] = (reward / visits as f64) as f32;
        block.scale[k] = (visits as f32).sqrt().recip();
    }

    /// Adds a visiting walk's reward to `slot`: `shares` is each team's.
    #[inline(always)]
    fn reward(&mut self, slot: u32, shares: [f64; 2]) {
        let (block, k) = Tree::block_of(slot);
        let block = &mut self.blocks[block];
        let share = shares[(block.teams >> k & 1) as usize];
        let node = &mut self.nodes[slot as usize];
        node.reward += share;
        block.mean[k] = (node.reward / node.visits as f64) as f32;
    }

    /// Calls `each(slot)` for every child of `parent`.
    #[inline]
    fn for_children(&self, parent: u32, mut each: impl FnMut(u32)) {
        let (parent_block, k) = Tree::block_of(parent);
        let mut block = self.blocks[parent_block].first_blocks[k];
        while block != NONE {
            for (k, &action) in self.blocks[block as usize].action.iter().enumerate() {
                if action == EMPTY {
                    return;
                }
                each(block * BLOCK as u32 + k as u32);
            }
            block = self.blocks[block as usize].next;
        }
    }

    /// The bytes the tree's vectors hold.
    fn capacity_bytes(&self) -> usize {
        self.blocks.capacity() * size_of::<Block>() + self.nodes.capacity() * size_of::<Node>()
    }
}

/// Trees that dropped bots left for the next ones: `tb.bot_action` builds a bot a call, and a
/// tree grown from empty vectors copies them at every doubling and touches fresh pages (5% of
/// a 20,000-iteration decision, docs/SEARCH.md "Memory"). At most [`SPARE_TREES`] trees of
/// at most [`SPARE_TREE_BYTES`] each are kept, so the memory held between decisions is bounded
/// (64 MiB); a larger tree is freed.
static SPARE: Mutex<Vec<Tree>> = Mutex::new(Vec::new());
/// How many trees [`SPARE`] keeps (two bots of two threads).
const SPARE_TREES: usize = 4;
/// The largest tree [`SPARE`] keeps (about 500,000 iterations' worth).
const SPARE_TREE_BYTES: usize = 16 << 20;

impl Tree {
    /// A spare tree if one is left, else a new one.
    fn spare_or_new() -> Tree {
        let spare = SPARE.lock().unwrap_or_else(PoisonError::into_inner).pop();
        // A spare tree's memory, not its limit (a test's may be smaller).
        spare.map_or_else(Tree::default, |tree| Tree {
            max_slots: MAX_TREE_SLOTS,
            ..tree
        })
    }
}

/// The ISMCTS bot.
#[derive(Clone, Debug, Default)]
pub struct IsmctsBot {
    params: IsmctsParams,
    /// One tree a thread, taken when the bot first searches and kept between its decisions to
    /// reuse their memory; left in [`SPARE`] when it is dropped.
    trees: Vec<Tree>,
}

impl Drop for IsmctsBot {
    fn drop(&mut self) {
        let mut spare = SPARE.lock().unwrap_or_else(PoisonError::into_inner);
        for tree in self.trees.drain(..) {
            if spare.len() < SPARE_TREES && tree.capacity_bytes() <= SPARE_TREE_BYTES {
                spare.push(tree);
            }
        }
    }
}

impl IsmctsBot {
    /// A bot with these parameters.
    pub fn new(params: IsmctsParams) -> IsmctsBot {
        IsmctsBot {
            params,
            trees: Vec::new(),
        }
    }

    /// Runs the search over `sampler`'s worlds and returns each legal action's root visits
    /// (summed over threads), by action id.
    pub fn search(&mut self, sampler: &WorldSampler, seed: u64) -> [u64; 64] {
        self.search_on(sampler, seed, KernelSet::chosen())
    }

    /// [`IsmctsBot::search`] with the walk's instruction set `kernel` (which the CPU has).
    fn search_on(&mut self, sampler: &WorldSampler, seed: u64, kernel: KernelSet) -> [u64; 64] {
        let threads = self.params.threads.max(1) as usize;
        self.trees.resize_with(threads, Tree::spare_or_new);
        // After trump every world is drawn straight into the search kernel; before it (the
        // auction searched) as a full state.
        let first = sampler.sample(&mut SplitMix64::new(seed));
        match Rollout::of(&first) {
            Some(template) => self.search_over(
                &|rng, worlds| sampler.sample_rollouts(&template, rng, worlds, kernel),
                template,
                seed,
                kernel,
            ),
            None => self.search_over(
                &|rng, worlds| {
                    worlds
                        .iter_mut()
                        .for_each(|world| *world = sampler.sample(rng))
                },
                first,
                seed,
                kernel,
            ),
        }
    }

    /// Root parallel search over the worlds `draw` makes (filling a batch's worlds in turn;
    /// `template` is any world of the view, to start the batch's array from).
    fn search_over<W: World + Send>(
        &mut self,
        draw: &(impl Fn(&mut SplitMix64, &mut [W]) + Sync),
        template: W,
        seed: u64,
        kernel: KernelSet,
    ) -> [u64; 64] {
        let threads = self.params.threads.max(1) as usize;
        let params = self.params;
        let per_thread = |k: usize| {
            let share = params.iterations / threads as u32;
            share + (k < (params.iterations % threads as u32) as usize) as u32
        };
        let mut totals = [0u64; 64];
        let results: Vec<[u64; 64]> = if threads == 1 {
            vec![grow(
                &mut self.trees[0],
                draw,
                template,
                &params,
                per_thread(0),
                derive(seed, 0),
                kernel,
            )]
        } else {
            std::thread::scope(|scope| {
                let handles: Vec<_> = self
                    .trees
                    .iter_mut()
                    .enumerate()
                    .map(|(k, tree)| {
                        let iterations = per_thread(k);
                        scope.spawn(move || {
                            grow(
                                tree,
                                draw,
                                template,
                                &params,
                                iterations,
                                derive(seed, k as u64),
                                kernel,
                            )
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or([0; 64]))
                    .collect()
            })
        };
        for visits in results {
            for (total, v) in totals.iter_mut().zip(visits) {
                *total += v;
            }
        }
        totals
    }
}

impl Policy for IsmctsBot {
    fn act(&mut self, info: &InfoSet, legal: u64, rng: &mut SplitMix64) -> u8 {
        if legal.count_ones() == 1 {
            return legal.trailing_zeros() as u8;
        }
        if self.params.heuristic_bid && info.phase() == Phase::Auction {
            return HeuristicBot.act(info, legal, rng);
        }
        let sampler = WorldSampler::new(info);
        if sampler.count() == 0 {
            // No world agrees with the view: table mode's declarations as made or misplays
            // (docs/SEARCH.md); fall back on the rules of thumb.
            return HeuristicBot.act(info, legal, rng);
        }
        let seed = derive(self.params.seed, rng.next_u64());
        let visits = self.search(&sampler, seed);
        // The most visited legal action; ties go to the lowest id.
        let mut best = legal.trailing_zeros() as u8;
        for id in 0..64u8 {
            if legal & (1 << id) != 0 && visits[id as usize] > visits[best as usize] {
                best = id;
            }
        }
        best
    }
}

/// A world the tree walks: the full state while the auction is searched (`bid=0`), the search
/// kernel ([`Rollout`]) once trump is named.
trait World: Copy {
    /// The legal action ids as a mask.
    fn legal(&self) -> u64;
    /// The seat to move.
    fn mover(&self) -> u8;
    /// Applies a legal action id.
    fn apply(&mut self, action: u8);
    /// Whether the hand is over.
    fn is_over(&self) -> bool;
    /// Plays the hand out with `playout` and returns what each team scores (R6).
    ///
    /// # Safety
    /// With `BMI2 = true` the CPU must support BMI2; with `AVX512 = true` the extensions of
    /// [`crate::cpu::Kernel::Avx512`].
    unsafe fn finish<const BMI2: bool, const AVX512: bool, const PDEP: bool>(
        self,
        playout: Playout,
        rng: &mut SplitMix64,
    ) -> [u32; 2];
    /// [`World::finish`] for each of a batch's worlds (at most [`BATCH`]), by position.
    ///
    /// # Safety
    /// As [`World::finish`].
    #[inline(always)]
    unsafe fn finish_all<const BMI2: bool, const AVX512: bool, const PDEP: bool>(
        worlds: &mut [Self],
        playout: Playout,
        rng: &mut SplitMix64,
    ) -> [[u32; 2]; BATCH] {
        let mut scores = [[0; 2]; BATCH];
        for (score, world) in scores.iter_mut().zip(worlds.iter()) {
            // SAFETY: the caller's guarantee.
            *score = unsafe { world.finish::<BMI2, AVX512, PDEP>(playout, rng) };
        }
        scores
    }
}

impl World for Hand {
    #[inline]
    fn legal(&self) -> u64 {
        self.legal_mask()
    }
    #[inline]
    fn mover(&self) -> u8 {
        self.to_move().unwrap_or(0)
    }
    #[inline]
    fn apply(&mut self, action: u8) {
        self.apply_unchecked(action);
    }
    #[inline]
    fn is_over(&self) -> bool {
        self.is_terminal()
    }
    #[inline]
    unsafe fn finish<const BMI2: bool, const AVX512: bool, const PDEP: bool>(
        mut self,
        playout: Playout,
        rng: &mut SplitMix64,
    ) -> [u32; 2] {
        while self.phase() == Phase::Auction {
            let action = random_action(self.legal_mask(), rng);
            self.apply_unchecked(action);
        }
        match Rollout::of(&self) {
            // SAFETY: the caller's guarantee.
            Some(rollout) => unsafe { rollout.finish::<BMI2, AVX512, PDEP>(playout, rng) },
            None => self.score(),
        }
    }
}

impl World for Rollout {
    #[inline(always)]
    fn legal(&self) -> u64 {
        Rollout::legal(self).bits()
    }
    #[inline(always)]
    fn mover(&self) -> u8 {
        self.to_move()
    }
    #[inline(always)]
    fn apply(&mut self, action: u8) {
        self.play(Card::from_index_unchecked(action));
    }
    #[inline(always)]
    fn is_over(&self) -> bool {
        Rollout::is_over(self)
    }
    #[inline(always)]
    unsafe fn finish<const BMI2: bool, const AVX512: bool, const PDEP: bool>(
        mut self,
        playout: Playout,
        rng: &mut SplitMix64,
    ) -> [u32; 2] {
        match playout {
            // SAFETY: the caller's guarantee.
            Playout::Random => unsafe { self.finish_random::<BMI2, PDEP>(rng, AVX512) },
            // SAFETY: the caller's guarantee.
            Playout::Greedy => unsafe { greedy_playout::<BMI2, PDEP>(&mut self, rng) },
        }
        self.score()
    }
    #[inline(always)]
    unsafe fn finish_all<const BMI2: bool, const AVX512: bool, const PDEP: bool>(
        worlds: &mut [Rollout],
        playout: Playout,
        rng: &mut SplitMix64,
    ) -> [[u32; 2]; BATCH] {
        match playout {
            // SAFETY: the caller's guarantee.
            Playout::Random => unsafe {
                Rollout::finish_random_together::<BMI2, PDEP>(worlds, rng, AVX512)
            },
            Playout::Greedy => worlds
                .iter_mut()
                // SAFETY: the caller's guarantee.
                .for_each(|world| unsafe { greedy_playout::<BMI2, PDEP>(world, rng) }),
        }
        let mut scores = [[0; 2]; BATCH];
        for (score, world) in scores.iter_mut().zip(worlds.iter()) {
            *score = world.score();
        }
        scores
    }
}

/// `sqrt(ln n)` for the availability counts UCB1 meets most, computed once.
const SQRT_LN_TABLE_SIZE: usize = 1 << 16;
const _: () = assert!(SQRT_LN_TABLE_SIZE.is_power_of_two());

/// `sqrt(ln n)` by count `n` below [`SQRT_LN_TABLE_SIZE`]: an array, not a slice, so that a
/// lookup of a count masked to the table's size needs no bounds check (the AVX2 walk's eight
/// a block, whose counts are clamped to the table already).
type SqrtLnTable = [f32; SQRT_LN_TABLE_SIZE];

fn sqrt_ln_table() -> &'static SqrtLnTable {
    static TABLE: OnceLock<Box<SqrtLnTable>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let values: Box<[f32]> = (0..SQRT_LN_TABLE_SIZE)
            .map(|n| sqrt_ln_of(n as u32))
            .collect();
        values
            .try_into()
            .expect("the table has SQRT_LN_TABLE_SIZE entries")
    })
}

/// [`sqrt_ln_of`] for the counts beyond the table: out of line and cold, so that the walk's
/// loop over children keeps its values in registers instead of saving them around a call to
/// `ln` at every child (docs/SEARCH.md "The walk").
#[cold]
#[inline(never)]
fn sqrt_ln_beyond_table(n: u32) -> f32 {
    sqrt_ln_of(n)
}

/// `sqrt(ln n)` for an availability count `n`: the table's entry, or else computed.
#[inline(always)]
fn explore_term(n: u32, sqrt_ln: &SqrtLnTable) -> f32 {
    match sqrt_ln.get(n as usize) {
        Some(&value) => value,
        None => sqrt_ln_beyond_table(n),
    }
}

fn sqrt_ln_of(n: u32) -> f32 {
    (n.max(1) as f64).ln().sqrt() as f32
}

/// What a child's score gains by whether its action is available (1) or not (0): an
/// addition, so the walk does not branch on the world's legal set (unpredictable).
const UNAVAILABLE: [f32; 2] = [f32::NEG_INFINITY, 0.0];

/// The most iterations walked one after the other before their playouts run together
/// (docs/SEARCH.md "ISMCTS": the playouts are independent chains of dependent steps, which the
/// CPU overlaps when they are interleaved, or plays in the lanes of vector registers; the walks
/// count their visits first, a virtual loss, so the walks of a batch spread out as sequential
/// ones would).
const BATCH: usize = MOST_TOGETHER;
// A batch's walks are numbered in bytes (`grow_with`'s trail).
const _: () = assert!(BATCH <= u8::MAX as usize + 1);
const _: () = assert!((CLOCK_EVERY as usize).is_multiple_of(BATCH));
/// Greedy playouts' batches: their branches mispredict whether interleaved or not, so larger
/// batches only spread the walks' virtual loss (docs/SEARCH.md "Tried and rejected").
const GREEDY_BATCH: usize = 4;
const _: () = assert!(BATCH.is_multiple_of(GREEDY_BATCH));

/// Iterations a batch under `playout`: random playouts fill the two registers of eight lanes
/// of the AVX-512 kernel (rust/search/rollout/avx512.rs), on every CPU, so that a decision does not
/// depend on the CPU.
fn batch_size(playout: Playout) -> usize {
    match playout {
        Playout::Random => BATCH,
        Playout::Greedy => GREEDY_BATCH,
    }
}

/// Grows one tree for `iterations` iterations (or the time budget) over the worlds `draw`
/// makes, with `kernel`'s copy of the walk and the playouts (every kernel makes the same
/// decisions), and returns its root children's visits by action id.
fn grow<W: World>(
    tree: &mut Tree,
    draw: &impl Fn(&mut SplitMix64, &mut [W]),
    template: W,
    params: &IsmctsParams,
    iterations: u32,
    seed: u64,
    kernel: KernelSet,
) -> [u64; 64] {
    kernel.run(Grow {
        tree,
        draw,
        template,
        params,
        iterations,
        seed,
    })
}

/// [`grow`]'s arguments, as a kernel's job.
struct Grow<'a, W, D> {
    tree: &'a mut Tree,
    draw: &'a D,
    template: W,
    params: &'a IsmctsParams,
    iterations: u32,
    seed: u64,
}

impl<W: World, D: Fn(&mut SplitMix64, &mut [W])> Job for Grow<'_, W, D> {
    type Output = [u64; 64];
    // The walk scores a node's children in AVX-512 registers and random playouts of a batch
    // run there (rust/search/ismcts/avx512.rs, rust/search/rollout/avx512.rs).
    const AVX512: bool = true;
    #[inline(always)]
    unsafe fn run<const BMI2: bool, const AVX512: bool, const PDEP: bool>(self) -> [u64; 64] {
        let Grow {
            tree,
            draw,
            template,
            params,
            iterations,
            seed,
        } = self;
        // SAFETY: the caller's guarantee.
        unsafe {
            grow_with::<BMI2, AVX512, PDEP, W>(tree, draw, template, params, iterations, seed)
        }
    }
}

/// [`grow`] with the instruction set chosen by the caller: batches of up to [`batch_size`]
/// iterations, each a fresh world, a walk (select and expand), a playout and a back-up; the
/// walks of a batch first, then its playouts together, then its back-ups.
///
/// # Safety
/// With `BMI2 = true` the CPU must support BMI2; with `AVX512 = true` the extensions of
/// [`crate::cpu::Kernel::Avx512`].
#[inline(always)]
unsafe fn grow_with<const BMI2: bool, const AVX512: bool, const PDEP: bool, W: World>(
    tree: &mut Tree,
    draw: &impl Fn(&mut SplitMix64, &mut [W]),
    template: W,
    params: &IsmctsParams,
    iterations: u32,
    seed: u64,
) -> [u64; 64] {
    let sqrt_ln = sqrt_ln_table();
    let c = params.c as f32;
    let mut rng = SplitMix64::new(seed);
    // The batch's paths one after the other, each node with the walk it belongs to, so that
    // the back-up is one loop over the batch's nodes rather than a loop a walk, whose end (the
    // path's length) was mispredicted about once a walk (docs/SEARCH.md "ISMCTS"); room for
    // a whole path after the last one.
    let mut trail = [0u32; (BATCH + 1) * MAX_DEPTH];
    let mut walk_of = [0u8; (BATCH + 1) * MAX_DEPTH];
    let mut worlds = [template; BATCH];
    let deadline =
        (params.millis > 0).then(|| Instant::now() + Duration::from_millis(params.millis as u64));
    tree.reset(if deadline.is_some() { 0 } else { iterations });
    let mut done = 0u32;
    let batch = batch_size(params.playout);
    loop {
        let size = match deadline {
            _ if done >= MAX_TREE_ITERATIONS => 0,
            Some(deadline) if done.is_multiple_of(CLOCK_EVERY) && Instant::now() >= deadline => 0,
            Some(_) => batch,
            None => (iterations - done).min(batch as u32) as usize,
        };
        if size == 0 {
            break;
        }
        // The sampler draws at most MAX_TOGETHER worlds at once; in turn, they are the same.
        for worlds in worlds[..size].chunks_mut(MAX_TOGETHER) {
            draw(&mut rng, worlds);
        }
        let mut trail_len = 0;
        for (k, world) in worlds[..size].iter_mut().enumerate() {
            let path = trail[trail_len..]
                .first_chunk_mut::<MAX_DEPTH>()
                .expect("the trail has room for a path after the batch's paths");
            // SAFETY: the caller's guarantee.
            let depth =
                unsafe { walk::<BMI2, AVX512, PDEP, W>(tree, world, c, sqrt_ln, &mut rng, path) };
            // A whole path's room, in fixed-size stores: its length is not known before.
            walk_of[trail_len..][..MAX_DEPTH].fill(k as u8);
            trail_len += depth;
        }
        // SAFETY: the caller's guarantee.
        let scores = unsafe {
            W::finish_all::<BMI2, AVX512, PDEP>(&mut worlds[..size], params.playout, &mut rng)
        };
        let mut shares = [[0.0; 2]; BATCH];
        for (share, &score) in shares.iter_mut().zip(&scores[..size]) {
            *share = score_shares(score);
        }
        for (&slot, &k) in trail[..trail_len].iter().zip(&walk_of[..trail_len]) {
            tree.reward(slot, shares[k as usize]);
        }
        done += size as u32;
    }
    let mut visits = [0u64; 64];
    tree.for_children(0, |slot| {
        visits[tree.action(slot) as usize] = tree.nodes[slot as usize].visits as u64;
    });
    visits
}

/// Scores the used slots of a block of `children` for a walk in a world whose legal actions
/// are `legal`, counting each legal child's availability first: UCB1 with the child's own
/// availability count, `mean + c * sqrt(ln available) * scale`, minus infinity where the child
/// is not legal. Returns the best score and the lowest slot that has it (ties go to the
/// lowest). The AVX-512 copy ([`avx512::score_block`]) makes the same operations in the same
/// order, so both return the same values and decisions do not depend on the CPU.
#[inline(always)]
fn score_block(children: &mut Block, legal: u64, c: f32, sqrt_ln: &SqrtLnTable) -> (f32, u32) {
    let (mut best_score, mut best) = (f32::NEG_INFINITY, 0);
    for k in 0..BLOCK {
        let action = children.action[k];
        if action == EMPTY {
            return (best_score, best);
        }
        // An unavailable child counts nothing and scores minus infinity.
        let available = (legal >> action) & 1;
        children.available[k] += available as u32;
        let score = children.mean[k]
            + c * children.explore[k] * children.scale[k]
            + UNAVAILABLE[available as usize];
        children.explore[k] = explore_term(children.available[k] + 1, sqrt_ln);
        if score > best_score {
            best_score = score;
            best = k as u32;
        }
    }
    (best_score, best)
}

/// [`score_block`], in AVX-512 registers with `AVX512 = true`, else in AVX2 registers with
/// `BMI2 = true` (the BMI2 kernel has AVX2).
///
/// # Safety
/// With `AVX512 = true` the CPU must have the extensions of [`avx512::score_block`]; with
/// `BMI2 = true` those of [`crate::cpu::Kernel::Bmi2`].
#[inline(always)]
unsafe fn score_block_with<const BMI2: bool, const AVX512: bool>(
    children: &mut Block,
    legal: u64,
    c: f32,
    sqrt_ln: &SqrtLnTable,
) -> (f32, u32) {
    #[cfg(target_arch = "x86_64")]
    if AVX512 {
        // SAFETY: the caller's guarantee.
        return unsafe { avx512::score_block(children, legal, c, sqrt_ln) };
    }
    #[cfg(target_arch = "x86_64")]
    if BMI2 {
        // SAFETY: the caller's guarantee.
        return unsafe { avx2::score_block(children, legal, c, sqrt_ln) };
    }
    score_block(children, legal, c, sqrt_ln)
}

/// A score's bits as a signed integer, the key the walk compares across blocks: a score is
/// at least +0 or minus infinity, and there the integer order is the float order (as in
/// [`avx512::score_block`]'s reduction), but an integer compare and move is shorter on the
/// chain from one level to the next than a float compare and maximum (docs/SEARCH.md
/// "The walk"). This is the key of minus infinity: no child available.
const NEG_INFINITY_KEY: i32 = f32::NEG_INFINITY.to_bits() as i32;

/// The deepest a path goes: one node an action of a hand (the auction's at most five, and
/// 36 plays).
const MAX_DEPTH: usize = 48;

/// One walk in a freshly drawn world: select with UCB1 over the children whose action is legal
/// in `world` (counting their availability), and expand one untried legal action, if any;
/// every node on the path counts the visit. Leaves `world` at the leaf and returns the path's
/// length.
///
/// # Safety
/// With `BMI2 = true` the CPU must support BMI2; with `AVX512 = true` the extensions of
/// [`avx512::score_block`].
#[inline(always)]
unsafe fn walk<const BMI2: bool, const AVX512: bool, const PDEP: bool, W: World>(
    tree: &mut Tree,
    world: &mut W,
    c: f32,
    sqrt_ln: &SqrtLnTable,
    rng: &mut SplitMix64,
    path: &mut [u32; MAX_DEPTH],
) -> usize {
    let mut depth = 0;
    let mut node = 0u32;
    while !world.is_over() {
        let legal = world.legal();
        let mover = world.mover();
        let mut untried = legal;
        let mut best = NONE;
        let mut best_key = NEG_INFINITY_KEY;
        let (node_block, k) = Tree::block_of(node);
        let blocks = tree.blocks[node_block].child_blocks[k];
        let mut block = tree.blocks[node_block].first_blocks[k];
        // The node's last block, where a new child goes if it has room.
        let mut last = NONE;
        for _ in 0..blocks {
            last = block;
            let children = &mut tree.blocks[block as usize];
            let next = children.next;
            // A block with no child legal here would count nothing, change no term and score
            // minus infinity: it is passed over on its last line alone, without its scores'
            // two (at 240,000 iterations about two blocks of five; docs/SEARCH.md "The walk").
            if children.actions & legal != 0 {
                untried &= !children.actions;
                // SAFETY: the caller's guarantee.
                let (score, lane) =
                    unsafe { score_block_with::<BMI2, AVX512>(children, legal, c, sqrt_ln) };
                // Ties go to the lowest slot, within a block (`score_block`) and across blocks.
                let key = score.to_bits() as i32;
                if key > best_key {
                    best_key = key;
                    best = block * BLOCK as u32 + lane;
                }
            }
            block = next;
        }
        if untried != 0 && !tree.is_full() {
            // SAFETY: the caller's guarantee.
            let action =
                unsafe { select_with::<PDEP>(untried, rng.below(untried.count_ones())) } as u8;
            path[depth] = tree.add_child(node, last, action, mover);
            world.apply(action);
            return depth + 1;
        }
        if best_key == NEG_INFINITY_KEY {
            // A full tree with no child legal here ([`MAX_TREE_SLOTS`]): play out from here.
            return depth;
        }
        tree.visit(best);
        world.apply(tree.action(best));
        path[depth] = best;
        depth += 1;
        node = best;
    }
    depth
}

/// Plays the hand out with [`Playout::Greedy`]: lead at random, feed a winning partner, else
/// win as cheaply as possible, else throw the cheapest card (each preference a lookup in
/// [`GreedyOrders`]). Inlined into the search loop, so that it is compiled with the loop's
/// instruction set (a popcount and `pdep` a play, not their portable versions).
///
/// # Safety
/// With `BMI2 = true` the CPU must support BMI2.
#[inline(always)]
unsafe fn greedy_playout<const BMI2: bool, const PDEP: bool>(
    world: &mut Rollout,
    rng: &mut SplitMix64,
) {
    let orders = greedy_orders();
    let trump = world.trump();
    while !world.is_over() {
        let cards = world.legal();
        let position = world.trick_len();
        let card = if position == 0 || cards.len() == 1 {
            // SAFETY: the caller's guarantee.
            unsafe { select_with::<PDEP>(cards.bits(), rng.below(cards.len())) as u8 }
        } else if world.partner_wins() {
            let plain = cards.minus(trump.mask());
            let pool = if plain.is_empty() { cards } else { plain };
            orders.preferred(Preference::Feed, pool, trump)
        } else {
            let winners = cards.intersect(world.winning_cards());
            if winners.is_empty() {
                orders.preferred(Preference::Cheapest, cards, trump)
            } else {
                orders.preferred(Preference::CheapestWinner, winners, trump)
            }
        };
        world.play(Card::from_index_unchecked(card));
    }
}

/// What [`greedy_playout`] looks for in a set of cards (once it does not lead).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Preference {
    /// The most points (R1.3), the last such card in index order: what to give a partner who
    /// is winning the trick.
    Feed,
    /// A plain card before a trump, then the weakest (R1.2), the first such in index order:
    /// the cheapest card that wins.
    CheapestWinner,
    /// The fewest points, then a plain card before a trump, then the weakest, the first such
    /// in index order: the card to throw.
    Cheapest,
}

impl Preference {
    const ALL: [Preference; 3] = [
        Preference::Feed,
        Preference::CheapestWinner,
        Preference::Cheapest,
    ];

    /// Whether `a` comes before `b` (distinct cards) under `trump`: a strict total order.
    fn before(self, a: Card, b: Card, trump: Suit) -> bool {
        let points = |c: Card| card_points(c, trump);
        let trick = |c: Card| (c.suit() == trump, strength(c, trump));
        match self {
            Preference::Feed => (points(a), a.index()) > (points(b), b.index()),
            Preference::CheapestWinner => (trick(a), a.index()) < (trick(b), b.index()),
            Preference::Cheapest => {
                (points(a), trick(a), a.index()) < (points(b), trick(b), b.index())
            }
        }
    }
}

/// The cards of a suit, a lane of [`LANE_BITS`] bits of a card mask ([`LANE`]).
const LANE_BITS: u32 = LANE.count_ones();
/// The sets a lane can hold.
const LANES: usize = LANE as usize + 1;

/// Each [`Preference`] as tables, so that the preferred card of a set is four lookups and a
/// minimum instead of a loop over its cards with a comparison (and a mispredicted branch) a
/// card: `rank[preference][trump][card]` is the card's place in the preference's order (0
/// first), and `first[preference][is_trump][lane]` the place in its suit of the first card of
/// a suit's set (the order inside a suit depends only on whether it is trump).
struct GreedyOrders {
    rank: [[[u8; 36]; 4]; 3],
    first: [[[u8; LANES]; 2]; 3],
}

fn greedy_orders() -> &'static GreedyOrders {
    static ORDERS: OnceLock<Box<GreedyOrders>> = OnceLock::new();
    ORDERS.get_or_init(|| {
        let mut orders = Box::new(GreedyOrders {
            rank: [[[0; 36]; 4]; 3],
            first: [[[0; LANES]; 2]; 3],
        });
        let cards = || (0..36).map(Card::from_index_unchecked);
        for (p, preference) in Preference::ALL.into_iter().enumerate() {
            for trump in Suit::ALL {
                for card in cards() {
                    orders.rank[p][trump as usize][card.index() as usize] = cards()
                        .filter(|&b| preference.before(b, card, trump))
                        .count()
                        as u8;
                }
            }
            // Clubs' lane under clubs (trump) and under diamonds (plain).
            for (is_trump, trump) in [(0, Suit::Diamonds), (1, Suit::Clubs)] {
                for lane in 1..LANES {
                    let first = (0..LANE_BITS as u8)
                        .filter(|&k| lane >> k & 1 != 0)
                        .min_by_key(|&k| orders.rank[p][trump as usize][k as usize]);
                    orders.first[p][is_trump][lane] = first.unwrap_or(0);
                }
            }
        }
        orders
    })
}

impl GreedyOrders {
    /// The card of `cards` (not empty) that `preference` puts first under `trump`.
    #[inline(always)]
    fn preferred(&self, preference: Preference, cards: CardSet, trump: Suit) -> u8 {
        let p = preference as usize;
        let mut best = u16::MAX;
        for suit in Suit::ALL {
            let lane = ((cards.bits() >> (LANE_BITS * suit as u32)) & LANE) as usize;
            let card = LANE_BITS as u8 * suit as u8 + self.first[p][(suit == trump) as usize][lane];
            let key = (self.rank[p][trump as usize][card as usize] as u16) << 8 | card as u16;
            best = best.min(if lane == 0 { u16::MAX } else { key });
        }
        best as u8
    }
}

/// Each team's share of what the hand scored (R6): the reward, in 0..1; a void hand is even.
#[inline]
fn score_shares(score: [u32; 2]) -> [f64; 2] {
    let total = (score[0] + score[1]) as f64;
    if total == 0.0 {
        [0.5, 0.5]
    } else {
        [score[0] as f64 / total, score[1] as f64 / total]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "x86_64")]
    use crate::bits::select;
    use crate::rules::Rules;

    /// A bot takes its trees when it first searches, so a default bot searches too, and a bot
    /// that takes the spare tree a dropped bot left decides as a fresh one would.
    #[test]
    fn a_default_bot_searches_and_spare_trees_change_nothing() {
        let mut hand = Hand::from_seed(3, 0, Rules::default(), [0, 0]);
        hand.apply(36).unwrap();
        let sampler = WorldSampler::new(&InfoSet::new(&hand, hand.to_move().unwrap()));
        let visits = IsmctsBot::default().search(&sampler, 11);
        assert_eq!(visits.iter().sum::<u64>(), DEFAULT_ITERATIONS as u64);
        // The first bot's tree was left spare (or another test's was); the next one reuses it.
        assert_eq!(IsmctsBot::default().search(&sampler, 11), visits);
        let mut fresh = IsmctsBot {
            params: IsmctsParams::default(),
            trees: vec![Tree::default()],
        };
        assert_eq!(fresh.search(&sampler, 11), visits);
    }

    /// The greedy playout's tables choose what its rules say, as a loop over the cards would:
    /// the most points for a winning partner (the last such card), the cheapest winner (plain
    /// before trump, then weakest: the first such card), the cheapest card (fewest points,
    /// then plain, then weakest: the first such), for random sets under every trump.
    #[test]
    fn a_full_tree_grows_no_more_and_still_searches() {
        let mut hand = Hand::from_seed(3, 0, Rules::default(), [0, 0]);
        hand.apply(36).unwrap();
        let sampler = WorldSampler::new(&InfoSet::new(&hand, hand.to_move().unwrap()));
        let iterations = 5_000;
        let params = IsmctsParams {
            iterations,
            playout: Playout::Random,
            ..IsmctsParams::default()
        };
        let max_slots = 40 * BLOCK;
        let mut bot = IsmctsBot {
            params,
            trees: vec![Tree {
                max_slots,
                ..Tree::default()
            }],
        };
        let visits = bot.search(&sampler, 11);
        let tree = &bot.trees[0];
        assert!(tree.is_full() && tree.nodes.len() <= max_slots);
        // The root's children (every legal lead) came first: every walk still takes one.
        assert_eq!(visits.iter().sum::<u64>(), iterations as u64);
        let legal = hand.legal_mask();
        assert!((0..64).all(|action| visits[action] == 0 || legal >> action & 1 == 1));
        assert_eq!(bot.search(&sampler, 11), visits);
    }

    #[test]
    fn greedy_preferences_match_a_loop_over_the_cards() {
        let orders = greedy_orders();
        let mut rng = SplitMix64::new(5);
        for _ in 0..20_000 {
            // Sets of every size, dense and sparse.
            let bits = rng.next_u64() & rng.next_u64() | 1 << rng.below(36);
            let cards = CardSet(bits & ((1 << 36) - 1));
            for trump in Suit::ALL {
                let trick = |c: Card| (c.suit() == trump, strength(c, trump));
                let points = |c: Card| card_points(c, trump);
                let feed = cards.iter().max_by_key(|&c| points(c));
                let winner = cards.iter().min_by_key(|&c| trick(c));
                let cheapest = cards.iter().min_by_key(|&c| (points(c), trick(c)));
                for (preference, card) in [
                    (Preference::Feed, feed),
                    (Preference::CheapestWinner, winner),
                    (Preference::Cheapest, cheapest),
                ] {
                    let expected = card.map(Card::index);
                    assert_eq!(
                        Some(orders.preferred(preference, cards, trump)),
                        expected,
                        "{preference:?} of {cards:?} under {trump:?}"
                    );
                }
            }
        }
    }

    /// The AVX2 and AVX-512 scorings of a block (those this CPU runs) return what the scalar
    /// loop returns (the best score's bits, its lowest slot, the used slots) and leave the
    /// same counts and next terms, on random blocks:
    /// every fill, ties (scores drawn from few values), children unavailable in the world, and
    /// counts past the `sqrt(ln n)` table.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_vector_block_scores_as_the_scalar_loop() {
        let test = "the_vector_block_scores_as_the_scalar_loop";
        let avx2 = crate::cpu::kernel_for(test, crate::cpu::Kernel::Bmi2).is_some();
        let avx512 = crate::cpu::kernel_for(test, crate::cpu::Kernel::Avx512).is_some();
        let sqrt_ln = sqrt_ln_table();
        let mut rng = SplitMix64::new(7);
        for round in 0..20_000 {
            let mut block = Block::EMPTY;
            let filled = rng.below(BLOCK as u32 + 1) as usize;
            let mut actions = rng.next_u64();
            for k in 0..filled {
                // Distinct actions, as siblings have.
                let action = select(actions | 1 << 63, 0) as u8;
                actions &= !(1 << action);
                block.action[k] = action;
                block.actions |= 1 << action;
                block.mean[k] = rng.below(4) as f32 / 4.0;
                block.scale[k] = 1.0 / (1 + rng.below(3)) as f32;
                block.available[k] = match rng.below(4) {
                    0 => SQRT_LN_TABLE_SIZE as u32 - 3 + rng.below(4),
                    _ => rng.below(200),
                };
                block.explore[k] = explore_term(block.available[k] + 1, sqrt_ln);
            }
            let legal = rng.next_u64();
            let c = [0.7, 0.0, 1.3][round % 3];
            let mut scalar = block;
            let expected = score_block(&mut scalar, legal, c, sqrt_ln);
            let mut copies = Vec::new();
            if avx2 {
                let mut vector = block;
                // SAFETY: the CPU runs the BMI2 kernel, which has AVX2 (checked above).
                let got = unsafe { avx2::score_block(&mut vector, legal, c, sqrt_ln) };
                copies.push(("avx2", got, vector));
            }
            if avx512 {
                let mut vector = block;
                // SAFETY: the CPU has the extensions (checked above).
                let got = unsafe { avx512::score_block(&mut vector, legal, c, sqrt_ln) };
                copies.push(("avx512", got, vector));
            }
            for (name, got, vector) in copies {
                assert_eq!(
                    (got.0.to_bits(), got.1),
                    (expected.0.to_bits(), expected.1),
                    "{name}: {block:?} legal {legal:#x}"
                );
                assert_eq!(vector.available, scalar.available, "{name}");
                assert_eq!(
                    vector.explore.map(f32::to_bits),
                    scalar.explore.map(f32::to_bits),
                    "{name}"
                );
            }
        }
    }

    /// The portable, BMI2 and AVX-512 walks (those this CPU runs) grow the same trees: the same
    /// root visits at several positions (the auction searched, trick one, later in the hand),
    /// budgets, playouts and thread counts.
    #[test]
    fn every_kernel_decides_the_same() {
        let kernels = crate::cpu::kernels_compared("every_kernel_decides_the_same");
        let auction = Hand::from_seed(5, 1, Rules::default(), [0, 0]);
        let mut trick_one = auction;
        trick_one.apply(36).unwrap();
        let mut later = trick_one;
        let mut rng = SplitMix64::new(3);
        for _ in 0..9 {
            let action = random_action(later.legal_mask(), &mut rng);
            later.apply(action).unwrap();
        }
        for hand in [auction, trick_one, later] {
            let sampler = WorldSampler::new(&InfoSet::new(&hand, hand.to_move().unwrap()));
            for (iterations, threads, playout) in [
                (50, 1, Playout::Random),
                (3000, 1, Playout::Random),
                (2000, 2, Playout::Greedy),
            ] {
                let params = IsmctsParams {
                    iterations,
                    threads,
                    playout,
                    heuristic_bid: false,
                    ..IsmctsParams::default()
                };
                let visits: Vec<[u64; 64]> = kernels
                    .iter()
                    .copied()
                    .map(|kernel| IsmctsBot::new(params).search_on(&sampler, 19, kernel))
                    .collect();
                assert!(
                    visits.windows(2).all(|pair| pair[0] == pair[1]),
                    "{params:?} at {hand:?}"
                );
            }
        }
    }

    /// Every iteration is one walk from the root, so the root's children's visits add up to
    /// the iterations asked for, however they split into batches (a partial last one too) and
    /// threads; only legal actions are visited; and a search repeats exactly for a seed. At
    /// trick one (the kernel's worlds) and in the auction (full states, `bid=0`).
    #[test]
    fn root_visits_count_the_iterations_and_repeat_for_a_seed() {
        let auction = Hand::from_seed(3, 0, Rules::default(), [0, 0]);
        let mut trick_one = auction;
        trick_one.apply(36).unwrap();
        for hand in [auction, trick_one] {
            let info = InfoSet::new(&hand, hand.to_move().unwrap());
            let sampler = WorldSampler::new(&info);
            for (iterations, threads, playout) in [
                (1, 1, Playout::Random),
                (7, 1, Playout::Greedy),
                (1001, 2, Playout::Random),
                (4003, 3, Playout::Greedy),
            ] {
                let params = IsmctsParams {
                    iterations,
                    threads,
                    playout,
                    heuristic_bid: false,
                    ..IsmctsParams::default()
                };
                let visits = IsmctsBot::new(params).search(&sampler, 11);
                assert_eq!(visits.iter().sum::<u64>(), iterations as u64);
                for (id, &count) in visits.iter().enumerate() {
                    assert!(
                        count == 0 || hand.legal_mask() & (1 << id) != 0,
                        "action {id}"
                    );
                }
                assert_eq!(IsmctsBot::new(params).search(&sampler, 11), visits);
            }
        }
    }
}
