"""A hostile peer, written against docs/protocol.md: its own msgpack encoder and decoder
(independent_msgpack), its own op building and signing (nacl). Only the handshake and the
frame encryption come from the project (netplay.protocol.handshake, netplay.protocol.secure), as allowed.

Usage: hostile_peer.py --case NAME --ports P1,P2 [--table T --passphrase PW]
Dials every port on 127.0.0.1, announces itself with a ``hello`` op, plays the case against the
first port's peer (target), prints ``ID <peer id>`` then ``SENT`` once everything is written,
keeps heartbeating and exits when stdin closes.
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import sys
import time
from typing import Any

from independent_msgpack import Float32, WideInt, decode, encode, encode_array_of
from nacl.signing import SigningKey

from netplay.link.streams import perform_handshake
from netplay.protocol.identity import Identity

DOMAIN = b"sandtable-op-v1"
LOOPBACK = "127.0.0.1"


def out(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


class RawLink:
    """One encrypted link: frames written and read by hand, messages in our own encoding."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 cipher: Any, leftover: bytes) -> None:
        self.reader, self.writer, self.cipher = reader, writer, cipher
        self.buffer = bytearray(leftover)  # link frames that came with the handshake's end
        self.received: list[dict[str, Any]] = []
        self.closed = False

    def send_payload(self, payload: bytes) -> None:
        sealed = self.cipher.seal(payload)
        self.writer.write(len(sealed).to_bytes(4, "big") + sealed)

    def send(self, msg: dict[str, Any]) -> None:
        self.send_payload(encode(msg))

    def send_op(self, op_bytes: bytes) -> None:
        self.send_payload(b"\x82" + encode("t") + encode("op") + encode("op") + op_bytes)

    def send_ops(self, ops: list[bytes]) -> None:
        self.send_payload(b"\x82" + encode("t") + encode("ops") + encode("ops")
                          + encode_array_of(ops))

    async def pump(self) -> None:
        buf = self.buffer
        try:
            while True:
                while len(buf) >= 4 and len(buf) >= 4 + int.from_bytes(buf[:4], "big"):
                    n = int.from_bytes(buf[:4], "big")
                    self.received.append(decode(self.cipher.open(bytes(buf[4:4 + n]))))
                    del buf[:4 + n]
                data = await self.reader.read(65536)
                if not data:
                    break
                buf += data
        except (ConnectionError, OSError):
            pass
        self.closed = True

    async def beat(self) -> None:
        while not self.closed:
            self.send({"t": "hb"})
            try:
                await self.writer.drain()
            except (ConnectionError, OSError):
                self.closed = True
            await asyncio.sleep(0.3)


class Author:
    """Builds and signs this peer's ops from the document's rules."""

    def __init__(self, identity: Identity) -> None:
        self.peer_id = identity.peer_id
        self.key = SigningKey(identity.seed)
        self.public_hex = identity.public_key.hex()

    def fields(self, seq: int, kind: str, args: dict[str, Any], time_: float | None = None
               ) -> list[Any]:
        # No dependencies on other authors: the stamp is 1 + the previous own op's = seq.
        return [self.peer_id, seq, seq, kind, args, {}, time.time() if time_ is None else time_,
                None]

    def sign(self, fields: list[Any]) -> bytes:
        return bytes(self.key.sign(DOMAIN + encode(fields)).signature)

    def op(self, seq: int, kind: str, args: dict[str, Any]) -> bytes:
        f = self.fields(seq, kind, args)
        return encode([*f, self.sign(f)])


async def dial(port: int, identity: Identity, table: str, passphrase: str | None) -> RawLink:
    reader, writer = await asyncio.open_connection(LOOPBACK, port)
    result = await perform_handshake(reader, writer, identity, table, passphrase, True, 0)
    return RawLink(reader, writer, result.cipher, result.leftover)


async def play(case: str, me: Author, target: RawLink, links: list[RawLink]) -> None:
    hello = me.op(1, "hello", {"key": me.public_hex, "name": "Mallory"})
    second = me.op(2, "note", {"text": "hello from a hostile peer"})
    for link in links:
        link.send_op(hello)
        link.send_op(second)
    f = me.fields(3, "note", {"text": "three"})
    sig = me.sign(f)
    # Non-canonical encodings, signed over the very bytes sent (what a careless encoder does).
    if case == "float32_time":
        body = [*f[:6], Float32(f[6]), f[7]]
        target.send_op(encode([*body, me.sign(body)]))
    elif case == "int_time":
        body = [*f[:6], int(f[6]), f[7]]
        target.send_op(encode([*body, me.sign(body)]))
    elif case == "uint32_ints":
        r = me.fields(3, "roll", {"sides": 6, "values": [6, 2]})
        body = [*r[:4], {"sides": 6, "values": [WideInt(6, 0xce), 2]}, *r[5:]]
        target.send_op(encode([*body, me.sign(body)]))
    elif case == "bad_signature":
        target.send_op(encode([*f, secrets.token_bytes(64)]))
    elif case == "altered_args":
        target.send_op(encode([*f[:4], {"text": "altered"}, *f[5:], sig]))
    elif case == "reused_seq":
        for link in links:
            link.send_op(encode([*f, sig]))
        other = me.fields(3, "note", {"text": "another three"})
        target.send_op(encode([*other, me.sign(other)]))
    elif case == "split_seq":  # one version of #3 to each honest peer
        one = me.fields(3, "create", {"id": "tok-a", "kind": "token"})
        two = me.fields(3, "create", {"id": "tok-b", "kind": "token"})
        links[0].send_op(encode([*one, me.sign(one)]))
        links[1].send_op(encode([*two, me.sign(two)]))
    elif case == "ghost_vector":
        ghost = secrets.token_hex(8)
        claim = {me.peer_id: 2, ghost: 5}
        target.send({"t": "vv", "vv": claim})
        target.send({"t": "caught_up", "vv": claim})
        target.send({"t": "hash", "vv": claim, "h": "0" * 32})
        out(f"GHOST {ghost}")
    elif case == "burst":
        for seq in range(3, 3 + 10_000):
            op = me.op(seq, "note", {"text": f"burst {seq}"})
            for link in links:
                link.send_op(op)
            if seq % 500 == 0:
                await asyncio.gather(*(link.writer.drain() for link in links))
    else:
        raise SystemExit(f"unknown case {case}")
    await asyncio.gather(*(link.writer.drain() for link in links))


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--case", required=True)
    parser.add_argument("--ports", required=True)
    parser.add_argument("--table", default="table-1")
    parser.add_argument("--passphrase", default="pw")
    args = parser.parse_args()
    identity = Identity.generate()
    out(f"ID {identity.peer_id}")
    links = [await dial(int(p), identity, args.table, args.passphrase or None)
             for p in args.ports.split(",")]
    tasks = [asyncio.ensure_future(t) for link in links for t in (link.pump(), link.beat())]
    await play(args.case, Author(identity), links[0], links)
    out("SENT")
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    for task in tasks:
        task.cancel()
    for link in links:
        link.writer.close()


if __name__ == "__main__":
    asyncio.run(main())
