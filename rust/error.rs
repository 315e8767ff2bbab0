//! The one error type of the core. Python sees `InvalidInputError` for the input variants and
//! `IllegalActionError` for [`Error::Illegal`] (rust/py/ does the one conversion).

use std::fmt;

/// Every fault the core reports: bad input, or an action the rules forbid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// Card text that is not rank then suit (R0).
    BadCard(String),
    /// Suit text that is not one of C D H S (R0).
    BadSuit(String),
    /// Input that breaks the shape of the game: a card twice, a hand of 10, a trick of 4 …
    Invalid(String),
    /// An action the rules forbid in this state; the state is unchanged.
    Illegal {
        /// The action as text (`"2 play JH"`).
        action: String,
        /// The rule it breaks (`"R5.1b"`).
        rule: &'static str,
        /// The state, described for a person (dealer, phase, trump, trick, the seat's cards).
        state: String,
        /// Why the rule forbids it.
        reason: String,
    },
}

impl Error {
    pub(crate) fn invalid(message: impl Into<String>) -> Error {
        Error::Invalid(message.into())
    }
}

/// How many characters of a bad input an error message quotes (python/tarabish/_errors.py
/// `EXCERPT_CHARS` is the same), so a megabyte of bad text makes a short message.
pub const EXCERPT_CHARS: usize = 60;

/// `text` as an error message quotes it: the first [`EXCERPT_CHARS`] characters, and the
/// length when cut.
pub fn excerpt(text: &str) -> String {
    match text.char_indices().nth(EXCERPT_CHARS) {
        None => text.to_string(),
        Some((cut, _)) => format!("{}... ({} bytes)", &text[..cut], text.len()),
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::BadCard(text) => write!(
                f,
                "unknown card {text:?}: expected rank (6-9 T J Q K A) then suit (C D H S)"
            ),
            Error::BadSuit(text) => {
                write!(f, "unknown suit {text:?}: expected one of C D H S (R0)")
            }
            Error::Invalid(message) => f.write_str(message),
            Error::Illegal {
                action,
                rule,
                state,
                reason,
            } => write!(f, "illegal action {action}: {rule} {reason} ({state})"),
        }
    }
}

impl std::error::Error for Error {}
