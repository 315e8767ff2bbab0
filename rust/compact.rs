//! The compact encoding (docs/ENGINE.md "Compact encoding"): the information-state tensor's
//! content packed into a fixed row of `COMPACT_SIZE` bytes (card sets as bits, one-hots as
//! small integers, the two counts as 16-bit numbers), and its exact expansion into the float
//! tensor. The tensor is always written through this row, so a row and its tensor cannot
//! disagree; [`update_tensor`] rewrites only the entries that differ between two rows (the
//! vectorized environment keeps each environment's tensor up to date that way).
//! Rules: what a seat may know is the [`InfoSet`]'s (R2.4, R4.4, R4.5); a [`SeatView`] reads
//! the same of an auto-mode hand straight from it.

use crate::cards::{Card, CardSet, Suit};
use crate::infoset::{visible_hand, InfoSet};
use crate::observe::{
    ratio, ANNOUNCED, AUCTION, BELLA, DEALER, HAND, KITTY, MAX_TEAM_POINTS, PAST_TRICKS, PHASE,
    POINTS, RUNS_WINNER, SCORES, SCORE_SCALE, SEAT, SHOWN, TENSOR_SIZE, TO_MOVE, TRICK,
    TRICK_LEADER, TRICK_LEADERS, TRUMP,
};
use crate::rules::{Declarations, Rules};
use crate::runs::{Runs, TWENTY};
use crate::seats::{eldest, seat_after, SEATS, TEAMS};
use crate::state::{
    auction_of, Hand, Phase, CARDS_TO_ANNOUNCE, CARDS_TO_SHOW, NUM_ACTIONS, PASS,
    PLAYS_BEFORE_RUNS, TRICKS,
};
use crate::tricks::TrickSoFar;

/// How one byte field of a row stands for entries of the tensor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// One byte: 0 sets no entry, `k + 1` sets entry `k` to 1.
    OneHot,
    /// One byte of `n` flags: bit `i` is entry `i`.
    Flags(u8),
    /// Five bytes, a card set: bit `i` (byte `i / 8`, bit `i % 8`) is the entry of card `i`.
    Cards,
    /// Two bytes, a little-endian count `v` at most `max`: the entry is `v / max` (float32).
    Count(u32),
}

impl Kind {
    /// The bytes one slot of this kind takes.
    pub const fn width(self) -> usize {
        match self {
            Kind::OneHot | Kind::Flags(_) => 1,
            Kind::Cards => CARD_BYTES,
            Kind::Count(_) => 2,
        }
    }
}

/// A run of `slots` fields of one kind: slot `s` starts at byte `byte + s * kind.width()` and
/// stands for the tensor entries from `entry + s * stride`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    /// What the segment holds (docs/ENGINE.md's names).
    pub name: &'static str,
    /// How each slot is encoded.
    pub kind: Kind,
    /// The segment's first byte in the row.
    pub byte: usize,
    /// How many slots.
    pub slots: usize,
    /// The tensor entry of the first slot's first value.
    pub entry: usize,
    /// The distance in the tensor between two slots.
    pub stride: usize,
}

const CARD_BYTES: usize = 5;
const DECK: usize = 36;
const SEAT_COUNT: usize = SEATS as usize;
/// The bytes of the four seats' shown cards.
const SHOWN_BYTES: usize = SEAT_COUNT * CARD_BYTES;

// The row's bytes in order, each after the one before (the segment table below checks it).
const B_POINTS: usize = 0;
const B_SCORES: usize = B_POINTS + 2 * TEAMS;
const B_SEAT: usize = B_SCORES + 2 * TEAMS;
const B_DEALER: usize = B_SEAT + 1;
const B_PHASE: usize = B_DEALER + 1;
const B_KITTY: usize = B_PHASE + 1;
const B_AUCTION: usize = B_KITTY + 1;
const B_TRUMP: usize = B_AUCTION + 1;
const B_TRICK_LEADER: usize = B_TRUMP + 1;
const B_ANNOUNCED: usize = B_TRICK_LEADER + 1;
const B_RUNS_WINNER: usize = B_ANNOUNCED + 1;
const B_BELLA: usize = B_RUNS_WINNER + 1;
const B_TO_MOVE: usize = B_BELLA + 1;
const B_TRICK: usize = B_TO_MOVE + 1;
const B_PAST_TRICKS: usize = B_TRICK + SEAT_COUNT;
const B_TRICK_LEADERS: usize = B_PAST_TRICKS + TRICKS * SEAT_COUNT;
const B_HAND: usize = B_TRICK_LEADERS + TRICKS;
const B_SHOWN: usize = B_HAND + CARD_BYTES;

