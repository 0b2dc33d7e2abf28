"""Two players with no link of their own, both linked to a third (real sockets, 127.0.0.1): a
three-seat Mantle table set up, then seats 2 and 3 refuse each other (as two homes behind NATs
would never reach each other) while the host links both.

Through the host: seat 2's ops reach seat 3 live (the hash exchange is off here, so nothing
else could bring them), seat 2's rolls are joint with seat 3 (their round's messages sealed
end to end), a request on seat 3's hidden deck is performed by seat 3's peer, and no draw is
flagged. Then a player leaves in the middle of the host's round: the draw completes with the
others' shares and reads as degraded, "joint except seat 3, who left", in the log and the
audit.
"""
from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from netplay_testkit import FAST_MESH, LOOPBACK, run, wait_until

from netplay.draws.commit_reveal import FairStart
from netplay.replication.replication import ReplicationConfig
from netplay.session.lan_session import SessionOptions
from table import lan
from table.core import actions as act
from table.core import fair
from table.core.audit import audit_replica
from table.core.render import Renderer

pytestmark = pytest.mark.socket
SEATS = 3


def _options() -> SessionOptions:
    return SessionOptions(interfaces=[LOOPBACK], announce=False, passphrase="pw",
                          mesh=replace(FAST_MESH, offender_wait=600.0),
                          replication=ReplicationConfig(hash_interval=600.0))


async def _table(tmp_path: Path) -> list[lan.LanTable]:
    host = await lan.host(lan.module_for("mantle-of-the-keeper"), table_name="homes",
                          seats=SEATS, log_path=tmp_path / "p1.log", options=_options())
    where = f"{LOOPBACK}:{host.session.port}"
    tables = [host]
    for seat in range(2, SEATS + 1):
        tables.append(await lan.join(log_path=tmp_path / f"p{seat}.log", connect=where,
                                     options=_options()))
    for seat, t in enumerate(tables, start=1):
        await lan.take_seat(t, seat)
    assert await wait_until(lambda: all(lan.setup_complete(t.replica) for t in tables), 20)
    return tables


def _part(a: lan.LanTable, b: lan.LanTable) -> None:
    """``a`` and ``b`` refuse each other from now on, as if no path led from one to the other."""
    ma, mb = a.session.mesh, b.session.mesh
    for mesh, other in ((ma, mb.peer_id), (mb, ma.peer_id)):
        mesh.book.misbehaved(other, mesh.now(), 600.0)
        link = mesh.link(other)
        if link is not None:
            link.close("no path between these two")


def _draws(t: lan.LanTable, author: str) -> list[Any]:
    return [op for op in t.replica.store.all_ops() if op.kind == "roll" and op.author == author]


def test_two_players_without_a_link_play_through_a_common_peer(tmp_path: Path) -> None:
    async def scenario() -> None:
        tables = await _table(tmp_path)
        host, two, three = tables
        try:
            _part(two, three)
            ids = [t.session.peer_id for t in tables]
            hm = host.session.mesh  # it heard that they no longer link each other
            assert await wait_until(lambda: two.session.mesh.peers() == [ids[0]]
                                    and three.session.mesh.peers() == [ids[0]]
                                    and ids[2] in two.session.mesh.reachable()
                                    and not hm.linked_to(ids[1], ids[2])
                                    and not hm.linked_to(ids[2], ids[1]), 10)
            # an op of seat 2, live at seat 3 through the host
            op = act.counter(two.replica, "p2.favor", add=1, seat=2)
            assert await wait_until(lambda: three.replica.store.get(*op.ref) is not None, 10)
            # a roll of seat 2, joint with seat 3 through the host
            assert act.roll(two.replica, sides=6, seat=2) is None
            assert await wait_until(lambda: len(_draws(three, ids[1])) == 1, 10)
            [roll] = _draws(three, ids[1])
            assert set(roll.args["fair"]["commits"]) == set(ids)
            assert fair.left_out(roll.args["fair"]) == {}
            # a request on seat 3's hidden deck, performed by seat 3's peer through the host
            before = len(three.replica.state.cards_in("p3.deck"))
            ok, error = await two.session.request({"op": "draw", "from": "p3.deck",
                                                   "to": "table"}, 3)
            assert ok, error
            assert len(three.replica.state.cards_in("p3.deck")) == before - 1
            await asyncio.sleep(0.3)
            for t in tables:
                assert not t.replica.flags, t.replica.flags
            await _left_mid_round(tables)
        finally:
            for t in tables:
                await t.close()

    run(scenario(), 90)


async def _left_mid_round(tables: list[lan.LanTable]) -> None:
    """Seat 3's peer commits to the host's roll, then is gone before it reveals (its links
    dropped as a crash would): the host's draw goes on with seats 1 and 2."""
    host, _two, three = tables
    driver = three.session.fair
    real = driver.on_message

    def commit_then_go(peer: str, msg: Any) -> None:
        real(peer, msg)
        if isinstance(msg, FairStart):
            driver.rounds.rounds.clear()  # it will never reveal
            asyncio.get_running_loop().call_soon(
                lambda: asyncio.ensure_future(three.session.mesh.stop(graceful=False)))

    driver.on_message = commit_then_go  # type: ignore[method-assign]
    gone = three.session.peer_id
    assert act.roll(host.replica, sides=6, seat=1) is None
    assert await wait_until(lambda: len(_draws(host, host.session.peer_id)) == 1, 15)
    [roll] = _draws(host, host.session.peer_id)
    assert fair.left_out(roll.args["fair"]) == {gone: "left"}
    record = host.replica.timeline.record_of(roll.ref)
    assert record is not None
    assert Renderer(host.replica.state, host.replica.knowledge, 1).line(record).endswith(
        "(joint except seat 3, who left)")
    [degraded] = audit_replica(host.replica).degraded
    assert degraded.message == "joint except seat 3, who left" and degraded.seat == 1
