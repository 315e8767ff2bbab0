//! What one seat knows of a hand (RULES.md R2.4, R4.4 auto mode, R4.5, R5.1): its own cards,
//! the public history, and what that history proves about the cards of the others. Built from
//! the state for one seat; views (rust/observe.rs), bots and world sampling read only this, so
//! none of them can see a hidden card.

use crate::cards::{Card, CardSet, Suit};
use crate::deal::{FIRST_PACKETS, KITTY_SIZE};
use crate::rules::{Declarations, Rules};
use crate::runs::{find_runs, Runs};
use crate::seats::{eldest, seat_after};
use crate::state::{
    auction_of, completed_tricks_of, Hand, Phase, TrickRecord, CARDS_TO_ANNOUNCE, CARDS_TO_SHOW,
};
use crate::table::TableHand;
use crate::tricks::{implied_voids, TrickSoFar};

/// One seat's information set: everything it has seen, and nothing else. A `Copy` value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InfoSet {
    seat: u8,
    rules: Rules,
    dealer: u8,
    scores_before: [u32; 2],
    phase: Phase,
    to_move: Option<u8>,
    /// The seat's own cards as dealt, in order; before trump only the first six are known.
    own_deal: [Card; 9],
    /// The cards the seat holds and can see (its first six only, before trump; R2.4).
    hand: CardSet,
    passes: u8,
    trump: Option<Suit>,
    caller: Option<u8>,
    plays: [Card; 36],
    n_plays: u8,
    /// The leader of the current trick and the trick so far (play phase).
    leader: u8,
    trick: TrickSoFar,
    /// The legal action ids of the seat when it is to move, else 0.
    legal: u64,
    /// The cards each seat has played.
    played_by: [CardSet; 4],
    /// The cards each seat's plays prove it does not hold (R5.1 read backwards).
    cannot_hold: [CardSet; 4],
    /// R4.4 auto mode: the points of each seat's best run once it has played a first card
    /// (0: no run), `None` before.
    announced: [Option<u32>; 4],
    /// R4.4 auto mode: each seat's runs once it has played a second card.
    shown: [Runs; 4],
    runs_scored: Option<(u8, u32)>,
    bella: Option<u8>,
    points: [u32; 2],
}

impl InfoSet {
    /// What `seat` (0-3) knows of `hand`, built from scratch (batches keep it up to date
    /// instead: [`InfoTracker`]).
    pub fn new(hand: &Hand, seat: u8) -> InfoSet {
        let mut info = InfoSet::before_plays(hand);
        if let Some(trump) = hand.trump() {
            for &card in hand.plays() {
                info.read_play(card, trump);
            }
            for who in 0..4u8 {
                // R4.4 auto mode: announced with the first card, shown with the second.
                let played = info.played_by[who as usize].len();
                if played >= CARDS_TO_ANNOUNCE {
                    let runs = find_runs(hand.dealt(who as usize));
                    info.announced[who as usize] = Some(runs.best_points());
                    if played >= CARDS_TO_SHOW {
                        info.shown[who as usize] = runs;
                    }
                }
            }
        }
        info.take_seat(hand, seat);
        info
    }

    /// The public part of what the seats know of `hand` before any card is read: its rules,
    /// dealer, scores, auction and points; no plays, no seat's own cards.
    fn before_plays(hand: &Hand) -> InfoSet {
        InfoSet {
            seat: 0,
            rules: *hand.rules(),
            dealer: hand.dealer(),
            scores_before: hand.scores_before(),
            phase: hand.phase(),
            to_move: hand.to_move(),
            own_deal: [Card::from_index_unchecked(0); 9],
            hand: CardSet::EMPTY,
            passes: hand.passes(),
            trump: hand.trump(),
            caller: hand.caller(),
            plays: [Card::from_index_unchecked(0); 36],
            n_plays: 0,
            leader: eldest(hand.dealer()),
            trick: TrickSoFar::EMPTY,
            legal: 0,
            played_by: [CardSet::EMPTY; 4],
            cannot_hold: [CardSet::EMPTY; 4],
            announced: [None; 4],
            shown: [Runs::NONE; 4],
            runs_scored: hand.runs_scored(),
            bella: hand.bella(),
            points: hand.points(),
        }
    }

