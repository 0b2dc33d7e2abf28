"""Replication (broadcast, catch-up, signatures, divergence, private messages) with real replicas."""

import asyncio

import pytest
from netplay_testkit import LOOPBACK, ReplicaPeer, StandIn, run, start_meshes, stop_all, wait_until

from netplay.replication.events import Divergence, PrivateReceived
from netplay.replication.replication import ReplicationConfig

pytestmark = pytest.mark.socket

FAST_REPL = ReplicationConfig(hash_interval=0.2)


async def _setup(n, connect=True):
    meshes = await start_meshes(n)
    peers = [ReplicaPeer(m, FAST_REPL) for m in meshes]
    if connect:
        for m in meshes[1:]:
            await m.connect(LOOPBACK, meshes[0].port)
    return meshes, peers


def _converged(peers):
    vvs = [p.vv() for p in peers]
    return all(v == vvs[0] for v in vvs) and len({p.hash() for p in peers}) == 1


def test_broadcast_and_catch_up():
    async def scenario():
        meshes, peers = await _setup(4)
        assert await wait_until(lambda: all(len(m.peers()) == 3 for m in meshes), 10)
        for i in range(20):
            for p in peers:
                p.play(f"{p.mesh.peer_id}-{i}")
        assert await wait_until(lambda: _converged(peers), 5)
        assert all(p.total() == 4 * 21 for p in peers)  # hello + 20 notes each

        # A late joiner gets everything from catch-up, including ops of a peer that left.
        await meshes[3].stop()
        (late_mesh,), (late,) = await _setup(1, connect=False)
        await late_mesh.connect(LOOPBACK, meshes[0].port)
        assert await wait_until(lambda: all(late.vv().get(a, 0) >= n for a, n in peers[0].vv().items()), 5)
        assert late.vv()[meshes[3].peer_id] == 21
        assert all(p.repl.divergences == 0 for p in peers[:3])
        await stop_all([*meshes[:3], late_mesh])
    run(scenario(), 40)


def test_ops_made_while_apart_are_exchanged_on_reconnect():
    async def scenario():
        meshes, peers = await _setup(2, connect=False)
        for i in range(300):
            peers[0].play(i)
            peers[1].play(-i)
        await meshes[1].connect(LOOPBACK, meshes[0].port)
        assert await wait_until(lambda: _converged(peers), 5)
        assert peers[0].vv() == {meshes[0].peer_id: 301, meshes[1].peer_id: 301}
        await stop_all(meshes)
    run(scenario())


def test_divergence_is_reported():
    async def scenario():
        meshes, peers = await _setup(2)
        assert await wait_until(lambda: meshes[0].peers() == [meshes[1].peer_id], 5)
        peers[0].play("x")
        assert await wait_until(lambda: peers[1].vv() == peers[0].vv(), 3)
        events = []
        peers[1].repl.events.subscribe(lambda e: isinstance(e, Divergence) and events.append(e))
        # a corrupted peer
        peers[0].repl.replica = StandIn(peers[0].replica, public_state_hash=lambda: "0" * 32)
        assert await wait_until(lambda: events, 3)
        assert events[0].peer_id == meshes[0].peer_id
        assert events[0].our_hash != events[0].their_hash
        await stop_all(meshes)
    run(scenario())


def test_private_messages_and_forged_ops():
    async def scenario():
        meshes, peers = await _setup(3)
        assert await wait_until(lambda: all(len(m.peers()) == 2 for m in meshes), 5)
        assert await wait_until(lambda: _converged(peers), 5)
        got = {m.peer_id: [] for m in meshes}
        for m, p in zip(meshes, peers, strict=True):
            p.repl.events.subscribe(
                lambda e, me=m.peer_id: isinstance(e, PrivateReceived) and got[me].append(e))
        assert peers[0].repl.send_private(meshes[1].peer_id, {"card": "Iron Wall", "salt": "ab"})
        assert await wait_until(lambda: got[meshes[1].peer_id], 3)
        await asyncio.sleep(0.2)
        assert got[meshes[2].peer_id] == [] and got[meshes[0].peer_id] == []
        assert got[meshes[1].peer_id][0].peer_id == meshes[0].peer_id

        # Peer 0 relays an op "by" peer 2 that peer 2 never signed: the link is dropped.
        forged = peers[0].replica.issue("note", {"text": "forged"}).to_wire()
        forged[0] = meshes[2].peer_id
        forged[1] = peers[1].vv()[meshes[2].peer_id] + 1
        meshes[0].send(meshes[1].peer_id, {"t": "ops", "ops": [forged]})
        assert await wait_until(lambda: meshes[0].peer_id not in meshes[1].peers(), 3)
        assert peers[1].vv()[meshes[2].peer_id] == 1
        await stop_all(meshes)
    run(scenario())


def test_live_op_must_come_from_its_author():
    async def scenario():
        meshes, peers = await _setup(3)
        assert await wait_until(lambda: all(len(m.peers()) == 2 for m in meshes), 5)
        op = peers[2].play("real")
        assert await wait_until(lambda: peers[1].vv().get(meshes[2].peer_id) == 2, 3)
        # Peer 0 forwards peer 2's genuine op live, unsolicited: refused.
        meshes[0].send(meshes[1].peer_id, {"t": "op", "op": op})
        assert await wait_until(lambda: meshes[0].peer_id not in meshes[1].peers(), 3)
        await stop_all(meshes)
    run(scenario())
