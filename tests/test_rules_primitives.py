"""Rule-table tests of the rule primitives (docs/ENGINE.md) on both engines.

One test (or parametrised table) per rule id of docs/RULES.md that the primitives touch, and one
per worked example of R10. Expected values are worked out by hand from RULES.md; legal sets are
asserted exactly (as lists sorted by card index, ENGINE.md). The docs/TESTING.md list of bugs other
engines shipped is covered by the tests whose names end in the bug they guard against.
"""

from __future__ import annotations

from types import ModuleType

import pytest
from tarabish import DECK, Card, Outcome, Rank, Rules, Run, Suit, parse_cards

C, D, H, S = Suit.C, Suit.D, Suit.H, Suit.S


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def by_index(text: str) -> list[Card]:
    """The expected legal set, in the ENGINE.md order (by card index)."""
    return sorted(parse_cards(text), key=lambda card: card.index)


def legal(
    engine: ModuleType, hand: str, trick: str, trump: Suit, rules: Rules | None = None
) -> list[Card]:
    if rules is None:
        result = engine.legal_plays(cards(hand), cards(trick), trump)
    else:
        result = engine.legal_plays(cards(hand), cards(trick), trump, rules)
    assert isinstance(result, list)
    assert all(isinstance(card, Card) for card in result)
    return result


def winner(engine: ModuleType, trick: str, trump: Suit) -> int:
    result = engine.trick_winner(cards(trick), trump)
    assert isinstance(result, int) and not isinstance(result, bool)
    return result


def run(text: str) -> Run:
    """Top rank, length, suit: ``run("T4C")`` is the fifty T-9-8-7 of clubs."""
    return Run(Suit.parse(text[-1]), Rank.parse(text[0]), int(text[1]))


# --------------------------------------------------------------------------------------------
# R0: card and suit notation accepted by every primitive
# --------------------------------------------------------------------------------------------


def test_R0_cards_as_objects_text_or_one_string(engine: ModuleType) -> None:
    expected = by_index("9S KS")
    hand = ["6S", "9S", "KS", "7C"]
    trick = ["AH", "8S"]
    forms = [
        (cards(" ".join(hand)), cards(" ".join(trick)), S),
        (hand, trick, "S"),
        (" ".join(hand), " ".join(trick), "s"),
        ("6S,9S,KS,7C", "AH,8S", Suit.S),
        (["6s", "9s", "ks", "7c"], ["ah", "8s"], "S"),
    ]
    for hand_arg, trick_arg, trump in forms:
        assert engine.legal_plays(hand_arg, trick_arg, trump) == expected, (hand_arg, trick_arg)


def test_R0_ten_accepted_as_10(engine: ModuleType) -> None:
    assert engine.card_points("10H", "H") == 10
    assert engine.card_points("10H", "S") == 10
    assert engine.trick_winner(["KC", "10C"], "H") == 1
    assert engine.find_runs(["10D", "9D", "8D"]) == [run("T3D")]


# --------------------------------------------------------------------------------------------
# R1.2 trick order
# --------------------------------------------------------------------------------------------

TRUMP_ORDER = "J9ATKQ876"  # R1.2, highest first
PLAIN_ORDER = "ATKQJ9876"


@pytest.mark.parametrize("trump", list(Suit), ids=str)
def test_R1_2_trump_order(engine: ModuleType, trump: Suit) -> None:
    for hi, high in enumerate(TRUMP_ORDER):
        for low in TRUMP_ORDER[hi + 1 :]:
            strong, weak = f"{high}{trump}", f"{low}{trump}"
            assert winner(engine, f"{strong} {weak}", trump) == 0, (strong, weak)
            assert winner(engine, f"{weak} {strong}", trump) == 1, (weak, strong)


@pytest.mark.parametrize("trump", list(Suit), ids=str)
def test_R1_2_plain_order(engine: ModuleType, trump: Suit) -> None:
    for led in Suit:
        if led == trump:
            continue
        for hi, high in enumerate(PLAIN_ORDER):
            for low in PLAIN_ORDER[hi + 1 :]:
                strong, weak = f"{high}{led}", f"{low}{led}"
                assert winner(engine, f"{strong} {weak}", trump) == 0, (strong, weak)
                assert winner(engine, f"{weak} {strong}", trump) == 1, (weak, strong)