    /// Makes this the view of `seat`: its own cards (R2.4) and, when it is to move, its legal
    /// actions. Everything else is public.
    fn take_seat(&mut self, hand: &Hand, seat: u8) {
        let mut own_deal = hand.deal()[seat as usize];
        if hand.trump().is_none() {
            // R2.4: the kitty stays unseen until trump is named; its slots are not the seat's.
            for slot in &mut own_deal[FIRST_PACKETS..] {
                *slot = Card::from_index_unchecked(0);
            }
        }
        self.seat = seat;
        self.own_deal = own_deal;
        self.hand = visible_hand(hand, seat);
        self.legal = if hand.to_move() == Some(seat) {
            hand.legal_mask()
        } else {
            0
        };
    }

    /// What `seat` knows of a hand in any mode (docs/TABLE.md): in manual mode the
    /// declarations as made (R4.4, R4.5); with `enforce_legal_play = false` nothing is read
    /// backwards from the plays, since any play may be a misplay (R8.1).
    pub fn of_table(hand: &TableHand, seat: u8) -> InfoSet {
        let mut info = InfoSet::new(hand.hand(), seat);
        info.take_table(hand);
        info
    }

    /// Turns the view of `hand`'s auto-mode play into the table-mode view (docs/TABLE.md):
    /// the declarations as made in manual mode (R4.4, R4.5), and no reading backwards when
    /// any play may be a misplay (R8.1).
    fn take_table(&mut self, hand: &TableHand) {
        if hand.rules().declarations == Declarations::Manual {
            for who in 0..4u8 {
                self.announced[who as usize] = hand.announced(who);
                self.shown[who as usize] = hand.shown(who);
            }
            self.runs_scored = hand.runs_scored();
            self.bella = hand.bella();
        }
        if !hand.rules().enforce_legal_play {
            self.cannot_hold = [CardSet::EMPTY; 4];
        }
    }

    /// Reads the next play: who played it, what it proves (R5.1), the current trick. Returns
    /// the seat that played it.
    #[inline]
    fn read_play(&mut self, card: Card, trump: Suit) -> u8 {
        let who = seat_after(self.leader, self.trick.len());
        let voids = implied_voids(&self.trick, card, trump, &self.rules);
        self.cannot_hold[who as usize] = self.cannot_hold[who as usize].union(voids);
        self.played_by[who as usize].insert(card);
        self.plays[self.n_plays as usize] = card;
        self.n_plays += 1;
        self.trick.push(card, trump);
        if self.trick.len() == 4 {
            self.leader = seat_after(self.leader, self.trick.winner());
            self.trick = TrickSoFar::EMPTY;
        }
        who
    }

