"""Save a table's situation as a position file (docs/positions.md) that starts it again.

The file names every card a viewer knows; a card it does not know (another LAN player's hand
or deck) is written "?", so a peer's saved position says what it does not know. A merged or
hot-seat log knows everything. Output is canonical (stable order, one form per value), so
saving a table started from a saved position gives the same file.
"""
from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from table.core.knowledge import Knowledge
from table.core.objects import OWNER, PUBLIC, Obj
from table.core.state import State
from table.core.views import ALL

from .module import GameModule
from .position import UNKNOWN

Line = str


def _s(value: Any) -> str:
    """A TOML value: JSON's strings, numbers, booleans and arrays are TOML too."""
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_s(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(_s(v) for v in value) + "]"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return json.dumps(value, ensure_ascii=False)


def _key(key: str) -> str:
    bare = key.replace("-", "").replace("_", "").isalnum() and key.isascii()
    return key if bare else json.dumps(key)


class _Writer:
    def __init__(self, state: State, knowledge: Knowledge | None, module: GameModule,
                 seat: int) -> None:
        self.state, self.knowledge, self.module, self.seat = state, knowledge, module, seat
        names: dict[str, int] = {}
        for card in module.cards.values():
            names[card.name.casefold()] = names.get(card.name.casefold(), 0) + 1
        self._unique = {c.id: c.name for c in module.cards.values()
                        if names[c.name.casefold()] == 1}

    def card_name(self, obj: Obj) -> str:
        card = obj.card
        if card is None and self.knowledge is not None:
            # what this peer's software knows: its own secrets, gifts and private shows
            card = self.knowledge.card_of(obj.id) if self.seat == ALL or self._may_know(obj) \
                else None
        if card is None:
            return UNKNOWN
        return self._unique.get(card, card)

    def _may_know(self, obj: Obj) -> bool:
        return obj.owner == self.seat or self.seat in (self.knowledge.shown.get(obj.id, ())
                                                       if self.knowledge else ())

    def card_entry(self, obj: Obj, zone: Obj) -> Any:
        default_face = zone.visibility == PUBLIC and bool(zone.props.get("enter_face_up", True))
        extra: dict[str, Any] = {}
        if obj.face_up != default_face and zone.visibility == PUBLIC:
            extra["face"] = "up" if obj.face_up else "down"
        if obj.owner != zone.owner:
            extra["owner"] = obj.owner
        if obj.rotation:
            extra["rotation"] = obj.rotation
        if obj.props.get("side"):
            extra["side"] = obj.props["side"]
        if obj.counters:
            extra["counters"] = dict(sorted(obj.counters.items()))
        if obj.pos is not None:
            extra["pos"] = [float(v) for v in obj.pos]
        name = self.card_name(obj)
        return {"card": name, **extra} if extra else name


def write_position(state: State, knowledge: Knowledge | None, module: GameModule, *,
                   seat: int = ALL, name: str = "", decks: dict[int, str] | None = None,
                   seed: int | None = None, module_ref: str | None = None,
                   setup_complete: bool = True) -> str:
    """The position file text of `state`, as `seat` knows it (ALL: everything)."""
    w = _Writer(state, knowledge, module, seat)
    seats = sorted(state.seats)
    out: list[Line] = [f"# Sandtable position{': ' + name if name else ''}", "[position]",
                       f"game = {_s(module.id)}"]
    if module_ref:
        out.append(f"module = {_s(module_ref)}")
    if name:
        out.append(f"name = {_s(name)}")
    out.append(f"seats = {len(seats)}")
    if seed is not None:
        out.append(f"seed = {seed}")
    out.append(f"setup = {_s('complete' if setup_complete else 'pending')}")
    if state.turn.get("seat") is not None:
        out += ["", "[turn]", f"seat = {state.turn['seat']}", f"number = {state.turn['number']}"]
        if state.phase is not None:
            out.append(f"phase = {_s(state.phase)}")
    for s in seats:
        out += ["", f"[seats.{s}]", f"player = {_s(state.seats[s].name)}"]
        if decks and s in decks:
            out.append(f"deck = {_s(decks[s])}")
    out += _section("zones", _zones(w, module, len(seats)))
    out += _section("counters", _counters(state, module, len(seats)))
    out += _section("tokens", _tokens(state, module, len(seats)))
    out += _section("dice", _dice(state, module, len(seats)))
    out += _section("boards", _boards(state, module, len(seats)))
    out += _section("tiles", _tiles(state))
    return "\n".join(out) + "\n"


def _section(title: str, rows: list[tuple[str, Any]]) -> list[Line]:
    if not rows:
        return []
    lines = ["", f"[{title}]"]
    for key, value in rows:
        if isinstance(value, list) and len(value) > 4:
            lines.append(f"{_key(key)} = [")
            lines += [f"  {_s(v)}," for v in value]
            lines.append("]")
        else:
            lines.append(f"{_key(key)} = {_s(value)}")
    return lines


def _live(state: State, ids: Iterable[str]) -> list[Obj]:
    return [o for i in ids if (o := state.live(i)) is not None]


def _zones(w: _Writer, module: GameModule, seats: int) -> list[tuple[str, Any]]:
    rows = []
    for zone in _live(w.state, [z.id for z in module.zones_for(seats)] + ["table"]):
        cards = [w.card_entry(c, zone) for c in _live(w.state, zone.children) if c.kind == "card"]
        if zone.visibility == OWNER and zone.kind != "pile" and zone.props.get("kind") != "pile":
            cards.sort(key=_by_name)  # a hand's order at the table is random (privacy): by name
        if cards:
            rows.append((zone.id, cards))
    return rows


def _by_name(entry: Any) -> tuple[str, str]:
    name = str(entry["card"] if isinstance(entry, dict) else entry)
    return name.casefold(), json.dumps(entry, sort_keys=True)


def _counters(state: State, module: GameModule, seats: int) -> list[tuple[str, Any]]:
    return [(c.id, obj.counters.get("value", 0)) for c in module.counters_for(seats)
            if (obj := state.live(c.id)) is not None and obj.counters.get("value") != c.start]


def _tokens(state: State, module: GameModule, seats: int) -> list[tuple[str, Any]]:
    rows: list[tuple[str, Any]] = []
    for t in module.tokens_for(seats):
        obj = state.live(t.id)
        if obj is None or (obj.container == (t.home or "table") and obj.pos is None):
            continue
        holder = state.objs.get(obj.container or "")
        on_grid = holder is not None and holder.props.get("grid") is not None
        if obj.pos is not None and len(obj.pos) == 2:
            where = "cell" if on_grid else "pos"
            rows.append((t.id, {"at": obj.container,
                                where: [int(v) if on_grid else float(v) for v in obj.pos]}))
        else:
            rows.append((t.id, obj.container))
    return rows


def _dice(state: State, module: GameModule, seats: int) -> list[tuple[str, Any]]:
    return [(d.id, obj.counters.get("value", 1)) for d in module.dice_for(seats)
            if (obj := state.live(d.id)) is not None and "values" in obj.props]


def _boards(state: State, module: GameModule, seats: int) -> list[tuple[str, Any]]:
    return [(b.id, {"side": obj.props.get("side")}) for b in module.boards_for(seats)
            if b.sides and (obj := state.live(b.id)) is not None
            and obj.props.get("side") != b.sides[0]]


def _tiles(state: State) -> list[tuple[str, Any]]:
    rows = []
    for obj in state.objs.values():
        if obj.alive and obj.kind == "board" and obj.props.get("board_kind") == "tile":
            rows.append((obj.container or "", {"tile": obj.props.get("tile"),
                                               "side": obj.props.get("side"),
                                               "rotation": obj.rotation}))
    return sorted(rows, key=lambda r: r[0])


def log_position(records: Iterable[Any], state: State, knowledge: Knowledge | None,
                 module: GameModule, header: dict[str, Any], *, seat: int = ALL,
                 name: str | None = None) -> str:
    """The position of a table rebuilt from a log's records (applied up to the point wanted).

    A table started from a position keeps that position's name, deck lists, seed and draft
    folder (its start marker records them); another log names its starter decks."""
    begin: dict[str, Any] = {}
    complete = False
    for rec in records:
        a = rec.op.args
        if rec.op.kind != "mark" or rec.void is not None or a.get("what") != "setup":
            continue
        if a.get("value") == "position" and not begin:
            begin = dict(a.get("fields") or {})
        elif a.get("value") == "complete":
            complete = True
    decks = {int(s): str(ref) for s, ref in (begin.get("decks") or {}).items()}
    if not decks:
        by_name = {d.name: key for key, d in module.starter_decks.items()}
        decks = {int(s): by_name.get(str(n), str(n))
                 for s, n in (header.get("decks") or {}).items()}
    return write_position(state, knowledge, module, seat=seat,
                          name=name if name is not None else str(begin.get("name", "")),
                          decks=decks, seed=begin.get("seed"), module_ref=begin.get("module"),
                          setup_complete=complete)


def replica_position(replica: Any, module: GameModule, name: str | None = None) -> str:
    """The position of a live table, as its peer knows it: every seat when it plays them all
    (hot-seat), else its own seat's view (other players' hidden cards are "?")."""
    mine = replica.my_seats
    seats = set(replica.state.seats)
    seat = ALL if not seats or mine >= seats or replica.peer_id == "merged" else min(mine or {0})
    return log_position(replica.records(), replica.state, replica.knowledge, module,
                        replica.header_extra, seat=seat, name=name)
