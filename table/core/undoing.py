"""A seat's undo and redo, as a player expects them (Ctrl+Z, Ctrl+Shift+Z / Ctrl+Y).

A seat's undo stack is its own actions in log order. `undo_last` takes back the newest action
not yet undone (again and again walks further back), `redo_last` the newest undo (a new action
clears what can be redone, as in any editor). Each is an ordinary op (`undo` / `redo`, folded
in canonical order, table.core.undo); an action that took cards across a hidden zone's edge (a
draw, a card played from a hand) goes back and comes again by the cards themselves, found by
what this peer knows (table.core.undo_cards).

Nothing is issued that would do nothing. What cannot be taken back (a roll's value, a shuffle's
order, a card shown to everyone, another player's newer move on the same piece) is said, in a
player's words, before any op is made: `CannotTakeBack`, which names the action to pass over;
asked again with it in `passing`, the walk goes on to the action before it, so nothing that
stays ever strands what came before it.
"""
from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from . import opkinds
from .actions import ActionError
from .ops import Op
from .replica import Replica
from .timeline import NOTHING, Record
from .undo import REDO, TARGET, UNDO, holders, target_ref
from .undo_cards import redo_args, undo_args
from .undo_words import Namer, cap, crossing_of, fixed, seat_name, thing, what

_SKIPPED = opkinds.QUIET  # talk, seats, shows: not moves a player takes back
_SETUP_ENDS = ("complete", "position-end")
Ref = tuple[str, int]


class CannotTakeBack(ActionError):
    """The action next in line cannot be taken back (or not now): `message` says why, before
    anything changed. `passed` is that action; ask again `passing` it to go on to `then`, the
    one before it (None: there is nothing before it)."""

    def __init__(self, message: str, passed: Ref, then: str | None) -> None:
        super().__init__(message)
        self.message, self.passed, self.then = message, passed, then


@dataclass
class UndoStack:
    done: list[Record] = field(default_factory=list)  # actions in effect, oldest first
    undone: list[Record] = field(default_factory=list)  # undos that can be redone, oldest first


def stack_of(r: Replica, *, seat: int | None = None, any_seat: bool = False) -> UndoStack:
    """This peer's (and seat's) actions in effect and undos that may be redone, in log order.
    `any_seat` (hot-seat: one peer plays every seat): the whole table's."""
    stack = UndoStack()
    by_ref: dict[tuple[str, int], Record] = {}
    for rec in r.records():
        op = rec.op
        if rec.void is not None or op.kind in _SKIPPED or (
                op.kind == opkinds.CONSUME and op.args.get("why") == "receive"):
            continue  # (a gift taken in: this peer's software renews the zone by itself)
        if op.kind == opkinds.MARK and op.args.get("what") == "setup" and \
                op.args.get("value") in _SETUP_ENDS:  # whoever marked it
            stack.done.clear()  # the setup is the table's, not a player's move to take back
            stack.undone.clear()
            continue
        if op.author != r.peer_id or (not any_seat and seat is not None and op.seat != seat):
            continue
        by_ref[op.ref] = rec
        if op.kind == UNDO:
            _drop(stack.done, target_ref(op))
            stack.undone.append(rec)
        elif op.kind == REDO:
            undo = by_ref.get(target_ref(op))
            _drop(stack.undone, target_ref(op))
            action = by_ref.get(target_ref(undo.op)) if undo is not None else None
            if action is not None:
                stack.done.append(action)
        else:
            stack.done.append(rec)
            stack.undone.clear()
    return stack


def _drop(records: list[Record], ref: tuple[str, int]) -> None:
    for i in range(len(records) - 1, -1, -1):
        if records[i].op.ref == ref:
            del records[i]
            return


def undo_last(r: Replica, *, seat: int | None = None, any_seat: bool = False,
              passing: Collection[Ref] = (), namer: Namer | None = None) -> Op:
    """Undo this peer's (and seat's) newest action still in effect, passing over those in
    `passing`; the undo is issued as the seat that made it. Raises CannotTakeBack, saying why,
    when that action cannot be undone, ActionError when nothing is left. An action that
    changed nothing (a counter set to the value it had) is passed over."""
    done = stack_of(r, seat=seat, any_seat=any_seat).done
    for i in range(len(done) - 1, -1, -1):
        rec = done[i]
        if rec.op.ref in passing:
            continue
        try:
            op = _undo_one(r, rec, seat, any_seat, namer)
        except ActionError as why:
            raise CannotTakeBack(str(why), rec.op.ref,
                                 _next(r, done[:i], passing, namer)) from None
        if op is not None:
            return op
    raise ActionError("Nothing of yours to undo since the game began")


def _next(r: Replica, older: list[Record], passing: Collection[Ref],
          namer: Namer | None) -> str | None:
    """What the next undo would try, once the action that stays is passed over."""
    for rec in reversed(older):
        if rec.op.ref not in passing and fixed(r, rec, namer) is None:
            return what(r, rec, namer)
    return None


