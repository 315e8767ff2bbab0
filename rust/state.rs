//! The hand state machine (RULES.md R2-R6 with `declarations = "auto"`): a `Copy` value with a
//! checked `apply` for users and an unchecked one for search and simulation.
//!
//! Action ids are RULES.md R0: 0-35 play that card, 36-39 call trump C D H S, 40 pass; table
//! mode's 41-45 (docs/TABLE.md) are played by `table::TableHand`, which wraps this state. Legal
//! actions are a 64-bit mask over those ids. Nothing here allocates.

use crate::cards::{Card, CardSet, Rank, Suit};
use crate::deal::{deal_from_seed, Deal, FIRST_PACKETS};
use crate::error::Error;
use crate::rules::Rules;
use crate::runs::{has_bella, run_winner, runs_summary};
use crate::scoring::{score_hand, Outcome, BELLA_POINTS, LAST_TRICK_BONUS};
use crate::seats::{eldest, next_seat, partner, right_of, seat_after, team_of, SEATS};
use crate::tricks::{broken_rule, card_points, legal_plays, TrickSoFar};

/// The id of "call clubs"; the four calls are `CALL_BASE + suit` (R0).
pub const CALL_BASE: u8 = 36;
/// The id of "pass" (R0).
pub const PASS: u8 = 40;
/// Table mode (docs/TABLE.md): announce runs (R4.4, R8.6d).
pub const ANNOUNCE: u8 = 41;
/// Table mode: show runs (R4.4, R8.6d).
pub const SHOW: u8 = 42;
/// Table mode: call bella (R4.5, R8.6e).
pub const BELLA: u8 = 43;
/// Table mode: call a misplay (R8.2), by any seat.
pub const MISPLAY: u8 = 44;
/// Table mode: throw the hand in (R8.3), by any seat.
pub const THROW: u8 = 45;
/// The number of action ids, auto and table mode (0..45).
pub const NUM_ACTIONS: u8 = 46;
const CALL_MASK: u64 = 0xf << CALL_BASE;
const PASS_BIT: u64 = 1 << PASS;
const NO_SEAT: u8 = 0xff;
/// R5.3: nine tricks make a hand.
pub const TRICKS: usize = 9;
/// R4.4 (auto mode): a seat announces its runs (their best points) with its first card...
pub const CARDS_TO_ANNOUNCE: u32 = 1;
/// ...and shows them with its second.
pub const CARDS_TO_SHOW: u32 = 2;
/// R4.4 (auto mode): runs are credited once every player has played a second card.
pub const PLAYS_BEFORE_RUNS: usize = CARDS_TO_SHOW as usize * SEATS as usize;
/// R3.2: after this many passes only the dealer is left to speak.
const PASSES_BEFORE_DEALER: u8 = SEATS - 1;

/// Where a hand stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Naming trump (R3).
    Auction,
    /// Playing tricks (R5); in table mode also the time for calls (R8.6a).
    Play,
    /// The hand is over.
    Done,
}

impl Phase {
    /// The phase's name as the Python `Phase` spells it.
    pub const fn name(self) -> &'static str {
        match self {
            Phase::Auction => "auction",
            Phase::Play => "play",
            Phase::Done => "done",
        }
    }
}