/// The length of a compact row in bytes (docs/ENGINE.md).
pub const COMPACT_SIZE: usize = B_SHOWN + SHOWN_BYTES;
const _: () = assert!(COMPACT_SIZE == 93, "the compact layout is documented");

const fn one(name: &'static str, kind: Kind, byte: usize, entry: usize) -> Segment {
    Segment {
        name,
        kind,
        byte,
        slots: 1,
        entry,
        stride: 0,
    }
}

const fn many(
    name: &'static str,
    kind: Kind,
    byte: usize,
    slots: usize,
    entry: usize,
    stride: usize,
) -> Segment {
    Segment {
        name,
        kind,
        byte,
        slots,
        entry,
        stride,
    }
}

/// Every field of a row, in byte order, with the tensor entries it stands for.
pub const LAYOUT: [Segment; 18] = [
    many(
        "points",
        Kind::Count(MAX_TEAM_POINTS),
        B_POINTS,
        TEAMS,
        POINTS,
        1,
    ),
    many(
        "scores_before",
        Kind::Count(SCORE_SCALE),
        B_SCORES,
        TEAMS,
        SCORES,
        1,
    ),
    one("seat", Kind::OneHot, B_SEAT, SEAT),
    one("dealer", Kind::OneHot, B_DEALER, DEALER),
    one("phase", Kind::OneHot, B_PHASE, PHASE),
    one("kitty", Kind::Flags(1), B_KITTY, KITTY),
    one("auction", Kind::Flags(2 * SEATS), B_AUCTION, AUCTION),
    one("trump", Kind::OneHot, B_TRUMP, TRUMP),
    one("trick_leader", Kind::OneHot, B_TRICK_LEADER, TRICK_LEADER),
    one("announced", Kind::Flags(2 * SEATS), B_ANNOUNCED, ANNOUNCED),
    one("runs_winner", Kind::OneHot, B_RUNS_WINNER, RUNS_WINNER),
    one("bella", Kind::OneHot, B_BELLA, BELLA),
    one("to_move", Kind::OneHot, B_TO_MOVE, TO_MOVE),
    many("trick", Kind::OneHot, B_TRICK, SEAT_COUNT, TRICK, DECK),
    many(
        "past_tricks",
        Kind::OneHot,
        B_PAST_TRICKS,
        TRICKS * SEAT_COUNT,
        PAST_TRICKS,
        DECK,
    ),
    many(
        "trick_leaders",
        Kind::OneHot,
        B_TRICK_LEADERS,
        TRICKS,
        TRICK_LEADERS,
        SEAT_COUNT,
    ),
    one("hand", Kind::Cards, B_HAND, HAND),
    many("shown", Kind::Cards, B_SHOWN, SEAT_COUNT, SHOWN, DECK),
];

const fn layout_is_contiguous() -> bool {
    let mut byte = 0;
    let mut k = 0;
    while k < LAYOUT.len() {
        if LAYOUT[k].byte != byte {
            return false;
        }
        byte += LAYOUT[k].slots * LAYOUT[k].kind.width();
        k += 1;
    }
    byte == COMPACT_SIZE
}
const _: () = assert!(layout_is_contiguous(), "each field follows the one before");

/// A compact row.
pub type Row = [u8; COMPACT_SIZE];

/// The row of every zero entry (the tensor of zeros).
pub const EMPTY_ROW: Row = [0; COMPACT_SIZE];

/// What a compact row is written from: one seat's view of a hand, as an [`InfoSet`] holds it
/// (any mode) or, for an auto-mode hand, as a [`SeatView`] reads it straight from the hand.
/// The names and meanings are [`InfoSet`]'s.
pub trait RowSource {
    fn seat(&self) -> u8;
    fn dealer(&self) -> u8;
    fn rules(&self) -> &Rules;
    fn scores_before(&self) -> [u32; 2];
    fn points(&self) -> [u32; 2];
    fn phase(&self) -> Phase;
    fn to_move(&self) -> Option<u8>;
    /// The seat's visible cards (R2.4).
    fn hand(&self) -> CardSet;
    fn passes(&self) -> u8;
    fn trump(&self) -> Option<Suit>;
    fn plays(&self) -> &[Card];
    fn trick_leader(&self) -> Option<u8>;
    fn current_trick(&self) -> &[Card];
    fn announced(&self, who: u8) -> Option<u32>;
    /// The cards of `who`'s shown runs.
    fn shown_cards(&self, who: u8) -> CardSet;
    fn runs_scored(&self) -> Option<(u8, u32)>;
    fn bella(&self) -> Option<u8>;
}

