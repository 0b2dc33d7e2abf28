"""The open link's protocol, sans-IO: encrypted frames in, checked messages out, and back.

A :class:`MessageChannel` takes the cipher a handshake agreed on. :meth:`MessageChannel.receive`
takes bytes as they arrive (any chunking) and yields each message they complete, in order;
a frame that is malformed, oversized, undecryptable (tampered, replayed, reordered, wrong key)
or not a known, well-typed message raises :class:`~netplay.protocol.wire.ProtocolError` when reached,
after the messages before it. :meth:`MessageChannel.frame` seals a packed message into the
bytes to send. No I/O, no clock: ``netplay.link.link`` moves the bytes and keeps the time.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from netplay.protocol.messages import Message, decode_message
from netplay.protocol.secure import TAG_BYTES, FrameCipher
from netplay.protocol.wire import (
    DEFAULT_LIMITS,
    FrameDecoder,
    FrameError,
    ProtocolError,
    WireLimits,
    unpack,
)


@dataclass(frozen=True, slots=True)
class Received:
    """A message as it arrived: decoded and checked, and its plaintext exactly as it came
    (replication checks that each op came in its canonical encoding)."""

    message: Message
    payload: bytes
    # the next message, complete in the same bytes and decoded, is of the same kind
    more: bool = False


class MessageChannel:
    """Both directions of one open link's message stream."""

    __slots__ = ("_decoder", "cipher", "limits")

    def __init__(self, cipher: FrameCipher, limits: WireLimits = DEFAULT_LIMITS) -> None:
        self.cipher = cipher
        self.limits = limits
        self._decoder = FrameDecoder(limits)

    def receive(self, data: bytes) -> Iterator[Received]:
        """The messages ``data`` completes. Consume the iterator fully: it decrypts lazily
        (one frame ahead, to tell ``more``), so an error is raised exactly where the bad frame
        sits in the stream, after every message before it."""
        decoder, cipher, limits = self._decoder, self.cipher, self.limits
        frames = decoder.feed(data)
        while frames:
            held: tuple[Message, bytes] | None = None
            try:
                for sealed in frames:
                    payload = cipher.open(sealed)
                    message = decode_message(unpack(payload, limits))
                    if held is not None:
                        yield Received(held[0], held[1], type(message) is type(held[0]))
                    held = (message, payload)
            except ProtocolError:
                if held is not None:
                    yield Received(held[0], held[1])
                raise
            if held is not None:
                yield Received(held[0], held[1])
            frames = decoder.feed(b"")  # raises a bad header held back behind good frames

    def eof(self) -> None:
        """The peer closed the stream: fine between frames, FrameError inside one."""
        self._decoder.eof()

    def fits(self, payload: bytes) -> bool:
        """Whether a packed message fits in one frame once sealed."""
        return len(payload) + TAG_BYTES <= self.limits.max_frame

    def frame(self, payload: bytes) -> bytes:
        """Seal a packed message as the next frame of our direction."""
        size = len(payload) + TAG_BYTES
        if size > self.limits.max_frame:
            raise FrameError(f"frame of {size} bytes exceeds limit {self.limits.max_frame}")
        return self.cipher.seal_frame(payload)
