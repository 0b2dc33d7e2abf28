"""How the table-wide records change: turn and phase marks, the game's result, the module in
effect, each seat's deck list, acknowledged flags, and notes and chat (which change nothing).
The handlers of the objects on the table are in table.core.apply; table.core.opkinds names
each kind's handler.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .apply import END_HOWS, Lookup, require_authority
from .errors import Void
from .state import State

if TYPE_CHECKING:
    from .opdata import Op


def apply_mark(state: State, op: Op, lookup: Lookup) -> None:
    a = op.args
    what = a["what"]
    if what == "turn":
        seat = a.get("seat")
        if seat is None:
            raise Void("a turn marker names the active seat")
        number = a.get("value")  # a position starts at a given turn; else the next one
        if type(number) is not int or number < 1:
            number = state.turn["number"] + 1
        state.set_global("turn", {"seat": seat, "number": number})
        state.set_global("phase", None)
    elif what in ("phase", "step"):
        value = a.get("value")
        if value is not None and not isinstance(value, str):
            raise Void("a phase marker's value is the phase name")
        state.set_global("phase", value)
    # declarations, setup and winner live in the history; the assist reads them there


def apply_end(state: State, op: Op, lookup: Lookup) -> None:
    """The game's result. A later `end` replaces an earlier one (a correction); undo restores
    the one before."""
    a = op.args
    if a["how"] not in END_HOWS:
        raise Void(f"an end op's 'how' is one of {', '.join(END_HOWS)}, not {a['how']!r}")
    winners = a["winners"]
    for seat in winners:
        if type(seat) is not int or seat not in state.seats:
            raise Void(f"winner {seat!r} is not a seat at this table")
    if a["how"] == "victory" and not winners:
        raise Void("a victory names its winner(s)")
    scores = a.get("scores") or {}
    for key, value in scores.items():
        if not (isinstance(key, str) and key.isdigit() and int(key) in state.seats) or \
                type(value) not in (int, float):
            raise Void(f"score {key!r}: {value!r} is not 'seat number': points")
    standings = a.get("standings") or []
    if any(type(s) is not int or s not in state.seats for s in standings) or \
            len(set(standings)) != len(standings):
        raise Void("standings list each seat at most once")
    state.set_global("result", {"winners": list(winners), "how": a["how"],
                                "condition": a.get("condition"), "scores": dict(scores),
                                "standings": list(standings), "text": a.get("text"),
                                "seat": op.seat})


def apply_nothing(state: State, op: Op, lookup: Lookup) -> None:
    """Notes and chat change nothing on the table; the timeline keeps them."""


def apply_ack(state: State, op: Op, lookup: Lookup) -> None:
    state.set_ack(op.args["flag"], op.args["reason"])


def apply_module(state: State, op: Op, lookup: Lookup) -> None:
    digest = op.args["hash"]
    if len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
        raise Void("a module op names its module by its sha256 (64 hex digits)")
    state.set_global("module", {k: op.args[k] for k in ("hash", "game", "version", "name")
                                if k in op.args})


def apply_deck(state: State, op: Op, lookup: Lookup) -> None:
    seat = op.args["seat"]
    require_authority(state, op, seat, "record its deck")
    decks = dict(state.decks)
    decks[seat] = {k: op.args[k] for k in ("name", "fields", "hash") if k in op.args}
    state.set_global("decks", decks)


def apply_tag(state: State, op: Op, lookup: Lookup) -> None:
    """What the session is (`tag` op): its playtest group, event, the people at its seats and
    free tags. Each op changes only what it names; the latest in canonical order wins."""
    a = op.args
    tags = dict(state.tags)
    for key in ("group", "event"):
        if key in a:
            value = a[key]
            if value:
                tags[key] = value.strip()
            else:
                tags.pop(key, None)
    free = set(tags.get("tags", ()))
    for key in ("add", "remove"):
        items = a.get(key) or []
        if any(not isinstance(t, str) or not t.strip() for t in items):
            raise Void(f"a tag op's '{key}' lists tags as text")
    free |= {t.strip() for t in a.get("add") or []}
    free -= {t.strip() for t in a.get("remove") or []}
    if free:
        tags["tags"] = sorted(free)
    else:
        tags.pop("tags", None)
    players = a.get("players")
    if players is not None:
        if any(not (isinstance(k, str) and k.isdigit()) or not isinstance(v, str)
               for k, v in players.items()):
            raise Void("a tag op's 'players' maps a seat number (as text) to a name")
        named = dict(tags.get("players") or {})
        for seat, name in players.items():
            if name.strip():
                named[seat] = name.strip()
            else:
                named.pop(seat, None)
        if named:
            tags["players"] = named
        else:
            tags.pop("players", None)
    state.set_global("tags", tags)
