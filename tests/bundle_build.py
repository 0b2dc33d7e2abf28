"""The desktop bundle's build for the packaging tests, started as the test run starts.

Building the bundle (packaging/build.py: PyInstaller analysing every import) keeps one core
busy for about 20 s. Started by the run's first process (the controller when the tests run in
parallel workers) before any test, it overlaps the tests that wait on sockets and processes,
and it happens once: every worker's ``bundle`` fixture waits for the same build instead of
each worker that draws a bundle test building a bundle of its own.
"""
from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
BUNDLE_TESTS = REPO / "tests" / "packaging" / "test_bundle.py"
# Test a bundle built earlier instead of building one: SANDTABLE_TEST_BUNDLE=dist/sandtable
REUSE_VAR = "SANDTABLE_TEST_BUNDLE"
STARTED_VAR = "SANDTABLE_TEST_BUNDLE_BUILD"  # the folder of the build this run started
EXIT_FILE = "exit-code"  # written when the build ends
LOG_FILE = "build.log"

_running: subprocess.Popen[bytes] | None = None


def command(root: Path) -> list[str]:
    """packaging/build.py, building into ``root`` (dist/, work/, build-info.json). Its core: the
    compiled one of the wheel scripts/test.sh built (SANDTABLE_TEST_WHEEL), as users get it;
    without that wheel, the sources (compiling the core here would take a minute or two more)."""
    core = (["--core-wheel", os.environ["SANDTABLE_TEST_WHEEL"]]
            if os.environ.get("SANDTABLE_TEST_WHEEL") else ["--core", "python"])
    return [sys.executable, str(REPO / "packaging" / "build.py"), "--dist", str(root / "dist"),
            "--work", str(root / "work"), "--info", str(root / "build-info.json"), *core]


def wanted(config: Any) -> bool:
    """Whether this run will run the bundle tests (by its paths and its ``-m``); a ``-k``
    that leaves them out only costs the build."""
    if os.environ.get(REUSE_VAR) or os.environ.get(STARTED_VAR):
        return False  # an existing bundle is tested, or a build is already under way
    if config.option.collectonly or importlib.util.find_spec("PyInstaller") is None:
        return False
    markexpr = config.option.markexpr or ""
    if markexpr:
        try:
            from _pytest.mark.expression import Expression

            def only_slow(name: str, /, **_kw: str | int | bool | None) -> bool:
                return name == "slow"  # the bundle tests' one mark

            if not Expression.compile(markexpr).evaluate(only_slow):
                return False
        except Exception:  # an expression this pytest reads differently: build anyway
            pass
    here = Path(config.invocation_params.dir)
    for arg in config.args:
        path = (here / str(arg).split("::", 1)[0]).resolve()
        if path == BUNDLE_TESTS or path in BUNDLE_TESTS.parents:
            return True
    return False


def start() -> None:
    """Start the build in the background; its folder goes to the workers in STARTED_VAR."""
    global _running
    root = Path(tempfile.mkdtemp(prefix="sandtable-bundle-"))
    with open(root / LOG_FILE, "wb") as log:  # the build writes to its own copy of the file
        _running = subprocess.Popen(command(root), cwd=REPO, stdout=log, stderr=subprocess.STDOUT)
    os.environ[STARTED_VAR] = str(root)

    def record_exit(proc: subprocess.Popen[bytes]) -> None:
        code = proc.wait()
        (root / EXIT_FILE).write_text(str(code))

    threading.Thread(target=record_exit, args=(_running,), daemon=True).start()


def wait(root: Path, timeout: float = 900) -> tuple[int, str]:
    """Wait for the build started in ``root``: its exit code and the end of its output."""
    deadline = time.monotonic() + timeout
    while not (root / EXIT_FILE).is_file():
        if time.monotonic() > deadline:
            return -1, f"the bundle build in {root} did not end within {timeout:.0f} s"
        time.sleep(0.2)
    output = (root / LOG_FILE).read_text(errors="replace")
    return int((root / EXIT_FILE).read_text()), output[-8000:]


def finish() -> None:
    """At the end of the run: stop a build still going, and remove its folder."""
    started = os.environ.pop(STARTED_VAR, None)
    if _running is not None and _running.poll() is None:
        _running.kill()
        _running.wait()
    if started:
        shutil.rmtree(started, ignore_errors=True)
