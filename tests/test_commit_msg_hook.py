"""The repository's ``commit-msg`` hook (.githooks/commit-msg, CONTRIBUTING.md "Commit
messages"): installed as git installs it (``core.hooksPath``) in a scratch repository, it lets
a good message through and refuses a subject over 72 characters or one not followed by a blank
line, leaving no commit behind; git's comment lines and scissors are not part of the message."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

HOOKS = Path(__file__).resolve().parent.parent / ".githooks"
MAX_SUBJECT = 72
BODY = "Why the change, and the figures it was measured by.\n"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A fresh repository with the project's hooks, one file staged, and no user or system
    configuration (so no other hook or identity gets in the way)."""
    env = scratch_env(tmp_path)
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True, env=env)
    git(tmp_path, "config", "core.hooksPath", str(HOOKS))
    (tmp_path / "file.txt").write_text("content\n")
    git(tmp_path, "add", "file.txt")
    return tmp_path


def scratch_env(home: Path) -> dict[str, str]:
    return {
        **os.environ,
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_CONFIG_NOSYSTEM": "1",
        "HOME": str(home),
        "GIT_AUTHOR_NAME": "Tester",
        "GIT_AUTHOR_EMAIL": "tester@example.org",
        "GIT_COMMITTER_NAME": "Tester",
        "GIT_COMMITTER_EMAIL": "tester@example.org",
    }


def git(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "-C", str(repo), *args],
        capture_output=True,
        text=True,
        env=scratch_env(repo),
        check=False,
    )


def commit(repo: Path, message: str) -> subprocess.CompletedProcess[str]:
    """``git commit`` with ``message`` as the edited message file (comments stripped after the
    hook, as with an editor)."""
    path = repo / "MESSAGE"
    path.write_text(message)
    return git(repo, "commit", "-q", "--cleanup=strip", "-F", str(path))


def commits(repo: Path) -> int:
    result = git(repo, "rev-list", "--count", "--all")
    return int(result.stdout or 0)


@pytest.mark.parametrize(
    "message",
    [
        "Gate the BMI2 kernel on x86-64\n\n" + BODY,
        "x" * MAX_SUBJECT + "\n\n" + BODY,
        "é" * MAX_SUBJECT + "\n",
        "Name the rule in the error\n",
        "\n# Please enter the commit message\nName the rule in the error\n\n" + BODY,
        "fixup! " + "x" * MAX_SUBJECT + "\n",
        "Name the rule\n\n" + BODY + "# ------------------------ >8 ------------------------\n"
        "a diff line with no blank line above it\n",
    ],
    ids=[
        "subject-and-body",
        "72-characters",
        "72-characters-not-bytes",
        "subject-only",
        "comments",
        "fixup",
        "scissors",
    ],
)
def test_a_good_message_is_committed(repo: Path, message: str) -> None:
    result = commit(repo, message)
    assert result.returncode == 0, result.stderr
    assert commits(repo) == 1


@pytest.mark.parametrize(
    ("message", "complaint"),
    [
        ("x" * (MAX_SUBJECT + 1) + "\n\n" + BODY, "the subject is 73 characters; at most 72"),
        ("Name the rule\n" + BODY, "the subject must be followed by a blank line"),
        ("# only a comment\n", "the message is empty"),
    ],
    ids=["73-characters", "no-blank-line", "empty"],
)
def test_a_bad_message_is_refused_and_nothing_is_committed(
    repo: Path, message: str, complaint: str
) -> None:
    result = commit(repo, message)
    assert result.returncode != 0
    assert f"commit-msg: {complaint}" in result.stderr
    assert commits(repo) == 0
