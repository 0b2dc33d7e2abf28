"""An open connection taken from asyncio's streams (netplay.link.direct): the bytes the stream had
read but nobody had taken come first, then every later chunk, then the end; writing, draining
and closing go on as on the stream. A stream that already ended stays a stream. Over 127.0.0.1."""
from __future__ import annotations

import asyncio

import pytest
from netplay_testkit import LOOPBACK, run, wait_until

from netplay.link.direct import DirectWriter, take_over

pytestmark = pytest.mark.socket


async def _connected() -> tuple[asyncio.StreamReader, asyncio.StreamWriter,
                                asyncio.StreamReader, asyncio.StreamWriter, asyncio.Server]:
    accepted: asyncio.Future = asyncio.get_running_loop().create_future()
    server = await asyncio.start_server(lambda r, w: accepted.set_result((r, w)), LOOPBACK, 0)
    reader, writer = await asyncio.open_connection(LOOPBACK, server.sockets[0].getsockname()[1])
    far_reader, far_writer = await accepted
    return reader, writer, far_reader, far_writer, server


def test_taken_over_bytes_come_in_order_then_the_end() -> None:
    async def scenario() -> None:
        reader, writer, far_reader, far_writer, server = await _connected()
        far_writer.write(b"first")
        await far_writer.drain()
        assert await wait_until(lambda: len(getattr(reader, "_buffer", b"")) == 5, 5, 0.005)
        chunks: list[bytes] = []
        ends: list[BaseException | None] = []
        taken = take_over(reader, writer, chunks.append, ends.append)
        assert taken is not None
        direct, held = taken
        assert isinstance(direct, DirectWriter) and held == b"first"
        far_writer.write(b"second")
        assert await wait_until(lambda: b"".join(chunks) == b"second", 5, 0.005)
        direct.write(b"back")  # the writing half works as the stream's did
        await direct.drain()
        assert await far_reader.readexactly(4) == b"back"
        far_writer.close()
        assert await wait_until(lambda: ends == [None], 5, 0.005)
        direct.close()
        await asyncio.wait_for(direct.wait_closed(), 5)
        server.close()
        await server.wait_closed()
    run(scenario())


def test_a_stream_that_ended_is_not_taken_over() -> None:
    async def scenario() -> None:
        reader, writer, _far_reader, far_writer, server = await _connected()
        far_writer.close()
        assert await wait_until(lambda: reader.at_eof(), 5, 0.005)
        assert take_over(reader, writer, lambda _d: None, lambda _e: None) is None
        writer.close()
        server.close()
        await server.wait_closed()
    run(scenario())
