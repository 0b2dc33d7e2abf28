"""Hidden cards over the internet transport: the bytes a QUIC bi-stream carries (captured at
the stream layer, both directions) and every message before encryption name no hidden card of
another seat; the capture saw the whole game's traffic. Relays off, 127.0.0.1 only."""
from __future__ import annotations

import asyncio

import pytest

from netplay.link import quic
from netplay.link.link import LinkConfig
from netplay.link.quic import QuicSettings
from netplay.mesh.mesh import MeshConfig
from netplay.replication.replication import ReplicationConfig
from netplay.session.lan_session import SessionOptions
from table import lan
from table.core import actions as act
from tests.netplay.netplay_testkit import LOOPBACK, run, wait_until

pytestmark = pytest.mark.socket


def _quic_options() -> SessionOptions:
    return SessionOptions(interfaces=[LOOPBACK], announce=False, passphrase="pw",
                          mesh=MeshConfig(link=LinkConfig(heartbeat_interval=0.3, dead_after=3),
                                          gossip_interval=0.5, dial_grace=0.3,
                                          quic=QuicSettings(relay="off", bind_host=LOOPBACK)),
                          replication=ReplicationConfig(hash_interval=0.3))


def test_hidden_cards_never_cross_a_quic_stream(tmp_path, plaintext_sent, monkeypatch):  # type: ignore[no-untyped-def]
    wire = bytearray()
    real_write, real_read = quic.QuicWriter.write, quic.QuicReader.read

    def write(self, data):  # type: ignore[no-untyped-def]
        wire.extend(data)
        real_write(self, data)

    async def read(self, n=-1):  # type: ignore[no-untyped-def]
        data = await real_read(self, n)
        wire.extend(data)
        return data

    monkeypatch.setattr(quic.QuicWriter, "write", write)
    monkeypatch.setattr(quic.QuicReader, "read", read)

    async def scenario() -> None:
        module = lan.module_for("gauntlet")
        host = await lan.host(module, table_name="hidden", seats=2, log_path=tmp_path / "h.log",
                              options=_quic_options())
        assert host.ticket is not None
        guest = await lan.join(log_path=tmp_path / "g.log", ticket=host.ticket,
                               options=_quic_options())
        link = guest.session.mesh.link(host.session.peer_id)
        assert link is not None and (link.via or "").startswith("quic:")
        await lan.take_seat(host, 1)
        await lan.take_seat(guest, 2)
        assert await wait_until(lambda: lan.setup_complete(host.replica)
                                and lan.setup_complete(guest.replica), 20)
        act.draw(guest.replica, "p2.deck", "p2.hand", 2, seat=2)
        hand = guest.replica.state.objs["p2.hand"].children
        act.show(guest.replica, hand[-1], 1, seat=2)  # a private reveal to seat 1 only
        assert await wait_until(
            lambda: host.replica.version_vector() == guest.replica.version_vector(), 10)
        await asyncio.sleep(0.3)
        assert host.replica.public_state_hash() == guest.replica.public_state_hash()
        assert host.replica.knowledge.card_of(hand[-1]) is not None  # the show arrived
        shown_card = guest.replica.knowledge.card_of(hand[-1])
        secrets = []
        for t, seat in ((host, 1), (guest, 2)):
            public = {o.card for o in t.replica.state.objs.values() if o.card}
            for handle, (card, salt) in t.replica.knowledge.cards.items():
                obj = t.replica.state.objs.get(handle)
                if obj is None or obj.card is not None or obj.owner != seat or handle == hand[-1]:
                    continue
                secrets.append(salt.encode())
                if card not in public and card != shown_card:
                    secrets.append(card.encode())
        assert len(secrets) > 20
        assert len(wire) > 10_000  # the stream capture saw the game
        plain = b"".join(plaintext_sent)
        assert len(plain) > 10_000
        for secret in secrets:
            assert secret not in wire
            i = plain.find(secret)
            assert i < 0, (secret, plain[max(0, i - 300):i + 100])
        await guest.close()
        await host.close()

    run(scenario(), 90)
