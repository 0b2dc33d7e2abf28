"""Shared pieces of the checks: flag output, seat facts and the walk over a turn's actions."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from assist import wording
from assist.api import CARD_EFFECT, Flag

from .facts import ACTION, END, INCOME, Facts, declared, fields, moved, norm_phase
from .rules import RULES

if TYPE_CHECKING:
    from assist.api import GameInfo, OpContext
    from table.core.timeline import Record
    from table.games.model import Card


class Out(list[Flag]):
    """The flags of one check. `at`: the index of the op the flags added now judge, when a
    window that closes lays its verdicts at an earlier op (its attack, its phase marker)."""

    def __init__(self, ctx: OpContext) -> None:
        super().__init__()
        self.ctx = ctx
        self.at: int | None = None

    def add(self, rule: str, message: str, objects: Sequence[str] = (),
            ops: Sequence[tuple[str, int]] = (), excused: bool | None = None) -> None:
        """A flag; a message that names no player (or not a card it is about) starts with
        what the op did (assist.wording)."""
        if not ops and self.at is not None and self.at != self.ctx.index:
            ops = (self.ctx.ref_at(self.at),)
        if not ops:
            message = wording.worded(self.ctx, message, objects, lambda o: piece_name(self.ctx, o))
        self.append(RULES.flag(rule, message, objects=objects, ops=ops,
                               excused=self.ctx.excused if excused is None else excused))

    def laid_at(self, index: int | None) -> int | None:
        """Lay what is added next at the op `index` (None: the op checked); returns the
        previous setting, to put back."""
        previous, self.at = self.at, index
        return previous


def param(game: GameInfo, name: str, default: int) -> int:
    value = game.param(name, default)
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) \
        else default


def piece_name(ctx: OpContext, obj_id: str | None) -> str:
    """What a piece is called in a message: a card's name, "Chosen", "Arcane Turret"."""
    if not obj_id:
        return "a piece"
    if obj_id.endswith(".standee"):
        return "Chosen"
    if ".turret" in obj_id:
        return "Arcane Turret"
    card = card_of_obj(ctx, obj_id)
    return card.name if card is not None else str(ctx.view.prop(obj_id, "name", obj_id))


def piece(ctx: OpContext, obj_id: str | None) -> str:
    """A piece with its player: "Shem's player's Chosen", "Khaya's player's Arcane Turret"."""
    return wording.whose(ctx, obj_id, lambda o: piece_name(ctx, o)) if obj_id else "a piece"


def seat_name(ctx: OpContext, seat: int | None) -> str:
    if seat is None:
        return "someone"
    return ctx.view.seats.get(seat) or f"Seat {seat}"


def card_named(game: GameInfo, ref: Any) -> Card | None:
    """A card definition from a declaration field: a card id or an unambiguous name."""
    if not isinstance(ref, str) or not ref:
        return None
    card = game.card(ref)
    if card is not None:
        return card
    try:
        return game.module.card(ref)
    except KeyError:
        return None


def card_of_obj(ctx: OpContext, obj_id: str, rec_args: dict[str, Any] | None = None) -> Card | None:
    ident = (rec_args or {}).get("card") or ctx.view.card_of(obj_id)
    return ctx.game.card(ident) if ident else None


def is_modifier(card: Card | None) -> bool:
    return card is not None and card.type == "Modifier"


def living_seats(ctx: OpContext) -> list[int]:
    out = []
    for seat in sorted(ctx.view.seats):
        health = ctx.view.counter(f"p{seat}.health")
        if health is None or health > 0:
            out.append(seat)
    return out


def excused_between(f: Facts, start: int, stop: int) -> bool:
    records = f.h.records
    for i in f.h.mark_indices():
        if i > stop:
            continue
        if i < start:
            return False
        if declared(records[i]) == CARD_EFFECT:
            return True
    return False


@dataclass(slots=True)
class Play:
    index: int
    obj: str
    card: Card | None
    seat: int
    to: str
    action: bool  # counted as one of the turn's actions


@dataclass(slots=True)
class TurnWalk:
    """The active seat's draws, plays and movement in the current turn, in order."""

    seat: int
    actions: list[int] = field(default_factory=list)  # index of each action (one per card)
    plays: list[Play] = field(default_factory=list)
    moves: list[int] = field(default_factory=list)  # indices of own standee relocations
    income_draws: int = 0
    move_favor: int = 0


def walk_turn(f: Facts, seat: int, stop: int | None = None) -> TurnWalk:
    """The turn's records from its start to `stop` (the current op), read in one pass with the
    phase followed as the markers pass (asked at every draw and play: kept to plain loops)."""
    ctx = f.ctx
    walk = TurnWalk(seat)
    credit = {"draw": 0, "discard": 0}
    hand, standee, deck = f"p{seat}.hand", f"p{seat}.standee", f"p{seat}.deck"
    records = f.h.records
    phase: str | None = None
    for i in range(f.turn_start, (f.h.index if stop is None else stop) + 1):
        rec = records[i]
        if rec.void is not None:
            continue
        op = rec.op
        kind = op.kind
        if kind == "mark":
            w = op.args.get("what")
            if w == "turn":
                phase = None
            elif w in ("phase", "step"):
                phase = norm_phase(op.args.get("value"))
            elif w == "declare" and isinstance(op.args.get("value"), str):
                _declared_credit(f, rec, seat, credit, walk)
        elif kind == "consume":
            if op.args.get("to") != hand:
                continue
            n = sum(1 for where in op.args.get("expect") or () if where == deck)
            if not n:
                continue
            if phase == INCOME:  # Income's draws, too many or not, are MAN-INCOME's to judge
                walk.income_draws += n
                continue
            use = min(credit["draw"], n)
            credit["draw"] -= use
            walk.actions.extend([i] * (n - use))
        elif kind == "move":
            m = moved(rec)
            if m is None:
                continue
            obj, src, dest = m
            if obj == standee:
                walk.moves.append(i)
            elif src == hand and dest != hand:
                card = card_of_obj(ctx, obj, op.args)
                action = not is_modifier(card) and phase != END
                if action and credit["discard"] > 0:
                    credit["discard"] -= 1
                    action = False
                walk.plays.append(Play(i, obj, card, seat, dest, action))
                if action:
                    walk.actions.append(i)
        elif kind in ("set", "undo") and any(
                e[0] == "f" and e[1].id == standee and e[2] == "pos" for e in rec.journal.entries):
            walk.moves.append(i)
    return walk


def _declared_credit(f: Facts, rec: Record, seat: int, credit: dict[str, int],
                     walk: TurnWalk) -> None:
    """A seat's own exchange (a free draw or discard) or Favor spent on movement."""
    if f.seat_of(rec) == seat or fields(rec).get("seat") == seat:
        name = rec.op.args.get("value")
        if name == "exchange":
            kind = str(fields(rec).get("kind", "")).casefold()
            if kind in credit:
                credit[kind] += 1
        elif name == "move-favor":
            amount = fields(rec).get("amount")
            if isinstance(amount, int):
                walk.move_favor += amount


__all__ = ["ACTION", "END", "INCOME", "Out", "TurnWalk", "walk_turn"]