impl RowSource for InfoSet {
    fn seat(&self) -> u8 {
        InfoSet::seat(self)
    }
    fn dealer(&self) -> u8 {
        InfoSet::dealer(self)
    }
    fn rules(&self) -> &Rules {
        InfoSet::rules(self)
    }
    fn scores_before(&self) -> [u32; 2] {
        InfoSet::scores_before(self)
    }
    fn points(&self) -> [u32; 2] {
        InfoSet::points(self)
    }
    fn phase(&self) -> Phase {
        InfoSet::phase(self)
    }
    fn to_move(&self) -> Option<u8> {
        InfoSet::to_move(self)
    }
    fn hand(&self) -> CardSet {
        InfoSet::hand(self)
    }
    fn passes(&self) -> u8 {
        InfoSet::passes(self)
    }
    fn trump(&self) -> Option<Suit> {
        InfoSet::trump(self)
    }
    fn plays(&self) -> &[Card] {
        InfoSet::plays(self)
    }
    fn trick_leader(&self) -> Option<u8> {
        InfoSet::trick_leader(self)
    }
    fn current_trick(&self) -> &[Card] {
        InfoSet::current_trick(self)
    }
    fn announced(&self, who: u8) -> Option<u32> {
        InfoSet::announced(self, who)
    }
    fn shown_cards(&self, who: u8) -> CardSet {
        InfoSet::shown(self, who).cards()
    }
    fn runs_scored(&self) -> Option<(u8, u32)> {
        InfoSet::runs_scored(self)
    }
    fn bella(&self) -> Option<u8> {
        InfoSet::bella(self)
    }
}

/// What `seat` knows of an auto-mode `hand`, read straight from the hand: what of
/// [`InfoSet::new`] a row holds, without following the plays for what they prove (R5.1 read
/// backwards), which a row does not hold. The vectorized environment writes its rows from
/// it; bots still get the [`InfoSet`].
#[derive(Clone, Copy, Debug)]
pub struct SeatView<'a> {
    hand: &'a Hand,
    seat: u8,
    /// Each seat's runs in the hand as dealt ([`hand_runs`]).
    runs: &'a [Runs; SEAT_COUNT],
}

/// Each seat's runs in `hand` as dealt, for [`SeatView`] (found once a hand).
pub fn hand_runs(hand: &Hand) -> [Runs; SEAT_COUNT] {
    std::array::from_fn(|who| crate::runs::find_runs(hand.dealt(who)))
}

impl<'a> SeatView<'a> {
    /// `seat`'s view of the auto-mode `hand`, whose runs are `runs` ([`hand_runs`]).
    pub fn new(hand: &'a Hand, seat: u8, runs: &'a [Runs; SEAT_COUNT]) -> SeatView<'a> {
        debug_assert_eq!(hand.rules().declarations, Declarations::Auto);
        SeatView { hand, seat, runs }
    }
}

impl RowSource for SeatView<'_> {
    fn seat(&self) -> u8 {
        self.seat
    }
    fn dealer(&self) -> u8 {
        self.hand.dealer()
    }
    fn rules(&self) -> &Rules {
        self.hand.rules()
    }
    fn scores_before(&self) -> [u32; 2] {
        self.hand.scores_before()
    }
    fn points(&self) -> [u32; 2] {
        self.hand.points()
    }
    fn phase(&self) -> Phase {
        self.hand.phase()
    }
    fn to_move(&self) -> Option<u8> {
        self.hand.to_move()
    }
    #[inline]
    fn hand(&self) -> CardSet {
        visible_hand(self.hand, self.seat)
    }
    fn passes(&self) -> u8 {
        self.hand.passes()
    }
    fn trump(&self) -> Option<Suit> {
        self.hand.trump()
    }
    fn plays(&self) -> &[Card] {
        self.hand.plays()
    }
    fn trick_leader(&self) -> Option<u8> {
        self.hand.trick_leader()
    }
    fn current_trick(&self) -> &[Card] {
        self.hand.current_trick()
    }
    /// R4.4 auto mode: announced with a seat's first card.
    fn announced(&self, who: u8) -> Option<u32> {
        (self.hand.cards_played_by(who) >= CARDS_TO_ANNOUNCE)
            .then(|| self.runs[who as usize].best_points())
    }
    /// R4.4 auto mode: shown with a seat's second card.
    fn shown_cards(&self, who: u8) -> CardSet {
        if self.hand.cards_played_by(who) >= CARDS_TO_SHOW {
            self.runs[who as usize].cards()
        } else {
            CardSet::EMPTY
        }
    }
    fn runs_scored(&self) -> Option<(u8, u32)> {
        self.hand.runs_scored()
    }
    fn bella(&self) -> Option<u8> {
        self.hand.bella()
    }
}

