//! The bots by name (as OpenSpiel's `spiel_bots`): a [`BotSpec`] names a bot and its parameters
//! (`"ismcts:iterations=2000,c=0.7"`), checks them and builds the bot. The one module that
//! imports every bot; the bots import only their interface (rust/bots.rs), never this.

use std::fmt;

use crate::bots::greedy::GreedyBot;
use crate::bots::heuristic::HeuristicBot;
use crate::bots::random::RandomBot;
use crate::bots::{Params, Policy};
use crate::error::Error;
use crate::search::ismcts::{IsmctsBot, IsmctsParams, Playout};

/// A bot and its parameters. Text form `name` or `name:key=value,key=value` (what `simulate`,
/// `play --bot` and tournaments take); [`BotSpec::parse`] checks names, keys and ranges, so a
/// spec always builds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BotSpec {
    /// [`RandomBot`].
    Random,
    /// [`GreedyBot`].
    Greedy,
    /// [`HeuristicBot`].
    Heuristic,
    /// [`crate::search::ismcts::IsmctsBot`] with its parameters.
    Ismcts(IsmctsParams),
    /// [`PimcBot`](crate::solver::PimcBot): `worlds` sampled worlds solved per card.
    Pimc {
        /// Worlds per decision.
        worlds: u32,
    },
}

/// The bots a [`BotSpec`] may name.
pub const BOT_NAMES: &str = "random, greedy, heuristic, ismcts, pimc";

impl BotSpec {
    /// Parses `name` or `name:key=value,...` (values are numbers).
    pub fn parse(text: &str) -> Result<BotSpec, Error> {
        let (name, rest) = text.split_once(':').unwrap_or((text, ""));
        let mut params = Params::parse(text, rest)?;
        let spec = match name.trim().to_ascii_lowercase().as_str() {
            "random" => BotSpec::Random,
            "greedy" => BotSpec::Greedy,
            "heuristic" => BotSpec::Heuristic,
            "ismcts" => BotSpec::Ismcts(IsmctsParams::take(&mut params)?),
            "pimc" => BotSpec::Pimc {
                worlds: params.take_whole(
                    "worlds",
                    crate::solver::DEFAULT_WORLDS,
                    1,
                    crate::solver::MAX_WORLDS,
                )?,
            },
            other => {
                return Err(Error::invalid(format!(
                    "unknown bot {other:?}: one of {BOT_NAMES}"
                )))
            }
        };
        params.finish()?;
        Ok(spec)
    }

    /// Whether this is the uniform random bot (simulation has a fast path for it).
    pub fn is_random(&self) -> bool {
        *self == BotSpec::Random
    }

    /// Builds the bot.
    pub fn build(&self) -> Box<dyn Policy> {
        match self {
            BotSpec::Random => Box::new(RandomBot),
            BotSpec::Greedy => Box::new(GreedyBot),
            BotSpec::Heuristic => Box::new(HeuristicBot),
            BotSpec::Ismcts(params) => Box::new(IsmctsBot::new(*params)),
            BotSpec::Pimc { worlds } => Box::new(crate::solver::PimcBot::new(*worlds)),
        }
    }
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotSpec::Random => f.write_str("random"),
            BotSpec::Greedy => f.write_str("greedy"),
            BotSpec::Heuristic => f.write_str("heuristic"),
            BotSpec::Ismcts(p) => {
                write!(
                    f,
                    "ismcts:iterations={},c={},threads={},seed={},playout={},bid={}",
                    p.iterations,
                    p.c,
                    p.threads,
                    p.seed,
                    (p.playout == Playout::Greedy) as u8,
                    p.heuristic_bid as u8
                )?;
                if p.millis > 0 {
                    write!(f, ",millis={}", p.millis)?;
                }
                Ok(())
            }
            BotSpec::Pimc { worlds } => write!(f, "pimc:worlds={worlds}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_check_and_print() {
        let spec = BotSpec::parse("Greedy").unwrap();
        assert_eq!(spec.to_string(), "greedy");
        assert!(BotSpec::parse("oracle").is_err());
        assert!(BotSpec::parse("random:depth=3").is_err());
        assert!(BotSpec::parse("random:depth").is_err());
        assert!(BotSpec::parse(" random ").unwrap().is_random());
        let ismcts = BotSpec::parse("ismcts:iterations=50,c=1.5,threads=2,seed=9").unwrap();
        assert_eq!(
            ismcts.to_string(),
            "ismcts:iterations=50,c=1.5,threads=2,seed=9,playout=1,bid=1"
        );
        assert_eq!(BotSpec::parse(&ismcts.to_string()).unwrap(), ismcts);
        assert!(BotSpec::parse("ismcts:iterations=0").is_err());
        assert!(BotSpec::parse("ismcts:c=-1").is_err());
    }
}
