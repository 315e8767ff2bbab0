"""Who may do what at a real ``tarabish serve`` (docs/SECURITY.md): each seat's protocol for
seat 0 and for another seat (seat 0 is a seat, not "no seat", and a mistake there fails in
seconds), the browser boundary (Origin on ``/ws`` and POST, ``null`` refused, JSON only, the
page's security headers and same-origin files), ids by one rule everywhere, and bots that never
run on the event loop (a spec is checked by parsing it; a search over the cap is refused, and a
stored table's bots are clamped to the caps of the process that reloads it)."""

from __future__ import annotations

import json
import re
import time
import urllib.request
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from serverkit import ROOMY, Server, hello, open_socket, receive, receive_until
from tarabish.server.limits import Limits
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

FAST = 5.0
"""Seconds a test waits for an answer: a seat treated as "no seat" fails here, not at a time
limit."""
TABLE_RULES = {"target": 120, "declarations": "manual", "enforce_legal_play": False}
ALLOWED = "https://cards.example.org"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("trust")
    running = Server(
        f"sqlite:///{folder / 'tables.sqlite3'}", flags=(*ROOMY, "--allow-origin", ALLOWED)
    )
    try:
        yield running
    finally:
        assert running.stop() == 0


def _events(ws: Any) -> dict[str, Any]:
    message, _ = receive_until(ws, "events", FAST)
    return message


@pytest.mark.parametrize("seat", [0, 2])
def test_a_seat_is_its_own_for_seat_0_and_another(server: Server, seat: int) -> None:
    # Everyone else is a bot; the first dealer is chosen so that ``seat`` speaks first.
    seats: list[str | None] = ["random"] * 4
    seats[seat] = None
    table = server.create(rules=TABLE_RULES, seats=seats, seed=7, first_dealer=(seat - 1) % 4)
    with open_socket(server) as ws:
        welcome = hello(ws, {"type": "join", "table": table, "seat": seat})
        assert welcome["type"] == "welcome" and welcome["seat"] == seat and welcome["token"]
        view = _events(ws)["view"]  # a player, not a spectator: its view comes
        assert view["seat"] == seat and view["to_move"] == seat
        assert len(view["hand"]) == 6
        summary = server.request("GET", f"/api/tables/{table}")[1]
        assert summary["seats"][seat] == {"bot": None, "taken": True, "online": True}
        assert summary["spectators"] == 0
        other = (seat + 1) % 4
        wrong = {"type": "action", "action": f"{other} pass"}
        ws.send(json.dumps(wrong))
        refused, _ = receive_until(ws, "error", FAST)
        assert refused["code"] == "wrong_seat" and f"seat {seat}" in refused["message"]
        ws.send(json.dumps({"type": "action", "action": f"{seat} pass"}))
        acted = _events(ws)
        assert {"kind": "pass", "seat": seat}.items() <= acted["events"][0].items()
        with open_socket(server) as taken:
            again = hello(taken, {"type": "join", "table": table, "seat": seat})
            assert again["code"] == "seat_taken"
        with open_socket(server) as back:
            resumed = hello(
                back, {"type": "resume", "table": table, "token": welcome["token"], "since": 0}
            )
            assert resumed["seat"] == seat and "token" not in resumed
            assert _events(back)["view"]["seat"] == seat
        # The older connection of the seat was replaced (P2.3).
        with pytest.raises(Exception) as closed:
            while True:
                receive(ws, FAST)
        assert getattr(closed.value, "rcvd", None) is not None and closed.value.rcvd.code == 4000  # type: ignore[attr-defined]


def _refused_handshake(server: Server, origin: str) -> int:
    with pytest.raises(InvalidStatus) as refused:
        connect(server.ws_url, open_timeout=FAST, additional_headers={"Origin": origin})
    return int(refused.value.response.status_code)


def _post(server: Server, headers: dict[str, str], body: bytes = b"{}") -> tuple[int, Any]:
    return server.request_raw("POST", "/api/tables", body, headers)


