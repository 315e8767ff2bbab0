//! The rule variants of RULES.md R9: every option, auto mode's and table mode's (R4.4, R4.5,
//! R8; played by `table::TableHand`, docs/TABLE.md).

/// R4.4: who declares runs and bella.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Declarations {
    /// Runs and bella are declared by themselves as cards are played (simulation, AI).
    Auto,
    /// Runs and bella are actions of their own, lost when their window is missed (R8.5).
    Manual,
}

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
    /// R4.4: automatic or manual declarations.
    pub declarations: Declarations,
    /// R4.5, manual mode: a bella called on the first of the trump K and Q counts.
    pub first_bell_ok: bool,
    /// R4.4, manual mode: an announced fifty not shown in trick two may be shown as a twenty in
    /// trick three.
    pub late_twenty: bool,
    /// R8: illegal plays are refused (`true`) or accepted as misplays (`false`).
    pub enforce_legal_play: bool,
}

impl Rules {
    /// Whether any table-mode option (R8) is on: manual declarations or accepted misplays.
    pub fn is_table_mode(&self) -> bool {
        self.declarations == Declarations::Manual || !self.enforce_legal_play
    }
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
            declarations: Declarations::Auto,
            first_bell_ok: false,
            late_twenty: false,
            enforce_legal_play: true,
        }
    }
}
