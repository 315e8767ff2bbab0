//! The uniform random bot: every legal action equally likely (the playout policy of
//! docs/ENGINE.md, picking the k-th set bit of the legal mask).

use super::Policy;
use crate::bits::select;
use crate::infoset::InfoSet;
use crate::rng::SplitMix64;

/// Every legal action equally likely.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomBot;

impl Policy for RandomBot {
    #[inline]
    fn act(&mut self, _info: &InfoSet, legal: u64, rng: &mut SplitMix64) -> u8 {
        random_action(legal, rng)
    }
}

/// A uniformly random id of `mask` (not empty): the `below(popcount)`-th set bit.
#[inline]
pub fn random_action(mask: u64, rng: &mut SplitMix64) -> u8 {
    select(mask, rng.below(mask.count_ones())) as u8
}
