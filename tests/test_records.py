"""Game records (``tarabish-record/1``) and ``tarabish replay`` (docs/RECORDS.md).

- every golden record in tests/golden/ (a plain record with its expected results) replays on
  both engines to exactly itself (byte for byte), passes ``tarabish replay --check`` on both
  engines, and the goldens are up to date with tests/golden/make_golden.py; a golden with one
  altered result fails ``--check`` (exit 1) naming the hand and the field;
- bad records (malformed JSON, wrong format, missing or malformed fields, bad deals, illegal
  or malformed actions, table verbs the rules forbid, hands not consecutive) raise ``RecordError``
  with a one-line message naming the hand, the action index, the action and the rule, and make
  ``tarabish replay`` exit with status 2 and one line on standard error;
- ``to_record`` writes records of matches and hands of both engines that replay to the same
  totals and winner.
"""

from __future__ import annotations

import copy
import io
import json
import pickle
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import tarabish
from tarabish import InvalidInputError, Rules
from tarabish._cards import format_cards
from tarabish._cli.replay import replay_file
from tarabish._record import RecordError, parse_record, to_record
from tarabish._replay import dump_output, play_record, replay
from terminal import run_tarabish

GOLDEN = Path(__file__).resolve().parent / "golden"
GOLDEN_FILES = sorted(GOLDEN.glob("*.json"))
ENGINES = ("rust", "reference")
ROOT = Path(__file__).resolve().parent.parent


def load(name: str) -> dict[str, Any]:
    """A golden file: a record with its expected results (the output of ``tarabish replay``)."""
    data: dict[str, Any] = json.loads((GOLDEN / f"{name}.json").read_text())
    return data


def record_of(name: str) -> dict[str, Any]:
    """A golden's plain record: the golden without its results."""
    data = load(name)
    for key in ("totals", "winner"):
        del data[key]
    for hand in data["hands"]:
        del hand["result"]
    return data


def good_record() -> dict[str, Any]:
    """made_plain: dealer 0, '1 call C', trick 0 is '1 play 9D', '2 play 7D', '3 play JD',
    '0 play TD'; action 30 is '2 play AC' (seat 2 void in diamonds, holding AC and JH)."""
    return copy.deepcopy(record_of("made_plain"))


# -- golden records ------------------------------------------------------------------------------


def test_golden_files_exist_and_cover_the_outcomes() -> None:
    hands = []
    for path in GOLDEN_FILES:
        hands.extend(json.loads(path.read_text())["hands"])
    assert len(hands) >= 20
    outcomes = {hand["result"].get("outcome") for hand in hands}
    assert {"made", "bait", "half_bait", "void", "misplay", "throw_in"} <= outcomes
    assert any(hand["result"].get("complete") is False for hand in hands)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("path", GOLDEN_FILES, ids=[p.stem for p in GOLDEN_FILES])
def test_golden_replays_exactly(path: Path, engine: str) -> None:
    text = path.read_text()
    # the stored results are ignored and recomputed: the plain record gives the same output
    assert dump_output(replay(text, engine)) == text
    assert dump_output(replay(record_of(path.stem), engine)) == text
    # tarabish replay writes the same text a hand at a time
    written = io.StringIO()
    play_record(text, engine).write(written)
    assert written.getvalue() == text


