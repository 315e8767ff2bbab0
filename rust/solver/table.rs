//! The solver's transposition table: bounds on the value of trick-start positions.
//!
//! A position at the start of a trick is keyed by the cards each seat still holds and the seat
//! to lead, nothing else: not the deal, not the order the played cards came in, not the points
//! already taken (the value counts only what is still to win). The key is exact (108 bits of
//! cards, 2 of leader), so a hit is never a different position. Trump and the play variants
//! (R5.1) change values, so each such configuration gets its own *generation*, kept in the key:
//! entries of other configurations never match and are overwritten first, and nothing needs
//! clearing between solves. The table has a fixed size ([`TABLE_ENTRIES`]), allocated once per
//! solver: memory is bounded whatever is solved.

/// log2 of the number of entries.
pub const TABLE_BITS: u32 = 20;
/// Entries in one table (two-entry buckets); [`ENTRY_BYTES`] each, 24 MiB in all.
pub const TABLE_ENTRIES: usize = 1 << TABLE_BITS;
/// The size of one entry.
pub const ENTRY_BYTES: usize = std::mem::size_of::<Entry>();

/// Bits of the high key word used by cards and leader; the generation sits above them.
const GENERATION_SHIFT: u32 = 46;
/// Generations wrap here, and the table is cleared once then.
const GENERATIONS: u64 = 1 << (64 - GENERATION_SHIFT);
const CARD_BITS: u32 = 36;

/// What the table knows of one position: `lower <= value <= upper` (team 0's points still to
/// win), the move that was best or cut off, and how many cards were left (for replacement).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// A lower bound on the value.
    pub lower: u8,
    /// An upper bound on the value.
    pub upper: u8,
    /// The card index that was best or refuted the window, a move-ordering hint.
    pub best: u8,
}

/// One entry: the key's two words, then lower | upper << 8 | best << 16 | cards left << 24.
/// All zero is empty (generations start at 1), so the table is allocated zeroed, page by page
/// as it is touched.
type Entry = [u64; 3];
const EMPTY: Entry = [0; 3];

/// An exact position key at a trick start: every remaining card, who holds it, and the leader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Key {
    low: u64,
    high: u64,
}

impl Key {
    /// The key of the hands `hands` with `leader` to lead (generation not yet applied).
    /// `zero_cards` are the zero-point cards of every suit (R1.3): they are the weakest of their
    /// suit, so only their order among the live ones matters, not which ranks they are; they
    /// are renumbered from the bottom of their suit so that such positions share an entry.
    #[inline(always)]
    pub fn new(hands: &[u64; 4], leader: u8, zero_cards: u64) -> Key {
        let mut all = hands[0] | hands[1] | hands[2] | hands[3];
        // Two bits of owner per card: bit 0 set for seats 1 and 3, bit 1 for seats 2 and 3.
        let mut odd = hands[1] | hands[3];
        let mut back = hands[2] | hands[3];
        for lane_start in [0, 9, 18, 27] {
            let zero = (zero_cards >> lane_start) & ZERO_LANE;
            let live = ((all >> lane_start) & zero) as usize;
            if live & (live + 1) == 0 {
                continue; // already packed at the bottom
            }
            for set in [&mut all, &mut odd, &mut back] {
                let part = ((*set >> lane_start) & zero) as usize;
                *set = (*set & !(zero << lane_start)) | (COMPRESS[live][part] as u64) << lane_start;
            }
        }
        Key {
            low: all | (odd << CARD_BITS),
            high: (odd >> (64 - CARD_BITS))
                | (back << (2 * CARD_BITS - 64))
                | ((leader as u64) << 44),
        }
    }
}

/// The widest zero-point part of a suit lane (6 7 8 9 of a plain suit).
const ZERO_LANE: u64 = 0b1111;

/// `COMPRESS[live][set]`: the bits of `set` that are in `live`, packed to the bottom in order
/// (a four-bit `pext`).
const COMPRESS: [[u8; 16]; 16] = {
    let mut table = [[0u8; 16]; 16];
    let mut live = 0;
    while live < 16 {
        let mut set = 0;
        while set < 16 {
            let (mut packed, mut next, mut bit) = (0u8, 0, 0);
            while bit < 4 {
                if live & (1 << bit) != 0 {
                    if set & (1 << bit) != 0 {
                        packed |= 1 << next;
                    }
                    next += 1;
                }
                bit += 1;
            }
            table[live][set] = packed;
            set += 1;
        }
        live += 1;
    }
    table
};

