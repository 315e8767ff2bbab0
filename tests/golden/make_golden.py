"""Build the golden records of tests/golden/*.json (docs/RECORDS.md).

Run from the repository root with the dev venv active::

    python tests/golden/make_golden.py          # (re)write every golden file
    python tests/golden/make_golden.py --check  # fail if a file would change

Each golden file ``NAME.json`` is a plain ``tarabish-record/1`` document with its expected
results in it: exactly what ``tarabish replay`` prints for the record, so
``tarabish replay --check tests/golden/NAME.json`` recomputes and compares every result, and
``tarabish replay tests/golden/NAME.json`` prints the file back. What each golden shows is in
tests/golden/README.md, written from the scenario descriptions below.

How the hands are found: a scenario either builds its deal by hand or searches hand seeds of the
seeded deal (``tarabish.reference.deal_cards``) with random playouts (Python's ``random`` seeded
with the same number, every action picked among the reference engine's legal actions) until the
finished hand has the wanted property. The ``expected`` output is computed by the pure-Python
reference engine (``tarabish.reference``) through ``tarabish._record``; the Rust engine must give
exactly the same output, or the script stops and prints both (a bug report: neither engine is
to be changed to fit the other). Every scenario also asserts its wanted property on the reference
result, and ``check_by_hand`` asserts numbers that were counted by hand from the printed tricks
(the comments there show the counting), so the goldens do not rest on either engine alone.

Everything is deterministic: the same seeds give the same files.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import tarabish.reference as ref
from tarabish import Card, Phase, Rank, Rules, Suit
from tarabish._replay import dump_output, replay

HERE = Path(__file__).resolve().parent

Record = dict[str, Any]
HandDict = dict[str, Any]


# -- building hands ------------------------------------------------------------------------------


def cards_text(cards: Iterable[Card]) -> str:
    return " ".join(str(card) for card in cards)


def hand_dict(state: Any) -> HandDict:
    return {
        "dealer": state.dealer,
        "scores_before": list(state.scores_before),
        "deal": [cards_text(cards) for cards in state.deal],
        "actions": [str(action) for action in state.actions],
    }


def record(rules: Rules, hands: list[HandDict]) -> Record:
    return {"format": "tarabish-record/1", "rules": rules.to_dict(), "hands": hands}


def record_of(rules: Rules, *states: Any) -> Record:
    """The record of the hands in ``states``, in order."""
    return record(rules, [hand_dict(state) for state in states])


def default_plays(state: Any) -> set[int]:
    """The card ids the seat to move could play under the default rules (no variant)."""
    seat = state.to_move
    trick = state.observation(seat).trick
    trump = state.trump
    return {card.index for card in ref.legal_plays(state.hands[seat], trick, trump, Rules())}


class Playout:
    """A random playout on the reference engine, with optional steering.

    ``auction``: action texts played first (the rest is random). ``prefer_extra``: when the
    rules allow a card the default rules forbid (undertrump_optional, partner_exempt), play one.
    ``binding`` counts the play decisions where the variant's legal cards differ from the
    default rules' legal cards.
    """

    def __init__(
        self,
        deal: list[list[Card]] | list[str],
        dealer: int,
        rules: Rules,
        scores_before: tuple[int, int],
        seed: int,
        *,
        auction: list[str] | None = None,
        prefer_extra: bool = False,
        track_binding: bool = False,
        stop_after: int | None = None,
    ) -> None:
        self.state = ref.HandState(dealer, deal=deal, rules=rules, scores_before=scores_before)
        rng = random.Random(seed)
        self.binding = 0
        self.extra_played = 0
        for text in auction or []:
            self.state.apply(text)
        while not self.state.is_terminal:
            if stop_after is not None and len(self.state.actions) >= stop_after:
                break
            ids = self.state.legal_action_ids()
            if self.state.phase is Phase.PLAY and (track_binding or prefer_extra):
                defaults = default_plays(self.state)
                if set(ids) != defaults:
                    self.binding += 1
                extra = sorted(set(ids) - defaults)
                if prefer_extra and extra:
                    self.extra_played += 1
                    self.state.apply(rng.choice(extra))
                    continue
            self.state.apply(rng.choice(ids))


def search(
    wanted: Callable[[Playout], bool],
    *,
    rules: Rules = Rules(),  # noqa: B008
    dealer: int = 0,
    scores_before: tuple[int, int] = (0, 0),
    start: int = 0,
    limit: int = 400_000,
    **options: Any,
) -> Playout:
    """The first hand seed from ``start`` whose random playout has the wanted property."""
    for seed in range(start, start + limit):
        deal = ref.deal_cards(seed, dealer)
        playout = Playout(deal, dealer, rules, scores_before, seed, **options)
        if wanted(playout):
            return playout
    raise RuntimeError(f"no hand found in seeds {start}..{start + limit}")


def first_found(
    wanted: Callable[[Playout], bool],
    *,
    rules: Rules = Rules(),  # noqa: B008
    **options: Any,
) -> Record:
    """The one-hand record of the first playout ``search`` finds."""
    return record_of(rules, search(wanted, rules=rules, **options).state)


def runs_of(playout: Playout) -> list[list[Any]]:
    return [ref.find_runs(cards) for cards in playout.state.deal]


def result(playout: Playout) -> Any:
    return playout.state.result


def team(seat: int | None) -> int | None:
    return None if seat is None else seat % 2


def chain(hands: list[HandDict], start: tuple[int, int], rules: Rules) -> list[HandDict]:
    """Set each hand's scores_before to the running totals from ``start`` (R7.2); the hands
    must have been played with scores that do not matter to them (no forced_at)."""
    totals = list(start)
    out = []
    for hand in hands:
        state = ref.HandState(
            hand["dealer"], deal=hand["deal"], rules=rules, scores_before=tuple(totals)
        )
        for text in hand["actions"]:
            state.apply(text)
        out.append({**hand, "scores_before": list(totals)})
        if state.result is not None:
            totals = [totals[0] + state.result.score[0], totals[1] + state.result.score[1]]
    return out


def pass_forbidden(playout: Playout, spoken: int) -> bool:
    """True if, after the first ``spoken`` actions, the seat to speak may not pass (40)."""
    done = playout.state
    state = ref.HandState(
        done.dealer, deal=done.deal, rules=done.rules, scores_before=done.scores_before
    )
    for action in done.actions[:spoken]:
        state.apply(action)
    return 40 not in state.legal_action_ids()


def bella_cards_in_run(playout: Playout) -> bool:
    """True if the bella seat's trump K and Q belong to one of its runs (R4.5 'with the bells')."""
    res = result(playout)
    if res.bella is None:
        return False
    trump = res.trump
    for run in ref.find_runs(playout.state.deal[res.bella]):
        low = run.top - run.length + 1
        if run.suit == trump and low <= 6 and run.top >= 7:  # Q = 6, K = 7 in natural order
            return True
    return False