/// One hand of Tarabish, from the deal to the score. Cheap to copy: undo is a saved copy.
///
/// A whole hand, always taking the lowest legal action id (R0: 0-35 play that card, 36-39
/// call, 40 pass):
///
/// ```
/// use tarabish::{Hand, Phase, Rules, CARD_COUNT};
///
/// let mut hand = Hand::from_seed(42, 0, Rules::default(), [0, 0]);
/// assert_eq!(hand.phase(), Phase::Auction);
/// while !hand.is_terminal() {
///     let legal = hand.legal_mask(); // bit i set: action id i is legal
///     hand.apply(legal.trailing_zeros() as u8).unwrap();
/// }
/// assert!(hand.outcome().is_some());
/// let [team0, team1] = hand.points();
/// assert!(team0 + team1 >= CARD_COUNT); // cards and last, plus any runs and bella (R6.1)
/// assert!(hand.apply(40).is_err()); // R5.3: nothing after the end
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Hand {
    rules: Rules,
    dealer: u8,
    scores_before: [u32; 2],
    /// The cards each seat was dealt, in the order received (the last three are its kitty).
    deal: Deal,
    /// The cards each seat still holds.
    hands: [CardSet; 4],
    phase: Phase,
    to_move: u8,
    passes: u8,
    /// The seat that may not pass under R3.4 (`forced_at`), or `NO_SEAT`.
    forced_seat: u8,
    trump: Suit,
    caller: u8,
    /// Every card played, in order.
    plays: [Card; 36],
    n_plays: u8,
    leader: u8,
    trick: TrickSoFar,
    trick_points: u16,
    /// Team points credited so far: cards, last, runs (after 8 plays), bella (R6.1).
    points: [u32; 2],
    /// Card points and last taken in tricks by each seat.
    taken: [u16; 4],
    /// R4.3, decided when trump is named and credited after 8 plays.
    runs_seat: u8,
    runs_points: u16,
    /// R4.5: the seat dealt the trump K and Q, and whether it has been credited.
    bella_seat: u8,
    /// The trump K and Q when a seat holds both (R4.5), so a play tests one mask.
    bella_cards: CardSet,
    bella_credited: bool,
    outcome: Option<Outcome>,
    score: [u32; 2],
}

/// A completed trick.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrickRecord {
    /// The seat that led it.
    pub leader: u8,
    /// Its cards in play order, the leader's first.
    pub cards: [Card; 4],
    /// The seat that won it (R5.2).
    pub winner: u8,
    /// Card points, plus the 10 for the ninth trick (R1.4).
    pub points: u32,
}

impl Hand {
    /// A hand dealt from an explicit deal (checked by `deal::check_deal`).
    pub fn from_deal(deal: Deal, dealer: u8, rules: Rules, scores_before: [u32; 2]) -> Hand {
        debug_assert!(dealer < 4);
        let mut hands = [CardSet::EMPTY; 4];
        for (seat, cards) in deal.iter().enumerate() {
            hands[seat] = cards.iter().copied().collect();
        }
        Hand {
            rules,
            dealer,
            scores_before,
            deal,
            hands,
            phase: Phase::Auction,
            to_move: eldest(dealer),
            passes: 0,
            forced_seat: forced_seat(&rules, dealer, scores_before),
            trump: Suit::Clubs,
            caller: NO_SEAT,
            plays: [Card::from_index_unchecked(0); 36],
            n_plays: 0,
            leader: eldest(dealer),
            trick: TrickSoFar::EMPTY,
            trick_points: 0,
            points: [0; 2],
            taken: [0; 4],
            runs_seat: NO_SEAT,
            runs_points: 0,
            bella_seat: NO_SEAT,
            bella_cards: CardSet::EMPTY,
            bella_credited: false,
            outcome: None,
            score: [0; 2],
        }
    }

    /// A hand dealt from hand seed `seed` (docs/ENGINE.md "Randomness").
    pub fn from_seed(seed: u64, dealer: u8, rules: Rules, scores_before: [u32; 2]) -> Hand {
        Hand::from_deal(deal_from_seed(seed, dealer), dealer, rules, scores_before)
    }

