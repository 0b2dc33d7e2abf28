"""The host's shared setup steps at a LAN table, with the first-player roll drawn jointly.

A roll for the first player (Gauntlet's: each seat rolls, highest starts, ties reroll) is a
roll like any other: with another player linked it is drawn jointly (``netplay.draws.joint_draws``),
so an honest LAN session's randomness is audited from the setup on, and no peer sees private
dice. Alone (every seat this peer's) the roll is local, as in hot-seat.
"""
from __future__ import annotations

from table.core import actions as act
from table.core.ops import Op
from table.games.steps import FirstPlayer, SetupStep
from table.lan.seat_setup import JOINT_SETUP_BOUND
from table.lan.setup import host_shared_steps, run_shared_step
from table.lan.table import LanTable, until_changed

WHY = "first player"


async def host_finish_jointly(t: LanTable) -> None:
    assert t.module is not None
    r = t.replica
    for step in host_shared_steps(r, t.module, t.seats):
        if _rolled(step) and len(t.session.draws.players()) >= 2:
            assert isinstance(step, FirstPlayer)
            await _first_player(t, step)
        else:
            run_shared_step(r, step)
    act.mark(r, "setup", value="complete")


def _rolled(step: SetupStep) -> bool:
    return isinstance(step, FirstPlayer) and step.method == "roll" and not step.assigns_seats


async def _first_player(t: LanTable, step: FirstPlayer) -> None:
    contenders = sorted(t.replica.state.seats)
    if not contenders:
        act.mark(t.replica, "turn", for_seat=1)
        return
    while True:
        results: dict[int, int] = {}
        for seat in contenders:
            die = step.dice[(seat - 1) % len(step.dice)] if step.dice else None
            results[seat] = sum((await _roll(t, die, seat)).args["values"])
        best = max(results.values()) if step.highest_wins else min(results.values())
        contenders = [s for s, v in results.items() if v == best]
        if len(contenders) == 1 or not step.reroll_ties:
            break
    act.mark(t.replica, "turn", for_seat=contenders[0])


async def _roll(t: LanTable, die: str | None, seat: int) -> Op:
    """One seat's first-player roll, jointly; locally only if the round cannot be had."""
    r = t.replica

    def mine() -> list[Op]:
        return [rec.op for rec in r.records() if rec.op.kind == "roll" and rec.void is None
                and rec.op.author == r.peer_id and rec.op.args.get("why") == WHY]

    before = len(mine())
    obj = r.state.live(die) if die else None
    sides = int(obj.props.get("sides", 6)) if obj is not None else 6
    if t.session.draws.roll(sides=sides, count=1, die_id=die, why=WHY, seat=seat) and \
            await until_changed(r, lambda: len(mine()) > before, kinds=("roll",),
                                timeout=JOINT_SETUP_BOUND):
        return mine()[-1]
    op = act.roll(r, die_id=die, sides=sides, why=WHY, seat=seat, now=True)
    assert op is not None
    return op
