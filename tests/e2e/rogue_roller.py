"""A modified client that chooses its own "joint" rolls, written against docs/protocol.md: its own
msgpack (tests/netplay/independent_msgpack.py), its own op building and signing (nacl), its own
fair derivation (tests/fairness/test_vectors.py, from the page's text). Only the handshake and
the frame encryption come from the project (netplay.link.streams); the encrypted link it
writes by hand is the hostile peer's (tests/netplay/hostile_peer.py).

Usage: rogue_roller.py --ports P1,P2 --table TABLE_ID --passphrase PW --seat N
Dials every port on 127.0.0.1, says hello and takes the seat, prints ``ID <peer id>`` and
``READY``. It never sends ``vv`` nor ``caught_up``, and its ops depend on nobody's. Each line
``ROLL <n>`` on stdin sends roll n to every peer, then prints ``SENT <n> <seq>``:

1. a roll whose ``fair`` record holds only its own commitment and share, the share ground
   until the die shows 6;
2. the same, naming a made-up commitment for every other player as ``missing``;
3. a plain local roll of 6.

It heartbeats to keep its links, and exits when stdin closes.
"""
from __future__ import annotations

import argparse
import asyncio
import secrets
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent / "netplay"), str(HERE.parent / "fairness")]

from hostile_peer import DOMAIN, LOOPBACK, RawLink, out  # noqa: E402
from independent_msgpack import encode  # noqa: E402
from nacl.signing import SigningKey  # noqa: E402
from test_vectors import commit_of, faces, seed_of  # noqa: E402

from netplay.link.streams import perform_handshake  # noqa: E402
from netplay.protocol.identity import Identity  # noqa: E402


class Rogue:
    def __init__(self, identity: Identity, seat: int) -> None:
        self.me, self.seat = identity.peer_id, seat
        self.key = SigningKey(identity.seed)
        self.public_hex = identity.public_key.hex()
        self.seq = 0

    def op(self, kind: str, args: dict[str, Any], seat: int | None = None) -> bytes:
        """The next op, signed: no dependencies on other authors (the stamp is its seq)."""
        self.seq += 1
        fields = [self.me, self.seq, self.seq, kind, args, {}, float(round(time.time(), 3)),
                  seat]
        sig = bytes(self.key.sign(DOMAIN + encode(fields)).signature)
        return encode([*fields, sig])

    def ground_six(self, others: list[str], missing: bool) -> dict[str, Any]:
        """A "joint" record of its own share alone, the share drawn until the die shows 6."""
        while True:
            rid = f"{self.me}.{secrets.token_hex(8)}"
            share = secrets.token_hex(32)
            if faces(seed_of(rid, {self.me: share}), 6, 1) == [6]:
                break
        commits = {self.me: commit_of(rid, self.me, share)}
        if missing:  # a commitment for every other player, made up, and "they did not reveal"
            commits.update({p: secrets.token_hex(32) for p in others})
        return {"commits": commits, "missing": sorted(others) if missing else [],
                "round": rid, "shares": {self.me: share}}

    def roll(self, n: int, others: list[str]) -> bytes:
        if n == 3:
            return self.op("roll", {"sides": 6, "values": [6]}, self.seat)
        return self.op("roll", {"fair": self.ground_six(others, missing=n == 2), "sides": 6,
                                "values": [6]}, self.seat)


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ports", required=True)
    parser.add_argument("--table", required=True)
    parser.add_argument("--passphrase", default="")
    parser.add_argument("--seat", type=int, default=3)
    args = parser.parse_args()
    identity = Identity.generate()
    out(f"ID {identity.peer_id}")
    links = []
    for port in args.ports.split(","):
        reader, writer = await asyncio.open_connection(LOOPBACK, int(port))
        done = await perform_handshake(reader, writer, identity, args.table,
                                       args.passphrase or None, True, 0)
        links.append((done.peer_id, RawLink(reader, writer, done.cipher, done.leftover)))
    tasks = [asyncio.ensure_future(t) for _, link in links for t in (link.pump(), link.beat())]
    rogue = Rogue(identity, args.seat)
    for op in (rogue.op("hello", {"key": rogue.public_hex, "name": "Mallory"}),
               rogue.op("seat", {"name": "Mallory", "seat": args.seat})):
        for _, link in links:
            link.send_op(op)
    out("READY")
    loop = asyncio.get_running_loop()
    while line := await loop.run_in_executor(None, sys.stdin.readline):
        if line.startswith("ROLL "):
            n = int(line.split()[1])
            op = rogue.roll(n, [peer for peer, _ in links])
            for _, link in links:
                link.send_op(op)
            await asyncio.gather(*(link.writer.drain() for _, link in links))
            out(f"SENT {n} {rogue.seq}")
    for task in tasks:
        task.cancel()
    for _, link in links:
        link.writer.close()


if __name__ == "__main__":
    asyncio.run(main())
