"""The LAN setup run as its marks arrive: the host's side (call the reveal, then finish), each
seat's side (claim, set up with joint shuffles: `table.lan.seat_setup`), and a start from a
position.

Each side waits on the replica's own announcements (`until_changed`), so a step runs as soon as
the op that allows it is applied, from whichever peer it came.
"""
from __future__ import annotations

import asyncio
import logging

from table.core import actions as act
from table.core.watchers import is_watcher
from table.games.model import Deck
from table.games.position_table import finish as position_finish
from table.games.position_table import lan_seat
from table.games.setup import default_decks
from table.lan.first_player import host_finish_jointly
from table.lan.seat_setup import SETUP_KINDS, begin_seat, resume_seat, reveal_when_called
from table.lan.setup import has_reveal, ready_seats, revealed_seats, setup_complete, setup_marks
from table.lan.table import LanError, LanTable, until_changed

log = logging.getLogger(__name__)


async def finish_when_ready(t: LanTable) -> None:
    """The host's side of the setup: once every seat is ready, call the reveal (if the game
    has one) and wait for every seat to turn its cards up; then finish the shared setup."""
    assert t.module is not None
    r, seats = t.replica, t.seats
    await until_changed(r, lambda: setup_complete(r) or len(ready_seats(r)) >= seats,
                        kinds=SETUP_KINDS)
    if setup_complete(r):
        return
    if has_reveal(t.module, seats):
        if not setup_marks(r, "reveal"):
            act.mark(r, "setup", value="reveal")
        await until_changed(r, lambda: setup_complete(r) or len(revealed_seats(r)) >= seats,
                            kinds=SETUP_KINDS)
        if setup_complete(r):
            return
    await host_finish_jointly(t)
    log.info("every seat is ready: setup complete")


async def finish_position_when_ready(t: LanTable) -> None:
    """Once every seat's peer made its hidden cards: setup complete, the turn, the end marker."""
    assert t.position is not None
    r = t.replica
    await until_changed(r, lambda: len(ready_seats(r)) >= t.seats, kinds=SETUP_KINDS)
    position_finish(r, t.position, as_seat=False)


async def take_seat(t: LanTable, seat: int, deck: Deck | None = None, name: str = "",
                    settle: float = 0.5) -> None:
    """Claim a seat and set it up (unless this peer already did, e.g. after a restart)."""
    r = t.replica
    assert t.module is not None
    if is_watcher(r.state, r.peer_id):
        raise LanError("a watcher takes no seat")
    if not 1 <= seat <= t.seats:
        raise LanError(f"this table has seats 1 to {t.seats}")
    held = r.state.seats.get(seat)
    if held is not None and held.peer != r.peer_id:
        raise LanError(f"seat {seat} is taken")
    if held is None:
        colour = t.module.seats[seat - 1].colour if seat <= len(t.module.seats) else None
        r.issue("seat", {"seat": seat, "name": name or f"Seat {seat}", "colour": colour})
        await _settle(t, settle)
        held = r.state.seats.get(seat)
        if held is None or held.peer != r.peer_id:
            raise LanError(f"seat {seat} was taken by another player at the same moment")
    if seat not in ready_seats(r) and t.position is not None:
        lan_seat(r, t.position, seat)  # this seat's hidden cards, from this peer's file
        headers = t.position.decks[seat].headers if seat in t.position.decks else {}
        act.mark(r, "setup", value="ready", for_seat=seat, fields={"deck": dict(headers)})
        return
    if seat in t.setting_up:
        return  # its setup task runs already (a restarted peer took it up)
    if seat in ready_seats(r):
        t.spawn(reveal_when_called(t, seat))
    elif not resume_seat(t, seat):  # a seat this peer began before it stopped goes on
        if deck is None:
            deck = default_decks(t.module, t.seats).get(seat)
        begin_seat(t, seat, deck)  # its joint shuffles, ready and reveal run as a task


async def _settle(t: LanTable, settle: float) -> None:
    """Two players may claim a seat at once: the first in canonical order wins. Let the other
    peers' concurrent ops arrive (until this peer has every peer's ops it knows of, at most
    `settle` seconds) before relying on the claim. Being in sync is the session's knowledge,
    not the replica's, so this one wait asks it every 20 ms."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + settle
    while loop.time() < deadline and not t.session.synced_with_all():  # noqa: ASYNC110 - see above
        await asyncio.sleep(0.02)
