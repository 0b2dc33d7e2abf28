"""One frame read or written over an asyncio stream, for one-shot exchanges (a table-id probe,
a busy refusal); open links feed :class:`~netplay.protocol.wire.FrameDecoder` instead. Kept out
of ``netplay.protocol.wire`` so the protocol itself never imports asyncio."""

from __future__ import annotations

import asyncio

from netplay.protocol.wire import (
    DEFAULT_LIMITS,
    HEADER_SIZE,
    FrameError,
    WireLimits,
    encode_frame,
    frame_length,
)


async def read_frame(reader: asyncio.StreamReader, limits: WireLimits = DEFAULT_LIMITS) -> bytes:
    """Read one frame's payload from a stream (for one-shot reads such as a table-id probe;
    links use :class:`FrameDecoder`). Raises EOFError on a clean end of stream before a
    header, FrameError on a bad length or a stream that ends inside a frame."""
    try:
        header = await reader.readexactly(HEADER_SIZE)
    except asyncio.IncompleteReadError as exc:
        if not exc.partial:
            raise EOFError("connection closed") from None
        raise FrameError("connection closed inside a frame header") from None
    length = frame_length(header, limits)
    try:
        return await reader.readexactly(length)
    except asyncio.IncompleteReadError as exc:
        raise FrameError(
            f"connection closed inside a frame ({len(exc.partial)} of {length} bytes)"
        ) from None


async def write_frame(
    writer: asyncio.StreamWriter, payload: bytes, limits: WireLimits = DEFAULT_LIMITS
) -> None:
    """Write one frame and wait for the transport buffer to drain."""
    writer.write(encode_frame(payload, limits))
    await writer.drain()
