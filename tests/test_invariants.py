"""Invariants after every action (docs/TESTING.md layer 3), on both engines.

Random hands (any variants, seeded or planted deals, random actions) and random matches are
played action by action; after every action:

- the 36 cards are conserved and never in two places: each seat's held cards plus the cards it
  played are exactly its dealt cards, and the tricks hold exactly the played cards in order;
- each trick's winner (R5.2, checked against the spec model of tests/strategies.py) leads the
  next, eldest leads the first, and the seat to move is the next in the trick;
- the team points are the card points of the tricks won (R1.3, + 10 for the last, R1.4) plus
  the runs and bella credited; in a played-out hand card points + last = 162 and the count is
  162 + runs + bella (R6.1), scored by R6.2-R6.4;
- a non-terminal state has a legal action, every legal action applies (to a copy) without error
  and every other id is rejected with the state unchanged;
- clone, to_json/from_json, pickle, copy.copy and copy.deepcopy give equal, independent states;
- a match's totals are its start scores plus the scores of its history (R7), its dealer moves
  left (R2.2) and it ends exactly when R7.1 says.

Batches (Rust only, ``tarabish.simulate``): serial and parallel runs and any chunking give the
same counts, trick points add up to 162 a played hand, and random-bot batches are the random
playouts of docs/ENGINE.md (checked against the reference's ``play_random_hand``).
"""

from __future__ import annotations

import copy
import pickle
import random
from types import ModuleType
from typing import Any

import pytest
import tarabish
from hypothesis import given, note, settings
from hypothesis import strategies as st
from strategies import choose_action, hand_setup_from_seed, model_trick_winner, playout_counts
from tarabish import (
    ActionKind,
    Card,
    IllegalActionError,
    Outcome,
    Phase,
    Rules,
    Suit,
)

BASE_EXAMPLES = settings.default.max_examples  # dev 300, ci 10 000
HAND_EXAMPLES = max(30, BASE_EXAMPLES // 80)  # ci: 125 hands an engine
MATCH_EXAMPLES = max(5, BASE_EXAMPLES // 400)  # ci: 25 matches an engine

TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3}  # R1.3
PLAIN_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}


def spec_points(card: Card, trump: Suit) -> int:
    table = TRUMP_POINTS if card.suit == trump else PLAIN_POINTS
    return table.get(str(card.rank), 0)


def spec_score(points: tuple[int, int], caller_team: int, rules: Rules) -> tuple[Outcome, Any]:
    """R6.2-R6.4."""
    count = points[0] + points[1]
    mine, theirs = points[caller_team], points[1 - caller_team]
    if mine > theirs:
        return Outcome.MADE, points
    if mine < theirs or rules.half_bait_is_bait:
        other = count
        outcome = Outcome.BAIT if mine < theirs else Outcome.HALF_BAIT
    else:
        other, outcome = theirs, Outcome.HALF_BAIT
    return outcome, (0, other) if caller_team == 0 else (other, 0)


MASK = (1 << 64) - 1


def spec_derive(seed: int, i: int) -> int:
    def mix64(z: int) -> int:
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    return mix64(seed ^ mix64(i))


# --------------------------------------------------------------------------------------------
# Hand invariants
# --------------------------------------------------------------------------------------------


def check_cards(state: Any) -> None:
    """Conservation of the 36 cards, and the tricks hold exactly the played cards."""
    deal = state.deal
    assert len(deal) == 4 and all(len(cards) == 9 for cards in deal)
    assert len({card for cards in deal for card in cards}) == 36
    hands = state.hands
    played = [
        [a.card for a in state.actions if a.kind is ActionKind.PLAY and a.seat == s]
        for s in range(4)
    ]
    for seat in range(4):
        held = hands[seat]
        assert list(held) == sorted(held)
        assert len(set(held)) == len(held)
        assert not set(held) & set(played[seat])
        assert set(held) | set(played[seat]) == set(deal[seat])
        assert len(held) + len(played[seat]) == 9
    obs = state.observation(0)
    in_tricks = [card for t in obs.tricks for card in t.cards] + list(obs.trick)
    in_order = [a.card for a in state.actions if a.kind is ActionKind.PLAY]
    assert in_tricks == in_order
    assert obs.hand_sizes == tuple(len(held) for held in hands)


