"""``tarabish play`` as a user sees it: a screen redrawn at each turn (tarabish._screen), driven
through a pseudo-terminal to the end of a match (R7.1), and the screen's parts: only the allowed
actions (R3.2: no pass for a stuck dealer), team names, scores, one-line refusals."""

from __future__ import annotations

import io
import re

import tarabish as tb
from rich.console import Console
from tarabish._play import engine_bot, refusal
from tarabish._screen import (
    Choice,
    Seating,
    TableScreen,
    choices,
    not_an_action,
    pick_choice,
    render_table,
)
from terminal import ANSI, run_in_terminal

PROMPT = "your action (? for help): "
CLEAR = "\x1b[2J"


def final_scores(seed: int) -> tuple[int, int]:
    """The match the pty test plays: you always take the first allowed action."""
    game = tb.MatchState(seed=seed)
    bot = engine_bot("greedy", seed)
    while not game.is_terminal:
        game.apply(game.legal_action_ids()[0] if game.to_move == 0 else bot(game))
    return game.scores


def test_play_a_whole_match_on_a_terminal_screen() -> None:
    seed = 5
    raw = run_in_terminal(
        ["play", "--seed", str(seed)], prompt=PROMPT, answers=("zz", "?"), default="1"
    )
    assert CLEAR in raw  # the screen is redrawn, not scrolled
    text = ANSI.sub("", raw)
    frames = text.split(PROMPT)
    assert len(frames) > 40
    first = frames[0]
    for part in (
        "Us (You + Partner)",
        "Them (Left + Right)",
        "match (to 500)",
        "your hand",
        "dealer",
        "partner",
        "trump",
        "turn",
    ):
        assert part in first, part
    assert "1) " in first  # the allowed actions, by number
    assert "'zz' is not an action: type 1-" in frames[1]
    assert "type a number or the action's text" in frames[2]
    assert "last trick" in text and "last hand:" in text
    scores = final_scores(seed)
    winner = 0 if scores[0] > scores[1] else 1
    names = ("Us (You + Partner)", "Them (Left + Right)")
    assert f"{names[winner]} win the match {scores[winner]}-{scores[1 - winner]} (R7.1)" in text
    assert max(scores) >= 500  # R7.1


def draw(
    state: tb.HandState,
    seat: int,
    options: tuple[Choice, ...] = (),
    match_scores: tuple[int, int] = (0, 0),
    hand_number: int = 0,
) -> str:
    """The table as ``seat`` sees it, in plain text 80 columns wide."""
    screen = TableScreen(
        view=state.observation(seat),
        seating=Seating(seat),
        match_scores=match_scores,
        target=500,
        hand_number=hand_number,
        options=options,
    )
    console = Console(file=io.StringIO(), width=80, record=True, color_system=None)
    console.print(render_table(screen))
    return console.export_text()


def stuck_dealer_state() -> tb.HandState:
    state = tb.HandState(dealer=0, seed=3)
    for seat in (1, 2, 3):
        state.apply(f"{seat} pass")
    return state


def test_a_stuck_dealer_is_not_offered_pass() -> None:
    state = stuck_dealer_state()
    options = choices(state.legal_actions())
    assert [option.text for option in options] == ["call C", "call D", "call H", "call S"]
    text = draw(state, 0, options, match_scores=(120, 85), hand_number=2)
    assert "1) call C  2) call D  3) call H  4) call S" in text
    assert "pass)" not in text and ") pass" not in text
    assert "no pass: the dealer must call here (R3.2" in text
    assert "Left passed, Partner passed, Right passed" in text
    assert "hand 3, you are You (seat 0)" in text
    # The match score by team name, from your side.
    assert re.search(r"Us \(You \+ Partner\)\s+0\s+120", text)
    assert re.search(r"Them \(Left \+ Right\)\s+0\s+85", text)


def test_the_screen_shows_only_the_seat_s_own_cards() -> None:
    state = tb.HandState(dealer=0, seed=8)
    state.apply("1 call H")
    text = draw(state, 2)
    own = {str(card) for card in state.hands[2]}
    shown = set(re.findall(r"\b[6-9TJQKA][CDHS]\b", text))
    assert own <= shown
    hidden = {str(card) for seat in (0, 1, 3) for card in state.hands[seat]}
    assert not shown & hidden  # R2.4: no other seat's card is drawn
    assert "partner     Partner (seat 0)" in text and "Right (seat 1) to move" in text


def test_choices_by_number_and_by_text() -> None:
    state = stuck_dealer_state()
    options = choices(state.legal_actions())
    assert pick_choice("2", options, 0) == options[1]
    assert pick_choice("call h", options, 0) == options[2]
    assert pick_choice("S", options, 0) == options[3]  # a lone suit letter is a call
    assert pick_choice("9", options, 0) is None  # no option 9
    assert pick_choice("pass", options, 0) == tb.Action.pass_(0)  # parsed, not allowed
    assert pick_choice("hello", options, 0) is None
    state.apply("0 call C")
    plays = choices(state.legal_actions())
    leader = state.to_move
    card = plays[0].action.card
    assert leader == 1 and card is not None  # R3.5: eldest leads
    ten_form = str(card).replace("T", "10").lower()
    assert pick_choice(ten_form, plays, leader) == plays[0]
    assert pick_choice(f"play {card}", plays, leader) == plays[0]
    assert isinstance(plays[0], Choice) and plays[0].text == str(card)


def test_text_that_is_no_action_is_told_what_may_be_typed() -> None:
    state = stuck_dealer_state()
    options = choices(state.legal_actions())
    texts = ", ".join(option.text for option in options)
    assert not_an_action("zz", options) == (
        f"'zz' is not an action: type 1-{len(options)} or one of {texts}"
    )
    state.apply("0 call C")
    while len(state.legal_action_ids()) > 1:
        state.apply(state.legal_action_ids()[0])
    (only,) = choices(state.legal_actions())
    assert not_an_action("zz", [only]) == f"'zz' is not an action: type 1 or {only.text}"


def test_a_refused_action_is_one_line_naming_the_rule() -> None:
    game = tb.MatchState(seed=5)
    seat = game.to_move
    assert seat is not None
    line = refusal(game, tb.Action.play(seat, "6C"))
    assert line.startswith("not allowed: R3.1 ")  # no card before trump is named
    assert "\n" not in line and "dealer" not in line and len(line) < 80
    assert game.phase is tb.Phase.AUCTION and not game.hand.actions  # nothing changed
