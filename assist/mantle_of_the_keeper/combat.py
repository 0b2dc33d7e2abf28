"""Attacks and defenses as they are declared, Ability uses and cubes; what each window did once
it closes (damage, Favor, exchanges) is resolution's."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .board import ability_slot, chosen_card, seat_of_id
from .common import Out, card_named, param, piece, seat_name
from .facts import ACTION, Facts, declared, fields
from .geometry import adjacent, chebyshev, line_of_sight

if TYPE_CHECKING:
    from assist.api import OpContext
    from table.core.timeline import Record


def object_ref(ref: Any) -> str | None:
    if isinstance(ref, int) and not isinstance(ref, bool):
        return f"p{ref}.standee"
    return ref if isinstance(ref, str) and ref else None


def attacker_of(f: Facts, rec: Record) -> str | None:
    return object_ref(fields(rec).get("attacker")) or object_ref(f.seat_of(rec))


# -- declarations, checked when made ---------------------------------------------------------------
def on_attack(ctx: OpContext, f: Facts, out: Out) -> None:
    if not f.in_play:
        return
    rec = ctx.record
    seat = f.seat_of(rec)
    attacker = attacker_of(f, rec)
    target = object_ref(fields(rec).get("target"))
    if seat != f.active or f.phase not in (ACTION, None):
        out.add("MAN-OFFENSIVE-OWN-TURN", f"{seat_name(ctx, seat)} attacked "
                f"{_when(f, seat)}: "
                f"attacks are made on your own turn, in the Action Phase.")
    board = f.board()
    if board is None or attacker is None or target is None:
        return
    a_cell = board.standees.get(seat_of_id(attacker) or -1) if attacker.endswith(".standee") \
        else board.turrets.get(attacker)
    target_seat = seat_of_id(target) if target.endswith(".standee") else None
    if target.endswith(".standee"):
        t_cell = board.standees.get(target_seat or -1)
    elif target in board.turrets:
        t_cell = board.turrets[target]
    else:
        t_cell = board.hazards.get(target)
    if a_cell is None or t_cell is None:
        out.add("MAN-ATTACK-NEARBY", f"The attack from {piece(ctx, attacker)} on "
                f"{piece(ctx, target)}: both must be on the "
                f"arena to Target a Nearby opponent.", [attacker, target])
        return
    owner = seat_of_id(attacker)
    if target_seat is not None and (target_seat == owner or
                                    (ctx.view.counter(f"p{target_seat}.health") or 0) <= 0):
        out.add("MAN-ATTACK-NEARBY", f"{seat_name(ctx, target_seat)} is not an opponent you can "
                f"Target (yourself, or eliminated).", [target])
        return
    if a_cell in board.obstacles and attacker.endswith(".standee"):
        out.add("MAN-NO-ATTACK-FROM-OBSTRUCTION", f"{seat_name(ctx, owner)} attacked from an "
                f"Obstruction or Breach space {a_cell}: you cannot attack while in one.",
                [attacker])
    if attacker.endswith(".standee"):
        card = chosen_card(ctx.view, ctx.game, owner) if owner is not None else None
        reach = card.number("range") if card is not None else None
    else:
        reach = param(ctx.game, "turret_range", 3)
    _nearby(ctx, out, board, attacker, target, a_cell, t_cell, reach)


def _nearby(ctx: OpContext, out: Out, board: Any, attacker: str, target: str,
            a_cell: tuple[int, int], t_cell: tuple[int, int], reach: int | None) -> bool:
    blockers = board.blockers()
    blocked = line_of_sight(a_cell, t_cell, blockers)
    if blocked is not None:
        what = (f"the diagonal pair at {blocked[0]} and {blocked[1]}"
                if isinstance(blocked[0], tuple) else f"{blocked}")
        out.add("MAN-LOS-BLOCKERS", f"No Line of Sight from {piece(ctx, attacker)} at {a_cell} "
                f"to {piece(ctx, target)} at "
                f"{t_cell}: blocked by {what} (Obstructions, Breaches, characters and turrets "
                f"block; so do two diagonally adjacent blockers).", [attacker, target])
        return False
    if reach is not None and chebyshev(a_cell, t_cell) > reach:
        rifts = board.cells_of("rift")
        if a_cell in rifts and any(r != a_cell and (r == t_cell or adjacent(r, t_cell))
                                   for r in rifts):
            out.add("MAN-RIFT-ATTACK", f"{piece(ctx, target)} is reached only through a Rift: "
                    f"Rifts may not "
                    f"be attacked through to hit an opponent on or next to another Rift.",
                    [attacker, target])
        else:
            out.add("MAN-RANGE", f"{piece(ctx, target)} is {chebyshev(a_cell, t_cell)} spaces "
                    f"from {piece(ctx, attacker)}; "
                    f"the Range is {reach}.", [attacker, target])
        return False
    return True


def open_attack(f: Facts) -> Record | None:
    """The attack declaration whose window is open now (within the turn)."""
    j = f.previous_opener()
    if j is None:
        return None
    rec = f.h.records[j]
    return rec if declared(rec) in ("attack", "turret-activate") else None


def on_defense(ctx: OpContext, f: Facts, out: Out) -> None:
    if not f.in_play:
        return
    seat = f.seat_of(ctx.record)
    attack = open_attack(f)
    target = object_ref(fields(attack).get("target")) if attack is not None else None
    if target is not None and ".turret" in target:
        out.add("MAN-TURRET-DESTROY", "An Arcane Turret cannot defend.", [target])
        return
    if attack is None or (declared(attack) == "attack" and target != f"p{seat}.standee"):
        out.add("MAN-DEFENSE-ONLY-TARGET", f"{seat_name(ctx, seat)} defended, but is not the "
                f"Target of the current attack: only the Targeted player defends.")
        return
    a = fields(attack)
    if a.get("deal") is True or str(getattr(card_named(ctx.game, a.get("card")), "text", "")
                                     ).startswith("Deal "):
        out.add("MAN-DEAL-UNDEFENDABLE", "Dealt damage cannot be defended: it is calculated "
                "immediately.")
    card = card_named(ctx.game, fields(ctx.record).get("card"))
    if card is not None and not card.number("defense") and card.type != "Modifier":
        out.add("MAN-DEFENSE-VALUE", f"{card.name} has no defense value: a card must have one to "
                f"defend.")


def on_ability_use(ctx: OpContext, f: Facts, out: Out) -> None:
    seat = f.seat_of(ctx.record)
    if seat is None:
        return
    slot = ability_slot(chosen_card(ctx.view, ctx.game, seat), fields(ctx.record).get("ability"))
    if slot is not None and not ctx.view.child_ids(f"p{seat}.mat.ability-{slot[0]}"):
        out.add("MAN-ABILITY-LOCKED", f"{slot[1]} is still locked (no cube on it): unlock it "
                f"before using it.", [f"p{seat}.mat.ability-{slot[0]}"])


def on_cube(ctx: OpContext, f: Facts, out: Out, dest: str) -> None:
    """A cube put on a Favor Ability: it must be an unlock (declared in this window)."""
    if not f.in_play:
        return
    j = f.previous_opener()
    if j is not None and declared(f.h.records[j]) == "ability-unlock":
        return
    out.add("MAN-ABILITY-UNLOCK", f"A tracking cube went onto {dest} without an unlock: declare "
            f"the unlock and pay its Favor.", [dest])


def _when(f: Any, seat: Any) -> str:
    """When a seat acted, for a flag's message."""
    return "on another player's turn" if seat != f.active else f"in the {f.phase} phase"
