"""Link behaviour: state machine, heartbeats, hostile input after the handshake."""

import asyncio

from netplay.streams import perform_handshake
from netplay.identity import Identity
from netplay.link import Link, LinkConfig, LinkState
from netplay.wire import encode_frame, pack

from netplay_testkit import FAST_LINK, LOOPBACK, run


async def _raw_peer(behaviour, passphrase=None):
    """A server that completes the handshake by hand, then runs ``behaviour(reader, writer, cipher)``."""
    ident = Identity.generate()

    async def on_client(reader, writer):
        result = await perform_handshake(reader, writer, ident, "t", passphrase, initiator=False)
        await behaviour(reader, writer, result.cipher)

    server = await asyncio.start_server(on_client, LOOPBACK, 0)
    return server, server.sockets[0].getsockname()[1]


def test_states_and_heartbeat_timeout():
    async def silent(reader, writer, cipher):
        await asyncio.sleep(5)  # handshake done, then never a frame
        writer.close()

    async def scenario():
        server, port = await _raw_peer(silent)
        seen = []
        link = Link(Identity.generate(), "t", None,
                    config=LinkConfig(heartbeat_interval=0.1, dead_after=0.5),
                    on_closed=lambda l: seen.append(l.state))
        assert link.state is LinkState.CONNECTING
        assert await link.connect(LOOPBACK, port)
        assert link.state is LinkState.OPEN
        t0 = asyncio.get_running_loop().time()
        await asyncio.wait_for(link.wait_closed(), 3)
        elapsed = asyncio.get_running_loop().time() - t0
        assert link.state is LinkState.CLOSED and seen == [LinkState.CLOSED]
        assert "heartbeat timeout" in (link.close_reason or "")
        assert 0.4 < elapsed < 1.5
        server.close()
    run(scenario())


def test_heartbeats_keep_an_idle_link_alive():
    async def scenario():
        accepted = []

        async def on_client(reader, writer):
            b = Link(Identity.generate(), "t", None, config=LinkConfig(heartbeat_interval=0.1, dead_after=0.5))
            accepted.append(b)
            await b.accept(reader, writer)

        server = await asyncio.start_server(on_client, LOOPBACK, 0)
        a = Link(Identity.generate(), "t", None, config=LinkConfig(heartbeat_interval=0.1, dead_after=0.5))
        assert await a.connect(LOOPBACK, server.sockets[0].getsockname()[1])
        await asyncio.sleep(1.5)
        assert a.is_open and accepted[0].is_open
        await a.aclose()
        server.close()
    run(scenario())


def test_hostile_messages_after_handshake_close_the_link():
    cases = [
        ("unknown message type", lambda c: encode_frame(c.seal(pack({"t": "format-c"})))),
        ("should be str", lambda c: encode_frame(c.seal(pack({"t": "bye", "reason": 5})))),
        ("failed to decrypt", lambda c: encode_frame(b"\x00" * 64)),
        ("not a valid msgpack", lambda c: encode_frame(c.seal(b"\xc1"))),
        ("on an open link", lambda c: encode_frame(c.seal(pack({"t": "auth", "sig": b"x"})))),
        ("exceeds limit", lambda c: (2**30).to_bytes(4, "big")),
    ]

    async def scenario():
        for expected, make in cases:
            async def hostile(reader, writer, cipher, make=make):
                writer.write(make(cipher))
                await writer.drain()
                await asyncio.sleep(2)

            server, port = await _raw_peer(hostile)
            messages = []
            link = Link(Identity.generate(), "t", None, config=FAST_LINK,
                        on_message=lambda l, m: messages.append(m))
            assert await link.connect(LOOPBACK, port)
            await asyncio.wait_for(link.wait_closed(), 3)
            assert expected in (link.close_reason or ""), (expected, link.close_reason)
            assert messages == []
            server.close()
    run(scenario())


def test_handler_error_closes_link_not_program():
    async def scenario():
        async def sender(reader, writer, cipher):
            writer.write(encode_frame(cipher.seal(pack({"t": "priv", "body": {}}))))
            await writer.drain()
            await asyncio.sleep(2)

        server, port = await _raw_peer(sender)

        def boom(link, msg):
            raise KeyError("bug")

        link = Link(Identity.generate(), "t", None, config=FAST_LINK, on_message=boom)
        assert await link.connect(LOOPBACK, port)
        await asyncio.wait_for(link.wait_closed(), 3)
        assert "internal error" in (link.close_reason or "")
        server.close()
    run(scenario())


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
