"""The display names of a table (docs/PROTOCOL.md P5.4) against a real ``tarabish serve``:
only the holder of a seat's token names that seat, everyone reads the names, and a bad
request (wrong token, a name too long or with control characters, a body too large, no such
table) is refused with a clear error and changes nothing."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from serverkit import Server, hello, open_socket, sqlite_server
from tarabish.server.names import MAX_BODY_BYTES, MAX_NAME


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with sqlite_server(tmp_path_factory.mktemp("names")) as running:
        yield running


def _post(server: Server, table: str, body: bytes) -> tuple[int, Any]:
    request = urllib.request.Request(
        f"{server.url.rstrip('/')}/api/tables/{table}/names",
        data=body,
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def _name(server: Server, table: str, token: Any, name: Any) -> tuple[int, Any]:
    return _post(server, table, json.dumps({"token": token, "name": name}).encode())


def test_a_seat_is_named_by_its_token_and_read_by_all(server: Server) -> None:
    table = server.create(seats=[None, "greedy", None, "greedy"])
    assert server.get(f"/api/tables/{table}/names") == (200, {"names": [None] * 4})
    with open_socket(server) as first, open_socket(server) as second:
        token = hello(first, {"type": "join", "table": table, "seat": 0})["token"]
        other = hello(second, {"type": "join", "table": table, "seat": 2})["token"]
        assert _name(server, table, token, "  Robin   Hood ") == (
            200,
            {"names": ["Robin Hood", None, None, None]},
        )
        assert _name(server, table, other, "Sam")[0] == 200
        assert _name(server, table, token, "Robin")[0] == 200  # a seat may change its name
        named = {"names": ["Robin", None, "Sam", None]}
        assert server.get(f"/api/tables/{table}/names") == (200, named)

        refusals = [
            (_name(server, table, "not-a-token", "Eve"), 403, "bad_token"),
            (_name(server, table, None, "Eve"), 403, "bad_token"),
            (_name(server, table, token, "x" * (MAX_NAME + 1)), 400, "malformed"),
            (_name(server, table, token, "  "), 400, "malformed"),
            (_name(server, table, token, "Eve\u0000"), 400, "malformed"),
            (_name(server, table, token, 42), 400, "malformed"),
            (_post(server, table, b"{not json"), 400, "malformed"),
            (_post(server, table, b"[" * 500 + b"]" * 500), 400, "malformed"),
            (_post(server, table, b" " * (MAX_BODY_BYTES + 1)), 413, "too_large"),
            (_name(server, "no-such-table", token, "Eve"), 404, "no_table"),
        ]
        for (status, answer), expected_status, code in refusals:
            assert (status, answer["code"]) == (expected_status, code), answer
        assert server.get(f"/api/tables/{table}/names") == (200, named)
