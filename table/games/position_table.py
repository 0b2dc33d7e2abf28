"""Start a table from a position: the module's layout, then every named card, counter, token,
die, board side and tile where the position puts them, then the turn and phase markers.

The whole start is one setup in the log, between two markers:
    mark setup "position"   (fields: name, seed, decks, module)
    ... layout and placements; the setup-complete marker (fields: position) unless pending;
        the turn and phase markers ...
    mark setup "position-end"
The assist runner judges nothing between them (a position is a situation, not moves), so it
judges only what happens after. A seat's hidden cards are created by that seat (its owner's
software), so a LAN start runs `place(..., seats={mine})` on each player's peer.
"""
from __future__ import annotations

import time
from collections import Counter as Tally
from collections.abc import Callable
from pathlib import Path
from typing import Any

from table.core import actions as act
from table.core.objects import PUBLIC
from table.core.replica import Replica
from table.core.rng import Rng

from .position import CardPlacement, Position, ZonePlacement
from .record import record_decks, record_module
from .setup import lay_out

BEGIN, END = "position", "position-end"


def header_extra(position: Position) -> dict[str, Any]:
    return {"seats": position.seats, "module_version": position.module.version,
            "decks": {str(s): d.name for s, d in position.decks.items()},
            "position": position.name or Path(position.source).stem}


def begin_fields(position: Position) -> dict[str, Any]:
    fields: dict[str, Any] = {"name": position.name, "seats": position.seats,
                              "decks": {str(s): ref for s, ref in position.deck_refs.items()}}
    if position.seed is not None:
        fields["seed"] = position.seed
    if position.module_ref is not None:
        fields["module"] = position.module_ref
    return fields


def start_position(position: Position, *, log_path: str | Path | None = None,
                   rng: Rng | None = None, peer_id: str | None = None,
                   table_id: str | None = None,
                   clock: Callable[[], float] | None = None) -> Replica:
    """A hot-seat table (this peer plays every seat) in the situation `position` describes."""
    module = position.module
    if rng is None and position.seed is not None:
        rng = Rng(position.seed)
    replica = Replica(table_id, peer_id, rng=rng, log_path=log_path, game=module.id,
                      game_hash=module.content_hash, header_extra=header_extra(position),
                      clock=clock or time.time)
    replica.issue("hello", {"name": "Dealer"})
    for seat in module.seats_for(position.seats):
        replica.issue("seat", {"seat": seat.number, "colour": seat.colour,
                               "name": position.players.get(seat.number, seat.name)})
    record_module(replica, module)
    record_decks(replica, module, position.decks)
    act.mark(replica, "setup", value=BEGIN, fields=begin_fields(position))
    lay_out(replica, module, position.seats, position.decks)
    place(replica, position)
    finish(replica, position)
    return replica


def finish(r: Replica, position: Position, *, as_seat: bool = True) -> None:
    """Setup complete (unless pending), the turn and phase markers, and the end marker.
    `as_seat`: the markers are issued as the active seat (a LAN host issues them as itself)."""
    if position.setup_complete:
        act.mark(r, "setup", value="complete", fields={"position": position.name or True})
    seat = position.turn_seat
    if seat is not None:
        by = seat if as_seat else None
        act.mark(r, "turn", for_seat=seat, value=position.turn_number, seat=by)
        if position.phase is not None:
            act.mark(r, position.phase_kind, value=position.phase, seat=by)
    act.mark(r, "setup", value=END)


# -- LAN: the host lays out and places the public part; each seat's peer its hidden cards ------
def lan_begin(r: Replica, position: Position) -> None:
    """The host's part: the begin marker (no deck lists: they stay with their players' files),
    the layout and everything public."""
    fields = {k: v for k, v in begin_fields(position).items() if k != "decks"}
    record_module(r, position.module)
    act.mark(r, "setup", value=BEGIN, fields={**fields, "digest": position.digest})
    lay_out(r, position.module, position.seats, position.decks)
    place(r, position, hidden_for=set(), public=True)


def lan_seat(r: Replica, position: Position, seat: int) -> None:
    """A seat's peer records its deck and creates that seat's hidden cards (hand, deck...),
    as its own seat."""
    deck = position.decks.get(seat)
    if deck is not None:
        record_decks(r, position.module, {seat: deck})
    place(r, position, hidden_for={seat}, public=False)


