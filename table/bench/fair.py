"""`sandtable bench fair`: how long a joint die roll and a joint shuffle take.

* roll, in memory: 6 peers' `FairRounds` exchanging msgpack'd messages in one process, from the
  roller's start to the roll op applied (and checked) at the 5 other replicas.
* roll, loopback: the same 6 peers in one process over real TCP connections on 127.0.0.1
  (asyncio streams, a full mesh of 15 links, length-prefixed msgpack frames; no encryption),
  from start to the op applied at every other peer.
* roll, LAN sessions: 6 `LanSession` peers over their real encrypted links, the roll made by
  `actions.roll` as the table makes it (table/bench/fair_lan.py).
* shuffle: a 60-card hidden deck shuffled by its owner with a 6-peer joint seed (the
  permutation, 60 fresh commitments and the op applied), and the round plus the shuffle.

Everything binds to 127.0.0.1. Prints figures, then as its last line one JSON object.
"""
from __future__ import annotations

import asyncio
import json
import statistics
import sys
import time
from typing import Any

import msgpack

from netplay.draws.commit_reveal import Drawn, Event, FairRounds, Send
from netplay.protocol.messages import Message, decode_message, wire_form
from table.bench.fair_sim import MemoryNet
from table.core import actions as act
from table.core import fair
from table.core.fair_ops import fair_roll, fair_shuffle
from table.core.replica import Replica

LOOPBACK = "127.0.0.1"
PEERS = [f"{n:016x}" for n in range(1, 7)]


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def _ms(values: list[float]) -> dict[str, float]:
    return {"p50_ms": round(_pct(values, 0.5) * 1e3, 3), "p99_ms": round(_pct(values, 0.99) * 1e3, 3),
            "mean_ms": round(statistics.fmean(values) * 1e3, 3) if values else float("nan")}


def roll_in_memory(count: int) -> list[float]:
    times = []
    for _ in range(count):
        replicas = {p: Replica("bench", p) for p in PEERS}
        t0 = time.perf_counter()
        net = MemoryNet(PEERS, clock=time.perf_counter)
        net.start(PEERS[0], "roll")
        [done] = net.drawn[PEERS[0]]
        wire = msgpack.packb(fair_roll(replicas[PEERS[0]], done.draw, sides=6, count=2)
                             .to_wire(), use_bin_type=True)
        for peer in PEERS[1:]:
            [op] = replicas[peer].receive(msgpack.unpackb(wire), PEERS[0])
            record = replicas[peer].timeline.record_of(op.ref)
            assert record is not None and record.void is None
        times.append(time.perf_counter() - t0)
    return times


class _LoopbackPeer:
    """One peer: a listening socket, a writer per other peer, its rounds and its replica."""

    def __init__(self, me: str) -> None:
        self.me = me
        self.rounds = FairRounds(me, clock=time.perf_counter)
        self.replica = Replica("bench", me)
        self.writers: dict[str, asyncio.StreamWriter] = {}
        self.applied: asyncio.Queue[tuple[str, int]] = asyncio.Queue()
        self.server: asyncio.Server | None = None
        self.readers: list[asyncio.Task[None]] = []

    async def listen(self) -> int:
        self.server = await asyncio.start_server(self._accept, LOOPBACK, 0)
        return int(self.server.sockets[0].getsockname()[1])

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self.readers.append(task)
        peer = (await reader.readexactly(16)).decode()
        self.writers[peer] = writer
        await self._read(peer, reader)

    async def dial(self, peer: str, port: int) -> None:
        reader, writer = await asyncio.open_connection(LOOPBACK, port)
        writer.write(self.me.encode())
        self.writers[peer] = writer
        self.readers.append(asyncio.get_running_loop().create_task(self._read(peer, reader)))

    def send(self, peer: str, msg: Message | dict[str, Any]) -> None:
        payload = msgpack.packb(wire_form(msg), use_bin_type=True)
        self.writers[peer].write(len(payload).to_bytes(4, "big") + payload)

    def handle(self, events: list[Event]) -> None:
        for event in events:
            if isinstance(event, Send):
                for to in event.to:
                    self.send(to, event.msg)
            elif isinstance(event, Drawn):
                op = fair_roll(self.replica, event.draw, sides=6, count=2)
                for to in self.writers:
                    self.send(to, {"t": "op", "op": op.to_wire()})

    async def _read(self, peer: str, reader: asyncio.StreamReader) -> None:
        try:
            while True:
                size = int.from_bytes(await reader.readexactly(4), "big")
                msg = msgpack.unpackb(await reader.readexactly(size))
                if msg.get("t") == "op":
                    for op in self.replica.receive(msg["op"], peer):
                        self.rounds.used(op.args["fair"]["round"])  # as a witness would
                        self.applied.put_nowait(op.ref)
                else:
                    self.handle(self.rounds.on_message(peer, decode_message(msg)))
        except (asyncio.IncompleteReadError, ConnectionError):
            return