@pytest.mark.parametrize("engine", ENGINES)
def test_every_golden_passes_replay_check(engine: str) -> None:
    completed = run_cli("--check", "--engine", engine, *map(str, GOLDEN_FILES))
    assert completed.returncode == 0, completed.stderr
    assert completed.stderr == ""
    assert len(completed.stdout.splitlines()) == len(GOLDEN_FILES)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    ("name", "path", "altered", "field"),
    [
        ("match_both_over_500", ("hands", 1, "result", "score", 0), 999, "hand 1: result.score[0]"),
        ("runs_won", ("hands", 0, "result", "runs", "seat"), 3, "hand 0: result.runs.seat"),
        (
            "bella",
            ("hands", 0, "result", "tricks", 4, "points"),
            0,
            "hand 0: result.tricks[4].points",
        ),
        ("half_bait", ("hands", 0, "result", "outcome"), "made", "hand 0: result.outcome"),
        ("tie_at_500_plays_on", ("totals", 1), 1, "record: totals[1]"),
    ],
    ids=["score", "runs seat", "trick points", "outcome", "totals"],
)
def test_replay_check_names_the_hand_and_field_of_an_altered_result(
    tmp_path: Path, engine: str, name: str, path: tuple[Any, ...], altered: Any, field: str
) -> None:
    golden = load(name)
    *keys, last = path
    parent: Any = golden
    for key in keys:
        parent = parent[key]
    right = parent[last]
    assert right != altered
    parent[last] = altered
    bad = tmp_path / f"{name}.json"
    bad.write_text(dump_output(golden))
    completed = run_cli("--check", "--engine", engine, str(bad))
    assert completed.returncode == 1
    assert completed.stdout == ""
    assert completed.stderr.splitlines() == [
        f"tarabish replay: {bad}: {field} is {json.dumps(altered)} in the record, "
        f"the replay gives {json.dumps(right)}"
    ]


def test_replay_check_wants_every_result_stored(tmp_path: Path) -> None:
    plain = tmp_path / "plain.json"
    plain.write_text(json.dumps(record_of("made_plain")))
    completed = run_cli("--check", str(plain))
    assert completed.returncode == 1
    assert f"{plain}: hand 0: result is missing in the record" in completed.stderr
    assert f"{plain}: record: totals is missing in the record" in completed.stderr


def test_replay_check_of_an_illegal_record_exits_2(tmp_path: Path) -> None:
    golden = load("made_plain")
    golden["hands"][0]["actions"][30] = "2 play JH"  # R5.1b: seat 2 is void in diamonds
    bad = tmp_path / "illegal.json"
    bad.write_text(json.dumps(golden))
    completed = run_cli("--check", str(bad))
    assert completed.returncode == 2
    assert completed.stderr.startswith('tarabish replay: hand 0, action 30 ("2 play JH"): R5.1b')


