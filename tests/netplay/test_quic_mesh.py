"""Meshes linked over the internet transport (QUIC through iroh, relays off, 127.0.0.1 only):
the same links, gossip and redial as over TCP, and the signed endpoint claims."""
from __future__ import annotations

from dataclasses import replace

import pytest

from netplay.link.endpoint_claims import EndpointClaims, claim_bytes
from netplay.link.quic import QuicSettings
from netplay.mesh.mesh import Mesh
from netplay.protocol.identity import Identity
from netplay.protocol.messages import Private
from netplay.protocol.wire import ProtocolError
from tests.netplay.netplay_testkit import FAST_MESH, LOOPBACK, run, wait_until

pytestmark = pytest.mark.socket

QUIC = QuicSettings(relay="off", bind_host=LOOPBACK)
QUIC_MESH = replace(FAST_MESH, quic=QUIC)


async def _meshes(n: int, passphrase: str | None = "pw", table: str = "t1") -> list[Mesh]:
    meshes = [Mesh(Identity.generate(), table, passphrase, host=LOOPBACK, config=QUIC_MESH)
              for _ in range(n)]
    for m in meshes:
        await m.start()
    return meshes


def test_two_meshes_link_over_quic_and_exchange_messages() -> None:
    async def scenario() -> None:
        a, b = await _meshes(2)
        got: list[dict] = []
        b.events.subscribe(lambda e: got.append(e.message) if hasattr(e, "message") else None)
        try:
            assert a.quic is not None
            peer = await b.connect(a.quic.ticket(), 0)
            assert peer == a.peer_id
            link = b.link(a.peer_id)
            assert link is not None and link.via is not None and link.via.startswith("quic:")
            assert await wait_until(lambda: a.is_linked(b.peer_id), 5)
            assert a.send(b.peer_id, {"t": "priv", "body": {"just": "you"}})
            assert await wait_until(lambda: any(isinstance(m, Private) for m in got), 5)
        finally:
            for m in (a, b):
                await m.stop()

    run(scenario())


def test_a_third_peer_learns_the_others_ticket_by_gossip_and_links_to_all() -> None:
    async def scenario() -> None:
        a, b, c = await _meshes(3)
        try:
            assert a.quic is not None
            await b.connect(a.quic.ticket(), 0)
            await c.connect(a.quic.ticket(), 0)
            # b and c never met: each learns the other's signed ticket through a. Whichever of
            # them dials first, the other may be linked before any peers message has brought
            # it the dialler's claim, so the wait is for the claims as well as the links.
            tickets = {m.peer_id: m.quic.ticket() for m in (a, b, c)}  # type: ignore[union-attr]

            def meshed() -> bool:
                return all(len(m.peers()) == 2 for m in (a, b, c)) \
                    and b.claims.ticket_of(c.peer_id) == tickets[c.peer_id] \
                    and c.claims.ticket_of(b.peer_id) == tickets[b.peer_id]

            assert await wait_until(meshed, 30)
        finally:
            for m in (a, b, c):
                await m.stop()

    run(scenario(), 60)  # (QUIC set-up on a loaded machine: the wait above is generous)


def test_a_wrong_passphrase_over_quic_is_refused_with_the_reason() -> None:
    async def scenario() -> None:
        a, = await _meshes(1, passphrase="right")
        b = Mesh(Identity.generate(), "t1", "wrong", host=LOOPBACK, config=QUIC_MESH)
        await b.start()
        try:
            assert a.quic is not None
            assert await b.connect(a.quic.ticket(), 0) is None
            assert "wrong table passphrase" in next(iter(b.dial_failures.values()))
            assert a.peers() == [] and b.peers() == []
        finally:
            await a.stop()
            await b.stop()

    run(scenario())


def test_a_dropped_quic_link_is_redialled() -> None:
    async def scenario() -> None:
        a, b = await _meshes(2)
        try:
            assert a.quic is not None
            await b.connect(a.quic.ticket(), 0)
            assert await wait_until(lambda: a.is_linked(b.peer_id), 5)
            link = a.link(b.peer_id)
            assert link is not None
            link.abort("test: cut")
            assert await wait_until(lambda: a.is_linked(b.peer_id) and a.link(b.peer_id) is not link
                                    and b.is_linked(a.peer_id), 15)
        finally:
            for m in (a, b):
                await m.stop()

    run(scenario(), timeout=40)


