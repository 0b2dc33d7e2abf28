"""Links through the handshake: two Link objects over an in-memory network on a virtual clock
(tests/netplay/virtual_net.py), and over real sockets on 127.0.0.1 for the tests marked
``socket``. The handshake's protocol itself is tested byte by byte in test_protocol_handshake.py.
"""

import asyncio

import pytest
from netplay_testkit import FAST_LINK, LOOPBACK, RecordingRelay, run
from virtual_net import MemoryNetwork, run_virtual

from netplay.link.link import Link, LinkState
from netplay.protocol.handshake import WRONG_PASSPHRASE
from netplay.protocol.identity import Identity
from netplay.protocol.messages import encode_message
from netplay.protocol.wire import pack, unpack

MARKER = "PLAINTEXT-MARKER-7f3a9c"
PORT = 7000


class _Recording:
    """What a relay saw of one connection (the bytes each way)."""

    def __init__(self, c2s: bytearray, s2c: bytearray) -> None:
        self.c2s, self.s2c = c2s, s2c

    async def stop(self) -> None:
        pass


async def _pair(pass_a, pass_b, table_a="t", table_b="t", via_relay=None, real_sockets=False):
    """A listening link factory (b) and a dialing link (a). Returns (a, b, relay)."""
    if real_sockets:
        return await _pair_on_sockets(pass_a, pass_b, table_a, table_b, via_relay)
    accepted: list[Link] = []
    done = asyncio.Event()

    async def on_client(reader, writer):
        link = Link(Identity.generate(), table_b, pass_b, config=FAST_LINK)
        accepted.append(link)
        await link.accept(reader, writer)
        done.set()

    net = MemoryNetwork()
    net.listen(PORT, on_client)
    if callable(via_relay):
        net.transform = via_relay
    a = Link(Identity.generate(), table_a, pass_a, config=FAST_LINK)
    with net.patched():
        ok = await a.connect(LOOPBACK, PORT)
    await asyncio.wait_for(done.wait(), 5)
    record = net.connections[0]
    relay = _Recording(record["c2s"], record["s2c"]) if via_relay is not None else None
    return ok, a, accepted[0], relay


async def _pair_on_sockets(pass_a, pass_b, table_a, table_b, via_relay):
    accepted: list[Link] = []
    done = asyncio.Event()

    async def on_client(reader, writer):
        link = Link(Identity.generate(), table_b, pass_b, config=FAST_LINK)
        accepted.append(link)
        await link.accept(reader, writer)
        done.set()

    server = await asyncio.start_server(on_client, LOOPBACK, 0)
    port = server.sockets[0].getsockname()[1]
    relay = None
    if via_relay is not None:
        relay = RecordingRelay(port, via_relay if callable(via_relay) else None)
        await relay.start()
        port = relay.port
    a = Link(Identity.generate(), table_a, pass_a, config=FAST_LINK)
    ok = await a.connect(LOOPBACK, port)
    await asyncio.wait_for(done.wait(), 5)
    server.close()
    return ok, a, accepted[0], relay


@pytest.mark.parametrize("real_sockets", [pytest.param(True, marks=pytest.mark.socket, id="socket"),
                                          pytest.param(False, id="virtual")])
def test_handshake_ok_and_exchange(real_sockets):
    async def scenario():
        ok, a, b, _ = await _pair("open sesame", "open sesame", real_sockets=real_sockets)
        assert ok and a.state is LinkState.OPEN and b.state is LinkState.OPEN
        assert a.peer_id == b.identity.peer_id and b.peer_id == a.identity.peer_id
        assert a.peer_key == b.identity.public_key
        got = []

        async def read_one():
            async for msg in b.messages():
                got.append(encode_message(msg))
                return

        reader = asyncio.ensure_future(read_one())
        assert a.send({"t": "priv", "body": {"x": 1}})
        await asyncio.wait_for(reader, 3)
        assert got == [{"t": "priv", "body": {"x": 1}}]
        await a.aclose("done")
        await asyncio.wait_for(b.wait_closed(), 3)
        assert a.state is LinkState.CLOSED and b.state is LinkState.CLOSED
        assert b.close_reason == "peer closed: done"
        assert not a.send({"t": "hb"})
    (run if real_sockets else run_virtual)(scenario())


def test_wrong_passphrase_refused_on_both_sides():
    async def scenario():
        ok, a, b, _ = await _pair("right horse", "wrong horse")
        await asyncio.wait_for(b.wait_closed(), 3)
        assert not ok
        assert a.state is LinkState.CLOSED and b.state is LinkState.CLOSED
        # Same neutral reason on both sides: neither learns whose passphrase was wrong.
        assert a.close_reason == b.close_reason == WRONG_PASSPHRASE
        ok, a, b, _ = await _pair("pw", None)
        await asyncio.wait_for(b.wait_closed(), 3)
        assert not ok and a.close_reason == b.close_reason == WRONG_PASSPHRASE
    run_virtual(scenario())


