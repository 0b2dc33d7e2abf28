"""Undo and redo in a player's words: what an action was ("the draw of 2 cards", "turning
Scout face up"), and why it cannot be taken back ("The roll (4) stays: dice once rolled are not
rolled back."). Never a handle, never an op number: a card is named only where everyone may
know it (a card still hidden is "a card"), a zone by its name and its seat.
"""
from __future__ import annotations

from collections.abc import Callable

from .objects import PUBLIC, ROOT
from .opkinds import UNDOABLE
from .ops import Op
from .replica import Replica
from .timeline import Record
from .undo_crossing import Crossing, crossing

Namer = Callable[[str], str]


def _plain(card: str) -> str:
    return card


def crossing_of(r: Replica, rec: Record) -> Crossing | None:
    """The hidden zone's edge the recorded action took cards across, if any."""
    return None if rec.void is not None else crossing(r.state, rec.op, rec.journal)


def seat_name(r: Replica, seat: int | None) -> str:
    held = r.state.seats.get(seat) if seat is not None else None
    if held is not None and held.name:
        return held.name
    return f"seat {seat}" if seat is not None else "another player"


def place(r: Replica, zone_id: str | None, seat: int | None = None) -> str:
    """A zone as the player names it: "your Hand", "Bob's Discard Pile", "the Altar"."""
    zone = r.state.objs.get(zone_id or ROOT)
    if zone is None or zone.id == ROOT:
        return "the table"
    name = str(zone.props.get("name") or "a zone")
    owner = zone.props.get("seat", zone.owner)
    if not isinstance(owner, int):
        return f"the {name}" if not name.startswith(("a ", "the ")) else name
    if owner == seat or (seat is None and owner in r.my_seats):
        return f"your {name}"
    return f"{seat_name(r, owner)}'s {name}"


def thing(r: Replica, obj_id: str, namer: Namer | None = None) -> str:
    """A piece by its name; a card by its name only when it is public."""
    obj = r.state.objs.get(obj_id)
    if obj is None:
        return "a piece"
    if obj.kind != "card":
        return str(obj.props.get("name") or f"a {obj.kind}")
    return (namer or _plain)(obj.card) if obj.card is not None else "a card"


def cap(text: str) -> str:
    """The sentence's first letter in capitals (the rest as it is: "Your P1 deck")."""
    return text[:1].upper() + text[1:]


def _cards(n: int) -> str:
    return "a card" if n == 1 else f"{n} cards"


def what(r: Replica, rec: Record, namer: Namer | None = None) -> str:
    """The recorded action as a player names it (a noun phrase)."""
    op, a, seat = rec.op, rec.op.args, rec.op.seat
    x = crossing_of(r, rec)
    if x is not None:
        if not x.into:
            return f"playing {thing(r, x.cards[0], namer)} from {place(r, x.sources[0], seat)}"
        if a.get("why") == "draw":
            return f"the draw of {_cards(len(x.cards))} from {place(r, x.sources[0], seat)}"
        names = [thing(r, c, namer) for c in x.cards]
        shown = names[0] if len(names) == 1 else _cards(len(names))
        return f"putting {shown} into {place(r, x.dest, seat)}"
    if op.kind == "move":
        return f"moving {thing(r, a['id'], namer)} to {place(r, a['to'], seat)}"
    if op.kind == "set":
        return _what_set(r, op, namer)
    if op.kind == "counter":
        change = f"{a['add']:+d}" if a.get("add") is not None else f"set to {a.get('value')}"
        key = a.get("key") or "value"
        label = thing(r, a["id"], namer) + ("" if key == "value" else f" {key}")
        return f"the change to {label} ({change})"
    if op.kind == "mark":
        return _what_mark(op)
    if op.kind == "consume":
        return (f"the shuffle of {place(r, a['to'], seat)}" if a.get("why") == "shuffle"
                else f"the cards put into {place(r, a['to'], seat)}")
    words = {"create": f"adding {thing(r, str(a.get('id')), namer)}",
             "delete": f"removing {thing(r, str(a.get('id')), namer)}",
             "end": "the game's result", "roll": "the roll", "module": "the module change",
             "deck": "the deck choice", "undo": "an undo",
             "redo": "a redo"}
    if op.kind == "reveal":
        return f"showing {thing(r, a['id'], namer)} to everyone"
    return words.get(op.kind, f"a {op.kind}")


def _what_set(r: Replica, op: Op, namer: Namer | None) -> str:
    a = op.args
    name = thing(r, a["id"], namer)
    field = a["field"]
    if field == "face_up":
        return f"turning {name} face {'up' if a['value'] else 'down'}"
    if field == "rotation":
        return f"turning {name}"
    if field == "pos":
        return f"moving {name}"
    return f"changing {name}"


def _what_mark(op: Op) -> str:
    a = op.args
    kind, value = a.get("what"), a.get("value")
    if kind == "turn":
        return "passing the turn"
    if kind in ("phase", "step"):
        return f"moving to the {value} {kind}"
    if kind == "declare":
        return f"declaring {value}"
    if kind == "setup":
        return "ticking off a setup step"
    return "the winner"


def fixed(r: Replica, rec: Record, namer: Namer | None = None) -> str | None:
    """Why the recorded action truly cannot be taken back, as a sentence; None when it can be.
    (What can be undone: the kinds the op registry marks undoable, and an action that took
    cards across a hidden zone's edge this peer may put back.)"""
    op, a = rec.op, rec.op.args
    if op.kind == "roll":
        values = ", ".join(str(v) for v in a.get("values") or [])
        return f"The roll ({values}) stays: dice once rolled are not rolled back."
    if op.kind == "reveal":
        return f"{thing(r, a['id'], namer)} has been shown to everyone: a card seen stays seen."
    if op.kind == "consume":
        return _fixed_consume(r, rec)
    if op.kind == "module":
        return "The module change stays: load the earlier draft to go back."
    if op.kind not in UNDOABLE:
        text = what(r, rec, namer)
        return f"{cap(text)} stays."
    return None


def _fixed_consume(r: Replica, rec: Record) -> str | None:
    a, seat = rec.op.args, rec.op.seat
    if a.get("why") == "shuffle":
        return (f"The shuffle of {place(r, a['to'], seat)} stays: "
                f"its new order cannot be taken back.")
    x = crossing_of(r, rec)
    if x is None:
        return f"The new cards in {place(r, a['to'], seat)} stay: remove them by hand."
    dest = r.state.objs.get(x.dest)
    owner = dest.owner if dest is not None else None
    holder = r.state.seats.get(owner) if owner is not None else None
    if a.get("why") == "gift" or (holder is not None and holder.peer != r.peer_id):
        them = "it" if len(x.cards) == 1 else "them"
        return (f"{cap(_cards(len(x.cards)))} you gave went into "
                f"{place(r, x.dest, seat)}: only {seat_name(r, owner)} can hand {them} back.")
    source_owners = {r.state.objs[s].owner for s in x.sources
                     if s in r.state.objs and r.state.objs[s].visibility != PUBLIC}
    for owner in source_owners:
        held = r.state.seats.get(owner) if owner is not None else None
        if held is not None and held.peer != r.peer_id:
            return (f"The cards came from {seat_name(r, owner)}'s hidden cards: only "
                    f"{seat_name(r, owner)} can put them back.")
    return None
