"""Hypothesis strategies shared by the whole test suite.

Cards, hands of distinct cards, trumps, every combination of the play and scoring variants
(R9), reachable positions in a trick (the players before the mover held cards too, and each of
them played a card that was legal for their hand: R5.1), and per-seat run lists taken from
disjoint hands (R4.1).

Building *reachable* tricks needs a legality rule, so this module carries a small spec model of
R5.1/R5.2/R4.1 written straight from docs/RULES.md (``model_*``). It is independent of both
engines; the rule-table tests do not use it (their expected values are worked out by hand).
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from hypothesis import settings
from hypothesis import strategies as st
from tarabish import DECK, Card, Rank, Rules, Run, Suit
from tarabish._actions import ANNOUNCE_ID, BELLA_ID, MISPLAY_ID, PASS_ID, SHOW_ID, THROW_ID

# --------------------------------------------------------------------------------------------
# Spec model (RULES.md), used to generate reachable positions and as an extra oracle.
# --------------------------------------------------------------------------------------------

#: R1.2, highest first, as rank letters in natural-order notation.
TRUMP_ORDER = "J9ATKQ876"
PLAIN_ORDER = "ATKQJ9876"


def trick_strength(card: Card, trump: Suit, led: Suit) -> int:
    """A number that orders the cards of one trick (R1.2, R5.2): trumps above the led suit,
    the led suit above everything else (which never wins)."""
    letter = str(card.rank)
    if card.suit == trump:
        return 200 - TRUMP_ORDER.index(letter)
    if card.suit == led:
        return 100 - PLAIN_ORDER.index(letter)
    return 0


def model_trick_winner(trick: Sequence[Card], trump: Suit) -> int:
    """R5.2: the highest trump, else the highest card of the suit led."""
    led = trick[0].suit
    strengths = [trick_strength(card, trump, led) for card in trick]
    return strengths.index(max(strengths))


def model_legal_plays(
    hand: Iterable[Card], trick: Sequence[Card], trump: Suit, rules: Rules
) -> list[Card]:
    """R5.1 with the variants head_plain, undertrump_optional and partner_exempt."""
    hand = sorted(set(hand), key=lambda card: card.index)
    if not trick:
        return hand
    led = trick[0].suit

    def trump_rank(card: Card) -> int:
        return len(TRUMP_ORDER) - TRUMP_ORDER.index(str(card.rank))

    def plain_rank(card: Card) -> int:
        return len(PLAIN_ORDER) - PLAIN_ORDER.index(str(card.rank))

    trumps_in_trick = [card for card in trick if card.suit == trump]
    follow = [card for card in hand if card.suit == led]
    if follow:  # R5.1a
        if led == trump:
            best = max(trump_rank(card) for card in trumps_in_trick)
            return [card for card in follow if trump_rank(card) > best] or follow
        if rules.head_plain and not trumps_in_trick:
            best = max(plain_rank(card) for card in trick if card.suit == led)
            return [card for card in follow if plain_rank(card) > best] or follow
        return follow
    partner = len(trick) - 2
    if rules.partner_exempt and partner >= 0 and model_trick_winner(trick, trump) == partner:
        return hand
    my_trumps = [card for card in hand if card.suit == trump]
    if not my_trumps:  # R5.1c
        return hand
    if not trumps_in_trick:  # R5.1b, no trump yet
        return my_trumps
    best = max(trump_rank(card) for card in trumps_in_trick)
    over = [card for card in my_trumps if trump_rank(card) > best]
    if over:
        return over
    return hand if rules.undertrump_optional else my_trumps


#: R0 natural order, the order of runs (R4.1), lowest first: a suit's held ranks as a string.
NATURAL_ORDER = "6789TJQKA"

#: R4.1's cut of a maximal sequence of L cards, as RULES.md spells it out: the run lengths from
#: the top (3 -> 20; 4, 5 or 6 -> one 50, the top four; 7 -> 50 + 20; 8 -> 50 + 50; 9 -> 50 + 50
#: and a card left over; shorter than 3 -> nothing).
RUN_CUTS = {1: (), 2: (), 3: (3,), 4: (4,), 5: (4,), 6: (4,), 7: (4, 3), 8: (4, 4), 9: (4, 4)}


def model_find_runs(hand: Iterable[Card]) -> list[Run]:
    """R4.1 read off each suit's pattern: the suit's held ranks in natural order as a string
    (``"6.89TJ..A"``), whose unbroken stretches are the maximal sequences, each cut by
    ``RUN_CUTS``; ordered as docs/ENGINE.md (length desc, top desc, suit asc)."""
    held = set(hand)
    runs: list[Run] = []
    for suit in Suit:
        pattern = "".join(
            letter if Card(suit, Rank(rank)) in held else "."
            for rank, letter in enumerate(NATURAL_ORDER)
        )
        for stretch in re.finditer(r"[^.]+", pattern):
            top = stretch.end() - 1
            for length in RUN_CUTS[len(stretch.group())]:
                runs.append(Run(suit, Rank(top), length))
                top -= length
    return sorted(runs, key=lambda run: (-run.length, -int(run.top), int(run.suit)))


# --------------------------------------------------------------------------------------------
# Basic values
# --------------------------------------------------------------------------------------------

VARIANT_NAMES = (
    "head_plain",
    "undertrump_optional",
    "partner_exempt",
    "team_runs",
    "half_bait_is_bait",
)

#: Every combination of the five variants that touch the primitives (32 Rules).
ALL_VARIANT_RULES: tuple[Rules, ...] = tuple(
    Rules(**dict(zip(VARIANT_NAMES, flags, strict=True)))
    for flags in itertools.product((False, True), repeat=len(VARIANT_NAMES))
)

#: Every possible run value (R4.1): 28 twenties and 24 fifties.
ALL_RUNS: tuple[Run, ...] = tuple(
    Run(suit, Rank(top), length)
    for length in (3, 4)
    for suit in Suit
    for top in range(length - 1, 9)
)

cards = st.sampled_from(DECK)
suits = st.sampled_from(tuple(Suit))
runs = st.sampled_from(ALL_RUNS)


def rules_variants() -> st.SearchStrategy[Rules]:
    """Any combination of head_plain / undertrump_optional / partner_exempt / team_runs /
    half_bait_is_bait (the other options at their defaults)."""
    return VARIANT_RULES


def trumps() -> st.SearchStrategy[Suit | str]:
    """A trump as the engines accept it: a ``Suit`` or its letter (either case)."""
    return st.one_of(suits, suits.map(str), suits.map(lambda suit: str(suit).lower()))


def hands(min_size: int = 1, max_size: int = 9) -> st.SearchStrategy[list[Card]]:
    """Distinct cards, in a random order."""
    return st.lists(cards, min_size=min_size, max_size=max_size, unique=True)


def card_forms(cards_: Sequence[Card]) -> st.SearchStrategy[list[Card] | list[str] | str]:
    """The same cards as ``Card`` objects, as card texts, or as one string (ENGINE.md)."""
    as_list = list(cards_)
    return st.sampled_from(
        [as_list, [str(card) for card in as_list], " ".join(str(card) for card in as_list)]
    )


#: docs/DECISIONS.md: points and scores accepted as input are whole numbers 0..2**30-1.
MAX_POINTS = 2**30 - 1


def points_pairs(max_points: int = 400) -> st.SearchStrategy[tuple[int, int]]:
    """Two teams' points for a hand, including the exact ties (R6.4) and, now and then,
    values up to the accepted limit (docs/DECISIONS.md)."""
    single = st.integers(0, max_points)
    return st.one_of(
        st.tuples(st.integers(0, MAX_POINTS), st.integers(0, MAX_POINTS)),
        st.integers(0, MAX_POINTS).map(lambda p: (p, p)),
        st.tuples(single, single),
        single.map(lambda p: (p, p)),
        st.tuples(single, st.integers(-2, 2)).map(lambda t: (t[0], max(0, t[0] + t[1]))),
        st.tuples(st.integers(0, 162), st.sampled_from([0, 20, 40, 50, 70, 100, 120])).map(
            lambda t: (t[0] + t[1], 162 - t[0])  # a played-out hand: 162 plus runs and bella
        ),
    )


# --------------------------------------------------------------------------------------------
# Reachable positions in a trick
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlaySituation:
    """The mover's ``hand`` (random order), the ``trick`` so far (0-3 cards, each legal for the
    hand its player held), ``trump`` and ``rules``. ``earlier`` are the hands the earlier players
    held before playing; all hands have the same size and are disjoint."""

    hand: list[Card]
    trick: list[Card]
    trump: Suit
    rules: Rules
    earlier: tuple[tuple[Card, ...], ...]


def primitive() -> settings:
    """Settings for the differential properties of one rule primitive (Rust against the
    reference): a tenth of the profile's examples (1,000 in ``ci``). Every primitive is also
    checked exhaustively (test_exhaustive_primitives.py: trick order, card points, runs and
    their comparison) and inside every differential whole hand, where each decision compares
    the legal sets, trick winners and runs again."""
    return settings(max_examples=max(30, settings.default.max_examples // 10))


def secondary() -> settings:
    """Settings for properties that check ONE engine against the test's own model or for
    crashes: a tenth of the profile's examples. The differential properties (Rust against the
    reference) run more: ``primitive()`` for one primitive, and each whole-game file says its
    own count."""
    return settings(max_examples=max(30, settings.default.max_examples // 10))


#: One number from which a composite strategy builds a whole example with ``random.Random``:
#: a single cheap draw per example (building strategies inside a draw costs milliseconds),
#: at the price of coarser shrinking. A failing example is still reproduced exactly.
SEEDS = st.integers(0, 2**64 - 1)
VARIANT_RULES = st.sampled_from(ALL_VARIANT_RULES)


def _draw_hand(
    rng: random.Random, available: list[Card], size: int, void_in: Suit | None = None
) -> list[Card]:
    """``size`` cards from ``available``, often from only some suits (so voids are common),
    and often void in ``void_in`` (the suit led, for the mover)."""
    wanted = {suit for suit in Suit if rng.random() < 0.5} or {rng.choice(list(Suit))}
    if void_in is not None and rng.random() < 0.5:
        wanted.discard(void_in)
    pool = [card for card in available if card.suit in wanted]
    if len(pool) < size:
        pool = available
    return rng.sample(pool, size)


@st.composite
def play_situations(
    draw: st.DrawFn,
    rules: st.SearchStrategy[Rules] | None = None,
    min_trick: int = 0,
    max_trick: int = 3,
) -> PlaySituation:
    """A reachable position: four disjoint equal hands, the first players of the trick have
    played a legal card each, the next player (``hand``) is to move."""
    rules_ = draw(VARIANT_RULES if rules is None else rules)
    rng = random.Random(draw(SEEDS))
    trump = rng.choice(list(Suit))
    played = rng.randint(min_trick, max_trick)
    available = list(DECK)
    if rng.random() < 0.5:
        # Focus on the trump and one or two other suits: ruffs, overtrumps, undertrumps and
        # voids become common (smaller hands, as late in a hand).
        focus = {trump, *rng.sample(list(Suit), rng.randint(1, 2))}
        available = [card for card in DECK if card.suit in focus]
    size = rng.randint(1, min(9, len(available) // (played + 1)))
    seat_hands: list[list[Card]] = []
    trick: list[Card] = []
    for seat in range(played + 1):  # the mover's hand is drawn last, to fit the trick
        hand = _draw_hand(rng, available, size, trick[0].suit if trick else None)
        available = [card for card in available if card not in hand]
        seat_hands.append(hand)
        if seat < played:
            options = model_legal_plays(hand, trick, trump, rules_)
            trick.append(rng.choice(options))
    return PlaySituation(
        hand=seat_hands[played],
        trick=trick,
        trump=trump,
        rules=rules_,
        earlier=tuple(tuple(hand) for hand in seat_hands[:played]),
    )


@st.composite
def reachable_tricks(
    draw: st.DrawFn, min_size: int = 1, max_size: int = 4
) -> tuple[list[Card], Suit]:
    """A trick of ``min_size``..``max_size`` cards played legally (any variants), with trump."""
    situation = draw(_SITUATIONS_BY_TRICK[(min_size - 1, max_size - 1)])
    options = model_legal_plays(situation.hand, situation.trick, situation.trump, situation.rules)
    rng = random.Random(draw(SEEDS))
    return [*situation.trick, rng.choice(options)], situation.trump


# Built once: a strategy built inside a draw costs more than the example itself.
_SITUATIONS_BY_TRICK = {
    (low, high): play_situations(min_trick=low, max_trick=high)
    for low in range(4)
    for high in range(low, 4)
}


@st.composite
def distinct_tricks(
    draw: st.DrawFn, min_size: int = 1, max_size: int = 4
) -> tuple[list[Card], Suit]:
    """Any distinct cards as a trick (not necessarily reachable), with trump."""
    return draw(hands(min_size, max_size)), draw(suits)


# --------------------------------------------------------------------------------------------
# Runs per seat
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatRuns:
    """Four disjoint hands of at most 9 cards and the runs declared from each (a sublist of
    its R4.1 runs, in random order)."""

    hands: tuple[tuple[Card, ...], ...]
    runs: list[list[Run]]
    trump: Suit


@st.composite
def seat_runs(draw: st.DrawFn, declare_all: bool = False) -> SeatRuns:
    """Hands built around random sequences (so runs and equal runs of two players are common),
    filled up with random cards; each seat declares its runs (all, or a random sublist)."""
    rng = random.Random(draw(SEEDS))
    available = set(DECK)
    shapes: list[tuple[int, int]] = []
    hands_: list[tuple[Card, ...]] = []
    declared: list[list[Run]] = []
    for _ in range(4):
        hand: set[Card] = set()
        for _ in range(rng.randint(0, 2)):
            suit = rng.choice(list(Suit))
            if shapes and rng.random() < 0.5:
                length, top = rng.choice(shapes)  # mirror another seat's sequence
            else:
                length = rng.randint(3, 9)
                top = rng.randint(length - 1, 8)
            chunk = {Card(suit, Rank(top - k)) for k in range(length)}
            if chunk <= available and len(hand | chunk) <= 9:
                hand |= chunk
                available -= chunk
                shapes.append((length, top))
        room = min(9 - len(hand), len(available))
        filler = set(rng.sample(sorted(available), rng.randint(0, room))) if room else set()
        hand |= filler
        available -= filler
        seat_list = model_find_runs(hand)
        if not declare_all:
            seat_list = [run for run in seat_list if rng.randint(0, 4) > 0]
        rng.shuffle(seat_list)
        declared.append(seat_list)
        hands_.append(tuple(sorted(hand)))
    return SeatRuns(hands=tuple(hands_), runs=declared, trump=rng.choice(list(Suit)))


# --------------------------------------------------------------------------------------------
# Whole hands and matches (game-level tests)
# --------------------------------------------------------------------------------------------


def game_rules(targets: Sequence[int] = (500,)) -> st.SearchStrategy[Rules]:
    """Rules for ``HandState``/``MatchState`` (auto declarations, legal play enforced) with any
    combination of the auction variants (dealer_may_pass, forced_at) and the play and scoring
    variants (team_runs, head_plain, undertrump_optional, partner_exempt, half_bait_is_bait)."""
    return st.builds(
        Rules,
        target=st.sampled_from(tuple(targets)),
        dealer_may_pass=st.booleans(),
        forced_at=st.one_of(st.none(), st.sampled_from((100, 250, 400))),
        team_runs=st.booleans(),
        head_plain=st.booleans(),
        undertrump_optional=st.booleans(),
        partner_exempt=st.booleans(),
        half_bait_is_bait=st.booleans(),
    )


def score_pairs(high: int = 600) -> st.SearchStrategy[tuple[int, int]]:
    """Match scores before a hand: random pairs, equal pairs, and pairs around the forced_at
    values of ``game_rules`` (R3.4: both over, exactly equal, one just below)."""
    single = st.integers(0, high)
    near = st.sampled_from((99, 100, 101, 249, 250, 251, 399, 400, 401, 450))
    return st.one_of(
        st.tuples(single, single),
        single.map(lambda s: (s, s)),
        st.tuples(near, near),
        st.tuples(near, single),
        st.tuples(single, near),
    )


def planted_deal(rng: random.Random) -> list[list[Card]]:
    """A deal (four lists of 9 cards in the order received) where equal-shaped runs are
    planted in two seats' hands in different suits, so that equal runs of two players (R4.3
    ties, trump against plain R4.2), long runs and several runs a seat are common."""
    available = set(DECK)
    hands_: list[list[Card]] = [[], [], [], []]
    for _ in range(rng.randint(1, 3)):
        length = rng.choice((3, 3, 4, 4, 5, 6, 7, 8))
        top = rng.randint(length - 1, 8)
        seats = rng.sample(range(4), 2)
        suit_pair = rng.sample(list(Suit), 2)
        for seat, suit in zip(seats, suit_pair, strict=True):
            chunk = [Card(suit, Rank(top - k)) for k in range(length)]
            if all(card in available for card in chunk) and len(hands_[seat]) + length <= 9:
                hands_[seat] += chunk
                available -= set(chunk)
    rest = sorted(available)
    rng.shuffle(rest)
    for seat in range(4):
        need = 9 - len(hands_[seat])
        hands_[seat] += rest[:need]
        rest = rest[need:]
        rng.shuffle(hands_[seat])
    return hands_


@dataclass(frozen=True)
class HandSetup:
    """How to start a hand: dealer, rules, scores_before, and either a seed or a deal;
    ``action_seed`` drives a ``random.Random`` that picks the actions, ``pass_bias`` the chance
    of passing when a pass is legal (so that void hands and forced calls are common)."""

    dealer: int
    rules: Rules
    scores_before: tuple[int, int]
    seed: int | None
    deal: list[list[Card]] | None
    action_seed: int
    pass_bias: float

    def kwargs(self) -> dict[str, object]:
        source: dict[str, object] = (
            {"seed": self.seed} if self.deal is None else {"deal": [list(h) for h in self.deal]}
        )
        return {"rules": self.rules, "scores_before": self.scores_before, **source}


RULE_FLAGS = (
    "dealer_may_pass",
    "team_runs",
    "head_plain",
    "undertrump_optional",
    "partner_exempt",
    "half_bait_is_bait",
)
FORCED_AT = (None, None, 100, 250, 400)
NEAR_FORCED = (99, 100, 101, 249, 250, 251, 399, 400, 401, 450)


def hand_setup_from_seed(seed: int) -> HandSetup:
    """Everything about a random hand from one number (cheap for hypothesis to draw): dealer,
    rules (any combination of the variants), scores_before (random, equal, or around the
    forced_at values), a seeded deal or a planted one, the action seed and the pass bias."""
    rng = random.Random(seed)
    rules = Rules(
        forced_at=rng.choice(FORCED_AT),
        **{flag: rng.random() < 0.5 for flag in RULE_FLAGS},
    )
    shape = rng.randrange(4)
    if shape == 0:
        scores = (rng.randint(0, 600), rng.randint(0, 600))
    elif shape == 1:
        same = rng.choice((rng.randint(0, 600), *NEAR_FORCED))
        scores = (same, same)
    else:
        scores = (rng.choice(NEAR_FORCED), rng.choice(NEAR_FORCED))
        if shape == 3:
            scores = (scores[0], rng.randint(0, 600))[:: rng.choice((1, -1))]
    planted = rng.random() < 0.5
    return HandSetup(
        dealer=rng.randrange(4),
        rules=rules,
        scores_before=(scores[0], scores[1]),
        seed=None if planted else rng.getrandbits(64),
        deal=planted_deal(rng) if planted else None,
        action_seed=rng.getrandbits(32),
        pass_bias=rng.choice((0.0, 0.6, 0.95)),
    )


def hand_setups() -> st.SearchStrategy[HandSetup]:
    """A random hand (see ``hand_setup_from_seed``)."""
    return st.integers(0, 2**64 - 1).map(hand_setup_from_seed)


def choose_action(ids: Sequence[int], rng: random.Random, pass_bias: float) -> int:
    """A legal id: a pass with probability ``pass_bias`` when it is legal, else uniform."""
    if PASS_ID in ids and rng.random() < pass_bias:
        return PASS_ID
    return ids[rng.randrange(len(ids))]


# --------------------------------------------------------------------------------------------
# Table mode (docs/TABLE.md): rules, seats acting in and out of turn, misplays, calls
# --------------------------------------------------------------------------------------------

#: Table-mode ids (docs/TABLE.md): declarations, then the two calls any seat may make.
DECLARATION_IDS = (ANNOUNCE_ID, SHOW_ID, BELLA_ID)
CALL_IDS = (MISPLAY_ID, THROW_ID)


def table_rules_from(rng: random.Random) -> Rules:
    """Rules with any combination of table mode's options (R4.4, R4.5, R8) and of the other R9
    variants; mostly manual declarations and accepted misplays, so both are common."""
    return Rules(
        forced_at=rng.choice(FORCED_AT),
        declarations="manual" if rng.random() < 0.8 else "auto",
        enforce_legal_play=rng.random() < 0.25,
        first_bell_ok=rng.random() < 0.5,
        late_twenty=rng.random() < 0.5,
        **{flag: rng.random() < 0.5 for flag in RULE_FLAGS},
    )


def table_setup_from_seed(seed: int) -> HandSetup:
    """A random table-mode hand from one number: ``hand_setup_from_seed``'s dealer, scores and
    deal (planted runs half the time), with table rules."""
    setup = hand_setup_from_seed(seed)
    rng = random.Random(seed ^ 0x7AB1E)
    return HandSetup(
        dealer=setup.dealer,
        rules=table_rules_from(rng),
        scores_before=setup.scores_before,
        seed=setup.seed,
        deal=setup.deal,
        action_seed=setup.action_seed,
        pass_bias=rng.choice((0.0, 0.3)),
    )


@dataclass(frozen=True)
class TableHabits:
    """How a random table player behaves: the chance of a misplay when one is possible, of
    taking a declaration it may make (so declarations are forgotten or made late), and of a
    call at a given step (any seat, in or out of turn)."""

    misplay: float
    declare: float
    call: float

    @classmethod
    def from_rng(cls, rng: random.Random) -> TableHabits:
        return cls(
            misplay=rng.choice((0.0, 0.05, 0.3)),
            declare=rng.choice((0.5, 0.9, 1.0)),
            call=rng.choice((0.0, 0.01, 0.05)),
        )


def choose_table_action(
    state: object, rng: random.Random, habits: TableHabits, pass_bias: float
) -> tuple[int, int]:
    """``(seat, id)``: a call by a random seat now and then, else the seat to move takes a
    declaration, a misplay or a legal card as ``habits`` say (R8.1-R8.3, R4.4, R4.5)."""
    mover = state.to_move  # type: ignore[attr-defined]
    seat = rng.randrange(4)
    if rng.random() < habits.call:
        calls = [i for i in state.allowed_action_ids(seat) if i in CALL_IDS]  # type: ignore[attr-defined]
        if calls:
            return seat, rng.choice(calls)
    allowed = state.allowed_action_ids(mover)  # type: ignore[attr-defined]
    legal = state.legal_action_ids(mover)  # type: ignore[attr-defined]
    declarations = [i for i in allowed if i in DECLARATION_IDS]
    if declarations and rng.random() < habits.declare:
        return mover, rng.choice(declarations)
    misplays = [i for i in allowed if i < 36 and i not in legal]
    if misplays and rng.random() < habits.misplay:
        return mover, rng.choice(misplays)
    plain = [i for i in legal if i <= 40]
    if not plain:  # after a bella whose K and Q are both misplays now (R8.6e)
        plain = [i for i in allowed if i <= 40]
    return mover, choose_action(plain, rng, pass_bias)


def playout_counts(
    play_random_hand: Callable[..., Any], seeds: Sequence[int], rules: Rules
) -> dict[str, Any]:
    """What ``simulate`` sums (``Summary.counts()`` keys) over the random playouts of hand seeds
    ``seeds``, hand i dealt by seat i % 4, each played one by one by ``play_random_hand`` of an
    engine (docs/ENGINE.md "Random playouts")."""
    outcomes = dict.fromkeys(("made", "bait", "half_bait", "void", "misplay", "throw_in"), 0)
    tricks, calls, points, score = [0] * 4, [0] * 4, [0, 0], [0, 0]
    runs = run_points = bella = 0
    for i, seed in enumerate(seeds):
        result = play_random_hand(seed, i % 4, rules).result
        outcomes[result.outcome.value] += 1
        for done in result.tricks:
            tricks[done.winner] += done.points
        if result.caller is not None:
            calls[result.caller] += 1
        for team in (0, 1):
            points[team] += result.points[team]
            score[team] += result.score[team]
        if result.runs is not None:
            runs += 1
            run_points += result.runs.points
        bella += result.bella is not None
    return {
        "hands": len(seeds),
        "outcomes": outcomes,
        "trick_points_by_seat": tricks,
        "calls_by_seat": calls,
        "points_by_team": points,
        "score_by_team": score,
        "hands_with_runs": runs,
        "run_points": run_points,
        "hands_with_bella": bella,
    }
