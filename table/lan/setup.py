"""The LAN setup protocol, as ops on a replica: no network, no waiting.

Every hidden card is created by its owner's software and a seat's deck list never leaves its
player's machine:

1. the host lays out the shared, deck-independent objects and marks the table
   (``mark setup "table"`` with the game, its content hash and the seat count);
2. a player claims a seat (a ``seat`` op), lays out that seat's own objects, runs that seat's
   setup steps with its own deck (creating and shuffling its cards, arranging them) up to the
   game's simultaneous reveal, if it has one, and marks it ready, publishing only the deck's
   headers (faction, leader: public at a real table too); its hidden piles are shuffled from
   a jointly drawn seed (`table.lan.seat_setup` waits for each such shuffle);
3. a simultaneous reveal (a shared "turn face up" step, such as Gauntlet's six Territories)
   waits for every seat: when all are ready the host marks ``reveal``; each seat's peer then
   turns up its own cards and runs the rest of its steps (Leader, token, opening hand), and
   marks itself ``revealed``;
4. then the host lays out the shared objects that depend on the decks in play and runs the
   shared setup steps (first player, shared supplies), and marks setup complete.

The functions here read those marks and perform each side's steps; `table.lan.seating` runs
them as the marks arrive.
"""
from __future__ import annotations

import logging
from typing import Any

from netplay.draws.watching import table_fields
from table.core import actions as act
from table.core.errors import CoreError
from table.core.objects import PUBLIC
from table.core.private_draws import local_draws_allowed
from table.core.replica import Replica
from table.games.decks import parse_deck
from table.games.model import Deck
from table.games.module import GameModule
from table.games.problems import ProblemSink
from table.games.record import record_decks, record_module
from table.games.setup import lay_out, run_steps
from table.games.steps import SetFace, SetupStep, Shuffle

log = logging.getLogger(__name__)


# ------------------------------------------------------------------ reading the table's marks
def setup_marks(r: Replica, value: str) -> list[Any]:
    return [rec.op for rec in r.records()
            if rec.op.kind == "mark" and rec.void is None and rec.op.args.get("what") == "setup"
            and rec.op.args.get("value") == value]


def table_info(r: Replica) -> dict[str, Any] | None:
    """The fields of the table's layout mark, or None before it arrived."""
    return table_fields(r) or None


def ready_seats(r: Replica) -> dict[int, dict[str, str]]:
    """Seat -> public deck headers, for every seat whose player finished its setup."""
    out: dict[int, dict[str, str]] = {}
    for op in setup_marks(r, "ready"):
        seat = op.args.get("seat")
        held = r.state.seats.get(seat) if isinstance(seat, int) else None
        if held is not None and held.peer == op.author:
            deck = (op.args.get("fields") or {}).get("deck") or {}
            out[seat] = {str(k): str(v) for k, v in deck.items()}
    return out


def setup_complete(r: Replica) -> bool:
    """The LAN setup is over: the game's setup, or a start from a position (even a pending one:
    its players then finish the game's setup themselves)."""
    return bool(setup_marks(r, "complete") or setup_marks(r, "position-end"))


def draws_note(r: Replica) -> str:
    """What a player is told on joining a table opened allowing local draws (else empty)."""
    if not local_draws_allowed(table_info(r) or {}):
        return ""
    return ("this table allows local draws: a player's rolls and shuffles may come from their "
            "own software alone, are not flagged and are not audited")


def record_note(r: Replica) -> str:
    """What a player is told on joining about the end-of-game record (empty if nothing)."""
    info = table_info(r) or {}
    if info.get("record_to_watchers") is False:
        return ""
    return ("at the end of the game (or when you leave the table), your peer sends your secrets "
            "(your hidden cards, deck list) to the table's watchers, if any")


def _public_deck(headers: dict[str, str]) -> Deck:
    return Deck(name=headers.get("name", ""), file="", headers=headers, sections={})


# ------------------------------------------------------------------ the steps
def host_layout(r: Replica, module: GameModule, seats: int, table_name: str,
                settings: dict[str, Any] | None = None) -> None:
    act.mark(r, "setup", value="table", fields={
        "game": module.id, "game_hash": module.content_hash, "seats": seats,
        "name": table_name, "module_version": module.version, **(settings or {})})
    record_module(r, module)
    lay_out(r, module, seats, None, only_seats=set(), shared=True, conditional=False)


def _reveal_at(steps: tuple[SetupStep, ...]) -> int:
    """Index of the game's simultaneous reveal (a shared SetFace), or len(steps) if none."""
    for i, step in enumerate(steps):
        if isinstance(step, SetFace) and step.seat is None:
            return i
    return len(steps)


def has_reveal(module: GameModule, seats: int) -> bool:
    steps = module.setup_for(seats, None)
    return _reveal_at(steps) < len(steps)


def seat_layout(r: Replica, module: GameModule, seats: int, seat: int,
                deck: Deck | None) -> list[SetupStep]:
    """Lay out one seat's objects, on that seat's own peer; returns the seat's steps up to the
    reveal, for `run_seat_steps` (the deck's text stays in this peer's private record)."""
    decks = {seat: deck} if deck is not None else {}
    record_decks(r, module, decks)
    lay_out(r, module, seats, decks, only_seats={seat}, shared=False)
    return seat_steps(module, seats, seat, deck)


def seat_steps(module: GameModule, seats: int, seat: int, deck: Deck | None) -> list[SetupStep]:
    steps = module.setup_for(seats, {seat: deck} if deck is not None else {})
    return [step for step in steps[:_reveal_at(steps)] if step.seat == seat]


