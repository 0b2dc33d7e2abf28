"""Dataset benchmark: `sandtable bench dataset`; the last line is JSON.

Over the legal corpus (table.bench.legal_corpus) it measures, in one run:
- the decode floor: reading every log's bytes and decoding every record with msgpack, nothing
  of Sandtable's (one process);
- the fold floor: the same logs grouped into sessions, read and folded by the core alone (no
  rules assist, no rows), in the same pool of the same width, in the same chunks;
- a fresh dataset of COUNT sessions (every core), and its ratio to the fold floor
  (`fresh_vs_fold`, target <= 1.5: the assist and the rows together at most half a fold) and to
  the decode floor;
- adding MORE sessions to it: the run reads only those, and its time against the fresh run's
  (target <= 10%);
- peak memory (RSS) of a fresh dataset of COUNT and of 3 x COUNT sessions, each in a process
  of its own (parent plus its largest worker; target: the larger at most 1.5x the smaller).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import msgpack

from table.core.native import compiled

COUNT, MORE = 1000, 20
_CHUNK = 50


def _generate_chunk(folder: str, count: int, seed: int) -> int:
    from table.bench.legal_corpus import generate

    return len(generate(folder, count, seed=seed))


def make_corpus(folder: Path, count: int, first_seed: int, jobs: int) -> None:
    """`count` sessions in `folder`, generated in chunks of distinct seeds (files never clash)."""
    sizes = [min(_CHUNK, count - i) for i in range(0, count, _CHUNK)]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        list(pool.map(_generate_chunk, [str(folder)] * len(sizes), sizes,
                      range(first_seed, first_seed + len(sizes))))


def cpu_seconds() -> float:
    """CPU time of this process and of its children that have ended (a pool's workers, once
    the pool is shut): the steadier figure on a busy machine."""
    import resource

    own, kids = (resource.getrusage(who) for who in (resource.RUSAGE_SELF,
                                                     resource.RUSAGE_CHILDREN))
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _fold_chunk(chunk: list[Any]) -> int:
    """A worker's share of the fold floor: read and fold each session, nothing more (the
    dataset's own collector settings, so only the assist and the rows differ)."""
    import gc

    from table.dataset.fold import fold_session

    ops = 0
    collecting = gc.isenabled()
    gc.disable()
    try:
        for session in chunk:
            folded = fold_session(session)
            if folded.replica is not None:
                ops += len(folded.replica.records())
                folded.replica.store.admit = None  # its one cycle, as the dataset cuts it
            del folded
            gc.collect(0)
    finally:
        if collecting:
            gc.enable()
    return ops


def fold_floor(folder: Path, jobs: int) -> tuple[float, int]:
    """Seconds to group the logs into sessions, read and fold them (the core alone), in the
    dataset's pool and chunks; and how many ops were folded."""
    from table.dataset.build import CHUNK
    from table.dataset.sources import find_logs, group_logs

    start = time.perf_counter()
    logs, _skipped = find_logs([folder])
    sessions = group_logs(logs)
    chunks = [sessions[i:i + CHUNK] for i in range(0, len(sessions), CHUNK)]
    if jobs <= 1 or len(chunks) <= 1:
        ops = sum(_fold_chunk(c) for c in chunks)
    else:
        with ProcessPoolExecutor(max_workers=min(jobs, len(chunks))) as pool:
            ops = sum(pool.map(_fold_chunk, chunks))
    return time.perf_counter() - start, ops


def decode_floor(folder: Path) -> tuple[float, int]:
    """Seconds to read and msgpack-decode every record of every log (and how many)."""
    start = time.perf_counter()
    records = 0
    unpack, head = msgpack.unpackb, struct.Struct(">II").unpack_from
    for path in sorted(folder.rglob("*.sandlog")):
        data = path.read_bytes()
        offset, size = 8, len(data)
        view = memoryview(data)
        while offset + 8 <= size:
            length, _crc = head(data, offset)
            unpack(view[offset + 8:offset + 8 + length])
            offset += 8 + length
            records += 1
    return time.perf_counter() - start, records


_RSS_PROBE = """
import json, os, resource, sys, time
from table.dataset.build import build_dataset
start = time.perf_counter()
outcome = build_dataset(sys.argv[1].split(os.pathsep), sys.argv[2], jobs=int(sys.argv[3]))
seconds = time.perf_counter() - start
own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
worker = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"sessions": outcome.total, "seconds": seconds, "parent_kib": own,
                  "worker_kib": worker}))
"""


def peak_rss(logs: list[Path], out: Path, jobs: int) -> dict[str, float]:
    """A fresh dataset built in a process of its own: its time and peak RSS."""
    shutil.rmtree(out, ignore_errors=True)
    inputs = os.pathsep.join(str(p) for p in logs)
    done = subprocess.run([sys.executable, "-c", _RSS_PROBE, inputs, str(out), str(jobs)],
                          check=True, capture_output=True, text=True)
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    result["peak_mib"] = (result["parent_kib"] + result["worker_kib"]) / 1024
    return result


def _make_corpora(base: Path, extra: Path, big: Path, count: int, more: int, jobs: int) -> None:
    """The logs the bench reads (each kept if already there, as with ``--keep``): `count`
    sessions, `more` to add to them, and twice `count` for the memory growth."""
    start = time.perf_counter()
    if not base.exists():
        make_corpus(base, count, 1, jobs)
    if not extra.exists():
        make_corpus(extra, more, 900, jobs)
    if not big.exists():
        make_corpus(big, 2 * count, 1000, jobs)
    print(f"{count} + {more} + {2 * count} sessions ready in "
          f"{time.perf_counter() - start:.1f} s", flush=True)