# -- the scenarios -------------------------------------------------------------------------------

SCENARIOS: dict[str, tuple[str, Callable[[], Record]]] = {}


def scenario(name: str, description: str) -> Callable[[Callable[[], Record]], Callable[[], Record]]:
    def register(build: Callable[[], Record]) -> Callable[[], Record]:
        SCENARIOS[name] = (description, build)
        return build

    return register


def suit_per_seat_deal(first: int) -> list[str]:
    """Seat s is dealt the whole suit (first + s) % 4, in natural order."""
    return [cards_text(Card(Suit((first + seat) % 4), rank) for rank in Rank) for seat in range(4)]


@scenario(
    "sweep_trump_fifty_bella",
    "Built deal: each seat holds a whole suit. Seat 1 calls its own suit (D): its fifty A-K-Q-J "
    "of trump beats the three equal plain fifties (R4.2), it scores both its fifties (100) and "
    "bella inside the fifty (20), and takes all nine tricks (162): made, 282 to 0.",
)
def sweep() -> Record:
    deal = suit_per_seat_deal(0)  # seat 0 clubs, 1 diamonds, 2 hearts, 3 spades
    playout = Playout(deal, 0, Rules(), (0, 0), 1, auction=["1 call D"])
    res = result(playout)
    assert res.outcome.value == "made" and res.runs.seat == 1 and res.bella == 1
    return record_of(Rules(), playout.state)


@scenario(
    "bait_defenders_fifty_bella",
    "Built deal: each seat holds a whole suit. Seat 1 calls clubs, which seat 0 holds: seat 0 "
    "must trump the first trick (R5.1b), then leads trump and takes all nine tricks, with the "
    "trump fifties (100) and bella (20) on the defending side. Bait: team 0 scores the whole "
    "count 282.",
)
def bait_sweep() -> Record:
    deal = suit_per_seat_deal(0)
    playout = Playout(deal, 0, Rules(), (0, 0), 2, auction=["1 call C"])
    res = result(playout)
    assert res.outcome.value == "bait" and res.runs.seat == 0 and res.bella == 0
    return record_of(Rules(), playout.state)


@scenario("made_plain", "A made hand with no runs and no bella (counted by hand).")
def made_plain() -> Record:
    def wanted(p: Playout) -> bool:
        r = result(p)
        return r.outcome.value == "made" and r.runs is None and r.bella is None

    return first_found(wanted, start=100)


@scenario("bait_plain", "A bait with no runs and no bella (counted by hand).")
def bait_plain() -> Record:
    def wanted(p: Playout) -> bool:
        r = result(p)
        return r.outcome.value == "bait" and r.runs is None and r.bella is None

    return first_found(wanted, start=200)


@scenario(
    "half_bait",
    "Half bait (R6.4): the calling team takes exactly as many points as the other team; it "
    "scores 0 and the other team its own points.",
)
def half_bait() -> Record:
    def wanted(p: Playout) -> bool:
        r = result(p)
        return r.outcome.value == "half_bait" and r.runs is None and r.bella is None

    return first_found(wanted, start=300)


