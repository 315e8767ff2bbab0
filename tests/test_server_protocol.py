"""``tarabish serve``: the WebSocket protocol of docs/PROTOCOL.md end to end, against the real
command in a subprocess: whole matches with bots and scripted clients, every refusal (P1-P3 and
the game rules), reconnects with a sequence number, and the leak check on every message."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator

import pytest
from serverkit import (
    Player,
    Server,
    hello,
    open_socket,
    oracle_events,
    raw_websocket,
    read_frames,
    receive,
    receive_until,
    record_actions,
    sqlite_server,
)
from tarabish.server.client import SEND_TIMEOUT
from websockets.exceptions import ConnectionClosed

TABLE_RULES = {"target": 120, "declarations": "manual", "enforce_legal_play": False}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with sqlite_server(tmp_path_factory.mktemp("server")) as running:
        yield running


def _check_against_oracle(server: Server, table: str, seed: int, players: list[Player]) -> None:
    status, record = server.request("GET", f"/api/tables/{table}/record")
    assert status == 200, record
    actions = record_actions(record)
    for player in players:
        assert player.events == oracle_events(record["rules"], seed, actions, player.seat)


def test_a_whole_match_with_bots_people_and_a_spectator(server: Server) -> None:
    seed = 11
    table = server.create(
        rules=TABLE_RULES, seats=[None, "greedy", None, "ismcts:iterations=50"], seed=seed
    )
    players = [Player(server, table, 0, seed=1), Player(server, table, 2, seed=2)]
    spectator = Player(server, table, None)
    for client in (*players, spectator):
        client.start()
    for client in (*players, spectator):
        client.finish()
    _check_against_oracle(server, table, seed, [*players, spectator])
    assert all(player.acted > 0 for player in players)
    assert not any("view" in message for message in spectator.messages)  # spectators: no hand
    assert not any(event["kind"] in ("deal", "kitty") for event in spectator.events)
    summary = server.request("GET", f"/api/tables/{table}")[1]
    assert summary["over"] and summary["winner"] in (0, 1)


def test_four_people_in_auto_mode(server: Server) -> None:
    seed = 5
    table = server.create(rules={"target": 60}, seed=seed)
    players = [Player(server, table, seat, seed=seat) for seat in range(4)]
    for player in players:
        player.start()
    for player in players:
        player.finish()
    _check_against_oracle(server, table, seed, players)


def test_reconnect_with_the_last_seq_loses_and_doubles_nothing(server: Server) -> None:
    seed = 23
    table = server.create(rules=TABLE_RULES, seats=[None, "random", "random", "random"], seed=seed)
    player = Player(server, table, 0, seed=3, drop_after=2)
    watcher = Player(server, table, None)
    player.start()
    watcher.start()
    player.finish()
    watcher.finish()
    assert player.reconnects == 0 and player.acted > 2
    hellos = [m for m in player.messages if m["type"] == "welcome"]
    assert len(hellos) == 2 and "token" in hellos[0] and "token" not in hellos[1]
    _check_against_oracle(server, table, seed, [player, watcher])


def test_a_resume_right_after_an_action_shows_that_action(server: Server) -> None:
    """An action sent just before its connection closed is taken before the seat's resume is
    served (P2.3): the resumed view never offers a turn the seat has already taken. The
    database is held locked, so that the action is still being committed when the resume
    comes."""
    table = server.create(rules=TABLE_RULES, seats=_seats_with_person(0), seed=5, first_dealer=3)
    with open_socket(server) as ws:
        welcome = hello(ws, {"type": "join", "table": table, "seat": 0})
        first, _ = receive_until(ws, "events", FAST)
        assert first["view"]["to_move"] == 0
        blocker = sqlite3.connect(server.db.removeprefix("sqlite:///"), isolation_level=None)
        blocker.execute("BEGIN IMMEDIATE")  # the server's append waits for this write lock
        ws.send(json.dumps({"type": "action", "action": "0 pass"}))
    try:
        with open_socket(server) as ws:
            since = first["events"][-1]["seq"]
            ws.send(
                json.dumps(
                    {"type": "resume", "table": table, "token": welcome["token"], "since": since}
                )
            )
            time.sleep(DATABASE_HELD)
            blocker.execute("ROLLBACK")
            resumed, _ = receive_until(ws, "events", FAST)
    finally:
        blocker.close()
    taken = resumed["events"][0]
    assert taken["seq"] > since and {"kind": "pass", "seat": 0}.items() <= taken.items()
    assert resumed["view"]["to_move"] != 0 or len(resumed["events"]) > 1


DATABASE_HELD = 0.3
"""Seconds a test holds the database's write lock (the server waits up to 5 s for it)."""


