"""Hidden card definitions never leave their owner's peer: neither in the bytes on the wire
(a recording relay between two peers) nor in any message before encryption."""

import asyncio

import netplay.link as link_module
from netplay.link import LinkConfig
from netplay.mesh import MeshConfig
from netplay.replication import ReplicationConfig
from netplay.session import SessionOptions
from table import lan
from table.core import actions as act

from netplay_testkit import LOOPBACK, RecordingRelay, run, wait_until


def _options():
    return SessionOptions(interfaces=[LOOPBACK], announce=False, passphrase="pw",
                          mesh=MeshConfig(link=LinkConfig(heartbeat_interval=0.3, dead_after=3),
                                          gossip_interval=0.5, dial_grace=0.3),
                          replication=ReplicationConfig(hash_interval=0.3))


def test_hidden_cards_never_sent(tmp_path, monkeypatch):
    sent: list[bytes] = []
    real_pack = link_module.pack

    def recording_pack(msg):
        data = real_pack(msg)
        sent.append(data)
        return data

    monkeypatch.setattr(link_module, "pack", recording_pack)

    async def scenario():
        module = lan.module_for("gauntlet")
        host = await lan.host(module, table_name="hidden", seats=2, log_path=tmp_path / "h.log",
                              options=_options())
        relay = RecordingRelay(host.session.port)
        await relay.start()
        guest = await lan.join(log_path=tmp_path / "g.log", connect=f"{LOOPBACK}:{relay.port}",
                               options=_options())
        await lan.take_seat(host, 1)
        await lan.take_seat(guest, 2)
        assert await wait_until(lambda: lan.setup_complete(host.replica)
                                and lan.setup_complete(guest.replica), 10)
        act.draw(guest.replica, "p2.deck", "p2.hand", 2, seat=2)
        hand = guest.replica.state.objs["p2.hand"].children
        act.show(guest.replica, hand[-1], 1, seat=2)  # a private reveal to seat 1 only
        assert await wait_until(
            lambda: host.replica.version_vector() == guest.replica.version_vector(), 5)
        await asyncio.sleep(0.3)
        assert host.replica.public_state_hash() == guest.replica.public_state_hash()
        assert host.replica.knowledge.card_of(hand[-1]) is not None  # the show arrived
        secrets = []
        shown_card = guest.replica.knowledge.card_of(hand[-1])
        for t, seat in ((host, 1), (guest, 2)):
            public = {o.card for o in t.replica.state.objs.values() if o.card}
            for handle, (card, salt) in t.replica.knowledge.cards.items():
                obj = t.replica.state.objs.get(handle)
                if obj is None or obj.card is not None or obj.owner != seat:
                    continue
                if handle == hand[-1]:
                    continue  # shown on purpose
                secrets.append(salt.encode())
                if card not in public and card != shown_card:
                    secrets.append(card.encode())
        assert len(secrets) > 20
        wire = bytes(relay.c2s) + bytes(relay.s2c)
        assert len(wire) > 10_000
        plain = b"".join(sent)
        for secret in secrets:
            assert secret not in wire
            i = plain.find(secret)
            assert i < 0, (secret, plain[max(0, i - 300):i + 100])
        await relay.stop()
        await guest.close()
        await host.close()
    run(scenario(), 60)
