"""`sandtable bench assist`: the time the rules assist adds per op, for each game, on a table of
600 objects. Prints figures per game; the last line is one JSON object (worst game's p50/p99)."""
from __future__ import annotations

import json
import time
from typing import Any

from assist.runner import AssistRunner, load_plugin
from table.core import actions as act
from table.core.rng import Rng
from table.games import builtin_modules
from table.games.setup import new_table

TARGET_OBJECTS = 600


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _public_zones(replica: Any) -> list[str]:
    return [o.id for o in replica.state.objs.values()
            if o.alive and o.kind in ("zone", "pile") and o.visibility == "public"
            and o.id != "table"]


def bench_game(module: Any, ops: int = 3000, seed: int = 11) -> dict[str, Any] | None:
    notices: list[str] = []
    plugin = load_plugin(module.id, notices)
    if plugin is None:
        return {"game": module.id, "skipped": "; ".join(notices) or "no plugin"}
    seats = module.players.max
    replica = new_table(module, seats, rng=Rng(seed), peer_id="bench", table_id="bench")
    zones = _public_zones(replica)
    cards = list(module.cards)
    rng = Rng(seed)
    n = 0
    while sum(1 for o in replica.state.objs.values() if o.alive) < TARGET_OBJECTS:
        zone = zones[n % len(zones)]
        act.create(replica, f"bench{n}", "card", to=zone, card=cards[n % len(cards)],
                   owner=(n % seats) + 1)
        n += 1
    runner = AssistRunner.for_replica(replica, module, plugin, seat=-1)
    timings: list[float] = []
    inner = runner.applied

    def timed(index: int, record: Any, state: Any) -> None:
        t0 = time.perf_counter()
        inner(index, record, state)
        timings.append(time.perf_counter() - t0)

    runner.applied = timed  # type: ignore[method-assign]  # time each call the timeline makes
    phases = list(module.rules.get("phases") or ["Start", "Main", "End"])
    counters = [o.id for o in replica.state.objs.values() if o.alive and o.kind == "counter"]
    movable = [f"bench{i}" for i in range(n)]
    seat = 1
    for i in range(ops):
        k = i % 10
        if i % 60 == 0:
            seat = seat % seats + 1
            act.mark(replica, "turn", for_seat=seat, seat=seat)
        elif i % 12 == 0:
            act.mark(replica, "phase", value=phases[(i // 12) % len(phases)], seat=seat)
        elif k in (1, 2, 3):
            act.counter(replica, counters[rng.roll(len(counters))[0] - 1],
                        add=rng.roll(3)[0] - 2, seat=seat)
        elif k in (4, 5, 6):
            act.move(replica, movable[rng.roll(len(movable))[0] - 1],
                     zones[rng.roll(len(zones))[0] - 1], seat=seat)
        elif k == 7:
            act.rotate(replica, movable[rng.roll(len(movable))[0] - 1], 90 * (i % 2), seat=seat)
        elif k == 8:
            act.mark(replica, "declare", value="card-effect", seat=seat)
        else:
            replica.issue("note", {"text": "bench"}, seat=seat)
    ms = [t * 1000 for t in timings]
    return {"game": module.id, "objects": sum(1 for o in replica.state.objs.values() if o.alive),
            "ops": len(ms), "flags": len(runner.entries()),
            "per_op_ms_p50": round(_percentile(ms, 0.50), 4),
            "per_op_ms_p99": round(_percentile(ms, 0.99), 4),
            "per_op_ms_max": round(max(ms) if ms else 0.0, 4),
            "disabled": runner.disabled}


def run(ops: int = 3000) -> dict[str, Any]:
    results = []
    for module in builtin_modules():
        if getattr(module, "rules", None) is None or module.id == "sample":
            continue
        result = bench_game(module, ops)
        if result is None:
            continue
        results.append(result)
        if "skipped" in result:
            print(f"{result['game']:<22} skipped: {result['skipped']}")
        else:
            print(f"{result['game']:<22} {result['objects']} objects, {result['ops']} ops: "
                  f"p50 {result['per_op_ms_p50']:.4f} ms, p99 {result['per_op_ms_p99']:.4f} ms, "
                  f"max {result['per_op_ms_max']:.3f} ms, {result['flags']} flags"
                  + (f", DISABLED: {result['disabled']}" if result["disabled"] else ""))
    timed = [r for r in results if "skipped" not in r]
    summary = {
        "per_op_ms_p50": max((r["per_op_ms_p50"] for r in timed), default=0.0),
        "per_op_ms_p99": max((r["per_op_ms_p99"] for r in timed), default=0.0),
        "games": {r["game"]: {k: v for k, v in r.items() if k != "game"} for r in results},
        "targets": {"per_op_ms_p50": 0.2, "per_op_ms_p99": 2.0},
    }
    print(json.dumps(summary))
    return summary
