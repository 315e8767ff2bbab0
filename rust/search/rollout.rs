//! The search kernel of ISMCTS (docs/SEARCH.md "The playout kernel"): the play phase of an
//! auto-mode hand reduced to what a playout needs, on card masks, allocation-free. Once trump is
//! named, runs (R4.3) and bella (R4.5) are fixed by the deal and every one not yet credited is
//! credited by the end of the hand, so a full playout needs only the legal plays (R5.1 under the
//! active variants), the trick winners (R5.2), the card points (R1.3), the last (R1.4) and, at the
//! end, the score (R6.2-R6.4). Its tests prove it plays and scores exactly as [`Hand`].
//!
//! The legal plays and the trick winner are kept as masks so that a play is a short chain of
//! mask operations and conditional moves, not branches on the cards (a random playout's
//! branches cannot be predicted): the trick keeps the set of cards that would beat its winner
//! so far (`beats`, from [`BEATS`]), and R5.1 becomes "the first non-empty set" of a fixed list
//! (see [`Rollout::legal`]).
//!
//! Random playouts of up to sixteen worlds run in AVX-512 registers where the CPU has them
//! (rust/search/rollout/avx512.rs), playing exactly the cards this scalar code plays.

#[cfg(target_arch = "x86_64")]
mod avx512;
#[cfg(target_arch = "x86_64")]
pub(crate) use avx512::mix64 as mix64_lanes;

use core::hint::select_unpredictable;

use crate::bits::{count_with, select_with};
use crate::cards::{Card, CardSet, Suit};
use crate::rng::SplitMix64;
use crate::rules::Rules;
use crate::scoring::{score_hand, BELLA_POINTS, LAST_TRICK_BONUS};
use crate::seats::{next_seat, partner, team_of, SEATS};
use crate::state::{Hand, Phase};
use crate::tricks::{beats_table, legal_on_masks, POINTS};

/// Cards played in a whole hand (R2.4: nine each).
const HAND_PLAYS: u8 = 36;
/// The low 32 bits of a draw.
const HALF: u64 = u32::MAX as u64;
/// Cards in a trick.
const TRICK_CARDS: u8 = 4;
/// Every card.
const ALL: u64 = CardSet::DECK.0;

/// The most worlds a random playout batch plays together
/// ([`Rollout::finish_random_together`]: the AVX-512 kernel's two registers of eight).
pub(crate) const MOST_TOGETHER: usize = 16;

/// Bit indices of a card mask (a table indexed by any of them needs no bounds check).
const MASK_BITS: usize = 64;

/// What a play needs to know of a card under one trump: the cards that take the trick from it
/// when it wins so far ([`crate::tricks::BEATS`], R5.2), its suit's cards (the suit led when it
/// leads) and its points (R1.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CardFacts {
    beats: u64,
    suit: u64,
    points: u32,
}

/// [`CardFacts`] by trump and card index, [`MASK_BITS`] entries a trump (those past the deck
/// unused): one lookup a play, no bounds check.
static CARD_FACTS: [[CardFacts; MASK_BITS]; 4] = {
    let beats = beats_table();
    let unused = CardFacts {
        beats: 0,
        suit: 0,
        points: 0,
    };
    let mut table = [[unused; MASK_BITS]; 4];
    let mut trump = 0;
    while trump < 4 {
        let mut card = 0;
        while card < CardSet::DECK.0.count_ones() as usize {
            table[trump][card] = CardFacts {
                beats: beats[trump][card],
                suit: Suit::ALL[card / 9].mask().0,
                points: POINTS[trump][card] as u32,
            };
            card += 1;
        }
        trump += 1;
    }
    table
};