def test_R1_2_ten_beats_king_queen_jack_in_plain(engine: ModuleType) -> None:
    # docs/TESTING.md: plain-suit order confused with natural order.
    assert winner(engine, "KC TC", H) == 1
    assert winner(engine, "QC TC", H) == 1
    assert winner(engine, "JC TC", H) == 1
    assert winner(engine, "TC KC QC JC", H) == 0
    assert winner(engine, "TC AC", H) == 1


def test_R1_2_jack_is_low_off_trump(engine: ModuleType) -> None:
    assert winner(engine, "JD QD", S) == 1
    assert winner(engine, "JD KD", S) == 1
    assert winner(engine, "9D JD", S) == 1  # but above the 9
    assert winner(engine, "JD 6D 7D 8D", S) == 0


def test_R1_2_nine_beats_ace_and_ten_in_trump(engine: ModuleType) -> None:
    # docs/TESTING.md: trump strength confused with card index.
    assert winner(engine, "AS 9S", S) == 1
    assert winner(engine, "TS 9S", S) == 1
    assert winner(engine, "9S AS TS KS", S) == 0
    assert winner(engine, "9S JS", S) == 1  # the J is above the 9


# --------------------------------------------------------------------------------------------
# R1.3 points, R1.4 / R10.1 the 162
# --------------------------------------------------------------------------------------------

TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0, "6": 0}
PLAIN_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0, "6": 0}


@pytest.mark.parametrize("trump", list(Suit), ids=str)
def test_R1_3_card_points(engine: ModuleType, trump: Suit) -> None:
    for card in DECK:
        table = TRUMP_POINTS if card.suit == trump else PLAIN_POINTS
        expected = table[str(card.rank)]
        assert engine.card_points(card, trump) == expected, card
        assert engine.card_points(str(card), str(trump)) == expected, card


@pytest.mark.parametrize("trump", list(Suit), ids=str)
def test_R1_3_suit_totals_62_and_30(engine: ModuleType, trump: Suit) -> None:
    for suit in Suit:
        total = sum(engine.card_points(card, trump) for card in DECK if card.suit == suit)
        assert total == (62 if suit == trump else 30), suit


def test_R1_3_jack_and_nine_change_value_with_trump(engine: ModuleType) -> None:
    assert engine.card_points("JH", H) == 20
    assert engine.card_points("JH", S) == 2
    assert engine.card_points("9H", H) == 14
    assert engine.card_points("9H", S) == 0


@pytest.mark.parametrize("trump", list(Suit), ids=str)
def test_R1_4_R10_1_cards_and_last_make_162(engine: ModuleType, trump: Suit) -> None:
    card_total = sum(engine.card_points(card, trump) for card in DECK)
    assert card_total == 62 + 3 * 30
    assert card_total + 10 == 162


# --------------------------------------------------------------------------------------------
# R4.1 run detection
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("6H 7H 8H", ["83H"]),  # L = 3: a twenty
        ("6H 7H 8H 9H", ["94H"]),  # L = 4: a fifty
        ("6H 7H 8H 9H TH", ["T4H"]),  # L = 5: the top four
        ("6H 7H 8H 9H TH JH", ["J4H"]),  # L = 6: the top four
        ("6H 7H 8H 9H TH JH QH", ["Q4H", "83H"]),  # L = 7: 50 + 20
        ("6H 7H 8H 9H TH JH QH KH", ["K4H", "94H"]),  # L = 8: 50 + 50
        ("6H 7H 8H 9H TH JH QH KH AH", ["A4H", "T4H"]),  # L = 9: 50 + 50, the 6 left over
        ("QS KS AS", ["A3S"]),
        ("TC JC QC KC AC", ["A4C"]),  # the top four: K-Q-J-T would be wrong
        ("6D 7D", []),
        ("6D 8D TD QD AD", []),
    ],
)
def test_R4_1_run_length_cut_top_down(engine: ModuleType, hand: str, expected: list[str]) -> None:
    assert engine.find_runs(cards(hand)) == [run(text) for text in expected]


