#!/usr/bin/env bash
# Set up a virtualenv and open the Sandtable window on a new hot-seat game (default: Dead to Rites,
# 4 seats). Pass other arguments through, e.g. `scripts/run.sh --game gauntlet`.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e .
exec .venv/bin/sandtable play "$@"