/// The play phase of one world, from the seat to move to the end of the hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Rollout {
    hands: [u64; 4],
    /// The cards of the suit led; every card before the lead (so R5.1's "follow" is the hand).
    led: u64,
    /// The cards that would take the trick from its winner so far ([`BEATS`]); none before the
    /// lead.
    beats: u64,
    trump_mask: u64,
    /// The cards a follower must head the trick with when it can (R5.1a): trumps, and under
    /// `head_plain` every card.
    head: u64,
    rules: Rules,
    trump: Suit,
    /// [`CARD_FACTS`] under `trump`.
    facts: &'static [CardFacts; MASK_BITS],
    to_move: u8,
    trick_len: u8,
    /// The seat winning the trick so far (the leader before the lead).
    winner_seat: u8,
    plays_left: u8,
    caller_team: u8,
    trick_points: u32,
    /// Team points credited so far (R6.1).
    points: [u32; 2],
    /// Runs and bella fixed by the deal and not credited yet: credited by the end of the hand.
    pending: [u32; 2],
}

impl Rollout {
    /// The play phase of `hand`, or `None` outside it.
    pub(crate) fn of(hand: &Hand) -> Option<Rollout> {
        if hand.phase() != Phase::Play {
            return None;
        }
        let trump = hand.trump()?;
        let played = hand.current_trick();
        let rules = *hand.rules();
        let mut pending = [0u32; 2];
        if let (Some((seat, points)), None) = (hand.runs_decided(), hand.runs_scored()) {
            pending[team_of(seat)] += points;
        }
        if let (Some(seat), None) = (hand.bella_holder(), hand.bella()) {
            pending[team_of(seat)] += BELLA_POINTS;
        }
        let leader = hand.trick_leader()?;
        let mut rollout = Rollout {
            hands: [0, 1, 2, 3].map(|seat| hand.hand(seat).0),
            led: ALL,
            beats: 0,
            trump_mask: trump.mask().0,
            head: if rules.head_plain {
                ALL
            } else {
                trump.mask().0
            },
            rules,
            trump,
            facts: &CARD_FACTS[trump as usize],
            to_move: leader,
            trick_len: 0,
            winner_seat: leader,
            plays_left: HAND_PLAYS - (hand.plays().len() - played.len()) as u8,
            caller_team: team_of(hand.caller()?) as u8,
            trick_points: 0,
            points: hand.points(),
            pending,
        };
        for &card in played {
            rollout.add_to_trick(card);
        }
        debug_assert_eq!(Some(rollout.to_move), hand.to_move());
        Some(rollout)
    }

    /// The same position with the cards each seat holds now and the runs and bella still to
    /// credit replaced (a redealt world, docs/SEARCH.md).
    pub(crate) fn redealt(&self, hands: [CardSet; 4], pending: [u32; 2]) -> Rollout {
        Rollout {
            hands: hands.map(|cards| cards.0),
            pending,
            ..*self
        }
    }

    /// The seat to move.
    #[inline(always)]
    pub(crate) fn to_move(self) -> u8 {
        self.to_move
    }

    /// Whether the hand is over.
    #[inline(always)]
    pub(crate) fn is_over(&self) -> bool {
        self.plays_left == 0
    }

    /// The trump suit.
    #[inline(always)]
    pub(crate) fn trump(&self) -> Suit {
        self.trump
    }

    /// The cards played to the trick so far.
    #[inline(always)]
    pub(crate) fn trick_len(&self) -> usize {
        self.trick_len as usize
    }

    /// Whether the partner of the seat to move (two cards back) wins the trick so far (R5.2).
    /// Before the lead the winner is the leader, the seat to move, and after one card the
    /// leader, the seat before: so only from the third card on.
    #[inline(always)]
    pub(crate) fn partner_wins(&self) -> bool {
        self.winner_seat == partner(self.to_move)
    }

    /// The cards that would win the trick if played now (every card before the lead).
    #[inline(always)]
    pub(crate) fn winning_cards(&self) -> CardSet {
        CardSet(if self.trick_len == 0 { ALL } else { self.beats })
    }