/// A fixed-size table of [`Bounds`] for trick-start positions.
pub struct Table {
    entries: Box<[Entry]>,
    generation: u64,
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
            entries: vec![EMPTY; TABLE_ENTRIES].into_boxed_slice(),
            generation: 1,
        }
    }

    /// Starts a new generation: what was stored before no longer matches.
    pub fn next_generation(&mut self) {
        self.generation += 1;
        if self.generation == GENERATIONS {
            self.entries.fill(EMPTY);
            self.generation = 1;
        }
    }

    #[inline(always)]
    fn tagged(&self, key: Key) -> (u64, u64) {
        (key.low, key.high | (self.generation << GENERATION_SHIFT))
    }

    #[inline(always)]
    fn bucket(low: u64, high: u64) -> usize {
        let mixed = (low ^ high.rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        ((mixed >> (64 - TABLE_BITS)) as usize) & !1
    }

    /// Asks the CPU to bring `key`'s bucket into cache, ahead of a probe.
    #[inline(always)]
    pub fn prefetch(&self, key: Key) {
        #[cfg(target_arch = "x86_64")]
        {
            let (low, high) = self.tagged(key);
            let at = Table::bucket(low, high);
            // SAFETY: a prefetch of an address inside the table; it has no effect on memory.
            unsafe {
                use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
                _mm_prefetch::<_MM_HINT_T0>(self.entries.as_ptr().add(at) as *const i8);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The bounds stored for `key`, if any.
    #[inline(always)]
    pub fn probe(&self, key: Key) -> Option<Bounds> {
        let (low, high) = self.tagged(key);
        let at = Table::bucket(low, high);
        self.entries[at..at + 2]
            .iter()
            .find(|e| e[0] == low && e[1] == high)
            .map(|e| Bounds {
                lower: e[2] as u8,
                upper: (e[2] >> 8) as u8,
                best: (e[2] >> 16) as u8,
            })
    }

    /// Records `bounds` for `key`, a position with `cards_left` cards in hand. An existing entry
    /// for the key is replaced (the caller merged its bounds); otherwise a stale entry or the one
    /// with fewer cards left (cheaper to search again) gives way.
    #[inline(always)]
    pub fn store(&mut self, key: Key, bounds: Bounds, cards_left: u32) {
        let (low, high) = self.tagged(key);
        let at = Table::bucket(low, high);
        let generation = self.generation;
        let pair = &mut self.entries[at..at + 2];
        let slot = if pair[0][0] == low && pair[0][1] == high {
            0
        } else if pair[1][0] == low && pair[1][1] == high {
            1
        } else {
            let stale = |e: &Entry| e[1] >> GENERATION_SHIFT != generation;
            let depth = |e: &Entry| e[2] >> 24;
            if stale(&pair[0]) || (!stale(&pair[1]) && depth(&pair[0]) < depth(&pair[1])) {
                0
            } else {
                1
            }
        };
        pair[slot] = [
            low,
            high,
            bounds.lower as u64
                | (bounds.upper as u64) << 8
                | (bounds.best as u64) << 16
                | (cards_left as u64) << 24,
        ];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_tell_owners_and_leaders_apart() {
        let a = [0b0001, 0b0010, 0b0100, 0b1000];
        let b = [0b0010, 0b0001, 0b0100, 0b1000];
        assert_ne!(Key::new(&a, 0, 0), Key::new(&b, 0, 0));
        assert_ne!(Key::new(&a, 0, 0), Key::new(&a, 1, 0));
        let high = [1 << 35, 1 << 34, 1 << 33, 1 << 32];
        let swapped = [1 << 35, 1 << 33, 1 << 34, 1 << 32];
        assert_ne!(Key::new(&high, 3, 0), Key::new(&swapped, 3, 0));
        assert_eq!(Key::new(&high, 3, 0).high >> GENERATION_SHIFT, 0);
    }

    #[test]
    fn live_zero_cards_are_renumbered_from_the_bottom() {
        // Clubs 6 7 8 9 have no points when clubs is not trump: holding 7 and 9 with 6 and 8
        // gone is holding 6 and 7.
        let zero = 0b1111;
        let gapped = [0b0010, 0b1000, 1 << 9, 1 << 10];
        let packed = [0b0001, 0b0010, 1 << 9, 1 << 10];
        assert_eq!(Key::new(&gapped, 0, zero), Key::new(&packed, 0, zero));
        assert_ne!(Key::new(&gapped, 0, 0), Key::new(&packed, 0, 0));
        assert_eq!(COMPRESS[0b1010][0b1000], 0b10);
    }

    #[test]
    fn a_new_generation_forgets() {
        let mut table = Table::new();
        let key = Key::new(&[1, 2, 4, 8], 2, 0);
        let bounds = Bounds {
            lower: 3,
            upper: 40,
            best: 7,
        };
        table.store(key, bounds, 4);
        assert_eq!(table.probe(key), Some(bounds));
        table.next_generation();
        assert_eq!(table.probe(key), None);
    }
}