@scenario(
    "half_bait_is_bait",
    "Variant half_bait_is_bait (R6.4): on equal points the other team scores the whole count.",
)
def half_bait_is_bait() -> Record:
    rules = Rules(half_bait_is_bait=True)

    def wanted(p: Playout) -> bool:
        return result(p).outcome.value == "half_bait"

    return first_found(wanted, rules=rules, dealer=2, start=400)


@scenario(
    "bait_caller_runs_bella",
    "Bait where the calling team holds the runs and the bella: the other team scores the whole "
    "count, the caller's runs and bella included (R6.3).",
)
def bait_caller_runs_bella() -> Record:
    def wanted(p: Playout) -> bool:
        r = result(p)
        return (
            r.outcome.value == "bait"
            and r.runs is not None
            and r.bella is not None
            and team(r.runs.seat) == team(r.caller) == team(r.bella)
        )

    return first_found(wanted, dealer=1, start=500)


@scenario(
    "bait_defenders_runs_bella",
    "Bait where the other (defending) team holds the runs and the bella.",
)
def bait_defenders_runs_bella() -> Record:
    def wanted(p: Playout) -> bool:
        r = result(p)
        return (
            r.outcome.value == "bait"
            and r.runs is not None
            and r.bella is not None
            and team(r.runs.seat) == team(r.bella) != team(r.caller)
        )

    return first_found(wanted, dealer=3, start=600)


@scenario(
    "half_bait_runs_bella",
    "Two half baits in one match: in the first the calling team holds the runs and bella, in "
    "the second the other team does.",
)
def half_bait_runs_bella() -> Record:
    def caller_side(p: Playout) -> bool:
        r = result(p)
        return (
            r.outcome.value == "half_bait"
            and r.runs is not None
            and r.bella is not None
            and team(r.runs.seat) == team(r.bella) == team(r.caller)
        )

    def other_side(p: Playout) -> bool:
        r = result(p)
        return (
            r.outcome.value == "half_bait"
            and r.runs is not None
            and r.bella is not None
            and team(r.runs.seat) == team(r.bella) != team(r.caller)
        )

    first = search(caller_side, dealer=0, start=700)
    second = search(other_side, dealer=1, start=900)
    hands = chain([hand_dict(first.state), hand_dict(second.state)], (0, 0), Rules())
    return record(Rules(), hands)


@scenario(
    "void_dealer_may_pass",
    "Variant dealer_may_pass (R3.3): all four pass, the hand is void and scores nothing; the "
    "deal passes to the left (R2.2) and the next hand is played from the same scores.",
)
def void_hand() -> Record:
    rules = Rules(dealer_may_pass=True)
    void = Playout(
        ref.deal_cards(1000, 3),
        3,
        rules,
        (120, 85),
        1000,
        auction=["0 pass", "1 pass", "2 pass", "3 pass"],
    )
    assert result(void).outcome.value == "void"

    def wanted(p: Playout) -> bool:
        return result(p).outcome.value == "made"

    after = search(wanted, rules=rules, dealer=0, scores_before=(120, 85), start=1001)
    return record_of(rules, void.state, after.state)


@scenario(
    "forced_dealer_team",
    "Variant forced_at 400 with dealer_may_pass: both teams are over 400 and team 0 has more, "
    "so team 0 is forced (R3.4); it holds the deal, so the dealer may not pass even under "
    "R3.3 and calls after three passes.",
)
def forced_dealer_team() -> Record:
    rules = Rules(forced_at=400, dealer_may_pass=True)
    scores = (455, 420)
    playout = Playout(
        ref.deal_cards(1100, 2),
        2,
        rules,
        scores,
        1100,
        auction=["3 pass", "0 pass", "1 pass"],
    )
    assert pass_forbidden(playout, 3) and playout.state.caller == 2
    return record_of(rules, playout.state)


@scenario(
    "forced_other_team",
    "Variant forced_at 400: both teams are over 400 and team 1 has more, so team 1 is forced "
    "(R3.4); team 0 holds the deal (dealer 0), so team 1's player on the dealer's right "
    "(seat 3) may not pass and calls.",
)
def forced_other_team() -> Record:
    rules = Rules(forced_at=400)
    scores = (410, 430)
    playout = Playout(ref.deal_cards(1200, 0), 0, rules, scores, 1200, auction=["1 pass", "2 pass"])
    assert pass_forbidden(playout, 2) and playout.state.caller == 3
    return record_of(rules, playout.state)


@scenario(
    "forced_equal_scores",
    "Variant forced_at 400 with dealer_may_pass: both teams have 420, so neither is forced "
    "(R3.4: at equal scores neither); all pass and the hand is void (R3.3). The next dealer's "
    "hand is played from the same scores, again with no team forced, and ends the match.",
)
def forced_equal_scores() -> Record:
    rules = Rules(forced_at=400, dealer_may_pass=True)
    scores = (420, 420)
    void = Playout(
        ref.deal_cards(1300, 1),
        1,
        rules,
        scores,
        1300,
        auction=["2 pass", "3 pass", "0 pass", "1 pass"],
    )

    def wanted(p: Playout) -> bool:
        r = result(p)
        return r.outcome.value == "made" and r.score[0] != r.score[1]

    after = search(
        wanted,
        rules=rules,
        dealer=2,
        scores_before=scores,
        start=1301,
        auction=["3 pass", "0 pass", "1 pass"],
    )
    return record_of(rules, void.state, after.state)


