#!/usr/bin/env bash
# Build the fast (compiled) core into this checkout for .venv's Python, where it is missing or
# older than the sources and the machine has a C compiler; do nothing otherwise. scripts/run.sh
# starts it in the background, so the first window never waits for it (a build takes a minute
# or two on two cores); the next start runs the compiled core.
#
# mypyc comes from mypy at the version uv.lock pins, in a throwaway environment (uv run --with):
# nothing is added to .venv.
set -euo pipefail
cd "$(dirname "$0")/.."
python=.venv/bin/python
if ! command -v cc >/dev/null && ! command -v gcc >/dev/null; then
    echo "no C compiler (cc or gcc): the core runs as Python"
    exit 0
fi
if "$python" packaging/compile_core.py --check; then
    exit 0  # built, and current
fi
mypy_version="$(awk '/^name = "mypy"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' uv.lock)"
uv="$(bash scripts/uv.sh)"
UV_PYTHON_DOWNLOADS=never "$uv" run --no-project --python "$python" \
    --with "mypy==$mypy_version" --with "setuptools>=77" \
    python packaging/compile_core.py
