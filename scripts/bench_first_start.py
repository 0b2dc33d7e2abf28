#!/usr/bin/env python3
"""From a fresh clone to the first window: the locked uv install (scripts/run.sh) against the
plain pip install it replaced, measured in one run on the same machine.

    python3 scripts/bench_first_start.py [--runs N] [--warm]

Each path starts from a fresh clone of this checkout's HEAD, with empty download caches of its
own (as on a new machine; --warm keeps each installer's cache between its runs and reports the
last run, as on a second clone), and ends when the Sandtable window is on an X screen (an Xvfb
of its own, found with xdotool). The pip path is what scripts/run.sh did before the lock:
`python3 -m venv .venv`, `pip install -e .`, `sandtable play`. The uv path is scripts/run.sh
itself, fetching uv first when the machine lacks it (it does here: the bootstrap is counted).
Both reach PyPI only (the machine's pip configuration is set aside).

Needs Xvfb, xdotool and git. The last line is JSON: both times and `uv_vs_pip` (the target is
<= 0.33, a third of the pip path's time).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
WINDOW_DEADLINE_S = 600


def start_xvfb() -> tuple[subprocess.Popen[bytes], str]:
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", "1", "-screen", "0", "1366x768x24",
                             "-nolisten", "tcp"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL)
    assert xvfb.stdout is not None
    number = xvfb.stdout.readline().decode().strip()
    return xvfb, f":{number}"


def window_is_up(env: dict[str, str]) -> bool:
    found = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "Sandtable"],
                           env=env, capture_output=True, text=True)
    return bool(found.stdout.split())


def first_window(command: list[str], cwd: Path, env: dict[str, str]) -> float:
    """Seconds from running `command` (install included) to the window on screen."""
    start = time.perf_counter()
    with open(cwd / "bench-output.log", "wb") as log:
        app = subprocess.Popen(command, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT,
                               start_new_session=True)
        try:
            while not window_is_up(env):
                if app.poll() is not None:
                    raise RuntimeError(f"{command} ended ({app.returncode}) before a window: "
                                       f"see {cwd / 'bench-output.log'}")
                if time.perf_counter() - start > WINDOW_DEADLINE_S:
                    raise RuntimeError(f"no window after {WINDOW_DEADLINE_S} s")
                time.sleep(0.05)
            return time.perf_counter() - start
        finally:
            os.killpg(app.pid, 9)  # the app and anything it started (the core's build)
            app.wait()


def fresh_clone(root: Path, name: str) -> Path:
    target = root / name
    shutil.rmtree(target, ignore_errors=True)
    subprocess.run(["git", "clone", "--quiet", str(REPO), str(target)], check=True)
    return target


PIP_PATH = ("python3 -m venv .venv && .venv/bin/python -m pip install --quiet "
            "--disable-pip-version-check -e . && exec .venv/bin/sandtable play")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 scripts/bench_first_start.py")
    parser.add_argument("--runs", type=int, default=1, help="runs of each path, taken in turns")
    parser.add_argument("--warm", action="store_true",
                        help="keep each installer's download cache between its runs")
    args = parser.parse_args(argv)
    for tool in ("Xvfb", "xdotool", "git"):
        if shutil.which(tool) is None:
            print(f"needs {tool}", file=sys.stderr)
            return 2
    xvfb, display = start_xvfb()
    times: dict[str, list[float]] = {"pip": [], "uv": []}
    try:
        with tempfile.TemporaryDirectory(prefix="sandtable-first-start-") as tmp:
            root = Path(tmp)
            for run in range(args.runs):
                for path in ("pip", "uv"):
                    cache = root / f"cache-{path}"
                    if not args.warm:
                        shutil.rmtree(cache, ignore_errors=True)
                    clone = fresh_clone(root, f"clone-{path}")
                    # both installers reach PyPI alone: no pip configuration of this machine's
                    # (a local wheel folder would favour pip)
                    env = {k: v for k, v in os.environ.items()
                           if k not in ("VIRTUAL_ENV", "PYTHONPATH", "SANDTABLE_UV")
                           and not k.startswith(("PIP_", "UV_"))}
                    env["PIP_CONFIG_FILE"] = os.devnull
                    env.update(DISPLAY=display, QT_QPA_PLATFORM="xcb",
                               SANDTABLE_HOME=str(root / f"home-{path}"),
                               PIP_CACHE_DIR=str(cache / "pip"), UV_CACHE_DIR=str(cache / "uv"))
                    # no uv on PATH: the new path fetches its pinned uv, as on a new machine
                    env["PATH"] = os.pathsep.join(
                        p for p in env.get("PATH", "").split(os.pathsep)
                        if not (Path(p) / "uv").exists())
                    command = (["bash", "-c", PIP_PATH] if path == "pip"
                               else ["bash", "scripts/run.sh"])
                    seconds = first_window(command, clone, env)
                    times[path].append(seconds)
                    print(f"run {run + 1}, {path}: first window after {seconds:.1f} s",
                          flush=True)
    finally:
        xvfb.kill()
        xvfb.wait()
    pick = (lambda xs: xs[-1]) if args.warm else min
    pip_s, uv_s = pick(times["pip"]), pick(times["uv"])
    print(json.dumps({"bench": "first_start", "cache": "warm" if args.warm else "cold",
                      "runs": args.runs, "pip_first_window_s": round(pip_s, 2),
                      "uv_first_window_s": round(uv_s, 2),
                      "uv_vs_pip": round(uv_s / pip_s, 3)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
