#!/usr/bin/env bash
# Open the Sandtable window on a new hot-seat game (default: Dead to Rites, 4 seats). Pass other
# arguments through, e.g. `scripts/run.sh --game gauntlet`.
#
# The first run makes .venv/ and installs Sandtable into it from the lock file (uv.lock: the
# exact versions, with their hashes, that the tests passed on) with uv (scripts/uv.sh fetches it
# when the machine lacks it); later runs start at once, and install again only when
# pyproject.toml or uv.lock changed since (their digest is the stamp).
#
# Where the machine has a C compiler, the fast (compiled) core is then built in the background
# while the window is open (scripts/compile_core.sh; its log is .venv/compile-core.log): the
# next start runs it. A build older than the sources is never loaded.
#
# Before anything, scripts/check_display.sh makes sure the window can open: a display, and every
# system library Qt's X11 plugin needs (it prints the apt-get line for the missing ones).
set -euo pipefail
cd "$(dirname "$0")/.."
case " $* " in
    *" -h "*|*" --help "*) ;;  # help needs no window
    *) bash scripts/check_display.sh || exit 1 ;;
esac
stamp=.venv/installed.digest
digest="$(cat pyproject.toml uv.lock | cksum)"
if [ ! -x .venv/bin/sandtable ] || [ "$(cat "$stamp" 2>/dev/null)" != "$digest" ]; then
    echo "Installing Sandtable into .venv from uv.lock (first run, or the lock changed)..."
    uv="$(bash scripts/uv.sh)"
    # --locked: the lock must match pyproject.toml (never a silent re-resolve); the Python is
    # the machine's python3 (uv never downloads one here); what it installs, each package at
    # its locked version, is shown and kept in .venv/install.log
    log="$(mktemp)"
    # --inexact: what else this .venv holds (the test tools scripts/test.sh installs) stays
    if ! UV_PYTHON_DOWNLOADS=never "$uv" sync --locked --inexact --python "$(command -v python3)" 2>&1 \
            | tee "$log"; then
        echo "The install failed (above)." >&2
        exit 1
    fi
    mv "$log" .venv/install.log
    echo "$digest" > "$stamp"
fi
if [ -z "${SANDTABLE_PURE_CORE:-}" ]; then
    # at the lowest priority: the window opening now comes first
    nohup nice -n 19 bash scripts/compile_core.sh > .venv/compile-core.log 2>&1 < /dev/null &
fi
exec .venv/bin/sandtable play "$@"
