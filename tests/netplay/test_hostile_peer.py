"""A hostile peer in its own process (tests/netplay/hostile_peer.py: its own encoder and signing,
written from docs/protocol.md) against two honest peers over real sockets on 127.0.0.1.

After each case: the honest peers agree (same state hash at equal version vectors), a late
joiner catches up completely (its time is printed, never asserted), and the offender is named in
the honest peer's log and events.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import time
from pathlib import Path

import pytest
from netplay_testkit import LOOPBACK, ReplicaPeer, run, start_meshes, stop_all, wait_until

from netplay.link.link import LinkConfig
from netplay.mesh.mesh import MeshConfig
from netplay.replication.replication import ReplicationConfig

pytestmark = [pytest.mark.socket, pytest.mark.processes]

HERE = Path(__file__).resolve().parent
# Default link timeouts: a 10,000-op burst keeps a peer busy longer than the fast test links'.
MESH = MeshConfig(link=LinkConfig(handshake_timeout=5.0, connect_timeout=2.0),
                  gossip_interval=0.5, dial_grace=0.3)
REPL = ReplicationConfig(hash_interval=0.3)

# case -> (what the target's naming must contain, whether the target drops the link)
CASES = {
    "float32_time": ("field time: encoded as float32, canonical is float64", True),
    "int_time": ("field time: encoded as uint32, canonical is float64", True),
    "uint32_ints": ("field args.values[0]: encoded as uint32, canonical is positive fixint",
                    True),
    "bad_signature": ("has a bad signature", True),
    "altered_args": ("has a bad signature", True),
    "reused_seq": ("signed two different ops as #3", True),
    "split_seq": ("signed two different ops as #3", False),
    "ghost_vector": ("ended its catch-up without sending ops its version vector claims", False),
    "burst": ("", False),
}


async def _spawn(case: str, ports: list[int]) -> tuple[asyncio.subprocess.Process, str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(HERE), str(HERE.parents[1]),
                                         env.get("PYTHONPATH", "")])
    proc = await asyncio.create_subprocess_exec(
        sys.executable, str(HERE / "hostile_peer.py"), "--case", case,
        "--ports", ",".join(map(str, ports)), stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE, env=env)
    assert proc.stdout is not None
    hostile_id, ghost = "", ""
    while True:
        line = (await asyncio.wait_for(proc.stdout.readline(), 60)).decode().strip()
        assert line, f"hostile peer ({case}) exited early"
        if line.startswith("ID "):
            hostile_id = line[3:]
        elif line.startswith("GHOST "):
            ghost = line[6:]
        elif line == "SENT":
            return proc, hostile_id, ghost


async def _late_joiner(target: ReplicaPeer, case: str) -> None:
    (mesh,) = await start_meshes(1, config=MESH)
    late = ReplicaPeer(mesh, REPL)
    t0 = time.monotonic()
    await mesh.connect(LOOPBACK, target.mesh.port)
    assert await wait_until(lambda: late.repl.catch_up.caught_up_with(target.mesh.peer_id)
                            and all(late.vv().get(a, 0) >= n for a, n in target.vv().items()),
                            60), late.repl.waiting_for()
    print(f"{case}: late joiner caught up with {sum(late.vv().values())} ops in "
          f"{time.monotonic() - t0:.3f} s")
    assert late.repl.catch_up.gaps[target.mesh.peer_id] == []
    assert late.replica.verifier.failures == 0
    assert late.replica.voided_from == target.replica.voided_from
    assert await wait_until(lambda: late.vv() == target.vv(), 10)
    assert late.hash() == target.hash()
    await late.repl.stop()
    await mesh.stop()


@pytest.mark.parametrize("case", list(CASES))
def test_hostile_peer(case, caplog):
    caplog.set_level(logging.WARNING)
    expected, dropped = CASES[case]

    async def scenario() -> None:
        meshes = await start_meshes(2, config=MESH)
        target, other = (ReplicaPeer(m, REPL) for m in meshes)
        await other.mesh.connect(LOOPBACK, target.mesh.port)
        assert await wait_until(lambda: target.total() == 2 and other.total() == 2, 5)
        proc, hid, ghost = await _spawn(case, [target.mesh.port, other.mesh.port])
        try:
            # The hostile hello and second op reach both; the case's op only the target.
            assert await wait_until(lambda: other.vv().get(hid, 0) >= 2, 30)
            if dropped:
                assert await wait_until(lambda: hid not in target.mesh.peers(), 10)
            if case == "burst":
                assert await wait_until(lambda: target.vv().get(hid) == 10_002
                                        and other.vv().get(hid) == 10_002, 60)
            if expected:
                assert await wait_until(lambda: any(
                    o.peer_id == hid and expected in o.reason for o in target.repl.offences), 10), \
                    [o.reason for o in target.repl.offences]
                assert any(hid in r.getMessage() and expected in r.getMessage()
                           for r in caplog.records)
                assert any(hid in r and expected in r for r in target.replica.reports)
            if ghost:
                assert ghost not in target.vv()
            # The honest peers agree: equal vectors, equal state hashes.
            assert await wait_until(lambda: target.vv() == other.vv()
                                    and target.hash() == other.hash(), 10)
            if case != "split_seq":  # (a split shows as a divergence until it is found)
                assert target.repl.divergences == 0 and other.repl.divergences == 0
            if case in ("reused_seq", "split_seq"):
                # Never applied twice: the first version stays stored, and once the proof has
                # reached every honest peer the author's ops from #3 on are void everywhere.
                # (a link the load dropped gets the proof again on relinking: allow for that)
                assert await wait_until(lambda: other.replica.voided_from.get(hid) == 3
                                        and target.replica.voided_from.get(hid) == 3, 20)
                assert any(o.peer_id == hid and expected in o.reason
                           for o in other.repl.offences)
                assert not [r for r in target.replica.records() if r.op.ref == (hid, 3)]
                assert await wait_until(lambda: target.hash() == other.hash(), 10)
            if case == "reused_seq":
                assert target.replica.store.get(hid, 3).args == {"text": "three"}
            if case == "split_seq":
                assert target.replica.store.get(hid, 3).args["id"] == "tok-a"
                # The other peer keeps the first version that reached it: its own tok-b, or
                # tok-a when the target's relay outran the hostile's direct send (a race on a
                # loaded machine). Either way one version is kept and neither is applied.
                assert other.replica.store.get(hid, 3).args["id"] in ("tok-a", "tok-b")
                assert hid in target.mesh.peers()  # named, link kept: it relayed nothing
            await _late_joiner(target, case)
        finally:
            assert proc.stdin is not None
            proc.stdin.close()
            await asyncio.wait_for(proc.wait(), 10)
            await target.repl.stop()
            await other.repl.stop()
            await stop_all(meshes)

    run(scenario(), 180)