def test_goldens_are_up_to_date() -> None:
    completed = subprocess.run(
        [sys.executable, str(GOLDEN / "make_golden.py"), "--check"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert completed.returncode == 0, completed.stderr


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", ["undertrump_optional", "partner_exempt"])
def test_variant_goldens_need_their_variant(name: str, engine: str) -> None:
    """These goldens hold plays that only their variant allows: under the default rules the
    same record breaks R5.1b (a player void in the suit led must trump / play to beat)."""
    rec = record_of(name)
    rec["rules"] = {}
    with pytest.raises(RecordError) as caught:
        replay(rec, engine)
    assert caught.value.rule == "R5.1b" and caught.value.hand == 0


# -- the typed records ---------------------------------------------------------------------------


def test_later_hands_may_leave_out_scores_before() -> None:
    """R7.2: a later hand without ``scores_before`` is played from the running totals; the
    replay states them. Given, they must match (``BAD_RECORDS``)."""
    golden = load("match_both_over_500")
    rec = record_of("match_both_over_500")
    for hand in rec["hands"][1:]:
        del hand["scores_before"]
    for engine in ("rust", "reference"):
        assert replay(rec, engine) == golden
    assert "scores_before" not in parse_record(rec).to_dict()["hands"][1]


def test_parse_record_gives_typed_hands() -> None:
    rec = parse_record(json.dumps(record_of("forced_other_team")))
    assert rec.rules == Rules(forced_at=400)
    hand = rec.hands[0]
    assert hand.dealer == 0 and hand.scores_before == (410, 430)
    assert all(len(cards) == 9 for cards in hand.deal)
    assert str(hand.actions[2]) == "3 call H"
    assert parse_record(rec.to_dict()) == rec


def test_defaults_and_canonical_text() -> None:
    rec = good_record()
    del rec["rules"]
    del rec["hands"][0]["scores_before"]
    rec["hands"][0]["deal"][0] = rec["hands"][0]["deal"][0].lower().replace("t", "10")
    out = replay(rec)
    assert out["rules"] == {} and out["hands"][0]["scores_before"] == [0, 0]
    assert out == load("made_plain")


def test_default_valued_rule_options_are_accepted() -> None:
    rec = good_record()
    rec["rules"] = {"target": 500, "forced_at": None, "head_plain": False}
    assert replay(rec)["rules"] == {}


@pytest.mark.parametrize("engine", ENGINES)
def test_unfinished_hand_result(engine: str) -> None:
    rec = good_record()
    rec["hands"][0]["actions"] = rec["hands"][0]["actions"][:10]
    result = replay(rec, engine)["hands"][0]["result"]
    assert result["complete"] is False and result["outcome"] is None and result["score"] is None
    assert result["phase"] == "play" and result["to_move"] == 0  # seat 3 led trick 2
    assert result["tricks"] == [{"winner": 0, "points": 12}, {"winner": 3, "points": 34}]
    assert result["points"] == [12, 34]
    rec["hands"][0]["actions"] = []
    result = replay(rec, engine)["hands"][0]["result"]
    assert result["phase"] == "auction" and result["to_move"] == 1 and result["trump"] is None


def test_played_record_values() -> None:
    played = play_record(record_of("tie_at_500_plays_on"))
    assert played.totals == (658, 614) and played.winner == 0
    assert [hand.complete for hand in played.hands] == [True, True]


@pytest.mark.parametrize("engine", ENGINES)
def test_to_record_of_matches_and_hands(engine: str) -> None:
    module = tarabish if engine == "rust" else pytest.importorskip("tarabish.reference")
    for seed in range(4):
        rules = Rules(target=300) if seed % 2 else Rules(dealer_may_pass=True)
        match = module.MatchState(seed=seed, rules=rules, first_dealer=seed % 4)
        rng = random.Random(seed)
        steps = 0
        while not match.is_terminal:
            match.apply(rng.choice(match.legal_action_ids()))
            steps += 1
            if seed == 3 and steps >= 60 and match.hand.actions:
                break  # an ongoing match: the last hand is unfinished
        rec = to_record(match)
        for other in ENGINES:
            played = play_record(json.dumps(rec), other)
            assert played.totals == tuple(match.scores)
            assert played.winner == match.winner
            assert played.hands[-1].complete == (seed != 3)
    hand = module.play_random_hand(5, 2)
    assert replay(to_record([hand]))["hands"][0]["result"] == hand.result.to_dict()
    assert replay(to_record(hand))["hands"][0]["result"] == hand.result.to_dict()
    with pytest.raises(InvalidInputError):
        to_record([])


def test_record_error_is_an_invalid_input_error_and_pickles() -> None:
    error = RecordError("boom", hand=1, action_index=2, action="2 play 7H", rule="R5.1b")
    assert isinstance(error, InvalidInputError) and isinstance(error, ValueError)
    assert str(error) == 'hand 1, action 2 ("2 play 7H"): R5.1b boom'
    again = pickle.loads(pickle.dumps(error))
    assert str(again) == str(error) and again.rule == "R5.1b" and again.action_index == 2


# -- bad records ---------------------------------------------------------------------------------


def set_action(index: int, text: str) -> Any:
    def change(rec: dict[str, Any]) -> None:
        rec["hands"][0]["actions"][index] = text

    return change


def set_field(path: list[Any], value: Any) -> Any:
    def change(rec: dict[str, Any]) -> None:
        target = rec
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


def delete(path: list[Any]) -> Any:
    def change(rec: dict[str, Any]) -> None:
        target = rec
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return change


def first_seat_deal(text: str) -> Any:
    return set_field(["hands", 0, "deal", 0], text)


SEAT0 = "6D 7C AH KC 6C TD 9S TS QD"  # made_plain's seat 0

# (id, change, hand, action index, action, rule, words the message must hold)
BAD_RECORDS: list[tuple[str, Any, int | None, int | None, str | None, str | None, str]] = [
    ("wrong format", set_field(["format"], "tarabish-record/2"), None, None, None, None, "format"),
    ("no format", delete(["format"]), None, None, None, None, "format"),
    ("no hands", delete(["hands"]), None, None, None, None, "hands"),
    ("empty hands", set_field(["hands"], []), None, None, None, None, "hands"),
    ("hands not a list", set_field(["hands"], {}), None, None, None, None, "hands"),
    ("unknown key", set_field(["comment"], "x"), None, None, None, None, "comment"),
    ("unknown rule", set_field(["rules"], {"trump_bonus": 10}), None, None, None, "R9", "trump"),
    ("bad rule value", set_field(["rules"], {"target": "500"}), None, None, None, "R9", "target"),
    ("rules not object", set_field(["rules"], [1]), None, None, None, "R9", "rules"),
    ("no deal", delete(["hands", 0, "deal"]), 0, None, None, None, "deal"),
    ("no dealer", delete(["hands", 0, "dealer"]), 0, None, None, None, "dealer"),
    ("no actions", delete(["hands", 0, "actions"]), 0, None, None, None, "actions"),
    ("unknown hand key", set_field(["hands", 0, "seed"], 3), 0, None, None, None, "seed"),
    ("dealer 4", set_field(["hands", 0, "dealer"], 4), 0, None, None, "R0", "dealer"),
    ("dealer true", set_field(["hands", 0, "dealer"], True), 0, None, None, "R0", "dealer"),
    ("dealer text", set_field(["hands", 0, "dealer"], "0"), 0, None, None, "R0", "dealer"),
    ("scores one", set_field(["hands", 0, "scores_before"], [0]), 0, None, None, None, "scores"),
    (
        "scores negative",
        set_field(["hands", 0, "scores_before"], [0, -5]),
        0,
        None,
        None,
        None,
        "scores",
    ),
    (
        "scores float",
        set_field(["hands", 0, "scores_before"], [0, 1.5]),
        0,
        None,
        None,
        None,
        "scores",
    ),
    (
        "three hands dealt",
        set_field(["hands", 0, "deal"], ["6D 7C AH"] * 3),
        0,
        None,
        None,
        "R2.4",
        "deal",
    ),
    ("deal not a list", set_field(["hands", 0, "deal"], "6D 7C"), 0, None, None, "R2.4", "deal"),
    (
        "card twice in a deal",
        first_seat_deal("6D 7C AH KC 6C TD 9S TS 6D"),
        0,
        None,
        None,
        "R1.1",
        "6D",
    ),
    (
        "card in two seats",
        first_seat_deal("6D 7C AH KC 6C TD 9S TS 9D"),
        0,
        None,
        None,
        "R1.1",
        "9D",
    ),
    ("ten cards", first_seat_deal(SEAT0 + " 6H"), 0, None, None, "R2.4", "10 cards"),
    ("eight cards", first_seat_deal("6D 7C AH KC 6C TD 9S TS"), 0, None, None, "R2.4", "8 cards"),
    ("bad card", first_seat_deal("6D 7C AH KC 6C TD 9S TS QX"), 0, None, None, "R0", "QX"),
    ("seat deal a number", first_seat_deal(7), 0, None, None, None, "seat 0"),
    ("illegal play R5.1a", set_action(2, "2 play 9C"), 0, 2, "2 play 9C", "R5.1a", "seat 2"),
    ("illegal play R5.1b", set_action(30, "2 play JH"), 0, 30, "2 play JH", "R5.1b", "seat 2"),
    ("wrong seat in play", set_action(2, "3 play JD"), 0, 2, "3 play JD", "R5.1", "turn"),
    ("card not held", set_action(2, "2 play AS"), 0, 2, "2 play AS", "R5.1", "AS"),
    ("wrong seat in auction", set_action(0, "2 call C"), 0, 0, "2 call C", "R3.1", "turn"),
    ("play in auction", set_action(0, "1 play 9D"), 0, 0, "1 play 9D", "R3.1", "trump"),
    ("second call", set_action(1, "1 call H"), 0, 1, "1 call H", "R3.1", "trump"),
    ("malformed action", set_action(3, "3 plays JD"), 0, 3, "3 plays JD", "R0", "3 plays JD"),
    ("seat 5", set_action(3, "5 play JD"), 0, 3, "5 play JD", "R0", "seat"),
    ("bad suit", set_action(0, "1 call X"), 0, 0, "1 call X", "R0", "suit"),
    ("action not text", set_action(0, 36), 0, 0, None, None, "action"),
    # Table verbs in a record of the default rules (auto mode, legal play enforced).
    ("announce", set_action(4, "0 announce"), 0, 4, "0 announce", "R4.4", "0 announce"),
    ("show", set_action(4, "0 show"), 0, 4, "0 show", "R4.4", "0 show"),
    ("bella", set_action(4, "0 bella"), 0, 4, "0 bella", "R4.5", "0 bella"),
    ("misplay", set_action(4, "0 misplay"), 0, 4, "0 misplay", "R8.2", "0 misplay"),
    ("throw", set_action(4, "0 throw"), 0, 4, "0 throw", "R8.3", "0 throw"),
    ("table verb with an argument", set_action(4, "0 bella QH"), 0, 4, "0 bella QH", "R0", "bella"),
]


def after_end(rec: dict[str, Any]) -> None:
    rec["hands"][0]["actions"].append("1 play 6S")


def stuck_dealer(rec: dict[str, Any]) -> None:
    rec["hands"][0]["actions"][0:1] = ["1 pass", "2 pass", "3 pass", "0 pass"]


def second_hand(scores: list[int] | None, dealer: int = 1) -> Any:
    def change(rec: dict[str, Any]) -> None:
        other = copy.deepcopy(record_of("made_plain")["hands"][0])
        other["dealer"] = dealer
        other["actions"] = []
        if scores is not None:
            other["scores_before"] = scores
        rec["hands"].append(other)

    return change


def unfinished_first(rec: dict[str, Any]) -> None:
    rec["hands"][0]["actions"] = rec["hands"][0]["actions"][:5]
    second_hand([0, 0])(rec)


def match_over(rec: dict[str, Any]) -> None:
    rec["hands"][0]["scores_before"] = [450, 10]
    second_hand([530, 92])(rec)


BAD_RECORDS += [
    ("action after the end", after_end, 0, 37, "1 play 6S", "R5.3", "over"),
    ("stuck dealer passes", stuck_dealer, 0, 3, "0 pass", "R3.2", "dealer"),
    ("wrong scores_before", second_hand([0, 0]), 1, None, None, "R7.2", "[80, 82]"),
    ("wrong next dealer", second_hand([80, 82], dealer=2), 1, None, None, "R2.2", "dealer"),
    ("hand after unfinished", unfinished_first, 0, None, None, "R5.3", "unfinished"),
    ("hand after match end", match_over, 1, None, None, "R7.1", "over"),
]


def forced_pass(rec: dict[str, Any]) -> None:
    rec.clear()
    rec.update(copy.deepcopy(record_of("forced_other_team")))
    rec["hands"][0]["actions"][2] = "3 pass"


def forced_dealer_pass(rec: dict[str, Any]) -> None:
    rec.clear()
    rec.update(copy.deepcopy(record_of("forced_dealer_team")))
    rec["hands"][0]["actions"][3] = "2 pass"


BAD_RECORDS += [
    ("forced player passes", forced_pass, 0, 2, "3 pass", "R3.4", "forced"),
    ("forced dealer passes", forced_dealer_pass, 0, 3, "2 pass", "R3.4", "forced"),
]


def expected_prefix(hand: int | None, index: int | None, action: str | None) -> str:
    if hand is None:
        return "record: "
    if index is None:
        return f"hand {hand}: "
    if action is None:
        return f"hand {hand}, action {index}: "
    return f'hand {hand}, action {index} ("{action}"): '


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    ("change", "hand", "index", "action", "rule", "words"),
    [case[1:] for case in BAD_RECORDS],
    ids=[case[0] for case in BAD_RECORDS],
)
def test_bad_record(
    change: Any,
    hand: int | None,
    index: int | None,
    action: str | None,
    rule: str | None,
    words: str,
    engine: str,
) -> None:
    rec = good_record()
    change(rec)
    with pytest.raises(RecordError) as caught:
        replay(rec, engine)
    error = caught.value
    assert (error.hand, error.action_index, error.action, error.rule) == (
        hand,
        index,
        action,
        rule,
    )
    message = str(error)
    assert "\n" not in message
    assert message.startswith(expected_prefix(hand, index, action)), message
    if rule is not None:
        assert f": {rule} " in message, message
    assert words.lower() in message.lower(), message
    # the same through the command's entry point: exit 2, one line on stderr, nothing on stdout
    out, err = io.StringIO(), io.StringIO()
    path_text = json.dumps(rec)
    status = _replay_text(path_text, engine, out, err)
    assert status == 2 and out.getvalue() == ""
    assert err.getvalue() == f"tarabish replay: {message}\n"


def _replay_text(text: str, engine: str, out: io.StringIO, err: io.StringIO) -> int:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "record.json"
        path.write_text(text)
        return replay_file(str(path), engine=engine, out=out, err=err)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "{",
        "[1, 2]",
        "null",
        '"tarabish-record/1"',
        '{"format": "tarabish-record/1", "format": "tarabish-record/1", "hands": []}',
        '{"format": "tarabish-record/1", "rules": {"target": NaN}, "hands": []}',
        "[" * 100_000,
    ],
    ids=["empty", "truncated", "array", "null", "string", "duplicate key", "NaN", "deep"],
)
def test_malformed_json(text: str) -> None:
    with pytest.raises(RecordError) as caught:
        replay(text)
    assert str(caught.value).startswith("record: ")
    assert "\n" not in str(caught.value)
    out, err = io.StringIO(), io.StringIO()
    assert _replay_text(text, "rust", out, err) == 2
    assert err.getvalue().startswith("tarabish replay: record: ")
    assert err.getvalue().count("\n") == 1 and out.getvalue() == ""


