//! The perfect-information Monte Carlo (PIMC) bot: in the play phase it draws worlds uniformly
//! from its seat's information set (the sampler of `worlds`), solves each exactly with the
//! double-dummy solver, and plays the card with the best total value over the worlds. It
//! names trump like the greedy bot (a double-dummy auction would solve every world once per
//! suit), and plays like it in table mode (R8), which the solver does not play.

use super::solve;
use crate::bots::greedy::GreedyBot;
use crate::bots::Policy;
use crate::infoset::InfoSet;
use crate::rng::SplitMix64;
use crate::search::worlds::WorldSampler;
use crate::state::Phase;

/// Worlds per decision when the spec does not say.
pub const DEFAULT_WORLDS: u32 = 20;
/// The most worlds a spec may ask for.
pub const MAX_WORLDS: u32 = 10_000;

/// Solves `worlds` sampled worlds per card decision and plays the best card on average.
#[derive(Clone, Copy, Debug)]
pub struct PimcBot {
    worlds: u32,
}

impl PimcBot {
    /// A PIMC bot that samples `worlds` worlds (at least 1) per decision.
    pub fn new(worlds: u32) -> PimcBot {
        PimcBot {
            worlds: worlds.max(1),
        }
    }
}

impl Policy for PimcBot {
    fn act(&mut self, info: &InfoSet, legal: u64, rng: &mut SplitMix64) -> u8 {
        // The auction, and table mode (R8), which the solver does not play: the greedy rule.
        if info.phase() != Phase::Play || info.rules().is_table_mode() {
            return GreedyBot.act(info, legal, rng);
        }
        if legal.count_ones() == 1 {
            return legal.trailing_zeros() as u8;
        }
        let sampler = WorldSampler::new(info);
        let mut totals = [0u32; 36];
        for _ in 0..self.worlds {
            let Ok(solution) = solve(&sampler.sample(rng)) else {
                // A world of an auto-mode play-phase view is always solvable; never panic.
                return GreedyBot.act(info, legal, rng);
            };
            for card in solution.legal {
                totals[card.index() as usize] += solution.value_of(card);
            }
        }
        // The legal card with the highest total; the lowest id among equals.
        let mut best = legal.trailing_zeros() as u8;
        let mut rest = legal;
        while rest != 0 {
            let id = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            if totals[id as usize] > totals[best as usize] {
                best = id;
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::BotSpec;
    use crate::rules::Rules;
    use crate::state::{Hand, CALL_BASE};

    #[test]
    fn specs_name_and_bound_the_worlds() {
        assert_eq!(
            BotSpec::parse("pimc").unwrap(),
            BotSpec::Pimc {
                worlds: DEFAULT_WORLDS
            }
        );
        let spec = BotSpec::parse("PIMC:worlds=7").unwrap();
        assert_eq!(spec.to_string(), "pimc:worlds=7");
        assert!(BotSpec::parse("pimc:worlds=0").is_err());
        assert!(BotSpec::parse("pimc:worlds=1.5").is_err());
        assert!(BotSpec::parse("pimc:depth=3").is_err());
    }

    /// When the seat's information leaves one world, PIMC plays a double-dummy best card of
    /// the real hand; every choice is legal.
    #[test]
    fn with_one_world_left_pimc_plays_a_solver_best_card() {
        let mut checked = 0;
        for seed in 0..40u64 {
            let mut rng = SplitMix64::new(seed);
            let mut hand =
                Hand::from_seed(rng.next_u64(), (seed % 4) as u8, Rules::default(), [0; 2]);
            hand.apply(CALL_BASE + rng.below(4) as u8).unwrap();
            // Four tricks left, so the debug build stays quick; single worlds come late.
            for _ in 0..20 {
                let legal = hand.legal_cards();
                hand.play_unchecked(legal.nth(rng.below(legal.len())));
            }
            let mut bot = PimcBot::new(3);
            while !hand.is_terminal() {
                let seat = hand.to_move().unwrap();
                let info = InfoSet::new(&hand, seat);
                let legal = hand.legal_mask();
                let action = bot.act(&info, legal, &mut rng);
                assert_ne!(legal & (1 << action), 0);
                if legal.count_ones() > 1 && WorldSampler::new(&info).count() == 1 {
                    let best = solve(&hand).unwrap().best;
                    assert!(best.contains(crate::cards::Card::from_index_unchecked(action)));
                    checked += 1;
                }
                hand.apply_unchecked(action);
            }
        }
        assert!(checked >= 10, "only {checked} single-world decisions");
    }
}