def test_R4_1_natural_order_not_trick_order(engine: ModuleType) -> None:
    # docs/TESTING.md: run detection using trick order instead of natural order.
    assert engine.find_runs(cards("9H TH JH")) == [run("J3H")]
    assert engine.find_runs(cards("AH TH KH")) == []  # consecutive in plain trick order only
    assert engine.find_runs(cards("JS 9S AS")) == []  # consecutive in trump trick order only
    assert engine.find_runs(cards("QC KC AC 6C")) == [run("A3C")]  # no wrap-around


def test_R4_1_a_card_in_one_run_only_and_several_runs(engine: ModuleType) -> None:
    found = engine.find_runs(cards("6C 7C 8C 9C TC JC QC KD AD"))
    assert found == [run("Q4C"), run("83C")]
    held = [card for r in found for card in r.cards]
    assert len(held) == len(set(held)) == 7
    assert engine.find_runs(cards("6D 7D 8D 9D JS QS KS 8H 9H")) == [run("94D"), run("K3S")]


def test_R4_1_runs_ordered_by_length_then_top_then_suit(engine: ModuleType) -> None:
    # ENGINE.md: length desc, then top desc, then suit asc.
    assert engine.find_runs(cards("6C 7C 8C QD KD AD 9S TS JS")) == [
        run("A3D"),
        run("J3S"),
        run("83C"),
    ]
    assert engine.find_runs(cards("6S 7S 8S 6H 7H 8H 6C 7C 8C")) == [
        run("83C"),
        run("83H"),
        run("83S"),
    ]
    assert engine.find_runs(cards("QD KD AD 6C 7C 8C 9C")) == [run("94C"), run("A3D")]


def test_R4_1_no_cards_no_runs(engine: ModuleType) -> None:
    assert engine.find_runs([]) == []
    assert engine.find_runs(cards("AS")) == []


def test_R4_1_hand_order_does_not_matter(engine: ModuleType) -> None:
    hand = cards("8C 6C JH 7C 9H TH")
    expected = [run("J3H"), run("83C")]
    assert engine.find_runs(hand) == expected
    assert engine.find_runs(list(reversed(hand))) == expected


# --------------------------------------------------------------------------------------------
# R4.2 comparing runs
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "trump", "expected"),
    [
        ("94C", "A3H", H, 1),  # a fifty beats a twenty, even a trump twenty with a higher top
        ("T4C", "94D", S, 1),  # equal size: higher top
        ("A3C", "K3D", S, 1),
        ("J3C", "T3D", S, 1),  # natural order: J above T (plain trick order has T above J)
        ("93C", "T3D", C, -1),  # natural order: T above 9, even against a trump run
        ("T4H", "T4C", H, 1),  # equal size and top: trump beats plain
        ("K3S", "K3D", S, 1),
        ("K3C", "K3D", H, 0),  # two equal plain runs tie
        ("A4C", "A4S", D, 0),
    ],
)
def test_R4_2_compare_runs(engine: ModuleType, a: str, b: str, trump: Suit, expected: int) -> None:
    assert engine.compare_runs(run(a), run(b), trump) == expected
    assert engine.compare_runs(run(b), run(a), trump) == -expected  # antisymmetric
    assert engine.compare_runs(run(a), run(b), str(trump)) == expected


def test_R4_2_fifty_beats_every_twenty(engine: ModuleType) -> None:
    low_fifty = run("94D")
    for trump in Suit:
        for suit in Suit:
            for top in range(2, 9):
                twenty = Run(suit, Rank(top), 3)
                assert engine.compare_runs(low_fifty, twenty, trump) == 1, (twenty, trump)
                assert engine.compare_runs(twenty, low_fifty, trump) == -1, (twenty, trump)


# --------------------------------------------------------------------------------------------
# R4.3 one winner of the runs
# --------------------------------------------------------------------------------------------


def seats(*lists: str) -> list[list[Run]]:
    return [[run(text) for text in item.split()] for item in lists]


@pytest.mark.parametrize(
    ("runs_by_seat", "trump", "expected"),
    [
        (seats("", "", "", ""), H, None),  # no runs
        (seats("", "83C", "", ""), H, 1),  # one declarer
        (seats("A3D", "", "94S", ""), H, 2),  # a fifty beats a twenty
        (seats("A3C A3D", "94H", "", ""), S, 1),  # the best run decides, not the total
        (seats("", "83C 94D", "A3H", ""), S, 1),  # best run not listed first
        (seats("K3C", "K3H", "", ""), H, 1),  # equal runs: the trump run wins
        (seats("", "", "Q3D", "Q3S"), S, 3),  # equal runs, the trump one wins
    ],
)
def test_R4_3_single_winner(
    engine: ModuleType, runs_by_seat: list[list[Run]], trump: Suit, expected: int | None
) -> None:
    assert engine.run_winner(runs_by_seat, trump) == expected