/// What of one hand's row stays once read: its dealer, its auction once trump is named, its
/// completed tricks and their leaders, and the runs announced and shown, kept between rows of
/// the same hand at their places in a row, so that each trick is read once, the runs only
/// until none can be shown any more and the auction until it ends ([`encode_following`]): the
/// vectorized environment keeps one a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandSeen {
    /// Those bytes at their places; every other byte zero.
    kept: Row,
    /// The completed tricks read.
    count: usize,
    next_leader: u8,
    /// Trump is named: the auction read is the hand's whole auction (R3).
    auction_final: bool,
    /// No run can be announced or shown any more: the runs read are the hand's last (R4.4).
    runs_final: bool,
}

/// The plays after which no run can be shown: every seat's second card in auto mode, its
/// third in manual mode, where a `late_twenty` is shown in trick three (R4.4).
const fn plays_to_show(rules: &Rules) -> usize {
    match rules.declarations {
        Declarations::Auto => PLAYS_BEFORE_RUNS,
        Declarations::Manual => 3 * SEAT_COUNT,
    }
}

impl HandSeen {
    /// None seen yet, in a hand dealt by `dealer` (eldest leads the first trick, R3.5).
    pub const fn new(dealer: u8) -> HandSeen {
        let mut kept = EMPTY_ROW;
        kept[B_DEALER] = dealer + 1;
        HandSeen {
            kept,
            count: 0,
            next_leader: eldest(dealer),
            auction_final: false,
            runs_final: false,
        }
    }

    /// Reads what of `info` stays and was not read yet.
    #[inline]
    fn catch_up(&mut self, info: &impl RowSource) {
        debug_assert_eq!(self.kept[B_DEALER], info.dealer() + 1, "the same hand");
        if !self.auction_final {
            self.catch_up_auction(info);
        }
        self.catch_up_tricks(info);
        if !self.runs_final {
            self.catch_up_runs(info);
        }
    }

    /// Reads the auction so far (R3: the passes, then the call that names trump).
    fn catch_up_auction(&mut self, info: &impl RowSource) {
        let mut flags = 0;
        for (who, id) in auction_of(info.dealer(), info.passes(), info.trump()) {
            flags |= 1 << (2 * who + (id != PASS) as u8);
        }
        self.kept[B_AUCTION] = flags;
        self.auction_final = info.trump().is_some();
    }

    /// Reads the tricks of `info` completed since the last call (R5.2: each led by the last
    /// one's winner).
    #[inline]
    fn catch_up_tricks(&mut self, info: &impl RowSource) {
        let Some(trump) = info.trump() else {
            return;
        };
        let plays = info.plays();
        while (self.count + 1) * SEAT_COUNT <= plays.len() {
            let k = self.count;
            let cards = &plays[k * SEAT_COUNT..(k + 1) * SEAT_COUNT];
            let leader = self.next_leader;
            self.kept[B_TRICK_LEADERS + k] = leader + 1;
            for (pos, card) in cards.iter().enumerate() {
                self.kept[B_PAST_TRICKS + SEAT_COUNT * k + seat_after(leader, pos) as usize] =
                    card.index() + 1;
            }
            self.next_leader = seat_after(leader, TrickSoFar::of(cards, trump).winner());
            self.count += 1;
        }
    }