def check_tricks_and_points(state: Any) -> None:
    obs = state.observation(state.dealer)
    eldest = (state.dealer + 1) % 4
    trump = state.trump
    won = [0, 0]
    leader = eldest
    for number, done in enumerate(obs.tricks):
        assert done.leader == leader  # R3.5 / R5.2
        assert len(done.cards) == 4
        winner = (done.leader + model_trick_winner(list(done.cards), trump)) % 4
        assert done.winner == winner
        expected = sum(spec_points(card, trump) for card in done.cards)
        assert done.points == expected + (10 if number == 8 else 0)
        won[winner % 2] += done.points
        leader = done.winner
    if state.phase is Phase.PLAY:
        assert obs.trick_leader == leader
        assert state.to_move == (leader + len(obs.trick)) % 4
    plays = sum(1 for a in state.actions if a.kind is ActionKind.PLAY)
    runs = obs.runs
    assert (runs is None) or plays >= 8
    extra = [0, 0]
    if runs is not None:
        extra[runs.seat % 2] += runs.points
    if obs.bella is not None:
        extra[obs.bella % 2] += 20
    assert state.points == (won[0] + extra[0], won[1] + extra[1])
    result = state.result
    if result is not None and result.outcome is not Outcome.VOID:
        assert len(result.tricks) == 9
        assert sum(t.points for t in result.tricks) == 162  # R1.4
        count = (
            162
            + (result.runs.points if result.runs else 0)
            + (20 if result.bella is not None else 0)
        )
        assert sum(result.points) == count  # R6.1
        assert result.points == state.points
        assert result.tricks == obs.tricks
        assert (result.outcome, result.score) == spec_score(
            result.points, result.caller % 2, state.rules
        )


def fingerprint(state: Any) -> tuple[Any, ...]:
    return (
        state.to_json(),
        state.legal_action_ids(),
        state.to_move,
        state.phase,
        state.points if hasattr(state, "points") else state.scores,
        [state.observation(seat) for seat in range(4)],
    )


def check_actions(state: Any) -> None:
    """Legal actions apply to a copy; every other id is rejected and changes nothing."""
    ids = state.legal_action_ids()
    assert (ids == []) == state.is_terminal
    before = fingerprint(state)
    original = state.clone()
    for action_id in ids:
        trial = state.clone()
        trial.apply(action_id)
        assert len(trial.to_json()) > 0
    for action_id in range(41):
        if action_id in ids:
            continue
        with pytest.raises(IllegalActionError) as info:
            state.apply(action_id)
        assert info.value.rule
        assert state == original
    assert fingerprint(state) == before


def check_copies(engine: ModuleType, state: Any, kind: str) -> None:
    cls = getattr(engine, kind)
    text = state.to_json()
    copies = [
        state.clone(),
        cls.from_json(text),
        pickle.loads(pickle.dumps(state)),
        copy.copy(state),
        copy.deepcopy(state),
    ]
    for other in copies:
        assert type(other) is cls
        assert other == state
        assert other.to_json() == text
        assert other.legal_action_ids() == state.legal_action_ids()
    if not state.is_terminal:  # copies are independent
        moved = copies[0]
        moved.apply(moved.legal_action_ids()[0])
        assert moved != state
        assert state.to_json() == text
        assert copies[1] == state


@pytest.mark.long
@settings(max_examples=HAND_EXAMPLES)
@given(seed=st.integers(0, 2**64 - 1))
def test_hand_invariants_after_every_action(engine: ModuleType, seed: int) -> None:
    setup = hand_setup_from_seed(seed)
    note(repr(setup))
    state = engine.HandState(setup.dealer, **setup.kwargs())
    rng = random.Random(setup.action_seed)
    while True:
        check_cards(state)
        check_tricks_and_points(state)
        check_actions(state)
        check_copies(engine, state, "HandState")
        if state.is_terminal:
            break
        state.apply(choose_action(state.legal_action_ids(), rng, setup.pass_bias))
    assert state.result is not None


# --------------------------------------------------------------------------------------------
# Match invariants
# --------------------------------------------------------------------------------------------


def check_match(match: Any, start: tuple[int, int], first_dealer: int) -> None:
    history = match.history
    totals = list(start)
    for number, hand in enumerate(history):
        assert hand.is_terminal
        assert hand.dealer == (first_dealer + number) % 4  # R2.2
        assert hand.scores_before == tuple(totals)
        score = hand.result.score
        totals = [totals[0] + score[0], totals[1] + score[1]]
        if number < len(history) - 1:  # R7.1: the match went on
            assert max(totals) < match.rules.target or totals[0] == totals[1]
    assert match.scores == tuple(totals)
    ended = bool(history) and max(totals) >= match.rules.target and totals[0] != totals[1]
    assert match.is_terminal == ended
    if ended:
        assert match.winner == (0 if totals[0] > totals[1] else 1)
        assert len(history) == match.hand_index + 1
        assert match.legal_action_ids() == []
    else:
        assert match.winner is None
        assert len(history) == match.hand_index
        assert match.hand.scores_before == match.scores
        assert match.dealer == (first_dealer + match.hand_index) % 4
        assert match.legal_action_ids()


