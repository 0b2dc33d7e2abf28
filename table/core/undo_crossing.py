"""Undo and redo of an action that took cards across the edge of a hidden zone: a draw, a card
played from a hand or a deck, a card put into a hand or onto a deck.

Such an action is not taken back by restoring what it wrote: a card entering a hidden zone is
re-handled with the whole zone, so the cards it moved have new handles now (and every later undo
or redo gives them new ones again). So the undo and the redo name the cards as they are now
(`in`, found by the owner's software from what it knows: table.core.undo_cards), and the fold
moves them through the checks of a consume, at the op's canonical place like any op:

* cards that went INTO a hidden zone (the consume of a draw, of a card put into a hand or onto a
  deck) go back where they came from. Into a hidden zone they are re-hidden there with fresh
  handles (`out`: the whole zone once they are back, a pile in its order with the cards at their
  places, a hand in a new random order). Onto a public place they come back under the handle
  they had there, as they were (place, face, rotation, counters), a known card only once its
  owner has shown (`reveal`) that the card leaving the hidden zone is that card. The redo takes
  them in again as the action did: the zone re-handled with fresh handles (`out`).
* a card that came OUT of a hidden zone (a move from a hand or a deck) goes back in, re-hidden
  with the zone (`out`); the redo takes it out again (`in`: its handle in the zone now, shown to
  be the card when the table knew it) and brings back the handle it had on the table.

Only the zone owner's peer can do either (the consume's own rule); an op whose cards have moved
on since is void, and does nothing.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .apply import Lookup, apply_consume, check_reveal, require_authority
from .errors import Void
from .journal import Journal
from .objects import PUBLIC, Obj
from .opdata import Op
from .state import State


@dataclass(frozen=True, slots=True)
class Crossing:
    """An action that took cards across the edge of a hidden zone, read from its journal."""

    action: Op
    into: bool  # True: cards went into the hidden zone `dest` (a consume); False: one card
    # came out of a hidden zone to `dest` (a move), keeping its handle
    cards: tuple[str, ...]  # the handles the action took, in its order
    sources: tuple[str, ...]  # the container each came from
    indexes: tuple[int, ...]  # its index there as it was taken (put back in reverse order)
    dest: str


def crossing(state: State, op: Op, journal: Journal) -> Crossing | None:
    """The crossing `op` made (its journal says where its cards were), or None: it took no
    card across a hidden zone's edge (a shuffle re-handles in place: its order stands)."""
    args = op.args
    if op.kind == "move":
        moved = args.get("id")
        for entry in journal.entries:
            if entry[0] == "rm" and entry[3] == moved:
                obj = state.objs.get(moved)
                if obj is None or obj.kind != "card" or entry[1].visibility == PUBLIC:
                    return None
                return Crossing(op, False, (moved,), (entry[1].id,), (entry[2],), str(args["to"]))
        return None
    if op.kind != "consume" or args.get("why") == "shuffle":
        return None
    dest = state.objs.get(args["to"])
    if dest is None or dest.visibility == PUBLIC:
        return None
    taken = [(e[3], e[1].id, e[2]) for e in journal.entries if e[0] == "rm" and e[1].id != dest.id]
    if not taken:
        return None
    return Crossing(op, True, tuple(t[0] for t in taken), tuple(t[1] for t in taken),
                    tuple(t[2] for t in taken), dest.id)


def undo_crossing(state: State, op: Op, x: Crossing, lookup: Lookup) -> None:
    """Put the cards `x` took back where they came from (see the module's docstring)."""
    handles = _handles(op, len(x.cards))
    reveals = _reveals(op, len(x.cards))
    if not x.into:
        _rehide(state, op, handles, x.dest, x.sources[0], lookup)
        return
    hidden = [i for i in range(len(x.cards)) if _zone(state, x.sources[i]).visibility != PUBLIC]
    for i in reversed(range(len(x.cards))):  # the last taken goes back first: the old order
        if i not in hidden:
            _revive(state, op, handles[i], x.cards[i], x.dest, x.sources[i], x.indexes[i],
                    reveals[i])
    if hidden:
        zones = {x.sources[i] for i in hidden}
        if len(zones) != 1:
            raise Void("the cards came from several hidden zones: they go back one zone at a time")
        _rehide(state, op, [handles[i] for i in hidden], x.dest, zones.pop(), lookup)


