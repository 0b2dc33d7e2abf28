"""`sandtable check --audit` on the logs of a LAN table (real sockets, 127.0.0.1 only).

Three players (Mantle of the Keeper) each shuffle their hidden deck and roll a die: the seeds
are drawn jointly through their sessions, the end of the game publishes every peer's shares,
salts and deck orders. An honest table's logs audit clean on every peer. A peer whose
software ignores the joint seed (a test double around its session's fair driver) is caught
in every other peer's log with the op named: a stacked shuffle, or a loaded die (which every
peer also voids as it arrives).
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from netplay.fair import Drawn
from netplay.fair_driver import FairDriver
from netplay.session import SessionOptions
from table import lan
from table.app.cli import main
from table.core import actions as act
from table.core import fair
from table.core.audit import audit_replica, audit_summary
from table.core.replica import Replica

from netplay_testkit import FAST_MESH, LOOPBACK, run, wait_until

pytestmark = pytest.mark.socket
SEATS = 3
Cheat = Callable[[FairDriver], None]


def _options() -> SessionOptions:
    return SessionOptions(interfaces=[LOOPBACK], announce=False, passphrase="pw", mesh=FAST_MESH)


def _stacked_shuffle(driver: FairDriver) -> None:
    """This peer runs the joint round and records it, but orders its deck as it likes."""
    real = driver._issue

    def issue(done: Drawn) -> None:
        if done.use != "shuffle":
            return real(done)
        honest = fair.permuted
        fair.permuted = lambda seed, items: sorted(items, reverse=True)  # type: ignore
        try:
            return real(done)
        finally:
            fair.permuted = honest  # type: ignore[assignment]

    driver._issue = issue  # type: ignore[method-assign]


def _loaded_die(driver: FairDriver) -> None:
    """This peer runs the joint round and records it, but states a face the seed did not give."""
    real = driver._issue

    def issue(done: Drawn) -> None:
        if done.use != "roll":
            return real(done)
        m = done.meta
        honest = fair.dice(done.draw.seed(), m["sides"], m["count"])
        loaded = [6 if v != 6 else 5 for v in honest]
        driver.issued.append(driver.replica.issue(
            "roll", {"sides": m["sides"], "values": loaded, "fair": done.draw.roll_record()},
            seat=m["seat"]))

    driver._issue = issue  # type: ignore[method-assign]


def _joint(r: Replica, kind: str) -> list[Any]:
    return [op for op in r.store.all_ops() if op.kind == kind and op.args.get("fair")]


def _play(tmp_path: Path, cheat: Cheat | None = None) -> list[lan.LanTable]:
    """Seat 2's peer cheats if asked. Returns the tables, closed, their logs complete."""
    async def scenario() -> list[lan.LanTable]:
        host = await lan.host(lan.module_for("mantle-of-the-keeper"), table_name="audited",
                              seats=SEATS, log_path=tmp_path / "p1.log", options=_options())
        where = f"{LOOPBACK}:{host.session.port}"
        tables = [host]
        for seat in range(2, SEATS + 1):
            tables.append(await lan.join(log_path=tmp_path / f"p{seat}.log", connect=where,
                                         options=_options()))
        try:
            for seat, t in enumerate(tables, start=1):
                await lan.take_seat(t, seat)
            assert await wait_until(lambda: all(
                lan.setup_complete(t.replica) and len(t.session.mesh.peers()) == SEATS - 1
                for t in tables), 20)
            if cheat is not None:
                cheat(tables[1].session.fair)
            for seat, t in enumerate(tables, start=1):
                assert act.shuffle(t.replica, f"p{seat}.deck", seat=seat) is None  # joint
                assert act.roll(t.replica, sides=6, seat=seat) is None
            assert await wait_until(lambda: all(
                len(_joint(t.replica, "consume")) == SEATS and len(_joint(t.replica, "roll"))
                == SEATS for t in tables), 20)
            act.end_game(host.replica, [1], "victory", seat=1)  # every peer publishes
            assert await wait_until(lambda: all(
                not audit_replica(t.replica).unverifiable for t in tables), 20)
        finally:
            for t in tables:
                await t.close()
        return tables

    return run(scenario(), 90)


def test_an_honest_lan_table_audits_clean_on_every_peer(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _play(tmp_path)
    for seat in range(1, SEATS + 1):
        log = tmp_path / f"p{seat}.log"
        assert main(["check", "--audit", str(log)]) == 0
        out = capsys.readouterr().out
        assert f"audit: {SEATS} rolls, {SEATS} shuffles verified" in out, out
        assert "FAILED" not in out
        assert audit_summary(log) in ("audited", "play audited")


@pytest.mark.parametrize("cheat, kind, what", [
    (_stacked_shuffle, "consume", "the joint seed puts"),
    (_loaded_die, "roll", "are not the faces"),
])
def test_a_lan_peer_that_ignores_the_joint_seed_is_caught_with_the_op_named(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], cheat: Cheat, kind: str,
        what: str) -> None:
    tables = _play(tmp_path, cheat)
    cheater = tables[1].replica.peer_id
    [op] = [op for op in _joint(tables[0].replica, kind) if op.author == cheater]
    for seat in (1, 3):  # the honest peers' own logs
        log = tmp_path / f"p{seat}.log"
        assert main(["check", "--audit", str(log)]) == 1
        failures = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("FAILED")]
        records = Replica.from_log(log).records()
        number = next(i for i, rec in enumerate(records, start=1) if rec.op.ref == op.ref)
        assert len(failures) == 1, failures
        assert failures[0].startswith(f"FAILED op {number} (author {cheater}, seat 2): ")
        assert what in failures[0]
        assert audit_summary(log) == "failed"
