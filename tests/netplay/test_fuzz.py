"""Thousands of hostile frames against a listening peer: each drops its link, none crashes it."""

import asyncio
import logging
import random
import secrets
import time

import msgpack
import pytest
from netplay_testkit import LOOPBACK, ReplicaPeer, run, start_meshes, stop_all, wait_until

from netplay.link.streams import perform_handshake
from netplay.protocol.handshake import PROTOCOL_VERSION, auth_payload, transcript_hash
from netplay.protocol.identity import Identity
from netplay.protocol.secure import FrameCipher, X25519Exchange, derive_keys
from netplay.protocol.wire import pack, unpack
from netplay.replication.replication import ReplicationConfig

pytestmark = pytest.mark.socket

PRE_CASES = 1500
POST_CASES = 300
CONCURRENCY = 8


def _frame(body: bytes) -> bytes:
    return len(body).to_bytes(4, "big") + body


def _hello(**override):
    msg = {"t": "hello", "v": PROTOCOL_VERSION, "table": "table-1", "peer": secrets.token_hex(8),
           "key": secrets.token_bytes(32), "pake": False, "kx": secrets.token_bytes(32),
           "nonce": secrets.token_bytes(16), "port": 0}
    msg.update(override)
    return msg


def pre_handshake_case(rng: random.Random) -> bytes:
    kind = rng.randrange(10)
    if kind == 0:
        return rng.randbytes(rng.randrange(0, 300))
    if kind == 1:
        return rng.randrange((1 << 20) + 1, 1 << 32).to_bytes(4, "big") + rng.randbytes(50)
    if kind == 2:
        return _frame(rng.randbytes(rng.randrange(1, 500)))
    if kind == 3:
        depth = rng.randrange(17, 3000)
        return _frame(b"\x91" * depth + b"\x00")
    if kind == 4:
        field = rng.choice(["v", "table", "peer", "key", "pake", "kx", "nonce", "port"])
        return _frame(pack(_hello(**{field: rng.choice([None, 1.5, [], {}, "x", b"x", True])})))
    if kind == 5:
        return _frame(pack({"t": rng.choice(["op", "peers", "zzz", "", "hb", "bye"]), "x": 1}))
    if kind == 6:
        return _frame(msgpack.packb(msgpack.ExtType(rng.randrange(0, 128), b"abc")))
    if kind == 7:
        return _frame(pack(_hello(peer=rng.choice(["", "XYZ", "0" * 17, "g" * 16]))))
    if kind == 8:
        return _frame(pack(_hello(kx=rng.randbytes(rng.choice([0, 31, 33, 64])))))
    return _frame(pack(_hello(v=rng.choice([0, 2, 99]), table=rng.choice(["table-1", "other"]))))


async def run_pre_case(port: int, payload: bytes) -> bool:
    reader, writer = await asyncio.open_connection(LOOPBACK, port)
    try:
        writer.write(payload)
        await writer.drain()
        if writer.can_write_eof():
            writer.write_eof()
        await asyncio.wait_for(reader.read(), 5)  # the server must close on us
        return True
    except (ConnectionError, OSError):
        return True
    finally:
        writer.close()


def post_handshake_case(rng: random.Random, cipher: FrameCipher, me: str) -> bytes:
    kind = rng.randrange(8)
    if kind == 0:
        return _frame(rng.randbytes(rng.randrange(16, 200)))  # not our key
    if kind == 1:
        return _frame(cipher.seal(rng.randbytes(rng.randrange(1, 200))))
    if kind == 2:
        return _frame(cipher.seal(pack({"t": rng.choice(["nope", "hello", "auth"]), "sig": b""})))
    if kind == 3:
        return _frame(cipher.seal(pack({"t": "peers", "peers": [{"id": "x", "host": 5}]})))
    if kind == 4:  # a valid-looking op with a bad signature
        op = [me, 1, 1, "hello", {"key": "00" * 32}, {}, 0.0, None, rng.randbytes(64)]
        return _frame(cipher.seal(pack({"t": rng.choice(["op", "ops"]),
                                        "op": op, "ops": [op]})))
    if kind == 5:
        return _frame(cipher.seal(pack({"t": "vv", "vv": {"a": -1}})))
    if kind == 6:
        return _frame(cipher.seal(pack({"t": "hash", "vv": [], "h": "x"})))
    deep: object = 0
    for _ in range(40):
        deep = {"d": deep}
    return _frame(cipher.seal(pack({"t": "priv", "body": deep})))


async def run_post_case(port: int, rng: random.Random) -> bool:
    reader, writer = await asyncio.open_connection(LOOPBACK, port)
    ident = Identity.generate()
    try:
        if rng.random() < 0.15:
            # valid hello, then an auth signed by the wrong key
            kx = X25519Exchange()
            hello = pack(_hello(peer=ident.peer_id, key=ident.public_key, kx=kx.message))
            writer.write(_frame(hello))
            n = int.from_bytes(await reader.readexactly(4), "big")
            theirs = await reader.readexactly(n)
            th = transcript_hash(hello, theirs)
            send, recv = derive_keys(kx.finish(unpack(theirs)["kx"]), th, True)
            forged = {"t": "auth", "sig": Identity.generate().sign(auth_payload(True, th))}
            writer.write(_frame(FrameCipher(send, recv).seal(pack(forged))))
        else:
            result = await perform_handshake(reader, writer, ident, "table-1", None, initiator=True)
            writer.write(post_handshake_case(rng, result.cipher, ident.peer_id))
        await writer.drain()
        await asyncio.wait_for(reader.read(), 5)  # dropped without our EOF
        return True
    except (ConnectionError, OSError):
        return True
    finally:
        writer.close()


def test_hostile_frames_never_crash_the_listener(caplog):
    caplog.set_level(logging.ERROR)

    async def scenario():
        (target,) = await start_meshes(1, passphrase=None)
        target_peer = ReplicaPeer(target, ReplicationConfig(hash_interval=60))
        rng = random.Random(20240601)
        sem = asyncio.Semaphore(CONCURRENCY)
        t0 = time.monotonic()

        async def bounded(coro):
            async with sem:
                return await coro

        pre = [bounded(run_pre_case(target.port, pre_handshake_case(rng))) for _ in range(PRE_CASES)]
        post = [bounded(run_post_case(target.port, random.Random(rng.random()))) for _ in range(POST_CASES)]
        results = await asyncio.gather(*pre, *post)
        elapsed = time.monotonic() - t0
        assert all(results) and len(results) == PRE_CASES + POST_CASES
        print(f"{PRE_CASES + POST_CASES} hostile connections in {elapsed:.2f} s")
        assert await wait_until(lambda: target.peers() == [], 3)

        # The listener still works: a real peer joins and exchanges messages.
        (friend,) = await start_meshes(1, passphrase=None)
        assert await friend.connect(LOOPBACK, target.port) == target.peer_id
        assert target.peers() == [friend.peer_id] or await wait_until(
            lambda: target.peers() == [friend.peer_id], 2)
        await target_peer.repl.stop()
        await stop_all([target, friend])

    run(scenario(), 80)
    bad = [r for r in caplog.records if r.levelno >= logging.ERROR and r.name.startswith("netplay")]
    assert not bad, [r.getMessage() for r in bad[:5]]
