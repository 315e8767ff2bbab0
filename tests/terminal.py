"""Run the ``tarabish`` command in a child process, as a user does: with pipes
(``run_tarabish``), or on a pseudo-terminal (``run_in_terminal``), where alone the screen of
``tarabish play`` and the progress bar of ``tarabish simulate`` are drawn."""

from __future__ import annotations

import os
import re
import select
import struct
import subprocess
import sys
import termios
import time
from fcntl import ioctl

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
"""Terminal control sequences (colours, cursor moves, clearing): strip them to read the text."""

TARABISH = (sys.executable, "-m", "tarabish")
"""The ``tarabish`` command of the Python that runs the tests."""


def run_tarabish(
    *args: str, stdin: str = "", timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m tarabish ARGS`` with ``stdin`` as its standard input; its output and
    exit status are returned, whatever the status."""
    return subprocess.run(
        [*TARABISH, *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def run_in_terminal(
    args: list[str],
    prompt: str | None = None,
    answers: tuple[str, ...] = (),
    default: str = "",
    columns: int = 100,
    other_prompts: dict[str, tuple[tuple[str, ...], str]] | None = None,
) -> str:
    """Run ``python -m tarabish ARGS`` on a ``columns`` x 40 pseudo-terminal (standard input,
    output and error); each time ``prompt`` appears, answer it with the next of ``answers``
    (then ``default``), and each of ``other_prompts`` (prompt: (answers, default)) likewise.
    Returns everything the terminal received; fails unless the exit status is 0."""
    replies = {
        **({prompt: (answers, default)} if prompt is not None else {}),
        **(other_prompts or {}),
    }
    answered = dict.fromkeys(replies, 0)
    master, slave = os.openpty()
    ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": str(columns), "LINES": "40"}
    for name in ("NO_COLOR", "TERM_PROGRAM", "CI"):
        env.pop(name, None)
    process = subprocess.Popen(
        [*TARABISH, *args],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        close_fds=True,
    )
    os.close(slave)
    received = b""
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 5)
            if not ready:
                if process.poll() is not None:
                    break
                continue
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not chunk:
                break
            received += chunk
            screen = ANSI.sub("", received.decode(errors="replace"))
            for asked, (given, otherwise) in replies.items():
                if screen.count(asked) > answered[asked]:
                    done = answered[asked]
                    answer = given[done] if done < len(given) else otherwise
                    os.write(master, answer.encode() + b"\n")
                    answered[asked] += 1
        assert process.wait(timeout=30) == 0
    finally:
        if process.poll() is None:
            process.kill()
        os.close(master)
    return received.decode(errors="replace")
