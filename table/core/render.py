"""One readable line per op, as a given seat may know it.

Used by `sandtable log show`, the log panel and exports. Card names appear only where `views`
says the seat may know the card; everything else is "a card". The record's journal tells where
things came from and what a counter was before.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import fair
from .knowledge import Knowledge
from .objects import OWNER, ROOT
from .state import State
from .timeline import Record
from .views import ALL, known_card

Namer = Callable[[str], str]


class Renderer:
    """Lines for `seat` (ALL: everything the log knows). `seat_name` names seats for the UI."""

    def __init__(self, state: State, knowledge: Knowledge | None, seat: int,
                 card_name: Namer | None = None,
                 seat_name: Callable[[int], str] | None = None) -> None:
        self.state, self.knowledge, self.seat = state, knowledge, seat
        self.card_name = card_name or (lambda card: card)
        self.seat_name = seat_name or self._seat_name

    # --- names ---------------------------------------------------------------------------
    def _seat_name(self, number: int) -> str:
        seat = self.state.seats.get(number)
        return seat.name if seat is not None and seat.name else f"Seat {number}"

    def who(self, record: Record) -> str:
        op = record.op
        if op.seat is not None:
            return self.seat_name(op.seat)
        peer = self.state.peers.get(op.author, {})
        return str(peer.get("name") or f"peer {op.author[:6]}")

    def place(self, obj_id: str | None) -> str:
        if obj_id is None or obj_id == ROOT:
            return "the table"
        obj = self.state.objs.get(obj_id)
        if obj is None:
            return obj_id
        if obj.kind == "card":  # a card's counters (damage): its name where the seat knows it
            return self.thing(obj_id)
        name = str(obj.props.get("name") or obj_id)
        seat = obj.props.get("seat", obj.owner)
        if isinstance(seat, int) and obj.kind in ("zone", "pile", "board"):
            return f"{self.seat_name(seat)}'s {name}"
        return name

    def _card_identity(self, handle: str) -> str | None:
        obj = self.state.objs.get(handle)
        if obj is None:
            return None
        return known_card(self.state, self.knowledge, obj, self.seat)

    def thing(self, obj_id: str, revealed: str | None = None) -> str:
        obj = self.state.objs.get(obj_id)
        if obj is None:
            return obj_id
        if obj.kind != "card":
            return str(obj.props.get("name") or obj_id)
        card = revealed or self._card_identity(obj_id)
        return self.card_name(card) if card else "a card"

    # --- lines ---------------------------------------------------------------------------
    def line(self, record: Record, seat: int | None = None) -> str:
        """The op as `seat` may know it; a seat given here becomes this renderer's seat."""
        if seat is not None:
            self.seat = seat
        text = self._describe(record)
        if record.void:
            text += f"  [void: {record.void}]"
        return text

    def _old(self, record: Record, tag: str, obj_id: str, name: str) -> Any:
        for entry in record.journal.entries:
            if entry[0] == tag and entry[1].id == obj_id and entry[2] == name:
                return entry[3]
        return None

    def _describe(self, record: Record) -> str:
        op, a, who = record.op, record.op.args, self.who(record)
        kind = op.kind
        described = getattr(self, f"_say_{kind}", None)
        if described is not None:  # the kinds that need more than a line
            return str(described(record, who))
        if kind == "hello":
            return f"{a.get('name') or 'a peer'} joined the table"
        if kind == "create":
            where = self.place(a.get("to"))
            return f"{who} put {self.thing(a['id'], a.get('card'))} on {where}"
        if kind == "delete":
            return f"{who} removed {self.thing(a['id'])}"
        if kind == "consume":
            return self._consume(record, who)
        if kind == "reveal":
            return f"{who} revealed {self.card_name(a['card'])}"
        if kind == "roll":
            values = ", ".join(str(v) for v in a["values"])
            why = f" for {a['why']}" if a.get("why") else ""
            return f"{who} rolled {len(a['values'])}d{a['sides']}{why}: {values}" + self._joint(a)
        if kind == "mark":
            return self._mark(record, who)
        if kind == "note":
            return f"{who} noted: {a['text']}"
        if kind == "chat":
            return f"{who}: {a['text']}"
        if kind == "ack":
            return f"{who} acknowledged flag {a['flag']} ({a['reason']})"
        if kind == "undo":
            n = len(a.get("in") or ()) or 1
            cards = "the card" if n == 1 else f"{n} cards"
            hidden = f": {cards} went back, hidden again" if a.get("out") else \
                f": {cards} came back" if a.get("in") else ""
            return f"{who} undid their op #{a['target'][1]}{hidden}"
        if kind == "redo":
            return f"{who} redid what their undo #{a['target'][1]} took back"
        if kind == "module":
            return self._module(a, who)
        if kind == "end":
            return self._end(record, who)
        if kind == "tag":
            return f"{who} tagged the session: {_tagged(a)}"
        return f"{who}: {kind} {a}"

    def _say_seat(self, record: Record, who: str) -> str:
        a = record.op.args
        if a.get("release"):
            return f"{who} left seat {a['seat']}"
        return f"{a.get('name') or who} took seat {a['seat']}"

    def _say_move(self, record: Record, who: str) -> str:
        a = record.op.args
        source = self._old(record, "f", a["id"], "container")
        text = f"{who} moved {self.thing(a['id'], a.get('card'))}"
        if source is not None and source != a["to"]:
            text += f" from {self.place(source)}"
        text += f" to {self.place(a['to'])}"
        if a.get("face_up") is True:
            text += " face up"
        elif a.get("face_up") is False:
            text += " face down"
        return text

    def _say_set(self, record: Record, who: str) -> str:
        a = record.op.args
        field, value = a["field"], a["value"]
        if field == "face_up":
            return f"{who} turned {self.thing(a['id'], a.get('card'))} face {'up' if value else 'down'}"
        if field == "rotation":
            turned = "upright" if value == 0 else f"sideways ({value}°)" if value in (
                90, 270) else f"to {value}°"
            return f"{who} turned {self.thing(a['id'])} {turned}"
        return f"{who} set {field} of {self.thing(a['id'])} to {value!r}"

    def _say_counter(self, record: Record, who: str) -> str:
        a = record.op.args
        key = a.get("key") or "value"
        old = self._old(record, "c", a["id"], key)
        before = old if isinstance(old, int) else 0
        label = self.place(a["id"]) + ("" if key == "value" else f" {key}")
        if a.get("add") is not None:
            after = "" if record.void else f" ({before} → {before + a['add']})"
            return f"{who} changed {label} by {a['add']:+d}{after}"
        return f"{who} set {label} to {a['value']}" + ("" if record.void else f" (was {before})")

    def _say_show(self, record: Record, who: str) -> str:
        op, a = record.op, record.op.args
        shown = None
        if self.knowledge is not None and (self.seat in (ALL, a["to"], op.seat)):
            shown = self.knowledge.card_of(a["id"])
        what = self.card_name(shown) if shown else "a card"
        if op.seat == a["to"]:
            return f"{who} looked at {what} in {self.place(self._container(a['id']))}"
        return f"{who} showed {what} to {self.seat_name(a['to'])}"

    def _say_deck(self, record: Record, who: str) -> str:
        a = record.op.args
        fields = ", ".join(f"{v}" for v in (a.get("fields") or {}).values())
        return (f"{self._seat_name(a['seat'])} plays the deck {a['name']}"
                + (f" ({fields})" if fields else ""))

    @staticmethod
    def _module(a: dict[str, Any], who: str) -> str:
        label = f"{a.get('name') or a['game']} {a.get('version', '')}".rstrip()
        changes = a.get("changes")
        if not changes:
            return f"The table plays {label} (module {a['hash'][:12]})"
        parts = []
        if changes.get("cards"):
            parts.append(f"{changes['cards']} card(s) changed")
        for key, (old, new) in sorted((changes.get("rules") or {}).items()):
            parts.append(f"{key} {old} -> {new}")
        detail = f" ({', '.join(parts)})" if parts else ""
        return f"{who} updated the module to {label}{detail}"

    def _container(self, obj_id: str) -> str | None:
        obj = self.state.objs.get(obj_id)
        return obj.container if obj is not None else None

    def _mark(self, record: Record, who: str) -> str:
        a = record.op.args
        what = a["what"]
        if what == "turn":
            return f"— {self.seat_name(a.get('seat') or 0)}'s turn begins —"
        if what in ("phase", "step"):
            return f"{who} moved to the {a.get('value')} {what}"
        if what == "setup":
            fields = a.get("fields") or {}
            if a.get("value") == "prompt":
                return f"Setup: {fields.get('text', '')}"
            return "Setup complete" if a.get("value") == "complete" else f"Setup: {a.get('value')}"
        if what == "winner":
            return f"{who} declared the winner: {a.get('value') or a.get('seat')}"
        fields = a.get("fields") or {}
        detail = ", ".join(f"{k}={self._value(v)}" for k, v in fields.items())
        label = a.get("value") or what
        return f"{who} declared {label}" + (f" ({detail})" if detail else "")

    def _value(self, value: Any) -> str:
        """A declaration's field: card handles become the card as this seat may know it."""
        if isinstance(value, str):
            obj = self.state.objs.get(value)
            return self.thing(value) if obj is not None and obj.kind == "card" else value
        if isinstance(value, (list, tuple)):
            return "[" + ", ".join(self._value(v) for v in value) + "]"
        return str(value)

    def _end(self, record: Record, who: str) -> str:
        a = record.op.args
        winners = " and ".join(self.seat_name(s) for s in a["winners"] if isinstance(s, int))
        how = a["how"]
        condition = f": {a['condition']}" if a.get("condition") else ""
        if how == "draw" or not winners:
            text = f"{who} ended the game ({how}{condition}), no winner"
        else:
            text = f"{who} ended the game: {winners} won ({how}{condition})"
        scores = a.get("scores") or {}
        if scores:
            text += "; scores " + ", ".join(
                f"{self.seat_name(int(k)) if str(k).isdigit() else k} {v}"
                for k, v in scores.items())
        standings = a.get("standings") or []
        if standings:
            text += "; standings " + ", ".join(
                f"{i}. {self.seat_name(s) if isinstance(s, int) else s}"
                for i, s in enumerate(standings, start=1))
        if a.get("text"):
            text += f" — {a['text']}"
        return text

    def _consume(self, record: Record, who: str) -> str:
        a = record.op.args
        why = a.get("why") or "move"
        dest = self.state.objs.get(a["to"])
        n_out = len(a["out"])
        if why == "create":
            return f"{who} put {n_out} card(s) face down into {self.place(a['to'])}"
        expect = a.get("expect") or [None] * len(a["in"])
        if why == "shuffle" and all(where == a["to"] for where in expect):
            return f"{who} shuffled {self.place(a['to'])}" + self._joint(a)
        if why == "receive":  # the re-handle after a gift: nobody can follow the card now
            return f"{who} took the gift into {self.place(a['to'])} (handles renewed)"
        # a void op may name fewer places than inputs: read as far as both go
        incoming = [cid for cid, where in zip(a["in"], expect, strict=False) if where != a["to"]]
        sources = {where for _cid, where in zip(a["in"], expect, strict=False) if where != a["to"]}
        src = ", ".join(sorted(self.place(s) for s in sources if s)) or "the table"
        may_see = dest is not None and (self.seat == ALL or (
            dest.owner == self.seat and dest.visibility == OWNER))
        names = [self._incoming_name(cid, may_see) for cid in incoming]
        if any(n is None for n in names) or not names:
            what = f"{len(incoming)} card(s)" if len(incoming) != 1 else "a card"
        else:
            what = ", ".join(self.card_name(n) for n in names if n)
        if why == "gift":
            return f"{who} gave {what} from {src} to {self.place(a['to'])}"
        verb = {"draw": "drew", "shuffle": "shuffled"}.get(why, "put")
        return f"{who} {verb} {what} from {src} into {self.place(a['to'])}"

    def _joint(self, args: dict[str, Any]) -> str:
        """How a roll or shuffle was drawn: jointly, and who was left out of it (a degraded
        draw: "joint except seat 3, who left"), or not said."""
        record = args.get("fair")
        if not isinstance(record, dict) or not isinstance(record.get("commits"), dict):
            return ""
        degraded = fair.degraded_text(record, lambda peer: sorted(self.state.seats_of(peer)))
        return f" ({degraded})" if degraded else f" (joint draw of {len(record['commits'])} peers)"

    def _incoming_name(self, handle: str, may_see: bool) -> str | None:
        obj = self.state.objs.get(handle)
        if obj is not None and obj.card is not None:
            return obj.card
        if may_see and self.knowledge is not None:
            return self.knowledge.card_of(handle)
        return None


def _tagged(a: dict[str, Any]) -> str:
    """A tag op's changes, as a line ("group Tuesday club; event Spring con; +solo")."""
    parts = [f"{key} {a[key]}" if a[key] else f"no {key}" for key in ("group", "event")
             if key in a]
    parts += [f"seat {seat}: {name or '(no name)'}"
              for seat, name in sorted((a.get("players") or {}).items())]
    parts += [f"+{t}" for t in a.get("add") or []] + [f"-{t}" for t in a.get("remove") or []]
    return "; ".join(parts)
