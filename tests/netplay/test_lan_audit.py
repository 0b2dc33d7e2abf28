"""`sandtable check --audit` on the logs of a LAN table (real sockets, 127.0.0.1 only).

Three players (Mantle of the Keeper) set up (each seat's deck shuffled jointly during its
setup), then each shuffle their hidden deck and roll a die: the seeds are drawn jointly through
their sessions, the end of the game publishes every peer's shares,
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
from netplay_testkit import FAST_MESH, LOOPBACK, run, wait_until

from netplay.draws.commit_reveal import Drawn
from netplay.draws.round_driver import FairDriver
from netplay.session.lan_session import SessionOptions
from table import lan
from table.app.cli import main
from table.core import actions as act
from table.core import fair
from table.core.audit import audit_replica, audit_summary
from table.core.replica import Replica
from table.report.session import read_session
from table.report.tables import session_rows

pytestmark = pytest.mark.socket
SEATS = 3
Cheat = Callable[[FairDriver], None]


def _options() -> SessionOptions:
    return SessionOptions(interfaces=[LOOPBACK], announce=False, passphrase="pw", mesh=FAST_MESH)


def _stacked_shuffle(driver: FairDriver) -> None:
    """This peer runs the joint round and records it, but orders its deck as it likes."""
    real = driver._issue  # noqa: SLF001 - a cheating peer: its round issues what it likes

    def issue(done: Drawn) -> None:
        if done.use != "shuffle":
            return real(done)
        honest = fair.permuted
        fair.permuted = lambda seed, items: sorted(items, reverse=True)  # type: ignore
        try:
            return real(done)
        finally:
            fair.permuted = honest  # type: ignore[assignment]

    driver._issue = issue  # type: ignore[method-assign]  # noqa: SLF001 - the cheat, as above


def _loaded_die(driver: FairDriver) -> None:
    """This peer runs the joint round and records it, but states a face the seed did not give."""
    real = driver._issue  # noqa: SLF001 - a cheating peer: its round issues what it likes

    def issue(done: Drawn) -> None:
        if done.use != "roll":
            return real(done)
        m = done.meta
        honest = fair.dice(done.draw.seed(), m["sides"], m["count"])
        loaded = [6 if v != 6 else 5 for v in honest]
        driver.issued.append(driver.replica.issue(
            "roll", {"sides": m["sides"], "values": loaded, "fair": done.draw.roll_record()},
            seat=m["seat"]))

    driver._issue = issue  # type: ignore[method-assign]  # noqa: SLF001 - the cheat, as above


def _joint(r: Replica, kind: str) -> list[Any]:
    return [op for op in r.store.all_ops() if op.kind == kind and op.args.get("fair")]


def _setup_shuffles(r: Replica) -> list[Any]:
    """The shuffles of the seats' decks before the setup was complete."""
    out = []
    for rec in r.records():
        if rec.op.kind == "mark" and rec.op.args.get("value") == "complete":
            break
        if rec.op.kind == "consume" and rec.op.args.get("why") == "shuffle":
            out.append(rec.op)
    return out


def _play(tmp_path: Path, cheat: Cheat | None = None,
          at_setup: bool = False) -> list[lan.LanTable]:
    """Seat 2's peer cheats if asked (at its setup's shuffle, or in play). Returns the tables,
    closed, their logs complete."""
    async def scenario() -> list[lan.LanTable]:
        host = await lan.host(lan.module_for("mantle-of-the-keeper"), table_name="audited",
                              seats=SEATS, log_path=tmp_path / "p1.log", options=_options())
        where = f"{LOOPBACK}:{host.session.port}"
        tables = [host]
        for seat in range(2, SEATS + 1):
            tables.append(await lan.join(log_path=tmp_path / f"p{seat}.log", connect=where,
                                         options=_options()))
        try:
            if cheat is not None and at_setup:
                cheat(tables[1].session.fair)
            for seat, t in enumerate(tables, start=1):
                await lan.take_seat(t, seat)
            assert await wait_until(lambda: all(
                lan.setup_complete(t.replica) and len(t.session.mesh.peers()) == SEATS - 1
                for t in tables), 20)
            # every seat's setup shuffle of its hidden deck was drawn jointly
            for t in tables:
                setup = _setup_shuffles(t.replica)
                assert sorted(op.args["to"] for op in setup) == [
                    f"p{seat}.deck" for seat in range(1, SEATS + 1)]
                assert all(op.args.get("fair") for op in setup), setup
            if cheat is not None:
                if at_setup:
                    del tables[1].session.fair._issue  # noqa: SLF001 - honest again in play
                else:
                    cheat(tables[1].session.fair)
            for seat, t in enumerate(tables, start=1):
                assert act.shuffle(t.replica, f"p{seat}.deck", seat=seat) is None  # joint
                assert act.roll(t.replica, sides=6, seat=seat) is None
            assert await wait_until(lambda: all(
                len(_joint(t.replica, "consume")) == 2 * SEATS and len(_joint(t.replica, "roll"))
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
        # the setup's shuffles too: nothing local, not even during the setup
        assert f"audit: {SEATS} rolls, {2 * SEATS} shuffles verified; 0 local" in out, out
        assert "during the setup" not in out and "FAILED" not in out
        assert audit_summary(log) == "audited"
        [row] = session_rows([read_session(log)])  # the report's mark
        assert row["randomness"] == "audited"


@pytest.mark.parametrize(("cheat", "kind", "what", "at_setup"), [
    (_stacked_shuffle, "consume", "the joint seed puts", False),
    (_loaded_die, "roll", "are not the faces", False),
    (_stacked_shuffle, "consume", "the joint seed puts", True),  # its starting deck stacked
])
def test_a_lan_peer_that_ignores_the_joint_seed_is_caught_with_the_op_named(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], cheat: Cheat, kind: str,
        what: str, at_setup: bool) -> None:
    tables = _play(tmp_path, cheat, at_setup)
    cheater = tables[1].replica.peer_id
    ops = [op for op in _joint(tables[0].replica, kind) if op.author == cheater]
    setup = {op.ref for op in _setup_shuffles(tables[0].replica)}
    [op] = [op for op in ops if (op.ref in setup) == at_setup]
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