    /// Reads the runs announced and shown in `info` (R4.4).
    fn catch_up_runs(&mut self, info: &impl RowSource) {
        let mut announced = 0;
        for who in 0..SEATS {
            match info.announced(who) {
                Some(0) | None => {}
                Some(TWENTY) => announced |= 1 << (2 * who),
                Some(_) => announced |= 1 << (2 * who + 1),
            }
            write_cards(
                &mut self.kept,
                B_SHOWN + CARD_BYTES * who as usize,
                info.shown_cards(who),
            );
        }
        self.kept[B_ANNOUNCED] = announced;
        self.runs_final = info.plays().len() >= plays_to_show(info.rules());
    }
}

/// The compact row of the seat of `info` (the same information as its tensor).
#[inline]
pub fn encode(info: &InfoSet, row: &mut Row) {
    encode_following(info, row, &mut HandSeen::new(info.dealer()));
}

/// [`encode`], reading only what of the hand changed since `seen` last read it: the tricks
/// completed since, the auction until it ends and the runs while they can still change.
// Always inlined: called once a step of the vectorized environment, where the call cost a
// twentieth of a compact step.
#[inline(always)]
pub fn encode_following(info: &impl RowSource, row: &mut Row, seen: &mut HandSeen) {
    seen.catch_up(info);
    *row = seen.kept;
    let points = info.points();
    let scores = info.scores_before();
    for team in 0..TEAMS {
        let point = points[team].min(MAX_TEAM_POINTS) as u16;
        let score = scores[team].min(SCORE_SCALE) as u16;
        row[B_POINTS + 2 * team..][..2].copy_from_slice(&point.to_le_bytes());
        row[B_SCORES + 2 * team..][..2].copy_from_slice(&score.to_le_bytes());
    }
    row[B_SEAT] = info.seat() + 1;
    row[B_PHASE] = phase_index(info.phase()) + 1;
    // R2.4: the kitty is unseen until trump is named.
    row[B_KITTY] = info.trump().is_none() as u8;
    row[B_TRUMP] = info.trump().map_or(0, |suit| suit as u8 + 1);
    if let Some(leader) = info.trick_leader() {
        row[B_TRICK_LEADER] = leader + 1;
        for (pos, card) in info.current_trick().iter().enumerate() {
            row[B_TRICK + seat_after(leader, pos) as usize] = card.index() + 1;
        }
    }
    write_cards(row, B_HAND, info.hand());
    row[B_RUNS_WINNER] = info.runs_scored().map_or(0, |(who, _)| who + 1);
    row[B_BELLA] = info.bella().map_or(0, |who| who + 1);
    row[B_TO_MOVE] = info.to_move().map_or(0, |who| who + 1);
}

/// `legal` (bit = action id) as one int8 a legal action, 1 or 0: `NUM_ACTIONS` bytes.
#[inline]
pub fn write_mask(legal: u64, mask: &mut [i8; NUM_ACTIONS as usize]) {
    for (k, chunk) in mask.chunks_mut(8).enumerate() {
        let bytes = BYTES_OF_BITS[((legal >> (8 * k)) & 0xFF) as usize].to_le_bytes();
        for (slot, &byte) in chunk.iter_mut().zip(&bytes) {
            *slot = byte as i8;
        }
    }
}

/// Entry `b`: the eight bits of `b` as eight bytes of 0 or 1, bit 0 first.
const BYTES_OF_BITS: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut bit = 0;
        while bit < 8 {
            table[b] |= (((b >> bit) & 1) as u64) << (8 * bit);
            bit += 1;
        }
        b += 1;
    }
    table
};

/// The tensor's phase order: auction, play, done.
const fn phase_index(phase: Phase) -> u8 {
    match phase {
        Phase::Auction => 0,
        Phase::Play => 1,
        Phase::Done => 2,
    }
}

/// Writes `cards` as `CARD_BYTES` little-endian bytes of `bytes` from `byte` (a row's, or the
/// shown bytes `HandSeen` keeps for one).
#[inline]
fn write_cards(bytes: &mut [u8], byte: usize, cards: CardSet) {
    bytes[byte..byte + CARD_BYTES].copy_from_slice(&cards.bits().to_le_bytes()[..CARD_BYTES]);
}

/// The bytes the row is compared in at a time.
const WORD: usize = 8;
const _: () = assert!(COMPACT_SIZE >= WORD);

/// The eight bytes of `row` from `at` (at most `COMPACT_SIZE - WORD`), little-endian.
#[inline(always)]
fn word(row: &Row, at: usize) -> u64 {
    let mut bytes = [0u8; WORD];
    bytes.copy_from_slice(&row[at..at + WORD]);
    u64::from_le_bytes(bytes)
}

