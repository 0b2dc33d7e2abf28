"""A seat's LAN setup run as a task, its hidden piles shuffled from a jointly drawn seed.

The steps before a seat's first hidden-pile Shuffle run at once (when the seat is taken); at
the Shuffle the seat waits until another player (not a watcher) is linked, starts a joint
shuffle with the linked players (netplay's commit-reveal round) and waits for the ``consume``
op it yields; then the next steps, up to the next such Shuffle, and so on. Once the last step
ran, the seat is marked ready and waits for the simultaneous reveal as before. The game cannot
start before every seat is ready, so waiting for a second player costs no one time.

A round that does not complete within `JOINT_SETUP_BOUND` seconds (the other players left, a
joint draw failed) falls back to a local shuffle, and the replica reports it: the table never
hangs. A table no other player can join (every seat is this peer's) shuffles locally at once.
"""
from __future__ import annotations

import logging

from table.core import actions as act
from table.core.errors import CoreError
from table.games.model import Deck
from table.games.steps import SetupStep, Shuffle
from table.lan.setup import (
    has_reveal,
    mark_ready,
    recorded_deck,
    resume_at,
    revealed_seats,
    run_seat_steps,
    seat_begun,
    seat_layout,
    seat_reveal,
    seat_steps,
    setup_complete,
    setup_marks,
    setup_shuffles,
)
from table.lan.table import LanTable, until_changed

log = logging.getLogger(__name__)

SETUP_KINDS = ("mark", "seat")  # the ops that move the LAN setup on
JOINT_SETUP_BOUND = 15.0  # seconds a joint setup shuffle may take before it falls back


def begin_seat(t: LanTable, seat: int, deck: Deck | None) -> None:
    """Set up `seat` on this peer: lay it out and run its steps up to its first hidden-pile
    Shuffle now; the rest (joint shuffles, later steps, ready, reveal) runs as a task."""
    assert t.module is not None
    steps = seat_layout(t.replica, t.module, t.seats, seat, deck)
    at = run_seat_steps(t.replica, steps, seat, 0)
    t.setting_up.add(seat)
    t.spawn(finish_seat(t, seat, deck, steps, at))


def resume_seat(t: LanTable, seat: int) -> bool:
    """A restarted peer takes up a seat it was setting up when it stopped, where it left off
    (its deck from its own private record). False if it had not laid the seat out yet."""
    assert t.module is not None
    r = t.replica
    if not seat_begun(r, seat):
        return False
    deck = recorded_deck(r, t.module, seat)
    steps = seat_steps(t.module, t.seats, seat, deck)
    at = run_seat_steps(r, steps, seat, resume_at(r, steps, seat))
    log.info("taking up seat %d's setup at step %d of %d", seat, at + 1, len(steps))
    t.setting_up.add(seat)
    t.spawn(finish_seat(t, seat, deck, steps, at))
    return True


async def finish_seat(t: LanTable, seat: int, deck: Deck | None, steps: list[SetupStep],
                      at: int) -> None:
    """From the joint shuffle at `at`: shuffle, run on to the next, ...; then ready, reveal."""
    try:
        while at < len(steps):
            step = steps[at]
            assert isinstance(step, Shuffle)
            await shuffle_jointly(t, seat, step.zone)
            at = run_seat_steps(t.replica, steps, seat, at + 1)
        mark_ready(t.replica, seat, deck)
    finally:
        t.setting_up.discard(seat)
    await reveal_when_called(t, seat)


async def shuffle_jointly(t: LanTable, seat: int, zone_id: str) -> None:
    """Shuffle a hidden pile of `seat` with a jointly drawn seed once another player is
    linked; locally if no other player can come, or if the round does not complete in time."""
    r = t.replica
    log.info("seat %d: shuffling %s jointly once another player is linked", seat, zone_id)
    while True:
        await _until_player_linked(t, seat)
        if len(t.session.draws.players()) < 2:
            break  # no other player can come: every other seat is this peer's
        before = setup_shuffles(r, seat, zone_id, joint=True)
        if not t.session.draws.shuffle(zone_id, seat=seat):
            continue  # the other player left at this very moment: wait for one again
        def shuffled(before: int = before) -> bool:  # bound now: the loop moves on
            return setup_shuffles(r, seat, zone_id, joint=True) > before

        done = await until_changed(r, shuffled, kinds=("consume",), timeout=JOINT_SETUP_BOUND)
        if done:
            return
        r.report(f"the joint shuffle of {zone_id} did not complete within "
                 f"{JOINT_SETUP_BOUND:.0f} s: shuffled locally")
        break
    try:
        act.shuffle(r, zone_id, seat=seat, now=True)
    except CoreError as err:  # the player emptied the pile meanwhile: nothing to shuffle
        log.info("setup shuffle of %s skipped: %s", zone_id, err)


async def reveal_when_called(t: LanTable, seat: int) -> None:
    """A seat's side of a simultaneous reveal: wait for the call, then turn up its cards."""
    assert t.module is not None
    r = t.replica
    if not has_reveal(t.module, t.seats):
        return
    await until_changed(r, lambda: bool(setup_marks(r, "reveal")) or setup_complete(r)
                        or seat in revealed_seats(r), kinds=SETUP_KINDS)
    if setup_marks(r, "reveal") and seat not in revealed_seats(r) and not setup_complete(r):
        seat_reveal(r, t.module, t.seats, seat)


def _others_can_come(t: LanTable, seat: int) -> bool:
    """Another player may yet take part: a seat not held by this peer (free or another's)."""
    me = t.replica.peer_id
    return any((held := t.replica.state.seats.get(s)) is None or held.peer != me
               for s in range(1, t.seats + 1) if s != seat)


async def _until_player_linked(t: LanTable, seat: int) -> None:
    """Wait until another non-watcher player is linked (or none can come). Woken by the
    replica's announcements (a peer's hello says whether it watches) and by the session's
    peers events (a link made or lost, which need not bring an op)."""
    await until_changed(t.replica, lambda: len(t.session.draws.players()) >= 2
                        or not _others_can_come(t, seat), events=t.session.events)
