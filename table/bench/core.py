"""`sandtable bench core`: how fast the core folds ops, rolls back, and replays a log, each beside
its floor measured in the same run.

A 600-object table; 100,000 random ops from four authors whose knowledge of each other lags
(so their ops are concurrent, as on a LAN), delivered (1) in canonical order, (2) with 5% of them
arriving late by up to 20 ops, forcing rollbacks, then (3) replayed from a log on disk.

Applying goes in ten slices, each beside the floor over the same slice, timed in CPU seconds
(load on a shared machine comes and goes: a slice and its floor see the same, and what other
processes take is not counted), so the first and last slices also say whether an op costs more
on a longer table (`apply_growth`, 1.0 = flat).

The floors do the unavoidable work on the same data with nothing of ours: for applying, decode
each op's bytes and write its arguments into a dict (an op must at least be read and land
somewhere); for a replay, read the file, check each frame's CRC and decode it. A ratio is our
time over the floor's (lower is better; machine load cancels out, mostly).
"""
from __future__ import annotations

import gc
import json
import random
import struct
import tempfile
import time
import zlib
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import msgpack

from table.core import actions as act
from table.core.gc_tuning import tune_gc
from table.core.logfile import MAGIC, LogWriter, make_header
from table.core.native import compiled
from table.core.ops import Op
from table.core.replica import Replica
from table.core.rng import Rng

AUTHORS = ["alpha", "bravo", "charlie", "delta"]
ZONES = 10


def _setup_ops(objects: int) -> list[Op]:
    r = Replica("bench", "setup", rng=Rng(1))
    for z in range(ZONES):
        act.create(r, f"z{z}", "zone", props={"name": f"Zone {z}", "visibility": "public"})
    for i in range(objects - ZONES - 10):
        act.create(r, f"c{i}", "card", to=f"z{i % ZONES}", card=f"card-{i % 40}")
    for i in range(10):
        act.create(r, f"k{i}", "counter", counters={"value": 0}, props={"name": f"K{i}"})
    return r.store.all_ops()


def _random_args(rnd: random.Random, objects: int) -> tuple[str, dict[str, Any]]:
    pick = rnd.random()
    card = f"c{rnd.randrange(objects - ZONES - 10)}"
    if pick < 0.55:
        at = rnd.choice(["top", "bottom", None])
        args: dict[str, Any] = {"id": card, "to": f"z{rnd.randrange(ZONES)}"}
        if at:
            args["at"] = at
        return "move", args
    if pick < 0.75:
        return "counter", {"id": f"k{rnd.randrange(10)}", "add": rnd.randint(-2, 3)}
    if pick < 0.9:
        return "set", {"id": card, "field": "rotation", "value": rnd.choice([0, 90, 180, 270])}
    return "set", {"id": card, "field": "face_up", "value": rnd.random() < 0.5}


def generate(count: int, objects: int = 600, seed: int = 7, sync_every: int = 12) -> list[Op]:
    """Setup ops plus `count` concurrent ops, with valid stamps and version vectors."""
    rnd = random.Random(seed)
    setup = _setup_ops(objects)
    top = max(op.lamport for op in setup)
    setup_vv = {"setup": len(setup)}
    known = {a: {"setup": len(setup)} for a in AUTHORS}  # each author's version vector
    seen_lamport = {a: top for a in AUTHORS}
    ops: list[Op] = list(setup)
    issued: dict[str, list[Op]] = {a: [] for a in AUTHORS}
    last_vv: dict[str, dict[str, int]] = {a: {} for a in AUTHORS}
    for n in range(count):
        author = AUTHORS[n % len(AUTHORS)]
        full = {a: c for a, c in known[author].items() if a != author}
        vv = {a: c for a, c in full.items() if last_vv[author].get(a) != c}  # as Replica.issue
        last_vv[author] = full
        seq = len(issued[author]) + 1
        kind, args = _random_args(rnd, objects)
        op = Op(author, seq, seen_lamport[author] + 1, kind, args, vv, 0.0, None)
        issued[author].append(op)
        known[author][author] = seq
        seen_lamport[author] = op.lamport
        ops.append(op)
        if n % sync_every == sync_every - 1:  # a gossip round: one author catches up fully
            who = AUTHORS[rnd.randrange(len(AUTHORS))]
            for other in AUTHORS:
                known[who][other] = len(issued[other])
            known[who].update(setup_vv)
            seen_lamport[who] = max([seen_lamport[who]] + [o[-1].lamport for o in issued.values() if o])
    return ops