    /// The rules the hand is played under (R9).
    pub fn rules(&self) -> &Rules {
        &self.rules
    }
    /// The dealer's seat (R2.2).
    pub fn dealer(&self) -> u8 {
        self.dealer
    }
    /// The match totals before the hand (they decide R3.4).
    pub fn scores_before(&self) -> [u32; 2] {
        self.scores_before
    }
    /// The deal as received, nine cards a seat, the last three the kitty (R2.4).
    pub fn deal(&self) -> &Deal {
        &self.deal
    }
    /// Where the hand stands: auction, play or done.
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// True once the hand is over (R5.3, or void by R3.3).
    pub fn is_terminal(&self) -> bool {
        self.phase == Phase::Done
    }
    /// The seat to act, `None` once the hand is over.
    pub fn to_move(&self) -> Option<u8> {
        (self.phase != Phase::Done).then_some(self.to_move)
    }
    /// Trump once named.
    pub fn trump(&self) -> Option<Suit> {
        (self.caller != NO_SEAT).then_some(self.trump)
    }
    /// The seat that named trump, once named (R3).
    pub fn caller(&self) -> Option<u8> {
        (self.caller != NO_SEAT).then_some(self.caller)
    }
    /// The cards `seat` still holds.
    pub fn hand(&self, seat: usize) -> CardSet {
        self.hands[seat]
    }
    /// The cards `seat` was dealt.
    pub fn dealt(&self, seat: usize) -> CardSet {
        self.deal[seat].iter().copied().collect()
    }
    /// The first six cards `seat` received: all it may know before trump is named (R2.4).
    pub fn first_six(&self, seat: usize) -> CardSet {
        self.deal[seat][..FIRST_PACKETS].iter().copied().collect()
    }
    /// The cards played so far, in order.
    pub fn plays(&self) -> &[Card] {
        &self.plays[..self.n_plays as usize]
    }
    /// The passes so far in the auction (R3.1).
    pub fn passes(&self) -> u8 {
        self.passes
    }
    /// Each team's points credited so far: cards, last, runs and bella once known (R6.1).
    pub fn points(&self) -> [u32; 2] {
        self.points
    }
    /// Card points and last taken in tricks by `seat` so far (R1.3, R1.4).
    pub fn taken_by(&self, seat: usize) -> u32 {
        self.taken[seat] as u32
    }
    /// How the hand ended (R6), once over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
    /// What each team scores (R6), once the hand is over.
    pub fn score(&self) -> [u32; 2] {
        self.score
    }
    /// The run winner (R4.3) and all run points credited, once 8 cards are played.
    pub fn runs_scored(&self) -> Option<(u8, u32)> {
        (self.n_plays as usize >= PLAYS_BEFORE_RUNS && self.runs_seat != NO_SEAT)
            .then_some((self.runs_seat, self.runs_points as u32))
    }
    /// The run winner (R4.3) and all the run points it will be credited, decided when trump
    /// is named (auto mode) though credited only after 8 plays: fixed by the position.
    pub fn runs_decided(&self) -> Option<(u8, u32)> {
        (self.runs_seat != NO_SEAT).then_some((self.runs_seat, self.runs_points as u32))
    }
    /// The seat dealt the trump K and Q (R4.5), once trump is named: its bella is credited
    /// when it has played both, so it is fixed by the position.
    pub fn bella_holder(&self) -> Option<u8> {
        (!self.bella_cards.is_empty()).then_some(self.bella_seat)
    }
    /// The seat credited with bella (R4.5), once it is.
    pub fn bella(&self) -> Option<u8> {
        self.bella_credited.then_some(self.bella_seat)
    }
    /// How many cards `seat` has played this hand.
    pub fn cards_played_by(&self, seat: u8) -> u32 {
        9 - self.hands[seat as usize].len()
    }

    /// The legal action ids as a mask (bit = id).
    #[inline(always)]
    pub fn legal_mask(&self) -> u64 {
        match self.phase {
            Phase::Auction => {
                if self.may_pass() {
                    CALL_MASK | PASS_BIT
                } else {
                    CALL_MASK
                }
            }
            Phase::Play => legal_plays(
                self.hands[self.to_move as usize],
                &self.trick,
                self.trump,
                &self.rules,
            )
            .bits(),
            Phase::Done => 0,
        }
    }

    #[inline]
    fn may_pass(&self) -> bool {
        let stuck = self.passes == PASSES_BEFORE_DEALER && !self.rules.dealer_may_pass;
        !stuck && self.to_move != self.forced_seat
    }