@settings(max_examples=MATCH_EXAMPLES)
@given(
    seed=st.integers(0, 2**64 - 1),
    first_dealer=st.integers(0, 3),
    start=st.tuples(st.integers(0, 300), st.integers(0, 300)),
    target=st.sampled_from((150, 300, 500)),
    dealer_may_pass=st.booleans(),
    action_seed=st.integers(0, 2**32 - 1),
)
def test_match_invariants_after_every_action(
    engine: ModuleType,
    seed: int,
    first_dealer: int,
    start: tuple[int, int],
    target: int,
    dealer_may_pass: bool,
    action_seed: int,
) -> None:
    rules = Rules(target=target, dealer_may_pass=dealer_may_pass, forced_at=400)
    match = engine.MatchState(seed=seed, rules=rules, first_dealer=first_dealer, scores=start)
    assert match.start_scores == start
    rng = random.Random(action_seed)
    step = 0
    while True:
        check_match(match, start, first_dealer)
        if step % 7 == 0 or match.is_terminal:
            check_actions(match)
            check_copies(engine, match, "MatchState")
        if match.is_terminal:
            break
        match.apply(choose_action(match.legal_action_ids(), rng, 0.3))
        step += 1


# --------------------------------------------------------------------------------------------
# Batches (Rust): threads and chunking do not matter
# --------------------------------------------------------------------------------------------


BATCH_RULES = [
    Rules(),
    Rules(dealer_may_pass=True, team_runs=True),
    Rules(head_plain=True, undertrump_optional=True, partner_exempt=True, half_bait_is_bait=True),
]


@pytest.mark.parametrize("rules", BATCH_RULES, ids=["default", "may_pass", "play_variants"])
@pytest.mark.parametrize("bots", ["random", "greedy", ("random", "greedy")])
def test_simulate_serial_and_parallel_agree(rules: Rules, bots: Any) -> None:
    serial = tarabish.simulate(hands=3000, seed=41, bots=bots, rules=rules, threads=1)
    parallel = tarabish.simulate(hands=3000, seed=41, bots=bots, rules=rules, threads=2)
    everyone = tarabish.simulate(hands=3000, seed=41, bots=bots, rules=rules, threads=0)
    assert serial.counts() == parallel.counts() == everyone.counts()
    counts = serial.counts()
    played = counts["hands"] - counts["outcomes"]["void"]
    assert counts["hands"] == 3000 == sum(counts["outcomes"].values())
    assert sum(counts["trick_points_by_seat"]) == 162 * played
    assert sum(counts["calls_by_seat"]) == played
    assert sum(counts["points_by_team"]) == (
        162 * played + counts["run_points"] + 20 * counts["hands_with_bella"]
    )
    if not rules.dealer_may_pass:  # R3.2: no void hand without dealer_may_pass
        assert counts["outcomes"]["void"] == 0


def test_simulate_chunking_does_not_matter() -> None:
    rules = Rules(dealer_may_pass=True)
    whole = tarabish._core.simulate(
        start=0, stop=1000, seed=7, bots=["random"] * 4, rules=rules, threads=1, matches=False
    )
    parts: dict[str, Any] | None = None
    for start, stop in [(0, 1), (1, 250), (250, 251), (251, 999), (999, 1000)]:
        part = tarabish._core.simulate(
            start=start,
            stop=stop,
            seed=7,
            bots=["random"] * 4,
            rules=rules,
            threads=2,
            matches=False,
        )
        parts = (
            part
            if parts is None
            else {
                key: [a + b for a, b in zip(value, part[key], strict=True)]
                if isinstance(value, list)
                else value + part[key]
                for key, value in parts.items()
            }
        )
    assert parts == whole
    # The public function cuts the batch in chunks by itself: same counts as one direct call.
    counts = tarabish.simulate(hands=1000, seed=7, rules=rules, threads=2).counts()
    made, bait, half_bait, void, misplay, throw_in = whole["outcomes"]
    assert (misplay, throw_in) == (0, 0)  # R8.2, R8.3: no calls in auto mode
    assert counts == {
        **{key: value for key, value in whole.items() if key != "outcomes"},
        "outcomes": {
            "made": made,
            "bait": bait,
            "half_bait": half_bait,
            "void": void,
            "misplay": misplay,
            "throw_in": throw_in,
        },
    }


@pytest.mark.parametrize("threads", [1, 2])
def test_simulate_matches_serial_and_parallel_agree(threads: int) -> None:
    rules = Rules(target=300)
    one = tarabish.simulate(matches=60, seed=3, rules=rules, threads=1)
    other = tarabish.simulate(matches=60, seed=3, rules=rules, threads=threads)
    assert one.counts() == other.counts()
    counts = one.counts()
    assert counts["matches"] == 60 == sum(counts["match_wins"])
    played = counts["hands"] - counts["outcomes"]["void"]
    assert sum(counts["trick_points_by_seat"]) == 162 * played


def test_simulate_random_bots_are_the_random_playouts() -> None:
    """Batch game i of seed s is the random playout of hand seed derive(s, i) by dealer i % 4
    (docs/ENGINE.md, "Randomness"): the batch sums equal the reference's playouts."""
    import tarabish.reference as reference

    rules = Rules(dealer_may_pass=True, team_runs=True)
    summary = tarabish.simulate(hands=300, seed=2024, rules=rules, threads=2).counts()
    seeds = [spec_derive(2024, i) for i in range(300)]
    expected = playout_counts(reference.play_random_hand, seeds, rules)
    assert {key: summary[key] for key in expected} == expected