def test_R4_3_tie_between_players_nobody_scores(engine: ModuleType) -> None:
    assert engine.run_winner(seats("K3C", "K3D", "", ""), H) is None
    assert engine.run_winner(seats("", "A4C", "", "A4S"), D) is None
    # whatever else anyone holds: seat 0 has a second run, seat 2 a lower run
    assert engine.run_winner(seats("K3C 83S", "K3D", "T3H", ""), H) is None
    # three players tie
    assert engine.run_winner(seats("K3C", "K3D", "K3S", ""), H) is None


def test_R4_3_tie_below_the_best_changes_nothing(engine: ModuleType) -> None:
    assert engine.run_winner(seats("A4S", "K3C", "", "K3D"), H) == 0
    assert engine.run_winner(seats("", "K3C", "T4H", "K3D"), S) == 2
    assert engine.run_winner(seats("83C", "83D", "83H", "J3S"), S) == 3


def test_R4_3_team_runs_is_not_a_primitive_concern(engine: ModuleType) -> None:
    # run_winner compares players, not teams: partners (0 and 2) with equal best runs tie,
    # and the winner is the seat, never its partner (team_runs is applied by the hand state).
    assert engine.run_winner(seats("K3C", "", "K3D", ""), H) is None
    assert engine.run_winner(seats("83C", "", "94D", ""), H) == 2
    assert engine.run_winner(seats("", "A3C", "", "Q3D 93H"), S) == 1


# --------------------------------------------------------------------------------------------
# R5.1 legal plays
# --------------------------------------------------------------------------------------------


def test_R5_1_leader_may_lead_any_card(engine: ModuleType) -> None:
    hand = "KS 6C JH 9D AS"
    assert legal(engine, hand, "", H) == by_index(hand)
    for rules in (Rules(head_plain=True), Rules(partner_exempt=True, undertrump_optional=True)):
        assert legal(engine, hand, "", H, rules) == by_index(hand)


def test_R5_1a_follow_plain_suit_any_card_of_it(engine: ModuleType) -> None:
    assert legal(engine, "AH 6H JC 9S", "KH", S) == by_index("6H AH")
    # holding the suit led, one may not trump, even when the trick holds a trump
    assert legal(engine, "8H JS", "7H 6S", S) == by_index("8H")
    assert legal(engine, "8H 6H JS AC", "7H AS TH", S) == by_index("6H 8H")


def test_R5_1a_trump_led_head_the_trick(engine: ModuleType) -> None:
    assert legal(engine, "9H 6H KH AC", "TH", H) == by_index("9H")
    assert legal(engine, "KH TH 9H", "AH", H) == by_index("9H")
    assert legal(engine, "AH TH JH", "9H", H) == by_index("JH")
    assert legal(engine, "QH KH TH 6C", "8H", H) == by_index("QH KH TH")


def test_R5_1a_trump_led_cannot_head_any_trump(engine: ModuleType) -> None:
    assert legal(engine, "9H AH 6H AC", "JH", H) == by_index("6H 9H AH")
    # undertrump_optional is about R5.1b only: following trump stays compulsory
    assert legal(engine, "6H AC", "JH", H, Rules(undertrump_optional=True)) == by_index("6H")


def test_R5_1a_trump_led_running_maximum_not_last_trump(engine: ModuleType) -> None:
    # docs/TESTING.md: the highest trump tracked as the last one played.
    assert legal(engine, "AH TH JH QH", "9H KH", H) == by_index("JH")
    assert legal(engine, "9S TS 7S", "8S AH", S) == by_index("9S TS")  # off-suit discard ignored


