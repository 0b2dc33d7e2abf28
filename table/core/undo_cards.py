"""The cards of an action that crossed a hidden zone's edge, found as they are now by what this
peer's software knows, and the fresh handles that re-hide a zone: the `in`, `out` and `reveal`
of an undo or a redo (table.core.undo_crossing folds them).

A card is found by its identity, never by an old handle: a hand or a deck is re-handled whenever
a card enters it, so the draw's cards are "a Scout and a Militia in your hand", whatever their
handles are now. Among equal cards in a pile the one nearest its old place is taken.
"""
from __future__ import annotations

from typing import Any

from .actions import ActionError, _commit_outputs
from .objects import PUBLIC, Obj
from .replica import Replica
from .timeline import Record
from .undo_crossing import Crossing
from .undo_words import Namer, cap, place, seat_name, thing

Args = dict[str, Any]
Private = dict[str, Any] | None


def identity(r: Replica, handle: str) -> str | None:
    obj = r.state.objs.get(handle)
    if obj is not None and obj.card is not None:
        return obj.card
    return r.knowledge.card_of(handle)


def _is_pile(zone: Obj) -> bool:
    return zone.kind == "pile" or zone.props.get("kind") == "pile"


def _names(r: Replica, handles: list[str] | tuple[str, ...]) -> list[str]:
    names = [identity(r, h) for h in handles]
    if None in names:
        raise ActionError("only their owner's software knows those cards")
    return [n for n in names if n is not None]


def _find(r: Replica, zone_id: str, names: list[str], near: list[int]) -> list[str] | None:
    """The cards named `names` in the zone, each the unused one nearest its index in `near`;
    None when one is not there."""
    cards = r.state.cards_in(zone_id)
    ids = [identity(r, c) for c in cards]
    used: set[int] = set()
    found: list[str] = []
    for name, at in zip(names, near, strict=True):
        spots = [i for i, card in enumerate(ids) if card == name and i not in used]
        if not spots:
            return None
        best = min(spots, key=lambda i: abs(i - at))
        used.add(best)
        found.append(cards[best])
    return found


def _mine(r: Replica, zone_id: str) -> None:
    zone = r.state.objs.get(zone_id)
    owner = zone.owner if zone is not None else None
    held = r.state.seats.get(owner) if owner is not None else None
    if held is not None and held.peer != r.peer_id:
        raise ActionError(f"only {seat_name(r, owner)} can put cards into or take them from "
                          f"{place(r, zone_id)}")


def _rehidden(r: Replica, zone_id: str, back: list[tuple[str, int]]) -> tuple[list[Any], Args]:
    """Fresh committed handles for the whole hidden zone once the cards `back` (name, the
    index they were taken from, in the order taken) are in it: a pile in its order with them
    at their places, a hand in a new random order (so old and new handles cannot be linked)."""
    zone = r.state.objs[zone_id]
    _mine(r, zone_id)
    names = _names(r, r.state.cards_in(zone))
    if _is_pile(zone):
        for name, index in reversed(back):  # the last taken goes back first: the old order
            names.insert(min(index, len(names)), name)
    else:
        names = r.rng.shuffled([*names, *(name for name, _ in back)])
    return _commit_outputs(r, names)


def _shuffled_since(r: Replica, rec: Record, zone_id: str) -> bool:
    records = r.records()
    for i in range(len(records) - 1, -1, -1):
        later = records[i]
        if later is rec:
            return False
        op = later.op
        if later.void is None and op.kind == "consume" and op.args.get("why") == "shuffle" \
                and op.args.get("to") == zone_id:
            return True
    return False