/// The little-endian value of the `width` bytes of `row` from `byte` (a field's bytes).
#[inline(always)]
fn read_bits(row: &Row, byte: usize, width: usize) -> u64 {
    // The word that holds the field, ending at the row's end for the last fields.
    let at = byte.min(COMPACT_SIZE - WORD);
    (word(row, at) >> (8 * (byte - at))) & (u64::MAX >> (8 * (WORD - width)))
}

/// Byte by byte of a row: the index in [`LAYOUT`] of the segment it is in, and its slot.
const FIELD_OF_BYTE: [(u8, u8); COMPACT_SIZE] = {
    let mut table = [(0u8, 0u8); COMPACT_SIZE];
    let mut k = 0;
    while k < LAYOUT.len() {
        let segment = LAYOUT[k];
        let width = segment.kind.width();
        let mut offset = 0;
        while offset < segment.slots * width {
            table[segment.byte + offset] = (k as u8, (offset / width) as u8);
            offset += 1;
        }
        k += 1;
    }
    table
};

/// `tensor`, the expansion of `old`, becomes the expansion of `new`: only the entries of the
/// fields that differ are written. The rows are compared a word at a time, so a step that
/// changes a few fields costs a dozen comparisons and those fields.
#[inline]
pub fn update_tensor(old: &Row, new: &Row, tensor: &mut [f32; TENSOR_SIZE]) {
    let mut byte = 0;
    while byte < COMPACT_SIZE {
        let at = byte.min(COMPACT_SIZE - WORD);
        let differ = (word(old, at) ^ word(new, at)) >> (8 * (byte - at));
        if differ == 0 {
            byte = at + WORD;
            continue;
        }
        byte += differ.trailing_zeros() as usize / 8;
        let (k, slot) = FIELD_OF_BYTE[byte];
        let segment = &LAYOUT[k as usize];
        let width = segment.kind.width();
        let start = segment.byte + slot as usize * width;
        rewrite_field(segment, slot as usize, old, new, start, tensor);
        byte = start + width;
    }
}

/// Writes the entries of field `slot` of `segment` (its bytes from `start`) that differ
/// between the expansions of `old` and `new`.
#[inline(always)]
fn rewrite_field(
    segment: &Segment,
    slot: usize,
    old: &Row,
    new: &Row,
    start: usize,
    tensor: &mut [f32; TENSOR_SIZE],
) {
    let width = segment.kind.width();
    let entry = segment.entry + slot * segment.stride;
    let (was, now) = (read_bits(old, start, width), read_bits(new, start, width));
    match segment.kind {
        Kind::OneHot => {
            if was > 0 {
                tensor[entry + was as usize - 1] = 0.0;
            }
            if now > 0 {
                tensor[entry + now as usize - 1] = 1.0;
            }
        }
        Kind::Flags(_) | Kind::Cards => {
            let mut changed = was ^ now;
            while changed != 0 {
                let bit = changed.trailing_zeros() as usize;
                tensor[entry + bit] = ((now >> bit) & 1) as f32;
                changed &= changed - 1;
            }
        }
        Kind::Count(max) => tensor[entry] = ratio(now as u32, max),
    }
}

/// The tensor of a row, written into `tensor`.
pub fn expand(row: &Row, tensor: &mut [f32; TENSOR_SIZE]) {
    tensor.fill(0.0);
    update_tensor(&EMPTY_ROW, row, tensor);
}