    /// The cards the seat to move may play (R5.1), the first non-empty of: the cards of the
    /// suit led that head the trick when heading is required (R5.1a: in trump, or under
    /// `head_plain`); the cards of the suit led; then, void in it, the whole hand when the
    /// partner wins under `partner_exempt`, else the trumps that beat the highest trump (R5.1b;
    /// every trump when none is played yet), else (nothing beats) the whole hand under
    /// `undertrump_optional`, else any trump, else the whole hand (R5.1c). Before the lead the
    /// suit led stands for every card, so the hand.
    #[inline(always)]
    pub(crate) fn legal(&self) -> CardSet {
        CardSet(legal_on_masks(
            self.hands[self.to_move as usize],
            self.led,
            self.beats,
            self.trump_mask,
            self.head,
            self.rules.partner_exempt && self.partner_wins(),
            self.rules.undertrump_optional,
        ))
    }

    /// Adds `card`, played by the seat to move, to the trick ([`Rollout::add_at`] at the
    /// trick's length).
    #[inline(always)]
    fn add_to_trick(&mut self, card: Card) {
        let index = card.index() as usize % MASK_BITS;
        match self.trick_len {
            0 => self.add_at::<0>(index),
            1 => self.add_at::<1>(index),
            2 => self.add_at::<2>(index),
            _ => self.add_at::<3>(index),
        }
    }

    /// Adds card `index`, played by the seat to move, to the trick as its `POSITION`-th card
    /// (known at compile time) and passes the turn on: the lead sets the trick (R5.2: it wins
    /// so far, its suit is led), a follower takes it when it beats the winner.
    #[inline(always)]
    fn add_at<const POSITION: u8>(&mut self, index: usize) {
        debug_assert_eq!(self.trick_len, POSITION);
        let facts = self.facts[index % MASK_BITS];
        if POSITION == 0 {
            self.beats = facts.beats;
            self.winner_seat = self.to_move;
            self.led = facts.suit;
            self.trick_points = facts.points;
        } else {
            // Conditional moves, not branches: whether a random card takes the trick cannot be
            // predicted.
            let wins = self.beats >> index & 1 != 0;
            self.beats = select_unpredictable(wins, facts.beats, self.beats);
            self.winner_seat = select_unpredictable(wins, self.to_move, self.winner_seat);
            self.trick_points += facts.points;
        }
        self.plays_left -= 1;
        self.to_move = next_seat(self.to_move);
        self.trick_len = POSITION + 1;
    }

    /// Ends a full trick (R5.2: its winner takes its points and leads the next; R1.4: the
    /// ninth trick's winner adds the last).
    #[inline(always)]
    fn end_trick(&mut self) {
        let last = if self.plays_left == 0 {
            LAST_TRICK_BONUS
        } else {
            0
        };
        self.points[team_of(self.winner_seat)] += self.trick_points + last;
        self.trick_len = 0;
        self.led = ALL;
        self.beats = 0;
        self.trick_points = 0;
        self.to_move = self.winner_seat;
    }

    /// Plays a legal card of the seat to move.
    #[inline(always)]
    pub(crate) fn play(&mut self, card: Card) {
        debug_assert!(self.legal().contains(card));
        self.hands[(self.to_move % SEATS) as usize] &= !(1 << card.index());
        self.add_to_trick(card);
        if self.trick_len == TRICK_CARDS {
            self.end_trick();
        }
    }

    /// What each team scores (R6.2-R6.4) once the hand is over: the points taken plus the runs
    /// and bella credited on the way.
    pub(crate) fn score(&self) -> [u32; 2] {
        debug_assert!(self.is_over());
        let points = [
            self.points[0] + self.pending[0],
            self.points[1] + self.pending[1],
        ];
        score_hand(points, self.caller_team as usize, &self.rules).1
    }

    /// Plays to the end with uniformly random legal cards.
    ///
    /// # Safety
    /// As [`Rollout::finish_random_together`].
    #[inline(always)]
    pub(crate) unsafe fn finish_random<const BMI2: bool, const PDEP: bool>(
        &mut self,
        rng: &mut SplitMix64,
        vector: bool,
    ) {
        // SAFETY: the caller's guarantee.
        unsafe {
            Rollout::finish_random_together::<BMI2, PDEP>(std::slice::from_mut(self), rng, vector)
        }
    }

