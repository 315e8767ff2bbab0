//! The solver's transposition table: bounds on the value of trick-start positions.
//!
//! A position at the start of a trick is decided by the cards each seat still holds and the seat
//! to lead, nothing else: not the order the played cards came in, not the points already taken
//! (the value counts only what is still to win). Within one *generation* every position comes
//! from one deal: the seat of each card is fixed by the generation's first position, so the key
//! needs only which cards are still live (36 bits) and the leader (2 bits). That exact 38-bit
//! key is mixed by a bijection; its top bits choose the bucket and the rest are kept in the
//! entry, so a whole entry is one `u64` and a hit is never a different position. Trump and the
//! play variants (R5.1) change values, and so does the deal: each such change starts a new
//! generation, kept in the entries, so nothing needs clearing between solves. The table has a
//! fixed size ([`TABLE_ENTRIES`] of [`ENTRY_BYTES`], 2 MiB: small enough to stay in a core's
//! L2 cache), allocated once per solver: memory is bounded whatever is solved.

/// log2 of the number of entries.
pub const TABLE_BITS: u32 = 18;
/// Entries in one table (four-entry buckets); [`ENTRY_BYTES`] each, 2 MiB in all.
pub const TABLE_ENTRIES: usize = 1 << TABLE_BITS;
/// The size of one entry.
pub const ENTRY_BYTES: usize = std::mem::size_of::<u64>();

/// Entries in a bucket: 32 bytes, half a cache line, aligned.
const BUCKET_ENTRIES: usize = 4;
const BUCKET_BITS: u32 = TABLE_BITS - BUCKET_ENTRIES.trailing_zeros();
/// A key: 36 bits of live cards, then 2 of leader.
const KEY_BITS: u32 = 38;
const KEY_MASK: u64 = (1 << KEY_BITS) - 1;
const LEADER_SHIFT: u32 = 36;
/// The key bits an entry keeps: the bucket's index holds the others.
const TAG_BITS: u32 = KEY_BITS - BUCKET_BITS;
const TAG_MASK: u64 = (1 << TAG_BITS) - 1;
/// Odd, so multiplying by it modulo 2^38 is a bijection; spreads keys over the buckets.
const MIX: u64 = 0x9E37_79B9_7F4A_7C15;
const MIX_SHIFT: u32 = KEY_BITS / 2;

/// An entry: tag | lower | upper | best | tricks left | generation, low bits first. All zero is
/// empty (generations start at 1).
const LOWER_SHIFT: u32 = TAG_BITS;
const UPPER_SHIFT: u32 = LOWER_SHIFT + 8;
const BEST_SHIFT: u32 = UPPER_SHIFT + 8;
const BEST_MASK: u64 = 0x3f;
const TRICKS_SHIFT: u32 = BEST_SHIFT + 6;
const TRICKS_MASK: u64 = 0xf;
const GENERATION_SHIFT: u32 = TRICKS_SHIFT + 4;
/// Generations wrap here, and the table is cleared once then.
const GENERATIONS: u64 = 1 << (64 - GENERATION_SHIFT);

/// The low four bits of each suit's lane: where the zero-point cards (R1.3) sit.
const LOW_LANES: u64 = 0xf | 0xf << 9 | 0xf << 18 | 0xf << 27;

/// What the table knows of one position: `lower <= value <= upper` (team 0's points still to
/// win) and the move that was best or cut off (a card index; a number above 35 is no card).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// A lower bound on the value.
    pub lower: u8,
    /// An upper bound on the value.
    pub upper: u8,
    /// The card index that was best or refuted the window, a move-ordering hint.
    pub best: u8,
}

/// An exact position key at a trick start, within the table's generation: the live cards (the
/// zero-point ones renumbered, see [`Table::key`]) and the leader.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Key(u64);

/// One cache-aligned bucket of entries.
#[derive(Clone, Copy)]
#[repr(C, align(32))]
struct Bucket([u64; BUCKET_ENTRIES]);

