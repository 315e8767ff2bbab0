//! The rule variants of RULES.md R9 that change the engine's rulings. Table mode (R8, manual
//! declarations) is not implemented; the Python layer rejects those options.

/// Which variant of each rule is in force; `Default` is RULES.md R9's defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// R7.1: points that end the match.
    pub target: u16,
    /// R3.3: the dealer may pass too, voiding the hand.
    pub dealer_may_pass: bool,
    /// R3.4: a team with at least this many points must call.
    pub forced_at: Option<u16>,
    /// R4.3: the run winner's partner's runs score too.
    pub team_runs: bool,
    /// R5.1a: beat the highest card of a plain suit led, if possible, when no trump is in.
    pub head_plain: bool,
    /// R5.1b: a player who cannot beat the highest trump may play any card.
    pub undertrump_optional: bool,
    /// R5.1: a player void in the suit led whose partner is winning may play any card.
    pub partner_exempt: bool,
    /// R6.4: a half bait gives the other team the whole count.
    pub half_bait_is_bait: bool,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            target: 500,
            dealer_may_pass: false,
            forced_at: None,
            team_runs: false,
            head_plain: false,
            undertrump_optional: false,
            partner_exempt: false,
            half_bait_is_bait: false,
        }
    }
}