def redo_crossing(state: State, op: Op, x: Crossing, undo_journal: Journal,
                  lookup: Lookup) -> None:
    """Take the cards across again, as `x` did, from where its undo put them."""
    handles = _handles(op, len(x.cards))
    if x.into:
        args = x.action.args
        dest = _zone(state, x.dest)
        kept = state.cards_in(dest)
        _consume(state, op, lookup, {
            "in": [*handles, *kept], "expect": [*x.sources, *[dest.id] * len(kept)],
            "to": dest.id, "at": "bottom", "out": _out(op, len(handles) + len(kept), dest),
            "owner": args.get("owner", dest.owner), "face_up": bool(args.get("face_up", False))})
        return
    (card,), (source,) = x.cards, x.sources
    back = state.objs[card]
    if back.alive:
        raise Void("the card is already back where it was played")
    into = _zone(state, x.dest)
    # where the undo took it from, so the place's order comes back too
    index = next((e[2] for e in undo_journal.entries if e[0] == "rm" and e[3] == card),
                 len(into.children))
    _take_out(state, op, handles[0], source, back, _reveals(op, 1)[0])
    state.set_field(back, "alive", True)
    state.set_field(back, "container", into.id)
    state.insert_child(into, back, min(index, len(into.children)))
    moved = x.action.args  # as the move left it (an older undo, `out` alone, restored these)
    if moved.get("face_up") is not None:
        state.set_field(back, "face_up", moved["face_up"])
    if moved.get("rot") is not None:
        state.set_field(back, "rotation", moved["rot"] % 360)
    if moved.get("pos") is not None:
        state.set_field(back, "pos", tuple(moved["pos"]))


def _handles(op: Op, count: int) -> list[str]:
    handles = op.args["in"]
    if len(handles) != count or not all(isinstance(h, str) for h in handles) \
            or len(set(handles)) != count:
        raise Void(f"{op.kind}: 'in' names the {count} card(s) the action moved, once each")
    return list(handles)


def _reveals(op: Op, count: int) -> list[Any]:
    reveals = op.args.get("reveal") or [None] * count
    if len(reveals) != count or not all(
            r is None or (isinstance(r, (list, tuple)) and len(r) == 2) for r in reveals):
        raise Void(f"{op.kind}: 'reveal' has a [card, salt] or nil per card in 'in'")
    return list(reveals)


def _zone(state: State, zone_id: str) -> Obj:
    zone = state.objs.get(zone_id)
    if zone is None or not zone.alive:
        raise Void(f"{zone_id!r} is gone: the cards have nowhere to go back to")
    return zone


def _out(op: Op, count: int, zone: Obj) -> list[Any]:
    out = op.args.get("out")
    if out is None or len(out) != count:
        raise Void(f"{op.kind}: {zone.id!r} is re-hidden with {count} fresh handle(s) in 'out'")
    return list(out)


def _consume(state: State, op: Op, lookup: Lookup, args: dict[str, Any]) -> None:
    """Run the consume's own handler (its checks: inputs where expected, only the owner's peer
    re-handles a hidden zone; its journal), on this op's author and place."""
    try:
        apply_consume(state, Op(op.author, op.seq, op.lamport, "consume", args, op.vv, op.time,
                                op.seat), lookup)
    except Void as void:
        raise Void(f"the cards have moved on since: {void}", void.fault) from None