@scenario(
    "team_runs",
    "Variant team_runs (R4.3): the runs winner's partner's runs score too.",
)
def team_runs() -> Record:
    rules = Rules(team_runs=True)

    def wanted(p: Playout) -> bool:
        r = result(p)
        if r.runs is None:
            return False
        runs = runs_of(p)
        own = sum(run.points for run in runs[r.runs.seat])
        return r.runs.points > own and r.outcome.value == "made"

    return first_found(wanted, rules=rules, dealer=1, start=1400)


def variant_scenario(rules: Rules, dealer: int, start: int, **options: Any) -> Record:
    def wanted(p: Playout) -> bool:
        count = p.extra_played if options.get("prefer_extra") else p.binding
        return count >= 2 and result(p).outcome.value != "void"

    return first_found(wanted, rules=rules, dealer=dealer, start=start, **options)


@scenario(
    "head_plain",
    "Variant head_plain (R5.1a): holding the plain suit led, a player must beat its highest "
    "card when no trump is in the trick; the hand has at least two plays where that narrows "
    "the legal cards.",
)
def head_plain() -> Record:
    return variant_scenario(Rules(head_plain=True), 0, 1500, track_binding=True)


@scenario(
    "undertrump_optional",
    "Variant undertrump_optional (R5.1b): a player void in the suit led who cannot beat the "
    "trump in the trick may play any card; the hand has at least two such plays of a card the "
    "default rules forbid.",
)
def undertrump_optional() -> Record:
    return variant_scenario(Rules(undertrump_optional=True), 1, 1600, prefer_extra=True)


@scenario(
    "partner_exempt",
    "Variant partner_exempt (R5.1): a player void in the suit led whose partner is winning may "
    "play any card; the hand has at least two such plays the default rules forbid.",
)
def partner_exempt() -> Record:
    return variant_scenario(Rules(partner_exempt=True), 2, 1700, prefer_extra=True)


@scenario(
    "runs_won",
    "Runs (R4.3): one seat's best run beats every other declared run and it scores all its "
    "runs (two runs here), while another seat's lower run scores nothing.",
)
def runs_won() -> Record:
    def wanted(p: Playout) -> bool:
        r = result(p)
        if r.runs is None:
            return False
        runs = runs_of(p)
        others = [s for s in range(4) if s != r.runs.seat and runs[s]]
        return len(runs[r.runs.seat]) >= 2 and bool(others)

    return first_found(wanted, dealer=3, start=1800)


@scenario(
    "runs_tie_cancelled",
    "Runs cancelled (R4.3): two seats' best runs are equal plain runs (same size and top "
    "card), so no one scores any run that hand, though a third seat holds a lower run.",
)
def runs_tie() -> Record:
    def wanted(p: Playout) -> bool:
        r = result(p)
        if r.trump is None:
            return False
        runs = runs_of(p)
        best = [seat_runs[0] for seat_runs in runs if seat_runs]
        if len(best) < 3:
            return False
        best.sort(key=lambda run: (run.length, run.top), reverse=True)
        a, b = best[0], best[1]
        return (
            (a.length, a.top) == (b.length, b.top)
            and a.suit != r.trump
            and b.suit != r.trump
            and r.runs is None
        )

    return first_found(wanted, dealer=0, start=1900)


@scenario(
    "trump_run_beats_plain",
    "Runs (R4.2): the two best runs are equal in size and top card, one of them in trump; the "
    "trump run wins and its holder scores its runs.",
)
def trump_run() -> Record:
    def wanted(p: Playout) -> bool:
        r = result(p)
        if r.trump is None or r.runs is None:
            return False
        runs = runs_of(p)
        best = sorted(
            ((seat_runs[0], seat) for seat, seat_runs in enumerate(runs) if seat_runs),
            key=lambda item: (item[0].length, item[0].top),
            reverse=True,
        )
        if len(best) < 2:
            return False
        (a, seat_a), (b, seat_b) = best[0], best[1]
        winner = seat_a if a.suit == r.trump else seat_b
        return (
            (a.length, a.top) == (b.length, b.top)
            and r.trump in (a.suit, b.suit)
            and r.runs.seat == winner
        )

    return first_found(wanted, dealer=1, start=2100)


@scenario("bella", "Bella (R4.5): the holder of the trump K and Q (not in a run) scores 20.")
def bella() -> Record:
    def wanted(p: Playout) -> bool:
        r = result(p)
        return r.bella is not None and r.runs is None and r.outcome.value == "made"

    return first_found(wanted, dealer=2, start=2300)