/// A fixed-size table of [`Bounds`] for trick-start positions of one deal at a time.
pub struct Table {
    buckets: Box<[Bucket]>,
    generation: u64,
    /// The cards each seat held at the generation's first position: every position of the
    /// generation has them where they were, or played.
    owners: [u64; 4],
    /// Per pair of suits (clubs and diamonds, hearts and spades), the low four bits of both
    /// lanes (the live zero-point cards and, in trump, the 9; the first suit's in the index's
    /// low half) rewritten in place to the lowest set of the same cards that has the same
    /// owners in order: one lookup renumbers two suits.
    renumber: [[u64; 256]; 2],
}

impl Default for Table {
    fn default() -> Table {
        Table::new()
    }
}

impl Table {
    /// An empty table of [`TABLE_ENTRIES`] entries.
    pub fn new() -> Table {
        Table {
            buckets: vec![Bucket([0; BUCKET_ENTRIES]); 1 << BUCKET_BITS].into_boxed_slice(),
            generation: 0,
            owners: [0; 4],
            renumber: [[0; 256]; 2],
        }
    }

    /// Prepares the table for positions whose seats hold `hands`, `zero_cards` being the
    /// zero-point cards of every suit (R1.3). The stored bounds are kept if `same_rules` (trump
    /// and play variants unchanged) and every card held was held by the same seat in the
    /// generation's first position (a later position of the same deal); otherwise a new
    /// generation starts and what was stored no longer matches.
    pub fn begin(&mut self, hands: &[u64; 4], zero_cards: u64, same_rules: bool) {
        let same_deal = (0..4).all(|seat| hands[seat] & !self.owners[seat] == 0);
        if same_rules && same_deal && self.generation != 0 {
            return;
        }
        self.generation += 1;
        if self.generation == GENERATIONS {
            self.buckets.fill(Bucket([0; BUCKET_ENTRIES]));
            self.generation = 1;
        }
        self.owners = *hands;
        let mut renumber = [[0u8; 16]; 4];
        for (suit, renumber) in renumber.iter_mut().enumerate() {
            let start = 9 * suit as u32;
            let zero = (zero_cards >> start) & 0xf;
            let owner_of =
                |rank: u64| (0..4).find(|&seat| (hands[seat] >> start) & (1 << rank) != 0);
            // The owners of a set's zero-point cards, weakest first (two bits each, after a
            // marker bit), and its other bits.
            let signature = |set: u64| {
                let owners = (0..4)
                    .filter(|&rank| set & zero & (1 << rank) != 0)
                    .fold(1u64, |sig, rank| {
                        sig << 2 | owner_of(rank).unwrap_or(0) as u64
                    });
                owners | (set & !zero) << 16
            };
            let held = (hands[0] | hands[1] | hands[2] | hands[3]) >> start;
            let signatures: [u64; 16] = std::array::from_fn(|set| signature(set as u64));
            for set in 0..16u64 {
                renumber[set as usize] = if set & !held != 0 {
                    set as u8 // never live in this generation
                } else {
                    (0..=set)
                        .find(|&lower| {
                            lower & !held == 0
                                && signatures[lower as usize] == signatures[set as usize]
                        })
                        .expect("a set has its own signature") as u8
                };
            }
        }
        // Only the sets of cards held now are ever looked up: the others are left as they are.
        let held = hands[0] | hands[1] | hands[2] | hands[3];
        for (pair, table) in self.renumber.iter_mut().enumerate() {
            let (low, high) = (2 * pair, 2 * pair + 1);
            let held_pair = Table::low_pair(held, pair);
            let mut set = 0;
            loop {
                table[set] = (renumber[low][set & 0xf] as u64) << (9 * low)
                    | (renumber[high][set >> 4] as u64) << (9 * high);
                set = set.wrapping_sub(held_pair) & held_pair; // the next subset
                if set == 0 {
                    break;
                }
            }
        }
    }

    /// The key of the trick-start position where `held` are the cards still in hand and
    /// `leader` leads. Zero-point cards (R1.3) are the weakest of their suit, so only their
    /// owners in order matter, not which ranks they are: they are renumbered to the lowest
    /// cards with the same owners in order, so that such positions share an entry.
    #[inline(always)]
    pub fn key(&self, held: u64, leader: u8) -> Key {
        let key = held & !LOW_LANES
            | self.renumber[0][Table::low_pair(held, 0)]
            | self.renumber[1][Table::low_pair(held, 1)];
        Key(key | (leader as u64) << LEADER_SHIFT)
    }

