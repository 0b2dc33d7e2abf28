"""CPU time of one hop between two of our peers (`sandtable bench net`): an op issued (signed,
applied) at one peer, sent over its encrypted link, verified and applied at the other, both in
this process; paced (one op in flight) or burst (every op issued at once). Compared with the
floor in the same run (:mod:`table.bench.net_floor`)."""
from __future__ import annotations

import asyncio
import time
from typing import Any


async def our_hops(count: int, burst: bool) -> float:
    """CPU seconds per op of our stack, two peers, `count` ops paced or burst."""
    from table.bench.bench_peer import start_peers

    author, receiver = await start_peers(2)
    waiting: list[tuple[int, asyncio.Future[None]]] = []
    base = len(receiver.applied)

    def arrived(_change: Any) -> None:
        if waiting and len(receiver.applied) - base >= waiting[0][0]:
            waiting.pop()[1].set_result(None)

    def until(n: int) -> asyncio.Future[None]:
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if len(receiver.applied) - base >= n:
            fut.set_result(None)
        else:
            waiting.append((n, fut))
        return fut

    receiver.replica.subscribe(arrived)  # after the peer's own: applied is up to date
    cpu0 = time.process_time()
    for i in range(count):
        author.play(i)
        if not burst:
            await until(i + 1)
        elif i % 50 == 49:
            await asyncio.sleep(0)
    await until(count)
    per_op = (time.process_time() - cpu0) / count
    for peer in (author, receiver):
        await peer.repl.stop()
        await peer.mesh.stop()
    return per_op


def hop_figures(count: int = 1000, runs: int = 3) -> dict[str, float]:
    """Ours and the floor, paced and burst, and ours on the app's loop: microseconds of CPU
    per hop (the median of `runs`, each run alternating ours and the floor) and the ratios."""
    from table.bench.net_floor import floor_hops, on_qasync

    samples: dict[str, list[float]] = {}
    for _ in range(runs):
        for burst, mode in ((False, "paced"), (True, "burst")):
            samples.setdefault(f"hop_us_{mode}", []).append(asyncio.run(our_hops(count, burst)))
            samples.setdefault(f"floor_hop_us_{mode}", []).append(
                asyncio.run(floor_hops(count, burst)))
        samples.setdefault("qasync_hop_us_paced", []).append(on_qasync(our_hops, count, False))
    us = {k: round(sorted(v)[len(v) // 2] * 1e6, 1) for k, v in samples.items()}
    return {**us,
            "hop_floor_ratio_paced": round(us["hop_us_paced"] / us["floor_hop_us_paced"], 2),
            "hop_floor_ratio_burst": round(us["hop_us_burst"] / us["floor_hop_us_burst"], 2),
            "qasync_hop_floor_ratio": round(us["qasync_hop_us_paced"]
                                            / us["floor_hop_us_paced"], 2)}
