"""What an op did, in a player's words ("Ada moved Bram's Old Bridge from ... to ..."), for a
flag whose rule sentence names no player or leaves out a card it is about: the message then
starts with the op, so every message says who did what to which card, then the rule. Plugins
pass how they name a card and a place; players are named as the table names them."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from .api import OpContext

Namer = Callable[[str | None], str]  # an object (card, zone) -> words


def names_of(ctx: OpContext) -> dict[int, str]:
    """Each seat as the table calls it (its player's name; "Seat N" when it has none)."""
    return {n: name or f"Seat {n}" for n, name in ctx.view.seats.items()}


def who(ctx: OpContext, seat: object, names: Mapping[int, str] | None = None) -> str:
    """A seat as the table calls it (its player's name)."""
    if not isinstance(seat, int):
        return "someone"
    return (names if names is not None else names_of(ctx)).get(seat) or f"Seat {seat}"


def whose(ctx: OpContext, obj: str | None, name: Namer,
          names: Mapping[int, str] | None = None) -> str:
    """An object with its owner: "Bram's Old Bridge"."""
    owner = ctx.view.owner_of(obj) if obj else None
    return f"{who(ctx, owner, names)}'s {name(obj)}" if owner is not None else name(obj)


def place_of(ctx: OpContext, zone: str | None, names: Mapping[int, str] | None = None) -> str:
    """A zone as its label says, with its owner ("Ada's discard pile")."""
    if not zone:
        return "the table"
    head, _, kind = zone.partition(".")
    label = str(ctx.view.prop(zone, "name", kind or zone)).lower()
    return f"{who(ctx, int(head[1:]), names)}'s {label}" if head[1:].isdigit() and kind \
        else f"the {label}"


def said(ctx: OpContext, name: Namer, place: Namer | None = None,
         names: Mapping[int, str] | None = None) -> str:
    """The op being checked, as a sentence without its full stop."""
    names = names if names is not None else names_of(ctx)
    op, actor = ctx.op, who(ctx, ctx.seat, names)
    a = op.args
    where = place or (lambda zone: place_of(ctx, zone, names))
    if op.kind in ("move", "consume", "create", "delete"):
        moves = ctx.moves()
        if not moves:
            return f"{actor} moved a piece"
        obj, frm, to = next(((o, s, d) for o, s, d in moves if d is not None), moves[0])
        return f"{actor} moved {whose(ctx, obj, name, names)} from {where(frm)} to {where(to)}"
    if op.kind == "mark":
        what = a.get("what")
        if what == "declare":
            return f"{actor} declared {a.get('value')}"
        if what == "turn":
            return f"{actor} passed the turn to {who(ctx, a.get('seat'), names)}"
        return f"{actor} moved to {a.get('value')}"
    if op.kind == "counter":
        counter = ctx.view.prop(str(a.get("id")), "name", a.get("id"))
        owner = ctx.view.owner_of(str(a.get("id")))
        counter = f"{who(ctx, owner, names)}'s {counter}" if owner is not None else counter
        change = f"by {a['add']:+d}" if a.get("add") is not None else f"to {a.get('value')}"
        return f"{actor} changed {counter} {change}"
    if op.kind == "set":
        obj = str(a.get("id"))
        if a.get("field") == "rotation":
            return f"{actor} turned {whose(ctx, obj, name, names)}"
        if a.get("field") == "face_up":
            return f"{actor} turned {whose(ctx, obj, name, names)} face " \
                   f"{'up' if a.get('value') else 'down'}"
        return f"{actor} changed {whose(ctx, obj, name, names)}"
    if op.kind == "roll":
        return f"{actor} rolled {a.get('values')}"
    return f"{actor} made a {op.kind}"


def _seat_of_id(obj: str) -> int | None:
    head = obj.partition(".")[0]
    return int(head[1:]) if obj[:1] == "p" and head[1:].isdigit() and "." in obj else None


def unnamed(ctx: OpContext, message: str, objects: Sequence[str], name: Namer,
            names: Mapping[int, str] | None = None) -> list[str]:
    """The cards (with their owners) and players among `objects` the message leaves out: a
    seat's zone, counter or token is about that player."""
    names = names if names is not None else names_of(ctx)
    out: list[str] = []
    for obj in objects:
        seat = _seat_of_id(obj)
        if ctx.view.raw_field(obj, "kind") == "card":  # a re-handled card's old id too
            owner = ctx.view.owner_of(obj)
            if name(obj) not in message or (owner is not None
                                            and who(ctx, owner, names) not in message):
                out.append(whose(ctx, obj, name, names))
        elif seat is not None and who(ctx, seat, names) not in message:
            out.append(who(ctx, seat, names))
    return list(dict.fromkeys(out))


def names_all(ctx: OpContext, message: str, objects: Sequence[str], name: Namer,
              names: Mapping[int, str] | None = None) -> bool:
    """Whether the message names a player, and each card and player among `objects`."""
    names = names if names is not None else names_of(ctx)
    if not any(n in message for n in names.values()):
        return False
    return not unnamed(ctx, message, objects, name, names)


def worded(ctx: OpContext, message: str, objects: Sequence[str], name: Namer,
           place: Namer | None = None, names: Mapping[int, str] | None = None) -> str:
    """The message as it is when it names its players and cards; else the op's own words
    first ("Ada moved Bram's Old Bridge from ... to ...: <the rule>"), and the cards and
    players it is about that are still unnamed after it, in brackets. `names`: the seats'
    names, when the caller holds them."""
    names = names if names is not None else names_of(ctx)
    if names_all(ctx, message, objects, name, names):
        return message
    text = f"{said(ctx, name, place, names)}: {message}"
    extra = unnamed(ctx, text, objects, name, names)
    return f"{text} ({', '.join(extra)})" if extra else text