def test_not_utf8() -> None:
    with pytest.raises(RecordError):
        replay(b"\xff\xfe{}")


def test_replay_file_good_and_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "made.json"
    path.write_text(json.dumps(good_record()))
    for engine in ENGINES:
        out, err = io.StringIO(), io.StringIO()
        assert replay_file(str(path), engine=engine, out=out, err=err) == 0
        assert err.getvalue() == ""
        assert out.getvalue() == dump_output(load("made_plain"))
    out, err = io.StringIO(), io.StringIO()
    assert replay_file(str(tmp_path / "missing.json"), out=out, err=err) == 2
    assert err.getvalue().startswith("tarabish replay: cannot read ")
    assert err.getvalue().count("\n") == 1
    out, err = io.StringIO(), io.StringIO()
    assert replay_file(str(tmp_path), out=out, err=err) == 2  # a directory
    assert err.getvalue().count("\n") == 1
    out, err = io.StringIO(), io.StringIO()
    assert replay_file(str(path), engine="python", out=out, err=err) == 2
    assert "engine" in err.getvalue()


# Replay's cost is bounded (docs/RECORDS.md "Memory and time"): about 2 KB a hand is the parsed
# record and the results it needs; holding the whole output document and the JSON encoder's
# pieces of it took about 6 KB a hand under tracemalloc. The bound is per hand, so it does not
# depend on the machine's speed.
REPLAY_BYTES_PER_HAND = 3_000