def undo_args(r: Replica, rec: Record, x: Crossing, namer: Namer | None = None
              ) -> tuple[Args, Private]:
    """`in`, `out` and `reveal` of the undo of `x` (raises ActionError, in a player's words,
    when the cards cannot go back)."""
    seat = rec.op.seat
    hidden = [i for i, s in enumerate(x.sources) if r.state.objs[s].visibility != PUBLIC]
    for i in hidden[:1]:
        zone = r.state.objs[x.sources[i]]
        if _is_pile(zone) and _shuffled_since(r, rec, zone.id):
            raise ActionError(f"{cap(place(r, zone.id, seat))} has been shuffled since, "
                              f"so the cards cannot go back where they were")
    if not x.into:
        card = r.state.objs[x.cards[0]]
        if not card.alive or card.container != x.dest:
            raise ActionError(f"{cap(thing(r, card.id, namer))} has been moved from "
                              f"{place(r, x.dest, seat)} since")
        out, secrets = _rehidden(r, x.sources[0], [(_names(r, x.cards)[0], x.indexes[0])])
        return {"in": [card.id], "out": out}, secrets
    _mine(r, x.dest)
    names = _names(r, x.cards)
    handles = _find(r, x.dest, names, _placed_at(r, x))
    if handles is None:
        gone = "The card is not" if len(names) == 1 else "The cards are not all"
        raise ActionError(f"{gone} in {place(r, x.dest, seat)} any more")
    args: Args = {"in": handles}
    reveal = [[names[i], r.knowledge.salt_of(h)]
              if i not in hidden and r.state.objs[x.cards[i]].card is not None else None
              for i, h in enumerate(handles)]
    if any(v is not None for v in reveal):
        args["reveal"] = reveal
    private: Private = None
    if hidden:
        back = [(names[i], x.indexes[i]) for i in hidden]
        args["out"], private = _rehidden(r, x.sources[hidden[0]], back)
    return args, private


def _placed_at(r: Replica, x: Crossing) -> list[int]:
    """Where in its destination the action put each card (a pile's block of newcomers)."""
    a = x.action.args
    kept = [h for h, where in zip(a["in"], a.get("expect") or [None] * len(a["in"]),
                                  strict=True) if where == x.dest]
    out = [identity(r, h) for h, _ in a["out"]]
    kept_names = [identity(r, h) for h in kept]
    k = len(x.cards)
    start = next((i for i in range(len(kept_names) + 1)
                  if out[:i] == kept_names[:i] and out[i + k:] == kept_names[i:]), len(kept))
    return [start + j for j in range(k)]


def redo_args(r: Replica, undo: Record, x: Crossing, namer: Namer | None = None
              ) -> tuple[Args, Private]:
    """`in`, `out` and `reveal` of the redo of `undo` (the undo of `x`)."""
    seat = x.action.seat
    names = _names(r, x.cards)
    if not x.into:
        back = r.state.objs[x.cards[0]]
        if back.alive:
            raise ActionError(f"{cap(thing(r, back.id, namer))} is already back")
        found = _find(r, x.sources[0], names, list(x.indexes))
        if found is None:
            raise ActionError(f"The card is not in {place(r, x.sources[0], seat)} any more")
        args: Args = {"in": found}
        if back.card is not None:  # a known card: show that the one leaving is that card
            args["reveal"] = [[back.card, r.knowledge.salt_of(found[0])]]
        return args, None
    handles: dict[int, str] = {}
    for source in dict.fromkeys(x.sources):
        mine = [i for i, s in enumerate(x.sources) if s == source]
        if r.state.objs[source].visibility == PUBLIC:  # back under their own handles
            for i in mine:
                card = r.state.objs[x.cards[i]]
                if not card.alive or card.container != source:
                    raise ActionError(f"{cap(thing(r, card.id, namer))} has been "
                                      f"moved from {place(r, source, seat)} since")
                handles[i] = card.id
            continue
        found = _find(r, source, [names[i] for i in mine], [x.indexes[i] for i in mine])
        if found is None:
            raise ActionError(f"The cards are not all in {place(r, source, seat)} any more")
        handles.update(zip(mine, found, strict=True))
    out, private = _taken_in(r, x, names)
    return {"in": [handles[i] for i in range(len(x.cards))], "out": out}, private


def _taken_in(r: Replica, x: Crossing, names: list[str]) -> tuple[list[Any], Args]:
    """Fresh handles for the destination once the cards are in it again, as the action left
    it: a pile with them as one block at the same place, a hand in a new random order."""
    zone = r.state.objs[x.dest]
    _mine(r, x.dest)
    kept = _names(r, r.state.cards_in(zone))
    if _is_pile(zone):
        start = min(_placed_at(r, x)[0], len(kept))
        order = [*kept[:start], *names, *kept[start:]]
    else:
        order = r.rng.shuffled([*kept, *names])
    return _commit_outputs(r, order)
