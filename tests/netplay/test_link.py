"""Link behaviour: state machine, heartbeats, hostile input after the handshake.

These run over an in-memory network on a virtual clock (tests/netplay/virtual_net.py): the
link's own code, with no socket and no real waiting, and time that is exact. The tests marked
``socket`` take the whole path over 127.0.0.1.
"""

import asyncio

import pytest
from netplay_testkit import FAST_LINK, LOOPBACK, run
from virtual_net import MemoryNetwork, run_virtual

from netplay.link.link import Link, LinkConfig, LinkState
from netplay.link.streams import perform_handshake
from netplay.protocol.channel import MessageChannel
from netplay.protocol.handshake import Handshake, Step
from netplay.protocol.identity import Identity
from netplay.protocol.messages import encode_message
from netplay.protocol.wire import encode_frame, pack

PORT = 7000
HB = LinkConfig(heartbeat_interval=0.1, dead_after=0.5)


def _raw_peer(net, behaviour, passphrase=None):
    """A listener that completes the handshake by hand, then runs ``behaviour(reader, writer, cipher)``."""
    ident = Identity.generate()

    async def on_client(reader, writer):
        result = await perform_handshake(reader, writer, ident, "t", passphrase, initiator=False)
        await behaviour(reader, writer, result.cipher)

    net.listen(PORT, on_client)


def test_states_and_heartbeat_timeout():
    async def silent(reader, writer, cipher):
        await asyncio.sleep(5)  # handshake done, then never a frame
        writer.close()

    async def scenario():
        net = MemoryNetwork()
        _raw_peer(net, silent)
        seen = []
        link = Link(Identity.generate(), "t", None, config=HB,
                    on_closed=lambda link: seen.append(link.state))
        assert link.state is LinkState.CONNECTING
        with net.patched():
            assert await link.connect(LOOPBACK, PORT)
        assert link.state is LinkState.OPEN
        loop = asyncio.get_running_loop()
        t0 = loop.time()
        await link.wait_closed()
        silent_for = loop.time() - t0  # virtual seconds: exact, whatever the machine's load
        assert link.state is LinkState.CLOSED and seen == [LinkState.CLOSED]
        assert "heartbeat timeout" in (link.close_reason or "")
        assert HB.dead_after <= silent_for <= HB.dead_after + 2 * HB.heartbeat_interval
    run_virtual(scenario())


def test_heartbeats_keep_an_idle_link_alive():
    async def scenario():
        net = MemoryNetwork()
        accepted = []

        async def on_client(reader, writer):
            b = Link(Identity.generate(), "t", None, config=HB)
            accepted.append(b)
            await b.accept(reader, writer)

        net.listen(PORT, on_client)
        a = Link(Identity.generate(), "t", None, config=HB)
        with net.patched():
            assert await a.connect(LOOPBACK, PORT)
        await asyncio.sleep(60)  # a virtual minute of silence but heartbeats
        assert a.is_open and accepted[0].is_open
        beats = 60 / HB.heartbeat_interval
        assert a.messages_received >= 0.9 * beats and accepted[0].messages_received >= 0.9 * beats
        await a.aclose()
    run_virtual(scenario())


HOSTILE = [
    ("unknown message type", lambda c: encode_frame(c.seal(pack({"t": "format-c"})))),
    ("should be str", lambda c: encode_frame(c.seal(pack({"t": "bye", "reason": 5})))),
    ("failed to decrypt", lambda c: encode_frame(b"\x00" * 64)),
    ("not a valid msgpack", lambda c: encode_frame(c.seal(b"\xc1"))),
    ("on an open link", lambda c: encode_frame(c.seal(pack({"t": "auth", "sig": b"x"})))),
    ("exceeds limit", lambda c: (2**30).to_bytes(4, "big")),
    ("inside a frame", lambda c: encode_frame(c.seal(pack({"t": "hb"})))[:-1]),
]


