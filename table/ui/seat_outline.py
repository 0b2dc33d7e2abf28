"""The table as one seat may know it, in words and in reading order: its zones (own hand first,
then the seat's own places, the shared ones, the other seats' in table order), each with its
pieces in the order they are drawn, each piece named and described.

This is the one model the table's keyboard focus, its accessible outline and its announcements
read. Card identities come from `table.core.views` alone: a card the seat may not know is
"face-down card" (or "card back" in another seat's hand), never its name.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from table.core.knowledge import Knowledge
from table.core.objects import HIDDEN, ROOT, Obj
from table.core.state import State
from table.core.views import view_object

from .layout_units import CONTAINERS, PIECES, laid_out_piece, role, seat_of

COUNTERS = "counters:"  # a seat's (or the middle's) trackers and dice laid out on their own
SCENERY = ("tile", "tileslot")  # map tiles: the grid beneath holds the pieces
BACK = "card back"
FACE_DOWN = "face-down card"


class Namer(Protocol):
    """What the words need of the table: the catalog's names and the seats'."""
    catalog: Any

    def seat_name(self, seat: int | None) -> str: ...


@dataclass(frozen=True, slots=True)
class PieceLine:
    id: str
    kind: str                # card, token, die, counter
    name: str                # what the seat may know it as
    state: tuple[str, ...]   # face up, engaged, Damage 2...
    known: bool              # a card whose identity the seat knows (tokens, dice: True)
    detail: str = ""         # a known card's type, cost, stats and text

    @property
    def text(self) -> str:
        return ", ".join((self.name, *self.state))


@dataclass(frozen=True, slots=True)
class ZoneLine:
    id: str                  # the container's id, or COUNTERS + seat
    role: str                # hand, pile, slot, zone, grid, board, table, counters
    seat: int | None
    name: str                # "Your Hand", "Player B's Discard Pile", "Open table"
    cards: int
    note: str                # "face down", "only you see these", "hidden from you"
    pieces: tuple[PieceLine, ...]

    @property
    def text(self) -> str:
        count = f"{self.cards} card" + ("" if self.cards == 1 else "s")
        if self.role == "counters" or (not self.cards and self.pieces):
            count = f"{len(self.pieces)} piece" + ("" if len(self.pieces) == 1 else "s")
        return ", ".join(p for p in (self.name, count, self.note) if p)

    def index_of(self, piece_id: str | None) -> int:
        """The piece's place in the zone (-1: not here)."""
        return next((i for i, p in enumerate(self.pieces) if p.id == piece_id), -1)


def hand_sort_key(state: State, knowledge: Knowledge | None, catalog: Any, seat: int,
                  obj: Obj) -> tuple[str, str, str, str]:
    """One's own hand, sorted as a player holds it: by type, then cost, then name (the table
    re-handles a hand in a random order whenever a card enters it, so nobody can follow a
    card; this keeps the fan, and the keys through it, steady from one draw to the next)."""
    card = view_object(state, knowledge, obj, seat).card
    if card is None:
        return ("~", "", "", obj.id)
    face = catalog.face(card)
    return (face.type, face.corner.rjust(4), face.name, obj.id)


def outline(state: State, knowledge: Knowledge | None, seat: int, namer: Namer,
            seats: list[int], *, shown: Callable[[str], bool] | None = None,
            drawn_at: Callable[[str], tuple[float, float]] | None = None) -> list[ZoneLine]:
    """Every zone `seat` can move its focus through, in order. `seats`: the table's seats from
    the viewer's on; `shown`: whether a container is on the table (the scene's layout);
    `drawn_at`: where it is drawn (top, left), for reading order inside an area."""
    groups: dict[int | None, list[Obj]] = {}
    for obj in _containers(state, shown):
        groups.setdefault(seat_of(obj) if obj.id != ROOT else None, []).append(obj)
    at = drawn_at or (lambda _oid: (0.0, 0.0))

    def ordered(objs: list[Obj]) -> list[Obj]:
        hands = [o for o in objs if role(o) == "hand"]
        hands.sort(key=lambda o: (0 if o.id.endswith(".hand") else 1, at(o.id), o.id))
        rest = [o for o in objs if role(o) != "hand" and o.id != ROOT]
        rest.sort(key=lambda o: (at(o.id), o.id))
        return hands + rest + [o for o in objs if o.id == ROOT]

    words = _Words(state, knowledge, seat, namer)
    out: list[ZoneLine] = []
    for group in [seat, None, *[s for s in seats if s != seat]]:
        for obj in ordered(groups.get(group, [])):
            out.append(words.zone(obj))
        laid = [o for o in _top_pieces(state) if seat_of(o) == group]
        if laid:
            out.append(words.counters(group, laid))
    return out


def _containers(state: State, shown: Callable[[str], bool] | None) -> list[Obj]:
    found = []
    for obj in state.objs.values():
        if not obj.alive or (obj.kind not in CONTAINERS and obj.id != ROOT):
            continue
        if obj.id != ROOT and role(obj) in SCENERY:
            continue
        if shown is not None and not shown(obj.id):
            continue
        if obj.kind == "board" and role(obj) == "board" and not _holds_pieces(state, obj):
            continue  # a mat of slots: its slots are the places
        found.append(obj)
    return found


def _holds_pieces(state: State, obj: Obj) -> bool:
    return any(state.objs[c].alive and state.objs[c].kind not in CONTAINERS for c in obj.children)