def _void_record(hands: int) -> str:
    """A record of ``hands`` void hands (R3.3 with dealer_may_pass: four passes each)."""
    return json.dumps(
        {
            "format": "tarabish-record/1",
            "rules": {"dealer_may_pass": True},
            "hands": [
                {
                    "dealer": index % 4,
                    "deal": [format_cards(seat) for seat in tarabish.deal_cards(index, index % 4)],
                    "actions": [f"{(index + turn) % 4} pass" for turn in range(1, 5)],
                }
                for index in range(hands)
            ],
        }
    )


def _replay_peak(tmp_path: Path, hands: int) -> int:
    """tracemalloc's peak while ``replay_file`` replays ``hands`` void hands to a null device."""
    import os
    import tracemalloc

    path = tmp_path / f"void{hands}.json"
    path.write_text(_void_record(hands))
    with open(os.devnull, "w") as out:
        tracemalloc.start()
        try:
            assert replay_file(str(path), out=out, err=out) == 0
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()


def test_replay_memory_per_hand_is_bounded(tmp_path: Path) -> None:
    # The peak's growth per extra hand, not a ratio of peaks: how much of the small run's peak is
    # caches that earlier tests in the same worker already filled varies, the growth does not
    # (the old replay, which built the whole output in memory, took about 5,800 bytes a hand).
    small, large = 200, 800
    small_peak, large_peak = _replay_peak(tmp_path, small), _replay_peak(tmp_path, large)
    per_hand = (large_peak - small_peak) / (large - small)
    assert per_hand < REPLAY_BYTES_PER_HAND, f"{per_hand:.0f} bytes a hand"


