"""The hand-writable JSON form of ops: scenarios, bug reports, scripts and tests.

One JSON object per line. Objects are named by their stable readable ids (`p2.hand`, `altar`,
`p1.favor`); a card by its handle or by a selector: "ZONE:Card Name", "ZONE:top", "ZONE:bottom",
"ZONE:#3" (0 = bottom), or {"zone": ..., "name": ...} / {"zone": ..., "pos": "top"}. A selector
only finds cards the acting seat may know by name. docs/ops.md lists every form.

    {"seat": 1, "op": "draw", "from": "p1.deck", "to": "p1.hand", "count": 2}
    {"seat": 1, "op": "move", "card": "p1.hand:Iron Wall", "to": "p1.play", "face_up": true}
    {"seat": 2, "op": "counter", "id": "p2.favor", "add": 1}
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import actions as act
from . import opkinds
from .errors import BadOp, CoreError
from .ops import SCHEMAS, Op
from .replica import Replica
from .views import known_card


# What a peer may ask the owner of a hidden pile to do for it (performed as the owner's seat):
# draws and shuffles of that pile, and the op kinds the registry marks requestable
REQUESTABLE = frozenset({"draw", "shuffle"}) | opkinds.REQUESTABLE


class JsonOpError(CoreError):
    """A JSON op cannot be understood or performed; the caller adds file and line."""


CardNamer = Callable[[str], str]  # card id -> display name


def _card_matches(card: str | None, wanted: str, namer: CardNamer | None) -> bool:
    if card is None:
        return False
    if card == wanted:
        return True
    return namer is not None and namer(card).casefold() == wanted.casefold()


def resolve_card(r: Replica, selector: Any, seat: int | None,
                 namer: CardNamer | None = None) -> str:
    """The object id a selector names, from the point of view of `seat`."""
    if isinstance(selector, str) and ":" not in selector:
        if r.state.live(selector) is None:
            raise JsonOpError(f"no object {selector!r} on the table")
        return selector
    if isinstance(selector, str):
        zone_id, _, what = selector.partition(":")
        spec: dict[str, Any] = {"zone": zone_id}
        if what in ("top", "bottom"):
            spec["pos"] = what
        elif what.startswith("#") and what[1:].lstrip("-").isdigit():
            spec["pos"] = int(what[1:])
        else:
            spec["name"] = what
    elif isinstance(selector, dict):
        spec = selector
    else:
        raise JsonOpError(f"cannot read card selector {selector!r}")
    zone = r.state.live(str(spec.get("zone", "")))
    if zone is None:
        raise JsonOpError(f"no zone {spec.get('zone')!r} on the table")
    cards = [c for c in zone.children if r.state.objs[c].kind == "card"]
    if "pos" in spec:
        if not cards:
            raise JsonOpError(f"{zone.id} is empty")
        pos = spec["pos"]
        if pos == "top":
            return cards[-1]
        if pos == "bottom":
            return cards[0]
        if isinstance(pos, int) and -len(cards) <= pos < len(cards):
            return cards[pos]
        raise JsonOpError(f"{zone.id} has no card at position {pos!r}")
    if "name" in spec:
        viewer = seat if seat is not None else -1
        for card_id in reversed(cards):
            if _card_matches(known_card(r.state, r.knowledge, r.state.objs[card_id], viewer),
                             str(spec["name"]), namer):
                return card_id
        raise JsonOpError(f"no card named {spec['name']!r} that seat {seat} can see in {zone.id}")
    raise JsonOpError(f"a card selector needs 'pos' or 'name': {selector!r}")


def _take(entry: dict[str, Any], *names: str) -> dict[str, Any]:
    return {n: entry[n] for n in names if n in entry}


def perform(r: Replica, entry: Any, namer: CardNamer | None = None) -> Op | None:
    """Perform one JSON op on a replica that plays the acting seat. Returns the last op issued."""
    if not isinstance(entry, dict):
        raise JsonOpError("each line must be a JSON object")
    kind = entry.get("op")
    seat = entry.get("seat")
    if seat is not None and type(seat) is not int:
        raise JsonOpError("'seat' must be a seat number")
    known = {"op", "seat", "after", "comment"}
    try:
        if kind == "draw":
            _only(entry, known | {"from", "to", "count", "face_up"})
            return act.draw(r, _req(entry, "from"), _req(entry, "to"), int(entry.get("count", 1)),
                            seat=seat, face_up=entry.get("face_up"))
        if kind == "move":
            _only(entry, known | {"card", "id", "to", "at", "pos", "face_up", "rot"})
            target = resolve_card(r, entry.get("card", entry.get("id")), seat, namer)
            return act.move(r, target, _req(entry, "to"), seat=seat,
                            **_take(entry, "at", "pos", "face_up", "rot"))
        if kind == "move_all":
            _only(entry, known | {"from", "to", "shuffle", "face_up"})
            return act.move_all(r, _req(entry, "from"), _req(entry, "to"),
                                shuffle=bool(entry.get("shuffle", False)),
                                face_up=entry.get("face_up"), seat=seat)
        if kind == "shuffle":
            _only(entry, known | {"pile"})
            return act.shuffle(r, _req(entry, "pile"), seat=seat)
        if kind == "flip":
            _only(entry, known | {"card", "id", "face_up"})
            target = resolve_card(r, entry.get("card", entry.get("id")), seat, namer)
            return act.flip(r, target, entry.get("face_up"), seat=seat)
        if kind == "reveal":
            _only(entry, known | {"card", "id", "face_up"})
            target = resolve_card(r, entry.get("card", entry.get("id")), seat, namer)
            return act.reveal(r, target, face_up=entry.get("face_up"), seat=seat)
        if kind == "show":
            _only(entry, known | {"card", "id", "to"})
            target = resolve_card(r, entry.get("card", entry.get("id")), seat, namer)
            return act.show(r, target, int(_req(entry, "to")), seat=seat)
        if kind == "rotate":
            _only(entry, known | {"card", "id", "degrees"})
            target = resolve_card(r, entry.get("card", entry.get("id")), seat, namer)
            return act.rotate(r, target, int(_req(entry, "degrees")), seat=seat)
        if kind == "counter":
            _only(entry, known | {"id", "key", "add", "value"})
            return act.counter(r, _req(entry, "id"), seat=seat, key=entry.get("key", "value"),
                               **_take(entry, "add", "value"))
        if kind == "roll":
            _only(entry, known | {"id", "sides", "count", "values", "why"})
            if "values" in entry:
                args = {"sides": int(entry.get("sides", 6)), "values": entry["values"],
                        **_take(entry, "id", "why")}
                return r.issue("roll", args, seat=seat)
            return act.roll(r, die_id=entry.get("id"), sides=int(entry.get("sides", 6)),
                            count=int(entry.get("count", 1)), why=entry.get("why"), seat=seat)
        if kind == "undo":
            _only(entry, known | {"target"})
            if "target" in entry:
                return r.issue("undo", {"target": entry["target"]}, seat=seat)
            return act.undo_last(r, seat=seat)
        if kind == "mark":
            _only(entry, known | {"what", "value", "for_seat", "fields"})
            return act.mark(r, _req(entry, "what"), value=entry.get("value"),
                            for_seat=entry.get("for_seat"), fields=entry.get("fields"), seat=seat)
        if kind in SCHEMAS:  # every raw op kind is writable as is
            args = {k: v for k, v in entry.items() if k not in known}
            return r.issue(kind, args, seat=seat)
    except (act.ActionError, BadOp) as err:
        raise JsonOpError(str(err)) from None
    except (TypeError, ValueError) as err:
        raise JsonOpError(f"bad value: {err}") from None
    raise JsonOpError(f"unknown op {kind!r}")


def _req(entry: dict[str, Any], name: str) -> Any:
    if name not in entry:
        raise JsonOpError(f"{entry.get('op')}: missing {name!r}")
    return entry[name]


def _only(entry: dict[str, Any], allowed: set[str]) -> None:
    extra = set(entry) - allowed
    if extra:
        raise JsonOpError(f"{entry.get('op')}: unknown field(s) {sorted(extra)}")
