"""An author that signs two ops under one number: found, named, never applied twice, void."""

import asyncio

import pytest
from netplay_testkit import LOOPBACK, ReplicaPeer, run, start_meshes, stop_all, wait_until

from netplay.replication.events import Equivocated
from netplay.replication.opsign import op_signer

pytestmark = [pytest.mark.socket, pytest.mark.processes]


def test_both_versions_in_one_batch_are_a_proof_not_a_fault_of_the_relayer():
    async def scenario():
        meshes = await start_meshes(3)
        author, relayer, target = (ReplicaPeer(m) for m in meshes)
        for m in (author.mesh, relayer.mesh):
            await m.connect(LOOPBACK, target.mesh.port)
        assert await wait_until(lambda: target.total() == 3 and relayer.total() == 3, 5)
        a_id = author.mesh.peer_id
        await author.repl.stop()
        await author.mesh.stop()  # the author is gone; only its signed ops remain
        one = author.replica.issue("create", {"id": "tok-1", "kind": "token"})
        two = one._replace(args={"id": "tok-2", "kind": "token"}, sig=None)
        two = two._replace(sig=op_signer(author.mesh.identity)(two.signing_bytes()))
        events = []
        target.repl.events.subscribe(events.append)
        # The target lacks #2 altogether: the first version is delivered, the second found.
        assert relayer.mesh.send(target.mesh.peer_id,
                                 {"t": "ops", "ops": [one.to_wire(), two.to_wire()]})
        assert await wait_until(lambda: target.replica.voided_from.get(a_id) == 2, 5)
        assert target.replica.store.get(a_id, 2).args["id"] == "tok-1"
        assert target.replica.state.live("tok-1") is None  # void from #2 on
        assert target.replica.state.live("tok-2") is None
        assert any(isinstance(e, Equivocated) and e.author == a_id for e in events)
        await asyncio.sleep(0.3)
        assert relayer.mesh.peer_id in target.mesh.peers()  # the relayer did nothing wrong
        assert any(a_id in r and "two different ops as #2" in r for r in target.replica.reports)
        # The target shows the proof to the relayer, which voids the same ops.
        assert await wait_until(lambda: relayer.replica.voided_from.get(a_id) == 2, 5)
        assert await wait_until(lambda: relayer.hash() == target.hash(), 5)
        await stop_all([relayer.mesh, target.mesh])
    run(scenario(), 60)


def test_a_proof_that_arrives_before_the_authors_earlier_ops_still_voids():
    """Both versions of #3 reach the target while it still lacks the author's #1 and #2: the
    first version waits for them, and the second is held until the first is delivered, then
    found (a proof is not lost for coming early)."""
    async def scenario():
        meshes = await start_meshes(3)
        author, relayer, target = (ReplicaPeer(m) for m in meshes)
        await relayer.mesh.connect(LOOPBACK, target.mesh.port)
        assert await wait_until(lambda: target.total() == 2 and relayer.total() == 2, 5)
        a_id = author.mesh.peer_id
        await author.repl.stop()
        await author.mesh.stop()  # never linked: only its signed ops travel, relayed
        hello = author.replica.store.get(a_id, 1)
        two = author.replica.issue("note", {"text": "two"})
        three = author.replica.issue("note", {"text": "three"})
        other = three._replace(args={"text": "another three"}, sig=None)
        other = other._replace(sig=op_signer(author.mesh.identity)(other.signing_bytes()))
        send = relayer.mesh.send
        assert send(target.mesh.peer_id, {"t": "ops", "ops": [three.to_wire(), other.to_wire()]})
        await asyncio.sleep(0.2)
        assert target.replica.voided_from.get(a_id) is None  # #3 waits for #1 and #2
        assert send(target.mesh.peer_id, {"t": "ops", "ops": [hello.to_wire(), two.to_wire()]})
        assert await wait_until(lambda: target.replica.voided_from.get(a_id) == 3, 5)
        assert target.replica.store.get(a_id, 3).args == {"text": "three"}
        assert any(a_id in r and "two different ops as #3" in r for r in target.replica.reports)
        assert relayer.mesh.peer_id in target.mesh.peers()  # the relayer did nothing wrong
        await stop_all([relayer.mesh, target.mesh])
    run(scenario(), 60)