SEATS_TO_TEST = [0, 2]
"""A test of one seat's protocol runs for seat 0 and for another: seat 0 is a seat, and a
server that took it for "no seat" fails these at once."""
FAST = 5.0


def _seats_with_person(seat: int) -> list[str | None]:
    seats: list[str | None] = ["random"] * 4
    seats[seat] = None
    return seats


@pytest.mark.parametrize("seat", SEATS_TO_TEST)
def test_a_resume_sends_exactly_the_events_after_since(server: Server, seat: int) -> None:
    table = server.create(rules=TABLE_RULES, seats=_seats_with_person(seat), seed=3)
    with open_socket(server) as ws:
        welcome = hello(ws, {"type": "join", "table": table, "seat": seat})
        events, _ = receive_until(ws, "events", FAST)
    token = welcome["token"]
    seqs = [event["seq"] for event in events["events"]]
    with open_socket(server) as ws:
        hello(ws, {"type": "resume", "table": table, "token": token, "since": seqs[1]})
        resumed, _ = receive_until(ws, "events", FAST)
    assert [event["seq"] for event in resumed["events"]][: len(seqs) - 2] == seqs[2:]
    assert resumed["view"]["seat"] == seat


def _error(ws: object, message: object) -> dict[str, object]:
    ws.send(message if isinstance(message, str | bytes) else json.dumps(message))  # type: ignore[attr-defined]
    answer, _ = receive_until(ws, "error")  # type: ignore[arg-type]
    return answer


def test_malformed_messages_name_the_protocol_rule_and_change_nothing(server: Server) -> None:
    table = server.create(rules=TABLE_RULES, seed=1)
    with open_socket(server) as ws:
        assert _error(ws, "{not json")["rule"] == "P1.2"
        assert _error(ws, "[1, 2]")["rule"] == "P1.2"
        assert _error(ws, {"type": "dance"})["code"] == "malformed"
        assert _error(ws, {"type": "join", "table": table, "seat": 0, "x": 1})["rule"] == "P1.2"
        assert _error(ws, b"\x00\x01")["rule"] == "P1.1"
        assert _error(ws, {"type": "action", "action": 40})["code"] == "not_joined"
        assert _error(ws, {"type": "join", "table": table, "seat": 7})["rule"] == "P2.2"
        assert _error(ws, {"type": "watch", "table": table, "since": -1})["rule"] == "P2.4"
        assert _error(ws, {"type": "join", "table": "nope", "seat": 0})["code"] == "no_table"
        # The connection still works, and nothing above took a seat.
        welcome = hello(ws, {"type": "join", "table": table, "seat": 0})
        assert welcome["type"] == "welcome" and welcome["seat"] == 0
        assert _error(ws, {"type": "action", "action": 99})["rule"] == "P3.2"
        assert _error(ws, {"type": "action", "action": True})["rule"] == "P3.2"
        assert _error(ws, {"type": "join", "table": table, "seat": 1})["code"] == "already_joined"
    assert server.request("GET", f"/api/tables/{table}")[1]["seats"][1]["taken"] is False


def _view(ws: object) -> dict[str, object]:
    message, _ = receive_until(ws, "events")  # type: ignore[arg-type]
    return message["view"]  # type: ignore[no-any-return]