def _top_pieces(state: State) -> list[Obj]:
    """Trackers and dice the layout places in a seat's area (or the middle) on their own."""
    root = state.objs[ROOT]
    return [state.objs[c] for c in root.children
            if state.objs[c].alive and laid_out_piece(state.objs[c])]


class _Words:
    def __init__(self, state: State, knowledge: Knowledge | None, seat: int, namer: Namer) -> None:
        self.state, self.knowledge, self.seat, self.namer = state, knowledge, seat, namer
        module = getattr(namer.catalog, "module", None)
        found = list(getattr(module, "card_counters", ()) or ())
        self.counter_names: Mapping[str, str] = dict(found) or {"damage": "Damage",
                                                                "value": "Counter"}

    def owner_of(self, seat: int | None) -> str:
        if seat is None:
            return ""
        return "Your" if seat == self.seat else f"{self.namer.seat_name(seat)}'s"

    def zone(self, obj: Obj) -> ZoneLine:
        r = "table" if obj.id == ROOT else role(obj)
        seat = seat_of(obj) if obj.id != ROOT else None
        name = "Open table" if obj.id == ROOT else str(obj.props.get("name", obj.id))
        if seat is not None:
            name = f"{self.owner_of(seat)} {name}"
        note = "face down" if obj.visibility == HIDDEN else ""
        if r == "hand":
            note = "only you see these" if seat == self.seat else "hidden from you"
        kids = [self.state.objs[c] for c in obj.children]
        # trackers and dice the layout places alone are in their area's counters, not here
        pieces = [k for k in kids if k.alive and (k.kind in ("card", "token") or (
            k.kind in PIECES and not (obj.id == ROOT and laid_out_piece(k))))]
        cards = sum(1 for k in pieces if k.kind == "card")
        return ZoneLine(obj.id, r, seat, name, cards, note,
                        tuple(self.piece(k, r) for k in self._order(obj, r, pieces)))

    def counters(self, seat: int | None, laid: list[Obj]) -> ZoneLine:
        name = f"{self.owner_of(seat)} counters and dice" if seat is not None else \
            "Counters and dice"
        return ZoneLine(f"{COUNTERS}{seat if seat is not None else 'table'}", "counters", seat,
                        name, 0, "", tuple(self.piece(o, "counters") for o in laid))

    def _order(self, parent: Obj, r: str, pieces: list[Obj]) -> list[Obj]:
        if r == "hand" and seat_of(parent) == self.seat:
            return sorted(pieces, key=lambda o: hand_sort_key(
                self.state, self.knowledge, self.namer.catalog, self.seat, o))
        if r == "pile":
            return list(reversed(pieces))  # the top first
        if r in ("zone", "table", "board", "grid"):
            auto = [p for p in pieces if p.pos is None]
            placed = [p for p in pieces if p.pos is not None and len(p.pos) >= 2]
            placed.sort(key=lambda p: (p.pos[1], p.pos[0]) if p.pos else (0.0, 0.0))
            return auto + placed
        return pieces

    def piece(self, obj: Obj, container_role: str) -> PieceLine:
        if obj.kind == "card":
            return self._card(obj, container_role)
        name = str(obj.props.get("name", obj.id))
        state: list[str] = []
        if obj.kind == "die":
            sides = obj.props.get("sides", 6)
            state.append(f"d{sides}, showing {obj.counters.get('value', 0)}")
        elif obj.kind == "counter":
            value = obj.counters.get("value", 0)
            hi = obj.props.get("max")
            state.append(f"{value} of {hi}" if isinstance(hi, int) else str(value))
        else:
            state += self._counters(obj)
        whose = seat_of(obj)
        if whose is not None and obj.kind != "counter" and container_role != "counters":
            state.append(self.namer.seat_name(whose) if whose != self.seat else "yours")
        return PieceLine(obj.id, obj.kind, name, tuple(state), True)

    def _card(self, obj: Obj, container_role: str) -> PieceLine:
        view = view_object(self.state, self.knowledge, obj, self.seat)
        state: list[str] = []
        if view.card is None:
            name = BACK if container_role == "hand" else FACE_DOWN
            detail = ""
        else:
            side = obj.props.get("side")
            face = self.namer.catalog.face(view.card, side if isinstance(side, str) else None)
            name, detail = face.name, _detail(face)
            if container_role == "hand":
                state.append("only you see it" if not obj.face_up else "shown to all")
            else:
                state.append("face up" if obj.face_up else "face down, only you know it")
        if container_role != "hand" and obj.rotation in (90, 270):
            state.append("engaged")
        elif container_role != "hand" and obj.rotation == 180:
            state.append("upside down")
        state += self._counters(obj)
        return PieceLine(obj.id, "card", name, tuple(state), view.card is not None, detail)

    def _counters(self, obj: Obj) -> list[str]:
        return [f"{self.counter_names.get(k, k.title())} {v}"
                for k, v in sorted(obj.counters.items()) if v]


def _detail(face: Any) -> str:
    """A card's face in a line: type, cost, stats, text."""
    parts = [p for p in (face.subtitle or face.type,
                         f"cost {face.corner}" if face.corner else "",
                         ", ".join(f"{label} {value}" for label, value in face.stats),
                         face.text) if p]
    return ". ".join(parts)
