"""Exhaustive tests of the rule primitives on both engines, against small tables written here
from docs/RULES.md (not from either engine).

- Trick order (R1.2, R5.2): every ordered pair of distinct cards, under every trump, as a
  two-card trick (led by the first card) and behind a lead of every suit.
- Runs (R4.1): every consecutive sequence of 3..9 cards at every position in every suit, every
  subset of one suit (sequences with gaps), and two sequences in two suits (ordering).
- Run comparison (R4.2): every pair of possible runs under every trump.
- Card points (R1.3): every card under every trump.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from types import ModuleType

import pytest
from strategies import model_find_runs
from tarabish import DECK, Card, Rank, Run, Suit

# --------------------------------------------------------------------------------------------
# Independent tables (RULES.md R1.2, R1.3, R4.1, R4.2)
# --------------------------------------------------------------------------------------------

# R1.2 trick order, highest first, by rank letter.
TRUMP_HIGH_TO_LOW = ["J", "9", "A", "T", "K", "Q", "8", "7", "6"]
PLAIN_HIGH_TO_LOW = ["A", "T", "K", "Q", "J", "9", "8", "7", "6"]
TRUMP_POWER = {letter: 9 - i for i, letter in enumerate(TRUMP_HIGH_TO_LOW)}
PLAIN_POWER = {letter: 9 - i for i, letter in enumerate(PLAIN_HIGH_TO_LOW)}


def expected_winner(trick: Sequence[Card], trump: Suit) -> int:
    """R5.2: any trump beats every non-trump; otherwise the suit led; other cards never win."""
    led = trick[0].suit

    def power(card: Card) -> tuple[int, int]:
        letter = str(card.rank)
        if card.suit == trump:
            return (2, TRUMP_POWER[letter])
        if card.suit == led:
            return (1, PLAIN_POWER[letter])
        return (0, 0)

    best = max(range(len(trick)), key=lambda i: power(trick[i]))
    assert sum(1 for card in trick if power(card) == power(trick[best])) == 1
    return best


# R1.3
TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3}
PLAIN_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}

NATURAL = "6789TJQKA"  # R0 natural order, used for runs only


def expected_runs(hand: Iterable[Card]) -> list[Run]:
    """R4.1 by hand: split each suit into maximal natural-order sequences, cut each into
    chunks of four from the top down, keep chunks of 4 (fifty) and 3 (twenty); order as
    ENGINE.md (length desc, top desc, suit asc)."""
    found: list[Run] = []
    for suit in Suit:
        ranks = sorted({int(card.rank) for card in hand if card.suit == suit}, reverse=True)
        sequences: list[list[int]] = []
        for rank in ranks:
            if sequences and sequences[-1][-1] == rank + 1:
                sequences[-1].append(rank)
            else:
                sequences.append([rank])
        for sequence in sequences:
            for start in range(0, len(sequence), 4):
                chunk = sequence[start : start + 4]
                if len(chunk) in (3, 4):
                    found.append(Run(suit, Rank(chunk[0]), len(chunk)))
    return sorted(found, key=lambda run: (-run.length, -int(run.top), int(run.suit)))


def expected_compare(a: Run, b: Run, trump: Suit) -> int:
    """R4.2: size, then top (natural order), then trump over plain; equal plain runs tie."""
    key_a = (a.length, int(a.top), a.suit == trump)
    key_b = (b.length, int(b.top), b.suit == trump)
    return (key_a > key_b) - (key_a < key_b)


ALL_RUNS = [
    Run(suit, Rank(top), length)
    for length in (3, 4)
    for suit in Suit
    for top in range(length - 1, 9)
]


Case = tuple[object, object, Callable[[], object]]
"""One check: its label, the value the rules give, and the engine call that must return it."""


def check_all(cases: Iterable[Case]) -> None:
    """Run every case, collect mismatches, fail with the first few (and how many)."""
    failures: list[str] = []
    count = 0
    for label, expected, call in cases:
        count += 1
        try:
            got = call()
        except Exception as exc:
            got = f"raised {exc!r}"
        if got != expected:
            failures.append(f"{label}: expected {expected!r}, got {got!r}")
    assert count > 0
    assert not failures, f"{len(failures)} of {count} cases wrong, e.g.\n" + "\n".join(
        failures[:15]
    )


def winner_cases(engine: ModuleType, trump: Suit, tricks: Iterable[list[Card]]) -> Iterable[Case]:
    """Each trick's winner by R5.2 (``expected_winner``) against the engine's ``trick_winner``."""
    for trick in tricks:
        yield (
            f"{' '.join(map(str, trick))} trump {trump}",
            expected_winner(trick, trump),
            lambda trick=trick: engine.trick_winner(trick, trump),
        )


# --------------------------------------------------------------------------------------------
# Sanity checks of the tables against the worked examples (R10)
# --------------------------------------------------------------------------------------------


def test_tables_agree_with_worked_examples() -> None:
    parse = Card.parse
    assert expected_winner([parse(c) for c in "8S 8D 9D JD".split()], Suit.D) == 3
    assert expected_winner([parse(c) for c in "8S 9S 6H 6C".split()], Suit.D) == 1
    hand = [parse(c) for c in "AH QH JH TH 8H 7H 6H".split()]
    assert expected_runs(hand) == [Run(Suit.H, Rank.QUEEN, 3), Run(Suit.H, Rank.EIGHT, 3)]
    hand = [parse(c) for c in "AH KH QH JH 9H 8H 7H 6H".split()]
    assert expected_runs(hand) == [Run(Suit.H, Rank.ACE, 4), Run(Suit.H, Rank.NINE, 4)]
    assert expected_runs([parse(c) for c in "AH KH JH TH 8H 7H".split()]) == []
    assert expected_compare(Run(Suit.C, Rank.KING, 4), Run(Suit.H, Rank.ACE, 3), Suit.H) == 1
    assert sum(TRUMP_POINTS.values()) == 62 and sum(PLAIN_POINTS.values()) == 30


def test_R4_1_the_random_hand_run_model_is_this_table_on_every_suit_pattern() -> None:
    """``strategies.model_find_runs``, the oracle of the random-hand tests, reads R4.1 off a
    suit's pattern string; ``expected_runs`` groups sorted ranks: written apart, from RULES.md
    alone, they give the same runs for each of the 512 patterns of every suit."""
    for suit in Suit:
        for mask in range(512):
            cards = [Card(suit, Rank(r)) for r in range(9) if mask >> r & 1]
            assert model_find_runs(cards) == expected_runs(cards), cards


# --------------------------------------------------------------------------------------------
# Trick order
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("trump", list(Suit), ids=str)
def test_R1_2_R5_2_every_ordered_pair_two_card_trick(engine: ModuleType, trump: Suit) -> None:
    pairs = ([a, b] for a, b in itertools.permutations(DECK, 2))
    check_all(winner_cases(engine, trump, pairs))


@pytest.mark.parametrize("trump", list(Suit), ids=str)
@pytest.mark.parametrize("led", list(Suit), ids=str)
def test_R1_2_R5_2_every_ordered_pair_behind_every_lead(
    engine: ModuleType, trump: Suit, led: Suit
) -> None:
    """The pair plays second and third, behind the lowest card of the led suit not in the pair
    (so the lead suit is independent of the pair)."""

    def tricks() -> Iterable[list[Card]]:
        for a, b in itertools.permutations(DECK, 2):
            lead = next(Card(led, Rank(r)) for r in range(9) if Card(led, Rank(r)) not in (a, b))
            yield [lead, a, b]

    check_all(winner_cases(engine, trump, tricks()))


@pytest.mark.parametrize("trump", list(Suit), ids=str)
def test_R5_2_every_permutation_of_mixed_tricks(engine: ModuleType, trump: Suit) -> None:
    """A fixed spread of cards (both orders' confusable ranks in two suits) in every 4-card
    arrangement: the winner follows the card, wherever it sits."""
    pool = [Card.parse(c) for c in "JC 9C AC TC KC 6C JD 9D AD TD KD 6D".split()]

    check_all(winner_cases(engine, trump, map(list, itertools.permutations(pool, 4))))


# --------------------------------------------------------------------------------------------
# Card points
# --------------------------------------------------------------------------------------------


def test_R1_3_every_card_every_trump(engine: ModuleType) -> None:
    def cases() -> Iterable[Case]:
        for trump in Suit:
            for card in DECK:
                table = TRUMP_POINTS if card.suit == trump else PLAIN_POINTS
                yield (
                    f"{card} trump {trump}",
                    table.get(str(card.rank), 0),
                    lambda card=card, trump=trump: engine.card_points(card, trump),
                )

    check_all(cases())


# --------------------------------------------------------------------------------------------
# Runs
# --------------------------------------------------------------------------------------------


def sequence(suit: Suit, bottom: int, length: int) -> list[Card]:
    return [Card(suit, Rank(r)) for r in range(bottom, bottom + length)]


@pytest.mark.parametrize("length", range(3, 10))
def test_R4_1_every_consecutive_sequence_position(engine: ModuleType, length: int) -> None:
    """Every sequence of ``length`` cards at every position in every suit, alone and with
    filler cards of another suit that make no run (6, 8, T, Q, A)."""

    def cases() -> Iterable[Case]:
        for suit in Suit:
            for bottom in range(0, 10 - length):
                cards = sequence(suit, bottom, length)
                top = bottom + length - 1
                runs: list[Run] = []
                # R4.1 written out: chunks of four from the top, the rest a twenty if it is 3
                chunk_top, left = top, length
                while left >= 4:
                    runs.append(Run(suit, Rank(chunk_top), 4))
                    chunk_top, left = chunk_top - 4, left - 4
                if left == 3:
                    runs.append(Run(suit, Rank(chunk_top), 3))
                assert runs == expected_runs(cards)
                yield (
                    f"{' '.join(map(str, cards))}",
                    runs,
                    lambda cards=cards: engine.find_runs(cards),
                )
                other = Suit((suit + 1) % 4)
                filler = [Card(other, Rank(r)) for r in (0, 2, 4, 6, 8)][: 9 - length]
                mixed = filler[:2] + cards + filler[2:]
                yield (
                    f"{' '.join(map(str, mixed))}",
                    runs,
                    lambda mixed=mixed: engine.find_runs(mixed),
                )

    check_all(cases())


@pytest.mark.parametrize("suit", list(Suit), ids=str)
def test_R4_1_every_subset_of_a_suit(engine: ModuleType, suit: Suit) -> None:
    """All 512 subsets of one suit: sequences with gaps, of every length, in both orders."""

    def cases() -> Iterable[Case]:
        for mask in range(512):
            cards = [Card(suit, Rank(r)) for r in range(9) if mask >> r & 1]
            expected = expected_runs(cards)
            yield (f"{' '.join(map(str, cards))}", expected, lambda c=cards: engine.find_runs(c))
            backwards = cards[::-1]
            yield (
                f"{' '.join(map(str, backwards))}",
                expected,
                lambda c=backwards: engine.find_runs(c),
            )

    check_all(cases())


def test_R4_1_two_sequences_in_two_suits(engine: ModuleType) -> None:
    """Two sequences of 3..6 cards in two suits (at most 9 cards): the runs and their order
    (length desc, top desc, suit asc)."""

    shapes = [(bottom, length) for length in range(3, 7) for bottom in range(0, 10 - length)]

    def cases() -> Iterable[Case]:
        for first, second in itertools.permutations(Suit, 2):
            for (b1, l1), (b2, l2) in itertools.product(shapes, repeat=2):
                if l1 + l2 > 9:
                    continue
                cards = sequence(first, b1, l1) + sequence(second, b2, l2)
                yield (
                    f"{' '.join(map(str, cards))}",
                    expected_runs(cards),
                    lambda c=cards: engine.find_runs(c),
                )

    check_all(cases())


def test_R4_2_every_pair_of_runs_every_trump(engine: ModuleType) -> None:
    def cases() -> Iterable[Case]:
        for trump in Suit:
            for a in ALL_RUNS:
                for b in ALL_RUNS:
                    yield (
                        f"{a} vs {b} trump {trump}",
                        expected_compare(a, b, trump),
                        lambda a=a, b=b, trump=trump: engine.compare_runs(a, b, trump),
                    )

    check_all(cases())
