"""The leak test for table mode (docs/TABLE.md "The table view", docs/EVENTS.md; RULES.md R2.4,
R8.1, R8.4): a seat's table view and its events must not depend on the cards it cannot see. On
both engines.

For a random table-mode state (random rules, declarations taken or forgotten, misplays, calls in
and out of turn; stopped at a random point) and each seat, the cards that seat cannot see are
re-dealt at random among the other seats' unseen slots: the seat keeps the cards it has seen
(before trump its first six, R2.4, after trump all nine), every played card stays with its
player, every shown run card with its owner, every seat keeps its number of cards. The recorded
actions are then replayed on the new deal, each for its seat with every check, and the sample is
dropped if one is refused (so every action is still allowed) or if the public events (a
spectator's) differ (an announcement's size, a call's ruling and its misplays, bella: what the
table was told). On every kept sample the seat's table view and its events must be unchanged,
so in particular a misplay nobody called shows in no other seat's view (R8.1).
"""

from __future__ import annotations

import random
from types import ModuleType
from typing import Any

from hypothesis import given, note, settings
from hypothesis import strategies as st
from strategies import TableHabits, choose_table_action, table_setup_from_seed
from tarabish import ActionKind, Card, IllegalActionError

BASE_EXAMPLES = settings.default.max_examples  # dev 300, ci 10 000
LEAK_EXAMPLES = max(40, BASE_EXAMPLES // 40)  # ci: 250 table states an engine
SAMPLES = 3  # re-deals tried per (state, seat)
FIRST_SEEN = 6  # R2.4: the cards a seat sees before trump is named


def table_state(engine: ModuleType, seed: int) -> Any:
    """A random table-mode hand stopped after a random number of actions."""
    setup = table_setup_from_seed(seed)
    state = engine.HandState(setup.dealer, **setup.kwargs())
    rng = random.Random(setup.action_seed)
    habits = TableHabits.from_rng(rng)
    stop = rng.randrange(60)
    while not state.is_terminal and len(state.actions) < stop:
        seat, action_id = choose_table_action(state, rng, habits, setup.pass_bias)
        state.apply(action_id, seat)
    return state


def unseen_slots(state: Any, seat: int) -> list[tuple[int, int]]:
    """(owner, position) of every dealt card `seat` has not seen: not its own visible cards,
    not a played card, not a shown run card."""
    played = {a.card for a in state.actions if a.kind is ActionKind.PLAY}
    shown = {card for cards in state.table_view(seat).shown for card in cards}
    slots = []
    for owner, cards in enumerate(state.deal):
        for position, card in enumerate(cards):
            own = owner == seat and (state.trump is not None or position < FIRST_SEEN)
            if not own and card not in played and card not in shown:
                slots.append((owner, position))
    return slots


def redeal(state: Any, seat: int, rng: random.Random) -> list[list[Card]]:
    deal = [list(cards) for cards in state.deal]
    slots = unseen_slots(state, seat)
    cards = [deal[owner][position] for owner, position in slots]
    rng.shuffle(cards)
    for (owner, position), card in zip(slots, cards, strict=True):
        deal[owner][position] = card
    return deal


def replay(engine: ModuleType, state: Any, deal: list[list[Card]]) -> Any | None:
    """The recorded actions on `deal`, each for its seat; None when one is refused."""
    other = engine.HandState(
        state.dealer, deal=deal, rules=state.rules, scores_before=state.scores_before
    )
    for action in state.actions:
        try:
            other.apply(action)
        except IllegalActionError:
            return None
    return other


def check_seat(engine: ModuleType, state: Any, seat: int, rng: random.Random) -> int:
    """Re-deals for `seat`; returns how many kept (and checked) samples changed the deal."""
    kept = 0
    for _ in range(SAMPLES):
        deal = redeal(state, seat, rng)
        other = replay(engine, state, deal)
        if other is None or other.events(None) != state.events(None):
            continue
        kept += deal != state.deal
        assert other.table_view(seat) == state.table_view(seat), seat
        assert other.events(seat) == state.events(seat), seat
    return kept


@settings(max_examples=LEAK_EXAMPLES)
@given(seed=st.integers(0, 2**64 - 1))
def test_table_views_and_events_do_not_leak_hidden_cards(engine: ModuleType, seed: int) -> None:
    state = table_state(engine, seed)
    note(f"rules {state.rules}, actions {[str(a) for a in state.actions]}")
    rng = random.Random(seed)
    for seat in range(4):
        check_seat(engine, state, seat, rng)


def test_the_table_leak_check_resamples_for_real(engine: ModuleType) -> None:
    """The check is not vacuous: many kept samples have a deal other than the original, and
    some states hold a misplay nobody called."""
    kept = misplays = 0
    for seed in range(60):
        state = table_state(engine, seed)
        rng = random.Random(seed)
        for seat in range(4):
            kept += check_seat(engine, state, seat, rng)
        result = state.result
        uncalled = result is None or result.call is None
        misplays += uncalled and any(
            a.kind is ActionKind.PLAY and a.id not in legal_before(engine, state, index)
            for index, a in enumerate(state.actions)
        )
    assert kept > 100 and misplays > 3, (kept, misplays)


def legal_before(engine: ModuleType, state: Any, index: int) -> list[int]:
    """The legal ids of the seat of action `index`, just before it was taken."""
    earlier = engine.HandState(
        state.dealer, deal=state.deal, rules=state.rules, scores_before=state.scores_before
    )
    for action in state.actions[:index]:
        earlier.apply(action)
    return list(earlier.legal_action_ids(state.actions[index].seat))