def test_only_allowed_origins_reach_the_websocket_and_post(server: Server) -> None:
    table = server.create()
    own = f"http://127.0.0.1:{server.port}"
    for origin in ("https://evil.example", "null", f"http://127.0.0.1:{server.port + 1}"):
        assert _refused_handshake(server, origin) == 403
        before = server.request("GET", "/api/tables?limit=200")[1]["tables"]
        status, refused = _post(server, {"Origin": origin, "Content-Type": "application/json"})
        assert (status, refused["code"], refused["rule"]) == (403, "origin", "P6.1")
        assert server.request("GET", "/api/tables?limit=200")[1]["tables"] == before
    for origin in (own, ALLOWED):
        with connect(server.ws_url, open_timeout=FAST, additional_headers={"Origin": origin}) as ws:
            assert hello(ws, {"type": "watch", "table": table, "since": 0})["type"] == "welcome"
        status, made = _post(server, {"Origin": origin, "Content-Type": "application/json"})
        assert status == 201, made
    with open_socket(server) as ws:  # no Origin: a program, not a browser
        assert hello(ws, {"type": "watch", "table": table, "since": 0})["type"] == "welcome"
    # A form of another site cannot send JSON without asking first: text bodies are refused.
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data"):
        status, refused = _post(server, {"Content-Type": kind})
        assert (status, refused["code"]) == (415, "content_type")
    assert server.wait_for_log("origin refused")["level"] == "warning"


