"""Catch-up ends with caught_up; an op a peer advertises but never sends is named, not awaited."""

import pytest
from netplay_testkit import LOOPBACK, ReplicaPeer, StandIn, run, start_meshes, stop_all, wait_until

from netplay.replication.events import CaughtUp, PeerMisbehaved


@pytest.mark.socket
def test_catch_up_ends_explicitly_and_a_withheld_op_is_named():
    async def scenario():
        meshes = await start_meshes(3)
        author, server, joiner = (ReplicaPeer(m) for m in meshes)
        await author.mesh.connect(LOOPBACK, server.mesh.port)
        for i in range(3):
            author.play(f"move {i}")
        a_id, s_id = author.mesh.peer_id, server.mesh.peer_id
        assert await wait_until(lambda: server.vv().get(a_id) == 4, 5)
        await author.repl.stop()
        await author.mesh.stop()
        # The server advertises author#2 in its vector but never sends it (the fault a peer
        # had when it stored an op it could not relay).
        honest_missing = server.replica.ops_missing_for
        server.repl.replica = StandIn(server.replica, ops_missing_for=lambda vv: [
            w for w in honest_missing(vv) if (w[0], w[1]) != (a_id, 2)])
        events = []
        joiner.repl.events.subscribe(events.append)
        await joiner.mesh.connect(LOOPBACK, server.mesh.port)
        assert await wait_until(lambda: joiner.repl.catch_up.caught_up_with(s_id), 5)
        done = [e for e in events if isinstance(e, CaughtUp)]
        assert done and done[0].peer_id == s_id and done[0].gaps == ((a_id, 2),)
        assert done[0].vv[a_id] == 4
        assert joiner.vv()[a_id] == 1  # #3 and #4 wait for #2
        waiting = joiner.repl.waiting_for()
        assert f"op {a_id}#2 (peer {s_id} has up to #4)" in waiting
        assert f"peer {s_id} ended its catch-up without sending it" in waiting
        assert any(isinstance(e, PeerMisbehaved) and e.peer_id == s_id and f"{a_id}#2" in e.reason
                   for e in events)
        assert any(s_id in r and f"{a_id}#2" in r for r in joiner.replica.reports)
        # Once the op comes (here: the server stops withholding it), the joiner completes.
        server.repl.replica = server.replica
        server.repl.check_now()
        assert await wait_until(lambda: joiner.vv().get(a_id) == 4, 5)
        assert await wait_until(lambda: joiner.repl.waiting_for() == "", 5)
        await stop_all([server.mesh, joiner.mesh])
    run(scenario(), 60)


def test_a_log_taken_back_is_verified_again(tmp_path):
    """A log written before every op was checked may hold a badly signed op: reloaded with a
    verifier (as a LAN peer resumes), that op and the ops after it are not in the vector."""
    from netplay.protocol.identity import Identity
    from netplay.replication.opsign import OpVerifier, op_signer
    from table.core.replica import Replica

    other = Identity.generate()
    theirs = Replica("t", other.peer_id, signer=op_signer(other))
    ops = [theirs.issue("hello", {"key": other.public_key.hex()})]
    ops += [theirs.issue("note", {"text": str(i)}) for i in range(3)]
    ops[2] = ops[2]._replace(sig=bytes(64))
    mine = Replica("t", "e" * 16, log_path=tmp_path / "mine.log")
    mine.receive_many([op.to_wire() for op in ops], other.peer_id)  # unchecked, as once
    assert mine.version_vector() == {other.peer_id: 4}
    mine.close()
    again = Replica.from_log(tmp_path / "mine.log", verifier=OpVerifier(lambda _a: None))
    assert again.version_vector() == {other.peer_id: 2}
    assert any(f"{other.peer_id}#3 has a bad signature" in r for r in again.reports)
