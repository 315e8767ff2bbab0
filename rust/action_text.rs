//! Action text, the record format's form of an action (docs/RULES.md R0, docs/RECORDS.md):
//! `"<seat> <verb> [argument]"`, e.g. `"2 call H"`, `"1 play 6S"`, `"0 pass"`. The grammar
//! is ASCII: the seat is one digit 0-3, words are separated by ASCII blanks, the verb is any
//! case, the argument is a suit letter or card text (cards.rs). The Python `Action.parse`
//! (python/tarabish/_actions.py) reads exactly the same texts; the differential tests compare
//! the two.

use crate::cards::{Card, Suit};
use crate::error::{excerpt, Error};
use crate::state::{ANNOUNCE, BELLA, CALL_BASE, MISPLAY, PASS, SHOW, THROW};

/// The longest action text read: longer text is refused before it is split, so a huge
/// string costs no more than a short one. The longest action (`"3 announce"`, `"3 play 10H"`)
/// is 10 characters; the rest leaves room for blanks.
pub const MAX_ACTION_TEXT: usize = 64;

/// What follows a verb.
#[derive(Clone, Copy)]
enum Argument {
    /// Nothing: the verb is the action of this id.
    None(u8),
    /// A suit letter: id `CALL_BASE + suit`.
    Suit,
    /// Card text: the card's index.
    Card,
}

/// Every verb of the grammar, one line a verb. Table mode's (R8, docs/TABLE.md) take no
/// argument.
const VERBS: [(&str, Argument); 8] = [
    ("pass", Argument::None(PASS)),
    ("call", Argument::Suit),
    ("play", Argument::Card),
    ("announce", Argument::None(ANNOUNCE)),
    ("show", Argument::None(SHOW)),
    ("bella", Argument::None(BELLA)),
    ("misplay", Argument::None(MISPLAY)),
    ("throw", Argument::None(THROW)),
];

fn malformed(text: &str) -> Error {
    let verbs: Vec<&str> = VERBS.iter().map(|(verb, _)| *verb).collect();
    Error::invalid(format!(
        "malformed action {:?}: expected '<seat 0-3> <verb> [suit or card]', verbs {} (R0)",
        excerpt(text),
        verbs.join(", ")
    ))
}

/// The (seat, action id) of action text.
pub fn parse_action(text: &str) -> Result<(u8, u8), Error> {
    if text.len() > MAX_ACTION_TEXT {
        return Err(Error::invalid(format!(
            "action text {:?} is longer than {MAX_ACTION_TEXT} characters (R0)",
            excerpt(text)
        )));
    }
    let mut words = text
        .split(|c: char| c.is_ascii_whitespace())
        .filter(|word| !word.is_empty());
    let (Some(seat), Some(verb)) = (words.next(), words.next()) else {
        return Err(malformed(text));
    };
    let argument = words.next();
    if words.next().is_some() {
        return Err(malformed(text));
    }
    let seat = match seat.as_bytes() {
        [digit @ b'0'..=b'3'] => digit - b'0',
        _ => {
            return Err(Error::invalid(format!(
                "action {:?}: the seat is one digit 0..3 (R0), got {:?}",
                excerpt(text),
                excerpt(seat)
            )))
        }
    };
    let Some((_, kind)) = VERBS
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(verb))
    else {
        return Err(malformed(text));
    };
    let id = match (*kind, argument) {
        (Argument::None(id), None) => id,
        (Argument::Suit, Some(suit)) => CALL_BASE + suit.parse::<Suit>()? as u8,
        (Argument::Card, Some(card)) => card.parse::<Card>()?.index(),
        _ => return Err(malformed(text)),
    };
    Ok((seat, id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r0_action_text() {
        assert_eq!(parse_action("2 call H").unwrap(), (2, CALL_BASE + 2));
        assert_eq!(parse_action(" 1\tPLAY 10s ").unwrap(), (1, 3 * 9 + 4));
        assert_eq!(parse_action("0 pass").unwrap(), (0, PASS));
        assert_eq!(parse_action("3 Announce").unwrap(), (3, ANNOUNCE));
    }

    #[test]
    fn only_ascii_and_one_digit_seats() {
        for text in [
            "\u{b2} pass",
            "\u{661} pass",
            "\u{1D7CF} pass",
            "1\u{a0}pass",
            "01 pass",
            "4 pass",
            "-1 pass",
            "1 pass now",
            "1 call",
            "1 pass H",
            "1 play J H",
            "1 call HH",
            "",
            "1",
        ] {
            assert!(parse_action(text).is_err(), "{text:?} parsed");
        }
        let huge = format!("{} pass", "1".repeat(5_000));
        let message = parse_action(&huge).unwrap_err().to_string();
        assert!(message.len() < 200, "{message}");
    }
}
