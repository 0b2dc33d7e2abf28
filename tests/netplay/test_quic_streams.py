"""A QUIC bi-stream between two iroh endpoints (relays off, 127.0.0.1) carries every byte in
order however it was written: at once, several in one turn of the loop, or held back by the
peer's flow control; a read given up midway leaves the stream readable. Both ways the binding's
calls are driven are tested: woken through pipes (64-bit Linux) and through a Python callback
(elsewhere)."""
from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import iroh
import pytest

from netplay.link import quic_calls
from netplay.link.quic import QuicReader, QuicSettings, QuicTransport, QuicWriter
from tests.netplay.netplay_testkit import LOOPBACK, run

pytestmark = pytest.mark.socket

QUIC = QuicSettings(relay="off", bind_host=LOOPBACK)


@pytest.fixture(params=["pipes", "python callback"])
def driver(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    quic_calls.drive_calls_inline()
    if request.param == "python callback":
        ffi = iroh.iroh_ffi
        monkeypatch.setattr(ffi, "_uniffi_rust_call_async", quic_calls.CallDriver(ffi, None).call)
    return str(request.param)


@asynccontextmanager
async def _stream() -> AsyncIterator[tuple[QuicWriter, QuicReader]]:
    """A stream from one endpoint to another: its writer and the far end's reader."""
    near = await QuicTransport.bind(os.urandom(32), QUIC)
    far = await QuicTransport.bind(os.urandom(32), QUIC)
    accepted: asyncio.Future[tuple[QuicReader, QuicWriter]] = \
        asyncio.get_running_loop().create_future()

    async def on_stream(reader: QuicReader, writer: QuicWriter, _remote: str) -> None:
        accepted.set_result((reader, writer))
        await asyncio.Event().wait()  # held open until the endpoints close

    far.serve(on_stream)
    try:
        _reader, writer = await near.open(far.ticket(), 5)
        writer.write(b"!")  # a stream is announced to the peer by its first bytes
        far_reader, _far_writer = await asyncio.wait_for(accepted, 5)
        assert await far_reader.read(1) == b"!"
        yield writer, far_reader
    finally:
        await near.close()
        await far.close()


async def _read_exactly(reader: QuicReader, n: int) -> bytes:
    data = bytearray()
    while len(data) < n:
        chunk = await asyncio.wait_for(reader.read(64 * 1024), 5)
        assert chunk, "the stream ended early"
        data += chunk
    return bytes(data)


def test_every_byte_arrives_in_order_however_it_was_written(driver: str) -> None:
    async def scenario() -> None:
        async with _stream() as (writer, reader):
            big = os.urandom(12 * 1024 * 1024)  # past what the peer lets in before reading
            writer.write(big)  # goes out at once, and waits for the peer's flow control
            await asyncio.sleep(0)
            writer.write(b"after the big one")  # queued behind it
            await asyncio.sleep(0.05)
            assert writer.get_write_buffer_size() > 0  # held back: the link's outbox waits
            expected = big + b"after the big one"
            assert await _read_exactly(reader, len(expected)) == expected
            await asyncio.wait_for(writer.drain(), 5)
            assert writer.get_write_buffer_size() == 0
            frames = [os.urandom(size) for size in (1, 250, 4096, 70_000, 3)]
            writer.write(frames[0])  # goes out at once
            await asyncio.sleep(0)
            for frame in frames[1:]:  # one turn of the loop: sent together, after the first
                writer.write(frame)
            expected = b"".join(frames)
            assert await _read_exactly(reader, len(expected)) == expected

    run(scenario())


def test_a_read_given_up_midway_leaves_the_stream_readable(driver: str) -> None:
    async def scenario() -> None:
        async with _stream() as (writer, reader):
            for i in range(5):
                waiting = asyncio.ensure_future(reader.read(1024))
                await asyncio.sleep(0.01)  # pending in Rust, its wake-up not yet come
                waiting.cancel()
                with pytest.raises(asyncio.CancelledError):
                    await waiting
                message = f"message {i}".encode()
                writer.write(message)
                assert await _read_exactly(reader, len(message)) == message

    run(scenario())
