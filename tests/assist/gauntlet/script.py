"""A scripted legal game (Military General vs Diplomats Ambassador), with hooks to slip in
illegal moves at named points."""
from __future__ import annotations

from collections.abc import Callable

from assist.testing import AssistTable

from .gau_kit import AO1, AO2, CAPTURE, CLEANUP, DRAW, MOVE, cmd, discard, hidden, roll, table

Slip = Callable[[AssistTable], None]


def plain_turn(t: AssistTable, seat: int, to: int | None, slips: dict[str, Slip],
               label: str, play: bool = True, mark: bool = True) -> None:
    if mark:
        t.turn(seat)
    t.phase(CAPTURE, seat=seat)
    t.phase(DRAW, seat=seat)
    cmd(t, seat, "draw", **{"from": f"p{seat}.deck", "to": f"p{seat}.hand"})
    slips.get(f"{label}:draw", lambda t: None)(t)
    t.phase(AO1, seat=seat)
    slips.get(f"{label}:ao1", lambda t: None)(t)
    t.phase(MOVE, seat=seat)
    if to is not None:
        cmd(t, seat, "move", id=f"p{seat}.token", to=f"gauntlet.P{to}")
    slips.get(f"{label}:move", lambda t: None)(t)
    t.phase(AO2, seat=seat)
    if play:
        t.declare("action-card", seat=seat)
        discard(t, seat)
    slips.get(f"{label}:ao2", lambda t: None)(t)
    t.phase(CLEANUP, seat=seat)
    while t.replica.state.objs[f"p{seat}.hand"].children.__len__() > 3:
        discard(t, seat)
    slips.get(f"{label}:cleanup", lambda t: None)(t)


def fight(t: AssistTable, att: int, de: int, pos: int, winner: int, slips: dict[str, Slip],
          label: str) -> None:
    t.declare("battle-open", seat=att, attacker=att, defender=de, position=f"P{pos}")
    slips.get(f"{label}:open", lambda t: None)(t)
    hidden(t, att, "hand", "commit")
    hidden(t, de, "hand", "commit")
    cmd(t, att, "draw", **{"from": f"p{att}.deck", "to": f"p{att}.battle-hand", "count": 3})
    hidden(t, att, "battle-hand", "battle-choice")
    cmd(t, de, "draw", **{"from": f"p{de}.deck", "to": f"p{de}.battle-hand", "count": 3})
    hidden(t, de, "battle-hand", "battle-choice")
    for s in (att, de):
        for z in ("commit", "battle-choice"):
            cmd(t, s, "flip", card=f"p{s}.{z}:#0", face_up=True)
    slips.get(f"{label}:revealed", lambda t: None)(t)
    hi, lo = (5, 2) if winner == att else (2, 5)
    roll(t, att, hi)
    roll(t, de, lo)
    t.declare("battle-winner", seat=att, winner=winner, attacker_total=hi + 1,
              defender_total=lo + 1, attacker_die=hi, defender_die=lo)
    loser = de if winner == att else att
    home = -1 if loser == 1 else 1
    cmd(t, loser, "move", id=f"p{loser}.token", to=f"gauntlet.P{pos + home}")
    slips.get(f"{label}:result", lambda t: None)(t)
    for s in (att, de):
        discard(t, s, "commit", "graveyard")
        discard(t, s, "battle-choice", "discard")
        discard(t, s, "battle-hand", "discard")
        discard(t, s, "battle-hand", "discard")
    t.declare("battle-close", seat=att)
    slips.get(f"{label}:closed", lambda t: None)(t)


def battle_turn(t: AssistTable, att: int, pos: int, winner: int, s: dict[str, Slip],
                label: str) -> None:
    de = 2 if att == 1 else 1
    t.turn(att)
    for step in (CAPTURE, DRAW):
        t.phase(step, seat=att)
    cmd(t, att, "draw", **{"from": f"p{att}.deck", "to": f"p{att}.hand"})
    t.phase(AO1, seat=att)
    t.phase(MOVE, seat=att)
    cmd(t, att, "move", id=f"p{att}.token", to=f"gauntlet.P{pos}")
    fight(t, att, de, pos, winner, s, label)
    if winner == 1:
        cmd(t, 1, "counter", id="p1.command", add=1)
    s.get(f"{label}:won", lambda t: None)(t)
    t.phase(AO2, seat=att)
    s.get(f"{label}:ao2", lambda t: None)(t)
    t.phase(CLEANUP, seat=att)
    while len(t.replica.state.objs[f"p{att}.hand"].children) > 3:
        discard(t, att)


def game(slips: dict[str, Slip] | None = None, *, extra_objects: int = 0,
         plugin: object = None) -> AssistTable:
    """Nine turns, two battles; every op legal unless `slips` add some. `extra_objects` public
    cards are put in the supply first (to play on a bigger table)."""
    s = slips or {}
    t = table("military", "diplomats", "General", "Ambassador")
    if plugin is not None:
        from assist.runner import AssistRunner
        t.runner.detach()
        t.runner = AssistRunner.for_replica(t.replica, t.module, plugin,  # type: ignore[arg-type]
                                            seat=-1)
    for i in range(extra_objects):
        cmd(t, 1, "create", id=f"x{i}", kind="card", to="supply", card="scout")
    assert t.replica.state.turn["seat"] == 1, "the script expects seat 1 to start (seed 7)"
    plain_turn(t, 1, 1, s, "t1", mark=False)
    plain_turn(t, 2, 6, s, "t2")
    plain_turn(t, 1, 2, s, "t3")
    plain_turn(t, 2, 5, s, "t4")
    plain_turn(t, 1, 3, s, "t5")
    plain_turn(t, 2, 4, s, "t6")
    battle_turn(t, 1, 4, 1, s, "b1")   # seat 1 attacks P4 and wins; seat 2 back to P5
    battle_turn(t, 2, 4, 1, s, "b2")   # seat 2 counterattacks, loses (no Defender's Advantage
    #                                    for seat 1: P4 still faces seat 2, but it won outright)
    t.turn(1)
    t.phase(CAPTURE, seat=1)
    cmd(t, 1, "rotate", card="gauntlet.P4:#0", degrees=0)
    s.get("t9:capture", lambda t: None)(t)
    t.phase(DRAW, seat=1)
    cmd(t, 1, "draw", **{"from": "p1.deck", "to": "p1.hand"})
    t.phase(AO1, seat=1)
    s.get("t9:ao1", lambda t: None)(t)
    t.phase(MOVE, seat=1)
    t.phase(AO2, seat=1)
    t.phase(CLEANUP, seat=1)
    while len(t.replica.state.objs["p1.hand"].children) > 3:
        discard(t, 1)
    s.get("t9:cleanup", lambda t: None)(t)
    t.turn(2)
    return t
