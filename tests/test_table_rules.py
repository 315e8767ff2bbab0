"""Rule tables for table mode (RULES.md R4.4, R4.5, R8; docs/TABLE.md, docs/EVENTS.md): manual
announce, show and bella with ``first_bell_ok`` and ``late_twenty``, misplays and the calls that
end a hand, every refusal of docs/TABLE.md with its rule id, and the per-seat events.

Every case plays one fixed deal (dealer 3, so seat 0 is eldest and leads) and checks the values
a careful player would work out by hand.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest
from tarabish import Card, IllegalActionError, Misplay, Outcome, Rules, RunsResult

DEALER = 3
DEAL = [
    "6C 7C 8C 9C KH QH AS 6D 7S",  # a fifty 9-8-7-6 of clubs; the hearts K and Q
    "TC JC QC 8H 8D TD 6S 8S TS",  # a twenty Q-J-T of clubs
    "KC AC 6H 7H 9H 7D 9S JS QS",  # no run
    "TH JH AH 9D JD QD KD AD KS",  # a fifty A-K-Q-J of diamonds
]
MANUAL = Rules(declarations="manual")
UNENFORCED = Rules(enforce_legal_play=False)
TABLE = Rules(declarations="manual", enforce_legal_play=False)
TRICK_ONE = ["0 play AS", "1 play 6S", "2 play 9S", "3 play KS"]  # seat 0 wins 15
TRICK_TWO = ["0 play 7S", "1 play 8S", "2 play JS", "3 play TH"]  # hearts trump: seat 3 wins 12


def hand(engine: ModuleType, rules: Rules, actions: list[str]) -> Any:
    state = engine.HandState(DEALER, deal=DEAL, rules=rules)
    for action in actions:
        state.apply(action)
    return state


def refused(state: Any, action: Any, rule: str, seat: int | None = None) -> None:
    """``action`` raises IllegalActionError naming ``rule`` and changes nothing."""
    before = (state.to_json(), state.events(), state.allowed_action_ids())
    with pytest.raises(IllegalActionError) as caught:
        state.apply(action, seat)
    assert caught.value.rule == rule, str(caught.value)
    assert rule in str(caught.value)
    assert (state.to_json(), state.events(), state.allowed_action_ids()) == before


# --------------------------------------------------------------------------------------------
# Manual declarations (R4.4, R8.6c-d)
# --------------------------------------------------------------------------------------------


def test_auto_mode_credits_the_best_run(engine: ModuleType) -> None:
    # The baseline the manual cases differ from: seat 3's fifty A-K-Q-J beats seat 0's (R4.3).
    state = hand(engine, Rules(), ["0 call H", *TRICK_ONE, *TRICK_TWO])
    assert state.observation(1).runs == RunsResult(3, 50)
    assert state.points == (15, 12 + 50)


def test_a_forgotten_announcement_counts_for_nothing(engine: ModuleType) -> None:
    state = hand(engine, MANUAL, ["0 call H", "0 announce", *TRICK_ONE, "0 show", *TRICK_TWO])
    # Seat 3 never announced: its better fifty neither scores nor compares (R4.4).
    assert state.observation(2).runs == RunsResult(0, 50)
    assert state.points == (15 + 50, 12)
    refused(state, "3 announce", "R8.6d")  # trick one is over


def test_an_announcement_never_shown_counts_for_nothing(engine: ModuleType) -> None:
    actions = ["0 call H", "0 announce", *TRICK_ONE[:3], "3 announce", TRICK_ONE[3], "0 show"]
    state = hand(engine, MANUAL, [*actions, *TRICK_TWO])
    assert state.observation(0).announced == (50, None, None, 50)
    assert state.observation(0).shown[3] == ()
    assert state.observation(0).runs == RunsResult(0, 50)
    refused(state, "3 show", "R8.6d")  # trick three, late_twenty off


def test_a_better_run_announced_later_in_trick_one_wins(engine: ModuleType) -> None:
    actions = ["0 call H", "0 announce", *TRICK_ONE[:3], "3 announce", TRICK_ONE[3]]
    state = hand(engine, MANUAL, [*actions, "0 show", *TRICK_TWO[:3], "3 show", TRICK_TWO[3]])
    assert state.table_view(1).announced == (50, None, None, 50)
    assert state.table_view(1).shown[3] == tuple(map(Card.parse, ("JD", "QD", "KD", "AD")))
    assert state.observation(1).runs == RunsResult(3, 50)
    assert state.points == (15, 12 + 50)


def test_runs_are_not_credited_before_every_seat_played_its_second_card(
    engine: ModuleType,
) -> None:
    state = hand(engine, MANUAL, ["0 call H", "0 announce", *TRICK_ONE, "0 show", *TRICK_TWO[:3]])
    assert state.points == (15, 0) and state.observation(0).runs is None  # R8.6c: 7 cards


LATE = ["0 call H", *TRICK_ONE[:3], "3 announce", TRICK_ONE[3], *TRICK_TWO]


@pytest.mark.parametrize("seat0_fifty", [False, True])
def test_a_fifty_shown_late_counts_as_a_twenty(engine: ModuleType, seat0_fifty: bool) -> None:
    rules = Rules(declarations="manual", late_twenty=True)
    actions = list(LATE)
    if seat0_fifty:  # seat 0 announces and shows its fifty in time
        actions[1:1] = ["0 announce"]
        actions.insert(actions.index("0 play 7S"), "0 show")
    state = hand(engine, rules, actions)
    assert state.observation(0).runs is None  # R8.6c: credited at the 12th card
    state.apply("3 show")  # trick three, seat 3 leads it (R4.4 late_twenty)
    assert state.events(2)[-1] == {
        "seq": len(state.events()) + 8,  # 8 private events: 4 deals and 4 kitties
        "kind": "show",
        "seat": 3,
        "cards": ["QD", "KD", "AD"],
        "runs": [{"suit": "D", "top": "A", "length": 3}],
        "late": True,
    }
    for action in ("3 play AD", "0 play 6D", "1 play 8D", "2 play 7D"):  # seat 3 wins 11
        state.apply(action)
    # The late twenty A-K-Q loses to a fifty shown in time, and wins alone (R4.3, R4.4).
    expected = RunsResult(0, 50) if seat0_fifty else RunsResult(3, 20)
    assert state.observation(1).runs == expected
    team = expected.seat % 2
    cards = [15, 12 + 11]
    cards[team] += expected.points
    assert state.points == tuple(cards)


def test_a_late_show_needs_late_twenty(engine: ModuleType) -> None:
    state = hand(engine, MANUAL, LATE)
    refused(state, "3 show", "R8.6d")
    assert 42 not in state.allowed_action_ids()


# --------------------------------------------------------------------------------------------
# Bella (R4.5, R8.6e)
# --------------------------------------------------------------------------------------------

KING_FIRST = ["0 call H", "0 bella", "0 play KH", "1 play 8H", "2 play 9H", "3 play JH"]


@pytest.mark.parametrize("first_bell_ok", [False, True])
def test_bella_on_the_first_of_k_and_q(engine: ModuleType, first_bell_ok: bool) -> None:
    rules = Rules(declarations="manual", first_bell_ok=first_bell_ok)
    state = hand(engine, rules, KING_FIRST[:2])
    assert state.allowed_action_ids() == [Card.parse("QH").index, Card.parse("KH").index, 41]
    refused(state, "0 play AS", "R8.6e")  # the card after a bella is the trump K or Q
    for action in KING_FIRST[2:]:
        state.apply(action)
    view = state.table_view(2)
    if first_bell_ok:
        assert (view.bella, view.bella_forfeited) == (0, None)
        assert state.points == (20, 4 + 14 + 20)
    else:  # table talk: the bella is lost for the hand (R4.5)
        assert (view.bella, view.bella_forfeited) == (None, 0)
        assert state.points == (0, 4 + 14 + 20)
    assert {"seq": 11, "kind": "bella", "seat": 0, "counts": first_bell_ok} in state.events()
    refused(state, "3 bella", "R8.6e")  # seat 3 was not dealt both


def test_bella_on_the_second_counts(engine: ModuleType) -> None:
    actions = ["0 call H", "0 play QH", "1 play 8H", "2 play 9H", "3 play JH", "3 play AH"]
    state = hand(engine, MANUAL, actions)
    state.apply("0 bella")
    assert state.points == (20, 3 + 14 + 20)  # credited at once (R8.6c)
    state.apply("0 play KH")
    refused(state, "1 bella", "R8.6e")


def test_bella_is_refused_when_neither_card_may_be_played(engine: ModuleType) -> None:
    # Seat 3 leads the KS and seat 0 holds the 7S and AS: R5.1a binds it to a spade, so it
    # cannot play the trump K or Q now, and the bella that goes with that card is refused.
    actions = ["0 call H", "0 play 6D", "1 play 8D", "2 play 7D", "3 play AD", "3 play KS"]
    state = hand(engine, MANUAL, actions)
    refused(state, "0 bella", "R8.6e")
    # Without enforced legal play any held card may be played, so the bella may be called.
    assert 43 in hand(engine, TABLE, actions).allowed_action_ids()


def test_bella_with_a_fifty(engine: ModuleType) -> None:
    # Diamonds trump: seat 3's fifty A-K-Q-J holds the trump K and Q: "fifty with the bells".
    actions = ["0 call D", *TRICK_ONE[:3], "3 announce", "3 bella", "3 play KS"]
    state = hand(engine, MANUAL, actions)
    assert state.points == (15, 20)  # the bella counts at once, and the card was free
    for action in ["0 play 7S", "1 play 8S", "2 play JS", "3 show", "3 play 9D"]:
        state.apply(action)
    assert state.observation(0).runs == RunsResult(3, 50)
    assert state.points == (15, 20 + 16 + 50)  # 70 with the bells


# --------------------------------------------------------------------------------------------
# Misplays and calls (R8.1-R8.3, R8.6a-b)
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("actions", "caller", "correct", "team", "misplays"),
    [
        # Seat 1 holds spades and plays a diamond; seat 2 (team 0) calls it.
        (["0 play AS", "1 play 8D"], 2, True, 0, [Misplay(1, Card.parse("8D"), 0)]),
        # Seat 2 reneges; seat 1 (team 1) calls it, out of turn.
        (["0 play AS", "1 play 6S", "2 play 7D"], 1, True, 1, [Misplay(2, Card.parse("7D"), 0)]),
        # Only the caller's partner misplayed: a false call, the other team scores.
        (["0 play AS", "1 play 6S", "2 play 7D"], 0, False, 1, [Misplay(2, Card.parse("7D"), 0)]),
        # No misplay at all: a false call.
        (["0 play AS"], 1, False, 0, []),
    ],
    ids=["team0-correct", "team1-correct", "partner-only-false", "no-misplay-false"],
)
def test_a_misplay_call(
    engine: ModuleType,
    actions: list[str],
    caller: int,
    correct: bool,
    team: int,
    misplays: list[Misplay],
) -> None:
    state = hand(engine, UNENFORCED, ["0 call H", *actions])
    state.apply(f"{caller} misplay")
    result = state.result
    assert result.outcome is Outcome.MISPLAY and state.is_terminal
    assert result.call.correct is correct and result.call.team == team
    assert result.call.seat == caller and result.call.count == 162
    assert list(result.call.misplays) == misplays
    assert result.score == ((162, 0) if team == 0 else (0, 162))
    assert result.points == (0, 0)  # no trick complete; the current trick's cards go to no one


@pytest.mark.parametrize("seat", [0, 3])
def test_a_throw_in(engine: ModuleType, seat: int) -> None:
    state = hand(engine, UNENFORCED, ["0 call H", *TRICK_ONE])
    state.apply(f"{seat} throw")
    result = state.result
    assert result.outcome is Outcome.THROW_IN
    assert (result.call.verb, result.call.correct, result.call.misplays) == ("throw", None, ())
    other = 1 - seat % 2
    assert result.call.team == other
    assert result.score == ((162, 0) if other == 0 else (0, 162))
    assert result.points == (15, 0) and len(result.tricks) == 1


def test_the_count_holds_runs_and_bella_scored_so_far(engine: ModuleType) -> None:
    actions = ["0 call D", *TRICK_ONE[:3], "3 announce", "3 bella", "3 play KS"]
    actions += ["0 play 7S", "1 play 8S", "2 play JS", "3 show", "3 play 9D"]
    state = hand(engine, TABLE, actions)
    state.apply(44, 1)  # an id taken for seat 1, out of turn: no misplay, a false call
    result = state.result
    assert result.call.count == 162 + 50 + 20 and result.call.team == 0
    assert result.score == (232, 0)
    assert result.points == (15, 16 + 20 + 50)
    assert result.runs == RunsResult(3, 50) and result.bella == 3


def test_a_call_before_runs_are_credited_credits_none(engine: ModuleType) -> None:
    state = hand(engine, TABLE, ["0 call H", "0 announce", *TRICK_ONE, "0 show", "0 play 7S"])
    state.apply("2 throw")
    assert state.result.runs is None and state.result.call.count == 162


def test_a_misplay_is_allowed_but_not_legal(engine: ModuleType) -> None:
    state = hand(engine, UNENFORCED, ["0 call H", "0 play AS"])
    spades = [Card.parse(text).index for text in ("6S", "8S", "TS")]
    held = sorted(Card.parse(text).index for text in DEAL[1].split())
    assert state.legal_action_ids() == [*spades, 44, 45]
    assert state.allowed_action_ids() == [*held, 44, 45]
    assert state.allowed_action_ids(3) == state.legal_action_ids(3) == [44, 45]
    assert [str(action) for action in state.allowed_actions(0)] == ["0 misplay", "0 throw"]


# --------------------------------------------------------------------------------------------
# Refusals (docs/TABLE.md "Refusals")
# --------------------------------------------------------------------------------------------

REFUSALS = [
    # (rules, actions before, refused action, seat for an id, rule)
    (Rules(), ["0 call H"], "0 announce", None, "R4.4"),
    (Rules(), ["0 call H"], "0 show", None, "R4.4"),
    (Rules(), [], "0 bella", None, "R4.5"),
    (Rules(), ["0 call H"], "2 misplay", None, "R8.2"),
    (Rules(), ["0 call H"], 45, 1, "R8.3"),
    (UNENFORCED, [], "1 misplay", None, "R8.6a"),
    (UNENFORCED, [], "3 throw", None, "R8.6a"),
    (UNENFORCED, ["0 call H", "0 throw"], "1 misplay", None, "R8.6a"),
    (UNENFORCED, ["0 call H", "0 throw"], 40, None, "R5.3"),
    (UNENFORCED, ["0 call H", "0 throw"], "1 play 6S", None, "R5.3"),
    (MANUAL, [], "0 announce", None, "R8.6d"),
    (MANUAL, ["0 call H"], "1 announce", None, "R8.6d"),
    (MANUAL, ["0 call H", "0 announce"], "0 announce", None, "R8.6d"),
    (MANUAL, ["0 call H", "0 play AS"], "1 show", None, "R8.6d"),
    (MANUAL, ["0 call H", "0 announce"], "0 show", None, "R8.6d"),
    (MANUAL, ["0 call H", "0 play AS", "1 play 6S"], "2 announce", None, "R8.6d"),
    (MANUAL, ["0 call H", *TRICK_ONE], "0 announce", None, "R8.6d"),
    (MANUAL, ["0 call H", *TRICK_ONE], "0 show", None, "R8.6d"),
    (MANUAL, ["0 call H", "0 play AS"], "0 announce", None, "R8.6d"),  # after its card
    # late_twenty shows a fifty late, never a twenty (seat 1 announced 20).
    (
        Rules(declarations="manual", late_twenty=True),
        ["0 call H", "0 play AS", "1 announce", *TRICK_ONE[1:], *TRICK_TWO, "3 play AD"],
        "1 show",
        None,
        "R8.6d",
    ),
    (MANUAL, ["0 call H"], "2 bella", None, "R8.6e"),
    (MANUAL, [], "0 bella", None, "R8.6e"),
    (MANUAL, ["0 call H", "0 bella"], "0 bella", None, "R8.6e"),
    (MANUAL, ["0 call H", "0 bella"], "0 play 6C", None, "R8.6e"),
    (UNENFORCED, ["0 call H"], "1 play 6S", None, "R8.1"),
    (UNENFORCED, ["0 call H"], "0 play TC", None, "R8.1"),
    (Rules(), ["0 call H"], "0 play TC", None, "R5.1"),
    (Rules(), ["0 call H", "0 play AS"], "1 play 8D", None, "R5.1a"),
    (TABLE, [], "1 play 8D", None, "R3.1"),
    (TABLE, ["0 call H"], "1 call S", None, "R5.1"),
    (TABLE, ["0 call H"], "0 pass", None, "R3.1"),
]


@pytest.mark.parametrize(("rules", "before", "action", "seat", "rule"), REFUSALS)
def test_refusals_name_the_rule_and_change_nothing(
    engine: ModuleType, rules: Rules, before: list[str], action: Any, seat: int | None, rule: str
) -> None:
    refused(hand(engine, rules, before), action, rule, seat)


def test_an_id_after_the_hand_names_the_call_rule(engine: ModuleType) -> None:
    state = hand(engine, UNENFORCED, ["0 call H", "0 throw"])
    refused(state, 44, "R8.6a")
    refused(state, 0, "R5.3")


# --------------------------------------------------------------------------------------------
# Events (docs/EVENTS.md)
# --------------------------------------------------------------------------------------------

EVENT_HAND = ["0 call D", *TRICK_ONE[:3], "3 announce", "3 bella", "3 play KS"]
EVENT_HAND += ["0 play 7S", "1 play 8S", "2 play JS", "3 show", "3 play 9D", "1 throw"]


def test_events_in_the_documented_order(engine: ModuleType) -> None:
    state = hand(engine, TABLE, EVENT_HAND)
    kinds = [(event["kind"], event.get("seat")) for event in state.events(1)]
    assert kinds == [
        ("hand_start", None),
        ("deal", 1),
        ("call", 0),
        ("kitty", 1),
        ("play", 0),
        ("play", 1),
        ("play", 2),
        ("announce", 3),
        ("bella", 3),
        ("play", 3),
        ("trick", None),
        ("play", 0),
        ("play", 1),
        ("play", 2),
        ("show", 3),
        ("play", 3),
        ("trick", None),
        ("runs", 3),
        ("throw", 1),
        ("hand_over", None),
    ]
    events = state.events(1)
    assert [event["seq"] for event in events][:5] == [1, 3, 6, 8, 11]  # gaps: others' cards
    assert events[0] == {"seq": 1, "kind": "hand_start", "hand": 0, "dealer": 3, "scores": [0, 0]}
    assert events[1]["cards"] == DEAL[1].split()[:6] and events[3]["cards"] == DEAL[1].split()[6:]
    assert events[10] == {
        "seq": 17,
        "kind": "trick",
        "trick": 0,
        "leader": 0,
        "cards": ["AS", "6S", "9S", "KS"],
        "winner": 0,
        "points": 15,
    }
    assert events[-2] == {"seq": 25, "kind": "throw", "seat": 1, "team": 0, "count": 232}
    assert events[-1]["result"] == state.result.to_dict()


def test_auto_mode_events_declare_with_the_cards(engine: ModuleType) -> None:
    # R4.4 auto mode: the announcement with a seat's first card, the runs with its second, the
    # runs winner once every seat has played twice (after that trick's event).
    state = hand(engine, Rules(), ["0 call D", *TRICK_ONE, *TRICK_TWO[:3], "3 play 9D"])
    kinds = [(event["kind"], event.get("seat")) for event in state.events()][2:]
    assert kinds == [
        ("announce", 0),
        ("play", 0),
        ("announce", 1),
        ("play", 1),
        ("play", 2),
        ("announce", 3),
        ("play", 3),
        ("trick", None),
        ("show", 0),
        ("play", 0),
        ("show", 1),
        ("play", 1),
        ("play", 2),
        ("show", 3),
        ("play", 3),
        ("trick", None),
        ("runs", 3),
    ]
    shows = [event for event in state.events() if event["kind"] == "show"]
    assert shows[1] == {
        "seq": shows[1]["seq"],
        "kind": "show",
        "seat": 1,
        "cards": ["TC", "JC", "QC"],
        "runs": [{"suit": "C", "top": "Q", "length": 3}],
        "late": False,
    }
    assert state.events()[-1] == {"seq": 27, "kind": "runs", "seat": 3, "points": 50}


def test_events_are_filtered_per_seat_and_resume(engine: ModuleType) -> None:
    state = hand(engine, TABLE, EVENT_HAND)
    everything = {event["seq"]: event for seat in range(4) for event in state.events(seat)}
    assert sorted(everything) == list(range(1, len(everything) + 1))
    public = state.events()
    assert all(event["kind"] not in ("deal", "kitty") for event in public)
    for seat in range(4):
        private = [event for event in state.events(seat) if event["kind"] in ("deal", "kitty")]
        assert [event["seat"] for event in private] == [seat, seat]
        assert state.events(seat, since=20) == [e for e in state.events(seat) if e["seq"] > 20]
    assert state.events(2, since=len(everything)) == []
    assert engine.HandState.from_json(state.to_json()).events(2) == state.events(2)


def test_a_misplay_is_told_only_by_the_ruling(engine: ModuleType) -> None:
    state = hand(engine, UNENFORCED, ["0 call H", "0 play AS", "1 play 8D"])
    told = [event for seat in (None, 0, 2, 3) for event in state.events(seat)]
    assert all(event["kind"] != "misplay" for event in told)
    state.apply("3 misplay")  # seat 3 calls its partner's renege: a false call
    ruling = state.events(0)[-2]
    assert ruling["kind"] == "misplay" and ruling["correct"] is False and ruling["team"] == 0
    assert ruling["misplays"] == [{"seat": 1, "card": "8D", "trick": 0}]


def test_match_events_continue_across_hands(engine: ModuleType) -> None:
    match = engine.MatchState(seed=5, rules=Rules(enforce_legal_play=False, target=150))
    while not match.is_terminal:
        ids = match.legal_action_ids()
        match.apply(45 if 45 in ids else ids[0])
    events = match.events()
    starts = [event["hand"] for event in events if event["kind"] == "hand_start"]
    assert starts == list(range(len(starts))) and len(starts) == match.hand_index + 1
    assert events[-1] == {
        "seq": events[-1]["seq"],
        "kind": "match_over",
        "winner": match.winner,
        "scores": list(match.scores),
    }
    seqs = [event["seq"] for event in match.events(0)]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)


def test_a_late_twenty_from_two_equal_plain_fifties_takes_the_lower_suit(
    engine: ModuleType,
) -> None:
    # R4.4 late_twenty: "its best fifty" (R4.2) between two equal plain fifties (9-8-7-6 of
    # clubs and of diamonds, hearts trump) is the first in find_runs order, the lower suit
    # (docs/DECISIONS.md); its top three cards count as the twenty.
    deal = [
        "6C 7C 8C 9C 6D 7D 8D 9D AS",
        "TC JC QC TD JD QD 6S 7S 8S",
        "KC AC KD AD 9S TS JS QS KS",
        "6H 7H 8H 9H TH JH QH KH AH",
    ]
    state = engine.HandState(
        DEALER, deal=deal, rules=Rules(declarations="manual", late_twenty=True)
    )
    for action in ["0 call H", "0 announce", "0 play AS", "1 play 6S", "2 play 9S", "3 play 6H"]:
        state.apply(action)  # seat 3 trumps trick one and leads the next two
    for action in ["3 play 7H", "0 play 6C", "1 play 7S", "2 play TS", "3 play 8H", "0 show"]:
        state.apply(action)  # seat 0 did not show in trick two: it shows late in trick three
    assert state.events(1)[-1] == {
        "seq": len(state.events()) + 8,  # 8 private events: 4 deals and 4 kitties
        "kind": "show",
        "seat": 0,
        "cards": ["7C", "8C", "9C"],
        "runs": [{"suit": "C", "top": "9", "length": 3}],
        "late": True,
    }
    for action in ["0 play 7C", "1 play 8S", "2 play JS"]:
        state.apply(action)
    assert state.observation(2).runs == RunsResult(0, 20)  # credited at the 12th card (R8.6c)