    /// Plays each of `worlds` to the end with uniformly random legal cards, one card of each
    /// world in turn: the worlds are independent, so the CPU overlaps their chains of dependent
    /// steps (legal set, choice, play, next legal set) instead of waiting on one
    /// (docs/SEARCH.md "The playout kernel"). The tricks under way are finished first; then
    /// whole tricks go one position at a time ([`Rollout::legal_under`], [`Rollout::play_at`]:
    /// each position's code fixed at compile time, no test of the trick's length); the last
    /// trick (one card each, R2.4) is played without drawing. With `vector`, the whole tricks in
    /// AVX-512 registers (rust/search/rollout/avx512.rs: the same cards from the same draws).
    ///
    /// # Safety
    /// With `BMI2 = true` the CPU must support BMI2; with `vector`, the extensions of
    /// [`crate::cpu::Kernel::Avx512`] (a [`crate::cpu::KernelSet`] with them).
    #[inline(always)]
    pub(crate) unsafe fn finish_random_together<const BMI2: bool, const PDEP: bool>(
        worlds: &mut [Rollout],
        rng: &mut SplitMix64,
        #[cfg_attr(not(target_arch = "x86_64"), expect(unused_variables))] vector: bool,
    ) {
        #[cfg(target_arch = "x86_64")]
        if vector && avx512::fits(worlds) {
            // SAFETY: the caller's guarantee that the CPU has the kernel's extensions.
            unsafe { avx512::finish_random(worlds, rng) };
            return;
        }
        for _ in 1..TRICK_CARDS {
            for world in worlds.iter_mut().filter(|world| world.trick_len != 0) {
                // SAFETY: the caller's guarantee.
                let index = unsafe { random_card::<BMI2, PDEP>(world.legal().bits(), rng) };
                world.play(Card::from_index_unchecked(index as u8));
            }
        }
        // The two variants that shape the legal set: known off at compile time in the copy
        // for the worlds under neither (the default rules), read where some world has them.
        let (partner_exempt, undertrump_optional) =
            worlds.iter().fold((false, false), |any, world| {
                (
                    any.0 | world.rules.partner_exempt,
                    any.1 | world.rules.undertrump_optional,
                )
            });
        // SAFETY: the caller's guarantee.
        unsafe {
            match (partner_exempt, undertrump_optional) {
                (false, false) => Rollout::whole_tricks::<BMI2, PDEP, false, false>(worlds, rng),
                (false, true) => Rollout::whole_tricks::<BMI2, PDEP, false, true>(worlds, rng),
                (true, false) => Rollout::whole_tricks::<BMI2, PDEP, true, false>(worlds, rng),
                (true, true) => Rollout::whole_tricks::<BMI2, PDEP, true, true>(worlds, rng),
            }
        }
        for world in worlds.iter_mut() {
            if world.plays_left == TRICK_CARDS {
                world.play_forced::<0>();
                world.play_forced::<1>();
                world.play_forced::<2>();
                world.play_forced::<3>();
            }
        }
    }

