#!/usr/bin/env bash
# Installs a built wheel or sdist ($1) in a fresh virtual environment and smoke-tests it: the
# command's version line, every golden record replayed and checked against its stored results,
# and the probe (tests/crossprobe.py: simulate, bot decisions, the solver, sampled worlds),
# whose JSON is the one line written to standard output (the release workflow compares the
# platforms' probes; tests/test_packaging.py compares the sdist's with the installed build's).
set -euo pipefail
cd "$(dirname "$0")/.."

artifact=$1
python=${PYTHON:-$(command -v python3 || command -v python)}
venv=$(mktemp -d)/venv
"$python" -m venv "$venv"
bin=$venv/bin
[ -d "$venv/Scripts" ] && bin=$venv/Scripts # Windows
"$bin/python" -m pip install --quiet --disable-pip-version-check "$artifact" >&2
"$bin/tarabish" --version >&2
(cd tests/golden && "$bin/tarabish" replay --check ./*.json >&2)
# Run from tests/, so that the installed package is imported, not the checkout's python/.
"$bin/python" tests/crossprobe.py
