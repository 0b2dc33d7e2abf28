"""Live ops that arrive together (one read off the socket) are verified back to back and applied
with one fold: the table they make is the table the same ops make one by one, and a bad op in
a burst is refused as it would be alone (the ops before it kept, its sender named and dropped,
nothing after it applied). Over 127.0.0.1."""
from __future__ import annotations

import asyncio

import pytest
from netplay_testkit import LOOPBACK, ReplicaPeer, StandIn, run, start_meshes, stop_all, wait_until

from netplay.protocol.messages import LiveOp
from netplay.replication.events import PeerMisbehaved
from netplay.replication.opsign import OpVerifier
from table.core.ops import from_wire
from table.core.replica import Replica

pytestmark = pytest.mark.socket


async def _pair() -> tuple[list, list[ReplicaPeer]]:
    meshes = await start_meshes(2, passphrase=None)
    peers = [ReplicaPeer(m) for m in meshes]
    await meshes[1].connect(LOOPBACK, meshes[0].port)
    assert await wait_until(lambda: all(p.total() == 2 for p in peers), 10)
    return meshes, peers


def _batches(peer: ReplicaPeer) -> list[int]:
    """Record the size of every batch replication hands the peer's replica."""
    sizes: list[int] = []
    take = peer.replica.receive_many

    def counting(wires, from_peer=""):
        sizes.append(len(wires))
        return take(wires, from_peer)

    peer.repl.replica = StandIn(peer.replica, receive_many=counting)
    return sizes


def _one_by_one(author: ReplicaPeer, wires: list[list]) -> Replica:
    """What the same ops make delivered alone, one after the other."""
    control = Replica("table-1", "0000000000000000")
    control.verifier = OpVerifier(lambda _p: None, control.store.announced_key)
    hello = author.replica.store.get(author.mesh.peer_id, 1)
    assert hello is not None
    for wire in [hello.to_wire(), *wires]:
        control.receive_many([from_wire(wire)], author.mesh.peer_id)
    return control


def test_a_burst_makes_the_table_the_ops_make_one_by_one() -> None:
    async def scenario() -> None:
        meshes, (alice, bob) = await _pair()
        sizes = _batches(bob)
        wires = [alice.play(f"card {i}") for i in range(40)]  # one turn: they arrive together
        assert await wait_until(lambda: bob.total() == 42, 10)
        assert max(sizes) > 1  # some came together and were taken together
        assert sum(sizes) == 40 and bob.replica.verifier.verified >= 40
        control = _one_by_one(alice, wires)
        assert bob.replica.public_state_hash() == control.public_state_hash() == \
            alice.replica.public_state_hash()
        await stop_all(meshes)
    run(scenario())


@pytest.mark.parametrize("bad", ["signature", "author"])
def test_a_bad_op_in_a_burst_is_refused_as_it_would_be_alone(bad: str) -> None:
    async def scenario() -> None:
        meshes, (alice, bob) = await _pair()
        named: list[PeerMisbehaved] = []
        bob.repl.events.subscribe(lambda e: isinstance(e, PeerMisbehaved) and named.append(e))
        wires = [alice.replica.issue("note", {"text": f"op {i}"}).to_wire() for i in range(12)]
        if bad == "signature":
            wires[5][8] = bytes(64)
        else:  # a live op must come from its author
            wires[5][0] = bob.mesh.peer_id
        for wire in wires:  # sent in one turn, as a burst
            meshes[0].send(bob.mesh.peer_id, LiveOp(wire))
        assert await wait_until(lambda: alice.mesh.peer_id not in bob.mesh.peers(), 10)
        await asyncio.sleep(0.1)
        # the five before it are applied (hello + 5), nothing from it on
        assert bob.vv()[alice.mesh.peer_id] == 6
        assert named and named[0].peer_id == alice.mesh.peer_id
        assert alice.mesh.peer_id in named[0].reason
        await stop_all(meshes)
    run(scenario())