@scenario(
    "bella_in_fifty",
    "Fifty with the bells (R4.5, R11): the trump K and Q are in the bella holder's fifty, which "
    "wins the runs: 50 for the run and 20 for bella, 70.",
)
def bella_in_fifty() -> Record:
    def wanted(p: Playout) -> bool:
        r = result(p)
        return (
            r.runs is not None
            and r.runs.seat == r.bella
            and bella_cards_in_run(p)
            and any(run.length == 4 for run in runs_of(p)[r.bella])
        )

    return first_found(wanted, dealer=3, start=2500)


def made_hands(first_dealer: int, count: int, start: int) -> list[HandDict]:
    """``count`` consecutive made hands (dealers moving left), each scoring for both teams."""
    hands = []
    seed = start
    for index in range(count):
        dealer = (first_dealer + index) % 4

        def wanted(p: Playout) -> bool:
            r = result(p)
            return r.outcome.value == "made" and min(r.score) > 0

        playout = search(wanted, dealer=dealer, start=seed)
        hands.append(hand_dict(playout.state))
        seed = playout_seed(playout, seed) + 1
    return hands


def playout_seed(playout: Playout, start: int) -> int:
    deal = [list(cards) for cards in playout.state.deal]
    for seed in range(start, start + 400_000):
        if ref.deal_cards(seed, playout.state.dealer) == deal:
            return seed
    raise RuntimeError("seed not found")


def scores_of(hand: HandDict, rules: Rules) -> tuple[int, int]:
    state = ref.HandState(hand["dealer"], deal=hand["deal"], rules=rules)
    for text in hand["actions"]:
        state.apply(text)
    return state.result.score  # type: ignore[no-any-return]


@scenario(
    "match_both_over_500",
    "A match of three hands: after the first two neither team has 500; in the third both "
    "teams pass 500 in the same hand and the team with more wins (R7.1).",
)
def match_both_over() -> Record:
    rules = Rules()
    hands = made_hands(1, 3, 2700)
    s = [scores_of(hand, rules) for hand in hands]
    # Choose the totals before the last hand so that both teams are under 500 and pass it in
    # the last hand (to 505 and 512); the start scores follow back from the first two hands.
    last = s[2]
    before_last = (500 - last[0] + 5, 500 - last[1] + 12)
    start = (before_last[0] - s[0][0] - s[1][0], before_last[1] - s[0][1] - s[1][1])
    assert min(start) >= 0 and max(before_last) < 500, (start, before_last)
    return record(rules, chain(hands, start, rules))


@scenario(
    "tie_at_500_plays_on",
    "A match where a hand ends with both teams on the same total over 500: no winner, another "
    "hand is played (R7.1), and it decides the match.",
)
def tie_at_500() -> Record:
    rules = Rules()
    hands = made_hands(2, 2, 3100)
    s = [scores_of(hand, rules) for hand in hands]
    tie = 530
    start = (tie - s[0][0], tie - s[0][1])
    assert max(start) < 500 and min(start) >= 0
    return record(rules, chain(hands, start, rules))


@scenario(
    "unfinished_hand",
    "A record that stops in the middle of its second hand (after the runs are known): the "
    "first hand has its full result, the second a partial one ('complete': false).",
)
def unfinished() -> Record:
    rules = Rules()

    def first_wanted(p: Playout) -> bool:
        return result(p).outcome.value == "made"

    first = search(first_wanted, dealer=0, start=3300)
    scores = result(first).score

    def wanted(p: Playout) -> bool:
        obs = p.state.observation(0)
        return obs.runs is not None and obs.bella is None

    second = search(wanted, dealer=1, scores_before=scores, start=3400, stop_after=15)
    return record_of(rules, first.state, second.state)


@scenario(
    "seeded_match",
    "A whole match of random play (reference MatchState, seed 41), written with "
    "tarabish._record.to_record.",
)
def seeded_match() -> Record:
    from tarabish._record import to_record

    match = ref.MatchState(seed=41, first_dealer=3)
    rng = random.Random(41)
    while not match.is_terminal:
        match.apply(rng.choice(match.legal_action_ids()))
    return to_record(match)


# -- table mode (docs/TABLE.md) ------------------------------------------------------------------

TABLE_DEAL = [  # dealer 3: seat 0 is eldest and leads
    "6C 7C 8C 9C KH QH AS 6D 7S",  # a fifty 9-8-7-6 of clubs; the hearts K and Q
    "TC JC QC 8H 8D TD 6S 8S TS",  # a twenty Q-J-T of clubs
    "KC AC 6H 7H 9H 7D 9S JS QS",  # no run
    "TH JH AH 9D JD QD KD AD KS",  # a fifty A-K-Q-J of diamonds
]


def table_hand(rules: Rules, actions: list[str], play_out: bool) -> Any:
    """The table deal with ``actions``; then, if ``play_out``, the lowest R5.1-legal card
    each turn (no declaration, no call) until the hand is over."""
    state = ref.HandState(3, deal=TABLE_DEAL, rules=rules)
    for action in actions:
        state.apply(action)
    while play_out and not state.is_terminal:
        state.apply(min(state.legal_action_ids()))  # cards (ids < 41) come first
    return state


