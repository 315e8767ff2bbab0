"""Rule-table tests of whole hands and matches (docs/RULES.md R2-R7) on both engines.

Every test runs on the Rust core and on ``tarabish.reference`` (the ``engine`` fixture). The
situations are built from explicit deals (``HandState(dealer, deal=[...])``) and explicit action
texts; every expected value is worked out by hand from the deal and RULES.md (the working is in
the comments), never taken from an engine.

The deals used more than once:

``DEAL_B`` (R4.5, R5.2, R6): each seat holds two cards of every suit plus one extra card, so in
the lines below every player follows suit in tricks 1-8 and trick 9 is the four extra cards.
Seat 0 holds the twenty 6-7-8C (its only run, the only run of the deal) and seat 2 the K and Q
of hearts (bella with hearts trump). With hearts trump the count is 162 + 20 + 20 = 202 (R10.8)
and three play lines split it 110/92, 101/101 and 95/107.

``DEAL_ALL`` (R4): runs held by all four players. ``DEAL_TIE`` (R4.2/R4.3): equal plain fifties
of seats 0 and 1. ``DEAL_BELOW`` (R4.3): a tie below the best run.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest
from tarabish import (
    Action,
    Card,
    HandResult,
    IllegalActionError,
    Outcome,
    Phase,
    Rank,
    Rules,
    Run,
    RunsResult,
    Suit,
    TrickResult,
    parse_cards,
)

C, D, H, S = Suit.C, Suit.D, Suit.H, Suit.S
CALLS = [36, 37, 38, 39]
PASS = 40

# --------------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------------


def run(text: str) -> Run:
    """Top rank, length, suit: ``run("A4H")`` is the fifty A-K-Q-J of hearts."""
    return Run(Suit.parse(text[-1]), Rank.parse(text[0]), int(text[1]))


def cards(text: str) -> tuple[Card, ...]:
    return tuple(sorted(parse_cards(text)))


def play(state: Any, *actions: str) -> None:
    """Apply action texts in order (each must be legal)."""
    for action in actions:
        state.apply(action)


def trick(leader: int, played: str) -> list[str]:
    """The four action texts of a trick led by ``leader``: ``trick(0, "AS TS QS KS")``."""
    return [f"{(leader + k) % 4} play {card}" for k, card in enumerate(played.split())]


def play_first_legal(state: Any, steps: int | None = None) -> None:
    """Play the smallest legal id ``steps`` times (or to the end of the hand)."""
    done = 0
    while not state.is_terminal and (steps is None or done < steps):
        state.apply(state.legal_action_ids()[0])
        done += 1


def assert_illegal(state: Any, action: Any, rule: str) -> None:
    """``action`` raises IllegalActionError naming ``rule`` and changes nothing."""
    before = state.to_json()
    copy = state.clone()
    with pytest.raises(IllegalActionError) as info:
        state.apply(action)
    assert info.value.rule == rule, (action, info.value.rule, str(info.value))
    assert state.to_json() == before
    assert state == copy


def runs_seen(state: Any) -> set[RunsResult | None]:
    return {state.observation(seat).runs for seat in range(4)}


# SplitMix64 and the seeded deal exactly as docs/ENGINE.md "Randomness" (the spec, not an engine).
MASK = (1 << 64) - 1


def spec_mix64(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def spec_derive(seed: int, i: int) -> int:
    return spec_mix64(seed ^ spec_mix64(i))


def spec_deal(seed: int, dealer: int) -> list[list[Card]]:
    state = seed

    def below(n: int) -> int:
        nonlocal state
        state = (state + 0x9E3779B97F4A7C15) & MASK
        return (spec_mix64(state) * n) >> 64

    deck = list(range(36))
    for i in range(35, 0, -1):
        j = below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    cut = 4 + below(29)
    deck = deck[cut:] + deck[:cut]
    hands: list[list[Card]] = [[], [], [], []]
    position = 0
    for _ in range(3):
        for offset in (1, 2, 3, 4):
            seat = (dealer + offset) % 4
            hands[seat] += [Card.from_index(i) for i in deck[position : position + 3]]
            position += 3
    return hands


# --------------------------------------------------------------------------------------------
# Deals
# --------------------------------------------------------------------------------------------

# Received order: the first six cards are seen at once, the last three are the kitty (R2.4).
DEAL_SUITS = [  # seat 0 all nine clubs, seat 1 diamonds, seat 2 hearts, seat 3 spades
    "6C 7C 8C 9C TC JC QC KC AC",
    "6D 7D 8D 9D TD JD QD KD AD",
    "6H 7H 8H 9H TH JH QH KH AH",
    "6S 7S 8S 9S TS JS QS KS AS",
]

DEAL_B = [
    "6C 7C 8C 6H 7H TD 7D AS 8S",  # seat 0: the twenty 6-7-8C
    "JH 9H TC JC AD 9D 6D TS 7S",  # seat 1
    "KH QH AC 9C KD 8D 6S 9S QS",  # seat 2: K and Q of hearts
    "AH TH 8H KC QC QD JD KS JS",  # seat 3
]

DEAL_ALL = [
    "7C 8C 9C JC TD QD 7H 9H KS",  # seat 0: twenty 9-8-7C
    "6D 7D 8D 9D TC QC 6H 8H 9S",  # seat 1: fifty 9-8-7-6D
    "JH QH KH AH 6S 7S 8S 6C AD",  # seat 2: fifty A-K-Q-JH and twenty 8-7-6S = 70
    "TS JS QS AS KC AC JD KD TH",  # seat 3: twenty Q-J-TS (the AS is not next to the QS)
]

DEAL_TIE = [
    "6C 7C 8C 9C AD 9H QS KS AS",  # seat 0: fifty 9-8-7-6C and twenty A-K-QS = 70
    "TC QC 6D 7D 8D 9D KH 6S 8S",  # seat 1: fifty 9-8-7-6D
    "JC TD KD 6H 7H 8H AH 7S 9S",  # seat 2: twenty 8-7-6H
    "KC AC JD QD TH JH QH TS JS",  # seat 3: twenty Q-J-TH
]

DEAL_BELOW = [
    "6C 7C 8C 9C QD AD 6H 8H 6S",  # seat 0: fifty 9-8-7-6C
    "6D 7D 8D 9D JC KC 7H 9H 7S",  # seat 1: fifty 9-8-7-6D
    "JH QH KH AH TC QC TD 9S KS",  # seat 2: fifty A-K-Q-JH
    "TS JS QS AC JD KD TH 8S AS",  # seat 3: twenty Q-J-TS
]


@pytest.mark.parametrize("deal", ["B", "ALL", "TIE", "BELOW", "THREE"])
def test_the_test_deals_are_deals(deal: str) -> None:
    hands = globals()[f"DEAL_{deal}"]
    every = [card for hand in hands for card in parse_cards(hand)]
    assert all(len(parse_cards(hand)) == 9 for hand in hands)
    assert len(set(every)) == 36


# --------------------------------------------------------------------------------------------
# R2 dealer and deal
# --------------------------------------------------------------------------------------------


def test_R2_2_deal_moves_left_after_every_hand_including_void(engine: ModuleType) -> None:
    match = engine.MatchState(seed=77, rules=Rules(dealer_may_pass=True), first_dealer=2)
    dealers = []
    for number, kind in enumerate(["void", "void", "played", "void", "played", "void"]):
        assert match.hand_index == number
        dealer = match.dealer
        dealers.append(dealer)
        assert match.hand.dealer == dealer
        assert match.to_move == (dealer + 1) % 4  # eldest speaks first (R3.1)
        # Hand i is dealt from derive(seed, i) by dealer first_dealer + i (docs/ENGINE.md).
        assert match.hand.deal == spec_deal(spec_derive(77, number), dealer)
        scores = match.scores
        if kind == "void":
            for k in range(1, 5):
                match.apply(f"{(dealer + k) % 4} pass")
            last = match.history[-1]
            assert last.result.outcome is Outcome.VOID
            assert match.scores == scores  # a void hand scores nothing (R3.3)
        else:
            while match.hand_index == number:
                match.apply(match.legal_action_ids()[0])
            last = match.history[-1]
            assert last.result.outcome is not Outcome.VOID
        assert last.dealer == dealer
        assert not match.is_terminal
    assert dealers == [2, 3, 0, 1, 2, 3]
    assert [hand.dealer for hand in match.history] == [2, 3, 0, 1, 2, 3]


def test_R2_2_first_dealer_and_hand_dealer(engine: ModuleType) -> None:
    for first in range(4):
        match = engine.MatchState(seed=5, first_dealer=first)
        assert match.dealer == first
        for _ in range(2):
            number = match.hand_index
            while match.hand_index == number and not match.is_terminal:
                match.apply(match.legal_action_ids()[0])
        assert [hand.dealer for hand in match.history] == [first, (first + 1) % 4]
        assert match.dealer == (first + 2) % 4


@pytest.mark.parametrize("dealer", range(4))
def test_R2_3_R2_4_seeded_deal_is_the_spec_deal(engine: ModuleType, dealer: int) -> None:
    for seed in (0, 1, 12345, 2**64 - 1):
        state = engine.HandState(dealer, seed=seed)
        assert state.deal == spec_deal(seed, dealer)
        assert state.hands == tuple(tuple(sorted(hand)) for hand in spec_deal(seed, dealer))


@pytest.mark.parametrize("dealer", range(4))
def test_R2_4_before_trump_only_six_cards_are_visible(engine: ModuleType, dealer: int) -> None:
    state = engine.HandState(dealer, deal=DEAL_B)
    eldest = (dealer + 1) % 4
    play(state, f"{eldest} pass", f"{(eldest + 1) % 4} pass")
    for seat in range(4):
        received = parse_cards(DEAL_B[seat])
        obs = state.observation(seat)
        assert obs.hand == tuple(sorted(received[:6]))
        assert obs.unseen_kitty == 3
        assert obs.hand_sizes == (9, 9, 9, 9)
        tensor = state.information_state_tensor(seat)
        visible = {int(i) - 11 for i in range(11, 47) if tensor[i] == 1.0}
        assert visible == {card.index for card in received[:6]}
        assert tensor[47] == 1.0
        lines = state.information_state_string(seat).split("\n")
        assert lines[1] == "hand " + " ".join(str(card) for card in sorted(received[:6]))
        assert lines[2] == "kitty 3"
        for other in range(4):  # nobody's kitty and no other hand is visible
            for card in parse_cards(DEAL_B[other])[(0 if other != seat else 6) :]:
                assert card not in obs.hand
    # The third player calls: every seat now sees its nine cards (the kitty too).
    state.apply(f"{(eldest + 2) % 4} call S")
    for seat in range(4):
        obs = state.observation(seat)
        assert obs.hand == tuple(sorted(parse_cards(DEAL_B[seat])))
        assert obs.unseen_kitty == 0
        assert state.information_state_tensor(seat)[47] == 0.0
        assert state.information_state_string(seat).split("\n")[2] == "kitty 0"


# --------------------------------------------------------------------------------------------
# R3 the auction
# --------------------------------------------------------------------------------------------


def test_R3_1_auction_order_and_the_first_call_ends_it(engine: ModuleType) -> None:
    state = engine.HandState(0, deal=DEAL_B)
    assert state.phase is Phase.AUCTION
    assert state.to_move == 1  # eldest speaks first
    assert state.legal_action_ids() == [36, 37, 38, 39, 40]
    assert state.legal_actions() == [
        Action.call(1, "C"),
        Action.call(1, "D"),
        Action.call(1, "H"),
        Action.call(1, "S"),
        Action.pass_(1),
    ]
    assert_illegal(state, "2 pass", "R3.1")  # not seat 2's turn
    assert_illegal(state, "3 call H", "R3.1")
    assert_illegal(state, "1 play JH", "R3.1")  # no play before trump
    assert_illegal(state, 0, "R3.1")  # card ids too
    state.apply("1 pass")
    assert state.to_move == 2
    assert_illegal(state, "1 call H", "R3.1")  # seat 1 has spoken
    # Seat 2 holds no club (DEAL_B: KH QH AC ...): a call needs no card of the suit.
    state.apply("2 call D")
    assert state.phase is Phase.PLAY
    assert state.trump is D
    assert state.caller == 2
    assert state.to_move == 1  # R3.5 eldest leads
    # No one speaks twice: passes and calls are over.
    assert_illegal(state, "1 pass", "R3.1")
    assert_illegal(state, "1 call S", "R3.1")
    assert_illegal(state, PASS, "R3.1")
    for call in CALLS:
        assert_illegal(state, call, "R3.1")
    # Another seat than the one to move is refused for its turn (R5.1 in play).
    assert_illegal(state, "2 call S", "R5.1")
    assert_illegal(state, "3 pass", "R5.1")
    assert [str(action) for action in state.actions] == ["1 pass", "2 call D"]
    assert state.observation(3).auction == (Action.pass_(1), Action.call(2, "D"))


def test_R3_1_a_suit_not_held_can_be_called(engine: ModuleType) -> None:
    deal = [  # seat 1 holds no spade at all
        "6S 7S 8S 9S TS JS QS KS AS",
        "6C 7C 8C 9C TC JC QC KC AC",
        "6D 7D 8D 9D TD JD QD KD AD",
        "6H 7H 8H 9H TH JH QH KH AH",
    ]
    state = engine.HandState(0, deal=deal)
    assert 39 in state.legal_action_ids()
    state.apply("1 call S")
    assert state.trump is S and state.caller == 1


@pytest.mark.parametrize("dealer", range(4))
def test_R3_2_the_stuck_dealer_must_call(engine: ModuleType, dealer: int) -> None:
    state = engine.HandState(dealer, deal=DEAL_B)
    for k in (1, 2, 3):
        assert PASS in state.legal_action_ids()
        state.apply(f"{(dealer + k) % 4} pass")
    assert state.to_move == dealer
    assert state.legal_action_ids() == CALLS
    assert_illegal(state, PASS, "R3.2")
    assert_illegal(state, f"{dealer} pass", "R3.2")
    state.apply(f"{dealer} call C")
    assert state.caller == dealer
    assert state.to_move == (dealer + 1) % 4  # R3.5 eldest leads, whoever called


@pytest.mark.parametrize("dealer", range(4))
def test_R3_3_dealer_may_pass_makes_a_void_hand(engine: ModuleType, dealer: int) -> None:
    state = engine.HandState(dealer, deal=DEAL_B, rules=Rules(dealer_may_pass=True))
    for k in (1, 2, 3):
        state.apply(f"{(dealer + k) % 4} pass")
    assert state.legal_action_ids() == [*CALLS, PASS]
    state.apply(f"{dealer} pass")
    assert state.is_terminal
    assert state.phase is Phase.DONE
    assert state.to_move is None
    assert state.trump is None and state.caller is None
    assert state.points == (0, 0)
    assert state.legal_action_ids() == []
    assert state.legal_actions() == []
    assert state.result == HandResult(
        outcome=Outcome.VOID,
        trump=None,
        caller=None,
        points=(0, 0),
        score=(0, 0),
        runs=None,
        bella=None,
        tricks=(),
    )
    for action_id in range(41):
        assert_illegal(state, action_id, "R5.3")
    assert_illegal(state, f"{(dealer + 1) % 4} call H", "R5.3")
    # Trump was never named: every seat still sees only its first six cards (docs/DECISIONS.md).
    for seat in range(4):
        obs = state.observation(seat)
        assert obs.hand == tuple(sorted(parse_cards(DEAL_B[seat])[:6]))
        assert obs.unseen_kitty == 3
        assert obs.phase is Phase.DONE and obs.to_move is None
        assert obs.trick_leader is None and obs.trick == () and obs.tricks == ()


# R3.4 forced_at: (scores_before, dealer, rules) -> the seat that may not pass and its rule.
FORCED_CASES = [
    # team 0 forced (410 >= 400), does not hold the deal (dealer 1): seat 0, dealer's right.
    ((410, 100), 1, Rules(forced_at=400), 0, "R3.4"),
    ((410, 100), 3, Rules(forced_at=400), 2, "R3.4"),
    # team 1 forced, dealer 0 / 2 (team 0 deals): its player on the dealer's right.
    ((100, 410), 0, Rules(forced_at=400), 3, "R3.4"),
    ((100, 400), 2, Rules(forced_at=400), 1, "R3.4"),  # "at least" 400
    # the forced team holds the deal: the dealer may not pass; stuck anyway by R3.2 ...
    ((410, 100), 0, Rules(forced_at=400), 0, "R3.2"),
    ((100, 410), 3, Rules(forced_at=400), 3, "R3.2"),
    # ... and forced even under dealer_may_pass (R3.4).
    ((410, 100), 2, Rules(forced_at=400, dealer_may_pass=True), 2, "R3.4"),
    ((100, 410), 1, Rules(forced_at=400, dealer_may_pass=True), 1, "R3.4"),
    # both teams over 400: the higher one is forced.
    ((450, 420), 1, Rules(forced_at=400), 0, "R3.4"),
    ((420, 450), 0, Rules(forced_at=400), 3, "R3.4"),
    ((450, 420), 0, Rules(forced_at=400, dealer_may_pass=True), 0, "R3.4"),
    ((420, 450), 1, Rules(forced_at=400, dealer_may_pass=True), 1, "R3.4"),
    ((420, 450), 0, Rules(forced_at=400, dealer_may_pass=True), 3, "R3.4"),
    # a lower forced_at
    ((150, 90), 3, Rules(forced_at=100), 2, "R3.4"),
]


@pytest.mark.parametrize(("scores", "dealer", "rules", "forced_seat", "rule"), FORCED_CASES)
def test_R3_4_forced_team_must_call(
    engine: ModuleType,
    scores: tuple[int, int],
    dealer: int,
    rules: Rules,
    forced_seat: int,
    rule: str,
) -> None:
    state = engine.HandState(dealer, deal=DEAL_B, rules=rules, scores_before=scores)
    assert state.scores_before == scores
    for k in (1, 2, 3, 4):
        seat = (dealer + k) % 4
        assert state.to_move == seat
        if seat == forced_seat:
            assert state.legal_action_ids() == CALLS
            assert_illegal(state, PASS, rule)
            assert_illegal(state, f"{seat} pass", rule)
            state.apply(f"{seat} call H")
            assert state.caller == seat
            assert state.to_move == (dealer + 1) % 4
            return
        # Everyone else may pass, including the forced team's other player.
        assert state.legal_action_ids() == [*CALLS, PASS]
        state.apply(f"{seat} pass")
    raise AssertionError("the forced seat never spoke")


@pytest.mark.parametrize("dealer", range(4))
def test_R3_4_the_other_team_may_still_call_earlier(engine: ModuleType, dealer: int) -> None:
    # Forced: the team not holding the deal, i.e. the team of the dealer's right.
    forced_team = (dealer + 1) % 2
    scores = (450, 0) if forced_team == 0 else (0, 450)
    state = engine.HandState(dealer, deal=DEAL_B, rules=Rules(forced_at=400), scores_before=scores)
    eldest = (dealer + 1) % 4  # forced team: may pass
    state.apply(f"{eldest} pass")
    second = (dealer + 2) % 4  # the dealer's partner, not forced: calls first
    assert second % 2 != forced_team
    state.apply(f"{second} call S")
    assert state.caller == second
    assert state.trump is S


@pytest.mark.parametrize("dealer", range(4))
def test_R3_4_equal_scores_or_below_forced_at_nobody_is_forced(
    engine: ModuleType, dealer: int
) -> None:
    for scores in [(430, 430), (400, 400), (399, 10), (0, 0)]:
        # Default: no one is forced, only the stuck dealer must call (R3.2).
        state = engine.HandState(
            dealer, deal=DEAL_B, rules=Rules(forced_at=400), scores_before=scores
        )
        for k in (1, 2, 3):
            assert state.legal_action_ids() == [*CALLS, PASS]
            state.apply(f"{(dealer + k) % 4} pass")
        assert state.legal_action_ids() == CALLS
        assert_illegal(state, PASS, "R3.2")
        # With dealer_may_pass everyone may pass: a void hand.
        rules = Rules(forced_at=400, dealer_may_pass=True)
        state = engine.HandState(dealer, deal=DEAL_B, rules=rules, scores_before=scores)
        for k in (1, 2, 3, 4):
            assert state.legal_action_ids() == [*CALLS, PASS]
            state.apply(f"{(dealer + k) % 4} pass")
        assert state.result.outcome is Outcome.VOID
        assert state.result.score == (0, 0)


def test_R3_4_off_without_forced_at(engine: ModuleType) -> None:
    for rules in (Rules(), Rules(dealer_may_pass=True)):
        state = engine.HandState(0, deal=DEAL_B, rules=rules, scores_before=(499, 480))
        for seat in (1, 2, 3):
            assert PASS in state.legal_action_ids()
            state.apply(f"{seat} pass")
        assert (PASS in state.legal_action_ids()) == rules.dealer_may_pass


@pytest.mark.parametrize("dealer", range(4))
@pytest.mark.parametrize("passes", range(4))
def test_R3_5_eldest_leads_whoever_called(engine: ModuleType, dealer: int, passes: int) -> None:
    state = engine.HandState(dealer, deal=DEAL_B)
    for k in range(1, passes + 1):
        state.apply(f"{(dealer + k) % 4} pass")
    caller = (dealer + passes + 1) % 4
    state.apply(f"{caller} call D")
    eldest = (dealer + 1) % 4
    assert state.caller == caller
    assert state.to_move == eldest
    obs = state.observation(caller)
    assert obs.trick_leader == eldest
    assert obs.trick == ()
    tensor = state.information_state_tensor(caller)
    assert tensor[1536 + eldest] == 1.0  # current trick's leader
    assert tensor[1704 + eldest] == 1.0  # seat to move
    for seat in range(4):
        if seat != eldest:
            assert_illegal(state, f"{seat} play {parse_cards(DEAL_B[seat])[0]}", "R5.1")


# --------------------------------------------------------------------------------------------
# R4 runs and bella (auto declarations)
# --------------------------------------------------------------------------------------------

# DEAL_ALL, dealer 0, seat 1 calls clubs. Trick 1 (seat 1 leads): 6D AD JD TD, everyone follows
# diamonds, the AD (seat 2) wins 0 + 11 + 2 + 10 = 23. Trick 2 (seat 2 leads): 6S AS KS 9S, the
# AS (seat 3) wins 0 + 11 + 4 + 0 = 15.
ALL_TRICK_1 = trick(1, "6D AD JD TD")
ALL_TRICK_2 = trick(2, "6S AS KS 9S")
ALL_RUNS = (
    (run("93C"),),
    (run("94D"),),
    (run("A4H"), run("83S")),
    (run("Q3S"),),
)


@pytest.mark.parametrize(("team_runs", "scored"), [(False, 70), (True, 90)])
def test_R4_runs_held_by_all_four_players(engine: ModuleType, team_runs: bool, scored: int) -> None:
    # Best runs: seat 0 twenty 9C, seat 1 fifty 9D, seat 2 fifty AH, seat 3 twenty QS. The fifty
    # topping A beats the fifty topping 9 and both twenties (R4.2), so seat 2 scores all of its
    # runs: 50 + 20 = 70 (R4.3); with team_runs its partner's twenty too: 90.
    state = engine.HandState(0, deal=DEAL_ALL, rules=Rules(team_runs=team_runs))
    state.apply("1 call C")
    plays = ALL_TRICK_1 + ALL_TRICK_2
    announced_after = [
        (None, 50, None, None),
        (None, 50, 50, None),
        (None, 50, 50, 20),
        (20, 50, 50, 20),
    ]
    shown_after = [
        ((), (), ALL_RUNS[2], ()),
        ((), (), ALL_RUNS[2], ALL_RUNS[3]),
        (ALL_RUNS[0], (), ALL_RUNS[2], ALL_RUNS[3]),
        ALL_RUNS,
    ]
    for number, action in enumerate(plays, start=1):
        state.apply(action)
        obs = [state.observation(seat) for seat in range(4)]
        # R4.4 auto mode: the best run's size is public with the first card ...
        expected_announced = announced_after[min(number, 4) - 1]
        assert all(o.announced == expected_announced for o in obs), number
        # ... the runs with the second card ...
        expected_shown = shown_after[number - 5] if number > 4 else ((), (), (), ())
        assert all(o.shown == expected_shown for o in obs), number
        # ... and the winner once every player has played a second card.
        expected_runs = RunsResult(2, scored) if number == 8 else None
        assert all(o.runs == expected_runs for o in obs), number
        if number == 4:
            assert state.to_move == 2  # R5.2 the AD's owner leads
            assert state.points == (23, 0)
        if number == 7:
            assert state.points == (23, 0)  # no run credited before the 8th card
    assert state.to_move == 3
    assert state.points == (23 + scored, 15)
    tensor = state.information_state_tensor(0)
    assert tensor[1692 + 2] == 1.0 and sum(tensor[1692:1696]) == 1.0
    assert tensor[1540:1548].tolist() == [1, 0, 0, 1, 0, 1, 1, 0]  # twenty fifty fifty twenty
    assert state.information_state_string(3).split("\n")[9] == f"runs 2 {scored}"
    assert state.information_state_string(1).split("\n")[8] == "shown 0:9C3 1:9D4 2:AH4,8S3 3:QS3"
    play_first_legal(state)
    result = state.result
    assert result.runs == RunsResult(2, scored)
    assert result.bella is None  # KC (seat 3) and QC (seat 1): dealt to different players
    assert sum(result.points) == 162 + scored  # R6.1 count


@pytest.mark.parametrize("trump", ["H", "S"])
def test_R4_3_equal_plain_runs_cancel_all_runs(engine: ModuleType, trump: str) -> None:
    # DEAL_TIE: seats 0 and 1 hold fifties 9-8-7-6 of clubs and of diamonds, both plain with
    # hearts or spades trump: they tie, so nobody scores any run (not seat 0's twenty, not the
    # twenties of seats 2 and 3).
    state = engine.HandState(3, deal=DEAL_TIE)
    state.apply(f"0 call {trump}")
    play_first_legal(state, 7)
    assert runs_seen(state) == {None}
    play_first_legal(state, 1)
    assert runs_seen(state) == {None}
    obs = state.observation(2)
    assert obs.announced == (50, 50, 20, 20)
    assert obs.shown == (
        (run("94C"), run("A3S")),
        (run("94D"),),
        (run("83H"),),
        (run("Q3H"),),
    )
    assert state.information_state_string(2).split("\n")[9] == "runs -"
    assert sum(state.information_state_tensor(2)[1692:1696]) == 0.0
    # The 8th card completed trick 2 and credited no run: the points are the two tricks' card
    # points (and the bella, if seat 0 already played both KS and QS).
    tricks = state.observation(0).tricks
    assert len(tricks) == 2
    bella = 20 if state.observation(0).bella is not None else 0
    assert sum(state.points) == sum(t.points for t in tricks) + bella
    play_first_legal(state)
    result = state.result
    assert result.runs is None
    if trump == "H":  # KH seat 1, QH seat 3: no bella
        assert result.bella is None
        assert sum(result.points) == 162
    else:  # KS and QS both seat 0: bella
        assert result.bella == 0
        assert sum(result.points) == 162 + 20


@pytest.mark.parametrize(("trump", "seat", "scored"), [("C", 0, 70), ("D", 1, 50)])
def test_R4_2_a_trump_run_beats_an_equal_plain_run(
    engine: ModuleType, trump: str, seat: int, scored: int
) -> None:
    # DEAL_TIE: the same fifties, but one of them is trump: it wins, and its holder scores all
    # its runs (seat 0: fifty + twenty = 70; seat 1: 50). Clubs: KC seat 3, QC seat 1; diamonds:
    # KD seat 2, QD seat 3: no bella either way.
    state = engine.HandState(3, deal=DEAL_TIE)
    state.apply(f"0 call {trump}")
    play_first_legal(state, 7)
    assert runs_seen(state) == {None}
    play_first_legal(state, 1)
    assert runs_seen(state) == {RunsResult(seat, scored)}
    play_first_legal(state)
    assert state.result.runs == RunsResult(seat, scored)
    assert state.result.bella is None
    assert sum(state.result.points) == 162 + scored


@pytest.mark.parametrize(
    ("trump", "team_runs", "scored", "bella"),
    [
        ("S", False, 50, None),  # KS seat 2, QS seat 3
        ("C", False, 50, None),  # seat 0's clubs fifty is trump but tops at 9 < A; KC s1 QC s2
        ("D", False, 50, None),  # KD seat 3, QD seat 0
        ("H", False, 50, 2),  # the fifty A-K-Q-J of trump holds K and Q: "fifty with the bells"
        ("S", True, 100, None),  # team_runs: partner seat 0's fifty 9C scores too
        ("H", True, 100, 2),
    ],
)
def test_R4_3_a_tie_below_the_best_run_changes_nothing(
    engine: ModuleType, trump: str, team_runs: bool, scored: int, bella: int | None
) -> None:
    # DEAL_BELOW: seats 0 and 1 tie with plain fifties topping 9 (clubs and diamonds, with
    # spades or hearts trump), but seat 2's fifty topping A beats both: seat 2 scores.
    state = engine.HandState(3, deal=DEAL_BELOW, rules=Rules(team_runs=team_runs))
    state.apply(f"0 call {trump}")
    play_first_legal(state, 7)
    assert runs_seen(state) == {None}
    play_first_legal(state, 1)
    assert runs_seen(state) == {RunsResult(2, scored)}
    play_first_legal(state)
    result = state.result
    assert result.runs == RunsResult(2, scored)
    assert result.bella == bella
    # R6.1 count: 162 + runs + bella; with the bells 50 + 20 = 70 for the fifty (R4.5).
    assert sum(result.points) == 162 + scored + (20 if bella is not None else 0)


DEAL_THREE = [
    "6C 7C 8C 9C JC KC 7S 9S JS",  # seat 0: fifty 9-8-7-6C
    "6D 7D 8D 9D JD KD TH QH KS",  # seat 1: fifty 9-8-7-6D
    "6H 7H 8H 9H QD AD JH KH AH",  # seat 2: fifty 9-8-7-6H (J K A of hearts: no Q, no run)
    "6S 8S TS QS AS TC QC AC TD",  # seat 3: no run
]


@pytest.mark.parametrize(
    ("trump", "runs", "count"),
    [
        ("S", None, 162),  # three equal plain fifties: no one scores (docs/DECISIONS.md)
        ("C", RunsResult(0, 50), 212),  # the trump fifty beats the two plain ones
        ("H", RunsResult(2, 50), 212),
    ],
)
def test_R4_3_three_equal_best_runs(
    engine: ModuleType, trump: str, runs: RunsResult | None, count: int
) -> None:
    # Bella: KS seat 1 / QS seat 3, KC seat 0 / QC seat 3, KH seat 2 / QH seat 1: none.
    state = engine.HandState(3, deal=DEAL_THREE)
    state.apply(f"0 call {trump}")
    play_first_legal(state, 8)
    assert runs_seen(state) == {runs}
    assert state.observation(3).announced == (50, 50, 50, None)
    play_first_legal(state)
    assert state.result.runs == runs
    assert state.result.bella is None
    assert sum(state.result.points) == count


def test_R4_no_runs_at_all(engine: ModuleType) -> None:
    # Every seat holds cards two apart or less than three in a row: no run anywhere.
    deal = [
        "6C 8C TC QC AC 7D 9D JD KD",
        "7C 9C JC KC 6D 8D TD QD AD",
        "6H 8H TH QH AH 7S 9S JS KS",
        "7H 9H JH KH 6S 8S TS QS AS",
    ]
    state = engine.HandState(0, deal=deal)
    state.apply("1 call H")
    play_first_legal(state, 8)
    obs = state.observation(0)
    assert obs.announced == (None, None, None, None)
    assert obs.shown == ((), (), (), ())
    assert obs.runs is None
    play_first_legal(state)
    # KH and QH: seat 3 holds the KH, seat 2 the QH: no bella.
    assert state.result.runs is None and state.result.bella is None
    assert sum(state.result.points) == 162


def test_R4_5_bella_needs_k_and_q_dealt_to_one_player(engine: ModuleType) -> None:
    # DEAL_B with diamonds trump: KD seat 2, QD seat 3. Only run: seat 0's twenty.
    state = engine.HandState(3, deal=DEAL_B)
    state.apply("0 call D")
    play_first_legal(state)
    result = state.result
    assert result.bella is None
    assert {state.observation(seat).bella for seat in range(4)} == {None}
    assert result.runs == RunsResult(0, 20)
    assert sum(result.points) == 162 + 20


# --------------------------------------------------------------------------------------------
# DEAL_B, hearts trump, dealer 3 (eldest seat 0 leads): three complete play lines.
# In every line the heart tricks go to seat 1 (its JH and 9H are the two best trumps), and trick
# 9 is 6D (seat 1), 6S (seat 2), 8H (seat 3), 8C (seat 0): seat 3's 8H is the only trump, 0 card
# points + 10 for the last. Runs: seat 0's twenty, credited to team 0 at the 8th card.
# Bella: seat 2 plays KH (first) and QH (second): +20 for team 0 as the QH is played.
# --------------------------------------------------------------------------------------------

# (leader, cards in play order, winner, card points (+10 on the ninth))
LINE_MADE = [
    (0, "AS TS QS KS", 0, 11 + 10 + 3 + 4),  # 28
    (0, "TD 9D KD QD", 0, 10 + 0 + 4 + 3),  # 17: T > K > Q > 9 off trump
    (0, "8S 7S 9S JS", 3, 2),
    (3, "QC 6C JC 9C", 3, 3 + 2),  # 5
    (3, "KC 7C TC AC", 2, 4 + 10 + 11),  # 25
    (2, "8D JD 7D AD", 1, 2 + 11),  # 13
    (1, "JH KH AH 6H", 1, 20 + 4 + 11),  # 35: nobody can beat the JH, any heart
    (1, "9H QH TH 7H", 1, 14 + 3 + 10),  # 27: the 9 beats the T in trump
    (1, "6D 6S 8H 8C", 3, 10),  # 8H: the only trump
]
# team 0: 28 + 17 + 25 = 70 cards + 20 run + 20 bella = 110; team 1: 2+5+13+35+27+10 = 92.

LINE_HALF = [
    (0, "AS TS 9S JS", 0, 11 + 10 + 2),  # 23
    (0, "TD 9D 8D QD", 0, 10 + 3),  # 13
    (0, "8S 7S QS KS", 3, 3 + 4),  # 7
    (3, "QC 6C JC 9C", 3, 3 + 2),  # 5
    (3, "KC 7C TC AC", 2, 4 + 10 + 11),  # 25
    (2, "KD JD 7D AD", 1, 4 + 2 + 11),  # 17
    (1, "JH KH AH 6H", 1, 35),
    (1, "9H QH TH 7H", 1, 27),
    (1, "6D 6S 8H 8C", 3, 10),
]
# team 0: 23 + 13 + 25 = 61 + 40 = 101; team 1: 7 + 5 + 17 + 35 + 27 + 10 = 101.

LINE_BAIT = [
    (0, "AS TS 9S KS", 0, 11 + 10 + 4),  # 25
    (0, "8S 7S QS JS", 2, 3 + 2),  # 5: Q > J > 8 > 7
    (2, "9C QC 6C JC", 3, 3 + 2),  # 5
    (3, "KC 7C TC AC", 2, 4 + 10 + 11),  # 25
    (2, "KD QD TD AD", 1, 4 + 3 + 10 + 11),  # 28
    (1, "9D 8D JD 7D", 3, 2),  # J > 9 > 8 > 7
    (3, "AH 6H JH KH", 1, 11 + 20 + 4),  # 35: seat 1 must beat the AH (JH or 9H)
    (1, "9H QH TH 7H", 1, 27),
    (1, "6D 6S 8H 8C", 3, 10),
]
# team 0: 25 + 5 + 25 = 55 + 40 = 95; team 1: 5 + 28 + 2 + 35 + 27 + 10 = 107.

LINES = {"made": LINE_MADE, "half": LINE_HALF, "bait": LINE_BAIT}
LINE_POINTS = {"made": (110, 92), "half": (101, 101), "bait": (95, 107)}


def test_deal_b_lines_add_up() -> None:
    for name, line in LINES.items():
        cards_points = [0, 0]
        for _, _, winner, points in line:
            cards_points[winner % 2] += points
        assert sum(cards_points) == 162
        assert (cards_points[0] + 40, cards_points[1]) == LINE_POINTS[name]


def play_line(engine: ModuleType, line_name: str, caller: int, rules: Rules | None = None) -> Any:
    """DEAL_B, dealer 3, hearts called by ``caller`` (0 or 1), then the line trick by trick,
    checking R5.2 (the winner leads), the points after each trick, the run credit at the 8th
    card and the bella on the QH."""
    state = engine.HandState(3, deal=DEAL_B, rules=rules or Rules())
    if caller == 0:
        state.apply("0 call H")
    else:
        play(state, "0 pass", "1 call H")
    assert state.to_move == 0  # R3.5
    points = [0, 0]
    for number, (leader, played, winner, trick_points) in enumerate(LINES[line_name]):
        assert state.to_move == leader  # R5.2: the last winner leads
        for position, action in enumerate(trick(leader, played)):
            state.apply(action)
            if action == "2 play QH":  # R4.5: bella as the second of KH/QH is played
                points[0] += 20
                assert {state.observation(seat).bella for seat in range(4)} == {2}
            if action == "2 play KH":
                assert state.observation(0).bella is None
            if number == 1 and position == 3:  # the 8th card: runs (R4.4)
                points[0] += 20
            if position < 3:
                assert state.points == tuple(points)
        points[winner % 2] += trick_points
        assert state.points == tuple(points), (line_name, number)
        assert state.result is None if number < 8 else state.result is not None
        if number < 8:
            assert state.to_move == winner
    return state


@pytest.mark.parametrize("line_name", LINES)
def test_R5_2_winner_leads_and_points_trick_by_trick(engine: ModuleType, line_name: str) -> None:
    state = play_line(engine, line_name, caller=0)
    result = state.result
    line = LINES[line_name]
    assert result.tricks == tuple(
        TrickResult(leader, tuple(parse_cards(played)), winner, points)
        for leader, played, winner, points in line
    )
    assert result.points == LINE_POINTS[line_name]
    assert result.runs == RunsResult(0, 20)
    assert result.bella == 2
    assert result.trump is H and result.caller == 0
    assert state.hands == ((), (), (), ())
    assert state.to_move is None and state.phase is Phase.DONE
    assert sum(result.points) == 162 + 20 + 20  # R6.1 count (R10.8: 202)
    for action_id in range(41):  # R5.3 nine tricks make a hand
        assert_illegal(state, action_id, "R5.3")


# R6 outcomes for DEAL_B: (line, caller seat, half_bait_is_bait) -> (outcome, score)
R6_CASES = [
    # team 0 calls, holding the run and the bella
    ("made", 0, False, Outcome.MADE, (110, 92)),  # R6.2 each team scores its points
    ("bait", 0, False, Outcome.BAIT, (0, 202)),  # R6.3 the others score the count, run+bella incl.
    ("half", 0, False, Outcome.HALF_BAIT, (0, 101)),  # R6.4 the others score their own points
    ("half", 0, True, Outcome.HALF_BAIT, (0, 202)),  # half_bait_is_bait: the whole count
    ("made", 0, True, Outcome.MADE, (110, 92)),
    ("bait", 0, True, Outcome.BAIT, (0, 202)),
    # team 1 calls, the run and bella are the other side's
    ("made", 1, False, Outcome.BAIT, (202, 0)),  # 92 < 110: bait, team 0 scores everything
    ("bait", 1, False, Outcome.MADE, (95, 107)),  # 107 > 95: made
    ("half", 1, False, Outcome.HALF_BAIT, (101, 0)),  # team 0 keeps its 101 (run and bella)
    ("half", 1, True, Outcome.HALF_BAIT, (202, 0)),
]


@pytest.mark.parametrize(("line_name", "caller", "hbib", "outcome", "score"), R6_CASES)
def test_R6_scoring_with_runs_and_bella_on_either_side(
    engine: ModuleType,
    line_name: str,
    caller: int,
    hbib: bool,
    outcome: Outcome,
    score: tuple[int, int],
) -> None:
    state = play_line(engine, line_name, caller, Rules(half_bait_is_bait=hbib))
    result = state.result
    assert result.caller == caller
    assert result.points == LINE_POINTS[line_name]
    assert result.outcome is outcome
    assert result.score == score
    assert result.to_dict()["score"] == list(score)
    assert result.to_dict()["outcome"] == outcome.value


def test_R6_5_no_bonus_for_every_trick(engine: ModuleType) -> None:
    # Seat 0 holds all nine clubs and calls clubs: it must win every trick (it trumps whatever is
    # led; the others hold no trump). Count: 162 + its runs (A-K-Q-J and T-9-8-7: 100, beating
    # the equal plain fifties of the others as trump) + bella 20 = 282, no bonus.
    state = engine.HandState(3, deal=DEAL_SUITS)
    state.apply("0 call C")
    play_first_legal(state)
    result = state.result
    assert [t.winner for t in result.tricks] == [0] * 9
    assert result.runs == RunsResult(0, 100)
    assert result.bella == 0
    assert result.points == (282, 0)
    assert result.outcome is Outcome.MADE
    assert result.score == (282, 0)


def test_R6_3_bait_when_the_caller_takes_nothing(engine: ModuleType) -> None:
    # DEAL_SUITS again, seat 1 calls clubs (held wholly by seat 0): team 1 takes nothing.
    state = engine.HandState(3, deal=DEAL_SUITS)
    play(state, "0 pass", "1 call C")
    play_first_legal(state)
    assert state.result.outcome is Outcome.BAIT
    assert state.result.score == (282, 0)


# --------------------------------------------------------------------------------------------
# R7 the match
# --------------------------------------------------------------------------------------------


def play_hand_of_match(match: Any) -> None:
    number = match.hand_index
    while not match.is_terminal and match.hand_index == number:
        match.apply(match.legal_action_ids()[0])


def test_R7_1_equal_totals_at_the_target_play_on(engine: ModuleType) -> None:
    # A void hand at 500-500: the target is reached but the totals are equal: play on.
    match = engine.MatchState(seed=3, rules=Rules(dealer_may_pass=True), scores=(500, 500))
    for k in (1, 2, 3, 4):
        match.apply(f"{k % 4} pass")
    assert match.scores == (500, 500)
    assert not match.is_terminal and match.winner is None
    assert match.hand_index == 1
    # Any played hand scores unequally (made: caller > other; bait/half bait: 0 vs more), so
    # the next played hand ends the match and the higher total wins.
    play_hand_of_match(match)
    assert match.is_terminal
    assert len(match.history) == 2
    gained = match.history[1].result.score
    assert gained[0] != gained[1]
    assert match.scores == (500 + gained[0], 500 + gained[1])
    assert match.winner == (0 if gained[0] > gained[1] else 1)
    assert match.legal_action_ids() == []
    with pytest.raises(IllegalActionError):
        match.apply(0)


def first_made_hand(engine: ModuleType, both_score: bool) -> tuple[int, tuple[int, int]]:
    """The first seed (from 0) whose match hand 0, played by smallest legal ids, is made with
    both teams scoring at least 10 (or any made hand): ``(seed, score)``."""
    for seed in range(500):
        match = engine.MatchState(seed=seed)
        play_hand_of_match(match)
        result = match.history[0].result
        if result.outcome is Outcome.MADE and (not both_score or min(result.score) >= 10):
            return seed, result.score
    raise AssertionError("no such seed in 0..499")


def test_R7_1_a_tie_at_the_target_after_a_played_hand_plays_on(engine: ModuleType) -> None:
    seed, (p, q) = first_made_hand(engine, both_score=True)
    # Start the same match p and q short of 500: the hand (same deal, same plays) ends 500-500.
    match = engine.MatchState(seed=seed, scores=(500 - p, 500 - q))
    play_hand_of_match(match)
    assert match.history[0].result.score == (p, q)
    assert match.scores == (500, 500)
    assert match.winner is None and not match.is_terminal
    assert match.hand_index == 1
    assert match.hand.scores_before == (500, 500)
    play_hand_of_match(match)
    gained = match.history[1].result.score
    assert match.is_terminal
    assert match.winner == (0 if gained[0] > gained[1] else 1)


@pytest.mark.parametrize("ahead", [0, 1])
def test_R7_1_both_teams_over_the_target_the_higher_wins(engine: ModuleType, ahead: int) -> None:
    seed, (p, q) = first_made_hand(engine, both_score=True)
    # Both teams reach 500 in this hand; the team ``ahead`` ends 5 points higher.
    end = (505, 500) if ahead == 0 else (500, 505)
    match = engine.MatchState(seed=seed, scores=(end[0] - p, end[1] - q))
    assert max(match.scores) < 500
    play_hand_of_match(match)
    assert match.scores == end
    assert match.is_terminal
    assert match.winner == ahead
    assert len(match.history) == 1


def test_R7_1_the_target_rule_option(engine: ModuleType) -> None:
    seed, (p, q) = first_made_hand(engine, both_score=False)
    high = max(p, q)
    winner = 0 if p > q else 1
    # target = the higher score: reached exactly, the match ends.
    match = engine.MatchState(seed=seed, rules=Rules(target=high))
    play_hand_of_match(match)
    assert match.scores == (p, q)
    assert match.is_terminal and match.winner == winner
    # target one above: not reached, play on.
    match = engine.MatchState(seed=seed, rules=Rules(target=high + 1))
    play_hand_of_match(match)
    assert match.scores == (p, q)
    assert not match.is_terminal and match.winner is None and match.hand_index == 1


def test_R7_2_the_match_records_every_hand(engine: ModuleType) -> None:
    match = engine.MatchState(seed=11, rules=Rules(target=300), first_dealer=1)
    totals = [match.scores]
    while not match.is_terminal:
        play_hand_of_match(match)
        totals.append(match.scores)
    history = match.history
    assert len(history) == len(totals) - 1
    for number, hand in enumerate(history):
        assert hand.dealer == (1 + number) % 4
        assert hand.scores_before == totals[number]
        assert hand.deal == spec_deal(spec_derive(11, number), hand.dealer)
        score = hand.result.score
        assert totals[number + 1] == (totals[number][0] + score[0], totals[number][1] + score[1])
    assert max(match.scores) >= 300 and match.scores[0] != match.scores[1]
    assert all(max(total) < 300 or total[0] == total[1] for total in totals[:-1])
    assert match.winner == (0 if match.scores[0] > match.scores[1] else 1)
