"""How the Gauntlet's messages name its cards and places (the Gauntlet's positions by number),
for assist.wording's account of what an op did."""
from __future__ import annotations

from assist import wording

from .facts import Facts


def card_name(f: Facts) -> wording.Namer:
    def name(obj: str | None) -> str:
        card = f.card(obj) if obj else None
        if card is not None:
            return str(card.name)
        seat = f.is_token(obj) if obj else None
        return "Player Token" if seat is not None else "a face-down card"
    return name


def place(f: Facts) -> wording.Namer:
    def where(zone: str | None) -> str:
        pos = f.pos_index(zone)
        return f"position {pos}" if pos is not None else wording.place_of(f.ctx, zone)
    return where


def whose(f: Facts, obj: str | None) -> str:
    """A card as a message names it: its owner's name and its own ("Bram's Old Bridge")."""
    return wording.whose(f.ctx, obj, card_name(f), f.names)


def worded(f: Facts, message: str, objects: tuple[str, ...]) -> str:
    return wording.worded(f.ctx, message, objects, card_name(f), place(f), f.names)
