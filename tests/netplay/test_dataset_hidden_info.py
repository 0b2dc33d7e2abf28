"""The dataset of a LAN session: both peers' logs make one session (merged in memory), and
nothing in `ops` names a card before the op that made it public, although the merged record
knows every secret by its end."""
from __future__ import annotations

import asyncio

import pytest
from netplay_testkit import LOOPBACK, run, wait_until

from netplay.link.link import LinkConfig
from netplay.mesh.mesh import MeshConfig
from netplay.replication.replication import ReplicationConfig
from netplay.session.lan_session import SessionOptions
from table import lan
from table.core import actions as act
from table.dataset import sessions_from
from table.dataset.build import build_dataset
from table.dataset.examples import views

pytestmark = pytest.mark.socket


def _options() -> SessionOptions:
    return SessionOptions(interfaces=[LOOPBACK], announce=False, passphrase="pw",
                          mesh=MeshConfig(link=LinkConfig(heartbeat_interval=0.3, dead_after=3),
                                          gossip_interval=0.5, dial_grace=0.3),
                          replication=ReplicationConfig(hash_interval=0.3))


def _play_lan_session(tmp_path) -> tuple:  # type: ignore[no-untyped-def, type-arg]
    async def scenario() -> None:
        module = lan.module_for("gauntlet")
        host = await lan.host(module, table_name="dataset", seats=2,
                              log_path=tmp_path / "host.sandlog", options=_options())
        guest = await lan.join(log_path=tmp_path / "guest.sandlog",
                               connect=f"{LOOPBACK}:{host.session.port}", options=_options())
        await lan.take_seat(host, 1)
        await lan.take_seat(guest, 2)
        assert await wait_until(lambda: lan.setup_complete(host.replica)
                                and lan.setup_complete(guest.replica), 10)
        act.draw(guest.replica, "p2.deck", "p2.hand", 3, seat=2)
        act.draw(host.replica, "p1.deck", "p1.hand", 3, seat=1)
        assert await wait_until(
            lambda: host.replica.version_vector() == guest.replica.version_vector(), 5)
        hand = list(guest.replica.state.objs["p2.hand"].children)
        act.move(guest.replica, hand[0], "p2.discard", face_up=True, seat=2)  # made public
        # laid face down on the table (its ops name the handle, not the card), moved on,
        # and only then turned up
        act.move(guest.replica, hand[1], "p2.assets", face_up=False, seat=2)
        act.rotate(guest.replica, hand[1], 90, seat=2)
        act.flip(guest.replica, hand[1], True, seat=2)
        act.move(guest.replica, hand[1], "p2.discard", seat=2)  # public from then on
        shown = host.replica.state.objs["p1.hand"].children[0]
        act.show(host.replica, shown, 2, seat=1)  # shown to seat 2 only: still hidden
        assert await wait_until(
            lambda: host.replica.version_vector() == guest.replica.version_vector(), 5)
        await asyncio.sleep(0.3)
        await guest.close()
        await host.close()
    run(scenario(), 60)
    return tmp_path / "host.sandlog", tmp_path / "guest.sandlog"


def test_a_lan_sessions_ops_name_no_card_before_it_was_revealed(tmp_path) -> None:  # type: ignore[no-untyped-def]
    logs = _play_lan_session(tmp_path)
    ((table, paths, folded),) = list(sessions_from(logs))  # one table, both peers' logs
    assert sorted(paths) == sorted(logs)
    replica = folded.replica
    records = replica.records()
    # when each hidden card became public: the first applied op that turned it up
    committed = {h for r in records if r.op.kind == "consume" for h, _c in r.op.args["out"]}
    revealed_at: dict[str, int] = {}
    for n, r in enumerate(records, start=1):
        a = r.op.args
        if r.void is None and isinstance(a.get("card"), str) and a.get("id") in committed:
            revealed_at.setdefault(a["id"], n)
    secret_cards = {card for h, (card, _salt) in replica.knowledge.cards.items()
                    if h in committed and h not in revealed_at}
    assert len(secret_cards) >= 4  # the merged record knows both hands' cards ...
    out = tmp_path / "ds"
    build_dataset(list(logs), out, jobs=1)
    con = views(out)
    assert con.execute("SELECT session, recorded_as, len(sources) FROM sessions").fetchall() \
        == [(table, "merged", 2)]
    named = con.execute("SELECT op, object, card, kind FROM ops WHERE card IS NOT NULL "
                        "ORDER BY op").fetchall()
    public = {card for _op, _obj, card, _kind in named}
    for op, obj, card, _kind in named:
        if obj in committed:  # a hidden card: named only from the op that revealed it
            assert obj in revealed_at and op >= revealed_at[obj], (op, obj, card)
    # ... and the dataset names none of them that no op ever made public
    never_public = secret_cards - {r.op.args["card"] for r in records
                                   if isinstance(r.op.args.get("card"), str)}
    assert never_public and not never_public & public
    # each revealing op names its card (the play, the territories turned up together) ...
    rows = {(op, obj): card for op, obj, card, _kind in named}
    for handle, n in revealed_at.items():
        assert rows.get((n, handle)) == records[n - 1].op.args["card"]
    # the card laid face down: its ops before the flip name no card, the ones after do
    laid = {r.op.args["id"] for r in records if r.op.kind == "move"
            and r.op.args.get("to") == "p2.assets" and r.op.args.get("face_up") is False}
    (flipped,) = [h for h in laid if h in revealed_at]
    history = con.execute("SELECT kind, card FROM ops WHERE object = ? ORDER BY op",
                          [flipped]).fetchall()
    card = records[revealed_at[flipped] - 1].op.args["card"]
    assert history == [("move", None), ("set", None), ("set", card), ("move", card)]
    # ... and the draws into hidden hands name none
    draws = con.execute("SELECT count(*) FROM ops WHERE kind = 'consume' AND card IS NOT NULL"
                        ).fetchone()
    assert draws == (0,)
