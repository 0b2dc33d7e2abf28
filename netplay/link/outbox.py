"""The sending half of an open link: messages sealed in order, written at once when possible.

A message is sealed and written in the caller's turn of the event loop when nothing is ahead
of it (no queued message, the writer task idle, the socket's buffer empty): a published op
leaves at once instead of one loop turn later, when the writer task would wake. Otherwise it
joins the queue; the writer task (:meth:`Outbox.run`) seals everything waiting, in order,
writes it with one call and waits for the socket to drain. So order is kept and a slow peer
fills the queue, never the memory of the socket buffer (past ``queue_max`` the link drops).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from netplay.protocol.channel import MessageChannel
from netplay.protocol.messages import Message, wire_form
from netplay.protocol.wire import pack

log = logging.getLogger(__name__)

WRITE_BATCH = 64  # queued frames written with one write call
_STOP = object()


@dataclass(frozen=True, slots=True)
class PackedMessage:
    """A checked message packed once, to be sealed for each link that sends it."""
    t: str
    payload: bytes


def pack_message(msg: Message | dict[str, Any]) -> PackedMessage:
    """Check and pack a message once (raises ProtocolError if it is invalid: a caller bug)."""
    wire = wire_form(msg)
    return PackedMessage(wire["t"], pack(wire))


Outgoing = dict[str, Any] | PackedMessage


def _packed(item: Outgoing) -> tuple[str, bytes]:
    if type(item) is PackedMessage:
        return item.t, item.payload
    assert isinstance(item, dict)
    return item["t"], pack(item)


class Outbox:
    """Sends one open link's messages. ``fail(reason)`` is called when writing fails or the
    queue overflows (the link drops); ``label()`` names the peer in log lines."""

    def __init__(self, writer: asyncio.StreamWriter, channel: MessageChannel,
                 queue_max: int, fail: Callable[[str], None], label: Callable[[], str]) -> None:
        self._writer = writer
        self._channel = channel
        self._queue_max = queue_max
        self._fail = fail
        self._label = label
        self._queue: asyncio.Queue[Any] = asyncio.Queue()
        self._writing = False  # the writer task holds messages taken from the queue
        self.sent = 0

    def send(self, item: Outgoing) -> bool:
        """Seal and write ``item`` now if nothing is ahead of it, else queue it. False if the
        link dropped (write failed, queue overflow)."""
        if self._idle():
            return self._write_now(*_packed(item))
        if self._queue.qsize() >= self._queue_max:
            self._fail("send queue overflow (peer too slow)")
            return False
        self._queue.put_nowait(item)
        return True

    def close(self, bye: dict[str, Any] | None) -> None:
        """Stop after what is queued (and ``bye``, if given): :meth:`run` returns then."""
        if bye is not None:
            self._queue.put_nowait(bye)
        self._queue.put_nowait(_STOP)

    def _idle(self) -> bool:
        transport = self._writer.transport
        return (not self._writing and not self._queue.qsize()
                and not transport.get_write_buffer_size() and not transport.is_closing())

    def _frame(self, t: str, payload: bytes) -> bytes | None:
        if self._channel.fits(payload):
            return self._channel.frame(payload)
        log.error("link %s: dropping our own oversized %s message (%d bytes)",
                  self._label(), t, len(payload))
        return None

    def _write_now(self, t: str, payload: bytes) -> bool:
        frame = self._frame(t, payload)
        if frame is None:
            return True
        try:
            self._writer.write(frame)
        except (OSError, ConnectionError, RuntimeError) as exc:
            self._fail(f"write failed: {exc or type(exc).__name__}")
            return False
        self.sent += 1
        return True

    def _take_batch(self, first: Any) -> tuple[list[bytes], bool]:
        """Frames for ``first`` and what else waits (up to WRITE_BATCH); True if the stop
        mark was reached."""
        frames: list[bytes] = []
        item = first
        while item is not _STOP:
            frame = self._frame(*_packed(item))
            if frame is not None:
                frames.append(frame)
            if self._queue.empty() or len(frames) >= WRITE_BATCH:
                return frames, False
            item = self._queue.get_nowait()
        return frames, True

    async def run(self) -> None:
        """The writer task: write what was queued, wait for the socket to drain, repeat."""
        writer = self._writer
        while True:
            first = await self._queue.get()
            self._writing = True
            frames, stop = self._take_batch(first)
            try:
                if frames:
                    writer.write(b"".join(frames))
                    await writer.drain()
            except (OSError, ConnectionError) as exc:
                self._fail(f"write failed: {exc or type(exc).__name__}")
                return
            self.sent += len(frames)
            self._writing = False
            if stop:
                return