    /// Applies a legal action id. The caller guarantees legality (`legal_mask`); for search
    /// and simulation.
    #[inline(always)]
    pub fn apply_unchecked(&mut self, action: u8) {
        debug_assert!(self.legal_mask() & (1 << action) != 0);
        if action < CALL_BASE {
            self.play(Card::from_index_unchecked(action));
        } else if action == PASS {
            self.passes += 1;
            if self.passes == 4 {
                // R3.3: everyone passed; the hand is void.
                self.phase = Phase::Done;
                self.outcome = Some(Outcome::Void);
            } else {
                self.to_move = next_seat(self.to_move);
            }
        } else {
            self.call(Suit::from_index(action - CALL_BASE));
        }
    }

    /// The cards the seat to move may play (R5.1), in the play phase: the fast path of
    /// search and playouts, without the phase dispatch of [`Hand::legal_mask`].
    #[inline(always)]
    pub fn legal_cards(&self) -> CardSet {
        debug_assert_eq!(self.phase, Phase::Play);
        legal_plays(
            self.hands[self.to_move as usize],
            &self.trick,
            self.trump,
            &self.rules,
        )
    }

    /// Plays a card from [`Hand::legal_cards`] (unchecked beyond debug assertions).
    #[inline(always)]
    pub fn play_unchecked(&mut self, card: Card) {
        debug_assert!(self.legal_cards().contains(card));
        self.play(card);
    }

    /// Checks an action id against the rules and applies it; on error the state is unchanged.
    pub fn apply(&mut self, action: u8) -> Result<(), Error> {
        self.check(action)?;
        self.apply_unchecked(action);
        Ok(())
    }

    /// Checks that `seat` (the seat to move when `None`) may take action `action` now (R3,
    /// R5.1), with an error naming the action, the rule and the state.
    pub fn check_for(&self, seat: Option<u8>, action: u8) -> Result<(), Error> {
        let Some(seat) = seat else {
            return self.check(action);
        };
        if action > PASS || seat > 3 {
            return Err(Error::invalid(format!(
                "action id {action} for seat {seat} is not an auto-mode action (ids 0..40, \
                 seats 0..3; R0; table mode's ids are played by table::TableHand)"
            )));
        }
        if self.phase != Phase::Done && seat != self.to_move {
            let rule = if self.phase == Phase::Auction {
                "R3.1"
            } else {
                "R5.1"
            };
            return Err(self.illegal(
                seat,
                action,
                rule,
                format!("it is seat {}'s turn, not seat {seat}'s", self.to_move),
            ));
        }
        self.check_as(seat, action)
    }

    /// Checks action id `action` for the seat to move (no seat once the hand is over).
    pub fn check(&self, action: u8) -> Result<(), Error> {
        self.check_as(self.to_move().unwrap_or(NO_SEAT), action)
    }

    /// Checks action id `action`, naming `seat` in any error.
    fn check_as(&self, seat: u8, action: u8) -> Result<(), Error> {
        if action > PASS {
            return Err(Error::invalid(format!(
                "action id {action} is not an auto-mode action (ids 0..40; R0; table mode's \
                 ids are played by table::TableHand)"
            )));
        }
        if self.legal_mask() & (1 << action) != 0 {
            return Ok(());
        }
        let (rule, reason) = match self.phase {
            Phase::Done => ("R5.3", "the hand is over".to_string()),
            Phase::Auction if action < CALL_BASE => (
                "R3.1",
                "no card is played before trump is named".to_string(),
            ),
            // A dealer both stuck and forced is named stuck: R3.2 holds whatever the scores.
            Phase::Auction
                if self.passes == PASSES_BEFORE_DEALER && !self.rules.dealer_may_pass =>
            {
                ("R3.2", "the dealer is stuck and must call".to_string())
            }
            Phase::Auction => (
                "R3.4",
                format!("seat {seat}'s team is forced to call (forced_at)"),
            ),
            Phase::Play if action >= CALL_BASE => (
                "R3.1",
                "trump is already named; no one speaks twice".to_string(),
            ),
            Phase::Play => {
                let card = Card::from_index_unchecked(action);
                let hand = self.hands[seat as usize];
                if !hand.contains(card) {
                    ("R5.1", format!("seat {seat} does not hold {card}"))
                } else {
                    let rule = broken_rule(hand, &self.trick);
                    let legal = CardSet(self.legal_mask());
                    (rule, format!("seat {seat} must play one of {legal}"))
                }
            }
        };
        Err(self.illegal(seat, action, rule, reason))
    }

