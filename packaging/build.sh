#!/usr/bin/env bash
# Build the desktop bundle with the project's virtualenv (see packaging/build.py --help).
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-.venv/bin/python}"
[ -x "$PY" ] || PY="$(command -v python3)"
exec "$PY" packaging/build.py "$@"