def test_table_mismatch_is_reported():
    async def scenario():
        ok, a, b, _ = await _pair(None, None, table_a="t1", table_b="t2")
        await asyncio.wait_for(b.wait_closed(), 3)
        assert not ok
        assert b.close_reason == "different table id"
        assert a.close_reason is not None and "different table id" in a.close_reason
    run_virtual(scenario())


def _check_no_marker(relay: RecordingRelay) -> None:
    wire = bytes(relay.c2s) + bytes(relay.s2c)
    assert len(relay.c2s) > 200 and len(relay.s2c) > 100
    assert MARKER.encode() not in wire
    assert b"body" not in wire and b"priv" not in wire  # not even the message keys


@pytest.mark.parametrize("real_sockets", [pytest.param(True, marks=pytest.mark.socket, id="socket"),
                                          pytest.param(False, id="virtual")])
def test_no_passphrase_is_still_encrypted(real_sockets):
    async def scenario():
        for passphrase in (None, "secret words"):
            ok, a, b, relay = await _pair(passphrase, passphrase, via_relay=True,
                                          real_sockets=real_sockets)
            assert ok
            got = []

            async def read_one(b=b, got=got):
                async for msg in b.messages():
                    got.append(encode_message(msg))
                    return

            reader = asyncio.ensure_future(read_one())
            a.send({"t": "priv", "body": {"text": MARKER}})
            await asyncio.wait_for(reader, 3)
            assert got[0]["body"]["text"] == MARKER
            b.send({"t": "priv", "body": {"text": MARKER}})
            await asyncio.sleep(0.1)
            await a.aclose()
            await b.wait_closed()
            _check_no_marker(relay)
            if passphrase:
                assert passphrase.encode() not in bytes(relay.c2s) + bytes(relay.s2c)
            await relay.stop()
    (run if real_sockets else run_virtual)(scenario())


def test_tampered_handshake_fails_on_both_sides():
    """A man in the middle who flips one bit of a hello is detected by both peers."""
    flipped = {"done": False}

    def tamper(direction, data):
        if direction == "s2c" and not flipped["done"]:
            flipped["done"] = True
            n = int.from_bytes(data[:4], "big")
            hello = unpack(data[4:4 + n])
            hello["nonce"] = bytes(16)  # same length, different transcript
            body = pack(hello)
            assert len(body) == n
            return data[:4] + body + data[4 + n:]
        return data

    async def scenario():
        ok, a, b, relay = await _pair(None, None, via_relay=tamper)
        await asyncio.wait_for(b.wait_closed(), 3)
        assert not ok and flipped["done"]
        assert a.close_reason == b.close_reason == WRONG_PASSPHRASE
        await relay.stop()
    run_virtual(scenario())


def test_impersonation_detected_by_signature():
    """A peer that presents someone else's public key cannot sign the transcript."""
    import secrets

    from netplay.link.framing import read_frame
    from netplay.protocol.handshake import PROTOCOL_VERSION, auth_payload, transcript_hash
    from netplay.protocol.secure import FrameCipher, X25519Exchange, derive_keys
    from netplay.protocol.wire import encode_frame

    net = MemoryNetwork()

    async def scenario():
        victim, attacker = Identity.generate(), Identity.generate()
        accepted: list[Link] = []
        done = asyncio.Event()

        async def on_client(reader, writer):
            link = Link(Identity.generate(), "t", None, config=FAST_LINK)
            accepted.append(link)
            await link.accept(reader, writer)
            done.set()

        net.listen(PORT, on_client)
        reader, writer = await net.open_connection(LOOPBACK, PORT)
        kx = X25519Exchange()
        hello = pack({"t": "hello", "v": PROTOCOL_VERSION, "table": "t", "peer": victim.peer_id,
                      "key": victim.public_key, "pake": False, "kx": kx.message,
                      "nonce": secrets.token_bytes(16), "port": 0})
        writer.write(encode_frame(hello))
        theirs = await read_frame(reader)
        th = transcript_hash(hello, theirs)
        send, recv = derive_keys(kx.finish(unpack(theirs)["kx"]), th, True)
        cipher = FrameCipher(send, recv)
        forged = {"t": "auth", "sig": attacker.sign(auth_payload(True, th))}
        writer.write(encode_frame(cipher.seal(pack(forged))))
        await asyncio.wait_for(done.wait(), 3)
        assert accepted[0].state is LinkState.CLOSED
        assert "identity signature is invalid" in (accepted[0].close_reason or "")
        writer.close()
    run_virtual(scenario())