    fn illegal(&self, seat: u8, action: u8, rule: &'static str, reason: String) -> Error {
        Error::Illegal {
            action: action_text(seat, action),
            rule,
            state: self.describe(),
            reason,
        }
    }

    /// A one-line description of the state, for error messages.
    pub fn describe(&self) -> String {
        let mut text = format!("dealer {}, {}", self.dealer, self.phase.name());
        if let Some(trump) = self.trump() {
            text += &format!(", trump {trump} called by seat {}", self.caller);
        }
        if self.phase == Phase::Play {
            let trick: Vec<String> = self.current_trick().iter().map(|c| c.to_string()).collect();
            let seat = self.to_move as usize;
            text += &format!(
                ", trick {} led by seat {}, seat {seat} holds {}",
                if trick.is_empty() {
                    "empty".to_string()
                } else {
                    trick.join(" ")
                },
                self.leader,
                self.hands[seat]
            );
        }
        if let Some(seat) = self.to_move() {
            text += &format!(", seat {seat} to move");
        }
        text
    }

    /// The auction so far as (seat, action id), eldest first.
    pub fn auction(&self) -> impl Iterator<Item = (u8, u8)> {
        auction_of(self.dealer, self.passes, self.trump())
    }

    /// Every action so far as (seat, action id), in order.
    pub fn history(&self) -> Vec<(u8, u8)> {
        self.auction()
            .chain(
                self.plays_by_seat()
                    .map(|(seat, card)| (seat, card.index())),
            )
            .collect()
    }

