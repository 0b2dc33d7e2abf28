"""Perform a game module's setup on a table: its layout, then its setup steps, as ops.

The layout (boards, zones, counters, tokens, dice) is public and shared; the steps deal with
each seat's cards, and a step for a seat is issued as that seat, so hidden cards are created
and shuffled by their owner's software. `new_table` does everything for hot-seat play (one peer
plays every seat); LAN play runs `lay_out` on the host and `run_steps(..., seats={mine})` on each
player's peer.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from table.core import actions as act
from table.core.objects import ROOT
from table.core.replica import Replica
from table.core.rng import Rng

from .model import Deck
from .module import GameModule
from .record import record_decks, record_module
from .steps import (
    CreateCards,
    CreateDeck,
    Draw,
    FirstPlayer,
    Place,
    PlaceTile,
    Prompt,
    Rotate,
    SetCounter,
    SetFace,
    SetSide,
    SetupStep,
    Shuffle,
)


def default_decks(module: GameModule, seats: int) -> dict[int, Deck]:
    """Each seat gets a different starter deck (in name order) when the game has enough."""
    names = sorted(module.starter_decks)
    if not names:
        return {}
    return {s: module.starter_decks[names[(s - 1) % len(names)]] for s in range(1, seats + 1)}


def new_table(module: GameModule, seats: int, decks: Mapping[int, Deck] | None = None, *,
              log_path: str | Path | None = None, rng: Rng | None = None,
              peer_id: str | None = None, table_id: str | None = None,
              names: Mapping[int, str] | None = None,
              clock: Callable[[], float] | None = None) -> Replica:
    """A hot-seat table with every seat claimed by this peer and the setup performed."""
    module.check_seats(seats)
    chosen = dict(default_decks(module, seats))
    chosen.update(decks or {})
    replica = Replica(table_id, peer_id, rng=rng, log_path=log_path, game=module.id,
                      game_hash=module.content_hash,
                      header_extra={"seats": seats, "module_version": module.version,
                                    "decks": {str(s): d.name for s, d in chosen.items()}},
                      clock=clock or time.time)
    replica.issue("hello", {"name": "Dealer"})  # who does the seatless setup, in the log
    record_module(replica, module)
    for seat in module.seats_for(seats):
        name = (names or {}).get(seat.number, seat.name)
        replica.issue("seat", {"seat": seat.number, "name": name, "colour": seat.colour})
    record_decks(replica, module, chosen)
    lay_out(replica, module, seats, chosen)
    run_steps(replica, module.setup_for(seats, chosen))
    act.mark(replica, "setup", value="complete")
    return replica


def lay_out(r: Replica, module: GameModule, seats: int, decks: Mapping[int, Deck] | None, *,
            only_seats: set[int] | None = None, shared: bool = True,
            conditional: bool | None = None) -> None:
    """Create every board, zone, counter, token and die (public objects) for `seats` seats.

    LAN play lays the table out in parts: `only_seats` keeps only the objects of those seats
    (each player's peer lays out its own, knowing its own deck), `shared` whether to include
    the seatless ones, and `conditional` (when not None) keeps only the seatless objects that
    do (True) or do not (False) depend on the decks in play.
    """
    def part(owner: int | None, when: object) -> bool:
        if owner is None:
            return shared and (conditional is None or (when is not None) == conditional)
        return only_seats is None or owner in only_seats

    for board in module.boards_for(seats, decks):
        if not part(board.owner, board.when):
            continue
        props: dict[str, Any] = {"name": board.name, "board_kind": board.kind,
                                 "slots": [s.id for s in board.slots]}
        if board.sides:
            props.update(sides=list(board.sides), side=board.sides[0])
        if board.grid is not None:
            props.update(grid=[board.grid.cols, board.grid.rows],
                         tile_size=board.grid.tile_size)
        act.create(r, board.id, "board", owner=board.owner, props=props)
    for zone in module.zones_for(seats, decks):
        if not part(zone.owner, zone.when):
            continue
        owner = zone.owner if zone.owner is not None else zone.keeper
        props = {"name": zone.name, "visibility": zone.visibility, "zone_kind": zone.kind,
                 "enter_face_up": zone.face_up, "tags": list(zone.tags)}
        if zone.board:
            props["board"] = zone.board
        if zone.owner is not None:
            props["seat"] = zone.owner
        act.create(r, zone.id, "pile" if zone.kind == "pile" else "zone",
                   to=zone.board or ROOT, owner=owner, props=props)
    for counter in module.counters_for(seats, decks):
        if not part(counter.owner, counter.when):
            continue
        act.create(r, counter.id, "counter", to=counter.board or ROOT, owner=counter.owner,
                   counters={"value": counter.start},
                   props={"name": counter.name, "min": counter.min, "max": counter.max})
    for token in module.tokens_for(seats, decks):
        if not part(token.owner, token.when):
            continue
        act.create(r, token.id, "token", to=token.home or ROOT, owner=token.owner,
                   props={"name": token.name, "token_kind": token.kind,
                          "colour": token.colour or "#888888", "shape": token.shape,
                          "label": token.label})
    for die in module.dice_for(seats):
        if not part(die.owner, getattr(die, "when", None)):
            continue
        act.create(r, die.id, "die", to=die.home or ROOT, owner=die.owner,
                   counters={"value": 1}, props={"name": die.name, "sides": die.sides})


def run_steps(r: Replica, steps: Iterable[SetupStep], seats: set[int] | None = None,
              shared: bool = True) -> None:
    """Perform setup steps. `seats`: only the steps of these seats; `shared`: also seatless ones."""
    for step in steps:
        if step.seat is None and not shared:
            continue
        if step.seat is not None and seats is not None and step.seat not in seats:
            continue
        _perform(r, step)


def _expand(cards: Iterable[tuple[str, int]]) -> list[str]:
    """Card ids in list order; the first listed ends at the bottom of its pile."""
    return [card for card, count in cards for _ in range(count)]


def _create_cards(r: Replica, zone_id: str, cards: list[str], owner: int | None, face_up: bool,
                  side: str | None, seat: int | None) -> None:
    zone = r.state.live(zone_id)
    if zone is None:
        raise ValueError(f"setup names zone {zone_id!r}, which the layout did not create")
    if face_up and zone.visibility == "public":
        for card in cards:
            props = {"side": side} if side else {}
            act.create(r, "c" + r.rng.token(6), "card", to=zone_id, owner=owner, card=card,
                       props=props, seat=seat)
    elif cards:
        act.new_cards(r, zone_id, cards, owner=owner, seat=seat)
        if side:
            for handle in list(r.state.objs[zone_id].children)[-len(cards):]:
                act.set_field(r, handle, "props.side", side, seat=seat)


def _cards_in(r: Replica, zone_id: str) -> list[str]:
    return r.state.cards_in(r.state.objs[zone_id])  # (a zone the setup names must exist)


def _perform(r: Replica, step: SetupStep) -> None:
    seat = step.seat
    if isinstance(step, CreateDeck):
        _create_cards(r, step.zone, _expand(step.cards), seat, step.face_up, step.side, seat)
    elif isinstance(step, CreateCards):
        owner = step.owner if step.owner is not None else seat
        _create_cards(r, step.zone, _expand(step.cards), owner, step.face_up, step.side, seat)
    elif isinstance(step, Shuffle):
        if _cards_in(r, step.zone):
            act.shuffle(r, step.zone, seat=seat, now=True)
    elif isinstance(step, Draw):
        if _cards_in(r, step.from_zone):
            act.draw(r, step.from_zone, step.to_zone, step.count, seat=seat)
    elif isinstance(step, SetCounter):
        act.counter(r, step.counter, value=step.value, seat=seat)
    elif isinstance(step, Place):
        pos = [float(step.cell[0]), float(step.cell[1])] if step.cell else None
        act.move(r, step.token, step.at, pos=pos, seat=seat)
    elif isinstance(step, PlaceTile):
        act.create(r, f"tile.{step.tile}", "board", to=step.slot, rot=step.rotation % 360,
                   props={"name": step.tile, "board_kind": "tile", "tile": step.tile,
                          "side": step.side}, seat=seat)
    elif isinstance(step, SetSide):
        target = r.state.live(step.target)
        if target is not None and target.kind in ("zone", "pile"):
            for card in _cards_in(r, step.target):
                act.set_field(r, card, "props.side", step.side, seat=seat)
        else:
            act.set_field(r, step.target, "props.side", step.side, seat=seat)
    elif isinstance(step, SetFace):
        for zone in step.zones:
            for card in _cards_in(r, zone):
                owner = r.state.objs[card].owner
                act.flip(r, card, step.face_up, seat=owner if owner is not None else seat)
    elif isinstance(step, Rotate):
        for card in _cards_in(r, step.zone):
            act.rotate(r, card, step.degrees, seat=seat)
    elif isinstance(step, FirstPlayer):
        _first_player(r, step)
    elif isinstance(step, Prompt):
        act.mark(r, "setup", value="prompt", fields={"text": step.text, **(
            {"for_seat": seat} if seat is not None else {})}, seat=seat)
    else:  # pragma: no cover - a new step kind must be handled here
        raise TypeError(f"unknown setup step {step!r}")


def _first_player(r: Replica, step: FirstPlayer) -> None:
    seats = sorted(r.state.seats)
    if step.assigns_seats or not seats:
        # Seats are numbered clockwise from the first player, so seat 1 starts by definition.
        act.mark(r, "turn", for_seat=1)
        return
    if step.method == "random":
        act.mark(r, "turn", for_seat=r.rng.shuffled(seats)[0])
        return
    contenders = seats
    while True:
        results: dict[int, int] = {}
        for seat in contenders:
            die = step.dice[(seat - 1) % len(step.dice)] if step.dice else None
            op = act.roll(r, die_id=die, sides=_sides(r, die), why="first player", seat=seat,
                          now=True)
            assert op is not None
            results[seat] = sum(op.args["values"])
        best = max(results.values()) if step.highest_wins else min(results.values())
        contenders = [s for s, v in results.items() if v == best]
        if len(contenders) == 1 or not step.reroll_ties:
            break
    act.mark(r, "turn", for_seat=contenders[0])


def _sides(r: Replica, die_id: str | None) -> int:
    die = r.state.live(die_id) if die_id else None
    sides = die.props.get("sides", 6) if die is not None else 6
    return int(sides)
