"""Wire format: msgpack messages in length-prefixed frames, with explicit limits.

A frame on a TCP stream is a 4-byte big-endian unsigned length followed by that many bytes of
payload. During the handshake the payload is one msgpack map; afterwards it is the AEAD
ciphertext of one msgpack map (see ``netplay.protocol.secure``). Every decoded message is a map with
string keys and a string field ``t`` naming its type; ``netplay.protocol.messages`` holds the schema of
each type.

Anything that breaks a limit raises :class:`FrameError` (framing or decoding) or
:class:`ProtocolError` (a well-formed message that is not allowed), each with a human-readable
``reason``. Callers drop the link on either; neither is ever fatal to the program.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import msgpack

log = logging.getLogger(__name__)

HEADER_SIZE = 4
MAX_FRAME = 1 << 20  # 1 MiB of payload per frame, on the wire (ciphertext included)


class ProtocolError(Exception):
    """A peer sent something the protocol does not allow. ``reason`` says what."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class FrameError(ProtocolError):
    """A frame could not be read or decoded: bad length, truncated, not msgpack, too big or deep."""


@dataclass(frozen=True, slots=True)
class WireLimits:
    """Limits applied to every frame and every decoded message."""

    max_frame: int = MAX_FRAME
    max_str_len: int = 64 * 1024
    max_bin_len: int = 512 * 1024
    max_array_len: int = 16 * 1024
    max_map_len: int = 1024
    max_depth: int = 16


DEFAULT_LIMITS = WireLimits()


def _no_ext(code: int, data: bytes) -> Any:
    raise FrameError(f"msgpack ext type {code} is not allowed")


def pack(msg: Any) -> bytes:
    """Encode a message (or any msgpack-able value) without ext types; bytes stay binary."""
    try:
        data: bytes = msgpack.packb(msg, use_bin_type=True, strict_types=False)
        return data
    except (TypeError, ValueError, OverflowError) as exc:
        raise ProtocolError(f"cannot encode message: {exc}") from exc


def unpack(data: bytes, limits: WireLimits = DEFAULT_LIMITS) -> Any:
    """Decode exactly one msgpack value from ``data`` under ``limits``; check nesting depth."""
    if len(data) > limits.max_frame:
        raise FrameError(f"payload of {len(data)} bytes exceeds limit {limits.max_frame}")
    try:
        value = msgpack.unpackb(
            data,
            raw=False,
            use_list=True,
            strict_map_key=True,
            max_str_len=limits.max_str_len,
            max_bin_len=limits.max_bin_len,
            max_array_len=limits.max_array_len,
            max_map_len=limits.max_map_len,
            max_ext_len=0,
            ext_hook=_no_ext,
        )
    except FrameError:
        raise
    except msgpack.ExtraData:
        raise FrameError("trailing bytes after the message") from None
    except msgpack.StackError:
        raise FrameError("msgpack nesting too deep") from None
    except UnicodeDecodeError:
        raise FrameError("string is not valid UTF-8") from None
    except Exception as exc:  # msgpack raises ValueError, TypeError, OutOfData, FormatError...
        raise FrameError(f"not a valid msgpack value ({type(exc).__name__}: {exc})") from None
    check_depth(value, limits.max_depth)
    return value


_CONTAINERS = (dict, list)


def check_depth(value: Any, max_depth: int) -> None:
    """Raise FrameError if containers nest deeper than ``max_depth`` or a map key is not a str.

    Walks the containers level by level (only containers are queued), which keeps the check
    cheap on the small maps and arrays ops are made of. Values come from msgpack, so
    containers are exactly ``dict`` and ``list``.
    """
    level: list[Any] = [value] if type(value) in _CONTAINERS else []
    depth = 1
    while level:
        if depth > max_depth:
            raise FrameError(f"nesting deeper than {max_depth}")
        below: list[Any] = []
        for item in level:
            if type(item) is dict:
                for key in item:
                    if type(key) is not str:
                        raise FrameError("map key is not a string")
                item = item.values()
            for v in item:
                if type(v) in _CONTAINERS:
                    below.append(v)
        level = below
        depth += 1


def encode_frame(payload: bytes, limits: WireLimits = DEFAULT_LIMITS) -> bytes:
    """Prefix ``payload`` with its 4-byte big-endian length; refuse payloads past the limit."""
    if not payload:
        raise FrameError("empty frame")
    if len(payload) > limits.max_frame:
        raise FrameError(f"frame of {len(payload)} bytes exceeds limit {limits.max_frame}")
    return len(payload).to_bytes(HEADER_SIZE, "big") + payload


def frame_length(header: bytes | bytearray, limits: WireLimits = DEFAULT_LIMITS) -> int:
    """The payload length a 4-byte header announces; FrameError if zero or past the limit."""
    length = int.from_bytes(header, "big")
    if length == 0:
        raise FrameError("empty frame")
    if length > limits.max_frame:
        raise FrameError(f"frame length {length} exceeds limit {limits.max_frame}")
    return length


class FrameDecoder:
    """Cuts a byte stream into frame payloads, whatever the chunking (sans-IO).

    :meth:`feed` takes the bytes as they arrive and returns the payloads completed by them.
    A bad length raises :class:`FrameError`, and so does every later call: the stream cannot
    be resynchronised, the link must drop. :meth:`eof` says whether the stream ended cleanly.
    """

    __slots__ = ("_buf", "_error", "limits")

    def __init__(self, limits: WireLimits = DEFAULT_LIMITS) -> None:
        self.limits = limits
        self._buf = bytearray()
        self._error: FrameError | None = None

    @property
    def buffered(self) -> int:
        """Bytes received that do not yet make a whole frame."""
        return len(self._buf)

    def feed(self, data: bytes) -> list[bytes]:
        """Add ``data``; return the payloads it completes, in order.

        A bad header raises FrameError. If whole frames precede it, they are returned first
        and the error is raised by the next call (``feed(b"")`` checks), so a reader handles
        every frame the peer sent before the bad one, in stream order.
        """
        if self._error is not None:
            raise self._error
        buf = self._buf
        if not buf and len(data) > HEADER_SIZE:  # nothing held: one whole frame, often
            length = int.from_bytes(data[:HEADER_SIZE], "big")
            if len(data) == HEADER_SIZE + length and 0 < length <= self.limits.max_frame:
                return [data[HEADER_SIZE:]]
        buf += data
        frames: list[bytes] = []
        pos, end = 0, len(buf)
        while end - pos >= HEADER_SIZE:
            try:
                length = frame_length(buf[pos:pos + HEADER_SIZE], self.limits)
            except FrameError as exc:
                if frames:
                    break
                self._error = exc
                buf.clear()
                raise
            if end - pos - HEADER_SIZE < length:
                break
            start = pos + HEADER_SIZE
            frames.append(bytes(buf[start:start + length]))
            pos = start + length
        del buf[:pos]
        return frames

    def take_buffered(self) -> bytes:
        """Remove and return the bytes not yet framed (to hand the stream to another decoder)."""
        rest = bytes(self._buf)
        self._buf.clear()
        return rest

    def eof(self) -> None:
        """The stream ended: fine between frames, FrameError inside one (or after a bad one)."""
        if self._error is not None:
            raise self._error
        held = len(self._buf)
        if held == 0:
            return
        self.feed(b"")  # a bad header still held raises its own error
        if held < HEADER_SIZE:
            raise FrameError("connection closed inside a frame header")
        length = int.from_bytes(self._buf[:HEADER_SIZE], "big")
        raise FrameError(
            f"connection closed inside a frame ({held - HEADER_SIZE} of {length} bytes)")
