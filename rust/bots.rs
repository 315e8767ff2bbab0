//! Bots behind one interface: a [`Policy`] chooses an action from an [`InfoSet`] (what its seat
//! knows, nothing more) and the legal action ids; a [`BotSpec`] names a bot and its parameters
//! (`"ismcts:iterations=2000,c=0.7"`) and builds it. Here: the uniform random bot (the playout
//! policy of docs/ENGINE.md, picking the k-th set bit of the legal mask) and the greedy bot that
//! calls on strength and plays the cheapest winning card.

use std::fmt;

use crate::bits::select;
use crate::cards::{Card, CardSet, Suit};
use crate::error::Error;
use crate::heuristic::HeuristicBot;
use crate::infoset::InfoSet;
use crate::rng::SplitMix64;
use crate::search::ismcts::{IsmctsBot, IsmctsParams, Playout};
use crate::state::{Phase, CALL_BASE, PASS};
use crate::tricks::{card_points, strength, TrickSoFar};

/// A bot: chooses one of the `legal` action ids (a mask, bit = id, never empty) for the seat of
/// `info`, which is to move. Sees only the information set; draws any randomness from `rng`
/// (seeded per game by the caller, so a batch gives the same results on any thread).
pub trait Policy: Send {
    /// The action id to take.
    fn act(&mut self, info: &InfoSet, legal: u64, rng: &mut SplitMix64) -> u8;
}

/// Every legal action equally likely.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomBot;

impl Policy for RandomBot {
    #[inline]
    fn act(&mut self, _info: &InfoSet, legal: u64, rng: &mut SplitMix64) -> u8 {
        random_action(legal, rng)
    }
}

/// Calls its strongest suit when it is strong enough; wins tricks cheaply, feeds points to a
/// winning partner, and throws its cheapest card otherwise.
#[derive(Clone, Copy, Debug, Default)]
pub struct GreedyBot;

impl Policy for GreedyBot {
    fn act(&mut self, info: &InfoSet, legal: u64, _rng: &mut SplitMix64) -> u8 {
        greedy_action(info, legal)
    }
}

/// A bot and its parameters. Text form `name` or `name:key=value,key=value` (what `simulate`,
/// `play --bot` and tournaments take); [`BotSpec::parse`] checks names, keys and ranges, so a
/// spec always builds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BotSpec {
    /// [`RandomBot`].
    Random,
    /// [`GreedyBot`].
    Greedy,
    /// [`crate::heuristic::HeuristicBot`].
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

/// The `key=value` parameters of a bot spec, taken one by one by the bot's parser.
#[derive(Clone, Debug)]
pub struct Params {
    text: String,
    items: Vec<(String, f64)>,
}

impl Params {
    /// Parses `key=number,...` of the spec `text`.
    pub fn parse(text: &str, items: &str) -> Result<Params, Error> {
        let mut params = Params {
            text: text.to_string(),
            items: Vec::new(),
        };
        for item in items.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let parsed = item.split_once('=').and_then(|(k, v)| {
                let value = v.trim().parse::<f64>().ok().filter(|v| v.is_finite())?;
                Some((k.trim().to_ascii_lowercase(), value))
            });
            match parsed {
                Some(pair) => params.items.push(pair),
                None => {
                    return Err(Error::invalid(format!(
                        "bot {text:?}: parameter {item:?} is not key=number"
                    )))
                }
            }
        }
        Ok(params)
    }

    /// Takes parameter `key` (the last one given wins), or `default`; an error unless it lies
    /// in `min..=max`.
    pub fn take(&mut self, key: &str, default: f64, min: f64, max: f64) -> Result<f64, Error> {
        let mut value = default;
        self.items.retain(|(k, v)| {
            if k == key {
                value = *v;
            }
            k != key
        });
        if !(min..=max).contains(&value) {
            return Err(Error::invalid(format!(
                "bot {:?}: {key} must be in {min}..={max}, got {value}",
                self.text
            )));
        }
        Ok(value)
    }

    /// Takes whole-number parameter `key` (see [`Params::take`]).
    pub fn take_whole(
        &mut self,
        key: &str,
        default: u32,
        min: u32,
        max: u32,
    ) -> Result<u32, Error> {
        let value = self.take(key, default as f64, min as f64, max as f64)?;
        if value.fract() != 0.0 {
            return Err(Error::invalid(format!(
                "bot {:?}: {key} must be a whole number, got {value}",
                self.text
            )));
        }
        Ok(value as u32)
    }

    /// An error naming a parameter no one took.
    pub fn finish(self) -> Result<(), Error> {
        match self.items.first() {
            Some((key, _)) => Err(Error::invalid(format!(
                "bot {:?}: unknown parameter {key:?}",
                self.text
            ))),
            None => Ok(()),
        }
    }
}

