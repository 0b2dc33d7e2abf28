"""What the renderer needs to draw a card: its face data and the game's back, from the module.

The UI never reads a hidden card's identity itself: it asks the core's views which card id a seat
may know, then looks that id up here.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from table.games.card_faces import Region


@dataclass(frozen=True, slots=True)
class CardFace:
    id: str
    name: str
    type: str = ""
    subtitle: str = ""           # "Champion · Iron Court"
    corner: str = ""             # the big number (cost, value, block)
    stats: tuple[tuple[str, str], ...] = ()  # (label, value)
    text: str = ""
    flags: tuple[str, ...] = ()  # badges: Unique, Arena...
    colour: str = "#777777"
    image: str = ""              # absolute path, when the data names one
    group: str = ""
    # every field the module gives the card, as (column, label, shown value), in cards.csv order
    fields: tuple[tuple[str, str, str], ...] = ()
    layout: tuple[Region, ...] = ()  # a designer-laid face ([templates.front.by_type]); () built in
    stat_shorts: tuple[str, ...] = ()  # each stat's name on the table's small stat line

    def value(self, column: str) -> str:
        """What the card shows for a column (or one of name, type, text, group)."""
        own = {"name": self.name, "type": self.type, "text": self.text, "group": self.group}
        if column in own:
            return own[column]
        return next((v for c, _, v in self.fields if c == column), "")

    def label(self, column: str) -> str:
        return next((lab for c, lab, _ in self.fields if c == column),
                    column.replace("_", " ").title())


@dataclass(frozen=True, slots=True)
class BackStyle:
    colour: str = "#2b3a67"
    label: str = ""


@dataclass(slots=True)
class Catalog:
    game_id: str = ""
    game_name: str = "Table"
    faces: dict[str, CardFace] = field(default_factory=dict)
    back: BackStyle = BackStyle()
    seat_names: dict[int, str] = field(default_factory=dict)
    seat_colours: dict[int, str] = field(default_factory=dict)
    module: Any = None  # the GameModule, when there is one
    type_sides: dict[str, tuple[str, ...]] = field(default_factory=dict)  # double-sided types

    def face(self, card_id: str, side: str | None = None) -> CardFace:
        """The face to draw; `side` (a double-sided card's props["side"]) picks its other side."""
        found = self.faces.get(card_id)
        if side and found is not None:
            other = self.faces.get(f"{card_id}#b")
            sides = self.type_sides.get(found.type, ())
            if other is not None and len(sides) == 2 and side == sides[1]:
                return other
        return found if found is not None else CardFace(card_id, card_id.replace("_", " ").title())

    def name_of(self, card_id: str | None) -> str:
        return self.face(card_id).name if card_id else "a card"

    @classmethod
    def from_module(cls, module: Any) -> Catalog:
        """Build from a table.games GameModule (duck-typed: only its data is read)."""
        front = module.front
        faces: dict[str, CardFace] = {}
        base = Path(module.path)
        for card in module.cards.values():
            subtitle = " · ".join(str(v) for v in (card.get(c) for c in front.subtitle)
                                  if v not in (None, "", False))
            corner = card.get(front.corner) if front.corner else None
            shown = [col for col in front.stats if card.get(col) not in (None, "")]
            stats = tuple((front.label_of(col), _text(card.get(col))) for col in shown)
            shorts = tuple(front.short_of(col) for col in shown)
            fields = tuple((c.name, front.label_of(c.name), _text(card.get(c.name)))
                           for c in module.columns
                           if card.get(c.name) not in (None, "", False, ()))
            layout = front.layouts.get(card.type, ())
            flags = tuple(col.replace("_", " ").title() for col in front.flags if card.flag(col))
            image = str(base / card.image) if card.image else ""
            faces[card.id] = CardFace(
                id=card.id, name=str(card.get(front.title) or card.name), type=card.type,
                subtitle=subtitle, corner="" if corner in (None, "", False) else _text(corner),
                stats=stats, stat_shorts=shorts, text=str(card.get(front.body) or ""),
                flags=flags, colour=front.colour_for(card), image=image, group=card.group,
                fields=fields, layout=layout)
            if card.side_b:  # the second side of a double-sided card
                faces[f"{card.id}#b"] = CardFace(
                    id=card.id, name=card.side_b, type=card.type, subtitle=subtitle,
                    corner=faces[card.id].corner, text=card.text_b,
                    colour=front.colour_for(card), image=image, group=card.group,
                    fields=fields, layout=layout)
        seats = {s.number: s.name for s in module.seats}
        colours = {s.number: s.colour for s in module.seats}
        sides = {name: tuple(t.sides) for name, t in module.card_types.items() if t.sides}
        return cls(module.id, module.name, faces, BackStyle(module.back.colour, module.back.label),
                   seats, colours, module, sides)


def _text(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value)
    if isinstance(value, bool):
        return "yes" if value else ""
    return str(value)
