"""A peer of protocol 1 (tests/netplay/old_peer.py, the earlier handshake) and a table of this
version, over real sockets: whichever dials, both sides say which versions met, in words, and
the test's own deadline of 2 s holds for both. A dialler of protocol 1 that waits for the
table's hello (its manual connect did) is told too, once the table stops waiting for it."""
from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest
from netplay_testkit import FAST_MESH, LOOPBACK, run, start_meshes, stop_all, wait_until
from old_peer import OldPeer

from netplay.mesh.events import PeerRefused
from netplay.protocol.handshake import PROTOCOL_VERSION

pytestmark = pytest.mark.socket
WITHIN = 2.0  # seconds: the deadline of each exchange below, the test's own


def _refusals(mesh) -> list[PeerRefused]:
    seen: list[PeerRefused] = []
    mesh.events.subscribe(lambda e: seen.append(e) if isinstance(e, PeerRefused) else None)
    return seen


def test_a_dialler_of_protocol_1_reads_the_tables_version_and_the_table_says_so():
    async def scenario() -> None:
        (mesh,) = await start_meshes(1, passphrase=None)
        seen = _refusals(mesh)
        old = OldPeer("table-1")
        loop = asyncio.get_running_loop()
        start = loop.time()
        await asyncio.wait_for(old.dial(LOOPBACK, mesh.port), WITHIN)
        assert await wait_until(lambda: bool(seen), max(0.0, start + WITHIN - loop.time()))
        told = f"this table speaks protocol {PROTOCOL_VERSION}; you have 1"
        assert old.said == f"refused: {told}"
        assert [f["t"] for f in old.frames] == ["reject"]  # in place of the table's hello
        assert seen[0].reason == (f"refused a peer of protocol 1 (this table speaks protocol "
                                  f"{PROTOCOL_VERSION})")
        assert not mesh.peers()
        await stop_all([mesh])
    run(scenario(), 20)


def test_a_table_of_protocol_1_is_refused_by_a_joiner_of_this_version_in_words():
    async def scenario() -> None:
        old = OldPeer("table-1")
        server = await asyncio.start_server(old.talk, LOOPBACK, 0)
        port = server.sockets[0].getsockname()[1]
        (mesh,) = await start_meshes(1, passphrase=None)
        seen = _refusals(mesh)
        loop = asyncio.get_running_loop()
        start = loop.time()
        assert await asyncio.wait_for(mesh.connect(LOOPBACK, port), WITHIN) is None
        assert await wait_until(lambda: len(old.frames) >= 2,
                                max(0.0, start + WITHIN - loop.time()))
        reason = f"the table speaks protocol 1; this program speaks protocol {PROTOCOL_VERSION}"
        assert mesh.dial_failures[(LOOPBACK, port)] == reason
        assert [e.reason for e in seen] == [reason]
        # the old table refused our hello in its words, and read our refusal of its own
        assert old.said == f"refused the other: protocol version mismatch (ours 1, theirs " \
                           f"{PROTOCOL_VERSION})"
        assert old.frames[0]["t"] == "hello" and old.frames[0]["v"] == PROTOCOL_VERSION
        assert old.frames[1] == {"t": "reject", "reason": f"this peer speaks protocol "
                                                          f"{PROTOCOL_VERSION}; the table has 1"}
        server.close()
        await stop_all([mesh])
    run(scenario(), 20)


def test_a_silent_dialler_is_told_what_the_table_expects_before_it_is_closed():
    """Protocol 1's manual connect waited for the table's hello; this table waits for the
    dialler's first bytes (admission) and, at its hello timeout, says why it hangs up."""
    async def scenario() -> bytes:
        quick = replace(FAST_MESH, link=replace(FAST_MESH.link, hello_timeout=0.3))
        (mesh,) = await start_meshes(1, passphrase=None, config=quick)
        reader, writer = await asyncio.open_connection(LOOPBACK, mesh.port)
        data = await asyncio.wait_for(reader.read(4096), 10)
        writer.close()
        await stop_all([mesh])
        return data

    data = run(scenario(), 20)
    assert b"reject" in data and f"speaks protocol {PROTOCOL_VERSION}".encode() in data
