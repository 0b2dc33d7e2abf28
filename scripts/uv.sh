#!/usr/bin/env bash
# Print the path of the uv this project installs with, fetching it first when the machine
# lacks it: scripts/run.sh and scripts/test.sh install the locked dependencies (uv.lock) with it.
#
# One version of uv for everyone (UV_VERSION below): a `uv` on PATH is used only when it is
# that version; otherwise uv is installed from PyPI with pip into .venv-tools/ (a few seconds,
# once). SANDTABLE_UV names another uv binary to use as it is.
set -euo pipefail
cd "$(dirname "$0")/.."
UV_VERSION=0.13.9
if [ -n "${SANDTABLE_UV:-}" ]; then
    echo "$SANDTABLE_UV"
    exit 0
fi
for candidate in "$(command -v uv || true)" "$PWD/.venv-tools/bin/uv"; do
    if [ -n "$candidate" ] && [ -x "$candidate" ] \
            && [ "$("$candidate" --version 2>/dev/null | cut -d' ' -f2)" = "$UV_VERSION" ]; then
        echo "$candidate"
        exit 0
    fi
done
echo "Fetching uv $UV_VERSION (the installer; once, into .venv-tools/)..." >&2
rm -rf .venv-tools
python3 -m venv .venv-tools >&2
.venv-tools/bin/python -m pip install --quiet --disable-pip-version-check "uv==$UV_VERSION" >&2
echo "$PWD/.venv-tools/bin/uv"