class _Assets(HTMLParser):
    """The scripts, styles and inline code of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.sources: list[str] = []
        self.inline: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if "style" in found or any(name.startswith("on") for name in found):
            self.inline.append(f"<{tag} {found}>")
        if tag == "script":
            self._in_script = "src" not in found
            self.sources.append(found.get("src") or "")
        elif tag == "link":
            self.sources.append(found.get("href") or "")
        elif tag == "style":
            self.inline.append("<style>")

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.inline.append(data[:40])

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False


def test_the_page_is_served_with_a_policy_its_own_files_keep(server: Server) -> None:
    with urllib.request.urlopen(server.url, timeout=FAST) as response:
        headers = response.headers
        page = response.read().decode()
    policy = headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert f"ws://127.0.0.1:{server.port}" in policy
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "no-referrer"
    assets = _Assets()
    assets.feed(page)
    assert assets.sources and not assets.inline, assets.inline
    for source in assets.sources:  # every script and style is a file of the server itself
        assert source.startswith("/") and not source.startswith("//"), source
        with urllib.request.urlopen(server.url.rstrip("/") + source, timeout=FAST) as asset:
            assert asset.status == 200
            assert asset.headers["X-Content-Type-Options"] == "nosniff"
            assert "default-src 'self'" in asset.headers["Content-Security-Policy"]
    status, _ = server.get("/api/tables")
    assert status == 200


def test_table_ids_follow_one_rule_at_creation_and_in_a_hello(server: Server) -> None:
    for bad in ("x" * 65, "tablé", "a b", "", "a/b"):
        status, refused = server.request("POST", "/api/tables", {"id": bad})
        if bad:
            assert (status, refused["rule"]) == (400, "P5.1"), (bad, refused)
        with open_socket(server) as ws:
            answer = hello(ws, {"type": "watch", "table": bad, "since": 0})
            assert (answer["code"], answer["rule"]) == ("malformed", "P2.1")
    longest = "A-z_9" + "x" * 59
    assert server.create(id=longest) == longest
    with open_socket(server) as ws:
        assert hello(ws, {"type": "watch", "table": longest, "since": 0})["type"] == "welcome"
    assert server.get("/api/tables/" + "y" * 65)[0] == 404
    # The page's addresses take the same ids (its routes, JavaScript regular expressions
    # without the u flag: \w is ASCII there as with re.ASCII here).
    with urllib.request.urlopen(server.url.rstrip("/") + "/static/main.js", timeout=FAST) as js:
        source = js.read().decode()
    for name in ("TABLE_ROUTE", "REPLAY_ROUTE"):
        found = re.search(name + r" = /(.+)/;", source)
        assert found is not None, name
        route = re.compile(found.group(1).replace("\\/", "/"), re.ASCII)
        prefix = "#/table/" if name == "TABLE_ROUTE" else "#/replay/"
        assert route.match(prefix + longest)
        for bad in ("x" * 65, "tablé", "a b"):
            assert not route.match(prefix + bad), (name, bad)


def test_a_bot_spec_is_checked_without_running_it_and_capped(server: Server) -> None:
    cap = Limits().max_bot_millis
    for spec, flag in (
        (f"ismcts:millis={cap + 1},bid=0", "--max-bot-millis"),
        ("ismcts:millis=3600000", "--max-bot-millis"),
        ("ismcts:iterations=100000000", "--max-bot-iterations"),
        ("ismcts:threads=8,iterations=100", "--max-bot-threads"),
        ("pimc:worlds=10000", "--max-bot-worlds"),
    ):
        started = time.monotonic()
        status, refused = server.request("POST", "/api/tables", {"seats": [None, spec, None, None]})
        assert time.monotonic() - started < FAST
        assert (status, refused["rule"]) == (400, "P5.1") and flag in refused["message"], refused
        status, refused = server.request("POST", "/api/tables", {"timeout_bot": spec})
        assert status == 400 and flag in refused["message"]
    status, refused = server.request("POST", "/api/tables", {"seats": ["ismcts:speed=9"] * 4})
    assert status == 400 and "speed" in refused["message"]
    # At the cap: taken, and while four such searches think the event loop answers at once.
    searching = f"ismcts:millis={cap},bid=0"
    table = server.create(rules=TABLE_RULES, seats=[searching] * 4)
    slowest = 0.0
    deadline = time.monotonic() + 3 * cap / 1000
    while time.monotonic() < deadline:
        started = time.monotonic()
        assert server.get("/healthz")[0] == 200
        slowest = max(slowest, time.monotonic() - started)
        time.sleep(0.05)
    assert slowest < 0.5, f"/healthz took {slowest:.2f} s while bots searched"
    assert re.fullmatch(r"[A-Za-z0-9_-]+", table)


def test_a_stored_table_s_bots_are_clamped_to_the_caps_after_a_restart(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'tables.sqlite3'}"
    searches = ["ismcts:millis=1500,bid=0", "pimc:worlds=20", "greedy"]
    before = Server(db)
    try:
        # Seat 0, a person, speaks first: no bot thinks before the restart.
        table = before.create(
            rules=TABLE_RULES, seats=[None, *searches], first_dealer=3, timeout_bot="ismcts"
        )
        with open_socket(before) as ws:
            assert hello(ws, {"type": "join", "table": table, "seat": 0})["seat"] == 0
    finally:
        assert before.stop() == 0
    lower = ("--max-bot-millis", "100", "--max-bot-worlds", "5", "--max-bot-iterations", "500")
    after = Server(db, flags=(*ROOMY, *lower))
    try:
        summary = after.request("GET", f"/api/tables/{table}")[1]
        ismcts, pimc, greedy = (seat["bot"] for seat in summary["seats"][1:])
        assert "millis=100" in ismcts and "bid=0" in ismcts and "millis=1500" not in ismcts
        assert (pimc, greedy) == ("pimc:worlds=5", "greedy")
        assert "iterations=500," in summary["timeout_bot"]
        clamped = [e for e in after.logs() if e["message"] == "bot spec clamped to the caps"]
        assert sorted((e["table"], e["stored"].split(":")[0]) for e in clamped) == [
            (table, "ismcts"),
            (table, "ismcts"),
            (table, "pimc"),
        ]
        assert all(e["level"] == "warning" for e in clamped)
        # A table created now over the cap is still refused, not clamped.
        status, refused = after.request("POST", "/api/tables", {"seats": [None, *searches]})
        assert status == 400 and "--max-bot-millis" in refused["message"]
    finally:
        assert after.stop() == 0
