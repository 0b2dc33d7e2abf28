"""Links that come back, on 127.0.0.1: a crashed peer restarted from its log rejoins the table
(joiner and host alike), the others show it "reconnecting" then "back"; a peer that left is
"gone" and not redialled; a flood of idle connections neither locks a joiner out nor stalls it."""

import asyncio
import logging

import pytest
from netplay_testkit import LOOPBACK, run, wait_until

from netplay.link.link import LinkConfig
from netplay.mesh.mesh import MeshConfig
from netplay.mesh.peerbook import PeerBook, RedialPolicy
from netplay.replication.replication import ReplicationConfig
from netplay.session.lan_session import SessionOptions
from table import lan


def _options(**kw):
    link = LinkConfig(heartbeat_interval=0.3, dead_after=2.0, hello_timeout=kw.pop("hello", 2.0))
    return SessionOptions(interfaces=[LOOPBACK], announce=False, passphrase="pw",
                          mesh=MeshConfig(link=link, gossip_interval=0.5, dial_grace=0.3),
                          replication=ReplicationConfig(hash_interval=0.3), **kw)


def _status(t, pid):
    return next(p.status for p in t.session.peer_list() if p.peer_id == pid)


def _same(tables):
    return len({t.replica.public_state_hash() for t in tables}) == 1 and \
        len({tuple(sorted(t.replica.version_vector().items())) for t in tables}) == 1


def test_backoff_doubles_to_a_cap_with_jitter():
    book = PeerBook("a", RedialPolicy(first_delay=0.1, min_delay=0.5, max_delay=2.5))
    book.remember("b", LOOPBACK, 9, now=0.0)
    book.linked("b", 0.0)
    book.unlinked("b", 10.0, left=False)
    assert book.due(10.0) == [] and [p.peer_id for p in book.due(10.2)] == ["b"]
    delays, now = [], 10.2
    for _ in range(8):
        book.failed("b", now)
        peer = book.get("b")
        delays.append(peer.next_dial - now)
        now = peer.next_dial
    assert all(0.75 * 0.5 <= d <= 1.25 * 2.5 for d in delays)
    assert max(delays) > 1.25 * 1.0 and delays[-1] >= 0.75 * 2.5  # grew, then capped
    book.unlinked("b", now, left=True)
    assert book.due(now + 100) == []  # left on purpose: it will dial us when it is back


@pytest.mark.socket
def test_a_crashed_joiner_and_a_crashed_host_rejoin_by_themselves(tmp_path):
    async def scenario():
        module = lan.module_for("mantle-of-the-keeper")
        host = await lan.host(module, table_name="comeback", seats=2, log_path=tmp_path / "a.log",
                              options=_options())
        bob = await lan.join(log_path=tmp_path / "b.log", connect=f"{LOOPBACK}:{host.session.port}",
                             options=_options())
        await asyncio.gather(lan.take_seat(host, 1), lan.take_seat(bob, 2))
        assert await wait_until(lambda: lan.setup_complete(bob.replica) and _same([host, bob]), 20)
        host_id, bob_id = host.session.peer_id, bob.session.peer_id

        # Bob's peer crashes (no bye); the host notices, shows "reconnecting", keeps playing.
        await bob.close(graceful=False)
        assert await wait_until(lambda: _status(host, bob_id) == "reconnecting", 10)
        host.replica.issue("note", {"text": "while Bob was away"})
        # Bob restarts from his log with `join` (by the host's address): he is back.
        bob = await lan.join(log_path=tmp_path / "b.log", connect=f"{LOOPBACK}:{host.session.port}",
                             options=_options())
        assert bob.session.peer_id == bob_id
        assert await wait_until(lambda: _status(host, bob_id) == "back", 10)
        assert await wait_until(lambda: _same([host, bob]), 10)

        # The host crashes and restarts with `host` on the same log (a new port): nobody gives
        # it an address, yet it finds Bob again (its address file) and they converge.
        await host.close(graceful=False)
        assert await wait_until(lambda: _status(bob, host_id) == "reconnecting", 10)
        bob.replica.issue("note", {"text": "while the host was away"})
        host = await lan.host(module, table_name="comeback", seats=2, log_path=tmp_path / "a.log",
                              options=_options())
        assert host.session.peer_id == host_id
        assert await wait_until(lambda: bob_id in host.session.mesh.peers(), 10)
        assert await wait_until(lambda: _same([host, bob]), 10)
        assert await wait_until(lambda: _status(bob, host_id) in ("back", "connected"), 5)
        notes = {op.args.get("text") for op in host.replica.store.all_ops() if op.kind == "note"}
        assert {"while Bob was away", "while the host was away"} <= notes

        # Leaving on purpose: "gone", and nobody keeps dialling it.
        await bob.close(graceful=True)
        assert await wait_until(lambda: _status(host, bob_id) == "gone", 10)
        known = host.session.mesh.known_peer(bob_id)
        assert known is not None and known.left and not known.dialing
        await host.close()
    run(scenario(), 90)


@pytest.mark.socket
def test_a_hundred_idle_connections_do_not_lock_out_a_late_joiner(tmp_path, caplog):
    caplog.set_level(logging.WARNING, logger="table.lan.hosting")

    async def scenario():
        module = lan.module_for("mantle-of-the-keeper")
        # hello=3 s: wide enough that the joiner surely finds the slots still held.
        host = await lan.host(module, table_name="flood", seats=2, log_path=tmp_path / "a.log",
                              options=_options(hello=3.0))
        await lan.take_seat(host, 1)
        idle = [await asyncio.open_connection(LOOPBACK, host.session.port) for _ in range(100)]
        await asyncio.sleep(0.2)
        late = await lan.join(log_path=tmp_path / "late.log",
                              connect=f"{LOOPBACK}:{host.session.port}", options=_options(),
                              timeout=20)
        assert await wait_until(lambda: _same([host, late]), 10)
        # Every idle connection was hung up by the host (busy at once, no hello in time, or
        # closed for a newcomer).
        closed = 0
        for reader, writer in idle:
            try:
                await asyncio.wait_for(reader.read(), 5)
                closed += 1
            except ConnectionError:  # reset: closed for a newcomer
                closed += 1
            except TimeoutError:
                pass
            writer.close()
        assert closed == 100
        # One address holds at most 8 places: the joiner's own connection (same address)
        # pushed out the flood's longest-waiting one instead of being told "busy".
        assert host.session.mesh.admission.evicted >= 1
        await late.close()
        await host.close()
    run(scenario(), 60)


def test_the_address_file_survives_garbage(tmp_path, caplog):
    from netplay.discovery.peerfile import load_peers, save_peers

    path = tmp_path / "x.log.peers"
    good = "0123456789abcdef"
    save_peers(path, {good: [(LOOPBACK, 7000), (LOOPBACK, 7001)]})
    assert load_peers(path) == {good: [(LOOPBACK, 7000), (LOOPBACK, 7001)]}
    path.write_text('{"0123456789abcdef": [["127.0.0.1", 99999], ["127.0.0.1", 7002], 5],'
                    ' "not a peer": [["127.0.0.1", 7003]]}')
    assert load_peers(path) == {good: [(LOOPBACK, 7002)]}
    path.write_text("{not json")
    with caplog.at_level(logging.WARNING, logger="netplay.discovery.peerfile"):
        assert load_peers(path) == {}
    assert any(str(path) in r.getMessage() for r in caplog.records)
    assert load_peers(tmp_path / "missing.peers") == {}
