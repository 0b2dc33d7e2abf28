"""An open TCP link's bytes without the stream layer: once the handshake is done, the link's
connection is handed from asyncio's stream protocol to :class:`DirectProtocol`, whose
``data_received`` gives each chunk straight to the link (no reader buffer, no task woken to
read it: a message is handled in the same turn of the loop that read it off the socket).

The handshake still runs over the streams (``netplay.link.streams``); QUIC links, whose
streams are not asyncio transports, stay on them for good. :class:`DirectWriter` keeps the
writer's side of the stream API the link and its outbox use (``write``, ``drain``, ``close``,
``wait_closed``), with the flow control the stream protocol gave.
"""
from __future__ import annotations

import asyncio
import collections
from collections.abc import Callable
from typing import Any

DataSink = Callable[[bytes], None]
EndSink = Callable[[BaseException | None], None]


class DirectProtocol(asyncio.Protocol):
    """Chunks to ``on_data``; the end of the peer's stream (``None``) or a connection error
    to ``on_end``, once. Writing pauses and resumes as the transport's buffer fills."""

    def __init__(self, transport: asyncio.Transport, on_data: DataSink,
                 on_end: EndSink) -> None:
        self._on_data, self._on_end = on_data, on_end
        _low, high = transport.get_write_buffer_limits()
        self._paused = transport.get_write_buffer_size() > high
        self._drainers: collections.deque[asyncio.Future[None]] = collections.deque()
        self._ended = False
        self.lost = False
        self.closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def data_received(self, data: bytes) -> None:
        self._on_data(data)

    def eof_received(self) -> bool:
        self._end(None)
        return True  # half-open, as the stream protocol keeps it: the link closes it

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = True
        self._end(exc)
        self._wake_drainers()
        if not self.closed.done():
            self.closed.set_result(None)

    def pause_writing(self) -> None:
        self._paused = True

    def resume_writing(self) -> None:
        self._paused = False
        self._wake_drainers()

    def _end(self, exc: BaseException | None) -> None:
        if not self._ended:
            self._ended = True
            self._on_end(exc)

    def _wake_drainers(self) -> None:
        while self._drainers:
            waiter = self._drainers.popleft()
            if not waiter.done():
                waiter.set_result(None)

    async def drain(self) -> None:
        if self.lost:
            raise ConnectionResetError("Connection lost")
        if not self._paused:
            return
        waiter = asyncio.get_running_loop().create_future()
        self._drainers.append(waiter)
        await waiter
        if self.lost:
            raise ConnectionResetError("Connection lost")


class DirectWriter:
    """The writing half of a link on :class:`DirectProtocol`, shaped as the stream writer the
    link used (it keeps that writer: a stream writer let go closes its transport)."""

    def __init__(self, stream_writer: asyncio.StreamWriter, protocol: DirectProtocol) -> None:
        self._stream_writer = stream_writer
        self._protocol = protocol
        self.transport: asyncio.Transport = stream_writer.transport  # type: ignore[assignment]

    def write(self, data: bytes) -> None:
        self.transport.write(data)

    async def drain(self) -> None:
        await self._protocol.drain()

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self.transport.get_extra_info(name, default)

    def close(self) -> None:
        self.transport.close()

    async def wait_closed(self) -> None:
        await asyncio.shield(self._protocol.closed)


def _stream_reader(reader: Any) -> asyncio.StreamReader | None:
    """The asyncio stream under ``reader`` (itself, or a wrapper's ``stream``)."""
    if isinstance(reader, asyncio.StreamReader):
        return reader
    inner = getattr(reader, "stream", None)
    return inner if isinstance(inner, asyncio.StreamReader) else None


def take_over(reader: Any, writer: Any, on_data: DataSink,
              on_end: EndSink) -> tuple[DirectWriter, bytes] | None:
    """Move an open connection from its streams to a :class:`DirectProtocol`: returns the
    writer to use from now on and the bytes the stream had read but nobody had taken yet
    (give them to ``on_data`` first). None (nothing changed: stay on the streams) when the
    streams are not asyncio's over a transport that can change hands, or the stream
    already ended or failed (the stream path reports that the way it always has)."""
    stream = _stream_reader(reader)
    if stream is None or type(writer) is not asyncio.StreamWriter:
        return None
    transport = writer.transport
    buffered = getattr(stream, "_buffer", None)  # asyncio keeps unread bytes there
    if (not isinstance(transport, asyncio.Transport) or transport.is_closing()
            or type(buffered) is not bytearray or getattr(stream, "_eof", True)
            or stream.exception() is not None):
        return None
    try:  # a transport of another kind (a test's in-memory one) may not change hands
        protocol = DirectProtocol(transport, on_data, on_end)
        reading = transport.is_reading()
        transport.set_protocol(protocol)
    except NotImplementedError:
        return None
    if not reading:  # the stream paused it (its buffer was full)
        transport.resume_reading()
    held = bytes(buffered)
    buffered.clear()
    return DirectWriter(writer, protocol), held
