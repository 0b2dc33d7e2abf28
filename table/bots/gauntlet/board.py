"""Gauntlet as a bot reads it: positions P0..P7, who controls each Territory, the battle in
progress (from this turn's declarations) and the totals a battle's revealed cards give."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from table.bots.api import SeatView
from table.bots.effects import Effect, total

BOARD = "gauntlet"


def other(seat: int) -> int:
    return 2 if seat == 1 else 1


def forward(seat: int) -> int:
    """The direction a seat advances in (seat 1 from P0 toward P7)."""
    return 1 if seat == 1 else -1


def slot(n: int) -> str:
    return f"{BOARD}.P{n}"


def position(view: SeatView, seat: int) -> int | None:
    container, _ = view.place(f"p{seat}.token")
    if container is None or not container.startswith(f"{BOARD}.P"):
        return None
    return int(container.rsplit("P", 1)[1])


def positions(view: SeatView) -> int:
    return int(view.rule("positions", 8))


def start(seat: int, n: int) -> int:
    """A seat's off-column position (its start, and where its Last Stand is fought)."""
    return 0 if seat == 1 else n - 1


def final(seat: int, n: int) -> int:
    """A seat's final Territory (the one at its end of the Gauntlet)."""
    return 1 if seat == 1 else n - 2


def is_territory(pos: int, n: int) -> bool:
    return 0 < pos < n - 1


def territory(view: SeatView, pos: int) -> str | None:
    ids = view.ids(slot(pos))
    return ids[0] if ids else None


def controller(view: SeatView, pos: int) -> int | None:
    card = territory(view, pos)
    if card is None:
        return None
    facing = view.rule("facing", [0, 180])
    rot = view.rotation(card)
    for seat, deg in enumerate(facing, start=1):
        if rot == int(deg) % 360:
            return seat
    return None


def territory_id(view: SeatView, pos: int) -> str | None:
    card = territory(view, pos)
    return view.card_id(card) if card is not None else None


def leader(view: SeatView, seat: int) -> str | None:
    """A seat's Leader (card id), public from setup on."""
    for _, card in view.known(f"p{seat}.leader"):
        return card.id
    return None


def faction(view: SeatView, seat: int) -> str | None:
    for _, card in view.known(f"p{seat}.leader"):
        return card.group
    return None


@dataclass(slots=True)
class Battle:
    """The battle open in this turn: who fights where, and which of each side's steps are done
    (`battle-step` declarations by the seat whose part is done)."""

    attacker: int
    defender: int
    pos: int
    last_stand: bool
    open_index: int
    done: set[tuple[int, int]] = field(default_factory=set)
    rolls: dict[int, list[list[int]]] = field(default_factory=dict)
    winner: int | None = None

    def rolled(self, seat: int) -> int:
        return len(self.rolls.get(seat, []))


def open_battle(view: SeatView) -> Battle | None:
    """The battle of this turn not yet closed, if any."""
    battle: Battle | None = None
    for e in view.turn_log():
        name = e.declared()
        if name == "battle-open":
            f = e.fields
            pos = str(f.get("position", "P0"))
            battle = Battle(int(f.get("attacker", 0)), int(f.get("defender", 0)),
                            int(pos.lstrip("P") or 0), bool(f.get("last_stand")), e.index)
        elif battle is None:
            continue
        elif name == "battle-close":
            battle = None
        elif name == "battle-step" and e.seat is not None:
            battle.done.add((e.seat, int(e.fields.get("step", 0))))
        elif name == "battle-winner":
            w = e.fields.get("winner")
            battle.winner = w if isinstance(w, int) else None
        elif e.kind == "roll" and isinstance(e.args.get("id"), str):
            seat = int(str(e.args["id"]).split(".")[0].lstrip("p") or 0)
            battle.rolls.setdefault(seat, []).append(list(e.args.get("values") or []))
    return battle


def battle_facts(view: SeatView, b: Battle, seat: int) -> set[str]:
    """The conditions a card's battle effect may name, for `seat` in battle `b`."""
    facts = {"attacker" if seat == b.attacker else "defender"}
    if seat == b.attacker:
        facts.add("initiated")
    if controller(view, b.pos) == seat:
        facts.add("controlled")
    foe = other(seat)
    if any(card.flag("arcane") for zone in ("commit", "battle-choice")
           for _, card in view.known(f"p{foe}.{zone}")):
        facts.add("arcane")  # the opponent used an Arcane card (once revealed)
    return facts


@dataclass(frozen=True, slots=True)
class Side:
    bonus: int
    advantage: int  # net: negative is disadvantage


def side(view: SeatView, b: Battle, seat: int, used: list[str],
         effects: Mapping[str, list[Effect]]) -> Side:
    """The bonus and net advantage of one side: its used cards' battle effects, the contested
    Territory's, its Assets', the Last Stand's +1."""
    facts = battle_facts(view, b, seat)
    bonus, adv = 0, 0
    for card_id in used:
        bonus += total(effects.get(card_id, ()), "battle", "bonus", facts)
        adv += total(effects.get(card_id, ()), "battle", "advantage", facts)
    terr = territory_id(view, b.pos) if is_territory(b.pos, positions(view)) else None
    if terr is not None:
        bonus += total(effects.get(terr, ()), "battle", "bonus", facts)
        adv += total(effects.get(terr, ()), "battle", "advantage", facts)
    if controller(view, b.pos) not in (seat, None):
        facts.add("enemy")
    for _, card in view.known(f"p{seat}.assets"):
        bonus += total(effects.get(card.id, ()), "battle", "bonus", facts)
    if b.last_stand and seat == b.defender:
        bonus += int(view.rule("last_stand_bonus", 1))
    return Side(bonus, adv)


__all__ = [
    "Battle",
    "Side",
    "battle_facts",
    "controller",
    "faction",
    "final",
    "forward",
    "is_territory",
    "leader",
    "open_battle",
    "other",
    "position",
    "positions",
    "side",
    "slot",
    "start",
    "territory",
    "territory_id",
]
