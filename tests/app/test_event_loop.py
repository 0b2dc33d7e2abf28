"""The program's event loop (table/app/event_loop.py): asyncio's promises kept with qasync's
per-callback timers taken out. Callbacks run in the order queued, each turn runs what was queued
before it (a callback queued by one runs on the next turn), a cancelled one never runs, an error
is reported and the loop goes on; a ready socket's reader runs, once per readiness, and never
after it is removed."""
from __future__ import annotations

import asyncio
import socket
from typing import Any

import pytest

from table.app.event_loop import TableEventLoop


@pytest.fixture
def loop(qapp: Any) -> Any:
    made = TableEventLoop(qapp)
    asyncio.set_event_loop(made)
    yield made
    made.close()
    asyncio.set_event_loop(None)


def test_callbacks_run_in_order_and_one_queued_by_a_callback_waits_a_turn(loop: Any) -> None:
    ran: list[str] = []

    def first() -> None:
        ran.append("first")
        loop.call_soon(ran.append, "queued by first")

    loop.call_soon(first)
    loop.call_soon(ran.append, "second")
    loop.call_soon(ran.append, "cancelled").cancel()
    loop.run_until_complete(asyncio.sleep(0.05))
    assert ran == ["first", "second", "queued by first"]


def test_a_callback_that_queues_itself_again_starves_nothing(loop: Any) -> None:
    """Each turn runs only what was queued before it: a callback that queues itself forever
    leaves room for a timer (and Qt's events) between its runs."""
    spins = [0]

    def spin() -> None:
        spins[0] += 1
        loop.call_soon(spin)

    loop.call_soon(spin)
    loop.run_until_complete(asyncio.sleep(0.05))  # a timer: it fires though spin never stops
    assert spins[0] > 1


def test_an_error_in_a_callback_is_reported_and_the_loop_goes_on(loop: Any) -> None:
    reported: list[BaseException] = []
    loop.set_exception_handler(lambda _loop, context: reported.append(context["exception"]))

    def boom() -> None:
        raise ValueError("boom")

    after: list[int] = []
    loop.call_soon(boom)
    loop.call_soon(after.append, 1)
    loop.run_until_complete(asyncio.sleep(0.05))
    assert [str(e) for e in reported] == ["boom"] and after == [1]


def test_a_ready_socket_runs_its_reader_and_a_removed_one_never(loop: Any) -> None:
    ours, theirs = socket.socketpair()
    ours.setblocking(False)
    got: list[bytes] = []
    reported: list[BaseException] = []
    loop.set_exception_handler(lambda _loop, context: reported.append(context["exception"]))

    def read() -> None:
        data = ours.recv(100)
        got.append(data)
        if data == b"bad":
            raise OSError("a reader's own error")

    async def scenario() -> None:
        loop.add_reader(ours.fileno(), read)
        for chunk in (b"one", b"bad", b"two"):
            theirs.send(chunk)
            for _ in range(50):
                await asyncio.sleep(0.01)
                if got and got[-1] == chunk:
                    break
        assert loop.remove_reader(ours.fileno())
        theirs.send(b"after")
        await asyncio.sleep(0.1)

    try:
        loop.run_until_complete(scenario())
    finally:
        ours.close()
        theirs.close()
    assert got == [b"one", b"bad", b"two"]
    assert [str(e) for e in reported] == ["a reader's own error"]


@pytest.mark.socket
def test_streams_over_loopback_work_on_it(loop: Any) -> None:
    """asyncio's streams (readers, writers, a server) over the loop's own sockets."""
    async def scenario() -> bytes:
        async def echo(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            writer.write(await reader.readexactly(5))
            await writer.drain()
            writer.close()

        server = await asyncio.start_server(echo, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"hello")
        back = await reader.readexactly(5)
        writer.close()
        server.close()
        await server.wait_closed()
        return back

    assert loop.run_until_complete(asyncio.wait_for(scenario(), 10)) == b"hello"