/// The information-state tensor of the seat of `info` (docs/ENGINE.md), written into `out`:
/// the expansion of its compact row (above), so the two always agree.
pub fn write_tensor(info: &InfoSet, out: &mut [f32; TENSOR_SIZE]) {
    let mut row = EMPTY_ROW;
    encode(info, &mut row);
    expand(&row, out);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::random::random_action;
    use crate::cards::CardSet;
    use crate::infoset::tests::auto_rules;
    use crate::rng::SplitMix64;
    use crate::state::{Hand, ANNOUNCE, SHOW};
    use crate::table::TableHand;

    /// Moving a tensor from one row to another by [`update_tensor`] gives the expansion of the
    /// new row, and reading tricks as they complete ([`encode_following`]) gives the row of
    /// [`encode`], across random hands and seats (every field changes at some step).
    #[test]
    fn updating_equals_expanding() {
        let mut rng = SplitMix64::new(5);
        let mut previous = EMPTY_ROW;
        let mut kept = [0.0f32; TENSOR_SIZE];
        let mut fresh = [0.0f32; TENSOR_SIZE];
        for game in 0..200u64 {
            let rules = Rules {
                team_runs: game % 2 == 1,
                ..Rules::default()
            };
            let mut hand = Hand::from_seed(game, (game % 4) as u8, rules, [game as u32 * 7, 990]);
            let mut seen = HandSeen::new(hand.dealer());
            loop {
                let seat = rng.below(4) as u8;
                let info = InfoSet::new(&hand, seat);
                let mut row = EMPTY_ROW;
                encode(&info, &mut row);
                let mut following = EMPTY_ROW;
                encode_following(&info, &mut following, &mut seen);
                assert_eq!(row, following);
                update_tensor(&previous, &row, &mut kept);
                expand(&row, &mut fresh);
                assert_eq!(kept, fresh);
                assert!(fresh.iter().all(|v| (0.0..=1.0).contains(v)));
                previous = row;
                if hand.is_terminal() {
                    break;
                }
                hand.apply_unchecked(random_action(hand.legal_mask(), &mut rng));
            }
        }
    }

    /// A seat's view read straight from an auto-mode hand ([`SeatView`]) gives the row of its
    /// [`InfoSet`], read from scratch or following the hand, for every seat at every step of
    /// random hands under every combination of the auto-mode options (the auction's ends,
    /// runs, R5.1's variants) and match scores.
    #[test]
    fn seat_views_equal_information_sets() {
        // Four hands for each of the 128 rule combinations.
        for seed in 0..512u64 {
            let rules = auto_rules(seed % 128);
            let mut rng = SplitMix64::new(seed);
            let scores = [rng.below(SCORE_SCALE + 100), rng.below(400)];
            let mut hand = Hand::from_seed(seed, (seed % 4) as u8, rules, scores);
            let runs = hand_runs(&hand);
            let mut seen = [HandSeen::new(hand.dealer()); SEAT_COUNT];
            loop {
                for seat in 0..SEATS {
                    let (mut row, mut following) = (EMPTY_ROW, EMPTY_ROW);
                    encode(&InfoSet::new(&hand, seat), &mut row);
                    let view = SeatView::new(&hand, seat, &runs);
                    encode_following(&view, &mut following, &mut seen[seat as usize]);
                    assert_eq!(row, following, "seed {seed}, seat {seat}");
                }
                if hand.is_terminal() {
                    break;
                }
                hand.apply_unchecked(random_action(hand.legal_mask(), &mut rng));
            }
        }
    }

    /// In table mode, where runs are announced and shown as actions of their own and a
    /// `late_twenty` is shown in trick three (R4.4), reading a hand's runs only until none can
    /// be shown still gives the row of [`encode`] for every seat at every step.
    #[test]
    fn following_equals_encoding_in_table_mode() {
        for seed in 0..256u64 {
            let rules = Rules {
                declarations: Declarations::Manual,
                late_twenty: seed & 1 != 0,
                first_bell_ok: seed & 2 != 0,
                enforce_legal_play: seed & 4 == 0,
                ..Rules::default()
            };
            let mut rng = SplitMix64::new(seed);
            let mut hand = TableHand::from_seed(seed, (seed % 4) as u8, rules, [0, 0]);
            let mut seen = HandSeen::new(hand.hand().dealer());
            while let Some(mover) = hand.hand().to_move() {
                for seat in 0..SEATS {
                    let info = InfoSet::of_table(&hand, seat);
                    let (mut row, mut following) = (EMPTY_ROW, EMPTY_ROW);
                    encode(&info, &mut row);
                    encode_following(&info, &mut following, &mut seen);
                    assert_eq!(row, following, "seed {seed}, seat {seat}");
                }
                // Every run announced; shown in trick two or, for a late twenty, in trick three.
                let mask = hand.legal_mask(mover);
                let late = hand.hand().plays().len() >= 2 * SEAT_COUNT;
                let action = if mask & (1 << ANNOUNCE) != 0 {
                    ANNOUNCE
                } else if mask & (1 << SHOW) != 0 && (late || seed & 8 != 0) {
                    SHOW
                } else {
                    let cards = mask & !(1 << SHOW);
                    CardSet(cards).nth(rng.below(cards.count_ones())).index()
                };
                hand.apply_unchecked(mover, action);
            }
        }
    }
}
