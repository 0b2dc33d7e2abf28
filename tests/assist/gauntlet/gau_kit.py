"""Helpers for the Gauntlet assist tests: seeded tables with chosen factions and Leaders."""
from __future__ import annotations

from typing import Any

from assist.gauntlet import plugin
from assist.testing import AssistTable
from table.games import find_module, load_deck

MODULE = find_module("gauntlet")
STEPS = list(MODULE.rules["phases"])
CAPTURE, DRAW, AO1, MOVE, AO2, CLEANUP = STEPS


def deck(faction: str, leader: str | None = None, extra: str = "") -> Any:
    text = (MODULE.path / "decks" / f"{faction}.txt").read_text(encoding="utf-8")
    if leader is not None:
        lines = [f"leader: {leader}" if ln.startswith("leader:") else ln
                 for ln in text.splitlines()]
        text = "\n".join(lines)
    return load_deck(MODULE, text + "\n" + extra)


def table(f1: str = "military", f2: str = "diplomats", l1: str | None = None,
          l2: str | None = None, seed: int = 7) -> AssistTable:
    return AssistTable("gauntlet", plugin=plugin, seed=seed,
                       decks={1: deck(f1, l1), 2: deck(f2, l2)}, module=MODULE)


def other(seat: int) -> int:
    return 2 if seat == 1 else 1


def begin(t: AssistTable, seat: int, step: str | None = CAPTURE) -> None:
    """Start a turn for `seat` (passing through the other seat if needed), up to `step`."""
    if t.replica.state.turn.get("seat") == seat:
        t.turn(other(seat))
    t.turn(seat)
    if step is None:
        return
    for name in STEPS[:STEPS.index(step) + 1]:
        t.phase(name, seat=seat)


def tok(t: AssistTable, seat: int, pos: int) -> None:
    t.do({"seat": seat, "op": "move", "id": f"p{seat}.token", "to": f"gauntlet.P{pos}"})


def face(t: AssistTable, pos: int, seat: int) -> None:
    """Turn the Territory at `pos` to face `seat`."""
    t.do({"seat": seat, "op": "rotate", "card": f"gauntlet.P{pos}:#0",
          "degrees": 0 if seat == 1 else 180})


def cmd(t: AssistTable, seat: int, op: str, **kw: Any) -> None:
    t.do({"seat": seat, "op": op, **kw})


def discard(t: AssistTable, seat: int, frm: str = "hand", to: str = "discard",
            index: int = 0) -> None:
    t.do({"seat": seat, "op": "move", "card": f"p{seat}.{frm}:#{index}",
          "to": f"p{seat}.{to}", "face_up": True})


def hidden(t: AssistTable, seat: int, frm: str, to: str, index: int = 0) -> None:
    t.do({"seat": seat, "op": "move", "card": f"p{seat}.{frm}:#{index}", "to": f"p{seat}.{to}"})


def battle(t: AssistTable, attacker: int, pos: int, **kw: Any) -> None:
    t.declare("battle-open", seat=attacker, attacker=attacker, defender=other(attacker),
              position=f"P{pos}", **kw)


def roll(t: AssistTable, seat: int, *values: int) -> None:
    t.do({"seat": seat, "op": "roll", "id": f"p{seat}.die", "values": list(values)})


ORDER_COSTS = {"Onward": 1, "Rally": 1, "Rout": 2, "Entrench": 1, "Repel": 1, "Fortify": 2}


def stock(t: AssistTable, seat: int, command: int = 2) -> None:
    """Set `seat`'s Command (test setup: take the checkpoint after it)."""
    t.do({"seat": seat, "op": "counter", "id": f"p{seat}.command", "value": command})


def order(t: AssistTable, seat: int, name: str, paid: int | None = None) -> None:
    """Pay `paid` Command (the Order's cost unless told), then use the Order."""
    amount = ORDER_COSTS[name] if paid is None else paid
    if amount:
        t.do({"seat": seat, "op": "counter", "id": f"p{seat}.command", "add": -amount})
    t.declare("order", seat=seat, order=name)


def settle(t: AssistTable, seat: int = 1) -> None:
    """An op that changes nothing the assist judges, so a payment run before it is over."""
    t.do({"seat": seat, "op": "rotate", "id": f"p{seat}.token", "degrees": 0})
