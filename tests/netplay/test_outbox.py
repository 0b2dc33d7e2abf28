"""The sending half of a link (netplay.link.outbox) over 127.0.0.1: a message on an idle link is
written in the caller's turn; when the socket is backed up, messages queue and still arrive in
order, every one."""

import asyncio
from dataclasses import replace

import pytest
from netplay_testkit import FAST_LINK, LOOPBACK, run, wait_until

from netplay.link.link import Link
from netplay.protocol.identity import Identity
from netplay.protocol.messages import encode_message

pytestmark = pytest.mark.socket

# The burst below holds the loop for a while on a busy machine: a heartbeat timeout then would
# drop the link, and a heartbeat sent meanwhile would count as a message; neither is what
# these tests are about.
PATIENT_LINK = replace(FAST_LINK, heartbeat_interval=30.0, dead_after=60.0)


async def _linked_pair(got: list[int]) -> tuple[Link, Link, asyncio.base_events.Server]:
    accepted: list[Link] = []

    async def on_client(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        b = Link(Identity.generate(), "t", None, config=PATIENT_LINK,
                 on_message=lambda _link, received: got.append(encode_message(received.message)["body"]["n"]))
        accepted.append(b)
        await b.accept(reader, writer)

    server = await asyncio.start_server(on_client, LOOPBACK, 0)
    a = Link(Identity.generate(), "t", None, config=PATIENT_LINK)
    assert await a.connect(LOOPBACK, server.sockets[0].getsockname()[1])
    assert await wait_until(lambda: bool(accepted) and accepted[0].is_open, 10, 0.01)
    await asyncio.sleep(0.05)  # the gossip-free link is quiet now
    return a, accepted[0], server


async def _close(a: Link, b: Link, server: asyncio.base_events.Server) -> None:
    await a.aclose()
    await b.wait_closed()
    server.close()
    await server.wait_closed()


def test_a_message_on_an_idle_link_is_written_at_once():
    async def scenario():
        got: list[int] = []
        a, b, server = await _linked_pair(got)
        before = a.messages_sent
        assert a.send({"t": "priv", "body": {"n": 1}})
        assert a.messages_sent == before + 1  # sealed and written before any await
        assert await wait_until(lambda: bool(got), 10, 0.01)
        assert got == [1]
        await _close(a, b, server)
    run(scenario())


def test_a_backed_up_socket_queues_and_keeps_the_order():
    async def scenario():
        got: list[int] = []
        a, b, server = await _linked_pair(got)
        count, blob = 2000, b"x" * 8192  # 16 MB without yielding: the socket backs up
        before = a.messages_sent
        for n in range(count):
            assert a.send({"t": "priv", "body": {"n": n, "pad": blob}})
        queued = count - (a.messages_sent - before)
        assert queued > 0  # some had to wait for the socket to drain
        await wait_until(lambda: len(got) >= count, 20, 0.01)  # the order is checked below
        assert got == list(range(count))
        assert a.messages_sent - before == count
        await _close(a, b, server)
    run(scenario())