def _rehide(state: State, op: Op, handles: list[str], now_in: str, zone_id: str,
            lookup: Lookup) -> None:
    """The cards (`handles`, now in `now_in`) go into the hidden zone they came from: the zone
    is re-handled, with them, by the op's fresh handles."""
    zone = _zone(state, zone_id)
    kept = state.cards_in(zone)
    _consume(state, op, lookup, {
        "in": [*handles, *kept], "expect": [*[now_in] * len(handles), *[zone.id] * len(kept)],
        "to": zone.id, "at": "bottom", "out": _out(op, len(handles) + len(kept), zone),
        "owner": zone.owner})


def _take_out(state: State, op: Op, handle: str, zone_id: str, same_as: Obj,
              reveal: Any) -> None:
    """Consume the hidden card `handle` from `zone_id`, where the card `same_as` now stands in
    for it; a known card must be shown to be that card (its commitment checked)."""
    obj = state.objs.get(handle)
    if obj is None or not obj.alive or obj.container != zone_id or obj.kind != "card":
        raise Void(f"the card is no longer in {zone_id!r}")
    zone = _zone(state, zone_id)
    if zone.visibility != PUBLIC:
        require_authority(state, op, zone.owner, "take a card from their zone")
    if obj.is_secret:
        require_authority(state, op, obj.owner, "take a hidden card out of its zone")
    if same_as.card is not None and obj.card != same_as.card:
        if reveal is None:
            raise Void(f"{same_as.card} comes back: the card leaving {zone_id!r} must be shown")
        check_reveal(obj, reveal[0], reveal[1])
        if reveal[0] != same_as.card:
            raise Void(f"the card leaving {zone_id!r} is not {same_as.card}")
    state.remove_child(obj)
    state.set_field(obj, "alive", False)


def _revive(state: State, op: Op, handle: str, old_id: str, now_in: str, source: str,
            index: int, reveal: Any) -> None:
    """A card taken into a hidden zone from a public place comes back there under the handle
    it had, as it was; its stand-in in the hidden zone is consumed."""
    old = state.objs[old_id]
    if old.alive:
        raise Void("the card is already back")
    _take_out(state, op, handle, now_in, old, reveal)
    place = _zone(state, source)
    state.set_field(old, "alive", True)
    state.set_field(old, "container", place.id)
    state.insert_child(place, old, min(index, len(place.children)))


def rehidden_pile(state: State, op: Op, lookup: Lookup, identity: Callable[[str], str | None]
                  ) -> tuple[str, list[str | None], list[str | None], list[str | None] | None
                             ] | None:
    """For the audit: the hidden pile an undo or redo of a crossing re-hides (None: it re-hides
    none; a hand's new order is its owner's business), its cards' identities before the op,
    the cards coming in, and for an undo the exact order the fresh handles must commit to (the
    cards back at their places); a redo's newcomers go in as one block, as the action's did."""
    if op.args.get("in") is None or op.kind not in ("undo", "redo"):
        return None
    found = lookup((str(op.args["target"][0]), int(op.args["target"][1])))
    if found is not None and op.kind == "redo":
        undo = found[0].args.get("target") or ("", 0)
        found = lookup((str(undo[0]), int(undo[1])))
    if found is None or found[1] is None:
        return None
    x = crossing(state, found[0], found[1])
    if x is None:
        return None
    if op.kind == "redo":
        zone = state.objs.get(x.dest)
        if zone is None or not x.into or not _is_hidden_pile(zone):
            return None
        return zone.id, [identity(c) for c in state.cards_in(zone)], \
            [identity(h) for h in op.args["in"]], None
    back = [i for i, s in enumerate(x.sources) if _is_hidden_pile(state.objs.get(s))]
    if not back:
        return None
    pile = x.sources[back[0]]
    kept = [identity(c) for c in state.cards_in(pile)]
    expected = list(kept)
    for i in reversed(back):
        expected.insert(min(x.indexes[i], len(expected)), identity(x.cards[i]))
    return pile, kept, [identity(x.cards[i]) for i in back], expected


def _is_hidden_pile(obj: Obj | None) -> bool:
    return obj is not None and obj.visibility != PUBLIC and (
        obj.kind == "pile" or obj.props.get("kind") == "pile")
