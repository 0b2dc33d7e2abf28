"""A player's battle total as the rulebook builds it (§6.6): the kept die, then the numerical
modifiers: the Battle effects of the cards revealed for the battle (the module's `battle`
column: "+1.", "+2 if you are the defender.", ...), the spends declared before dice (Rally and
Entrench +1, Leverage, Subsidize, Transmutation) and, in a Last Stand, the defender's bonus.

A Battle effect the assist cannot read as a number (a spend it cannot see, a text it does not
know) or a card effect declared in the battle makes the total unknown: the checks then fall
back to what they can tell without it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .facts import Battle, Facts

_PLAIN = re.compile(r"^\+(\d+)\.$")
_ROLE = re.compile(r"^\+(\d+) if you are the (attacker|defender)\.$")
_INITIATED = re.compile(r"^\+(\d+); \+(\d+) if you initiated the battle\.$")
_CONTROL = re.compile(r"^\+(\d+) if you control the contested Territory\.$")
_PER_DEED = re.compile(r"^\+(\d+) per Deed you own \(at most \+(\d+)\)\.$")
_ARCANE = re.compile(r"^\+(\d+); \+(\d+) against Arcane cards\.$")
_THEN = re.compile(r"^\+(\d+); (?!\+)")  # "+2; the opponent's hand commitment goes to ..."
_DICE_ONLY = re.compile(r"^\d+ (dis)?advantage\.$")  # changes the dice, not the total
NEGATES_CHOICE = "The opponent's chosen Battle Hand card is negated."
BATTLE_SLOTS = ("commit", "battle-choice")


@dataclass(frozen=True, slots=True)
class Total:
    """A battle total and what it is made of (None: it cannot be told)."""

    value: int | None
    parts: tuple[tuple[str, int], ...] = ()  # (card or spend, what it adds)

    def said(self) -> str:
        return ", ".join(f"{name} +{n}" for name, n in self.parts if n) or "no card bonus"


def revealed(f: Facts, seat: int) -> list[str]:
    """The cards `seat` committed and chose for the battle, face up (revealed), bottom first."""
    return [c for zone in BATTLE_SLOTS for c in f.v.child_ids(f"p{seat}.{zone}", "card")
            if f.v.is_up(c)]


def card_bonus(f: Facts, b: Battle, seat: int, card: Any, foes: list[Any]) -> int | None:
    """What one revealed card's Battle effect adds to `seat`'s total (None: not a number the
    assist can tell)."""
    text = str(card.get("battle") or "").strip()
    role = "attacker" if seat == b.attacker else "defender"
    if not text or _DICE_ONLY.match(text) or text == NEGATES_CHOICE:
        return 0
    if m := _PLAIN.match(text):
        return int(m.group(1))
    if m := _ROLE.match(text):
        return int(m.group(1)) if m.group(2) == role else 0
    if m := _INITIATED.match(text):
        return int(m.group(2)) if seat == b.attacker else int(m.group(1))
    if m := _CONTROL.match(text):
        pos = b.pos
        return int(m.group(1)) if pos is not None and pos in f.lay.territory \
            and f.controller(pos) == seat else 0
    if m := _PER_DEED.match(text):
        return min(f.v.count(f"p{seat}.deeds") * int(m.group(1)), int(m.group(2)))
    if m := _ARCANE.match(text):
        arcane = any(bool(c.get("arcane")) for c in foes)
        return int(m.group(2)) if arcane else int(m.group(1))
    if m := _THEN.match(text):
        return int(m.group(1))
    return None


def _spends(f: Facts, b: Battle, seat: int, until: int) -> list[tuple[str, int]] | None:
    """The spends `seat` declared in the battle before `until` that add to its total."""
    out: list[tuple[str, int]] = []
    for d in f.decl("order", "leverage", "subsidize", "transmutation", "card-effect",
                    since=b.open_i, before=until, seat=seat):
        if d.name == "card-effect":
            return None  # a card's own effect: the assist cannot tell what it adds
        if d.name == "order":
            if d.fields.get("order") in ("Rally", "Entrench"):
                out.append((str(d.fields["order"]), 1))
            continue
        amount = d.fields.get("amount" if d.name == "leverage" else "bonus")
        if d.name == "transmutation":
            card = f.game.card(str(d.fields.get("card") or "")) or _named(f, d.fields.get("card"))
            amount = card.number("value") if card is not None else None
        if not isinstance(amount, int):
            return None
        out.append((d.name.capitalize(), amount))
    return out


def _named(f: Facts, name: Any) -> Any:
    if not isinstance(name, str):
        return None
    try:
        return f.game.module.card(name)
    except KeyError:
        return None


def battle_total(f: Facts, b: Battle, seat: int, die: int, until: int) -> Total:
    """`seat`'s total in battle `b` with the kept `die`, from what was revealed and declared
    before `until` (the winner declaration)."""
    other = b.defender if seat == b.attacker else b.attacker
    mine = [(c, f.card(c)) for c in revealed(f, seat)]
    foes = [f.card(c) for c in revealed(f, other)] if other is not None else []
    if any(card is None for _c, card in mine) or any(card is None for card in foes):
        return Total(None)
    negated = any(str(card.get("battle") or "").strip() == NEGATES_CHOICE for card in foes)
    parts: list[tuple[str, int]] = [("die", die)]
    for obj, card in mine:
        if negated and f.v.zone_of(obj) == f"p{seat}.battle-choice":
            parts.append((f"{card.name} (negated)", 0))
            continue
        bonus = card_bonus(f, b, seat, card, foes)
        if bonus is None:
            return Total(None)
        parts.append((card.name, bonus))
    spends = _spends(f, b, seat, until)
    if spends is None:
        return Total(None)
    parts += spends
    if b.last_stand and seat == b.defender:
        parts.append(("the Last Stand", int(f.p("last_stand_bonus", 1))))
    return Total(sum(n for _name, n in parts), tuple(p for p in parts if p[0] != "die"))
