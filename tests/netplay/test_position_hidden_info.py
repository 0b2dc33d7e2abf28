"""A LAN table started from a position over real sockets: each seat's hidden cards are made by
its own peer, and none of them travels, neither in the bytes on the wire (a recording relay)
nor in any message before encryption. Both peers end with the same table, in the position."""

import asyncio
import re
from pathlib import Path

import pytest
from netplay_testkit import LOOPBACK, RecordingRelay, run, wait_until

from assist.runner import AssistRunner, load_plugin
from netplay.link.link import LinkConfig
from netplay.mesh.mesh import MeshConfig
from netplay.replication.replication import ReplicationConfig
from netplay.session.lan_session import SessionOptions
from table import lan
from table.games.position import read_position
from table.games.position_writer import replica_position

pytestmark = pytest.mark.socket

POSITION = Path(__file__).resolve().parents[1] / "games" / "data" / "gauntlet.toml"


def _options():
    return SessionOptions(interfaces=[LOOPBACK], announce=False, passphrase="pw",
                          mesh=MeshConfig(link=LinkConfig(heartbeat_interval=0.3, dead_after=3),
                                          gossip_interval=0.5, dial_grace=0.3),
                          replication=ReplicationConfig(hash_interval=0.3))


def test_position_start_leaks_no_hidden_card(tmp_path, plaintext_sent):
    sent = plaintext_sent
    position = read_position(POSITION)

    async def scenario():
        host = await lan.host(position.module, table_name="pos", seats=2,
                              log_path=tmp_path / "h.log", options=_options(),
                              position=position)
        relay = RecordingRelay(host.session.port)
        await relay.start()
        guest = await lan.join(log_path=tmp_path / "g.log", connect=f"{LOOPBACK}:{relay.port}",
                               options=_options(), position=read_position(POSITION))
        await lan.take_seat(host, 1)
        await lan.take_seat(guest, 2)
        def done(r):
            return any(rec.op.kind == "mark" and rec.op.args.get("value") == "position-end"
                       for rec in r.records())
        assert await wait_until(lambda: done(host.replica) and done(guest.replica), 10)
        assert await wait_until(
            lambda: host.replica.version_vector() == guest.replica.version_vector(), 5)
        await asyncio.sleep(0.3)
        assert host.replica.public_state_hash() == guest.replica.public_state_hash()
        state = host.replica.state
        assert state.turn == {"seat": 1, "number": 3} and state.phase == "Capture"
        assert len(state.objs["p1.hand"].children) == 3
        assert len(state.objs["p2.deck"].children) == 27  # the rest of the Diplomats list
        # each seat's peer knows its own hidden cards and nothing of the other's
        for t, mine, theirs in ((host, 1, 2), (guest, 2, 1)):
            for zone in ("hand", "deck"):
                own = t.replica.state.objs[f"p{mine}.{zone}"].children
                other = t.replica.state.objs[f"p{theirs}.{zone}"].children
                assert all(t.replica.knowledge.card_of(h) for h in own)
                assert not any(t.replica.knowledge.card_of(h) for h in other)
        # a LAN peer saves what it knows: its own hand by name, the other's as "?"
        saved = replica_position(guest.replica, position.module)
        assert '"p1.hand" = ["?", "?", "?"]' in saved
        assert '"p2.hand" = ["Scout", "Scout", "Scout"]' in saved
        assert lan.setup_complete(guest.replica)
        # the assist judges nothing of the start
        runner = AssistRunner.for_replica(host.replica, position.module,
                                          load_plugin("gauntlet"), seat=-1)
        assert runner.entries(include_undone=True) == []
        secrets = []
        for t, seat in ((host, 1), (guest, 2)):
            public = {o.card for o in t.replica.state.objs.values() if o.card}
            for handle, (card, salt) in t.replica.knowledge.cards.items():
                obj = t.replica.state.objs.get(handle)
                if obj is None or obj.card is not None or obj.owner != seat:
                    continue
                secrets.append(salt.encode())
                if card not in public:
                    secrets.append(card.encode())
        assert len(secrets) > 40
        wire = bytes(relay.c2s) + bytes(relay.s2c)
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
    # the merged log of both peers knows every card: its saved position names them all
    from table.app.commands.position import saved_position
    from table.core.merge import merge_logs

    merge_logs([tmp_path / "h.log", tmp_path / "g.log"], tmp_path / "all.sandlog")
    whole = saved_position(str(tmp_path / "all.sandlog"))
    assert '"?"' not in whole
    assert '"p1.hand" = ["Militia", "Scout", "Shield Wall"]' in whole
    assert '"p2.hand" = ["Scout", "Scout", "Scout"]' in whole


def test_joining_a_position_table_needs_the_same_file(tmp_path):
    position = read_position(POSITION)
    other = tmp_path / "other.toml"
    other.write_text(POSITION.read_text(encoding="utf-8").replace('player = "Bram"',
                                                                 'player = "Cleo"'))

    async def scenario():
        host = await lan.host(position.module, table_name="pos2", seats=2,
                              log_path=tmp_path / "h.log", options=_options(),
                              position=position)
        for i, (pos, message) in enumerate(((None, "join with the same position file"),
                                            (read_position(other), "differs from the host's"))):
            with pytest.raises(lan.LanError, match=re.escape(message)):
                await lan.join(log_path=tmp_path / f"g{i}.log",
                               connect=f"{LOOPBACK}:{host.session.port}", options=_options(),
                               position=pos)
        await host.close()
    run(scenario(), 60)
