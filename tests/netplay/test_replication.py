"""Replication (broadcast, catch-up, signatures, divergence, private messages) with a fake Replica."""

import asyncio

from netplay.identity import Identity
from netplay.replication import (Divergence, PrivateReceived, Replication, ReplicationConfig,
                                 sign_op)
from netplay.wire import ProtocolError

from netplay_testkit import LOOPBACK, run, start_meshes, stop_all, wait_until
from fake_replica import FakeReplica

FAST_REPL = ReplicationConfig(hash_interval=0.2)


async def _setup(n, connect=True):
    meshes = await start_meshes(n)
    reps = [FakeReplica(m.peer_id) for m in meshes]
    repls = [Replication(m, r, FAST_REPL) for m, r in zip(meshes, reps)]
    for r in repls:
        r.start()
    if connect:
        for m in meshes[1:]:
            await m.connect(LOOPBACK, meshes[0].port)
    return meshes, reps, repls


def _publish(repl, rep, payload):
    op = rep.new_op(payload)
    rep.add_local(repl.publish(op))


def _converged(reps):
    vvs = [r.version_vector() for r in reps]
    hashes = {r.public_state_hash() for r in reps}
    return all(v == vvs[0] for v in vvs) and len(hashes) == 1


def test_broadcast_and_catch_up():
    async def scenario():
        meshes, reps, repls = await _setup(4)
        assert await wait_until(lambda: all(len(m.peers()) == 3 for m in meshes), 10)
        for i in range(20):
            for repl, rep in zip(repls, reps):
                _publish(repl, rep, f"{rep.peer_id}-{i}")
        assert await wait_until(lambda: _converged(reps), 5)
        assert all(sum(r.version_vector().values()) == 80 for r in reps)
        # live ops come straight from their author: nothing was relayed
        for rep in reps:
            assert all(len(ops) == 20 for ops in rep.log.values())

        # A late joiner gets everything from catch-up, including ops of a peer that left.
        await meshes[3].stop()
        late_mesh, late_rep, late_repl = (await _setup(1, connect=False))
        late_mesh, late_rep, late_repl = late_mesh[0], late_rep[0], late_repl[0]
        await late_mesh.connect(LOOPBACK, meshes[0].port)
        assert await wait_until(lambda: late_rep.version_vector() == reps[0].version_vector(), 5)
        assert late_rep.public_state_hash() == reps[0].public_state_hash()
        assert repls[0].divergences == 0
        await stop_all(meshes[:3] + [late_mesh])
    run(scenario(), 40)


def test_ops_made_while_apart_are_exchanged_on_reconnect():
    async def scenario():
        meshes, reps, repls = await _setup(2, connect=False)
        for i in range(300):
            _publish(repls[0], reps[0], i)
            _publish(repls[1], reps[1], -i)
        await meshes[1].connect(LOOPBACK, meshes[0].port)
        assert await wait_until(lambda: _converged(reps), 5)
        assert reps[0].version_vector() == {meshes[0].peer_id: 300, meshes[1].peer_id: 300}
        await stop_all(meshes)
    run(scenario())


def test_divergence_is_reported():
    async def scenario():
        meshes, reps, repls = await _setup(2)
        assert await wait_until(lambda: meshes[0].peers() == [meshes[1].peer_id], 5)
        _publish(repls[0], reps[0], "x")
        assert await wait_until(lambda: reps[1].version_vector() == reps[0].version_vector(), 3)
        events = []
        repls[1].events.subscribe(lambda e: isinstance(e, Divergence) and events.append(e))
        reps[0].corrupt = True
        assert await wait_until(lambda: events, 3)
        assert events[0].peer_id == meshes[0].peer_id
        assert events[0].our_hash != events[0].their_hash
        await stop_all(meshes)
    run(scenario())


def test_private_messages_and_forged_ops():
    async def scenario():
        meshes, reps, repls = await _setup(3)
        assert await wait_until(lambda: all(len(m.peers()) == 2 for m in meshes), 5)
        got = {m.peer_id: [] for m in meshes}
        for m, repl in zip(meshes, repls):
            repl.events.subscribe(lambda e, me=m.peer_id: isinstance(e, PrivateReceived) and got[me].append(e))
        assert repls[0].send_private(meshes[1].peer_id, {"card": "Iron Wall", "salt": "ab"})
        assert await wait_until(lambda: got[meshes[1].peer_id], 3)
        await asyncio.sleep(0.2)
        assert got[meshes[2].peer_id] == [] and got[meshes[0].peer_id] == []
        assert got[meshes[1].peer_id][0].peer_id == meshes[0].peer_id

        # Peer 0 relays an op "by" peer 2 that peer 2 never signed: the link is dropped.
        forged = sign_op(meshes[0].identity, reps[0].new_op("x"))
        forged["author"] = meshes[2].peer_id
        meshes[0].send(meshes[1].peer_id, {"t": "ops", "ops": [forged]})
        assert await wait_until(lambda: meshes[0].peer_id not in meshes[1].peers(), 3)
        assert reps[1].version_vector().get(meshes[2].peer_id, 0) == 0
        await stop_all(meshes)
    run(scenario())


def test_live_op_must_come_from_its_author():
    async def scenario():
        meshes, reps, repls = await _setup(3)
        assert await wait_until(lambda: all(len(m.peers()) == 2 for m in meshes), 5)
        op = repls[2].publish(reps[2].new_op("real"))
        reps[2].add_local(op)
        assert await wait_until(lambda: reps[1].version_vector().get(meshes[2].peer_id) == 1, 3)
        # Peer 0 forwards peer 2's genuine op live, unsolicited: refused.
        meshes[0].send(meshes[1].peer_id, {"t": "op", "op": op})
        assert await wait_until(lambda: meshes[0].peer_id not in meshes[1].peers(), 3)
        await stop_all(meshes)
    run(scenario())
