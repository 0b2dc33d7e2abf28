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
from . import opkinds, undoing
from .errors import BadOp, CoreError
from .objects import Obj
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
    cards = r.state.cards_in(zone)
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


def source_of(r: Replica, entry: dict[str, Any]) -> Obj | None:
    """The pile or card an entry takes from (its `from`/`pile`, or its card's zone), if live."""
    source = entry.get("from") or entry.get("pile")
    if source is None:
        selector = entry.get("card", entry.get("id"))
        if isinstance(selector, str) and ":" in selector:
            source = selector.partition(":")[0]
        elif isinstance(selector, dict):
            source = selector.get("zone")
        elif isinstance(selector, str):
            return r.state.live(selector)
    return r.state.live(str(source)) if source else None


def perform(r: Replica, entry: Any, namer: CardNamer | None = None) -> Op | None:
    """Perform one JSON op on a replica that plays the acting seat. Returns the last op issued."""
    if not isinstance(entry, dict):
        raise JsonOpError("each line must be a JSON object")
    kind = entry.get("op")
    seat = entry.get("seat")
    if seat is not None and type(seat) is not int:
        raise JsonOpError("'seat' must be a seat number")
    try:
        if kind in _ACTIONS:
            fields, action = _ACTIONS[kind]
            _only(entry, _KNOWN | fields)
            return action(r, entry, seat, namer)
        if kind in SCHEMAS:  # every raw op kind is writable as is
            args = {k: v for k, v in entry.items() if k not in _KNOWN}
            return r.issue(kind, args, seat=seat)
    except (act.ActionError, BadOp) as err:
        raise JsonOpError(str(err)) from None
    except (TypeError, ValueError) as err:
        raise JsonOpError(f"bad value: {err}") from None
    raise JsonOpError(f"unknown op {kind!r}")


# Fields every JSON op may carry; each action below names the others it takes.
_KNOWN = {"op", "seat", "after", "comment"}
_Action = Callable[[Replica, dict[str, Any], int | None, CardNamer | None], Op | None]


def _card(r: Replica, entry: dict[str, Any], seat: int | None, namer: CardNamer | None) -> str:
    return resolve_card(r, entry.get("card", entry.get("id")), seat, namer)


def _draw(r: Replica, e: dict[str, Any], seat: int | None, namer: CardNamer | None) -> Op | None:
    return act.draw(r, _req(e, "from"), _req(e, "to"), int(e.get("count", 1)),
                    seat=seat, face_up=e.get("face_up"))


def _move(r: Replica, e: dict[str, Any], seat: int | None, namer: CardNamer | None) -> Op | None:
    to = _req(e, "to")
    if isinstance(to, str) and ":" in to:  # onto a card ("p2.rites:Rite of Echoes")
        to = resolve_card(r, to, seat, namer)
    return act.move(r, _card(r, e, seat, namer), to, seat=seat,
                    **_take(e, "at", "pos", "face_up", "rot"))


def _move_all(r: Replica, e: dict[str, Any], seat: int | None,
              namer: CardNamer | None) -> Op | None:
    return act.move_all(r, _req(e, "from"), _req(e, "to"), shuffle=bool(e.get("shuffle", False)),
                        face_up=e.get("face_up"), seat=seat)


def _roll(r: Replica, e: dict[str, Any], seat: int | None, namer: CardNamer | None) -> Op | None:
    if "values" in e:  # a roll whose faces are given, as written in a log
        args = {"sides": int(e.get("sides", 6)), "values": e["values"], **_take(e, "id", "why")}
        return r.issue("roll", args, seat=seat)
    return act.roll(r, die_id=e.get("id"), sides=int(e.get("sides", 6)),
                    count=int(e.get("count", 1)), why=e.get("why"), seat=seat)


def _undo(r: Replica, e: dict[str, Any], seat: int | None, namer: CardNamer | None) -> Op | None:
    if "target" in e:
        return r.issue("undo", {"target": e["target"]}, seat=seat)
    return undoing.undo_last(r, seat=seat)


def _redo(r: Replica, e: dict[str, Any], seat: int | None, namer: CardNamer | None) -> Op | None:
    if "target" in e:
        return r.issue("redo", {"target": e["target"]}, seat=seat)
    return undoing.redo_last(r, seat=seat)


_ACTIONS: dict[str, tuple[set[str], _Action]] = {
    "draw": ({"from", "to", "count", "face_up"}, _draw),
    "move": ({"card", "id", "to", "at", "pos", "face_up", "rot"}, _move),
    "move_all": ({"from", "to", "shuffle", "face_up"}, _move_all),
    "shuffle": ({"pile"}, lambda r, e, seat, namer: act.shuffle(r, _req(e, "pile"), seat=seat)),
    "flip": ({"card", "id", "face_up"}, lambda r, e, seat, namer: act.flip(
        r, _card(r, e, seat, namer), e.get("face_up"), seat=seat)),
    "reveal": ({"card", "id", "face_up"}, lambda r, e, seat, namer: act.reveal(
        r, _card(r, e, seat, namer), face_up=e.get("face_up"), seat=seat)),
    "show": ({"card", "id", "to"}, lambda r, e, seat, namer: act.show(
        r, _card(r, e, seat, namer), int(_req(e, "to")), seat=seat)),
    "rotate": ({"card", "id", "degrees"}, lambda r, e, seat, namer: act.rotate(
        r, _card(r, e, seat, namer), int(_req(e, "degrees")), seat=seat)),
    "counter": ({"id", "key", "add", "value"}, lambda r, e, seat, namer: act.counter(
        r, _req(e, "id"), seat=seat, key=e.get("key", "value"), **_take(e, "add", "value"))),
    "roll": ({"id", "sides", "count", "values", "why"}, _roll),
    "undo": ({"target"}, _undo),
    "redo": ({"target"}, _redo),
    "end_turn": ({"for_seat", "first_phase"}, lambda r, e, seat, namer: act.pass_turn(
        r, int(_req(e, "for_seat")), first_phase=e.get("first_phase"), seat=seat)),
    "mark": ({"what", "value", "for_seat", "fields"}, lambda r, e, seat, namer: act.mark(
        r, _req(e, "what"), value=e.get("value"), for_seat=e.get("for_seat"),
        fields=e.get("fields"), seat=seat)),
}


def _req(entry: dict[str, Any], name: str) -> Any:
    if name not in entry:
        raise JsonOpError(f"{entry.get('op')}: missing {name!r}")
    return entry[name]


def _only(entry: dict[str, Any], allowed: set[str]) -> None:
    extra = set(entry) - allowed
    if extra:
        raise JsonOpError(f"{entry.get('op')}: unknown field(s) {sorted(extra)}")