def _hidden_pile(r: Replica, zone_id: str) -> bool:
    zone = r.state.live(zone_id)
    return zone is not None and zone.visibility != PUBLIC


def joint_shuffle_at(r: Replica, step: SetupStep) -> bool:
    """A step a LAN seat shuffles jointly: a Shuffle of a hidden pile holding cards."""
    return (isinstance(step, Shuffle) and _hidden_pile(r, step.zone)
            and any(r.state.objs[c].kind == "card" for c in r.state.objs[step.zone].children))


def run_seat_steps(r: Replica, steps: list[SetupStep], seat: int, start: int) -> int:
    """Perform a seat's steps from `start` up to its next joint shuffle; returns that step's
    index (len(steps) when none is left: the seat is then ready to be marked)."""
    for index in range(start, len(steps)):
        if joint_shuffle_at(r, steps[index]):
            return index
        run_steps(r, [steps[index]], seats={seat}, shared=False)
    return len(steps)


def mark_ready(r: Replica, seat: int, deck: Deck | None) -> None:
    """The seat's setup is done: publish only its deck's headers (public at a real table)."""
    act.mark(r, "setup", value="ready", for_seat=seat,
             fields={"deck": dict(deck.headers) if deck is not None else {}})


def setup_shuffles(r: Replica, seat: int, zone_id: str, *, joint: bool = False) -> int:
    """How many shuffles of `zone_id` this peer made as `seat` (only joint ones if asked)."""
    return sum(1 for rec in r.records()
               if rec.op.kind == "consume" and rec.void is None and rec.op.author == r.peer_id
               and rec.op.seat == seat and rec.op.args.get("why") == "shuffle"
               and rec.op.args.get("to") == zone_id
               and (not joint or rec.op.args.get("fair") is not None))


def seat_begun(r: Replica, seat: int) -> bool:
    """This peer laid out `seat` before it stopped: its deck op, or the seat's own zones."""
    if any(rec.op.kind == "deck" and rec.op.author == r.peer_id and rec.void is None
           and rec.op.args.get("seat") == seat for rec in r.records()):
        return True
    return any(obj.alive and obj.kind in ("zone", "pile") and obj.props.get("seat") == seat
               for obj in r.state.objs.values())


def resume_at(r: Replica, steps: list[SetupStep], seat: int) -> int:
    """Where a restarted peer takes up a seat's setup: the first hidden-pile Shuffle step not
    yet done (the steps before it ran with the shuffle before it); past the last one done."""
    seen: dict[str, int] = {}
    last_done = -1
    for index, step in enumerate(steps):
        if not (isinstance(step, Shuffle) and _hidden_pile(r, step.zone)):
            continue
        seen[step.zone] = seen.get(step.zone, 0) + 1
        if setup_shuffles(r, seat, step.zone) < seen[step.zone]:
            return index
        last_done = index
    return last_done + 1


def recorded_deck(r: Replica, module: GameModule, seat: int) -> Deck | None:
    """The deck this peer recorded for `seat` (its list's text is in its private record)."""
    text = r.knowledge.decks.get(seat)
    if text is None:
        return None
    names = [rec.op.args.get("name") for rec in r.records() if rec.op.kind == "deck"
             and rec.op.author == r.peer_id and rec.op.args.get("seat") == seat]
    name = str(names[-1]) if names and names[-1] else f"seat {seat}'s deck"
    return parse_deck(module, text, name, ProblemSink(name), name=name)


def seat_reveal(r: Replica, module: GameModule, seats: int, seat: int) -> None:
    """After every seat is ready: turn up this seat's cards together, then its later steps."""
    headers = ready_seats(r).get(seat, {})
    decks = {seat: _public_deck(headers)}  # later steps need only header-named cards (Leader)
    steps = module.setup_for(seats, decks)
    for step in steps[_reveal_at(steps):]:
        if isinstance(step, SetFace) and step.seat is None:
            for zone_id in step.zones:  # a shared reveal: each owner turns its own cards
                zone = r.state.live(zone_id)
                for card_id in list(zone.children) if zone is not None else []:
                    card = r.state.objs[card_id]
                    if card.kind == "card" and card.owner == seat:
                        act.flip(r, card_id, step.face_up, seat=seat)
        elif step.seat == seat:
            run_steps(r, [step], seats={seat}, shared=False)
    act.mark(r, "setup", value="revealed", for_seat=seat)


def revealed_seats(r: Replica) -> set[int]:
    return {op.args["seat"] for op in setup_marks(r, "revealed")
            if isinstance(op.args.get("seat"), int)}


def host_shared_steps(r: Replica, module: GameModule, seats: int) -> list[SetupStep]:
    """Once every seat is ready (and revealed): lay out the shared objects that depend on the
    decks in play; returns the shared steps still to run (first player, shared supplies)."""
    decks = {s: _public_deck(h) for s, h in ready_seats(r).items()}
    lay_out(r, module, seats, decks, only_seats=set(), shared=True, conditional=True)
    return [step for step in module.setup_for(seats, decks)
            if step.seat is None and not isinstance(step, SetFace)]


def run_shared_step(r: Replica, step: SetupStep) -> None:
    try:
        run_steps(r, [step], seats=set(), shared=True)
    except (CoreError, ValueError) as err:
        log.warning("shared setup step %s skipped: %s", type(step).__name__, err)


def host_finish(r: Replica, module: GameModule, seats: int) -> None:
    """The shared rest of the setup, each step at once (`table.lan.first_player` rolls for
    the first player jointly instead), then setup complete."""
    for step in host_shared_steps(r, module, seats):
        run_shared_step(r, step)
    act.mark(r, "setup", value="complete")
