"""Full mesh formation, deduplication, leaving, crashing and rejoining, on 127.0.0.1."""

import asyncio

import pytest
from netplay_testkit import FAST_MESH, LOOPBACK, run, start_meshes, stop_all, wait_until

from netplay.mesh.events import MessageReceived, PeerJoined, PeerLeft
from netplay.mesh.mesh import Mesh
from netplay.protocol.identity import Identity
from netplay.protocol.messages import Private
from netplay.protocol.wire import pack

pytestmark = pytest.mark.socket


def _full(meshes):
    n = len(meshes)
    return all(len(m.peers()) == n - 1 for m in meshes)


@pytest.mark.parametrize("n", [4, 6])
def test_full_mesh_forms(n):
    async def scenario():
        meshes = await start_meshes(n)
        for m in meshes[1:]:  # everyone knows only the first peer's address
            await m.connect(LOOPBACK, meshes[0].port)
        assert await wait_until(lambda: _full(meshes), 10)
        await asyncio.sleep(0.6)  # a gossip round later it is still exactly a full mesh
        assert _full(meshes)
        ids = {m.peer_id for m in meshes}
        for m in meshes:
            assert set(m.peers()) == ids - {m.peer_id}
        pairs = {frozenset((m.peer_id, p)) for m in meshes for p in m.peers()}
        assert len(pairs) == n * (n - 1) // 2  # 15 links for 6 peers
        # every pair: the surviving link was dialed by the lower peer id or is the only one
        got: dict[str, list] = {m.peer_id: [] for m in meshes}
        for m in meshes:
            m.events.subscribe(lambda e, me=m.peer_id: isinstance(e, MessageReceived) and got[me].append(e))
        assert meshes[0].broadcast({"t": "priv", "body": {"hello": "all"}}) == n - 1
        assert meshes[1].send(meshes[2].peer_id, {"t": "priv", "body": {"just": "you"}})
        assert await wait_until(lambda: all(len(got[m.peer_id]) >= 1 for m in meshes[1:]), 3)
        private = next(e for e in got[meshes[2].peer_id] if e.message == Private({"just": "you"}))
        # the bytes it arrived as travel with it (replication checks ops' encoding in them)
        assert private.payload == pack({"t": "priv", "body": {"just": "you"}})
        assert all(e.peer_id == meshes[0].peer_id for e in got[meshes[3].peer_id])
        await stop_all(meshes)
    run(scenario())


def test_simultaneous_connects_are_deduplicated():
    async def scenario():
        for _ in range(5):
            a, b = await start_meshes(2)
            events = {a.peer_id: [], b.peer_id: []}
            for m in (a, b):
                m.events.subscribe(lambda e, me=m.peer_id, events=events: events[me].append(e))
            await asyncio.gather(a.connect(LOOPBACK, b.port), b.connect(LOOPBACK, a.port))
            assert await wait_until(
                lambda a=a, b=b: a.peers() == [b.peer_id] and b.peers() == [a.peer_id], 5)
            await asyncio.sleep(0.3)
            la, lb = a.link(b.peer_id), b.link(a.peer_id)
            assert la is not None and lb is not None and la.is_open and lb.is_open
            lower = min(a.peer_id, b.peer_id)
            assert (a.peer_id if la.initiator else b.peer_id) == lower
            assert (b.peer_id if lb.initiator else a.peer_id) == lower
            assert la.initiator != lb.initiator  # both ends of the same TCP connection
            await stop_all([a, b])
    run(scenario())


def test_peer_crash_and_rejoin():
    async def scenario():
        meshes = await start_meshes(4)
        for m in meshes[1:]:
            await m.connect(LOOPBACK, meshes[0].port)
        assert await wait_until(lambda: _full(meshes), 10)
        victim = meshes[3]
        left = []
        for m in meshes[:3]:
            m.events.subscribe(lambda e: isinstance(e, PeerLeft) and left.append(e))
        await victim.stop(graceful=False)  # like a crash: no bye
        assert await wait_until(lambda: len(left) == 3, 5)
        assert all(len(m.peers()) == 2 for m in meshes[:3])

        # The same player restarts with its saved identity, on a new port, knowing one address.
        again = Mesh(Identity.from_seed(victim.identity.peer_id, victim.identity.seed), "table-1", "pw",
                     host=LOOPBACK, config=FAST_MESH)
        await again.start()
        joined = []
        meshes[1].events.subscribe(lambda e: isinstance(e, PeerJoined) and joined.append(e))
        await again.connect(LOOPBACK, meshes[2].port)
        survivors = [*meshes[:3], again]
        assert await wait_until(lambda: _full(survivors), 10)
        assert [e.peer_id for e in joined] == [victim.peer_id]

        # Someone else claiming that peer id with another key is refused (key pinning).
        import nacl.signing
        impostor = Mesh(Identity(victim.peer_id, nacl.signing.SigningKey.generate()), "table-1", "pw",
                        host=LOOPBACK, config=FAST_MESH)
        await impostor.start()
        await impostor.connect(LOOPBACK, meshes[0].port)
        assert await wait_until(lambda: impostor.peers() == [], 3)
        assert meshes[0].link(victim.peer_id) is not None
        assert meshes[0].link(victim.peer_id).peer_key == victim.identity.public_key
        await stop_all([*survivors, impostor])
    run(scenario())


def test_graceful_leave_and_self_connect():
    async def scenario():
        a, b, c = await start_meshes(3)
        await b.connect(LOOPBACK, a.port)
        await c.connect(LOOPBACK, a.port)
        assert await wait_until(lambda: _full([a, b, c]), 5)
        reasons = []
        a.events.subscribe(lambda e: isinstance(e, PeerLeft) and reasons.append(e.reason))
        await c.stop()
        assert await wait_until(lambda: reasons, 3)
        assert "leaving the table" in reasons[0]
        assert await a.connect(LOOPBACK, a.port) is None  # dialing yourself is refused
        assert a.peers() == [b.peer_id]
        await stop_all([a, b])
    run(scenario())