# -- the command line ----------------------------------------------------------------------------


def run_cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return run_tarabish("replay", *args, stdin=stdin)


@pytest.mark.parametrize("engine", ENGINES)
def test_cli_replays_a_good_file(tmp_path: Path, engine: str) -> None:
    golden = load("match_both_over_500")
    path = tmp_path / "match.json"
    path.write_text(json.dumps(record_of("match_both_over_500")))
    completed = run_cli(str(path), "--engine", engine)
    assert completed.returncode == 0, completed.stderr
    assert completed.stderr == ""
    assert completed.stdout == dump_output(golden)
    # a golden file itself is a record: replaying it prints it back
    direct = run_cli(str(GOLDEN / "match_both_over_500.json"), "--engine", engine)
    assert direct.stdout == dump_output(golden)
    output = json.loads(completed.stdout)
    assert output["winner"] == 1 and all("result" in hand for hand in output["hands"])


def test_cli_reads_standard_input() -> None:
    completed = run_cli("-", stdin=json.dumps(record_of("half_bait")))
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout) == load("half_bait")


@pytest.mark.parametrize(
    ("change", "start"),
    [
        (set_action(30, "2 play JH"), 'hand 0, action 30 ("2 play JH"): R5.1b '),
        (first_seat_deal(SEAT0 + " 6H"), "hand 0: R2.4 "),
        (set_field(["format"], "x"), "record: "),
        (set_action(4, "0 announce"), 'hand 0, action 4 ("0 announce"): R4.4 '),
    ],
    ids=["illegal play", "ten cards", "format", "table verb"],
)
def test_cli_rejects_bad_files(tmp_path: Path, change: Any, start: str) -> None:
    rec = good_record()
    change(rec)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(rec))
    completed = run_cli(str(path))
    assert completed.returncode == 2
    assert completed.stdout == ""
    lines = completed.stderr.splitlines()
    assert len(lines) == 1, completed.stderr
    assert lines[0].startswith("tarabish replay: " + start), lines[0]


def test_cli_malformed_json_and_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{not json")
    for target in (str(path), str(tmp_path / "missing.json")):
        completed = run_cli(target)
        assert completed.returncode == 2 and completed.stdout == ""
        assert len(completed.stderr.splitlines()) == 1
        assert completed.stderr.startswith("tarabish replay: ")
