"""How long a LAN table's setup takes on 127.0.0.1: from the first seat taken (every player
already joined) until every peer holds the completed setup. Prints figures; last line JSON.

    .venv/bin/python scripts/bench_lan_setup.py [--players 3] [--runs 5] [--game mantle-of-the-keeper]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from netplay.session.lan_session import SessionOptions
from table import lan

LOOPBACK = "127.0.0.1"


def _options() -> SessionOptions:
    return SessionOptions(interfaces=[LOOPBACK], announce=False, passphrase="bench")


async def _once(game: str, players: int, folder: Path) -> tuple[float, int]:
    host = await lan.host(lan.module_for(game), table_name="bench", seats=players,
                          log_path=folder / "p1.log", options=_options())
    tables = [host]
    try:
        for n in range(2, players + 1):
            tables.append(await lan.join(log_path=folder / f"p{n}.log", options=_options(),
                                         connect=f"{LOOPBACK}:{host.session.port}"))
        start = time.perf_counter()
        for seat, t in enumerate(tables, start=1):
            await lan.take_seat(t, seat)
        while not all(lan.setup_complete(t.replica) for t in tables):
            await asyncio.sleep(0.002)
        took = time.perf_counter() - start
        joint = sum(1 for op in host.replica.store.all_ops() if op.kind == "consume"
                    and op.args.get("why") == "shuffle" and op.args.get("fair") is not None)
        return took, joint
    finally:
        for t in tables:
            await t.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--game", default="mantle-of-the-keeper")
    args = parser.parse_args()
    times, joint = [], 0
    for run in range(args.runs):
        with tempfile.TemporaryDirectory() as folder:
            took, joint = asyncio.run(_once(args.game, args.players, Path(folder)))
        times.append(took)
        print(f"run {run + 1}: setup complete on every peer in {took * 1000:.0f} ms "
              f"({joint} joint setup shuffles)")
    result = {"players": args.players, "game": args.game, "runs": args.runs,
              "median_ms": round(statistics.median(times) * 1000, 1),
              "max_ms": round(max(times) * 1000, 1), "joint_setup_shuffles": joint}
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
