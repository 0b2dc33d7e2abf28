"""The table as a plugin reads it: `AssistView`, one seat's view (or ALL's), read-only, built on
`table.core.views` so hidden information stays hidden from a seat's assist. Part of the plugin
API; plugins import it from `assist.api`."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from table.core.knowledge import Knowledge
from table.core.objects import Obj
from table.core.state import State
from table.core.views import ALL, ObjView, known_card, view_object


class AssistView:
    """The table as one seat (or ALL, for a merged log or hot-seat) may see it. Read-only."""

    __slots__ = ("_knowledge", "_state", "seat")

    def __init__(self, state: State, knowledge: Knowledge | None = None, seat: int = ALL) -> None:
        self._state = state
        self._knowledge = knowledge
        self.seat = seat

    def of(self, state: State, knowledge: Knowledge | None, seat: int) -> bool:
        """Whether this is the view of exactly that state, knowledge and seat (a caller may
        keep one view instead of making one per op: it reads the state as it is)."""
        return self._state is state and self._knowledge is knowledge and self.seat == seat

    def _live(self, obj_id: str | None) -> Obj | None:
        if obj_id is None:
            return None
        obj = self._state.objs.get(obj_id)
        return obj if obj is not None and obj.alive else None

    def raw_field(self, obj_id: str, name: str) -> Any:
        """An object's field as the state holds it now, removed objects too (None if unknown):
        what an op changed, read back by OpContext.field_before."""
        obj = self._state.objs.get(obj_id)
        return None if obj is None else getattr(obj, name)

    def obj(self, obj_id: str) -> ObjView | None:
        obj = self._live(obj_id)
        return None if obj is None else view_object(self._state, self._knowledge, obj, self.seat)

    def exists(self, obj_id: str) -> bool:
        return self._live(obj_id) is not None

    def children(self, obj_id: str) -> list[ObjView]:
        """Live children, bottom -> top."""
        obj = self._live(obj_id)
        if obj is None:
            return []
        out = []
        for child_id in obj.children:
            child = self._live(child_id)
            if child is not None:
                out.append(view_object(self._state, self._knowledge, child, self.seat))
        return out

    def child_ids(self, obj_id: str, kind: str | None = None) -> list[str]:
        """Ids of live children (bottom -> top), optionally of one kind; cheaper than children()."""
        obj = self._live(obj_id)
        if obj is None:
            return []
        objs = self._state.objs
        if kind is None:
            return [c for c in obj.children if objs[c].alive]
        return [c for c in obj.children if (child := objs[c]).alive and child.kind == kind]

    def kind_of(self, obj_id: str) -> str | None:
        """A live object's kind (None if it is gone or unknown): no view is built."""
        obj = self._live(obj_id)
        return None if obj is None else obj.kind

    def place(self, obj_id: str) -> tuple[str | None, tuple[float, ...] | None] | None:
        """A live object's (container, position), None if it is gone or unknown: what
        `obj()` says of where it is, without building (and copying into) a whole view."""
        obj = self._live(obj_id)
        return None if obj is None else (obj.container, obj.pos)

    def count(self, obj_id: str, kind: str | None = "card") -> int:
        obj = self._state.objs.get(obj_id)
        if obj is None or not obj.alive:
            return 0
        objs = self._state.objs
        if kind is None:
            return len([c for c in obj.children if objs[c].alive])
        return len([c for c in obj.children if (child := objs[c]).alive and child.kind == kind])

    def card_of(self, obj_id: str) -> str | None:
        """The card id of a card object, if this view may know it."""
        obj = self._state.objs.get(obj_id)
        if obj is None or obj.kind != "card":
            return None
        return known_card(self._state, self._knowledge, obj, self.seat)

    def counter(self, obj_id: str, key: str = "value") -> int | None:
        obj = self._live(obj_id)
        return None if obj is None else obj.counters.get(key)

    def zone_of(self, obj_id: str) -> str | None:
        obj = self._state.objs.get(obj_id)
        return None if obj is None else obj.container

    def owner_of(self, obj_id: str) -> int | None:
        obj = self._state.objs.get(obj_id)
        return None if obj is None else obj.owner

    def prop(self, obj_id: str, key: str, default: Any = None) -> Any:
        obj = self._state.objs.get(obj_id)
        return default if obj is None else obj.props.get(key, default)

    def is_up(self, obj_id: str) -> bool:
        """Face up (cards)."""
        obj = self._state.objs.get(obj_id)
        return obj is not None and obj.face_up

    def rotation(self, obj_id: str) -> int:
        obj = self._state.objs.get(obj_id)
        return 0 if obj is None else obj.rotation

    @property
    def seats(self) -> dict[int, str]:
        return {n: s.name for n, s in sorted(self._state.seats.items())}

    @property
    def turn(self) -> tuple[int | None, int]:
        t = self._state.turn
        return t.get("seat"), int(t.get("number", 0))

    @property
    def phase(self) -> str | None:
        return self._state.phase

    @property
    def acks(self) -> Mapping[str, str]:
        return self._state.acks