    /// Every card played so far with the seat that played it, in order.
    pub fn plays_by_seat(&self) -> impl Iterator<Item = (u8, Card)> + '_ {
        let mut leader = eldest(self.dealer);
        let mut trick = TrickSoFar::EMPTY;
        self.plays().iter().map(move |&card| {
            let seat = seat_after(leader, trick.len());
            trick.push(card, self.trump);
            if trick.len() == 4 {
                leader = seat_after(leader, trick.winner());
                trick = TrickSoFar::EMPTY;
            }
            (seat, card)
        })
    }

    /// The cards of the current trick in play order.
    pub fn current_trick(&self) -> &[Card] {
        let n = self.n_plays as usize;
        &self.plays[n - self.trick.len()..n]
    }

    /// The leader of the current trick (while in play).
    pub fn trick_leader(&self) -> Option<u8> {
        (self.phase == Phase::Play).then_some(self.leader)
    }

    /// The completed tricks, in order.
    pub fn completed_tricks(&self) -> impl Iterator<Item = TrickRecord> + '_ {
        completed_tricks_of(self.plays(), self.trump, eldest(self.dealer))
    }

    fn call(&mut self, trump: Suit) {
        self.trump = trump;
        self.caller = self.to_move;
        self.phase = Phase::Play;
        self.to_move = eldest(self.dealer); // R3.5: eldest leads.
        self.leader = self.to_move;
        self.declare(self.hands, trump);
    }

    /// R4.3 and R4.5 in auto mode, from the cards dealt: every run is declared (the winner is
    /// credited after 8 plays) and the bella holder found.
    #[inline]
    fn declare(&mut self, dealt: [CardSet; 4], trump: Suit) {
        let declared = AutoDeclarations::of(&dealt, trump, &self.rules);
        (self.runs_seat, self.runs_points) = declared
            .runs
            .map_or((NO_SEAT, 0), |(seat, points)| (seat, points as u16));
        (self.bella_seat, self.bella_cards) = match declared.bella {
            Some(seat) => (
                seat,
                Card::new(trump, Rank::King)
                    .bit()
                    .union(Card::new(trump, Rank::Queen).bit()),
            ),
            None => (NO_SEAT, CardSet::EMPTY),
        };
    }

    /// The same hand had the cards been dealt as `deal`, each seat now holding `hands`: the
    /// public progress (auction, plays, tricks, points) is kept and what follows from the deal
    /// (R4.3 runs, R4.5 bella) is found again. For sampled worlds (docs/SEARCH.md): the caller
    /// guarantees that `deal` agrees with every play and announcement so far, so the result
    /// equals replaying the actions on `deal`, without the replay.
    pub fn redealt(&self, deal: Deal, hands: [CardSet; 4]) -> Hand {
        let mut hand = *self;
        hand.deal = deal;
        hand.hands = hands;
        if self.caller != NO_SEAT {
            let dealt = deal.map(|cards| cards.iter().copied().collect());
            hand.declare(dealt, self.trump);
        }
        hand
    }

    #[inline(always)]
    fn play(&mut self, card: Card) {
        let seat = self.to_move;
        self.hands[seat as usize].remove(card);
        self.plays[self.n_plays as usize] = card;
        self.n_plays += 1;
        self.trick.push(card, self.trump);
        self.trick_points += card_points(card, self.trump) as u16;
        if self.bella_cards.contains(card) {
            self.maybe_credit_bella();
        }
        if self.trick.len() < 4 {
            self.to_move = next_seat(seat);
            return;
        }
        let winner = seat_after(self.leader, self.trick.winner());
        let last = if self.n_plays == 36 {
            LAST_TRICK_BONUS
        } else {
            0
        };
        self.points[team_of(winner)] += self.trick_points as u32 + last;
        self.taken[winner as usize] += self.trick_points + last as u16;
        self.trick = TrickSoFar::EMPTY;
        self.trick_points = 0;
        self.leader = winner;
        self.to_move = winner;
        if self.n_plays as usize == PLAYS_BEFORE_RUNS && self.runs_seat != NO_SEAT {
            self.points[team_of(self.runs_seat)] += self.runs_points as u32;
        }
        if self.n_plays == 36 {
            let (outcome, score) = score_hand(self.points, team_of(self.caller), &self.rules);
            self.outcome = Some(outcome);
            self.score = score;
            self.phase = Phase::Done;
        }
    }

    /// Plays any card the seat to move holds, legal or not: table mode's misplays (R8.1).
    pub(crate) fn play_any(&mut self, card: Card) {
        debug_assert!(
            self.phase == Phase::Play && self.hands[self.to_move as usize].contains(card)
        );
        self.play(card);
    }

    /// Manual declarations (R4.4, R4.5): nothing is credited by itself; `table` credits what
    /// is declared in time through [`Hand::credit`].
    pub(crate) fn clear_auto_declarations(&mut self) {
        self.runs_seat = NO_SEAT;
        self.runs_points = 0;
        self.bella_cards = CardSet::EMPTY;
    }

    /// Credits `points` of runs or bella to `team` (R6.1).
    pub(crate) fn credit(&mut self, team: usize, points: u32) {
        self.points[team] += points;
    }

    /// Ends the hand by a call (R8.2, R8.3) with its outcome and score.
    pub(crate) fn end_by_call(&mut self, outcome: Outcome, score: [u32; 2]) {
        self.phase = Phase::Done;
        self.outcome = Some(outcome);
        self.score = score;
    }

    /// R4.5: bella is credited as the second of the trump K and Q is played.
    #[inline]
    fn maybe_credit_bella(&mut self) {
        let holder = self.bella_seat as usize;
        if self.hands[holder].intersect(self.bella_cards).is_empty() {
            self.bella_credited = true;
            self.points[team_of(self.bella_seat)] += BELLA_POINTS;
        }
    }
}

/// What auto mode declares by itself once trump is named (R4.3, R4.5), fixed by the deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct AutoDeclarations {
    /// The run winner and all the run points it is credited after 8 plays (R4.3, with its
    /// partner's under `team_runs`).
    pub(crate) runs: Option<(u8, u32)>,
    /// The seat dealt the trump K and Q (R4.5).
    pub(crate) bella: Option<u8>,
}