    /// The seat whose view this is.
    pub fn seat(&self) -> u8 {
        self.seat
    }
    /// The rules in force.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }
    /// The dealer of the hand.
    pub fn dealer(&self) -> u8 {
        self.dealer
    }
    /// The match scores before the hand.
    pub fn scores_before(&self) -> [u32; 2] {
        self.scores_before
    }
    /// Where the hand stands.
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// The seat to act, `None` once the hand is over.
    pub fn to_move(&self) -> Option<u8> {
        self.to_move
    }
    /// The cards the seat holds and can see: only its first six before trump (R2.4).
    pub fn hand(&self) -> CardSet {
        self.hand
    }
    /// The seat's own cards in the order dealt; before trump only the first six are its own
    /// knowledge (the rest are placeholders).
    pub fn own_deal(&self) -> &[Card; 9] {
        &self.own_deal
    }
    /// Own kitty cards not seen yet: 3 before trump is named (R2.4), then 0.
    pub fn unseen_kitty(&self) -> u32 {
        if self.trump.is_some() {
            0
        } else {
            KITTY_SIZE as u32
        }
    }
    /// Passes in the auction so far.
    pub fn passes(&self) -> u8 {
        self.passes
    }
    /// Trump once named.
    pub fn trump(&self) -> Option<Suit> {
        self.trump
    }
    /// The seat that named trump.
    pub fn caller(&self) -> Option<u8> {
        self.caller
    }
    /// The auction so far as (seat, action id), eldest first.
    pub fn auction(&self) -> impl Iterator<Item = (u8, u8)> {
        auction_of(self.dealer, self.passes, self.trump)
    }
    /// Every card played, in order.
    pub fn plays(&self) -> &[Card] {
        &self.plays[..self.n_plays as usize]
    }
    /// The completed tricks, in order.
    pub fn completed_tricks(&self) -> impl Iterator<Item = TrickRecord> + '_ {
        completed_tricks_of(
            self.plays(),
            self.trump.unwrap_or(Suit::Clubs),
            eldest(self.dealer),
        )
    }
    /// The leader of the current trick (while in play).
    pub fn trick_leader(&self) -> Option<u8> {
        (self.phase == Phase::Play).then_some(self.leader)
    }
    /// The cards of the current trick in play order.
    pub fn current_trick(&self) -> &[Card] {
        let n = self.n_plays as usize;
        &self.plays[n - self.trick.len()..n]
    }
    /// The current trick's summary for the rules (R5.1, R5.2).
    pub fn trick(&self) -> &TrickSoFar {
        &self.trick
    }
    /// The legal action ids of the seat when it is to move, else 0.
    pub fn legal_mask(&self) -> u64 {
        self.legal
    }
    /// The cards `who` has played.
    pub fn played_by(&self, who: u8) -> CardSet {
        self.played_by[who as usize]
    }
    /// How many cards `who` holds now.
    pub fn hand_size(&self, who: u8) -> u32 {
        9 - self.played_by[who as usize].len()
    }
    /// The cards `who`'s plays prove it does not hold (R5.1 read backwards, under the
    /// variants in force): voids from not following, no trump from not trumping, no higher
    /// trump from failing to head or beat.
    pub fn cannot_hold(&self, who: u8) -> CardSet {
        self.cannot_hold[who as usize]
    }
    /// R4.4 auto mode: the points of `who`'s best run (0: none) once it has played a card.
    pub fn announced(&self, who: u8) -> Option<u32> {
        self.announced[who as usize]
    }
    /// R4.4 auto mode: `who`'s runs, shown once it has played its second card.
    pub fn shown(&self, who: u8) -> &Runs {
        &self.shown[who as usize]
    }
    /// The cards `who` is known to hold now: shown run cards not yet played (every card of
    /// the seat itself).
    pub fn known_held(&self, who: u8) -> CardSet {
        if who == self.seat {
            self.hand
        } else {
            self.shown[who as usize]
                .cards()
                .minus(self.played_by[who as usize])
        }
    }
    /// Every card the seat has seen: its own cards, the plays, the shown runs.
    pub fn seen(&self) -> CardSet {
        (0..4u8).fold(CardSet::EMPTY, |seen, who| {
            seen.union(self.played_by(who)).union(self.known_held(who))
        })
    }
    /// The run winner (R4.3) and all run points credited, once 8 cards are played.
    pub fn runs_scored(&self) -> Option<(u8, u32)> {
        self.runs_scored
    }
    /// The seat credited with bella (R4.5), once it is.
    pub fn bella(&self) -> Option<u8> {
        self.bella
    }
    /// Team points credited so far (R6.1).
    pub fn points(&self) -> [u32; 2] {
        self.points
    }
}

/// The information sets of one auto-mode hand, kept up to date action by action: what
/// batches and tournaments give their bots (rust/sim.rs). Equal at every step to
/// [`InfoSet::new`] of the seat asked for, without its per-decision cost: each play is read
/// once (R5.1 read backwards), and each seat's runs are found once, at its first card (R4.4),
/// instead of replaying the whole history and finding four seats' runs at every decision.
#[derive(Clone, Copy, Debug)]
pub struct InfoTracker {
    /// The public part, and the seat-specific part of the last seat asked for.
    info: InfoSet,
    /// Each seat's runs in its dealt cards, found when it plays its first card.
    runs: [Runs; 4],
}