def _log_hash(path) -> str:
    """`sandtable log hash` of a log, run as a person would."""
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-m", "table.app.cli", "log", "hash", str(path)],
                         capture_output=True, text=True, timeout=120, check=True)
    return out.stdout.split()[-1]


@pytest.mark.parametrize("case", ["reused_seq", "split_seq"])
def test_every_honest_log_hashes_to_the_live_state_after_an_equivocation(case, tmp_path):
    """A hostile peer in its own process (tests/netplay/hostile_peer.py, written against the
    document) signs two ops as #3: both to one peer (reused_seq), or one to each of two peers
    (split_seq). Every honest peer's `sandtable log hash` equals its live hash and the others';
    the merged log hashes the same too."""
    from test_hostile_peer import MESH, REPL, _spawn

    from table.core.merge import merge_logs

    async def scenario() -> tuple[str, str]:
        meshes = await start_meshes(2, config=MESH)
        paths = [tmp_path / "target.sandlog", tmp_path / "other.sandlog"]
        target, other = (ReplicaPeer(m, REPL, log_path=p) for m, p in zip(meshes, paths, strict=True))
        peers = [target, other]
        await other.mesh.connect(LOOPBACK, target.mesh.port)
        assert await wait_until(lambda: target.total() == 2 and other.total() == 2, 5)
        proc, hid, _ = await _spawn(case, [target.mesh.port, other.mesh.port])
        try:
            assert await wait_until(lambda: other.replica.voided_from.get(hid) == 3
                                    and target.replica.voided_from.get(hid) == 3, 30)
            target.play("after the equivocation")
            other.play("after it, too")
            assert await wait_until(lambda: target.vv() == other.vv()
                                    and target.hash() == other.hash(), 10)
            late = await _late_joiner_with_log(other, tmp_path / "late.sandlog")
            meshes.append(late.mesh)
            peers.append(late)
            assert await wait_until(lambda: late.vv() == target.vv() == other.vv()
                                    and late.hash() == target.hash() == other.hash(), 10)
            return target.hash(), other.hash(), hid
        finally:
            assert proc.stdin is not None
            proc.stdin.close()
            await asyncio.wait_for(proc.wait(), 10)
            for peer in peers:
                await peer.repl.stop()
            await stop_all(meshes)
            for peer in peers:
                peer.replica.close()

    live, other_live, hid = run(scenario(), 120)
    assert live == other_live
    from table.core.replica import Replica
    names = ("target", "other", "late")  # the late joiner learned of it in its catch-up
    for name in names:  # the proof is in each log: replay voids the same ops
        assert Replica.from_log(tmp_path / f"{name}.sandlog").voided_from == {hid: 3}
    hashes = [_log_hash(tmp_path / f"{name}.sandlog") for name in names]
    merge_logs([tmp_path / "target.sandlog", tmp_path / "other.sandlog"],
               tmp_path / "merged.sandlog")
    hashes.append(_log_hash(tmp_path / "merged.sandlog"))
    print(f"{case}: live {live[:16]}, logs (target, other, late joiner, merged) "
          f"{[h[:16] for h in hashes]}")
    assert hashes == [live, live, live, live]


async def _late_joiner_with_log(peer, path):
    """A peer that joins after the equivocation and opens its log only once caught up, as a
    joiner does once it knows the game (table.lan.hosting)."""
    from test_hostile_peer import MESH, REPL

    from table.core.logfile import LogWriter, make_header

    (mesh,) = await start_meshes(1, config=MESH)
    late = ReplicaPeer(mesh, REPL)
    await mesh.connect(LOOPBACK, peer.mesh.port)
    assert await wait_until(lambda: late.repl.catch_up.caught_up_with(peer.mesh.peer_id)
                            and late.vv() == peer.vv(), 20), late.repl.waiting_for()
    late.replica.start_log(LogWriter(path, make_header(late.replica.table_id, mesh.peer_id,
                                                       "", "")))
    late.play("the late joiner plays")
    return late