def test_wrong_seat_bad_token_and_spectators_cannot_act(server: Server) -> None:
    table = server.create(rules=TABLE_RULES, seats=[None, None, "random", "random"], seed=8)
    with open_socket(server) as seat0, open_socket(server) as seat1, open_socket(server) as spy:
        hello(seat0, {"type": "join", "table": table, "seat": 0})
        hello(seat1, {"type": "join", "table": table, "seat": 1})
        view = _view(seat1)
        assert view["to_move"] == 1  # first dealer 0: seat 1 speaks first
        hello(spy, {"type": "watch", "table": table, "since": 0})
        before = server.request("GET", f"/api/tables/{table}")[1]
        wrong = _error(seat0, {"type": "action", "action": "1 pass"})
        assert (wrong["code"], wrong["rule"]) == ("wrong_seat", "P3.2")
        # An id is taken for the token's seat: seat 0 passing out of turn is a game refusal.
        out_of_turn = _error(seat0, {"type": "action", "action": 40})
        assert out_of_turn["code"] == "illegal_action"
        assert str(out_of_turn["rule"]).startswith("R")
        assert str(out_of_turn["rule"]) in str(out_of_turn["message"])
        assert _error(spy, {"type": "action", "action": 40})["rule"] == "P3.1"
        assert server.request("GET", f"/api/tables/{table}")[1] == before
        seat1.send(json.dumps({"type": "action", "action": "1 pass"}))
        events, _ = receive_until(seat1, "events")
        assert events["events"][-1] == {
            "seq": events["events"][-1]["seq"],
            "kind": "pass",
            "seat": 1,
        }
    with open_socket(server) as ws:
        assert (
            _error(ws, {"type": "resume", "table": table, "token": "x" * 24, "since": 0})["code"]
            == "bad_token"
        )
        assert _error(ws, {"type": "join", "table": table, "seat": 0})["code"] == "seat_taken"
        assert _error(ws, {"type": "join", "table": table, "seat": 2})["code"] == "seat_taken"


@pytest.mark.parametrize("seat", SEATS_TO_TEST)
def test_illegal_plays_name_the_rule_and_change_nothing(server: Server, seat: int) -> None:
    table = server.create(
        rules={"target": 100},
        seats=_seats_with_person(seat),
        seed=4,
        first_dealer=(seat - 1) % 4,
    )
    with open_socket(server) as ws:
        hello(ws, {"type": "join", "table": table, "seat": seat})
        message, _ = receive_until(ws, "events", FAST)
        view = message["view"]
        assert view["to_move"] == seat and view["phase"] == "auction"
        card = view["hand"][0]
        refusal = _error(ws, {"type": "action", "action": f"{seat} play {card}"})
        assert refusal["code"] == "illegal_action" and str(refusal["rule"]).startswith("R")
        announce = _error(ws, {"type": "action", "action": 41})
        assert announce["rule"] == "R4.4"  # auto mode: declarations are automatic
        garbled = _error(ws, {"type": "action", "action": f"{seat} juggle"})
        assert garbled["code"] == "invalid_action"
        assert server.request("GET", f"/api/tables/{table}")[1]["to_move"] == seat
        ws.send(json.dumps({"type": "action", "action": f"{seat} call " + card[1]}))
        events, _ = receive_until(ws, "events", FAST)
        called = {"kind": "call", "seat": seat, "suit": card[1]}
        assert called.items() <= events["events"][0].items()


def test_oversized_messages_are_refused(server: Server) -> None:
    table = server.create(rules=TABLE_RULES, seed=2)
    with open_socket(server) as ws:
        big = json.dumps({"type": "watch", "table": table, "since": 0, "pad": "x" * 5000})
        assert _error(ws, big)["code"] == "too_large"
        assert hello(ws, {"type": "watch", "table": table, "since": 0})["type"] == "welcome"
        ws.send("x" * 100_000)  # over the frame limit: the connection is closed (1009)
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                receive(ws)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


def test_a_flood_is_refused_and_other_tables_play_on(server: Server) -> None:
    other = server.create(rules={"target": 60}, seats=[None, "random", "random", "random"], seed=9)
    player = Player(server, other, 0, seed=9)
    flooded = server.create(rules=TABLE_RULES, seed=10)
    with open_socket(server) as ws:
        hello(ws, {"type": "watch", "table": flooded, "since": 0})
        player.start()
        started = time.monotonic()
        flood = json.dumps({"type": "action", "action": 40})
        with pytest.raises(ConnectionClosed) as closed:
            for _ in range(2000):
                ws.send(flood)
            while True:
                receive(ws)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    player.finish(60)
    assert time.monotonic() - started < 60
    assert not player.errors