def _floors(base: Path, count: int, jobs: int) -> tuple[float, float, float, float]:
    """(decode floor, its CPU, fold floor, its CPU), each said in a line."""
    c0 = cpu_seconds()
    floor, records = decode_floor(base)
    floor_cpu = cpu_seconds() - c0
    print(f"decode floor: {floor:.2f} s for {records} records of {count} logs (msgpack, "
          f"one process; {floor_cpu:.2f} s CPU)", flush=True)
    c0 = cpu_seconds()
    fold, folded_ops = fold_floor(base, jobs)
    fold_cpu = cpu_seconds() - c0
    print(f"fold floor: {fold:.2f} s for {folded_ops} ops (the core alone, {jobs} job(s)) "
          f"= {fold / floor:.1f}x the decode floor; {fold_cpu:.1f} s CPU", flush=True)
    return floor, floor_cpu, fold, fold_cpu


def run(count: int = COUNT, more: int = MORE, jobs: int | None = None,
        keep: str | None = None) -> dict[str, object]:
    from table.dataset.build import build_dataset, default_jobs

    jobs = jobs or default_jobs()
    root = Path(keep) if keep else Path(tempfile.mkdtemp(prefix="sandtable-dataset-bench-"))
    base, extra, big = root / "logs", root / "more", root / "logs3x"
    try:
        _make_corpora(base, extra, big, count, more, jobs)
        floor, floor_cpu, fold, fold_cpu = _floors(base, count, jobs)
        out = root / "dataset"
        shutil.rmtree(out, ignore_errors=True)
        t0, c0 = time.perf_counter(), cpu_seconds()
        fresh = build_dataset([base], out, jobs=jobs)
        fresh_s, fresh_cpu = time.perf_counter() - t0, cpu_seconds() - c0
        print(f"fresh dataset: {fresh.total} sessions in {fresh_s:.2f} s = "
              f"{fresh_s / fold:.2f}x the fold floor (target <= 1.5x), {fresh_s / floor:.1f}x "
              f"the decode floor ({jobs} job(s)); {fresh_cpu:.1f} s CPU = "
              f"{fresh_cpu / fold_cpu:.2f}x the fold floor's CPU", flush=True)
        bare = root / "dataset-no-flags"
        t0 = time.perf_counter()
        build_dataset([base], bare, jobs=jobs, assist=False)
        bare_s = time.perf_counter() - t0
        shutil.rmtree(bare, ignore_errors=True)
        print(f"the same without the rules assist: {bare_s:.2f} s = {bare_s / fold:.2f}x the "
              f"fold floor, {bare_s / floor:.1f}x the decode floor", flush=True)
        t0 = time.perf_counter()
        added = build_dataset([base, extra], out, jobs=jobs)
        added_s = time.perf_counter() - t0
        print(f"adding {more}: {added.lines()[-1]}; {added_s:.2f} s = "
              f"{100 * added_s / fresh_s:.1f}% of the fresh run (target <= 10%)", flush=True)
        small = peak_rss([base], root / "rss1", jobs)
        large = peak_rss([base, big], root / "rss3", jobs)
        growth = large["peak_mib"] / small["peak_mib"]
        print(f"peak RSS: {small['peak_mib']:.0f} MiB at {small['sessions']:.0f} sessions, "
              f"{large['peak_mib']:.0f} MiB at {large['sessions']:.0f} = {growth:.2f}x "
              f"(target <= 1.5x)", flush=True)
        result = {"bench": "dataset", "core_compiled": compiled(), "sessions": fresh.total,
                  "jobs": jobs,
                  "floor_s": round(floor, 4), "fresh_s": round(fresh_s, 2),
                  "fresh_vs_floor": round(fresh_s / floor, 2),
                  "fold_s": round(fold, 2), "fold_cpu_s": round(fold_cpu, 2),
                  "fresh_cpu_vs_fold_cpu": round(fresh_cpu / fold_cpu, 2),
                  "fold_vs_decode": round(fold / floor, 2),
                  "no_flags_vs_fold": round(bare_s / fold, 2),
                  "floor_cpu_s": round(floor_cpu, 4), "fresh_cpu_s": round(fresh_cpu, 2),
                  "fresh_cpu_vs_floor_cpu": round(fresh_cpu / floor_cpu, 2),
                  "no_flags_s": round(bare_s, 2), "no_flags_vs_floor": round(bare_s / floor, 2),
                  "added": more, "added_logs_read": added.logs_read,
                  "added_s": round(added_s, 2), "added_vs_fresh": round(added_s / fresh_s, 3),
                  "rss_mib": round(small["peak_mib"], 1),
                  "rss3x_mib": round(large["peak_mib"], 1), "rss_growth": round(growth, 2),
                  "ok": {"fold": fresh_s / fold <= 1.5, "incremental": added_s / fresh_s <= 0.1,
                         "memory": growth <= 1.5},
                  "fresh_vs_fold": round(fresh_s / fold, 2)}
        return result
    finally:
        if keep is None:
            shutil.rmtree(root, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m table.bench.dataset")
    parser.add_argument("--count", type=int, default=COUNT)
    parser.add_argument("--more", type=int, default=MORE)
    parser.add_argument("--jobs", type=int)
    parser.add_argument("--keep", help="generate the logs here and keep them (reused)")
    args = parser.parse_args(argv)
    print(json.dumps(run(args.count, args.more, args.jobs, args.keep)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
