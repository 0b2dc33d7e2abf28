"""`sandtable bench replay`: a long log read back: the replay, the replay window opened at its
end, and a seek to its middle, each beside the floor measured in the same run.

The log (500,000 ops by default) is the `bench core` table's: 600 objects, four concurrent
authors. Each measurement runs in a fresh process, so what it keeps resident is its own:
- the replay: `Replica.from_log`; its floor, timed in the same process just before and after
  it (the faster kept), reads the file, checks each frame's CRC and decodes it
  (`table.bench.core.replay_floor`);
- opening the replay window at the end of the log (`open_replay`: the replay, then the window)
  over the replay alone timed just before it in the same process: `open_replay_ratio`;
- resident memory the replay and the open window add, per op: `replay_rss_bytes_per_op`,
  `window_rss_bytes_per_op`;
- the window's seek from the end to the middle (half the log taken back, the scene redrawn):
  `seek_middle_s`; the core's share alone (the replay's cursor, no scene): `seek_core_s`.
"""
from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from table.core.logfile import LogWriter, make_header
from table.core.native import compiled

from .core import generate, replay_floor


def write_log(path: Path, count: int) -> int:
    """The bench table's log with `count` ops after its setup; returns how many ops it holds."""
    ops = sorted(generate(count), key=lambda op: op.key)
    writer = LogWriter(path, make_header("bench", "reader"))
    for op in ops:
        writer.append(op.to_wire())
    writer.close()
    return len(ops)


def resident_bytes() -> int:
    """This process's resident memory now (Linux: /proc/self/statm)."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _measure_replay(path: Path) -> dict[str, Any]:
    from table.core.gc_tuning import tune_gc
    from table.core.replica import Replica

    tune_gc()
    gc.collect()
    floor = _floor_seconds(path)  # the floor beside the replay, before and after it
    before = resident_bytes()
    start = time.perf_counter()
    replica = Replica.from_log(path)
    seconds = time.perf_counter() - start
    gc.collect()
    rss = resident_bytes() - before
    floor = min(floor, _floor_seconds(path))
    state_hash, ops = replica.public_state_hash(), len(replica.records())
    # the core's share of a seek (no scene to redraw): the replay's cursor, end to middle
    from table.core.seek import ReplayReplica

    cursor = ReplayReplica(replica, take_fold=True)
    start = time.perf_counter()
    cursor.seek(ops // 2)
    seek = time.perf_counter() - start
    return {"seconds": seconds, "rss": rss, "floor_s": floor, "ops": ops, "hash": state_hash,
            "seek_s": seek}


def _floor_seconds(path: Path) -> float:
    start = time.perf_counter()
    replay_floor(path)
    return time.perf_counter() - start


def _measure_window(path: Path) -> dict[str, Any]:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from table.core.gc_tuning import tune_gc
    from table.core.replica import Replica
    from table.ui import games, scene  # noqa: F401 - loaded before the clock: the
    from table.ui.replay import window as _window  # noqa: F401 - replay's code is loaded too
    from table.ui.replay.run import open_replay

    tune_gc()
    app = QApplication.instance() or QApplication(["sandtable-bench"])
    gc.collect()
    before = resident_bytes()
    # the replay alone first, in this process: the ratio compares two runs on one machine state
    # (the freed replay's memory is what the window's own replay reuses, so RSS is not doubled)
    start = time.perf_counter()
    Replica.from_log(path)
    replay = time.perf_counter() - start
    gc.collect()
    start = time.perf_counter()
    window = open_replay(path)
    app.processEvents()
    seconds = time.perf_counter() - start
    gc.collect()
    rss = resident_bytes() - before
    total = window.position
    start = time.perf_counter()
    window.seek(total // 2)
    app.processEvents()
    seek = time.perf_counter() - start
    state_hash = window.replica.public_state_hash()
    window.seek(total)
    at_end = window.replica.public_state_hash()
    window.shutdown()
    return {"seconds": seconds, "replay_s": replay, "rss": rss, "seek_middle_s": seek, "ops": total,
            "middle_hash": state_hash, "hash": at_end}


def _in_fresh_process(what: str, path: Path) -> dict[str, Any]:
    done = subprocess.run([sys.executable, "-m", "table.bench.replay", what, str(path)],
                          capture_output=True, text=True, check=False, timeout=1800)
    if done.returncode != 0:
        raise RuntimeError(f"bench replay {what} failed:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def run(count: int = 500_000, runs: int = 1, out: Callable[[str], None] = print
        ) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "long.sandlog"
        ops = write_log(path, count)
        gc.collect()
        out(f"log: {ops:,} ops ({path.stat().st_size / 1e6:.1f} MB)")
        replay = window = None
        for _ in range(runs):  # taking turns, the run with the lowest ratio of each kept
            r, w = _in_fresh_process("replay", path), _in_fresh_process("window", path)
            if replay is None or r["seconds"] / r["floor_s"] < replay["seconds"] / replay["floor_s"]:
                replay = r
            if window is None or w["seconds"] / w["replay_s"] < window["seconds"] / window["replay_s"]:
                window = w
    assert replay is not None and window is not None
    return _report(ops, replay, window, out)


def _report(ops: int, replay: dict[str, Any], window: dict[str, Any],
            out: Callable[[str], None]) -> dict[str, Any]:
    t_replay, t_window, t_floor = replay["seconds"], window["seconds"], replay["floor_s"]
    opening = t_window / window["replay_s"]  # both timed in the window's process, in turn
    out(f"replay:            {t_replay:7.2f} s  {ops / t_replay:10,.0f} ops/s   floor (read + crc "
        f"+ decode) {t_floor:.2f} s   ratio {t_replay / t_floor:.2f}")
    out(f"open replay window: {t_window:6.2f} s   over the replay alone in its process "
        f"({window['replay_s']:.2f} s): {opening:.2f}")
    out(f"resident memory:   replay {replay['rss'] / ops:,.0f} B/op, window open "
        f"{window['rss'] / ops:,.0f} B/op ({window['rss'] / 2**20:,.0f} MiB)")
    out(f"seek end -> middle: {window['seek_middle_s']:6.3f} s in the window "
        f"({window['seek_middle_s'] / (ops / 2) * 1e6:.2f} us per op taken back), "
        f"{replay['seek_s']:.3f} s in the core alone "
        f"({replay['seek_s'] / (ops / 2) * 1e6:.2f} us per op)")
    result = {"ops": ops, "replay_s": round(t_replay, 3), "replay_floor_s": round(t_floor, 3),
              "replay_floor_ratio": round(t_replay / t_floor, 2),
              "replay_us_per_op": round(t_replay / ops * 1e6, 3),
              "open_replay_s": round(t_window, 3),
              "open_replay_ratio": round(opening, 2),
              "replay_rss_bytes_per_op": round(replay["rss"] / ops),
              "window_rss_bytes_per_op": round(window["rss"] / ops),
              "seek_middle_s": round(window["seek_middle_s"], 3),
              "seek_us_per_op": round(window["seek_middle_s"] / (ops / 2) * 1e6, 3),
              "seek_core_s": round(replay["seek_s"], 3),
              "seek_core_us_per_op": round(replay["seek_s"] / (ops / 2) * 1e6, 3),
              "states_equal": replay["hash"] == window["hash"] and ops == window["ops"],
              "core_compiled": compiled()}
    out(json.dumps(result))
    return result


if __name__ == "__main__":
    measure = {"replay": _measure_replay, "window": _measure_window}[sys.argv[1]]
    print(json.dumps(measure(Path(sys.argv[2]))))