    /// The whole tricks before the last of each of `worlds` (each at a trick's start), one
    /// trick position of every world in turn. A world's `partner_exempt` and
    /// `undertrump_optional` (R5.1) are read only where `PARTNER_EXEMPT` and
    /// `UNDERTRUMP_OPTIONAL` allow them (no world has the others): constants off in the copies
    /// for batches without them, so a play's legal set skips their tests.
    ///
    /// # Safety
    /// With `BMI2 = true` the CPU must support BMI2.
    #[inline(always)]
    unsafe fn whole_tricks<
        const BMI2: bool,
        const PDEP: bool,
        const PARTNER_EXEMPT: bool,
        const UNDERTRUMP_OPTIONAL: bool,
    >(
        worlds: &mut [Rollout],
        rng: &mut SplitMix64,
    ) {
        loop {
            // The worlds with a trick to play before the last, by position in `worlds`.
            let mut playing = 0u32;
            for (k, world) in worlds.iter().enumerate() {
                playing |= ((world.plays_left > TRICK_CARDS) as u32) << k;
            }
            if playing == 0 {
                return;
            }
            // SAFETY: the caller's guarantee.
            unsafe {
                Rollout::random_round::<BMI2, PDEP, 0, PARTNER_EXEMPT, UNDERTRUMP_OPTIONAL>(
                    worlds, playing, rng,
                );
                Rollout::random_round::<BMI2, PDEP, 1, PARTNER_EXEMPT, UNDERTRUMP_OPTIONAL>(
                    worlds, playing, rng,
                );
                Rollout::random_round::<BMI2, PDEP, 2, PARTNER_EXEMPT, UNDERTRUMP_OPTIONAL>(
                    worlds, playing, rng,
                );
                Rollout::random_round::<BMI2, PDEP, 3, PARTNER_EXEMPT, UNDERTRUMP_OPTIONAL>(
                    worlds, playing, rng,
                );
            }
        }
    }

    /// One random card at trick position `POSITION` for each world whose bit is set in
    /// `playing`: one draw for each pair of worlds (0 and 1, 2 and 3, ...), its low half for
    /// the first, its high half for the second.
    ///
    /// # Safety
    /// With `BMI2 = true` the CPU must support BMI2.
    #[inline(always)]
    unsafe fn random_round<
        const BMI2: bool,
        const PDEP: bool,
        const POSITION: u8,
        const PARTNER_EXEMPT: bool,
        const UNDERTRUMP_OPTIONAL: bool,
    >(
        worlds: &mut [Rollout],
        playing: u32,
        rng: &mut SplitMix64,
    ) {
        let mut draw = 0;
        for (k, world) in worlds.iter_mut().enumerate() {
            draw = if k % 2 == 0 {
                rng.next_u64()
            } else {
                draw >> 32
            };
            if playing & (1 << k) != 0 {
                let legal = world.legal_under::<POSITION>(
                    PARTNER_EXEMPT && world.rules.partner_exempt,
                    UNDERTRUMP_OPTIONAL && world.rules.undertrump_optional,
                );
                // SAFETY: the caller's guarantee.
                let index = unsafe { choose::<BMI2, PDEP>(legal, draw) };
                world.play_at::<POSITION>(index);
            }
        }
    }

    /// Plays the only card of the seat to move at trick position `POSITION` (the last trick:
    /// one card each).
    #[inline(always)]
    fn play_forced<const POSITION: u8>(&mut self) {
        let hand = self.hands[self.to_move as usize];
        debug_assert_eq!(hand.count_ones(), 1);
        self.play_at::<POSITION>(hand.trailing_zeros() as usize);
    }

    /// [`Rollout::legal`] when `POSITION` cards are in the trick, with what that fixes known
    /// at compile time: the leader plays any card; the second card's partner plays the fourth,
    /// so it cannot win the trick yet (R5.1 `partner_exempt` applies from the third card). The
    /// rules' `partner_exempt` and `undertrump_optional` are given (constants where a copy
    /// knows them off, [`Rollout::whole_tricks`]).
    #[inline(always)]
    fn legal_under<const POSITION: u8>(
        &self,
        partner_exempt: bool,
        undertrump_optional: bool,
    ) -> u64 {
        debug_assert_eq!(self.trick_len, POSITION);
        debug_assert_eq!(
            (partner_exempt, undertrump_optional),
            (self.rules.partner_exempt, self.rules.undertrump_optional)
        );
        let hand = self.hands[(self.to_move % SEATS) as usize];
        if POSITION == 0 {
            return hand;
        }
        legal_on_masks(
            hand,
            self.led,
            self.beats,
            self.trump_mask,
            self.head,
            POSITION >= 2 && partner_exempt && self.partner_wins(),
            undertrump_optional,
        )
    }

