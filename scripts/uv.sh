#!/usr/bin/env bash
# Print the path of the uv this project installs with, fetching it first when the machine
# lacks it: scripts/run.sh and scripts/test.sh install the locked dependencies (uv.lock) with it.
#
# One version of uv for everyone (VERSION in scripts/fetch_uv.py): a `uv` on PATH is used only
# when it is that version; otherwise scripts/fetch_uv.py puts it in .venv-tools/bin (its wheel
# from PyPI, checked against a pinned hash; about a second, once), or, on a platform it has no
# hash for, pip installs it into .venv-tools. SANDTABLE_UV names another uv to use as it is.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${SANDTABLE_UV:-}" ]; then
    echo "$SANDTABLE_UV"
    exit 0
fi
UV_VERSION="$(sed -n 's/^VERSION = "\(.*\)"$/\1/p' scripts/fetch_uv.py)"
for candidate in "$(command -v uv || true)" "$PWD/.venv-tools/bin/uv"; do
    if [ -n "$candidate" ] && [ -x "$candidate" ] \
            && [ "$("$candidate" --version 2>/dev/null | cut -d' ' -f2)" = "$UV_VERSION" ]; then
        echo "$candidate"
        exit 0
    fi
done
echo "Fetching uv $UV_VERSION (the installer; once, into .venv-tools/)..." >&2
status=0
python3 scripts/fetch_uv.py >&2 || status=$?
if [ "$status" = 3 ]; then  # no pinned wheel for this platform: pip picks one
    rm -rf .venv-tools
    python3 -m venv .venv-tools >&2
    .venv-tools/bin/python -m pip install --quiet --disable-pip-version-check \
        "uv==$UV_VERSION" >&2
elif [ "$status" != 0 ]; then
    exit "$status"
fi
echo "$PWD/.venv-tools/bin/uv"
