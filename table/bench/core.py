"""`sandtable bench core`: how fast the core folds ops, rolls back, and replays a log.

A 600-object table; 100,000 random ops from four authors whose knowledge of each other lags
(so their ops are concurrent, as on a LAN), delivered (1) in canonical order, (2) with 5% of them
arriving late by up to 20 ops, forcing rollbacks, then (3) replayed from a log on disk.
"""
from __future__ import annotations

import gc
import json
import random
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from table.core import actions as act
from table.core.gc_tuning import tune_gc
from table.core.logfile import LogWriter, make_header
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


def _write_all(writer: LogWriter, wires: list[list[Any]]) -> None:
    for wire in wires:
        writer.append(wire)


def _timed(fn: Callable[[], Any]) -> float:
    """Wall seconds of fn(); the CPU seconds go to CPU_LOG, to tell a loaded machine apart."""
    gc.collect()  # each stage starts from a clean heap: the generator's garbage is not its cost
    gc.freeze()
    start, cpu = time.perf_counter(), time.process_time()
    fn()
    CPU_LOG.append(time.process_time() - cpu)
    return time.perf_counter() - start


CPU_LOG: list[float] = []


def run(count: int = 100_000, objects: int = 600, late_share: float = 0.05, max_delay: int = 20,
        out: Callable[[str], None] = print) -> dict[str, Any]:
    tune_gc()  # as the program does at start
    ops = generate(count, objects)
    setup_count = len(ops) - count
    canonical = sorted(ops, key=lambda o: o.key)
    wires = [op.to_wire() for op in canonical]
    out(f"table: {objects} objects; {count} ops from {len(AUTHORS)} concurrent authors")

    def deliver(sequence: list[list[Any]], replica: Replica) -> None:
        for wire in sequence:
            replica.receive(wire)

    ordered = Replica("bench", "reader-1")
    ordered.receive_many(wires[:setup_count])
    t_apply = _timed(partial(deliver, wires[setup_count:], ordered))
    apply_rate = count / t_apply
    out(f"apply in order:       {t_apply:6.2f} s  {apply_rate:10,.0f} ops/s")

    rnd = random.Random(3)
    late = list(wires[setup_count:])
    moved = 0
    for i in range(len(late) - 1, -1, -1):
        if rnd.random() < late_share:
            j = min(len(late) - 1, i + rnd.randint(1, max_delay))
            late.insert(j, late.pop(i))
            moved += 1
    rolled = Replica("bench", "reader-2")
    rolled.receive_many(wires[:setup_count])
    rollbacks = [0]
    rolled.subscribe(lambda change: rollbacks.__setitem__(0, rollbacks[0] + change.rolled_back))
    t_roll = _timed(partial(deliver, late, rolled))
    roll_rate = count / t_roll
    expected_hash = ordered.public_state_hash()
    same = rolled.public_state_hash() == expected_hash
    del ordered, rolled  # a replay happens at start-up, with nothing else in memory
    out(f"apply with late ops:  {t_roll:6.2f} s  {roll_rate:10,.0f} ops/s  "
        f"({moved} late, {rollbacks[0]} ops rolled back and re-applied; states equal: {same})")

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.sandlog"
        writer = LogWriter(path, make_header("bench", "reader-2"))
        t_write = _timed(lambda: _write_all(writer, wires))
        writer.close()
        size = path.stat().st_size
        replayed: list[Replica] = []
        t_replay = _timed(partial(_replay_into, replayed, path))
        replay_rate = len(wires) / t_replay
        replay_same = replayed[0].public_state_hash() == expected_hash
        del replayed
    out(f"log write:            {t_write:6.2f} s  {len(wires) / t_write:10,.0f} records/s  "
        f"({size / 1e6:.1f} MB)")
    out(f"replay from disk:     {t_replay:6.2f} s  {replay_rate:10,.0f} ops/s  "
        f"(state equal: {replay_same})")
    catch_up = Replica("bench", "late-joiner")
    t_catch = _timed(lambda: catch_up.receive_many(wires[:10_000]))
    out(f"10,000-op catch-up:   {t_catch:6.3f} s")
    apply_cpu, roll_cpu, _write_cpu, replay_cpu, _catch_cpu = CPU_LOG[-5:]
    out(f"CPU-time rates (same work, not counting time other processes took): apply "
        f"{count / apply_cpu:,.0f}, with late ops {count / roll_cpu:,.0f}, replay "
        f"{len(wires) / replay_cpu:,.0f} ops/s")
    result = {"objects": objects, "ops": count, "apply_ops_per_s": round(apply_rate),
              "rollback_ops_per_s": round(roll_rate), "replay_ops_per_s": round(replay_rate),
              "late_ops": moved, "rolled_back_ops": rollbacks[0],
              "catch_up_10k_s": round(t_catch, 3), "states_equal": same and replay_same}
    out(json.dumps(result))
    return result


if __name__ == "__main__":
    run()


def _replay_into(out: list[Replica], path: Path) -> None:
    out.append(Replica.from_log(path))