@scenario(
    "table_misplay_called",
    "Table mode (enforce_legal_play false, R8.1-R8.2): seat 1 holds spades but plays the 8D to "
    "the AS, a misplay; seat 2 calls it at once: correct, team 0 scores the count 162 and "
    "team 1 nothing; no trick was complete, so the points are 0 0 (R8.6b).",
)
def table_misplay_called() -> Record:
    rules = Rules(enforce_legal_play=False)
    state = table_hand(rules, ["0 call H", "0 play AS", "1 play 8D", "2 misplay"], False)
    res = state.result
    assert res.outcome.value == "misplay" and res.call.correct and res.score == (162, 0)
    return record_of(rules, state)


@scenario(
    "table_fifty_with_bells_thrown_in",
    "Table mode, manual declarations and misplays allowed: diamonds trump; seat 3 announces in "
    "trick one and calls bella with its fifty A-K-Q-J of trump (20 at once, R4.5), shows in "
    "trick two; runs are credited at the 8th card (50). Seat 1 then throws in: team 0 scores "
    "the count 162 + 50 + 20 = 232 (R8.3), with points 15 to 86.",
)
def table_thrown_in() -> Record:
    rules = Rules(declarations="manual", enforce_legal_play=False)
    actions = ["0 call D", "0 play AS", "1 play 6S", "2 play 9S", "3 announce", "3 bella"]
    actions += ["3 play KS", "0 play 7S", "1 play 8S", "2 play JS", "3 show", "3 play 9D"]
    state = table_hand(rules, [*actions, "1 throw"], False)
    res = state.result
    assert res.outcome.value == "throw_in" and res.score == (232, 0) and res.points == (15, 86)
    return record_of(rules, state)


@scenario(
    "table_late_twenty",
    "Manual declarations with late_twenty (R4.4): seat 0 announces and shows its fifty in time; "
    "seat 3 announces a fifty, does not show it in trick two and shows it in trick three as the "
    "twenty A-K-Q of diamonds. Runs are credited at the 12th card: seat 0's fifty beats the late "
    "twenty (50 to team 0). The hand is played out.",
)
def table_late_twenty() -> Record:
    rules = Rules(declarations="manual", late_twenty=True)
    actions = ["0 call H", "0 announce", "0 play AS", "1 play 6S", "2 play 9S", "3 announce"]
    actions += ["3 play KS", "0 show", "0 play 7S", "1 play 8S", "2 play JS", "3 play TH"]
    actions += ["3 show", "3 play AD"]
    state = table_hand(rules, actions, True)
    res = state.result
    assert res.runs is not None and (res.runs.seat, res.runs.points) == (0, 50)
    assert sum(res.points) == 162 + 50
    return record_of(rules, state)


@scenario(
    "table_first_bell_forfeited",
    "Manual declarations (R4.5): hearts trump; seat 0 calls bella before its first trump K: table "
    "talk, the bella is lost for the hand; nobody announces, so no run counts; played out: the "
    "count is 162.",
)
def table_first_bell_forfeited() -> Record:
    rules = Rules(declarations="manual")
    state = table_hand(rules, ["0 call H", "0 bella", "0 play KH"], True)
    res = state.result
    assert res.bella is None and res.runs is None and sum(res.points) == 162
    return record_of(rules, state)


# -- numbers counted by hand ---------------------------------------------------------------------


def check_by_hand(goldens: dict[str, dict[str, Any]]) -> None:
    """Numbers counted by hand from the printed tricks (``--show NAME``); see the comments."""
    # sweep_trump_fifty_bella: seat 1 holds all nine diamonds and calls D; nobody else has a
    # diamond, so seat 1 wins every trick it leads (it leads all nine). Card points: trump
    # 20+14+11+10+4+3 = 62, plus three plain suits of 11+10+4+3+2 = 30 each = 90: 152, + 10
    # last = 162. Runs: every seat has A-K-Q-J + T-9-8-7 (the 6 is left over), 100 each; the
    # four best runs are A-topped fifties and seat 1's is trump, so only seat 1 scores: 100.
    # Bella: K and Q of D held by seat 1: 20. Team 1: 162 + 100 + 20 = 282, team 0: 0.
    # Made (caller team 1 has more): score 0, 282.
    out = goldens["sweep_trump_fifty_bella"]["expected"]["hands"][0]["result"]
    assert out["points"] == [0, 282] and out["score"] == [0, 282], out
    assert out["runs"] == {"seat": 1, "points": 100} and out["bella"] == 1
    assert sum(t["points"] for t in out["tricks"]) == 162
    assert all(t["winner"] == 1 for t in out["tricks"])

    # bait_defenders_fifty_bella: seat 1 calls C but seat 0 holds all nine clubs. Seat 1 leads
    # a diamond; seats 2 and 3 have no diamond and no trump; seat 0 has no diamond but holds
    # trump, so it must trump (R5.1b) and wins. It then leads trump, which no one else holds,
    # and wins every trick: team 0 takes 162 (as above). Runs: seat 0's trump fifty A-K-Q-J
    # beats the equal plain ones: 100 for team 0; bella (K and Q of C) to seat 0: 20.
    # Team 0 282, team 1 (the callers) 0 < 282: bait, team 0 scores the count 282.
    out = goldens["bait_defenders_fifty_bella"]["expected"]["hands"][0]["result"]
    assert out["outcome"] == "bait" and out["points"] == [282, 0] and out["score"] == [282, 0]
    assert all(t["winner"] == 0 for t in out["tricks"])

    # made_plain, bait_plain, half_bait: see HAND_COUNTS below for the trick-by-trick count.
    for name, (expected_points, expected_score, trick_points) in HAND_COUNTS.items():
        out = goldens[name]["expected"]["hands"][0]["result"]
        assert [t["points"] for t in out["tricks"]] == trick_points, (name, out["tricks"])
        assert out["points"] == expected_points, (name, out["points"])
        assert out["score"] == expected_score, (name, out["score"])

    # void_dealer_may_pass: four passes, no score; totals stay (120, 85) + the second hand.
    out = goldens["void_dealer_may_pass"]["expected"]
    assert out["hands"][0]["result"]["score"] == [0, 0]
    assert out["hands"][0]["result"]["outcome"] == "void"
    second = out["hands"][1]["result"]["score"]
    assert out["totals"] == [120 + second[0], 85 + second[1]]