@pytest.mark.parametrize(("expected", "make"), HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_messages_after_handshake_close_the_link(expected, make):
    async def hostile(reader, writer, cipher):
        writer.write(make(cipher))
        await writer.drain()
        if expected == "inside a frame":
            writer.close()
        await asyncio.sleep(2)

    async def scenario():
        net = MemoryNetwork()
        _raw_peer(net, hostile)
        messages = []
        link = Link(Identity.generate(), "t", None, config=FAST_LINK,
                    on_message=lambda _link, m: messages.append(encode_message(m.message)))
        with net.patched():
            assert await link.connect(LOOPBACK, PORT)
        await asyncio.wait_for(link.wait_closed(), 1)  # long before any heartbeat timeout
        assert expected in (link.close_reason or ""), (expected, link.close_reason)
        assert messages == []
    run_virtual(scenario())


def test_messages_before_a_bad_frame_are_delivered():
    async def sender(reader, writer, cipher):
        writer.write(encode_frame(cipher.seal(pack({"t": "priv", "body": {"n": 1}})))
                     + encode_frame(cipher.seal(pack({"t": "nope"}))))
        await asyncio.sleep(2)

    async def scenario():
        net = MemoryNetwork()
        _raw_peer(net, sender)
        messages = []
        link = Link(Identity.generate(), "t", None, config=FAST_LINK,
                    on_message=lambda _link, m: messages.append(encode_message(m.message)))
        with net.patched():
            assert await link.connect(LOOPBACK, PORT)
        await asyncio.wait_for(link.wait_closed(), 1)
        assert messages == [{"t": "priv", "body": {"n": 1}}]
        assert "unknown message type" in (link.close_reason or "")
    run_virtual(scenario())


def test_frames_in_the_same_read_as_the_auth_are_delivered():
    """A peer that opens first may send link frames right behind its auth: none is lost."""
    async def on_client(reader, writer):
        hs = Handshake(Identity.generate(), "t", None, initiator=False)
        hs.start()
        held, event = b"", None
        while event is None:  # hold our auth back until the dialer's auth is in
            step = hs.feed(await reader.read(65536))
            if step.send.startswith(encode_frame(hs.hello_bytes)):  # our hello goes now
                writer.write(step.send[:len(encode_frame(hs.hello_bytes))])
                step = Step(step.send[len(encode_frame(hs.hello_bytes)):], step.event)
            held, event = held + step.send, step.event
        channel = MessageChannel(event.cipher)
        writer.write(held + channel.frame(pack({"t": "priv", "body": {"n": 1}})))
        await asyncio.sleep(5)

    async def scenario():
        net = MemoryNetwork()
        net.listen(PORT, on_client)
        messages = []
        link = Link(Identity.generate(), "t", None, config=FAST_LINK,
                    on_message=lambda _link, m: messages.append(encode_message(m.message)))
        with net.patched():
            assert await link.connect(LOOPBACK, PORT)
        await asyncio.sleep(0.5)
        assert messages == [{"t": "priv", "body": {"n": 1}}]
        await link.aclose()
    run_virtual(scenario())


def test_handler_error_closes_link_not_program():
    async def sender(reader, writer, cipher):
        writer.write(encode_frame(cipher.seal(pack({"t": "priv", "body": {}}))))
        await writer.drain()
        await asyncio.sleep(2)

    def boom(link, msg):
        raise KeyError("bug")

    async def scenario():
        net = MemoryNetwork()
        _raw_peer(net, sender)
        link = Link(Identity.generate(), "t", None, config=FAST_LINK, on_message=boom)
        with net.patched():
            assert await link.connect(LOOPBACK, PORT)
        await asyncio.wait_for(link.wait_closed(), 1)
        assert "internal error" in (link.close_reason or "")
    run_virtual(scenario())


def test_handshake_timeout_on_the_loop_clock():
    async def mute(reader, writer):
        await asyncio.sleep(3600)  # accepts, never says hello

    async def scenario():
        net = MemoryNetwork()
        net.listen(PORT, mute)
        link = Link(Identity.generate(), "t", None, config=LinkConfig(handshake_timeout=10.0))
        loop = asyncio.get_running_loop()
        with net.patched():
            assert not await link.connect(LOOPBACK, PORT)
        assert link.close_reason == "handshake timed out" and loop.time() == 10.0
    run_virtual(scenario())


def test_connect_refused_is_reported_virtual():
    async def scenario():
        link = Link(Identity.generate(), "t", None, config=FAST_LINK)
        with MemoryNetwork().patched():
            assert not await link.connect(LOOPBACK, PORT)
        assert link.state is LinkState.CLOSED and "connect to" in (link.close_reason or "")
    run_virtual(scenario())


@pytest.mark.socket
def test_connect_refused_is_reported():
    async def scenario():
        server = await asyncio.start_server(lambda r, w: None, LOOPBACK, 0)
        port = server.sockets[0].getsockname()[1]
        server.close()
        await server.wait_closed()
        link = Link(Identity.generate(), "t", None, config=FAST_LINK)
        assert not await link.connect(LOOPBACK, port)
        assert link.state is LinkState.CLOSED and "connect to" in (link.close_reason or "")
    run(scenario())
