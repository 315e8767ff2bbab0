//! Bots behind one interface: a [`Policy`] chooses an action from an [`InfoSet`] (what its seat
//! knows, nothing more) and the legal action ids; [`Params`] are the `key=value` parameters of a
//! bot's spec, which each bot's own parser takes (the specs themselves are rust/registry.rs,
//! which imports every bot; no bot imports it). The rule-of-thumb bots are in rust/bots/, one
//! file a bot; ISMCTS is in rust/search/ and PIMC in rust/solver/.

pub(crate) mod greedy;
pub(crate) mod heuristic;
pub(crate) mod random;

use crate::error::Error;
use crate::infoset::InfoSet;
use crate::rng::SplitMix64;

/// A bot: chooses one of the `legal` action ids (a mask, bit = id, never empty) for the seat of
/// `info`, which is to move. Sees only the information set; draws any randomness from `rng`
/// (seeded per game by the caller, so a batch gives the same results on any thread).
pub trait Policy: Send {
    /// The action id to take.
    fn act(&mut self, info: &InfoSet, legal: u64, rng: &mut SplitMix64) -> u8;
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
