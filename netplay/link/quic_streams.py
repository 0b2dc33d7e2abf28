"""A QUIC bi-stream read and written like an asyncio stream.

:class:`QuicReader` and :class:`QuicWriter` give a bi-stream the slice of the asyncio
``StreamReader``/``StreamWriter`` interface that :mod:`netplay.link.link`,
:mod:`netplay.link.streams` and :mod:`netplay.link.outbox` use (``read``, ``write``, ``drain``,
``close``, ``wait_closed``, ``get_extra_info``, ``transport``).
"""
from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import iroh

from netplay.link.quic_calls import start_eagerly

READ_MAX = 64 * 1024  # bytes a read asks for at most
SMALL_READ = 4 * 1024  # ... and, unless the last read filled its buffer, at first
WRITE_HIGH_WATER = 256 * 1024  # drain() waits while more than this is buffered
DRAIN_TIMEOUT = 3.0  # at most this long for the peer to read what a closing stream sent


def iroh_reason(err: BaseException) -> str:
    """What an iroh error says (its own message, where it has one)."""
    message = getattr(err, "message", None)
    if callable(message):
        with contextlib.suppress(Exception):
            return str(message())
    return str(err) or type(err).__name__


class LoopTurns:
    """Numbers the turns of the event loop in which someone asks (one callback per such turn,
    however many writers ask in it)."""

    def __init__(self) -> None:
        self._count = 0
        self._counting = False

    def now(self) -> int:
        if not self._counting:
            self._counting = True
            asyncio.get_running_loop().call_soon(self._next)
        return self._count

    def _next(self) -> None:
        self._count += 1
        self._counting = False


class QuicReader:
    """The receiving half of a bi-stream, read like an asyncio StreamReader. The binding
    allocates and zeroes a buffer of the size asked for on every read: a read asks for a
    small one unless the last read filled its own (a burst), then for what the caller asked."""

    def __init__(self, recv: iroh.RecvStream) -> None:
        self._recv = recv
        self._eof = False
        self._chunk = SMALL_READ

    async def read(self, n: int = -1) -> bytes:
        if self._eof:
            return b""
        size = min(n if n > 0 else READ_MAX, self._chunk)
        try:
            data = await self._recv.read(size)
        except Exception as err:  # a reset stream or a lost connection
            raise ConnectionResetError(f"QUIC stream: {iroh_reason(err)}") from None
        if not data:
            self._eof = True
        self._chunk = READ_MAX if len(data) >= size else SMALL_READ
        return bytes(data)


class QuicWriter:
    """The sending half of a bi-stream, written like an asyncio StreamWriter. A write with
    nothing ahead of it goes into the stream at once (as a socket write does); what else is
    written in the same turn of the loop, or while a call waits for the peer's flow control,
    is buffered and sent in order by a pump task, one call per turn. It is its own
    ``transport`` (buffer size, closing)."""

    def __init__(self, conn: iroh.Connection, send: iroh.SendStream, remote: str,
                 turns: LoopTurns) -> None:
        self._conn, self._send, self.remote = conn, send, remote
        self._buffer = bytearray()
        self._wake = asyncio.Event()
        self._drained = asyncio.Event()
        self._drained.set()
        self._closing = False
        self._error: BaseException | None = None
        self._turns = turns
        self._sent_in = -1  # the turn of the loop in which a write last went out at once
        self._pump_idle = False
        self._sending: asyncio.Future[None] | None = None  # a write started at once, waiting
        self._in_flight = 0  # bytes handed to a call still waiting (the peer's flow control)
        self._pump = asyncio.ensure_future(self._run())
        self._closer: asyncio.Task[None] | None = None

    @property
    def transport(self) -> QuicWriter:
        return self

    def get_write_buffer_size(self) -> int:
        return len(self._buffer) + self._in_flight

    def is_closing(self) -> bool:
        return self._closing

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"quic_remote": self.remote}.get(name, default)

    def write(self, data: bytes) -> None:
        if self._error is not None:
            raise ConnectionResetError(str(self._error))
        if self._closing:
            raise ConnectionResetError("QUIC stream is closing")
        turn = self._turns.now()
        if self._buffer or self._sent_in == turn or not self._pump_idle \
                or self._sending is not None:
            self._buffer += data
            self._drained.clear()
            self._wake.set()
            return
        self._sent_in = turn
        try:
            self._sending = start_eagerly(self._send.write_all(bytes(data)))
        except Exception as err:  # a reset stream or a lost connection: the next write says so
            self._failed(err)
            return
        if self._sending is not None:  # flow control: the pump finishes it, then sends the rest
            self._in_flight = len(data)
            self._drained.clear()
            self._wake.set()

    def _failed(self, err: BaseException) -> None:
        self._error = ConnectionResetError(f"QUIC stream: {iroh_reason(err)}")
        self._buffer.clear()
        self._in_flight = 0
        self._drained.set()

    async def drain(self) -> None:
        while self.get_write_buffer_size() > WRITE_HIGH_WATER \
                or (self._buffer and self._pump.done()):
            if self._error is not None:
                raise ConnectionResetError(str(self._error))
            await self._drained.wait()
        if self._error is not None:
            raise ConnectionResetError(str(self._error))

    async def _run(self) -> None:
        try:
            while True:
                self._pump_idle = True
                await self._wake.wait()
                self._pump_idle = False
                self._wake.clear()
                if self._sending is not None:
                    await self._sending
                    self._sending, self._in_flight = None, 0
                while self._buffer:
                    chunk = bytes(self._buffer)
                    del self._buffer[:]
                    self._in_flight = len(chunk)
                    await self._send.write_all(chunk)
                    self._in_flight = 0
                self._drained.set()
                if self._closing:
                    await self._send.finish()
                    return
        except Exception as err:
            self._failed(err)

    def close(self) -> None:
        """Send what is buffered, end the stream, then close the connection (in a task of its
        own: a caller that stops waiting does not leave the connection open)."""
        if self._closing:
            return
        self._closing = True
        self._wake.set()
        self._closer = asyncio.ensure_future(self._close())

    async def _close(self) -> None:
        # QUIC drops what the peer has not acknowledged when a connection closes (TCP would
        # still deliver it): wait until the peer has read the stream to its end (a bye, the
        # last ops), bounded, before closing.
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.shield(self._pump), DRAIN_TIMEOUT)
        if self._error is None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._send.stopped(), DRAIN_TIMEOUT)
        with contextlib.suppress(Exception):
            self._conn.close(0, b"closed")

    def abort(self) -> None:
        """Close at once, nothing flushed (what admission does to a connection it drops)."""
        self._closing = True
        self._buffer.clear()
        self._pump.cancel()
        if self._sending is not None:
            self._sending.cancel()
        with contextlib.suppress(Exception):
            self._conn.close(0, b"dropped")

    @property
    def closer(self) -> asyncio.Task[None] | None:
        return self._closer

    async def wait_closed(self) -> None:
        if self._closer is not None:
            await asyncio.shield(self._closer)
