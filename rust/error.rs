//! The one error type of the core. Python sees `InvalidInputError` for the input variants and
//! `IllegalActionError` for [`Error::Illegal`] (rust/py/ does the one conversion).

use std::fmt;

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
        action: String,
        rule: &'static str,
        state: String,
        reason: String,
    },
}

impl Error {
    pub(crate) fn invalid(message: impl Into<String>) -> Error {
        Error::Invalid(message.into())
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