def test_endpoint_claims_keep_only_what_the_table_identity_signed() -> None:
    alice, bob, mallory = Identity.generate(), Identity.generate(), Identity.generate()
    keys = {alice.peer_id: alice.public_key, bob.peer_id: bob.public_key}
    theirs = EndpointClaims(alice, "t1", keys.get)
    theirs.claim_own("endpointAAAAAAAAAAAAAAAAAAAAAAAA")
    mine = EndpointClaims(bob, "t1", keys.get)
    assert mine.receive(theirs.entries()) == [(alice.peer_id, "endpointAAAAAAAAAAAAAAAAAAAAAAAA")]
    # a ticket swapped in by someone else (signed with another key) is not taken
    forged = mallory.sign(claim_bytes("t1", alice.peer_id, "endpointMMMMMMMMMMMMMMMMMMMMMMMM"))
    assert mine.receive([{"id": alice.peer_id, "ticket": "endpointMMMMMMMMMMMMMMMMMMMMMMMM",
                          "sig": forged}]) == []
    assert mine.ticket_of(alice.peer_id) == "endpointAAAAAAAAAAAAAAAAAAAAAAAA"
    # nor a claim signed for another table
    other = EndpointClaims(alice, "t2", keys.get)
    other.claim_own("endpointBBBBBBBBBBBBBBBBBBBBBBBB")
    assert mine.receive(other.entries()) == []
    with pytest.raises(ProtocolError):
        mine.receive([{"id": alice.peer_id, "ticket": 5, "sig": b""}])


def test_the_peer_book_and_peer_file_keep_tickets_after_the_lan_addresses(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from netplay.discovery.peerfile import load_peers, save_peers
    from netplay.mesh.peerbook import PeerBook

    a, b, c = ("endpoint" + x * 30 for x in "abc")
    pid = Identity.generate().peer_id
    book = PeerBook("me")
    book.remember(pid, a, 0, 0.0)
    book.remember(pid, "10.0.0.5", 7000, 0.0)
    book.remember(pid, b, 0, 0.0)
    book.remember(pid, c, 0, 0.0)
    known = book.get(pid)
    assert known is not None and known.addresses == [("10.0.0.5", 7000), (c, 0), (b, 0)]
    assert book.remember(pid, "not-a-ticket", 0, 0.0) is None  # port 0 only for a ticket
    path = tmp_path / "t.log.peers"
    save_peers(path, {pid: known.addresses})
    assert load_peers(path) == {pid: [("10.0.0.5", 7000), (c, 0), (b, 0)]}


def test_a_ticket_is_never_looked_up_as_a_host_name_without_an_endpoint() -> None:
    async def scenario() -> None:
        lan_only = Mesh(Identity.generate(), "t1", "pw", host=LOOPBACK, config=FAST_MESH)
        await lan_only.start()
        try:
            ticket = "endpoint" + "q" * 40
            assert await lan_only.connect(ticket, 0) is None
            assert "no internet endpoint here" in lan_only.dial_failures[(ticket, 0)]
        finally:
            await lan_only.stop()

    run(scenario())


def test_a_relay_url_that_answers_nothing_still_links_directly() -> None:
    """The URL mode's code path, against a relay address on 127.0.0.1 where nothing listens
    (no relay can be reached from here): the endpoints still find their direct path."""
    relay = QuicSettings(relay="http://127.0.0.1:9/", bind_host=LOOPBACK)
    config = replace(FAST_MESH, quic=relay)

    async def scenario() -> None:
        a, b = (Mesh(Identity.generate(), "t1", "pw", host=LOOPBACK, config=config)
                for _ in range(2))
        await a.start()
        await b.start()
        try:
            assert a.quic is not None
            assert await b.connect(a.quic.ticket(), 0) == a.peer_id
        finally:
            for m in (a, b):
                await m.stop()

    run(scenario(), timeout=60)
