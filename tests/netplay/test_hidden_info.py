"""Hidden card definitions never leave their owner's peer: neither in the bytes on the wire
(a recording relay between two peers) nor in any message before encryption."""

import asyncio

import pytest
from netplay_testkit import LOOPBACK, RecordingRelay, run, wait_until

from netplay.link.link import LinkConfig
from netplay.mesh.mesh import MeshConfig
from netplay.replication.replication import ReplicationConfig
from netplay.session.lan_session import SessionOptions
from table import lan
from table.core import actions as act

pytestmark = pytest.mark.socket


def _options():
    return SessionOptions(interfaces=[LOOPBACK], announce=False, passphrase="pw",
                          mesh=MeshConfig(link=LinkConfig(heartbeat_interval=0.3, dead_after=3),
                                          gossip_interval=0.5, dial_grace=0.3),
                          replication=ReplicationConfig(hash_interval=0.3))


def test_hidden_cards_never_sent(tmp_path, plaintext_sent):
    sent = plaintext_sent

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
        assert len(plain) > 10_000  # the capture saw the traffic (it is checked below)
        for secret in secrets:
            assert secret not in wire
            i = plain.find(secret)
            assert i < 0, (secret, plain[max(0, i - 300):i + 100])
        await relay.stop()
        await guest.close()
        await host.close()
    run(scenario(), 60)


def test_a_watcher_receives_no_hidden_card_before_the_end(tmp_path):
    """Everything a watcher's peer receives during play (each message after decryption) names
    no hidden card: not a draw, a private show, a joint shuffle or a request. When the game
    ends, the players' records bring it every secret."""

    from netplay.mesh.mesh import MessageReceived

    async def scenario():
        module = lan.module_for("gauntlet")
        host = await lan.host(module, table_name="watched", seats=2, log_path=tmp_path / "h.log",
                              options=_options())
        where = f"{LOOPBACK}:{host.session.port}"
        guest = await lan.join(log_path=tmp_path / "g.log", connect=where, options=_options())
        watch_opts = _options()
        watch_opts.watch = True
        watcher = await lan.join(log_path=tmp_path / "w.log", connect=where, options=watch_opts)
        received: list[bytes] = []

        def record(event):
            if isinstance(event, MessageReceived):
                received.append(event.payload)  # the bytes as they arrived

        watcher.session.mesh.events.subscribe(record)
        await lan.take_seat(host, 1)
        await lan.take_seat(guest, 2)
        assert await wait_until(lambda: all(lan.setup_complete(t.replica)
                                            for t in (host, guest, watcher)), 10)
        assert await wait_until(lambda: len(watcher.session.mesh.peers()) == 2, 5)
        act.draw(guest.replica, "p2.deck", "p2.hand", 2, seat=2)
        hand = guest.replica.state.objs["p2.hand"].children
        act.show(guest.replica, hand[-1], 1, seat=2)
        assert act.shuffle(host.replica, "p1.deck", seat=1) is None  # a joint shuffle
        ok, _error = await host.session.request({"op": "draw", "from": "p2.deck",
                                                 "to": "p2.hand"}, 2)
        assert ok
        replicas = [t.replica for t in (host, guest, watcher)]
        assert await wait_until(lambda: len({str(sorted(r.version_vector().items()))
                                             for r in replicas}) == 1 and any(
            op.kind == "consume" and op.args.get("fair") for op in host.replica.store.all_ops()),
            10)
        await asyncio.sleep(0.3)
        assert len({r.public_state_hash() for r in replicas}) == 1
        secrets = set()
        public = {o.card for o in host.replica.state.objs.values() if o.card}
        for t in (host, guest):
            for handle, (card, salt) in t.replica.knowledge.cards.items():
                obj = t.replica.state.objs.get(handle)
                if obj is not None and obj.card is None:  # still hidden
                    secrets.add(salt.encode())
                    if card not in public:  # a copy of it may be face up
                        secrets.add(card.encode())
        assert len(secrets) > 20
        assert watcher.replica.knowledge.cards == {}
        plain = b"".join(received)
        assert len(plain) > 10_000
        for secret in secrets:
            i = plain.find(secret)
            assert i < 0, (secret, plain[max(0, i - 300):i + 100])
        # the end of the game: the players' records reach the watcher
        act.end_game(host.replica, [1], "victory", seat=1)
        # each player's record travels on its own: wait for both, not for a count one reaches
        def every_secret_arrived() -> bool:
            known = watcher.replica.knowledge.cards
            return all(known.get(h) == pair for t in (host, guest)
                       for h, pair in t.replica.knowledge.cards.items())

        await wait_until(every_secret_arrived, 10)
        for t in (host, guest):
            for handle, pair in t.replica.knowledge.cards.items():
                assert watcher.replica.knowledge.cards.get(handle) == pair
        for t in (watcher, guest, host):
            await t.close()
    run(scenario(), 60)
