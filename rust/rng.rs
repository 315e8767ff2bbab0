//! The engine's one random generator, SplitMix64, and seed derivation (docs/ENGINE.md
//! "Randomness"). It is tiny, fast, and simple enough to write again in the reference, so a
//! seeded deal (R2.3, R2.4) and a random playout are the same on every platform and in both
//! engines.

/// The SplitMix64 increment (the vector kernels draw ahead with it).
pub(crate) const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// The SplitMix64 output function's two multipliers (the vector kernels mix with them too).
pub(crate) const MIX_1: u64 = 0xBF58_476D_1CE4_E5B9;
pub(crate) const MIX_2: u64 = 0x94D0_49BB_1331_11EB;

/// The SplitMix64 output function.
#[inline]
pub const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(MIX_1);
    z = (z ^ (z >> 27)).wrapping_mul(MIX_2);
    z ^ (z >> 31)
}

/// The seed of game `index` of a batch seeded `seed`: games of a batch are independent of the
/// order or thread they are played in.
#[inline]
pub const fn derive(seed: u64, index: u64) -> u64 {
    mix64(seed ^ mix64(index))
}

/// The SplitMix64 generator: 64 bits of state, one add and one mix a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator seeded with `seed`.
    #[inline]
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The state: [`SplitMix64::new`] of it draws what this generator draws next (the
    /// vector playout draws ahead in registers, rust/search/rollout/avx512.rs).
    #[cfg(target_arch = "x86_64")]
    #[inline]
    pub(crate) const fn state(&self) -> u64 {
        self.state
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GOLDEN);
        mix64(self.state)
    }

    /// A number in `0..n` by the multiply-shift method (Lemire), no division.
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_matches_the_published_sequence() {
        // The first outputs of SplitMix64 seeded with 1234567 (Vigna's reference code).
        let mut rng = SplitMix64::new(1234567);
        assert_eq!(rng.next_u64(), 6457827717110365317);
        assert_eq!(rng.next_u64(), 3203168211198807973);
    }

    #[test]
    fn below_stays_in_range() {
        let mut rng = SplitMix64::new(7);
        assert!((0..10_000).all(|_| rng.below(29) < 29));
    }
}
