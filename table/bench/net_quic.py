"""`sandtable bench net --transport quic`: op latency over the internet transport (QUIC through
iroh, relays off, 127.0.0.1) beside TCP, measured in the same run.

For 2 and 6 peers in one process (real replicas, signed ops, encrypted links, full mesh, every
op verified before it is applied; the method of :mod:`table.bench.net`), the same paced ops
over TCP links and then over QUIC links; each op's latency is the time from its apply at its
author to its apply at each other peer; beside it, the CPU the run used per op on the event
loop's thread and on the process's other threads (iroh's runtime). Prints figures, then as its
last line one JSON object with per-op p50/p99 and CPU for each transport and peer count, and
the ratio QUIC/TCP of p50 and p99.
"""
from __future__ import annotations

import asyncio
import json
import os
import time
from typing import Any

from table.bench.bench_peer import LOOPBACK, PACE, BenchPeer, pct

PEER_COUNTS = (2, 6)


async def _start(n: int, quic: bool) -> list[BenchPeer]:
    from netplay.link.quic import QuicSettings
    from netplay.mesh.mesh import Mesh, MeshConfig
    from netplay.protocol.identity import Identity

    config = MeshConfig(quic=QuicSettings(relay="off", bind_host=LOOPBACK) if quic else None)
    meshes = [Mesh(Identity.generate(), "bench", None, host=LOOPBACK, config=config)
              for _ in range(n)]
    for m in meshes:
        await m.start()
    peers = [BenchPeer(m) for m in meshes]
    first = meshes[0]
    for m in meshes[1:]:  # QUIC: the first peer's ticket; the rest by gossip, over QUIC too
        if quic and first.quic is not None:
            await m.connect(first.quic.ticket(), 0)
        else:
            await m.connect(LOOPBACK, first.port)
    deadline = time.monotonic() + 30
    while any(len(m.peers()) < n - 1 for m in meshes):
        if time.monotonic() > deadline:
            raise RuntimeError("the mesh did not form")
        await asyncio.sleep(0.02)
    while any(sum(p.replica.version_vector().values()) < n for p in peers):
        if time.monotonic() > deadline:
            raise RuntimeError("the peers' hello ops did not reach every peer")
        await asyncio.sleep(0.01)
    return peers


async def _latency(n: int, ops: int, quic: bool) -> dict[str, Any]:
    peers = await _start(n, quic)
    links = [p.mesh.link(pid) for p in peers for pid in p.mesh.peers()]
    via_quic = sum(1 for link in links if link is not None and link.via is not None)
    sent: dict[tuple[str, int], float] = {}
    loop_cpu, all_cpu = time.thread_time(), time.process_time()
    for i in range(ops):
        ref, t = peers[i % n].play(i)
        sent[ref] = t
        await asyncio.sleep(PACE)
    target, deadline = n + ops, time.monotonic() + 30
    while any(sum(p.replica.version_vector().values()) < target for p in peers):
        if time.monotonic() > deadline:
            break
        await asyncio.sleep(0.01)
    loop_cpu, all_cpu = time.thread_time() - loop_cpu, time.process_time() - all_cpu
    lat = [(p.applied[ref] - t) * 1000 for ref, t in sent.items() for p in peers
           if ref in p.applied]
    hashes = {p.replica.public_state_hash() for p in peers}
    for p in peers:
        await p.repl.stop()
        await p.mesh.stop()
    return {"p50": round(pct(lat, 0.5), 3), "p99": round(pct(lat, 0.99), 3),
            "samples": len(lat), "expected": ops * (n - 1), "converged": len(hashes) == 1,
            "links": len(links), "quic_links": via_quic,
            # CPU per op while the ops ran: the event loop's thread, and every other thread
            # of the process (iroh's runtime)
            "loop_cpu_us": round(loop_cpu / ops * 1e6), "other_cpu_us": round(
                (all_cpu - loop_cpu) / ops * 1e6)}


def run(ops: int = 1000) -> dict[str, Any]:
    from table.core.gc_tuning import tune_gc

    tune_gc()
    summary: dict[str, Any] = {"transport": "quic", "ops": ops, "relays": "off"}
    for n in PEER_COUNTS:
        for kind in ("tcp", "quic"):
            r = asyncio.run(_latency(n, ops, kind == "quic"))
            print(f"{n} peers over {kind.upper()} (one process, 127.0.0.1), {ops} ops: "
                  f"{r['samples']}/{r['expected']} deliveries, p50 {r['p50']:.3f} ms, "
                  f"p99 {r['p99']:.3f} ms; {r['quic_links']} of {r['links']} link ends over "
                  f"QUIC; converged: {r['converged']}; CPU per op: {r['loop_cpu_us']} us on "
                  f"the event loop's thread, {r['other_cpu_us']} us on others")
            for key in ("p50", "p99"):
                summary[f"{kind}_{n}_peers_{key}_ms"] = r[key]
            for key in ("loop_cpu_us", "other_cpu_us"):
                summary[f"{kind}_{n}_peers_{key}"] = r[key]
            summary[f"{kind}_{n}_peers_converged"] = r["converged"]
        for key in ("p50", "p99"):
            tcp = summary[f"tcp_{n}_peers_{key}_ms"]
            summary[f"ratio_{n}_peers_{key}"] = round(summary[f"quic_{n}_peers_{key}_ms"] / tcp, 2) \
                if tcp else None
    print(f"load average {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(json.dumps(summary))
    return summary