impl InfoTracker {
    /// Starts following `hand` (at any point of it).
    pub fn new(hand: &Hand) -> InfoTracker {
        let mut tracker = InfoTracker {
            info: InfoSet::before_plays(hand),
            runs: [Runs::NONE; 4],
        };
        tracker.follow(hand);
        tracker
    }

    /// Catches up with `hand`, the hand followed so far after one or more further actions.
    #[inline]
    pub fn follow(&mut self, hand: &Hand) {
        debug_assert_eq!(hand.dealer(), self.info.dealer, "the same hand");
        debug_assert!(hand.plays().starts_with(self.info.plays()), "the same hand");
        let info = &mut self.info;
        info.phase = hand.phase();
        info.to_move = hand.to_move();
        info.passes = hand.passes();
        info.trump = hand.trump();
        info.caller = hand.caller();
        info.runs_scored = hand.runs_scored();
        info.bella = hand.bella();
        info.points = hand.points();
        let Some(trump) = hand.trump() else {
            return;
        };
        for &card in &hand.plays()[info.n_plays as usize..] {
            let who = info.read_play(card, trump) as usize;
            // R4.4 auto mode: announced with the first card, shown with the second.
            match info.played_by[who].len() {
                CARDS_TO_ANNOUNCE => {
                    self.runs[who] = find_runs(hand.dealt(who));
                    info.announced[who] = Some(self.runs[who].best_points());
                }
                CARDS_TO_SHOW => info.shown[who] = self.runs[who],
                _ => {}
            }
        }
    }

    /// What `seat` knows of `hand` (the hand followed, caught up): equal to
    /// `InfoSet::new(hand, seat)`.
    #[inline]
    pub fn view(&mut self, hand: &Hand, seat: u8) -> &InfoSet {
        self.info.take_seat(hand, seat);
        &self.info
    }

    /// What `seat` knows of the table-mode `hand` (the tracker follows `hand.hand()`, caught
    /// up): equal to `InfoSet::of_table(hand, seat)`. A copy, since the table-mode part is
    /// not kept between actions.
    #[inline]
    pub fn view_table(&mut self, hand: &TableHand, seat: u8) -> InfoSet {
        let mut info = *self.view(hand.hand(), seat);
        info.take_table(hand);
        info
    }
}

