"""The peers the net benches measure (:mod:`table.bench.net`, :mod:`table.bench.net_hop`,
:mod:`table.bench.net_quic`): a real replica with signed ops on a mesh bound to 127.0.0.1,
timing when each other peer's op is applied; and the bounded wait the benches share."""
from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

LOOPBACK = "127.0.0.1"
PACE = 0.002  # seconds between two paced ops (after each op in one process)


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


async def poll_until(done: Callable[[], bool], interval: float, timeout: float) -> bool:
    """True once `done()` holds (checked every `interval` s), False after `timeout` s.
    Polled: what the benches wait for (a mesh formed, every op everywhere) spans many peers'
    state and has no single event to wait on."""
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(interval)
    return True


class BenchPeer:
    def __init__(self, mesh: Any) -> None:
        from netplay.replication.opsign import OpVerifier, op_signer
        from netplay.replication.replication import Replication, ReplicationConfig
        from table.core.replica import Replica

        self.mesh = mesh
        self.replica = Replica("bench", mesh.peer_id)
        self.replica.signer = op_signer(mesh.identity)
        self.replica.verifier = OpVerifier(mesh.pinned_key, self.replica.store.announced_key)
        self.repl = Replication(mesh, self.replica, ReplicationConfig(hash_interval=3600))
        self.applied: dict[tuple[str, int], float] = {}
        self.stop_timing = self.replica.subscribe(self._on_change)
        self.repl.start()
        self.replica.issue("hello", {"key": mesh.identity.public_key.hex()})

    def _on_change(self, change: Any) -> None:
        now = time.monotonic()
        me = self.mesh.peer_id
        for rec in change.records:
            if rec.op.author != me:
                self.applied.setdefault(rec.op.ref, now)

    def play(self, i: int) -> tuple[tuple[str, int], float]:
        op = self.replica.issue("note", {"text": f"op {i}"})
        t = time.monotonic()
        self.repl.publish(op.to_wire())
        return op.ref, t

    def ops_held(self) -> int:
        return sum(self.replica.version_vector().values())


async def start_peers(n: int) -> list[BenchPeer]:
    """`n` peers in one full mesh on 127.0.0.1, each holding every peer's hello op."""
    from netplay.mesh.mesh import Mesh
    from netplay.protocol.identity import Identity

    meshes = [Mesh(Identity.generate(), "bench", None, host=LOOPBACK) for _ in range(n)]
    for m in meshes:
        await m.start()
    peers = [BenchPeer(m) for m in meshes]
    for m in meshes[1:]:
        await m.connect(LOOPBACK, meshes[0].port)
    if not await poll_until(lambda: all(len(m.peers()) >= n - 1 for m in meshes), 0.02, 20):
        raise RuntimeError("the mesh did not form")
    if not await poll_until(lambda: all(p.ops_held() >= n for p in peers), 0.01, 20):
        raise RuntimeError("the peers' hello ops did not reach every peer")
    return peers