# --- the floors ---------------------------------------------------------------------------------
def apply_floor(packed: list[bytes]) -> dict[Any, Any]:
    """Decode each op and write its arguments into a table: the least applying an op can be."""
    unpack = msgpack.unpackb
    table: dict[Any, Any] = {}
    for data in packed:
        wire = unpack(data)
        table[wire[4].get("id")] = wire[4]
    return table


_FRAME = struct.Struct(">II")


def replay_floor(path: Path) -> int:
    """Read a log, check each frame's CRC and decode it: the least reading a log can be."""
    data = path.read_bytes()
    unpack, crc32, head = msgpack.unpackb, zlib.crc32, _FRAME.unpack_from
    view = memoryview(data)
    offset, records = len(MAGIC), 0
    while offset < len(data):
        length, crc = head(data, offset)
        payload = view[offset + 8:offset + 8 + length]
        if crc32(payload) != crc:
            raise ValueError(f"frame at byte {offset} is damaged")
        unpack(payload)
        offset += 8 + length
        records += 1
    return records


# --- timing -------------------------------------------------------------------------------------
def timed(fn: Callable[[], Any], cpu_log: list[float] | None = None) -> float:
    """Wall seconds of fn(), from a clean heap (the generator's garbage is not its cost); its
    CPU seconds go to `cpu_log`, to tell a loaded machine apart."""
    gc.collect()
    gc.freeze()
    start, cpu = time.perf_counter(), time.process_time()
    fn()
    if cpu_log is not None:
        cpu_log.append(time.process_time() - cpu)
    return time.perf_counter() - start


def cpu_seconds(fn: Callable[[], Any]) -> float:
    """CPU seconds of fn() in this process, from a clean heap (as `timed`)."""
    gc.collect()
    gc.freeze()
    start = time.process_time()
    fn()
    return time.process_time() - start


def _deliver(sequence: list[list[Any]], replica: Replica) -> None:
    for wire in sequence:
        replica.receive(wire)


def _late(wires: list[list[Any]], share: float, max_delay: int) -> tuple[list[list[Any]], int]:
    """`wires` with `share` of them arriving up to `max_delay` places late."""
    rnd = random.Random(3)
    late = list(wires)
    moved = 0
    for i in range(len(late) - 1, -1, -1):
        if rnd.random() < share:
            j = min(len(late) - 1, i + rnd.randint(1, max_delay))
            late.insert(j, late.pop(i))
            moved += 1
    return late, moved


def _fresh(setup: list[list[Any]], name: str) -> Replica:
    replica = Replica("bench", name)
    replica.receive_many(setup)
    return replica


