"""``tarabish serve``: the game server and its page (optional extra ``server``;
docs/PROTOCOL.md)."""

from __future__ import annotations

import argparse
import sys

from ..server.limits import Limits
from ..server.limits import add_flags as add_limit_flags
from . import _options
from ._command import Command

PORT_MAX = 65535


def _port(text: str) -> int:
    value = _options.whole(text)
    if not 0 <= value <= PORT_MAX:
        raise argparse.ArgumentTypeError(f"must be a port 0 to {PORT_MAX}, got {value}")
    return value


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default %(default)s)"
    )
    parser.add_argument(
        "--port", type=_port, default=8000, help="port (default %(default)s; 0: any free port)"
    )
    parser.add_argument(
        "--db",
        default=None,
        metavar="URL",
        help="sqlite:///PATH (WAL mode; default sqlite:///tarabish-server.sqlite3) or "
        "postgresql://... (several server processes share it)",
    )
    _options.add_engine_flag(
        parser, "the engine that plays the tables: rust (default) or reference"
    )
    parser.add_argument(
        "--server-id",
        default=None,
        help="this process's name in a shared database (default HOST:PORT); a restart with "
        "the same id resumes its tables",
    )
    add_limit_flags(parser.add_argument_group("limits (docs/SECURITY.md)"))


def _run(args: argparse.Namespace) -> int:
    try:
        from ..server import main as serve_main
    except ImportError as error:
        print(
            f"tarabish serve needs the server extra (pip install 'tarabish[server]'): {error}",
            file=sys.stderr,
        )
        return 2
    try:
        limits = Limits.from_args(args)
    except ValueError as error:
        args.parser.error(str(error))
    status: int = serve_main(args.host, args.port, args.db, args.engine, args.server_id, limits)
    return status


COMMAND = Command(
    name="serve",
    summary="the game server and its page (table mode over WebSockets)",
    description="Host tables that people (in the browser, at the printed address) and bots "
    "play over WebSockets (docs/PROTOCOL.md). Every accepted action is committed to the "
    "database before it is broadcast; a restart resumes every unfinished table. GET "
    "/healthz answers 200 once ready; SIGINT or SIGTERM shut down gracefully.",
    add_arguments=_add_arguments,
    run=_run,
)
