#!/usr/bin/env bash
# Set up a virtualenv with the test extras; check the layers (import-linter), the code (ruff,
# mypy); run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e ".[test]"
export QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}"
.venv/bin/lint-imports
.venv/bin/ruff check table netplay assist tests
.venv/bin/mypy table netplay assist
.venv/bin/python -m pytest -q "$@"
# The network fault tests: peers in network namespaces (root, `ip netns`; skipped without)
.venv/bin/python -m pytest -q -m faults tests/e2e/test_lan_faults.py