/// A uniformly random id of `mask` (not empty): the `below(popcount)`-th set bit.
#[inline]
pub fn random_action(mask: u64, rng: &mut SplitMix64) -> u8 {
    select(mask, rng.below(mask.count_ones())) as u8
}

fn greedy_action(info: &InfoSet, mask: u64) -> u8 {
    if info.phase() == Phase::Auction {
        return greedy_call(info, mask);
    }
    let Some(trump) = info.trump() else {
        return mask.trailing_zeros() as u8;
    };
    let legal = CardSet(mask);
    let trick = info.current_trick();
    let cheapest = |cards: CardSet| -> Card {
        cards
            .iter()
            .min_by_key(|&c| (card_points(c, trump), strength(c, trump), c.suit() == trump))
            .unwrap_or_else(|| Card::from_index_unchecked(mask.trailing_zeros() as u8))
    };
    if trick.is_empty() {
        // Lead a plain ace if there is one; else the cheapest card.
        let aces = legal
            .iter()
            .find(|c| c.suit() != trump && strength(*c, trump) == 8);
        return aces.unwrap_or_else(|| cheapest(legal)).index();
    }
    let so_far = *info.trick();
    let position = trick.len();
    if position >= 2 && so_far.winner() == position - 2 {
        // The partner is winning: add the most points that are not a trump J or 9.
        let feed = legal
            .iter()
            .filter(|c| c.suit() != trump)
            .max_by_key(|&c| card_points(c, trump));
        return feed.unwrap_or_else(|| cheapest(legal)).index();
    }
    let winners: CardSet = legal
        .iter()
        .filter(|&card| wins_so_far(so_far, card, trump))
        .collect();
    if winners.is_empty() {
        cheapest(legal).index()
    } else {
        winners
            .iter()
            .min_by_key(|&c| (c.suit() == trump, strength(c, trump)))
            .unwrap_or_else(|| cheapest(winners))
            .index()
    }
}

/// Whether `card` played to `trick` would be winning it so far (R5.2).
pub fn wins_so_far(trick: TrickSoFar, card: Card, trump: Suit) -> bool {
    let mut next = trick;
    next.push(card, trump);
    next.winner() == trick.len()
}

/// Calls the suit whose known cards are worth most as trump, if worth enough or if passing is
/// not allowed.
fn greedy_call(info: &InfoSet, mask: u64) -> u8 {
    let known = info.hand();
    let value = |suit: Suit| -> u32 {
        known
            .of_suit(suit)
            .iter()
            .map(|c| card_points(c, suit) + 6)
            .sum::<u32>()
            + known
                .iter()
                .filter(|c| c.suit() != suit && strength(*c, suit) == 8)
                .count() as u32
                * 8
    };
    let best = Suit::ALL
        .into_iter()
        .max_by_key(|&s| value(s))
        .unwrap_or(Suit::Clubs);
    let may_pass = mask & (1 << PASS) != 0;
    if may_pass && value(best) < 50 {
        PASS
    } else {
        CALL_BASE + best as u8
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