def place(r: Replica, position: Position, hidden_for: set[int] | None = None,
          public: bool = True) -> None:
    """Everything the position puts on the table. `hidden_for`: create only these seats' hidden
    cards (None: every seat's; a LAN peer creates its own seat's); `public`: also the public
    cards and the counters, tokens, dice, boards and tiles (a LAN host does these)."""
    rest = _rest_of_decks(position)
    for zp in position.zones:
        owner = r.state.objs[zp.zone].owner
        _fill_zone(r, zp, rest.get(owner, []) if zp.rest and owner is not None else [],
                   hidden_for, public)
    if not public:
        return
    for cid, value in position.counters.items():
        act.counter(r, cid, value=value)
    for bid, side in position.boards.items():
        act.set_field(r, bid, "props.side", side)
    for slot, tile in position.tiles.items():
        act.create(r, f"tile.{tile.tile}", "board", to=slot, rot=tile.rotation,
                   props={"name": tile.tile, "board_kind": "tile", "tile": tile.tile,
                          "side": tile.side})
    for tid, where in position.tokens.items():
        spot = where.cell or where.pos
        pos = [float(spot[0]), float(spot[1])] if spot else None
        act.move(r, tid, where.at, pos=pos)
    for did, value in position.dice.items():
        sides = int(r.state.objs[did].props.get("sides", 6))
        r.issue("roll", {"id": did, "sides": sides, "values": [value], "why": "position"})


def _rest_of_decks(position: Position) -> dict[int, list[str]]:
    """Per seat, the main deck-list cards the position does not place (list order)."""
    placed: dict[int, Tally[str]] = {}
    module = position.module
    zones = {z.id: z for z in module.zones_for(position.seats, position.decks)}
    for zp in position.zones:
        default = zones[zp.zone].owner if zp.zone in zones else None  # the table itself
        for c in zp.cards:
            seat = c.owner if c.owner is not None else default
            if seat is not None:
                placed.setdefault(seat, Tally())[c.card] += 1
    out: dict[int, list[str]] = {}
    for seat, deck in position.decks.items():
        left = Tally(placed.get(seat, Tally()))
        cards: list[str] = []
        for card, count in deck.cards:
            for _ in range(count):
                if left[card] > 0:
                    left[card] -= 1
                else:
                    cards.append(card)
        out[seat] = cards
    return out


def _mine(hidden_for: set[int] | None, public: bool, owner: int | None) -> bool:
    """Does this peer create a hidden card of `owner`? Its own seats' (None: all); a card of
    no seat goes with the public things."""
    return hidden_for is None or (owner in hidden_for if owner is not None else public)


def _fill_zone(r: Replica, zp: ZonePlacement, rest: list[str], hidden_for: set[int] | None,
               public_here: bool) -> None:
    zone = r.state.objs[zp.zone]
    cards = [CardPlacement(c, zp.line) for c in r.rng.shuffled(rest)] + list(zp.cards)
    batch: list[CardPlacement] = []
    batch_owner: int | None = None
    for c in cards:
        owner = c.owner if c.owner is not None else zone.owner
        face_up = c.face_up if c.face_up is not None else \
            bool(zone.props.get("enter_face_up", True))  # the table itself: face up
        public = zone.visibility == PUBLIC and face_up
        if not (public_here if public else _mine(hidden_for, public_here, owner)):
            continue  # another peer makes it (LAN: hidden cards by their owner's peer)
        if public:
            _flush(r, zone.id, batch, batch_owner)
            batch = []
            act.create(r, "c" + r.rng.token(8), "card", to=zone.id, owner=owner, card=c.card,
                       **_public_extras(c))
            continue
        if batch and owner != batch_owner:
            _flush(r, zone.id, batch, batch_owner)
            batch = []
        batch.append(c)
        batch_owner = owner
    _flush(r, zone.id, batch, batch_owner)
    if zp.shuffle and _mine(hidden_for, public_here, zone.owner) \
            and any(r.state.objs[c].kind == "card" for c in zone.children):
        act.shuffle(r, zone.id, seat=zone.owner, now=True)


def _public_extras(c: CardPlacement) -> dict[str, Any]:
    extras: dict[str, Any] = {}
    if c.rotation:
        extras["rot"] = c.rotation
    if c.side:
        extras["props"] = {"side": c.side}
    if c.counters:
        extras["counters"] = dict(c.counters)
    if c.pos is not None:
        extras["pos"] = list(c.pos)
    return extras


def _flush(r: Replica, zone_id: str, batch: list[CardPlacement], owner: int | None) -> None:
    """Hidden cards: one create-consume by their owner, then their side, rotation, counters."""
    if not batch:
        return
    act.new_cards(r, zone_id, [c.card for c in batch], owner=owner, seat=owner)
    handles = r.state.objs[zone_id].children[-len(batch):]
    for handle, c in zip(handles, batch, strict=True):
        if c.side:
            act.set_field(r, handle, "props.side", c.side, seat=owner)
        if c.rotation:
            act.rotate(r, handle, c.rotation, seat=owner)
        if c.pos is not None:
            act.set_field(r, handle, "pos", list(c.pos), seat=owner)
        for key, value in c.counters.items():
            act.counter(r, handle, key=key, value=value, seat=owner)


__all__ = ["BEGIN", "END", "begin_fields", "finish", "header_extra", "lan_begin",
           "lan_seat", "place", "start_position"]
