"""A seat's undo and redo, as a player expects them (Ctrl+Z, Ctrl+Shift+Z / Ctrl+Y).

A seat's undo stack is its own actions in log order. `undo_last` takes back the newest action
not yet undone (again and again walks further back), `redo_last` the newest undo (a new action
clears what can be redone, as in any editor). Each is an ordinary op (`undo` / `redo`, folded
in canonical order, table.core.undo). Nothing is issued that would do nothing: what cannot be
undone (a draw's order, a shuffle's result, a roll, a reveal, another player's newer move on
the same piece) is refused here, with the reason, before any op is made.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import opkinds
from .actions import ActionError, _commit_outputs, _identity
from .objects import PUBLIC
from .ops import Op
from .replica import Replica
from .timeline import NOTHING, Record
from .undo import REDO, TARGET, UNDO, holders, stale_reason, target_ref

_SKIPPED = opkinds.QUIET  # talk, seats, shows: not moves a player takes back
_SETUP_ENDS = ("complete", "position-end")


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
        if rec.void is not None or op.kind in _SKIPPED:
            continue
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


def undo_last(r: Replica, *, seat: int | None = None, any_seat: bool = False) -> Op:
    """Undo this peer's (and seat's) newest action still in effect; the undo is issued as the
    seat that made it. Raises ActionError, saying why, when it cannot be undone. An action
    that changed nothing (a counter set to the value it had) is passed over."""
    done = stack_of(r, seat=seat, any_seat=any_seat).done
    for rec in reversed(done):
        op = rec.op
        if op.kind not in opkinds.UNDOABLE:
            what = _what(op)
            raise ActionError(f"{what[0].upper()}{what[1:]} cannot be undone: {_why_not(op)}; "
                              "put things back by hand")
        _refuse_if_stale(r, rec, "undo")
        args: dict[str, Any] = {"target": list(op.ref)}
        private = _rehiding(r, rec, args)
        issued_as = op.seat if any_seat and op.seat is not None else seat
        why = _trial(r, "undo", args, issued_as)
        if why == NOTHING:
            continue
        if why is not None:
            raise ActionError(f"Cannot undo {_what(op)}: {why}")
        return r.issue("undo", args, seat=issued_as, private=private)
    raise ActionError("Nothing of yours to undo since the game began")


def redo_last(r: Replica, *, seat: int | None = None, any_seat: bool = False) -> Op:
    """Redo the newest undo of this peer (and seat) since its last new action."""
    undone = stack_of(r, seat=seat, any_seat=any_seat).undone
    if not undone:
        raise ActionError("Nothing to redo")
    rec = undone[-1]
    if rec.op.args.get("out") is not None:
        raise ActionError("Cannot redo: the card went back into its hidden zone with a new "
                          "handle; play it again")
    _refuse_if_stale(r, rec, "redo")
    args: dict[str, Any] = {"target": list(rec.op.ref)}
    issued_as = rec.op.seat if any_seat and rec.op.seat is not None else seat
    why = _trial(r, "redo", args, issued_as)
    if why is not None:
        raise ActionError(f"Cannot redo {_what(_original(r, rec))}: {why}")
    return r.issue("redo", args, seat=issued_as)


def _refuse_if_stale(r: Replica, rec: Record, verb: str) -> None:
    """Another op (another player's newer move) holds a key the target wrote: refuse, naming it."""
    found = r.timeline.lookup(rec.op.ref)
    if found is None or found[1] is None:
        return
    held = holders(rec.op.ref, found[1], found[2])
    newer = [(k, h) for k, h in held.items() if isinstance(h, Op) and k[1] != "card"]
    if newer:
        key, op = newer[0]
        what = "the turn or phase" if key[0] == "#" else "that piece"
        raise ActionError(f"Cannot {verb} {_what(_original(r, rec))}: {_who(r, op)} has "
                          f"changed {what} since (#{op.seq}); put things back by hand")
    if not any(h is TARGET for h in held.values()):
        raise ActionError(f"Cannot {verb}: {stale_reason(rec.op.ref, held)}")


def _trial(r: Replica, kind: str, args: dict[str, Any], seat: int | None) -> str | None:
    """Why the op would be void (or change nothing) at the end of the fold; None: it works."""
    probe = Op(r.peer_id, r.store.delivered(r.peer_id) + 1, r.store.max_lamport + 1, kind,
               args, {}, 0.0, seat)
    return r.timeline.trial(probe)


def _rehiding(r: Replica, rec: Record, args: dict[str, Any]) -> dict[str, Any] | None:
    """A card the action took out of a hidden zone goes back re-hidden: fresh handles for the
    whole zone, in `args["out"]`; their cards and salts are this peer's private record."""
    for entry in rec.journal.entries:
        if entry[0] != "rm":
            continue
        zone, index, obj_id = entry[1], entry[2], entry[3]
        card = r.state.objs[obj_id]
        if card.kind != "card" or zone.visibility == PUBLIC or not zone.alive:
            continue
        kept = [r.state.objs[c] for c in r.state.cards_in(zone) if c != obj_id]
        names = [_identity(r, o) for o in kept]
        if zone.kind == "pile" or zone.props.get("kind") == "pile":
            names.insert(min(index, len(names)), _identity(r, card))
        else:  # a hand: a new random order, so old and new handles cannot be linked
            names = r.rng.shuffled([*names, _identity(r, card)])
        out, private = _commit_outputs(r, names)
        args["out"] = out
        return private
    return None


def _original(r: Replica, rec: Record) -> Op:
    """The action an undo took back (for a redo's messages), else the op itself."""
    if rec.op.kind == UNDO:
        target = r.timeline.record_of(target_ref(rec.op))
        if target is not None:
            return target.op
    return rec.op


def _who(r: Replica, op: Op) -> str:
    seat = r.state.seats.get(op.seat) if op.seat is not None else None
    if seat is not None and seat.name:
        return seat.name
    return f"seat {op.seat}" if op.seat is not None else "another player"


def _what(op: Op) -> str:
    """An action as a player names it."""
    why = op.args.get("why")
    if op.kind == "consume":
        return {"shuffle": "a shuffle", "draw": "a draw"}.get(
            why or "", "cards going into a hand or a hidden pile")
    return {"roll": "a roll", "reveal": "a reveal", "move": "a move", "set": "a flip or turn",
            "counter": "a counter change", "mark": "a marker", "create": "a new piece",
            "delete": "a removal", "end": "the game's result", "module": "a module change",
            "deck": "a deck choice"}.get(op.kind, f"a {op.kind}")


def _why_not(op: Op) -> str:
    why = op.args.get("why")
    if op.kind == "consume":
        return {"shuffle": "its result stands (the old order is gone)",
                "draw": "the drawn cards have new handles (a draw's order is not taken back)"}.get(
            why or "", "the cards were re-hidden with new handles")
    if op.kind == "roll":
        return "a roll's result stands"
    if op.kind == "reveal":
        return "a card seen stays seen"
    return "going back is a new move"
