"""A peer whose link was dropped for what it sent (here: a catch-up batch with a forged op) is
kept off for ``MeshConfig.offender_wait``: neither side's redial nor its own dial brings it
straight back (relinked at once, a forger would send again, be dropped and relinked in a
loop), and after the wait it is let in again."""
from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest
from netplay_testkit import FAST_MESH, LOOPBACK, ReplicaPeer, run, start_meshes, stop_all, wait_until

from netplay.mesh.peerbook import PeerBook
from netplay.replication.replication import ReplicationConfig

WAIT = 2.0


def test_the_book_dials_no_shunned_peer_until_its_wait_is_over() -> None:
    book = PeerBook("a")
    book.remember("b", "127.0.0.1", 9, now=0.0)
    book.misbehaved("b", now=1.0, wait=WAIT)
    assert book.shunned("b", 1.5) and book.due(2.9) == []
    assert not book.shunned("b", 3.0) and [p.peer_id for p in book.due(3.0)] == ["b"]


@pytest.mark.socket
def test_a_relay_of_a_forgery_stays_off_for_the_wait_then_comes_back() -> None:
    async def scenario() -> None:
        config = replace(FAST_MESH, offender_wait=WAIT)
        target, relay, author = (ReplicaPeer(m, ReplicationConfig(hash_interval=600))
                                 for m in await start_meshes(3, config=config))
        for m in (relay.mesh, author.mesh):
            await m.connect(LOOPBACK, target.mesh.port)
        assert await wait_until(lambda: len(target.mesh.peers()) == 2, 5)
        wires = [author.replica.issue("note", {"text": f"op {i}"}).to_wire() for i in range(3)]
        wires[1][8] = bytes(64)
        r_id = relay.mesh.peer_id
        assert relay.mesh.send(target.mesh.peer_id, {"t": "ops", "ops": wires})
        assert await wait_until(lambda: r_id not in target.mesh.peers(), 3)
        loop = asyncio.get_running_loop()
        dropped_at = loop.time()
        # its own dial is refused too (the target closes the link at once), and nobody's
        # redial relinks it meanwhile
        await relay.mesh.connect(LOOPBACK, target.mesh.port)
        while loop.time() < dropped_at + WAIT * 0.8:
            assert r_id not in target.mesh.peers()
            await asyncio.sleep(0.01)
        assert await wait_until(lambda: r_id in target.mesh.peers(), WAIT + 8)
        await stop_all([target.mesh, relay.mesh, author.mesh])
    run(scenario(), 60)