# Counted by hand from ``--show NAME``: (team points, score, card points of each trick).
# Points (R1.3): trump J 20, 9 14, A 11, T 10, K 4, Q 3; plain A 11, T 10, K 4, Q 3, J 2;
# +10 on the ninth trick (R1.4). Trick order (R1.2): trump J 9 A T K Q 8 7 6, plain
# A T K Q J 9 8 7 6. Tricks are written "leader: cards in play order -> winner".
HAND_COUNTS: dict[str, tuple[list[int], list[int], list[int]]] = {
    # made_plain: dealer 0, seat 1 calls C (team 1 calls). No runs: no seat holds three
    # consecutive cards of a suit (e.g. seat 3's hearts 7 T Q K: only Q-K). No bella: KC is
    # seat 0's, QC seat 1's.
    #  t0 1: 9D 7D JD TD -> 0 (TD tops the diamonds)     0+0+2+10 = 12
    #  t1 0: 6C 8C 9C JC -> 3 (trump J)                  0+0+14+20 = 34
    #  t2 3: 7H AH 8H 6H -> 0                            11
    #  t3 0: TS AS 8S KS -> 1                            10+11+0+4 = 25
    #  t4 1: QC TC QS KC -> 2 (trump T over K and Q)     3+10+3+4 = 20
    #  t5 2: 7S 6S 9S JS -> 1                            2
    #  t6 1: AD KD QH QD -> 1                            11+4+3+3 = 21
    #  t7 1: 8D AC TH 6D -> 2 (the only trump)           11+10 = 21
    #  t8 2: JH KH 7C 9H -> 0 (the only trump)           2+4 = 6, +10 last = 16
    # Team 0 (seats 0, 2): 12+11+20+21+16 = 80; team 1: 34+25+2+21 = 82 (sum 162).
    # The callers (team 1) have more: made, each team scores its points.
    "made_plain": ([80, 82], [80, 82], [12, 34, 11, 25, 20, 2, 21, 21, 16]),
    # bait_plain: dealer 0, seat 1 calls C (team 1). No runs (longest: seat 0's 9H TH, seat
    # 2's 9C TC ...), no bella (KC seat 3, QC seat 2).
    #  t0 1: 6C TC 7C JC -> 0 (trump J)                  10+20 = 30
    #  t1 0: TH 6H 8H JH -> 0 (T over J in plain)        10+2 = 12
    #  t2 0: 7H 8C KH QH -> 1 (trump 8)                  4+3 = 7
    #  t3 1: 6D QD JD AD -> 0                            3+2+11 = 16
    #  t4 0: 9S KS JS 7S -> 1                            4+2 = 6
    #  t5 1: TS 9C QS 8S -> 2 (trump 9)                  10+14+3 = 27
    #  t6 2: 8D KC AC KD -> 0 (trump A over trump K)     4+11+4 = 19
    #  t7 0: 9H 7D QC AS -> 2 (trump Q)                  3+11 = 14
    #  t8 2: TD 6S AH 9D -> 2 (no trump; TD tops D)      10+11 = 21, +10 = 31
    # Team 0: 30+12+16+27+19+14+31 = 149; team 1: 7+6 = 13. The callers took less: bait,
    # team 0 scores the whole count 162 (R6.3).
    "bait_plain": ([149, 13], [162, 0], [30, 12, 7, 16, 6, 27, 19, 14, 31]),
    # half_bait: dealer 0, seat 1 passes, seat 2 calls H (team 0). No runs (seat 1's diamonds
    # 7 9 T Q K hold 9-T and Q-K only), no bella (KH seat 2, QH seat 0).
    #  t0 1: KD 8D 6D JD -> 1                            4+2 = 6
    #  t1 1: 6H KH JH 9H -> 3 (trump J)                  4+20+14 = 38
    #  t2 3: KS 8S QS TS -> 2 (T over K)                 4+3+10 = 17
    #  t3 2: AC QC 8C 7C -> 2                            11+3 = 14
    #  t4 2: TC 8H 9C AH -> 1 (trump A over trump 8)     10+11 = 21
    #  t5 1: TD 9S AD 7H -> 0 (trump 7)                  10+11 = 21
    #  t6 0: KC 7D JC TH -> 3 (trump T)                  4+2+10 = 16
    #  t7 3: JS 7S 9D AS -> 2                            2+11 = 13
    #  t8 2: 6C 6S QH QD -> 0 (trump Q)                  3+3 = 6, +10 = 16
    # Team 0: 17+14+21+13+16 = 81; team 1: 6+38+21+16 = 81. Equal: half bait (R6.4), the
    # callers (team 0) score 0 and team 1 its own 81.
    "half_bait": ([81, 81], [0, 81], [6, 38, 17, 14, 21, 21, 16, 13, 16]),
}


