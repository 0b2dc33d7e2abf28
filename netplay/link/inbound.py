"""The receiving half of an open link: bytes as they arrive (read by a task from the stream, or
handed over by :class:`~netplay.link.direct.DirectProtocol`) cut into messages, each handed to
the link in stream order. A bad frame, the stream's end or a read error ends the link, with
the reason.

Messages that arrived together (one chunk of bytes) are handed over one by one, each saying
whether the next is of its kind (``Received.more``): the owner may hold a run of them to handle
together (replication verifies and applies a burst of ops at once). After bytes that held such
a run the owner also hears ``run_end``, whatever ended the run (a bad frame, a closed link).
"""
from __future__ import annotations

import asyncio
from collections.abc import Callable

from netplay.link.streams import READ_CHUNK
from netplay.protocol.channel import MessageChannel, Received
from netplay.protocol.wire import ProtocolError


class Inbound:
    """``dispatch(received)`` takes each message (raising ProtocolError drops the link);
    ``is_open()`` says whether to go on; ``fail(reason)`` ends the link; ``run_end()`` (if
    given) follows each run of messages that arrived together."""

    def __init__(self, channel: MessageChannel, pending: bytes, clock: Callable[[], float],
                 dispatch: Callable[[Received], None], is_open: Callable[[], bool],
                 fail: Callable[[str], None], run_end: Callable[[], None] | None) -> None:
        self.channel = channel
        self.pending = pending  # bytes read with the handshake, not yet taken
        self._clock = clock
        self._dispatch, self._is_open, self._fail, self._run_end = dispatch, is_open, fail, run_end
        self.last_recv = clock()
        self.received = 0

    def take(self, data: bytes) -> None:
        """Handle every message ``data`` completes, in order; a bad one ends the link."""
        if not self._is_open():
            return
        if self.pending:
            data, self.pending = self.pending + data, b""
        together = False
        try:
            try:
                for received in self.channel.receive(data):
                    self.last_recv = self._clock()
                    self.received += 1
                    together = together or received.more
                    self._dispatch(received)
                    if not self._is_open():
                        return
            finally:  # even when a later frame is bad: the good ones before it count
                if together and self._run_end is not None:
                    self._run_end()
        except ProtocolError as exc:
            self._fail(exc.reason)
        except (OSError, ConnectionError) as exc:
            self._fail(f"read failed: {exc or type(exc).__name__}")

    def ended(self, exc: BaseException | None) -> None:
        """The peer's stream ended (``None``: cleanly, between frames or not) or failed."""
        if not self._is_open():
            return
        if exc is not None:
            self._fail(f"read failed: {exc or type(exc).__name__}")
            return
        try:
            self.channel.eof()  # raises if the stream ended inside a frame
        except ProtocolError as error:
            self._fail(error.reason)
            return
        self._fail("connection closed by peer")

    async def read_loop(self, reader: asyncio.StreamReader) -> None:
        """Read the stream until the link ends (a link on its streams: QUIC, or a transport
        that could not be taken over)."""
        self.take(b"")
        while self._is_open():
            try:
                data = await reader.read(READ_CHUNK)
            except (OSError, ConnectionError) as exc:
                self.ended(exc)
                return
            if not data:
                self.ended(None)
                return
            self.take(data)
