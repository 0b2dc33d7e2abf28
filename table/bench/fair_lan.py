"""A joint d6 roll among 6 LAN sessions over real encrypted links (part of `bench fair`).

Six :class:`~netplay.session.lan_session.LanSession` peers on 127.0.0.1 (Noise-style handshake, encrypted
links, signed ops, a full mesh), the roll made the way the table makes it: ``actions.roll`` on
the roller's replica, which the session's joint draws turn into a round. The time is from the
call to the roll op applied (its shares checked) at every other peer. No mDNS: the peers dial
each other by address.
"""
from __future__ import annotations

import asyncio
import time
from typing import Any

from netplay.protocol.identity import Identity
from netplay.session.lan_session import LanSession, SessionOptions
from table.core import actions as act
from table.core.replica import Replica
from table.core.timeline import Change

LOOPBACK = "127.0.0.1"


async def _sessions(n: int) -> list[LanSession]:
    table = "benchfair" + Identity.generate().peer_id[:7]
    sessions = []
    for _ in range(n):
        identity = Identity.generate()
        replica = Replica(table, identity.peer_id)
        session = LanSession(replica, identity, SessionOptions(
            interfaces=[LOOPBACK], announce=False, browse=False, passphrase="bench"))
        await session.start()
        sessions.append(session)
    for s in sessions[1:]:
        await s.connect(LOOPBACK, sessions[0].port)
    deadline = time.monotonic() + 30
    while any(len(s.mesh.peers()) < n - 1 or sum(s.replica.version_vector().values()) < n
              for s in sessions):
        if time.monotonic() > deadline:
            raise RuntimeError("the 6-peer mesh did not form")
        await asyncio.sleep(0.02)
    return sessions


async def roll_over_sessions(count: int, n: int = 6) -> list[float]:
    sessions = await _sessions(n)
    applied: dict[str, asyncio.Queue[Any]] = {s.peer_id: asyncio.Queue() for s in sessions}

    def listener(peer: str) -> Any:
        def on_change(change: Change) -> None:
            for rec in change.records:
                if rec.op.kind == "roll" and rec.op.args.get("fair") and rec.void is None:
                    applied[peer].put_nowait(rec.op.ref)
        return on_change

    for s in sessions:
        s.replica.subscribe(listener(s.peer_id))
    times = []
    try:
        for i in range(count):
            roller = sessions[i % n]
            t0 = time.perf_counter()
            assert act.roll(roller.replica, sides=6) is None  # drawn jointly
            for s in sessions:
                await asyncio.wait_for(applied[s.peer_id].get(), 10)
            times.append(time.perf_counter() - t0)
    finally:
        for s in sessions:
            await s.stop()
    return times