def test_R5_1a_head_plain(engine: ModuleType) -> None:
    rules = Rules(head_plain=True)
    assert legal(engine, "AH 6H TH", "KH", S) == by_index("6H TH AH")  # default: any heart
    assert legal(engine, "AH 6H TH", "KH", S, rules) == by_index("TH AH")  # T beats K
    assert legal(engine, "JH QH KH AH", "TH", S, rules) == by_index("AH")  # J, Q, K below T
    assert legal(engine, "JH 6H", "9H", S, rules) == by_index("JH")  # J above 9 in plain
    assert legal(engine, "6H TH", "AH", S, rules) == by_index("6H TH")  # cannot beat: any
    assert legal(engine, "JH AH 6H", "8H QH 9H", S, rules) == by_index("AH")  # the highest
    assert legal(engine, "9H 7H", "8H AC", S, rules) == by_index("9H")  # discard ignored
    # a trump in the trick lifts the obligation
    assert legal(engine, "AH 6H", "KH 6S", S, rules) == by_index("6H AH")
    # void in the suit led: head_plain does not apply
    assert legal(engine, "AC 6S", "KH", S, rules) == by_index("6S")


def test_R5_1b_void_must_trump(engine: ModuleType) -> None:
    assert legal(engine, "6S 7C AD", "AH", S) == by_index("6S")
    assert legal(engine, "6S JS 7C", "7H 8H", S) == by_index("6S JS")


def test_R5_1b_play_to_beat_after_opponent_ruff(engine: ModuleType) -> None:
    # seat 1 (an opponent of the mover) ruffed the ace of hearts
    assert legal(engine, "6S 9S KS 7C", "AH 8S", S) == by_index("9S KS")
    assert legal(engine, "9S TS QS 6C", "KH AS", S) == by_index("9S")  # 9 beats A
    assert legal(engine, "AS TS JS 7C", "AH 9S KS", S) == by_index("JS")  # running maximum


@pytest.mark.parametrize(
    ("trump", "led"),
    [(trump, led) for trump in Suit for led in Suit if led != trump],
    ids=lambda s: str(s),
)
def test_R5_1b_overtrump_for_every_lead_and_trump(
    engine: ModuleType, trump: Suit, led: Suit
) -> None:
    # docs/TESTING.md: overtrump obligations applied only for some leads.
    other = next(s for s in Suit if s not in (trump, led))
    hand = f"6{trump} 9{trump} K{trump} 7{other}"
    trick = f"A{led} 8{trump}"
    assert legal(engine, hand, trick, trump) == by_index(f"9{trump} K{trump}")
    assert legal(engine, f"6{trump} 7{other}", f"A{led} J{trump}", trump) == by_index(f"6{trump}")
    assert legal(engine, f"6{trump} 7{other}", f"A{led}", trump) == by_index(f"6{trump}")


def test_R5_1b_cannot_beat_must_undertrump(engine: ModuleType) -> None:
    assert legal(engine, "6S 7C", "AH JS", S) == by_index("6S")
    assert legal(engine, "6S 8S 7C AD", "AH 9S", S) == by_index("6S 8S")


def test_R5_1b_undertrump_optional(engine: ModuleType) -> None:
    rules = Rules(undertrump_optional=True)
    assert legal(engine, "6S 7C", "AH JS", S, rules) == by_index("7C 6S")  # cannot beat: any
    assert legal(engine, "6S 8S 7C AD", "AH 9S", S, rules) == by_index("6S 8S 7C AD")
    assert legal(engine, "9S 6S 7C", "AH 8S", S, rules) == by_index("9S")  # can beat: must
    assert legal(engine, "6S 7C", "AH", S, rules) == by_index("6S")  # no trump yet: must trump


def test_R5_1c_void_in_suit_and_trump_any_card(engine: ModuleType) -> None:
    assert legal(engine, "7C 8D", "AH", S) == by_index("7C 8D")
    assert legal(engine, "7C 8D AH", "6S", S) == by_index("7C 8D AH")  # trump led, no trump
    assert legal(engine, "7C 8D", "AH JS", S) == by_index("7C 8D")


def test_R5_1_no_partner_exemption_by_default(engine: ModuleType) -> None:
    # mover is 4th; its partner (2nd) ruffed and is winning: still must play to beat
    assert legal(engine, "9S 6S 7C", "AH 8S 7H", S) == by_index("9S")
    # mover is 3rd; its partner led the winning ace: still must trump
    assert legal(engine, "6S 7C", "AH 7H", S) == by_index("6S")


