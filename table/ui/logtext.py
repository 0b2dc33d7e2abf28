"""One readable line per logged op, as a given seat may know it.

Card names come from `table.core.views.known_card`, so a seat reads "North drew 2 cards", not
which ones, unless it may know them.
"""
from __future__ import annotations

from typing import Any

from table.core.knowledge import Knowledge
from table.core.objects import ROOT
from table.core.state import State
from table.core.timeline import Record
from table.core.views import known_card

from .catalog import Catalog


class LogRenderer:
    def __init__(self, state: State, knowledge: Knowledge, catalog: Catalog,
                 seat_name: Any) -> None:
        self.state, self.knowledge, self.catalog = state, knowledge, catalog
        self.seat_name = seat_name  # callable: seat -> name

    def who(self, record: Record) -> str:
        op = record.op
        if op.seat is not None:
            return str(self.seat_name(op.seat))
        name = self.state.peers.get(op.author, {}).get("name")
        return str(name or f"peer {op.author[:6]}")

    def place(self, obj_id: str | None) -> str:
        if obj_id is None or obj_id == ROOT:
            return "the table"
        obj = self.state.objs.get(obj_id)
        if obj is None:
            return obj_id
        name = str(obj.props.get("name", obj_id))
        seat = obj.props.get("seat", obj.owner)
        if isinstance(seat, int) and obj.kind in ("zone", "pile", "board"):
            return f"{self.seat_name(seat)}'s {name}"
        return name

    def thing(self, obj_id: str, seat: int, card: str | None = None) -> str:
        obj = self.state.objs.get(obj_id)
        if obj is None:
            return obj_id
        if obj.kind != "card":
            return str(obj.props.get("name", obj_id))
        card = card or known_card(self.state, self.knowledge, obj, seat)
        return self.catalog.name_of(card) if card else "a card"

    def line(self, record: Record, seat: int) -> str:
        text = self._describe(record, seat)
        if record.void:
            text += f"  (no effect: {record.void})"
        return text

    def _describe(self, record: Record, seat: int) -> str:
        op, a, who = record.op, record.op.args, self.who(record)
        k = op.kind
        if k == "hello":
            return f"{a.get('name') or 'A player'} joined the table"
        if k == "seat":
            verb = "left" if a.get("release") else "sat at"
            return f"{a.get('name') or 'A player'} {verb} seat {a['seat']}"
        if k == "create":
            return f"{who} set out {self.thing(a['id'], seat)} in {self.place(a.get('to'))}"
        if k == "delete":
            return f"{who} removed {self.thing(a['id'], seat)}"
        if k == "move":
            src = _old_container(record, a["id"])
            face = " face up" if a.get("face_up") else " face down" if a.get("face_up") is False \
                else ""
            return (f"{who} moved {self.thing(a['id'], seat, a.get('card'))}{face} "
                    f"from {self.place(src)} to {self.place(a['to'])}")
        if k == "set":
            what = self.thing(a["id"], seat, a.get("card"))
            if a["field"] == "face_up":
                return f"{who} turned {what} face {'up' if a['value'] else 'down'}"
            if a["field"] == "rotation":
                return f"{who} {'engaged' if a['value'] else 'readied'} {what}"
            return f"{who} set {a['field']} of {what} to {a['value']}"
        if k == "counter":
            what = self.thing(a["id"], seat)
            key = "" if a.get("key", "value") == "value" else f" {a['key']}"
            if a.get("add") is not None:
                return f"{who}: {what}{key} {a['add']:+d}"
            return f"{who}: {what}{key} set to {a['value']}"
        if k == "consume":
            n = len(a["out"])
            why = a.get("why") or "move"
            to = self.place(a["to"])
            if why == "draw":
                return f"{who} drew {_cards(n - len(_kept(record, a)))} into {to}"
            if why == "shuffle":
                return f"{who} shuffled {to}"
            if why == "create":
                return f"{who} put {_cards(n)} into {to}"
            moved = len(a["in"]) - len(_kept(record, a))
            return f"{who} put {_cards(max(1, moved))} into {to}"
        if k == "reveal":
            return f"{who} revealed {self.catalog.name_of(a['card'])}"
        if k == "show":
            to = self.seat_name(a["to"])
            if a["to"] == seat or self.state.objs.get(a["id"]) is None:
                return f"{who} showed {to} {self.thing(a['id'], seat)}"
            return f"{who} showed a card to {to}"
        if k == "roll":
            vals = ", ".join(str(v) for v in a["values"])
            return f"{who} rolled {vals} (d{a['sides']})"
        if k == "mark":
            what = a["what"]
            if what == "turn":
                return f"— {self.seat_name(a.get('seat'))}'s turn —"
            if what in ("phase", "step"):
                return f"{who}: {what} {a.get('value') or 'cleared'}"
            return f"{who} declared {what} {a.get('value', '')}".rstrip()
        if k == "note":
            return f"{who} noted: {a['text']}"
        if k == "chat":
            return f"{who}: {a['text']}"
        if k == "ack":
            return f"{who} acknowledged a flag: {a['reason']}"
        if k == "undo":
            return f"{who} undid an action"
        return f"{who}: {k}"


def _old_container(record: Record, obj_id: str) -> str | None:
    for entry in record.journal.entries:
        if entry[0] == "f" and entry[2] == "container" and entry[1].id == obj_id:
            return entry[3]  # type: ignore[no-any-return]
    return None


def _kept(record: Record, args: dict[str, Any]) -> list[str]:
    """Inputs that were already in the destination (re-handled, not newly arrived)."""
    expect = args.get("expect") or []
    return [e for e in expect if e == args["to"]]


def _cards(n: int) -> str:
    return "a card" if n == 1 else f"{n} cards"