/// The cards `seat` can see in its own hand: only its first six before trump (R2.4).
#[inline]
pub(crate) fn visible_hand(hand: &Hand, seat: u8) -> CardSet {
    if hand.trump().is_some() {
        hand.hand(seat as usize)
    } else {
        hand.first_six(seat as usize)
            .intersect(hand.hand(seat as usize))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::registry::BotSpec;
    use crate::rng::SplitMix64;
    use crate::seats::seat_of;

    /// The rules of test `case`: every combination of the auto-mode options that change what
    /// a seat can infer or is shown (R3.3, R3.4, R4.3, R5.1 variants, R6.4).
    pub(crate) fn auto_rules(case: u64) -> Rules {
        Rules {
            head_plain: case & 1 != 0,
            undertrump_optional: case & 2 != 0,
            partner_exempt: case & 4 != 0,
            dealer_may_pass: case & 8 != 0,
            team_runs: case & 16 != 0,
            half_bait_is_bait: case & 32 != 0,
            forced_at: (case & 64 != 0).then_some(0),
            ..Rules::default()
        }
    }

    /// A tracker followed action by action equals `InfoSet::new` for every seat at every step,
    /// and one started mid-hand equals one followed from the deal (random and bot-chosen
    /// actions, so that hands also go the way bots play them).
    #[test]
    fn tracker_equals_infoset_new_at_every_step() {
        // Eight hands for each of the 128 rule combinations.
        for seed in 0..1024u64 {
            let rules = auto_rules(seed % 128);
            let mut rng = SplitMix64::new(seed);
            let mut hand = Hand::from_seed(seed, seat_of(seed), rules, [0, seed as u32 % 700]);
            let mut bots = [
                BotSpec::Random,
                BotSpec::Greedy,
                BotSpec::Heuristic,
                BotSpec::Random,
            ]
            .map(|spec| spec.build());
            let mut tracker = InfoTracker::new(&hand);
            loop {
                for seat in 0..4u8 {
                    assert_eq!(*tracker.view(&hand, seat), InfoSet::new(&hand, seat));
                }
                assert_eq!(
                    *InfoTracker::new(&hand).view(&hand, 1),
                    *tracker.view(&hand, 1)
                );
                let Some(mover) = hand.to_move() else { break };
                let info = InfoSet::new(&hand, mover);
                let bot = (mover as u64 + seed) % 4;
                let action = bots[bot as usize].act(&info, hand.legal_mask(), &mut rng);
                hand.apply_unchecked(action);
                tracker.follow(&hand);
            }
        }
    }

    /// In table mode (docs/TABLE.md) a tracker following the auto-mode hand inside a
    /// `TableHand` gives `InfoSet::of_table` for every seat at every step: manual declarations
    /// (R4.4, R4.5), misplays and calls out of turn (R8), every table option.
    #[test]
    fn tracker_equals_infoset_of_table_at_every_step() {
        for seed in 0..512u64 {
            let rules = Rules {
                declarations: if seed & 1 != 0 {
                    Declarations::Manual
                } else {
                    Declarations::Auto
                },
                enforce_legal_play: seed & 2 == 0,
                first_bell_ok: seed & 4 != 0,
                late_twenty: seed & 8 != 0,
                ..auto_rules(seed >> 4)
            };
            let mut rng = SplitMix64::new(seed);
            let mut hand = TableHand::from_seed(seed, seat_of(seed), rules, [0, 0]);
            let mut tracker = InfoTracker::new(hand.hand());
            while let Some(mover) = hand.hand().to_move() {
                for seat in 0..4u8 {
                    assert_eq!(
                        tracker.view_table(&hand, seat),
                        InfoSet::of_table(&hand, seat)
                    );
                }
                // Mostly the seat to move; now and then another seat's call (R8.6a).
                let other = seat_after(mover, 1 + rng.below(3) as usize);
                let seat = if rng.below(8) == 0 && hand.legal_mask(other) != 0 {
                    other
                } else {
                    mover
                };
                let mask = hand.legal_mask(seat);
                let action = CardSet(mask).nth(rng.below(mask.count_ones())).index();
                hand.apply_unchecked(seat, action);
                tracker.follow(hand.hand());
            }
        }
    }

    /// What an information set claims about the others holds in the real deal, at every step of
    /// random hands under every R5.1 variant.
    #[test]
    fn inferences_hold_in_the_real_deal() {
        for seed in 0..400u64 {
            let rules = Rules {
                head_plain: seed & 1 != 0,
                undertrump_optional: seed & 2 != 0,
                partner_exempt: seed & 4 != 0,
                ..Rules::default()
            };
            let mut rng = SplitMix64::new(seed);
            let mut hand = Hand::from_seed(seed, seat_of(seed), rules, [0, 0]);
            while let Some(mover) = hand.to_move() {
                for seat in 0..4u8 {
                    let info = InfoSet::new(&hand, seat);
                    assert_eq!(info.legal_mask() != 0, seat == mover);
                    for who in 0..4u8 {
                        let held = hand.hand(who as usize);
                        assert!(held.intersect(info.cannot_hold(who)).is_empty());
                        assert_eq!(info.known_held(who).minus(held), CardSet::EMPTY);
                        assert_eq!(info.hand_size(who), held.len());
                    }
                    // Seen: its own cards, the plays, shown runs; nothing else.
                    let played: CardSet = info.plays().iter().copied().collect();
                    let shown =
                        (0..4u8).fold(CardSet::EMPTY, |all, w| all.union(info.shown(w).cards()));
                    let own = if info.trump().is_some() {
                        hand.dealt(seat as usize)
                    } else {
                        hand.first_six(seat as usize)
                    };
                    assert!(info.seen().minus(own).minus(played).minus(shown).is_empty());
                }
                let mask = hand.legal_mask();
                hand.apply_unchecked(CardSet(mask).nth(rng.below(mask.count_ones())).index());
            }
        }
    }
}
