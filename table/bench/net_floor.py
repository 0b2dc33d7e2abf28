"""The floor under one hop of `sandtable bench net`: the same unavoidable work, nothing of ours.

An op crosses from one peer to the other over 127.0.0.1 (both ends in this process, on one
event loop, as the hop benchmark's two peers are): the author signs the op's bytes (Ed25519),
packs the message (msgpack), seals it (XChaCha20-Poly1305 with a counter nonce, libsodium) and
writes it with a 4-byte length to an asyncio stream; the receiver reads the frame, opens it,
unpacks it and verifies the signature. Measured as CPU time per op, paced (one op in flight)
and burst (every op written at once).
"""
from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

import msgpack
import nacl.bindings as sodium
from nacl.signing import SigningKey

LOOPBACK = "127.0.0.1"
Hops = Callable[[int, bool], Awaitable[float]]


def _nonce(n: int) -> bytes:
    return n.to_bytes(8, "little") + bytes(16)


class _Receiver:
    """Reads frames, opens, unpacks and verifies each; wakes the sender at each op's arrival."""

    def __init__(self, reader: asyncio.StreamReader, key: bytes, verify_key: Any) -> None:
        self.reader, self.key, self.verify_key = reader, key, verify_key
        self.got = 0
        self.waiting: tuple[int, asyncio.Future[None]] | None = None

    async def run(self) -> None:
        n = 0
        while header := await self.reader.readexactly(4):
            sealed = await self.reader.readexactly(int.from_bytes(header, "big"))
            plain = sodium.crypto_aead_xchacha20poly1305_ietf_decrypt(sealed, None, _nonce(n),
                                                                       self.key)
            n += 1
            msg = msgpack.unpackb(plain)
            body, sig = msg["op"]
            self.verify_key.verify(b"sandtable-op-v1" + body, sig)
            msgpack.unpackb(body)
            self.got += 1
            if self.waiting is not None and self.got >= self.waiting[0]:
                self.waiting[1].set_result(None)
                self.waiting = None

    def until(self, count: int) -> asyncio.Future[None]:
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if self.got >= count:
            fut.set_result(None)
        else:
            self.waiting = (count, fut)
        return fut


async def floor_hops(count: int, burst: bool) -> float:
    """CPU seconds per op of the floor, `count` ops paced or burst."""
    key, signer = bytes(range(32)), SigningKey.generate()
    accepted: asyncio.Future[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = \
        asyncio.get_running_loop().create_future()

    async def on_accept(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        accepted.set_result((reader, writer))  # held (a writer let go closes its stream)

    server = await asyncio.start_server(on_accept, LOOPBACK, 0)
    _reader, writer = await asyncio.open_connection(LOOPBACK,
                                                    server.sockets[0].getsockname()[1])
    far_reader, far_writer = await accepted
    receiver = _Receiver(far_reader, key, signer.verify_key)
    reading = asyncio.ensure_future(receiver.run())
    author = signer.verify_key.encode().hex()[:16]
    cpu0 = time.process_time()
    for i in range(count):
        body = msgpack.packb([author, i + 1, i + 1, "note", {"text": f"op {i}"}, {},
                              time.time(), None])
        sig = signer.sign(b"sandtable-op-v1" + body).signature
        plain = msgpack.packb({"t": "op", "op": [body, sig]})
        sealed = sodium.crypto_aead_xchacha20poly1305_ietf_encrypt(plain, None, _nonce(i), key)
        writer.write(len(sealed).to_bytes(4, "big") + sealed)
        if not burst:
            await receiver.until(i + 1)
        elif i % 50 == 49:
            await writer.drain()
    await receiver.until(count)
    per_op = (time.process_time() - cpu0) / count
    reading.cancel()
    for stream in (writer, far_writer):
        stream.close()
    server.close()
    await server.wait_closed()
    return per_op


def on_qasync(hops: Hops, count: int, burst: bool) -> float:
    """`hops` run on the app's event loop (qasync over Qt's), as the table window runs it."""
    from PySide6.QtCore import QCoreApplication

    from table.app.event_loop import TableEventLoop

    app = QCoreApplication.instance() or QCoreApplication([])
    loop = TableEventLoop(app)
    try:
        return float(loop.run_until_complete(hops(count, burst)))
    finally:
        loop.close()
