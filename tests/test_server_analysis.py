"""The analysis endpoints of ``tarabish serve`` (docs/PROTOCOL.md P5.3) against a real server
process: a finished table's ``GET /api/tables/{id}/analysis`` is ``tarabish replay`` and
``tarabish analyze`` of its record (every legal card's value equal to ``tb.solve`` of the same
position), refused before the match is over; ``POST /api/analysis`` analyses any record,
refusing bad, oversized and too long ones with a clear error; a table keeps playing while an
analysis runs."""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import tarabish as tb
from serverkit import Server, hello, open_socket, receive_until, sqlite_server
from tarabish import ActionKind, Phase
from tarabish._analyze import analyze
from tarabish._record import parse_record
from tarabish._replay import replay
from tarabish.server.analysis import MAX_HANDS, MAX_RECORD_BYTES

GOLDEN = Path(__file__).parent / "golden"
MATCH_SECONDS = 120.0
HEALTHZ_SECONDS = 1.0
"""The event loop is never held by the solver: /healthz answers within this while it runs."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with sqlite_server(tmp_path_factory.mktemp("analysis")) as running:
        yield running


def _finished_table(server: Server, **config: Any) -> str:
    table = server.create(seats=["greedy", "random", "greedy", "random"], **config)
    deadline = time.monotonic() + MATCH_SECONDS
    while True:
        status, summary = server.get(f"/api/tables/{table}")
        assert status == 200, summary
        if summary["over"]:
            return table
        assert time.monotonic() < deadline, "the bots did not finish the match"
        time.sleep(0.1)


def _post_raw(server: Server, body: bytes) -> tuple[int, Any]:
    request = urllib.request.Request(
        server.url.rstrip("/") + "/api/analysis",
        data=body,
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def _check_values_against_the_solver(document: dict[str, Any]) -> int:
    """Every play's value of every legal card is ``tb.solve`` of the position; returns the
    number of positions checked."""
    record = parse_record(document["replay"])
    checked = 0
    for hand, analysed in zip(record.hands, document["analysis"]["hands"], strict=True):
        state = tb.HandState(
            hand.dealer,
            deal=[list(c) for c in hand.deal],
            rules=record.rules,
            scores_before=hand.scores_before,
        )
        plays = iter(analysed["plays"])
        for number, action in enumerate(hand.actions):
            if action.kind is ActionKind.PLAY and state.phase is Phase.PLAY:
                play = next(plays)
                assert play["action"] == number and play["card"] == str(action.card)
                values = {str(tb.Card.from_index(i)): v for i, v in tb.solve(state).values.items()}
                assert play["values"] == values
                assert play["loss"] == max(values.values()) - values[play["card"]]
                checked += 1
            state.apply(str(action))
        assert next(plays, None) is None
    return checked


def test_a_finished_tables_analysis_is_replay_and_analyze_of_its_record(server: Server) -> None:
    table = _finished_table(server, rules={"target": 150})
    status, record = server.get(f"/api/tables/{table}/record")
    assert status == 200
    status, document = server.get(f"/api/tables/{table}/analysis")
    assert status == 200, document
    assert document["replay"] == replay(record)
    assert document["analysis"] == analyze(record).to_dict()
    assert _check_values_against_the_solver(document) > 0
    again = server.get(f"/api/tables/{table}/analysis")  # from the cache
    assert again == (200, document)


def test_the_analysis_waits_for_the_match_to_end(server: Server) -> None:
    table = server.create(seats=[None, "greedy", "greedy", "greedy"])
    status, refusal = server.get(f"/api/tables/{table}/analysis")
    assert status == 403 and refusal["code"] == "not_over" and refusal["rule"] == "P5.2"
    assert server.get("/api/tables/no-such-table/analysis")[0] == 404


def test_a_posted_record_is_analysed_table_mode_as_legal_play(server: Server) -> None:
    for name in ("made_plain", "table_misplay_called", "table_late_twenty"):
        source = (GOLDEN / f"{name}.json").read_bytes()
        status, document = _post_raw(server, source)
        assert status == 200, document
        assert document["analysis"] == analyze(source).to_dict()
        assert document["replay"] == replay(source)
    stopped = _post_raw(server, (GOLDEN / "table_misplay_called.json").read_bytes())[1]
    assert stopped["analysis"]["hands"][0]["stopped"] is not None  # R8.1: a misplay


def test_bad_posted_records_are_refused_clearly(server: Server) -> None:
    record = json.loads((GOLDEN / "made_plain.json").read_text())
    first_play = next(i for i, a in enumerate(record["hands"][0]["actions"]) if " play " in a)
    seat = record["hands"][0]["actions"][first_play].split()[0]
    record["hands"][0]["actions"][first_play] = f"{seat} play 6C"
    status, refusal = _post_raw(server, json.dumps(record).encode())
    assert status == 400 and refusal["code"] == "invalid" and "R5.1" in refusal["message"]
    assert _post_raw(server, b"{not json")[1]["code"] == "malformed"
    assert _post_raw(server, b"[" * 5000 + b"]" * 5000)[0] == 400
    assert _post_raw(server, b" " * (MAX_RECORD_BYTES + 1))[0] == 413
    long = {"format": "tarabish-record/1", "hands": [record["hands"][0]] * (MAX_HANDS + 1)}
    assert _post_raw(server, json.dumps(long).encode())[0] == 413
    assert server.get("/healthz")[0] == 200


def test_the_server_answers_while_a_record_is_solved(server: Server) -> None:
    source = (GOLDEN / "match_both_over_500.json").read_bytes()
    answers: list[tuple[int, Any]] = []
    solving = threading.Thread(target=lambda: answers.append(_post_raw(server, source)))
    solving.start()
    slowest = 0.0
    while solving.is_alive():
        started = time.monotonic()
        assert server.get("/healthz")[0] == 200
        slowest = max(slowest, time.monotonic() - started)
        time.sleep(0.05)
    solving.join()
    assert answers[0][0] == 200 and len(answers[0][1]["analysis"]["hands"]) > 1
    assert slowest < HEALTHZ_SECONDS


def test_watchers_are_told_the_final_summary(server: Server) -> None:
    """The summary is sent again when the match ends: its scores are the final totals and it
    says who won (the page's score line after the last hand)."""
    table = server.create(
        seats=["greedy", "greedy", "greedy", "greedy"], rules={"target": 100}, bot_seconds=0.02
    )
    with open_socket(server) as ws:
        hello(ws, {"type": "watch", "table": table, "since": 0})
        deadline = time.monotonic() + MATCH_SECONDS
        while True:
            message, _ = receive_until(ws, "table", timeout=deadline - time.monotonic())
            if message["over"]:
                break
    status, record = server.get(f"/api/tables/{table}/record")
    assert status == 200
    played = replay(record)
    assert message["scores"] == played["totals"] and message["winner"] == played["winner"]
