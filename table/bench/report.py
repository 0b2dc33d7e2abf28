"""Report benchmark: time `sandtable report` over generated sessions; the last line is JSON.

The default is the legal corpus (`table.bench.legal_corpus`, 1,000 sessions over the three built-in
games, with planted effects); `--simulated` uses the older rule-breaking sessions of
`table.bench.simulated_sessions` with drafts compared, as before.

A fifth of each game's sessions are played with a "next draft" of the module (a copy with a
bumped version and another hand limit, so another content hash), so the page shows drafts
compared, as it would after a designer changed a rule. Run with
`python -m table.bench.report [--out report.html]` or `sandtable report --bench`.

The decode floor (reading and msgpack-decoding every record, table.bench.dataset) is measured
in the same run; `report_floor_ratio` is the report's time against it (target <= 4x), and a
second report over the same logs (its dataset cache warm) is timed too.
"""
from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from table.bench.drafts import draft_of
from table.bench.simulated_sessions import generate
from table.report.build import build_report

PER_GAME = 50
TARGET_SECONDS = 20.0  # for CORPUS sessions
CORPUS = 1000


def make_sessions(folder: Path, per_game: int = PER_GAME, seed: int = 11) -> list[Path]:
    from table.games import builtin_modules

    paths: list[Path] = []
    for module in builtin_modules():
        drafts = per_game // 5
        paths += generate(module, per_game - drafts, folder / module.id, seed=seed)
        if drafts:
            paths += generate(draft_of(module, folder.parent / f"{folder.name}-modules"), drafts,
                              folder / f"{module.id}-draft", seed=seed + 500,
                              prefix=f"{module.id}-draft")
    return paths


def run_bench(out: str | None = None, per_game: int = PER_GAME, jobs: int | None = None,
              keep: str | None = None, assist: bool = True, count: int = CORPUS,
              simulated: bool = False) -> int:
    import json

    from table.bench.legal_corpus import generate as generate_corpus

    folder = Path(keep) if keep else Path(tempfile.mkdtemp(prefix="sandtable-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    try:
        start = time.perf_counter()
        existing = sorted(folder.rglob("*.sandlog"))
        if keep and existing:
            made_count = len(existing)  # a kept folder is reused as it is
        elif simulated:
            made_count = len(make_sessions(folder, per_game))
        else:
            made_count = len(generate_corpus(folder, count))
        made = time.perf_counter() - start
        print(f"{made_count} sessions ready in {made:.1f} s", flush=True)
        print(json.dumps(_measure(folder, out, jobs, assist, simulated)))
        return 0
    finally:
        if keep is None and out is not None:
            shutil.rmtree(folder, ignore_errors=True)


def _measure(folder: Path, out: str | None, jobs: int | None, assist: bool,
             simulated: bool) -> dict[str, Any]:
    """The decode floor, a report with a cold dataset cache, and one with it warm (the same
    logs again: nothing new to read), each against the floor."""
    from table.bench.dataset import cpu_seconds, decode_floor

    c0 = cpu_seconds()
    floor, records = decode_floor(folder)
    floor_cpu = cpu_seconds() - c0
    print(f"decode floor: {floor:.2f} s for {records} records (msgpack, one process; "
          f"{floor_cpu:.2f} s CPU)", flush=True)
    target = out or str(folder / "report.html")
    cache = folder.parent / f"{folder.name}-report-dataset"
    shutil.rmtree(cache, ignore_errors=True)
    try:
        c0 = cpu_seconds()
        report = build_report([str(folder)], target, jobs=jobs, show_progress=None,
                              assist=assist, cache=cache)
        report_cpu = cpu_seconds() - c0
        warm = build_report([str(folder)], target, jobs=jobs, show_progress=False,
                            assist=assist, cache=cache)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    limit = TARGET_SECONDS if not simulated else 5.0
    ratio = report.seconds / floor
    print(f"report over {len(report.sessions)} sessions: {report.seconds:.2f} s = "
          f"{ratio:.1f}x the floor (target <= 4x); {len(report.html) // 1024} KiB of HTML -> "
          f"{target}")
    print(f"again over the same logs: read {warm.logs_read} log(s), {warm.seconds:.2f} s = "
          f"{warm.seconds / floor:.1f}x the floor")
    for path, why in report.skipped:
        print(f"skipped {path}: {why}")
    return {"bench": "report", "sessions": len(report.sessions),
            "seconds": round(report.seconds, 2), "target_seconds": limit,
            # the floors to 0.1 ms: a few sessions' floor is a few ms, and 0.0 would read as none
            "floor_s": round(floor, 4), "report_floor_ratio": round(ratio, 2),
            "per_session_ms": round(1000 * report.seconds / max(1, len(report.sessions)), 2),
            "floor_cpu_s": round(floor_cpu, 4), "report_cpu_s": round(report_cpu, 2),
            "report_cpu_vs_floor_cpu": round(report_cpu / floor_cpu, 2),
            "warm_s": round(warm.seconds, 2), "warm_logs_read": warm.logs_read,
            "warm_floor_ratio": round(warm.seconds / floor, 2),
            "assist": assist, "jobs": jobs,
            "ok": {"seconds": report.seconds <= limit, "floor": ratio <= 4}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m table.bench.report")
    parser.add_argument("--out", help="also write the report here")
    parser.add_argument("--per-game", type=int, default=PER_GAME)
    parser.add_argument("--jobs", type=int)
    parser.add_argument("--keep", help="generate the sessions in this folder and keep them")
    parser.add_argument("--no-flags", action="store_true", help="time without the assist")
    parser.add_argument("--count", type=int, default=CORPUS, help="corpus sessions (1000)")
    parser.add_argument("--simulated", action="store_true",
                        help="the older simulated sessions (50 per game, drafts compared)")
    args = parser.parse_args(argv)
    return run_bench(args.out, args.per_game, args.jobs, args.keep, not args.no_flags,
                     args.count, args.simulated)


if __name__ == "__main__":
    sys.exit(main())