def test_a_person_who_does_not_act_is_replaced_by_a_bot_or_pauses_the_table(
    server: Server,
) -> None:
    covered = server.create(
        rules={"target": 40},
        seats=[None, "random", "random", "random"],
        seed=12,
        turn_seconds=0.05,
        timeout_bot="random",
    )
    sleeper = Player(server, covered, None)  # watches while seat 0's player never acts
    with open_socket(server) as ws:
        hello(ws, {"type": "join", "table": covered, "seat": 0})
        sleeper.start()
        sleeper.finish(60)
    paused = server.create(rules={"target": 40}, seed=13, turn_seconds=0.05)
    with open_socket(server) as ws:
        hello(ws, {"type": "join", "table": paused, "seat": 1})
        deadline = time.monotonic() + 10
        message: dict[str, object] = {}
        while message.get("paused_for") != 1 and time.monotonic() < deadline:
            message = receive(ws)
        assert message["type"] == "table" and message["paused_for"] == 1


def test_health_records_and_structured_logs(server: Server) -> None:
    status, health = server.request("GET", "/healthz")
    assert status == 200 and health["status"] == "ready"
    table = server.create(seed=1)
    status, refused = server.request("GET", f"/api/tables/{table}/record")
    assert (status, refused["rule"]) == (403, "P5.2")  # the deal is secret until the end
    status, bad = server.request("POST", "/api/tables", {"seats": ["nobot", None, None, None]})
    assert status == 400 and bad["rule"] == "P5.1"
    status, bad = server.request("POST", "/api/tables", {"rules": {"target": -1}})
    assert status == 400 and "R9" in bad["message"]
    assert server.wait_for_log("ready")["level"] == "info"
    assert server.wait_for_log("table created", table=table)["logger"] == "tarabish.server"
    assert all({"time", "level", "logger", "message"} <= set(entry) for entry in server.logs())


def test_many_tables_at_once(server: Server) -> None:
    tables = [
        server.create(rules={"target": 40}, seats=[None, "greedy", None, "random"], seed=seed)
        for seed in range(6)
    ]
    players = {t: [Player(server, t, seat, seed=seat) for seat in (0, 2)] for t in tables}
    for player in (p for pair in players.values() for p in pair):
        player.start()
    for seed, table in enumerate(tables):
        for player in players[table]:
            player.finish()
        _check_against_oracle(server, table, seed, players[table])


SLOW_RCVBUF = 1024
"""The slow client's socket receive buffer: small, so that what it does not read backs up into
the server quickly."""
SLOW_TARGET = 2000
"""A long match (about 1,000 actions, each followed by a message with the player's view, some
400 KB): twice what the buffers between the server and a client that does not read hold
(``SEND_BUFFER_BYTES``)."""
MATCH_SECONDS = 60.0
"""Ample time for a match of bots to SLOW_TARGET on a loaded machine."""


def test_a_client_that_stops_reading_never_holds_up_its_table(server: Server) -> None:
    # Seat 0's player reads nothing; each of its turns times out at once and a bot plays it.
    table = server.create(
        rules={"target": SLOW_TARGET},
        seats=[None, "random", "random", "random"],
        seed=21,
        turn_seconds=0,
        timeout_bot="random",
    )
    slow = raw_websocket(server, {"type": "join", "table": table, "seat": 0}, rcvbuf=SLOW_RCVBUF)
    watcher = Player(server, table, None)
    watcher.start()
    # P1.4: that client is disconnected once a message waited SEND_TIMEOUT for it; it is read
    # at once, before the server drops a client that takes no close frame either.
    server.wait_for_log("client too slow", timeout=MATCH_SECONDS + SEND_TIMEOUT, table=table)
    played = watcher.last_seq
    messages, code = read_frames(slow, 10.0)
    slow.close()
    events = [event for message in messages for event in message.get("events", ())]
    assert code == 4008
    # The table played on while one of its players read nothing, and finishes its match.
    assert played > events[-1]["seq"]
    watcher.finish(MATCH_SECONDS)
    # It had fallen behind, and what it did get was exactly the start of what seat 0 is told:
    # nothing lost, nothing doubled (it may resume from its last seq, P2.4).
    status, record = server.request("GET", f"/api/tables/{table}/record")
    assert status == 200, record
    told = oracle_events(record["rules"], 21, record_actions(record), 0)
    assert 0 < len(events) < len(told)
    assert events == told[: len(events)]
