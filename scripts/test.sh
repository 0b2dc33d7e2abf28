#!/usr/bin/env bash
# Set up a virtualenv with the test extras; check the layers (import-linter), the code (ruff,
# mypy); run the whole test suite, the network fault tests, and the core, protocol and netplay
# suites on every other Python the machine has (below).
#
# Where network namespaces can be made (root, `ip netns`), the suite runs in 3 parallel workers,
# each in a namespace of its own (scripts/netns_python.sh): the tests mostly wait on sockets and
# processes, and each worker's loopback keeps its LAN tables apart from the others'. A test
# file's tests run in one worker (--dist=loadfile): a module-scoped fixture (the report
# corpus, the wheel) is built once. Elsewhere, or with SANDTABLE_TEST_SERIAL=1, it runs in one
# process.
set -euo pipefail
cd "$(dirname "$0")/.."
# Every virtualenv here is installed from the lock (uv.lock: the exact versions, with hashes)
# by uv (scripts/uv.sh fetches the pinned uv when the machine lacks it); never a Python download.
uv="$(bash scripts/uv.sh)"
export UV_PYTHON_DOWNLOADS=never
"$uv" sync --locked --extra test --python "$(command -v python3)"
# The same install scripts/run.sh makes (and more): its stamp, so that the real-window test,
# which starts the program through run.sh, does not install it again.
cat pyproject.toml uv.lock | cksum > .venv/installed.digest
export QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}"
# The suite tests the sources as they are (run.sh builds no compiled core in the background
# here); the compiled core is tested below, from the wheel.
export SANDTABLE_PURE_CORE=1
# The tests start many Python processes (peers, the CLI, the bundle's build): with bytecode
# caches each compiles the project's modules once, not every time (about a quarter of the
# suite's CPU time where the environment turns the caches off).
unset PYTHONDONTWRITEBYTECODE
# The wheel, as a user's install gets it: with a C compiler it carries the core compiled by
# mypyc (packaging/sandtable_backend.py). Built once, beside the checks below: the wheel tests
# install it, the bundle's build takes its compiled core, and the compiled-core stage (after
# the suite) runs the core's suites on it.
wheel_dir="$PWD/build/wheel"
rm -rf "$wheel_dir" && mkdir -p "$wheel_dir"
(env -u SANDTABLE_PURE_CORE "$uv" build --wheel --no-build-isolation --python .venv/bin/python \
    -o "$wheel_dir" . > "$wheel_dir/build.log" 2>&1) &
wheel_build=$!
.venv/bin/lint-imports
.venv/bin/ruff check table netplay assist tests
.venv/bin/mypy table netplay assist
workers=()
if [ -z "${SANDTABLE_TEST_SERIAL:-}" ] && [ "$(id -u)" = 0 ] && command -v ip >/dev/null \
        && ip netns add sandtable-probe-$$ 2>/dev/null; then
    ip netns del sandtable-probe-$$
    workers=(--dist=loadfile --tx "3*popen//python=$PWD/scripts/netns_python.sh")
fi
# The network fault tests: peers in network namespaces (root, `ip netns`; skipped without),
# on a LAN and across NATs (iptables). They mostly wait (a home cut for 60 s, a peer killed and
# restarted), so they run beside the suite, not after it; their output follows the suite's.
faults_log=.venv/faults.log
.venv/bin/python -m pytest -q -m faults tests/e2e/test_lan_faults.py \
    tests/e2e/test_internet_faults.py >"$faults_log" 2>&1 &
faults=$!
trap 'kill "$faults" 2>/dev/null || true' EXIT
if ! wait "$wheel_build"; then
    cat "$wheel_dir/build.log"
    echo "the wheel did not build (above)" >&2
    exit 1
fi
SANDTABLE_TEST_WHEEL="$(ls "$wheel_dir"/sandtable-*.whl)"
export SANDTABLE_TEST_WHEEL
.venv/bin/python -m pytest -q "${workers[@]}" "$@"

# The compiled core, from the wheel built above (mypyc): the core, games, fairness and dataset
# suites again, on a copy of this checkout holding the wheel's compiled core (its processes too,
# through PYTHONPATH), so the fold users run is shown to be the same fold.
compiled_copy="$PWD/build/compiled-core"
rm -rf "$compiled_copy" && mkdir -p "$compiled_copy"
git ls-files -z --cached --others --exclude-standard \
    | tar --null --ignore-failed-read -T - -cf - 2>/dev/null | tar -xf - -C "$compiled_copy"
if .venv/bin/python packaging/compile_core.py --from-wheel "$SANDTABLE_TEST_WHEEL" \
        --into "$compiled_copy"; then
    (
        cd "$compiled_copy"
        python="$OLDPWD/.venv/bin/python"
        export PYTHONPATH="$compiled_copy"
        "$python" -c 'from table.core.native import compiled; assert compiled()'
        SANDTABLE_PYTHON="$python" "$python" -m pytest -q -p no:cacheprovider "${workers[@]}" \
            tests/core tests/games tests/fairness tests/designer/test_dataset.py \
            tests/designer/test_report_queries.py
    )
else
    echo "the compiled core: the wheel was built without it (no C compiler here); skipped"
fi

# Every other Python the README promises (3.12, 3.13) that this machine has, from pyenv or
# PATH: a virtualenv of its own (.venv-3.12, ...). 3.13 runs the core, games, fairness and
# netplay suites, sockets included (where a 3.13-only failure was once seen); 3.12 their
# socket-free part (the protocol fed bytes). The UI, the CLI's processes and the fault tests
# run on the first Python above only, to keep the whole run short. A Python the machine lacks
# is skipped with one line.
other_python() {  # the interpreter for version $1, or nothing
    # pyenv's own build first: its shim on PATH runs only where that version is selected
    local candidate
    for candidate in $(ls -d "${PYENV_ROOT:-$HOME/.pyenv}/versions/$1".*/bin/python 2>/dev/null \
            | sort -V -r) $(command -v "python$1" 2>/dev/null || true); do
        if "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
            echo "$candidate"
            return 0
        fi
    done
    return 1
}
for version in 3.12 3.13; do
    python="$(other_python "$version" || true)"
    if [ -z "$python" ]; then
        echo "Python $version: not on this machine (pyenv or python$version on PATH); skipped"
        continue
    fi
    venv=".venv-$version"
    echo "Python $version ($python): $venv"
    UV_PROJECT_ENVIRONMENT="$venv" "$uv" sync --locked --extra test --python "$python"
    select=()
    [ "$version" = 3.12 ] && select=(-m "not socket and not processes")
    SANDTABLE_PYTHON="$PWD/$venv/bin/python" "$venv/bin/python" -m pytest -q "${workers[@]}" \
        "${select[@]}" tests/core tests/games tests/fairness tests/netplay
done

echo "The network fault tests (run beside the suite):"
faults_status=0
wait "$faults" || faults_status=$?
trap - EXIT
cat "$faults_log"
exit "$faults_status"