    /// [`Rollout::play`] of the card with index `index` when `POSITION` cards are in the
    /// trick, known at compile time: the fourth card ends the trick.
    #[inline(always)]
    pub(crate) fn play_at<const POSITION: u8>(&mut self, index: usize) {
        debug_assert!(self.legal().bits() & (1 << index) != 0);
        let index = index % MASK_BITS;
        self.hands[(self.to_move % SEATS) as usize] &= !(1 << index);
        self.add_at::<POSITION>(index);
        if POSITION + 1 == TRICK_CARDS {
            self.end_trick();
        }
    }
}

/// The index of a uniformly random card of `cards` (not empty), from one draw of `rng`.
///
/// # Safety
/// With `BMI2 = true` the CPU must support BMI2.
#[inline(always)]
unsafe fn random_card<const BMI2: bool, const PDEP: bool>(
    cards: u64,
    rng: &mut SplitMix64,
) -> usize {
    // SAFETY: the caller's guarantee.
    unsafe { choose::<BMI2, PDEP>(cards, rng.next_u64()) }
}

/// The index of the card of `cards` (not empty) that the low 32 bits of `draw` choose,
/// uniformly.
///
/// # Safety
/// With `BMI2 = true` the CPU must support BMI2.
#[inline(always)]
unsafe fn choose<const BMI2: bool, const PDEP: bool>(cards: u64, draw: u64) -> usize {
    // Multiply-shift on 32 bits: a choice among at most 9 cards is off uniform by less than
    // 2^-29.
    // SAFETY: the caller's guarantee (the portable count's work is the portable select's
    // first step, computed once).
    unsafe {
        let k = (((draw & HALF) * count_with::<BMI2>(cards) as u64) >> 32) as u32;
        select_with::<PDEP>(cards, k) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::random::random_action;
    use crate::cpu::Job;
    use crate::rng::derive;

    /// Random hand `index` (every R5.1 variant on and off, `team_runs`, `half_bait_is_bait`)
    /// stopped at a random point of its play, with the generator that made it; `None` when
    /// the hand ended in the auction.
    fn random_play_state(index: u64) -> Option<(Hand, SplitMix64)> {
        let variant = index % 32;
        let rules = Rules {
            head_plain: variant & 1 != 0,
            undertrump_optional: variant & 2 != 0,
            partner_exempt: variant & 4 != 0,
            team_runs: variant & 8 != 0,
            half_bait_is_bait: variant & 16 != 0,
            ..Rules::default()
        };
        let mut rng = SplitMix64::new(derive(11, index));
        let mut hand = Hand::from_seed(rng.next_u64(), (index % 4) as u8, rules, [0, 0]);
        while hand.phase() == Phase::Auction {
            hand.apply_unchecked(random_action(hand.legal_mask(), &mut rng));
        }
        let start = rng.below(HAND_PLAYS as u32);
        while hand.phase() == Phase::Play && hand.plays().len() < start as usize {
            hand.apply_unchecked(random_action(hand.legal_mask(), &mut rng));
        }
        (hand.phase() == Phase::Play).then_some((hand, rng))
    }

    /// [`Rollout::legal_under`] at the trick's current length, under the world's rules.
    fn legal_at_now(kernel: &Rollout) -> u64 {
        let rules = (
            kernel.rules.partner_exempt,
            kernel.rules.undertrump_optional,
        );
        match kernel.trick_len {
            0 => kernel.legal_under::<0>(rules.0, rules.1),
            1 => kernel.legal_under::<1>(rules.0, rules.1),
            2 => kernel.legal_under::<2>(rules.0, rules.1),
            _ => kernel.legal_under::<3>(rules.0, rules.1),
        }
    }

    /// [`Rollout::play_at`] at the trick's current length.
    fn play_at_now(kernel: &mut Rollout, index: usize) {
        match kernel.trick_len {
            0 => kernel.play_at::<0>(index),
            1 => kernel.play_at::<1>(index),
            2 => kernel.play_at::<2>(index),
            _ => kernel.play_at::<3>(index),
        }
    }

    /// Every R5.1 variant on and off, over random hands: at every play the kernel's legal
    /// cards are the state's (also through the trick-position path, `legal_under`), the
    /// trick-position play (`play_at`) leaves the kernel as `play` does, and the same cards
    /// played to the end score what the state scores (R6), from every position of the hand.
    #[test]
    fn rollout_plays_and_scores_as_hand() {
        let mut checked = 0;
        for index in 0..800u64 {
            let Some((mut hand, mut rng)) = random_play_state(index) else {
                continue;
            };
            let Some(mut kernel) = Rollout::of(&hand) else {
                continue;
            };
            while hand.phase() == Phase::Play {
                assert_eq!(kernel.legal(), hand.legal_cards(), "R5.1: {hand:?}");
                assert_eq!(legal_at_now(&kernel), hand.legal_cards().bits(), "R5.1");
                assert_eq!(Some(kernel.to_move()), hand.to_move());
                let card = random_action(hand.legal_mask(), &mut rng);
                hand.apply_unchecked(card);
                let mut at = kernel;
                play_at_now(&mut at, card as usize);
                kernel.play(Card::from_index_unchecked(card));
                assert_eq!(at, kernel, "R5.2: {hand:?}");
            }
            assert!(kernel.is_over());
            assert_eq!(kernel.score(), hand.score(), "R6: {hand:?}");
            checked += 1;
        }
        assert!(checked > 700);
    }

    /// What [`Rollout::finish_random_together`] does, through the general `legal` and `play`
    /// (proven equal to [`Hand`] above): the tricks under way finished, one card of each world
    /// in turn, a draw each; then whole tricks, one card of each world with a trick before the
    /// last, a draw each pair of worlds; then the last trick's only cards, drawing nothing.
    fn finish_as_specified(worlds: &mut [Rollout], rng: &mut SplitMix64) {
        let play_drawn = |world: &mut Rollout, draw: u64| {
            let cards = world.legal().bits();
            let k = (((draw & HALF) * cards.count_ones() as u64) >> 32) as u32;
            world.play(Card::from_index_unchecked(
                crate::bits::select(cards, k) as u8
            ));
        };
        for _ in 1..TRICK_CARDS {
            for world in worlds.iter_mut().filter(|world| world.trick_len() != 0) {
                play_drawn(world, rng.next_u64());
            }
        }
        loop {
            let playing: Vec<bool> = worlds.iter().map(|w| w.plays_left > TRICK_CARDS).collect();
            if !playing.contains(&true) {
                break;
            }
            for _ in 0..TRICK_CARDS {
                // One draw a pair of worlds: the low half for the first, the high for the second.
                let draws: Vec<u64> = (0..worlds.len().div_ceil(2))
                    .map(|_| rng.next_u64())
                    .collect();
                for (k, world) in worlds.iter_mut().enumerate().filter(|&(k, _)| playing[k]) {
                    play_drawn(world, draws[k / 2] >> (32 * (k % 2)));
                }
            }
        }
        for world in worlds.iter_mut() {
            while !world.is_over() {
                assert_eq!(
                    world.legal().len(),
                    1,
                    "R2.4: one card each in the last trick"
                );
                world.play(world.legal().iter().next().unwrap());
            }
        }
    }

    /// Batches of one to [`MOST_TOGETHER`] worlds from random points of random
    /// hands (tricks under way of every length, different tricks left, every R5.1 variant)
    /// finish as specified, on every kernel the CPU runs: every card legal (R5.1), every world over, the same cards drawn. The
    /// states are sorted by trump and rules, so that most batches share them, as a search's
    /// worlds do (the kernel's case); the others take the scalar path.
    #[test]
    fn random_batches_finish_as_specified() {
        let kernels = crate::cpu::kernels_compared("random_batches_finish_as_specified");
        let mut states: Vec<Rollout> = (0..1600)
            .filter_map(|index| random_play_state(index).and_then(|(hand, _)| Rollout::of(&hand)))
            .collect();
        states.sort_by_key(|world| {
            let rules = world.rules;
            let variant = [
                rules.head_plain,
                rules.undertrump_optional,
                rules.partner_exempt,
                rules.team_runs,
                rules.half_bait_is_bait,
            ];
            (world.trump as u8, variant)
        });
        let mut vector_batches = 0;
        // Batches of every size from one to MOST_TOGETHER in turn (the search's are BATCH).
        let mut rest = &states[..];
        let mut seed = 0u64;
        let mut sizes_seen = [false; MOST_TOGETHER];
        while !rest.is_empty() {
            let size = (1 + seed as usize % MOST_TOGETHER).min(rest.len());
            let (batch, tail) = rest.split_at(size);
            rest = tail;
            sizes_seen[size - 1] = true;
            let mut expected = batch.to_vec();
            let mut expected_rng = SplitMix64::new(seed);
            finish_as_specified(&mut expected, &mut expected_rng);
            #[cfg(target_arch = "x86_64")]
            let fits = avx512::fits(batch);
            #[cfg(not(target_arch = "x86_64"))]
            let fits = false;
            for &kernel in &kernels {
                vector_batches += (kernel.avx512() && fits) as usize;
                let mut worlds = batch.to_vec();
                let rng = &mut SplitMix64::new(seed);
                kernel.run(FinishTogether {
                    worlds: &mut worlds,
                    rng,
                });
                let path = kernel.name();
                assert_eq!(worlds, expected, "batch {seed} of {size}, {path}");
                assert_eq!(rng, &mut expected_rng, "batch {seed}: draws taken, {path}");
            }
            seed += 1;
        }
        assert!(sizes_seen.iter().all(|&seen| seen), "{sizes_seen:?}");
        let avx512 = kernels.iter().any(|kernel| kernel.avx512());
        assert!(!avx512 || vector_batches > 50, "{vector_batches}");
    }

    /// [`Rollout::finish_random_together`] as a kernel's job (the vector playout where the
    /// kernel has it).
    struct FinishTogether<'a> {
        worlds: &'a mut [Rollout],
        rng: &'a mut SplitMix64,
    }

    impl Job for FinishTogether<'_> {
        type Output = ();
        const AVX512: bool = true;
        #[inline(always)]
        unsafe fn run<const BMI2: bool, const AVX512: bool, const PDEP: bool>(self) {
            // SAFETY: the caller's guarantee.
            unsafe { Rollout::finish_random_together::<BMI2, PDEP>(self.worlds, self.rng, AVX512) }
        }
    }

    /// A random kernel playout is a legal random hand's end: its count is 162 plus the runs
    /// and bella of the deal (R6.1), and every kernel draws the same cards.
    #[test]
    fn random_finish_is_the_same_on_every_kernel() {
        let kernels = crate::cpu::kernels_compared("random_finish_is_the_same_on_every_kernel");
        let mut hand = Hand::from_seed(5, 0, Rules::default(), [0, 0]);
        hand.apply(36).unwrap();
        let kernel = Rollout::of(&hand).unwrap();
        for seed in 0..50 {
            let mut portable = kernel;
            // SAFETY: the portable path has no requirement.
            unsafe { portable.finish_random::<false, false>(&mut SplitMix64::new(seed), false) };
            for &set in &kernels {
                let mut fast = kernel;
                set.run(FinishTogether {
                    worlds: std::slice::from_mut(&mut fast),
                    rng: &mut SplitMix64::new(seed),
                });
                assert_eq!(fast, portable, "{}", set.name());
            }
            let total = portable.points[0] + portable.points[1];
            assert_eq!(total + portable.pending[0] + portable.pending[1], {
                let (_, runs) = hand.runs_decided().unwrap_or((0, 0));
                let bella = hand.bella_holder().map_or(0, |_| BELLA_POINTS);
                162 + runs + bella
            });
        }
    }
}