impl AutoDeclarations {
    /// The declarations of the cards each seat was dealt under `trump`.
    #[inline]
    pub(crate) fn of(dealt: &[CardSet; 4], trump: Suit, rules: &Rules) -> AutoDeclarations {
        let mut best = [0u8; 4];
        let mut totals = [0u32; 4];
        let mut bella = None;
        for seat in 0..4 {
            (best[seat], totals[seat]) = runs_summary(dealt[seat], trump);
            if has_bella(dealt[seat], trump) {
                bella = Some(seat as u8);
            }
        }
        AutoDeclarations::of_summaries(best, totals, bella, rules)
    }

    /// The declarations from each seat's best run strength (R4.2, 0 for none) and run points
    /// (`runs_summary`) and the bella holder.
    #[inline]
    pub(crate) fn of_summaries(
        best: [u8; 4],
        totals: [u32; 4],
        bella: Option<u8>,
        rules: &Rules,
    ) -> AutoDeclarations {
        let runs = run_winner(best).map(|seat| {
            let partner_runs = if rules.team_runs {
                totals[partner(seat as u8) as usize]
            } else {
                0
            };
            (seat as u8, totals[seat] + partner_runs)
        });
        AutoDeclarations { runs, bella }
    }
}

/// The auction as (seat, action id), eldest first: `passes` passes from the dealer's left, then
/// the call of `trump` if it is named (R3.1).
pub fn auction_of(dealer: u8, passes: u8, trump: Option<Suit>) -> impl Iterator<Item = (u8, u8)> {
    let first = eldest(dealer);
    let call = trump.map(|suit| CALL_BASE + suit as u8);
    (0..passes)
        .map(move |k| (seat_after(first, k as usize), PASS))
        .chain(call.map(move |id| (seat_after(first, passes as usize), id)))
}

/// The completed tricks of `plays` (every card played, in order) with `eldest` leading the
/// first (R3.5) and each winner the next (R5.2).
pub fn completed_tricks_of(
    plays: &[Card],
    trump: Suit,
    eldest: u8,
) -> impl Iterator<Item = TrickRecord> + '_ {
    let mut leader = eldest;
    plays.chunks_exact(4).enumerate().map(move |(k, chunk)| {
        let cards = [chunk[0], chunk[1], chunk[2], chunk[3]];
        let winner = seat_after(leader, TrickSoFar::of(&cards, trump).winner());
        let last = if k == TRICKS - 1 { LAST_TRICK_BONUS } else { 0 };
        let record = TrickRecord {
            leader,
            cards,
            winner,
            points: cards.iter().map(|&c| card_points(c, trump)).sum::<u32>() + last,
        };
        leader = winner;
        record
    })
}

/// R3.4: the seat that may not pass, given the match scores before the hand.
fn forced_seat(rules: &Rules, dealer: u8, scores: [u32; 2]) -> u8 {
    let Some(at) = rules.forced_at else {
        return NO_SEAT;
    };
    let at = at as u32;
    let team = match (scores[0] >= at, scores[1] >= at) {
        (true, true) if scores[0] == scores[1] => return NO_SEAT,
        (true, true) => (scores[1] > scores[0]) as u8,
        (true, false) => 0,
        (false, true) => 1,
        (false, false) => return NO_SEAT,
    };
    if team as usize == team_of(dealer) {
        dealer
    } else {
        right_of(dealer)
    }
}