    /// The low four bits of suits `2 * pair` and `2 * pair + 1` of `cards`, side by side: the
    /// index into `renumber[pair]`.
    #[inline(always)]
    fn low_pair(cards: u64, pair: usize) -> usize {
        let start = 18 * pair as u32;
        ((cards >> start) & 0xf | (cards >> (start + 9 - 4)) & 0xf0) as usize
    }

    /// The bucket index and the tag of `key` (a bijection of the key's 38 bits).
    #[inline(always)]
    fn place(key: Key) -> (usize, u64) {
        let mixed = ((key.0 ^ (key.0 >> MIX_SHIFT)).wrapping_mul(MIX)) & KEY_MASK;
        ((mixed >> TAG_BITS) as usize, mixed & TAG_MASK)
    }

    /// Whether `entry` holds `tag` in this generation: one mask and one compare.
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse4.1")))]
    #[inline(always)]
    fn matches(&self, entry: u64, tag: u64) -> bool {
        entry & (TAG_MASK | !0 << GENERATION_SHIFT) == tag | self.generation << GENERATION_SHIFT
    }

    /// Asks the CPU to bring `key`'s bucket into cache, ahead of a probe.
    #[inline(always)]
    pub fn prefetch(&self, key: Key) {
        #[cfg(target_arch = "x86_64")]
        {
            let (at, _) = Table::place(key);
            // SAFETY: a prefetch of an address inside the table; it has no effect on memory.
            unsafe {
                use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
                _mm_prefetch::<_MM_HINT_T0>(self.buckets.as_ptr().add(at) as *const i8);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The bounds stored for `key`, if any.
    #[inline(always)]
    pub fn probe(&self, key: Key) -> Option<Bounds> {
        let (at, tag) = Table::place(key);
        let bucket = &self.buckets[at];
        let slot = self.matching_slot(bucket, tag)?;
        let e = bucket.0[slot];
        Some(Bounds {
            lower: (e >> LOWER_SHIFT) as u8,
            upper: (e >> UPPER_SHIFT) as u8,
            best: ((e >> BEST_SHIFT) & BEST_MASK) as u8,
        })
    }

    /// The slot of `bucket` holding `tag` in this generation: the four entries compared at
    /// once (SSE4.1's 64-bit compare, two entries a register), one branch instead of four.
    #[cfg(all(target_arch = "x86_64", target_feature = "sse4.1"))]
    #[inline(always)]
    fn matching_slot(&self, bucket: &Bucket, tag: u64) -> Option<usize> {
        use std::arch::x86_64::{
            __m128i, _mm_and_si128, _mm_castsi128_pd, _mm_cmpeq_epi64, _mm_load_si128,
            _mm_movemask_pd, _mm_set1_epi64x,
        };
        let mask = (TAG_MASK | !0 << GENERATION_SHIFT) as i64;
        let wanted = (tag | self.generation << GENERATION_SHIFT) as i64;
        // SAFETY: SSE4.1 is enabled at compile time (the cfg above); a bucket is 32 bytes
        // aligned to 32, so both 16-byte loads are aligned and inside it.
        let found = unsafe {
            let entries = bucket.0.as_ptr() as *const __m128i;
            let (mask, wanted) = (_mm_set1_epi64x(mask), _mm_set1_epi64x(wanted));
            let low = _mm_cmpeq_epi64(_mm_and_si128(_mm_load_si128(entries), mask), wanted);
            let high = _mm_cmpeq_epi64(_mm_and_si128(_mm_load_si128(entries.add(1)), mask), wanted);
            _mm_movemask_pd(_mm_castsi128_pd(low)) | _mm_movemask_pd(_mm_castsi128_pd(high)) << 2
        };
        (found != 0).then(|| found.trailing_zeros() as usize)
    }

    /// The slot of `bucket` holding `tag` in this generation.
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse4.1")))]
    #[inline(always)]
    fn matching_slot(&self, bucket: &Bucket, tag: u64) -> Option<usize> {
        bucket.0.iter().position(|&e| self.matches(e, tag))
    }

    /// Records `bounds` for `key`, a position with `cards_left` cards in hand. An existing entry
    /// for the key is replaced (the caller merged its bounds); otherwise a stale entry or the one
    /// with the fewest cards left (cheapest to search again) gives way.
    #[inline(always)]
    pub fn store(&mut self, key: Key, bounds: Bounds, cards_left: u32) {
        let (at, tag) = Table::place(key);
        let generation = self.generation;
        let bucket = &self.buckets[at];
        let tricks = |e: u64| {
            if e >> GENERATION_SHIFT == generation {
                (e >> TRICKS_SHIFT) & TRICKS_MASK
            } else {
                0 // stale: the first to go
            }
        };
        let slot = self.matching_slot(bucket, tag).unwrap_or_else(|| {
            (0..BUCKET_ENTRIES)
                .min_by_key(|&k| tricks(bucket.0[k]))
                .unwrap()
        });
        self.buckets[at].0[slot] = tag
            | (bounds.lower as u64) << LOWER_SHIFT
            | (bounds.upper as u64) << UPPER_SHIFT
            | (bounds.best as u64 & BEST_MASK) << BEST_SHIFT
            | ((cards_left / 4) as u64 & TRICKS_MASK) << TRICKS_SHIFT
            | generation << GENERATION_SHIFT;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every card dealt, nine to a seat in order.
    const DEAL: [u64; 4] = [0x1ff, 0x1ff << 9, 0x1ff << 18, 0x1ff << 27];

    #[test]
    fn keys_tell_live_cards_and_leaders_apart() {
        let mut table = Table::new();
        table.begin(&DEAL, 0, false);
        let held = DEAL[0] | DEAL[1] | DEAL[2] | DEAL[3];
        assert_ne!(table.key(held, 0), table.key(held & !1, 0));
        assert_ne!(table.key(held, 0), table.key(held, 1));
        // The bijection: distinct keys never share both bucket and tag.
        let (a, b) = (table.key(held, 3), table.key(held & !(1 << 35), 3));
        assert_ne!(Table::place(a), Table::place(b));
    }

    #[test]
    fn live_zero_cards_are_renumbered_by_owners_in_order() {
        // Clubs 6 7 8 9 have no points when clubs is not trump: seat 0 holds 6 and 8, seat 1
        // holds 7 and 9. With 7 and 8 gone, the 6 and 9 (seats 0, 1) are the 6 and 7 (seats 0,
        // 1): one entry. With 6 and 9 gone, the 7 and 8 (seats 1, 0) are another position.
        let deal = [0b0101, 0b1010, 1 << 20, 1 << 30];
        let mut table = Table::new();
        table.begin(&deal, 0b1111, false);
        let others = (1 << 20) | (1 << 30);
        let key = |clubs: u64| table.key(clubs | others, 0);
        assert_eq!(key(0b1001), key(0b0011));
        assert_ne!(key(0b0110), key(0b0011));
        assert_eq!(key(0b0110), key(0b0110));
    }

    #[test]
    fn a_new_deal_or_new_rules_forget() {
        let mut table = Table::new();
        table.begin(&DEAL, 0, false);
        let key = table.key(0b1111 | 0b1111 << 9, 2);
        let bounds = Bounds {
            lower: 3,
            upper: 40,
            best: 7,
        };
        table.store(key, bounds, 8);
        assert_eq!(table.probe(key), Some(bounds));
        let later = [DEAL[0] & !1, DEAL[1], DEAL[2], DEAL[3]];
        table.begin(&later, 0, true); // a later position of the same deal: kept
        assert_eq!(table.probe(key), Some(bounds));
        table.begin(&later, 0, false); // other rules
        assert_eq!(table.probe(key), None);
        table.store(key, bounds, 8);
        let swapped = [DEAL[1], DEAL[0], DEAL[2], DEAL[3]];
        table.begin(&swapped, 0, true); // another deal
        assert_eq!(table.probe(key), None);
    }
}
