"""What one seat may see: the single place that redacts.

The UI, the assist and the log renderer read the table only through these functions. A seat sees
a card's identity when it is public, when the seat owns the card and the card is not in a hidden
pile (a hand, its own face-down card), or when its owner showed it to the seat privately.
`ALL` is the designer's view of a merged log: everything anyone knew.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .knowledge import Knowledge
from .objects import HIDDEN, Obj
from .state import State

ALL = -1  # the all-seeing seat of a merged log or a hot-seat designer


@dataclass(slots=True, frozen=True)
class ObjView:
    id: str
    kind: str
    owner: int | None
    container: str | None
    pos: tuple[float, ...] | None
    face_up: bool
    rotation: int
    counters: dict[str, int]
    props: dict[str, Any]
    card: str | None  # the identity this seat may know, else None
    children: tuple[str, ...]

    @property
    def shows_face(self) -> bool:
        """Draw the face (not the back) for this seat."""
        return self.card is not None and self.face_up


def known_card(state: State, knowledge: Knowledge | None, obj: Obj, seat: int) -> str | None:
    if obj.card is not None:
        return obj.card
    if knowledge is None:
        return None
    if seat == ALL:
        return knowledge.card_of(obj.id)
    parent = state.objs.get(obj.container) if obj.container else None
    in_hidden_pile = parent is not None and parent.visibility == HIDDEN
    if obj.owner == seat and not in_hidden_pile:
        return knowledge.card_of(obj.id)
    if seat in knowledge.shown.get(obj.id, ()):
        return knowledge.card_of(obj.id)
    return None


def view_object(state: State, knowledge: Knowledge | None, obj: Obj, seat: int) -> ObjView:
    card = known_card(state, knowledge, obj, seat) if obj.kind == "card" else obj.card
    return ObjView(obj.id, obj.kind, obj.owner, obj.container, obj.pos, obj.face_up,
                   obj.rotation, dict(obj.counters), dict(obj.props), card, tuple(obj.children))


def view_of(state: State, knowledge: Knowledge | None, seat: int) -> dict[str, ObjView]:
    """Every live object as `seat` sees it."""
    return {o.id: view_object(state, knowledge, o, seat) for o in state.objs.values() if o.alive}
