"""``tarabish play --table`` (docs/TABLE.md): a person plays table mode in the terminal against
bots that declare correctly (R4.4, R4.5) and call the misplays the plays prove (R8.2).

Through a pseudo-terminal: a whole match where you always take the first action offered (often
a misplay: any card you hold is offered, R8.1), so the screen shows your declaration windows,
the cards that would be misplays, missed windows, the table's declarations, and bot misplay
calls. The bots alone: over whole matches they never misplay, every seat dealt a run announces
it in trick one and shows it in trick two, and every bella that is called counts; and the
misplay proof is the documented one.
"""

from __future__ import annotations

import tarabish as tb
from tarabish import Action, ActionKind, Card
from tarabish._table_bots import bella_counts_now, proven_misplays, table_bot_action
from terminal import ANSI, run_in_terminal

PROMPT = "your action (? for help): "
PAUSE = "Enter to go on, or a call (? for help): "
TABLE_RULES = tb.Rules(declarations="manual", enforce_legal_play=False)


def screen_text(turns: tuple[str, ...], then: str, pauses: tuple[str, ...]) -> str:
    """``tarabish play --table --seed 3`` on a pseudo-terminal, your turns answered with
    ``turns`` then ``then``, the out-of-turn stops with ``pauses`` then Enter; its text."""
    raw = run_in_terminal(
        ["play", "--table", "--seed", "3"],
        prompt=PROMPT,
        answers=turns,
        default=then,
        other_prompts={PAUSE: (pauses, "")},
    )
    return " ".join(ANSI.sub("", raw).split())


def test_play_a_table_match_on_a_terminal_screen() -> None:
    text = screen_text((), "1", ())  # the first action offered; Enter at every stop
    for part in (
        "tarabish table, seed 3",
        "you hold a run: announce it now, before your card, or it does not count (R4.4)",
        "would break R5.1 (a misplay anyone may call, R8.1)",
        "you did not announce: your runs do not count this hand (R4.4)",
        "called a misplay: correct",
        "ended by a misplay call (R8.2)",
        "announced a",
        "win the match",
    ):
        assert part in text, part


def test_you_may_call_out_of_turn_between_any_two_cards() -> None:
    # R8.6a: the screen stops before another seat acts once a card has been played (or trump
    # named) since you last had the word; there you may throw in (R8.3) or call a misplay.
    text = screen_text(("1",) * 3, "q", ("?", "zz", "", "throw"))
    for part in (
        "press Enter to let it, or call out of turn (R8.6a)",
        "is not a call: press Enter to go on, or type misplay, throw",
        "You threw the hand in:",
        "thrown in (R8.3)",
    ):
        assert part in text, part
    # The throw was out of turn: the screen it answered had another seat to move.
    thrown = text.index(PAUSE + "throw")
    screen = text[text.rindex("╭─", 0, thrown) : thrown]
    assert "to move" in screen and "your turn" not in screen


def play(actions: list[str]) -> list[Action]:
    return [Action.parse(text) for text in actions]


def test_a_seat_that_did_not_follow_and_later_plays_the_suit_is_proven() -> None:
    # Seat 1 leads spades; seat 2 plays a club (claims no spade), later plays a spade.
    first_trick = ["1 play 6S", "2 play 7C", "3 play 8S", "0 play 9S"]
    actions = play([*first_trick, "0 play TS", "1 play JS", "2 play QS"])
    assert proven_misplays(actions) == {2}
    assert proven_misplays(actions[:-1]) == set()


def test_table_bots_declare_in_time_never_misplay_and_call_bella_only_when_it_counts() -> None:
    announced = shown = bellas = 0
    for seed in range(12):
        game = tb.MatchState(seed=seed, rules=TABLE_RULES)
        moves = 0
        while not game.is_terminal:
            moves += 1
            action = table_bot_action(game, "greedy", seed ^ moves)
            if action < 36:
                assert action in game.legal_action_ids(), "a bot never misplays (R5.1)"
            game.apply(action)
        for hand in game.history:
            events = hand.events()
            runs_dealt = {s for s in range(4) if tb.find_runs(hand.deal[s])}
            kinds = [(e["kind"], e.get("seat")) for e in events]
            if hand.result.trump is not None:
                for s in runs_dealt:
                    assert ("announce", s) in kinds, "R4.4: announced in trick one"
                    assert ("show", s) in kinds, "R4.4: shown in trick two"
            announced += sum(k == "announce" for k, _ in kinds)
            shown += sum(k == "show" for k, _ in kinds)
            for event in events:
                if event["kind"] == "bella":
                    bellas += 1
                    assert event["counts"], "R4.5: a bot's bella counts"
            assert hand.result.call is None, "no misplay to call among bots that never misplay"
    assert announced > 10 and shown > 10 and bellas > 0


def test_a_bella_before_the_second_card_counts_and_before_the_first_does_not() -> None:
    deal = [
        "6C 7C 8D 9S TS JC QD KD AD",
        "JH QH KH AH 6S 7S 9C TC 6D",
        "6H 7H 8H 9D TD JD QS KS AS",
        "9H TH 8S JS 8C QC KC AC 7D",
    ]
    hand = tb.HandState(0, deal=deal, rules=TABLE_RULES)
    hand.apply("1 call H")
    king = Card.parse("KH").index
    assert not bella_counts_now(hand, 1, king), "the first of the two: table talk (R4.5)"
    hand.apply("1 announce")
    assert bella_counts_now(hand, 1, king), "with the announcement, K and Q in one run"
    assert hand.actions[-1] == Action(1, ActionKind.ANNOUNCE)