async def roll_over_loopback(count: int) -> list[float]:
    peers = [_LoopbackPeer(p) for p in PEERS]
    ports = [await p.listen() for p in peers]
    for i, peer in enumerate(peers):
        for j in range(i + 1, len(peers)):
            await peer.dial(PEERS[j], ports[j])
    deadline = time.monotonic() + 30
    while any(len(p.writers) < len(peers) - 1 for p in peers):
        if time.monotonic() > deadline:  # a benchmark that fails says why, it never hangs
            raise RuntimeError("the loopback peers did not all connect")
        await asyncio.sleep(0.01)
    times = []
    for n in range(count):
        roller = peers[n % len(peers)]
        others = [p for p in peers if p is not roller]
        t0 = time.perf_counter()
        _rid, events = roller.rounds.start("roll", PEERS)
        roller.handle(events)
        for other in others:
            await other.applied.get()
        times.append(time.perf_counter() - t0)
    for peer in peers:  # every link closed: each reader sees the end of its stream
        for writer in peer.writers.values():
            writer.close()
        assert peer.server is not None
        peer.server.close()
    await asyncio.gather(*(t for p in peers for t in p.readers))
    return times


def _deck(size: int) -> Replica:
    r = Replica("bench", PEERS[0])
    r.issue("seat", {"seat": 1})
    act.create(r, "p1.deck", "pile", owner=1, props={"visibility": "hidden"})
    act.new_cards(r, "p1.deck", [f"card-{i:02d}" for i in range(size)], seat=1)
    return r


def shuffle_60(count: int) -> tuple[list[float], list[float], list[float]]:
    """(the permutation alone, the shuffle op with its commitments, round + shuffle)."""
    perm, shuffle, whole = [], [], []
    for _ in range(count):
        r = _deck(60)
        net = MemoryNet(PEERS, clock=time.perf_counter)
        t0 = time.perf_counter()
        net.start(PEERS[0], "shuffle")
        [done] = net.drawn[PEERS[0]]
        t1 = time.perf_counter()
        fair.permuted(done.draw.seed(), list(range(60)))
        t2 = time.perf_counter()
        fair_shuffle(r, "p1.deck", done.draw, seat=1)
        t3 = time.perf_counter()
        perm.append(t2 - t1)
        shuffle.append(t3 - t2)
        whole.append((t1 - t0) + (t3 - t2))
    return perm, shuffle, whole


def run(rolls: int = 500) -> dict[str, Any]:
    from table.core.gc_tuning import tune_gc

    tune_gc()
    memory = roll_in_memory(rolls)
    print(f"joint d6 roll, 6 peers in memory: p50 {_ms(memory)['p50_ms']} ms, "
          f"p99 {_ms(memory)['p99_ms']} ms")
    loopback = asyncio.run(roll_over_loopback(rolls))
    print(f"joint d6 roll, 6 peers over loopback TCP (one process): p50 "
          f"{_ms(loopback)['p50_ms']} ms, p99 {_ms(loopback)['p99_ms']} ms")
    from table.bench.fair_lan import roll_over_sessions

    sessions = asyncio.run(roll_over_sessions(max(20, rolls // 5)))
    print(f"joint d6 roll, 6 LAN sessions over encrypted links (one process): p50 "
          f"{_ms(sessions)['p50_ms']} ms, p99 {_ms(sessions)['p99_ms']} ms")
    perm, shuffle, whole = shuffle_60(max(50, rolls // 5))
    print(f"60-card joint shuffle: permutation p50 {_ms(perm)['p50_ms']} ms; shuffle op with "
          f"commitments p50 {_ms(shuffle)['p50_ms']} ms; round + shuffle p50 "
          f"{_ms(whole)['p50_ms']} ms")
    summary = {"peers": len(PEERS), "rolls": rolls, "roll_memory": _ms(memory),
               "roll_loopback": _ms(loopback), "roll_lan_sessions": _ms(sessions),
               "shuffle60_permutation": _ms(perm),
               "shuffle60_op": _ms(shuffle), "shuffle60_round_and_op": _ms(whole)}
    print(json.dumps(summary))
    return summary


if __name__ == "__main__":
    run(int(sys.argv[1]) if len(sys.argv) > 1 else 500)