def _undo_one(r: Replica, rec: Record, seat: int | None, any_seat: bool,
              namer: Namer | None) -> Op | None:
    """The undo of one action (None: it would change nothing); ActionError: why not."""
    op = rec.op
    stays = fixed(r, rec, namer)
    if stays is not None:
        raise ActionError(stays)
    if len(rec.journal) == 0:  # (a journal is always true: compare its length)
        return None  # it changed nothing (a card turned to where it was): nothing to take back
    args: dict[str, Any] = {"target": list(op.ref)}
    private = None
    x = crossing_of(r, rec)
    if x is not None:
        more, private = undo_args(r, rec, x, namer)
        args.update(more)
    else:
        _refuse_if_stale(r, rec, "undone", namer)
    issued_as = op.seat if any_seat and op.seat is not None else seat
    why = _trial(r, UNDO, args, issued_as)
    if why == NOTHING:
        return None
    if why is not None:
        raise ActionError(_changed(r, rec, namer))
    return r.issue(UNDO, args, seat=issued_as, private=private)


def redo_last(r: Replica, *, seat: int | None = None, any_seat: bool = False,
              passing: Collection[Ref] = (), namer: Namer | None = None) -> Op:
    """Redo the newest undo of this peer (and seat) since its last new action, passing over
    those in `passing` (CannotTakeBack: that one cannot be redone now, and why)."""
    undone = stack_of(r, seat=seat, any_seat=any_seat).undone
    for i in range(len(undone) - 1, -1, -1):
        rec = undone[i]
        if rec.op.ref in passing:
            continue
        try:
            return _redo_one(r, rec, seat, any_seat, namer)
        except ActionError as why:
            then = next((describe(r, u.op, namer) for u in reversed(undone[:i])
                         if u.op.ref not in passing), None)
            raise CannotTakeBack(str(why), rec.op.ref, then) from None
    raise ActionError("Nothing to redo")


def _redo_one(r: Replica, rec: Record, seat: int | None, any_seat: bool,
              namer: Namer | None) -> Op:
    args: dict[str, Any] = {"target": list(rec.op.ref)}
    private = None
    action = r.timeline.record_of(target_ref(rec.op))
    x = crossing_of(r, action) if action is not None else None
    if x is not None:
        more, private = redo_args(r, rec, x, namer)
        args.update(more)
    else:
        _refuse_if_stale(r, rec, "redone", namer)
    issued_as = rec.op.seat if any_seat and rec.op.seat is not None else seat
    if _trial(r, REDO, args, issued_as) is not None:
        raise ActionError(_changed(r, action or rec, namer))
    return r.issue(REDO, args, seat=issued_as, private=private)


def describe(r: Replica, op: Op, namer: Namer | None = None) -> str:
    """The action an undo took back (or a redo brought back), in a player's words."""
    ref = target_ref(op)
    if op.kind == REDO:
        undo = r.timeline.record_of(ref)
        ref = target_ref(undo.op) if undo is not None else ref
    action = r.timeline.record_of(ref)
    return what(r, action, namer) if action is not None else "that"


def _changed(r: Replica, rec: Record, namer: Namer | None) -> str:
    text = what(r, rec, namer)
    return f"{cap(text)} no longer fits the table as it is now"


def _refuse_if_stale(r: Replica, rec: Record, done: str, namer: Namer | None) -> None:
    """Another op (another player's newer move) holds what the target wrote: refuse, naming
    who changed what."""
    found = r.timeline.lookup(rec.op.ref)
    if found is None or found[1] is None:
        return
    held = holders(rec.op.ref, found[1], found[2])
    if not held:
        return  # it wrote nothing (turned to where it was): passed over as changing nothing
    newer = [(k, h) for k, h in held.items() if isinstance(h, Op) and k[1] != "card"]
    action = r.timeline.record_of(target_ref(rec.op)) if rec.op.kind == UNDO else rec
    text = what(r, action or rec, namer)
    if newer:
        key, op = newer[0]
        changed = "the turn or the phase" if key[0] == "#" else thing(r, key[0], namer)
        who = seat_name(r, op.seat) if op.author != r.peer_id or op.seat != rec.op.seat \
            else "you"
        raise ActionError(f"{cap(who)} changed {changed} after {text}, so it "
                          f"cannot be {done}; put things back by hand")
    if not any(h is TARGET for h in held.values()):
        raise ActionError(f"{cap(text)} has already been taken back")


def _trial(r: Replica, kind: str, args: dict[str, Any], seat: int | None) -> str | None:
    """Why the op would be void (or change nothing) at the end of the fold; None: it works."""
    probe = Op(r.peer_id, r.store.delivered(r.peer_id) + 1, r.store.max_lamport + 1, kind,
               args, {}, 0.0, seat)
    return r.timeline.trial(probe)
