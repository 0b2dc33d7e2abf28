"""`sandtable bench simulate`: bot games per second, and the bots' play against its floor, the
fold of the very logs they wrote replayed by the core alone (what any reader of those sessions
pays). Last line: one JSON object with the ratio."""
from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path

from table.bots import batch, registry


def run(games: int = 40, game: str = "gauntlet", seed: int = 1) -> dict[str, object]:
    from table.core.replica import Replica

    module = batch.load(game, None)
    seats = max(int(module.players.min), min(4, int(module.players.max)))
    heuristic = registry.strongest(game)
    bots = (heuristic, *tuple(registry.find("random", game).name for _ in range(seats - 1)))
    with tempfile.TemporaryDirectory() as tmp:
        plan = batch.Plan(game, None, seats, bots, games, seed, tmp, check=False)
        started = time.perf_counter()
        results = batch.run(plan)
        play = time.perf_counter() - started
        ops = sum(int(r["ops"]) for r in results)
        logs = sorted((Path(tmp) / "games").glob("*.sandlog"))
        started = time.perf_counter()
        for path in logs:
            Replica.from_log(path).close()
        floor = time.perf_counter() - started
    figures: dict[str, object] = {
        "bench": "simulate", "game": game, "games": games, "seats": seats, "ops": ops,
        "play_s": round(play, 3), "games_per_s": round(games / play, 2),
        "replay_floor_s": round(floor, 3), "ratio": round(play / floor, 2) if floor else None}
    print(f"{games} games of {game} ({seats} seats, {ops} ops): {play:.2f} s, "
          f"{games / play:.1f} games/s")
    print(f"the same logs replayed by the core alone (the floor): {floor:.2f} s; "
          f"bots' play = {figures['ratio']}x the floor")
    print(json.dumps(figures))
    return figures