def test_R5_1_partner_exempt(engine: ModuleType) -> None:
    rules = Rules(partner_exempt=True)
    assert legal(engine, "9S 6S 7C", "AH 8S 7H", S, rules) == by_index("7C 6S 9S")
    assert legal(engine, "6S 7C", "AH 7H", S, rules) == by_index("7C 6S")
    # the partner is not winning (an opponent ruffed): no exemption
    assert legal(engine, "7S 6C", "AH 6S", S, rules) == by_index("7S")
    assert legal(engine, "6S 7C", "7H AH", S, rules) == by_index("6S")
    # the partner has not played yet (mover is 2nd): no exemption
    assert legal(engine, "6S 7C", "AH", S, rules) == by_index("6S")
    # only for a player void in the suit led
    assert legal(engine, "6H 6S", "AH 7H", S, rules) == by_index("6H")
    assert legal(engine, "6S AC", "JS 7S", S, rules) == by_index("6S")


# --------------------------------------------------------------------------------------------
# R5.2 trick winner
# --------------------------------------------------------------------------------------------


def test_R5_2_highest_of_suit_led_without_trump(engine: ModuleType) -> None:
    assert winner(engine, "9H TH KH AH", S) == 3
    assert winner(engine, "KH TH", S) == 1
    assert winner(engine, "QC", S) == 0


def test_R5_2_off_suit_discard_never_wins(engine: ModuleType) -> None:
    assert winner(engine, "6H AC AS KC", D) == 0
    assert winner(engine, "7C AD 6C", H) == 0
    assert winner(engine, "6D AC AH KC", S) == 0


def test_R5_2_low_ruff_wins(engine: ModuleType) -> None:
    # docs/TESTING.md: the winner computed from a non-trump lead.
    assert winner(engine, "AH 6S KH TH", S) == 1
    assert winner(engine, "AC KC 6D TC", D) == 2


def test_R5_2_highest_trump_wins(engine: ModuleType) -> None:
    assert winner(engine, "AH 6S JS 9S", S) == 2
    assert winner(engine, "AH 7S 6S", S) == 1
    assert winner(engine, "6H 9S KS AS", S) == 1  # running maximum, not the last trump
    assert winner(engine, "TS AS", S) == 1
    assert winner(engine, "KS TS QS", S) == 1


# --------------------------------------------------------------------------------------------
# R6 scoring a hand
# --------------------------------------------------------------------------------------------


def test_R6_2_made_each_team_scores_its_points(engine: ModuleType) -> None:
    assert engine.score_hand((110, 92), 0) == (Outcome.MADE, (110, 92))
    assert engine.score_hand((92, 110), 1) == (Outcome.MADE, (92, 110))
    assert engine.score_hand((82, 80), 0) == (Outcome.MADE, (82, 80))  # one point more is enough
    assert engine.score_hand((162, 0), 0) == (Outcome.MADE, (162, 0))
    assert engine.score_hand((92, 90), 0) == (Outcome.MADE, (92, 90))  # count 182


def test_R6_2_more_than_the_other_team_not_more_than_82(engine: ModuleType) -> None:
    # docs/TESTING.md: bait decided on card points alone or a hard-coded 82.
    assert engine.score_hand((85, 97), 0) == (Outcome.BAIT, (0, 182))
    assert engine.score_hand((100, 102), 0) == (Outcome.BAIT, (0, 202))
    assert engine.score_hand((112, 120), 1) == (Outcome.MADE, (112, 120))
    assert engine.score_hand((120, 112), 1) == (Outcome.BAIT, (232, 0))


def test_R6_3_bait_other_team_scores_whole_count(engine: ModuleType) -> None:
    assert engine.score_hand((80, 82), 0) == (Outcome.BAIT, (0, 162))
    assert engine.score_hand((107, 95), 1) == (Outcome.BAIT, (202, 0))
    assert engine.score_hand((0, 162), 0) == (Outcome.BAIT, (0, 162))
    for rules in (Rules(half_bait_is_bait=True), Rules(team_runs=True, head_plain=True)):
        assert engine.score_hand((80, 82), 0, rules) == (Outcome.BAIT, (0, 162))


def test_R6_4_half_bait(engine: ModuleType) -> None:
    assert engine.score_hand((81, 81), 0) == (Outcome.HALF_BAIT, (0, 81))
    assert engine.score_hand((81, 81), 1) == (Outcome.HALF_BAIT, (81, 0))
    assert engine.score_hand((91, 91), 0, Rules()) == (Outcome.HALF_BAIT, (0, 91))


