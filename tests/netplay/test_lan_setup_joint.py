"""A LAN seat's setup shuffles its hidden deck with a jointly drawn seed (real sockets,
127.0.0.1 only): the seat waits for another player, a peer restarted mid-setup takes its seat
up where it stopped, and a round that cannot complete falls back to a local shuffle, said so
(and flagged as private dice by the linked player, whose audit then fails on it).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from netplay_testkit import FAST_MESH, LOOPBACK, run, wait_until

from netplay.draws.commit_reveal import Drawn
from netplay.session.lan_session import SessionOptions
from table import lan
from table.core.audit import audit_replica
from table.core.replica import Replica
from table.lan import seat_setup
from table.lan.rejoin import resume
from table.lan.setup import ready_seats

pytestmark = pytest.mark.socket
GAME = "mantle-of-the-keeper"


def _options() -> SessionOptions:
    return SessionOptions(interfaces=[LOOPBACK], announce=False, passphrase="pw", mesh=FAST_MESH)


def _shuffles(r: Replica, pile: str) -> list[Any]:
    return [rec.op for rec in r.records() if rec.void is None and rec.op.kind == "consume"
            and rec.op.args.get("why") == "shuffle" and rec.op.args.get("to") == pile]


def _cards_of(r: Replica, seat: int) -> int:
    return sum(1 for o in r.state.objs.values() if o.alive and o.kind == "card" and o.owner == seat)


def test_a_seat_waits_for_another_player_and_a_restart_takes_its_setup_up(
        tmp_path: Path) -> None:
    async def scenario() -> None:
        host = await lan.host(lan.module_for(GAME), table_name="joint setup", seats=2,
                              log_path=tmp_path / "host.log", options=_options())
        await lan.take_seat(host, 1)  # alone: the deck is made, its shuffle waits
        assert _cards_of(host.replica, 1) > 0 and not _shuffles(host.replica, "p1.deck")
        assert 1 not in ready_seats(host.replica) and 1 in host.setting_up
        made = _cards_of(host.replica, 1)
        await host.close(graceful=False)  # the host's program stops mid-setup

        again = await resume(tmp_path / "host.log", _options(), host_role=True)
        guest = await lan.join(log_path=tmp_path / "guest.log",
                               connect=f"{LOOPBACK}:{again.session.port}", options=_options())
        try:
            await lan.take_seat(guest, 2)
            assert await wait_until(lambda: all(lan.setup_complete(t.replica)
                                                for t in (again, guest)), 20)
            for t in (again, guest):
                for seat in (1, 2):  # one shuffle per deck, drawn jointly
                    [op] = _shuffles(t.replica, f"p{seat}.deck")
                    assert op.args.get("fair"), op
            assert _cards_of(again.replica, 1) == made  # nothing made twice
            assert not again.setting_up and not guest.setting_up
        finally:
            for t in (again, guest):
                await t.close()

    run(scenario(), 60)


def test_a_round_that_cannot_complete_falls_back_to_a_local_shuffle(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(seat_setup, "JOINT_SETUP_BOUND", 1.0)

    async def scenario() -> None:
        host = await lan.host(lan.module_for(GAME), table_name="lost round", seats=2,
                              log_path=tmp_path / "host.log", options=_options())
        guest = await lan.join(log_path=tmp_path / "guest.log",
                               connect=f"{LOOPBACK}:{host.session.port}", options=_options())
        real = host.session.fair._issue  # noqa: SLF001 - a fault: rounds that yield no op

        def lost(done: Drawn) -> None:  # this peer's joint shuffles never yield an op
            if done.use != "shuffle":
                real(done)

        host.session.fair._issue = lost  # type: ignore[method-assign]  # noqa: SLF001 - as above
        try:
            await lan.take_seat(host, 1)
            await lan.take_seat(guest, 2)
            assert await wait_until(lambda: all(lan.setup_complete(t.replica)
                                                for t in (host, guest)), 20)
            [local] = _shuffles(host.replica, "p1.deck")
            [joint] = _shuffles(host.replica, "p2.deck")
            assert local.args.get("fair") is None and joint.args.get("fair")
            assert any("p1.deck" in m and "shuffled locally" in m for m in host.replica.reports)
            # drawn alone while the guest was linked: the guest's peer flags it, its audit
            # fails on it (private dice, table.core.private_draws), naming the seat
            [failure] = audit_replica(guest.replica).failures
            assert failure.seat == 1 and "shuffled p1.deck alone" in failure.message
        finally:
            for t in (host, guest):
                await t.close()

    run(scenario(), 60)