/// An action as record text: `"2 call H"`, `"1 play 6S"`, `"0 pass"`; without a seat
/// (`"play 6S"`) when no seat is to move.
pub fn action_text(seat: u8, action: u8) -> String {
    let verb = if action < CALL_BASE {
        format!("play {}", Card::from_index_unchecked(action))
    } else if action < PASS {
        format!("call {}", Suit::from_index(action - CALL_BASE))
    } else if action == PASS {
        "pass".to_string()
    } else {
        match action {
            ANNOUNCE => "announce",
            SHOW => "show",
            BELLA => "bella",
            MISPLAY => "misplay",
            THROW => "throw",
            _ => "unknown",
        }
        .to_string()
    };
    if seat < 4 {
        format!("{seat} {verb}")
    } else {
        verb
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpu::test_cases;
    use crate::rng::SplitMix64;
    use crate::seats::seat_of;
    use crate::tricks::set_points;

    /// Plays random legal actions, checking the invariants of docs/TESTING.md (layer 3) after
    /// every one.
    fn random_hand(seed: u64, rules: Rules) -> Hand {
        let mut rng = SplitMix64::new(seed);
        let mut hand = Hand::from_seed(rng.next_u64(), seat_of(seed), rules, [0, 0]);
        while !hand.is_terminal() {
            let mask = hand.legal_mask();
            assert_ne!(mask, 0, "a running hand has a legal action");
            for id in 0..=PASS {
                let mut copy = hand;
                let result = copy.apply(id);
                assert_eq!(result.is_ok(), mask & (1 << id) != 0, "id {id}");
                if result.is_err() {
                    assert_eq!(copy, hand, "a rejected action changes nothing");
                }
            }
            let held: u32 = (0..4).map(|s| hand.hand(s).len()).sum();
            assert_eq!(held as usize + hand.plays().len(), 36);
            let action = CardSet(mask).nth(rng.below(mask.count_ones())).index();
            hand.apply_unchecked(action);
        }
        hand
    }

    #[test]
    fn played_out_hands_count_162_plus_runs_and_bella() {
        for seed in 0..test_cases("played_out_hands_count_162_plus_runs_and_bella", 300) {
            let hand = random_hand(seed, Rules::default());
            let runs = hand.runs_scored().map_or(0, |(_, points)| points);
            let bella = if hand.bella().is_some() { 20 } else { 0 };
            let count = hand.points()[0] + hand.points()[1];
            assert_eq!(count, 162 + runs + bella, "seed {seed}");
            let trick_sum: u32 = hand.completed_tricks().map(|t| t.points).sum();
            assert_eq!(trick_sum, 162);
            assert_eq!(set_points(CardSet::DECK, hand.trump().unwrap()) + 10, 162);
            let (outcome, score) = score_hand(
                hand.points(),
                (hand.caller().unwrap() & 1) as usize,
                &Rules::default(),
            );
            assert_eq!((Some(outcome), score), (hand.outcome(), hand.score()));
        }
    }

    #[test]
    fn each_trick_winner_leads_the_next() {
        let hand = random_hand(99, Rules::default());
        let tricks: Vec<TrickRecord> = hand.completed_tricks().collect();
        assert_eq!(tricks.len(), 9);
        for pair in tricks.windows(2) {
            assert_eq!(pair[0].winner, pair[1].leader);
        }
        assert_eq!(tricks[0].leader, eldest(hand.dealer()));
    }

    #[test]
    fn r3_2_stuck_dealer_and_r3_3_void() {
        let mut hand = Hand::from_seed(5, 2, Rules::default(), [0, 0]);
        for _ in 0..3 {
            hand.apply(PASS).unwrap();
        }
        assert_eq!(hand.to_move(), Some(2));
        assert!(matches!(
            hand.apply(PASS),
            Err(Error::Illegal { rule: "R3.2", .. })
        ));
        let rules = Rules {
            dealer_may_pass: true,
            ..Rules::default()
        };
        let mut hand = Hand::from_seed(5, 2, rules, [0, 0]);
        for _ in 0..4 {
            hand.apply(PASS).unwrap();
        }
        assert_eq!(hand.outcome(), Some(Outcome::Void));
        assert_eq!(hand.score(), [0, 0]);
    }

    #[test]
    fn r3_4_forced_seat() {
        let rules = Rules {
            forced_at: Some(400),
            ..Rules::default()
        };
        // Team 1 forced, dealer 0 on team 0: seat 3 (dealer's right) may not pass.
        assert_eq!(forced_seat(&rules, 0, [100, 410]), 3);
        // Team 0 forced and holds the deal: the dealer may not pass.
        assert_eq!(forced_seat(&rules, 2, [450, 410]), 2);
        assert_eq!(forced_seat(&rules, 2, [420, 420]), NO_SEAT);
        assert_eq!(forced_seat(&rules, 2, [399, 0]), NO_SEAT);
    }
}
