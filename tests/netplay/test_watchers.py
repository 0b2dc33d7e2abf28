"""Watchers over real sockets (127.0.0.1): a host that refuses them says so in its listing and
a watcher cannot join; a lone player rolls locally; a record sent to a peer that does not
watch is ignored and its sender reported. The rule itself, op by op, is in the core."""
from __future__ import annotations

import pytest
from netplay_testkit import LOOPBACK, run, wait_until

from netplay.discovery.table_search import browse_tables
from netplay.session.lan_session import SessionOptions
from table import lan
from table.core import actions as act
from table.core.errors import BadOp
from table.core.ops import Op
from table.core.replica import Replica

pytestmark = pytest.mark.socket


def _options(**kw):  # type: ignore[no-untyped-def]
    return SessionOptions(interfaces=[LOOPBACK], passphrase="pw", **kw)


def test_a_table_that_refuses_watchers_lists_it_and_a_watcher_cannot_join(tmp_path):  # type: ignore[no-untyped-def]
    async def scenario() -> None:
        host = await lan.host(lan.module_for("gauntlet"), table_name="No watchers", seats=2,
                              log_path=tmp_path / "h.log", options=_options(), watchers=False)
        try:
            tables = await browse_tables([LOOPBACK], 10, lambda ts: any(
                t.table_id == host.replica.table_id and not t.watchers for t in ts))
            [listing] = [t for t in tables if t.table_id == host.replica.table_id]
            assert listing.watchers is False
            with pytest.raises(lan.LanError, match="does not take watchers"):
                await lan.join(log_path=tmp_path / "w.log", options=_options(watch=True),
                               connect=f"{LOOPBACK}:{host.session.port}")
            # a player still joins, is told about nothing (no watchers), and a lone roll is local
            guest = await lan.join(log_path=tmp_path / "g.log", options=_options(announce=False),
                                   connect=f"{LOOPBACK}:{host.session.port}")
            await lan.take_seat(guest, 2)
            guest.replica.subscribe_reports(reports.append)
            host.session.end_of_game.receive(guest.replica.peer_id, {"data": {"cards": {}}})
            assert "does not watch" in host.replica.reports[-1]
            await guest.close()
            assert await wait_until(lambda: not host.session.mesh.peers(), 5)
            op = act.roll(host.replica, sides=6)
            assert op is not None and op.args.get("local") is True
        finally:
            await host.close()

    reports: list[str] = []
    run(scenario(), 60)


def test_the_core_voids_a_watchers_moves_everywhere_and_refuses_them_at_home() -> None:
    player, watcher = Replica("t", "p"), Replica("t", "w")
    player.issue("hello", {"name": "P"})
    watcher.issue("hello", {"name": "W", "watch": True})
    player.issue("create", {"id": "z", "kind": "zone"})
    for op in player.store.all_ops():
        watcher.receive(op.to_wire())
    for op in watcher.store.all_ops():
        player.receive(op.to_wire())
    with pytest.raises(BadOp, match="watches the table"):
        watcher.issue("delete", {"id": "z"})
    with pytest.raises(BadOp, match="watches the table"):
        watcher.issue("seat", {"seat": 1})
    watcher.issue("chat", {"text": "hi"})
    watcher.issue("note", {"text": "slow opening"})
    for n in (2, 3):
        player.receive(watcher.store.get("w", n).to_wire())
    forged = Op("w", 4, player.store.max_lamport + 1, "delete", {"id": "z"}, {}, 0.0, None)
    player.receive(forged.to_wire())
    assert player.state.live("z") is not None
    record = player.timeline.record_of(("w", 4))
    assert record is not None and record.void is not None
    assert player.reports == ["peer w: a watcher cannot delete (watchers only chat and add notes)"]
    assert [r.void for r in player.records() if r.op.author == "w"][:3] == [None, None, None]


def _hidden_cards(t):  # type: ignore[no-untyped-def]
    state = t.replica.state
    return {h: pair for h, pair in t.replica.knowledge.cards.items()
            if state.objs.get(h) is not None and state.objs[h].card is None}


def test_a_player_leaving_on_purpose_sends_its_secrets_to_the_watcher_unless_the_table_says_no(tmp_path):  # type: ignore[no-untyped-def]
    async def one_table(record: bool, tag: str) -> tuple[dict, dict]:
        host = await lan.host(lan.module_for("gauntlet"), table_name="Leaving " + tag, seats=2,
                              log_path=tmp_path / f"h{tag}.log", options=_options(announce=False),
                              record_to_watchers=record)
        where = f"{LOOPBACK}:{host.session.port}"
        watcher = await lan.join(log_path=tmp_path / f"w{tag}.log", connect=where,
                                 options=_options(announce=False, watch=True))
        guest = await lan.join(log_path=tmp_path / f"g{tag}.log", connect=where,
                               options=_options(announce=False))
        try:
            await lan.take_seat(host, 1)
            await lan.take_seat(guest, 2)
            assert await wait_until(lambda: lan.setup_complete(watcher.replica)
                                    and len(watcher.session.mesh.peers()) == 2, 15)
            assert watcher.replica.knowledge.cards == {}
            secrets = _hidden_cards(guest)
            guest_id = guest.replica.peer_id
            await guest.close()  # leaving on purpose, mid-game
            # What a leaving peer sends travels before its goodbye on the same link: once the
            # watcher has seen it go, anything it sent is there.
            assert await wait_until(lambda: guest_id not in watcher.session.mesh.peers(), 5)
            if record:
                assert await wait_until(
                    lambda: secrets.items() <= watcher.replica.knowledge.cards.items(), 5)
            return secrets, dict(watcher.replica.knowledge.cards)
        finally:
            await watcher.close()
            await host.close()

    async def scenario() -> None:
        secrets, known = await one_table(True, "a")
        assert len(secrets) > 10 and secrets.items() <= known.items()
        secrets, known = await one_table(False, "b")
        assert not set(secrets) & set(known)  # neither the record nor the publication
    run(scenario(), 90)
