#!/usr/bin/env bash
# Open the Sandtable window on a new hot-seat game (default: Dead to Rites, 4 seats). Pass other
# arguments through, e.g. `scripts/run.sh --game gauntlet`.
#
# The first run makes .venv/ and installs Sandtable into it; later runs start at once, and
# install again only when pyproject.toml changed since (a copy of it is the stamp). pip's own
# output goes to .venv/install.log, shown only if the install fails.
#
# Before anything, scripts/check_display.sh makes sure the window can open: a display, and every
# system library Qt's X11 plugin needs (it prints the apt-get line for the missing ones).
set -euo pipefail
cd "$(dirname "$0")/.."
case " $* " in
    *" -h "*|*" --help "*) ;;  # help needs no window
    *) bash scripts/check_display.sh || exit 1 ;;
esac
stamp=.venv/installed-pyproject.toml
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
if [ ! -f "$stamp" ] || ! cmp -s pyproject.toml "$stamp" || [ ! -x .venv/bin/sandtable ]; then
    echo "Installing Sandtable into .venv (first run, or pyproject.toml changed)..."
    if ! .venv/bin/python -m pip install --quiet --disable-pip-version-check -e . \
            > .venv/install.log 2>&1; then
        cat .venv/install.log >&2
        echo "The install failed (above; also in .venv/install.log)." >&2
        exit 1
    fi
    cp pyproject.toml "$stamp"
fi
exec .venv/bin/sandtable play "$@"