def _apply_stage(wires: list[list[Any]], setup_count: int, cpu: list[float],
                 out: Callable[[str], None], chunks: int = 10) -> dict[str, Any]:
    """In order, beside the apply floor: the ops go in in `chunks` slices, each followed by the
    floor over the same slice, so load that comes and goes hits both alike; the first and the
    last slice's ratios say whether an op costs more on a longer table. Then with late ops."""
    count = len(wires) - setup_count
    setup, rest = wires[:setup_count], wires[setup_count:]
    packed = [msgpack.packb(w, use_bin_type=True) for w in rest]
    ordered = _fresh(setup, "reader-1")
    size = -(-count // chunks)
    ours: list[float] = []
    floors: list[float] = []
    for start in range(0, count, size):  # CPU seconds: what other processes take is not ours
        ours.append(cpu_seconds(partial(_deliver, rest[start:start + size], ordered)))
        floors.append(min(cpu_seconds(partial(apply_floor, packed[start:start + size]))
                          for _ in range(3)))  # the floor's slice is short: its best of 3
    t_apply, t_floor = sum(ours), sum(floors)
    first, last = ours[0] / floors[0], ours[-1] / floors[-1]
    out(f"apply in order:       {t_apply:6.2f} s CPU  {count / t_apply:10,.0f} ops/s   floor "
        f"(decode + dict write) {count / t_floor:10,.0f} ops/s   ratio {t_apply / t_floor:.2f}")
    out(f"  per slice of {size:,} ops: ratio {first:.2f} for the first, {last:.2f} for the "
        f"last (growth {last / first:.2f})")
    late, moved = _late(rest, 0.05, 20)
    rolled = _fresh(setup, "reader-2")
    rollbacks = [0]
    rolled.subscribe(lambda change: rollbacks.__setitem__(0, rollbacks[0] + change.rolled_back))
    t_roll = timed(partial(_deliver, late, rolled), cpu)
    expected = ordered.public_state_hash()
    same = rolled.public_state_hash() == expected
    out(f"apply with late ops:  {t_roll:6.2f} s  {count / t_roll:10,.0f} ops/s  "
        f"({moved} late, {rollbacks[0]} ops rolled back and re-applied; states equal: {same})")
    return {"apply_ops_per_s": round(count / t_apply), "apply_floor_ops_per_s":
            round(count / t_floor), "apply_floor_ratio": round(t_apply / t_floor, 2),
            "apply_first_slice_ratio": round(first, 2), "apply_last_slice_ratio": round(last, 2),
            "apply_growth": round(last / first, 2),
            "rollback_ops_per_s": round(count / t_roll), "late_ops": moved,
            "rolled_back_ops": rollbacks[0], "expected_hash": expected, "states_equal": same}


def _write_all(writer: LogWriter, wires: list[list[Any]]) -> None:
    for wire in wires:
        writer.append(wire)


def _replay_into(out: list[Replica], path: Path) -> None:
    out.append(Replica.from_log(path))


def _replay_stage(wires: list[list[Any]], expected: str, cpu: list[float],
                  out: Callable[[str], None], runs: int = 3) -> dict[str, Any]:
    """Write the log, then replay it beside the replay floor (taking turns, fastest kept)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.sandlog"
        writer = LogWriter(path, make_header("bench", "reader-2"))
        t_write = timed(partial(_write_all, writer, wires), cpu)
        writer.close()
        size = path.stat().st_size
        t_replay = t_floor = float("inf")
        for _ in range(runs):
            replayed: list[Replica] = []
            t_replay = min(t_replay, timed(partial(_replay_into, replayed, path)))
            same = replayed[0].public_state_hash() == expected
            del replayed  # a replay happens at start-up, with nothing else in memory
            t_floor = min(t_floor, timed(partial(replay_floor, path)))
    n = len(wires)
    out(f"log write:            {t_write:6.2f} s  {n / t_write:10,.0f} records/s  "
        f"({size / 1e6:.1f} MB)")
    out(f"replay from disk:     {t_replay:6.2f} s  {n / t_replay:10,.0f} ops/s   floor "
        f"(read + crc + decode) {n / t_floor:10,.0f} ops/s   ratio {t_replay / t_floor:.2f}  "
        f"(state equal: {same})")
    return {"replay_ops_per_s": round(n / t_replay), "replay_floor_ops_per_s": round(n / t_floor),
            "replay_floor_ratio": round(t_replay / t_floor, 2), "replay_state_equal": same}


def run(count: int = 100_000, objects: int = 600, out: Callable[[str], None] = print
        ) -> dict[str, Any]:
    tune_gc()  # as the program does at start
    ops = generate(count, objects)
    wires = [op.to_wire() for op in sorted(ops, key=lambda o: o.key)]
    del ops
    out(f"table: {objects} objects; {count} ops from {len(AUTHORS)} concurrent authors")
    cpu: list[float] = []
    applied = _apply_stage(wires, len(wires) - count, cpu, out)
    replayed = _replay_stage(wires, applied.pop("expected_hash"), cpu, out)
    catch_up = Replica("bench", "late-joiner")
    t_catch = timed(lambda: catch_up.receive_many(wires[:10_000]))
    out(f"10,000-op catch-up:   {t_catch:6.3f} s")
    roll_cpu, write_cpu = cpu
    out(f"CPU-time rates (same work, not counting time other processes took): with late ops "
        f"{count / roll_cpu:,.0f} ops/s, log write {len(wires) / write_cpu:,.0f} records/s")
    same = applied.pop("states_equal") and replayed.pop("replay_state_equal")
    result = {"objects": objects, "ops": count, **applied, **replayed,
              "catch_up_10k_s": round(t_catch, 3), "states_equal": same,
              "core_compiled": compiled()}
    out(json.dumps(result))
    return result


if __name__ == "__main__":
    run()