def test_R6_4_half_bait_is_bait(engine: ModuleType) -> None:
    rules = Rules(half_bait_is_bait=True)
    # RULES.md names only the score; the outcome is a half bait (equal points) scored as a bait.
    outcome, score = engine.score_hand((81, 81), 0, rules)
    assert outcome in (Outcome.HALF_BAIT, Outcome.BAIT)
    assert score == (0, 162)
    outcome, score = engine.score_hand((91, 91), 1, rules)
    assert outcome in (Outcome.HALF_BAIT, Outcome.BAIT)
    assert score == (182, 0)
    # the variant leaves made hands and baits alone
    assert engine.score_hand((82, 80), 0, rules) == (Outcome.MADE, (82, 80))


# --------------------------------------------------------------------------------------------
# R10 worked examples
# --------------------------------------------------------------------------------------------


def test_R10_1_card_total(engine: ModuleType) -> None:
    trump_total = sum(engine.card_points(card, S) for card in DECK if card.suit == S)
    plain_totals = [
        sum(engine.card_points(card, S) for card in DECK if card.suit == suit) for suit in (C, D, H)
    ]
    assert trump_total == 62
    assert plain_totals == [30, 30, 30]
    assert trump_total + sum(plain_totals) + 10 == 162


def test_R10_2_only_the_nine_beats_the_trump_ten(engine: ModuleType) -> None:
    assert legal(engine, "6S 7S 8S 9S", "TS", S) == by_index("9S")  # trump led
    assert legal(engine, "6S 7S 8S 9S", "AH TS", S) == by_index("9S")  # a ruff with the ten


def test_R10_3_void_in_hearts_must_play_the_trump_six(engine: ModuleType) -> None:
    assert legal(engine, "6D AC KS", "7H", D) == by_index("6D")
    assert legal(engine, "AS 6D TC", "AH KH", D) == by_index("6D")


def test_R10_4_trick_winners(engine: ModuleType) -> None:
    assert winner(engine, "8S 8D 9D JD", D) == 3
    assert winner(engine, "8S 9S 6H 6C", D) == 1


def test_R10_5_runs(engine: ModuleType) -> None:
    found = engine.find_runs(cards("AH QH JH TH 8H 7H 6H"))
    assert found == [run("Q3H"), run("83H")]
    assert sum(r.points for r in found) == 40
    found = engine.find_runs(cards("AH KH QH JH 9H 8H 7H 6H"))
    assert found == [run("A4H"), run("94H")]
    assert sum(r.points for r in found) == 100
    assert engine.find_runs(cards("AH KH JH TH 8H 7H")) == []


def test_R10_6_run_comparisons(engine: ModuleType) -> None:
    t987, n876, akq = run("T4C"), run("94D"), run("A3H")
    for trump in Suit:
        assert engine.compare_runs(t987, n876, trump) == 1
        assert engine.compare_runs(n876, akq, trump) == 1
        assert engine.compare_runs(t987, akq, trump) == 1
        assert engine.compare_runs(akq, t987, trump) == -1
    assert engine.compare_runs(run("T4S"), run("T4C"), S) == 1
    assert engine.compare_runs(run("T4C"), run("T4S"), S) == -1


def test_R10_7_plain_fifty_beats_trump_twenty(engine: ModuleType) -> None:
    assert engine.compare_runs(run("K4C"), run("A3H"), H) == 1
    assert engine.compare_runs(run("A3H"), run("K4C"), H) == -1
    assert engine.run_winner(seats("A3H", "", "", "K4C"), H) == 3


def test_R10_8_scoring(engine: ModuleType) -> None:
    assert engine.score_hand((110, 92), 0) == (Outcome.MADE, (110, 92))
    assert engine.score_hand((95, 107), 0) == (Outcome.BAIT, (0, 202))
    assert engine.score_hand((101, 101), 0) == (Outcome.HALF_BAIT, (0, 101))
    outcome, score = engine.score_hand((101, 101), 0, Rules(half_bait_is_bait=True))
    assert outcome in (Outcome.HALF_BAIT, Outcome.BAIT)
    assert score == (0, 202)