# -- driver --------------------------------------------------------------------------------------


def build(name: str) -> dict[str, Any]:
    description, make = SCENARIOS[name]
    rec = make()
    expected = replay(rec, "reference")
    rust = replay(rec, "rust")
    if dump_output(rust) != dump_output(expected):
        raise Disagreement(name, rec, expected, rust)
    return {"description": description, "record": rec, "expected": expected}


class Disagreement(Exception):
    def __init__(self, name: str, rec: Record, expected: Any, rust: Any) -> None:
        super().__init__(f"engines disagree on golden {name!r}")
        self.name, self.rec, self.expected, self.rust = name, rec, expected, rust


def golden_text(golden: dict[str, Any]) -> str:
    """The file: the replay output of the record (its results included)."""
    return dump_output(golden["expected"])


def index_text(goldens: dict[str, dict[str, Any]]) -> str:
    """tests/golden/README.md: what each golden record shows."""
    lines = [
        "# Golden records",
        "",
        "Each file is a `tarabish-record/1` record with its expected results (the output of",
        "`tarabish replay`), written by `make_golden.py` (do not edit by hand; run",
        "`python tests/golden/make_golden.py`). Check one with",
        "`tarabish replay --check tests/golden/NAME.json` (add `--engine reference` for the",
        "pure-Python engine).",
        "",
        "| file | what it shows |",
        "|---|---|",
    ]
    lines += [f"| `{name}.json` | {goldens[name]['description']} |" for name in sorted(goldens)]
    return "\n".join(lines) + "\n"


def show(golden: dict[str, Any]) -> None:
    for index, hand in enumerate(golden["record"]["hands"]):
        state = ref.HandState(
            hand["dealer"],
            deal=hand["deal"],
            rules=Rules.from_dict(golden["record"]["rules"]),
            scores_before=tuple(hand["scores_before"]),
        )
        for text in hand["actions"]:
            state.apply(text)
        print(f"hand {index}: dealer {hand['dealer']} deal {hand['deal']}")
        print("  auction:", [a for a in hand["actions"] if "play" not in a])
        obs = state.observation(0)
        for number, trick in enumerate(obs.tricks):
            print(
                f"  trick {number}: leader {trick.leader} "
                f"{' '.join(str(c) for c in trick.cards)} -> {trick.winner} ({trick.points})"
            )
        print("  result:", json.dumps(golden["expected"]["hands"][index]["result"]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="fail if a file would change")
    parser.add_argument("--show", metavar="NAME", help="print the tricks of one golden")
    parser.add_argument("names", nargs="*", help="only these scenarios")
    args = parser.parse_args(argv)
    names = args.names or list(SCENARIOS)
    goldens: dict[str, dict[str, Any]] = {}
    failures = 0
    for name in names:
        try:
            goldens[name] = build(name)
        except Disagreement as error:
            failures += 1
            print(f"DISAGREEMENT {name}: record {json.dumps(error.rec)}", file=sys.stderr)
            print(f"  reference: {json.dumps(error.expected)}", file=sys.stderr)
            print(f"  rust:      {json.dumps(error.rust)}", file=sys.stderr)
    if args.show:
        show(goldens[args.show])
        return 0
    outputs = {HERE / f"{name}.json": golden_text(golden) for name, golden in goldens.items()}
    if not args.names:
        check_by_hand(goldens)
        outputs[HERE / "README.md"] = index_text(goldens)
    for path, text in outputs.items():
        if args.check:
            if not path.exists() or path.read_text() != text:
                print(f"{path.name} is out of date", file=sys.stderr)
                failures += 1
        else:
            path.write_text(text)
    total = sum(len(g["record"]["hands"]) for g in goldens.values())
    print(f"{len(goldens)} golden files, {total} hands", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
