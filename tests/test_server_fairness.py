"""Fair deals, provably (docs/SECURITY.md "Deals are committed"), against a real ``tarabish
serve``: a table's seed comes from the server, its summary commits to it, and the finished
record reveals it; the commitment checks, and a fresh match from the revealed seed deals every
hand of the record (``tarabish replay --verify-fairness``); a chosen seed is a practice
table's only."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import tarabish
from serverkit import Server, sqlite_server

QUICK = {"target": 60}
BOTS = ["greedy", "random", "greedy", "random"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with sqlite_server(tmp_path_factory.mktemp("fairness")) as running:
        yield running


def _finished_record(server: Server, table: str) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while True:
        status, record = server.request("GET", f"/api/tables/{table}/record")
        if status == 200:
            return dict(record)
        assert status == 403 and time.monotonic() < deadline, record
        time.sleep(0.05)


def _verify(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tarabish", "replay", "--verify-fairness", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_summary_commits_to_the_seed_the_record_reveals(server: Server, tmp_path: Path) -> None:
    status, summary = server.request("POST", "/api/tables", {"rules": QUICK, "seats": BOTS})
    assert status == 201, summary
    committed = summary["fairness"]["commitment"]
    assert len(committed) == 64 and int(committed, 16) >= 0
    assert summary["practice"] is False and set(summary["fairness"]) == {"commitment"}
    record = _finished_record(server, summary["table"])
    revealed = record["fairness"]
    seed, salt = revealed["seed"], revealed["salt"]
    assert revealed["commitment"] == committed
    assert hashlib.sha256(f"{seed}:{salt}".encode()).hexdigest() == committed
    assert len(salt) == 32 and int(salt, 16) >= 0
    # Every deal of the record is the revealed seed's: replay the match from the seed alone.
    match = tarabish.MatchState(
        seed=seed,
        rules=tarabish.Rules.from_dict(record["rules"]),
        first_dealer=record["hands"][0]["dealer"],
    )
    for hand in record["hands"]:
        assert [" ".join(str(card) for card in cards) for cards in match.hand.deal] == hand["deal"]
        for action in hand["actions"]:
            match.apply(action)
    assert match.is_terminal
    # The record with its top-level fairness is a tarabish-record/1 that replay reads ...
    path = tmp_path / "match.json"
    path.write_text(json.dumps(record))
    replayed = subprocess.run(
        [sys.executable, "-m", "tarabish", "replay", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert replayed.returncode == 0, replayed.stderr
    assert json.loads(replayed.stdout)["winner"] in (0, 1)
    # ... and whose fairness the command verifies; a salt or a seed changed fails it.
    verified = _verify(path)
    assert verified.returncode == 0, verified.stderr
    assert "committed seed" in verified.stdout
    forged = dict(record, fairness=dict(revealed, salt="0" * 32))
    path.write_text(json.dumps(forged))
    refused = _verify(path)
    assert refused.returncode == 1 and "commitment" in refused.stderr
    other_seed = (seed + 1) % 2**64
    reseeded = {
        "seed": other_seed,
        "salt": salt,
        "commitment": hashlib.sha256(f"{other_seed}:{salt}".encode()).hexdigest(),
    }
    path.write_text(json.dumps(dict(record, fairness=reseeded)))
    refused = _verify(path)
    assert refused.returncode == 1 and "deal" in refused.stderr


def test_seeds_come_from_the_server_and_differ(server: Server) -> None:
    tables = [
        server.request("POST", "/api/tables", {"rules": QUICK, "seats": BOTS})[1] for _ in range(3)
    ]
    commitments = {table["fairness"]["commitment"] for table in tables}
    assert len(commitments) == 3
    seeds = {_finished_record(server, table["table"])["fairness"]["seed"] for table in tables}
    assert len(seeds) == 3


def test_a_chosen_seed_is_only_a_practice_tables_and_says_so(server: Server) -> None:
    status, refused = server.request("POST", "/api/tables", {"seed": 42})
    assert (status, refused["rule"]) == (400, "P5.1") and "practice" in refused["message"]
    status, practice = server.request(
        "POST", "/api/tables", {"seed": 42, "practice": True, "rules": QUICK, "seats": BOTS}
    )
    assert status == 201 and practice["practice"] is True
    listed = server.request("GET", "/api/tables?limit=200")[1]["tables"]
    assert any(t["table"] == practice["table"] and t["practice"] for t in listed)
    record = _finished_record(server, practice["table"])
    assert record["fairness"]["seed"] == 42  # committed and revealed like any other
    assert record["fairness"]["commitment"] == practice["fairness"]["commitment"]
    status, refused = server.request("POST", "/api/tables", {"practice": "yes"})
    assert status == 400 and "practice" in refused["message"]
