"""Every op kind in one table: its arguments, its handler, and what it means to the rest of
the program.

One `OpKind` record per kind. Everything else that sorts ops by kind reads it from here: the
argument validation (`ops.check_args`), the fold (`apply_op`), undo, the reports' count of
player actions, the requests one peer may make of another, and the rules assist's "nothing a
rule is about". docs/ops.md documents the arguments (a test keeps it in step).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import apply as h
from . import apply_records as rec
from .apply import Lookup
from .errors import Void
from .journal import Journal
from .state import State
from .undo import apply_redo, apply_undo

if TYPE_CHECKING:
    from .opdata import Op

# argument types: {arg name: (allowed python types, required)}. Validation is strict: unknown
# arguments fail, and types are exact (no bool for int)
Schema = dict[str, tuple[tuple[type, ...], bool]]
Handler = Callable[[State, "Op", Lookup], None]
_STR = (str,)
_INT = (int,)
_BOOL = (bool,)
_OPT_STR = (str, type(None))
_OPT_INT = (int, type(None))
_OPT_BOOL = (bool, type(None))
_POS = (list, tuple, type(None))
_AT = (str, int, dict, type(None))
ANY: tuple[type, ...] = (object,)  # any value at all

MARK_WHATS: frozenset[str] = frozenset({"turn", "phase", "step", "declare", "setup", "winner"})


@dataclass(frozen=True, slots=True)
class OpKind:
    name: str
    args: Schema
    apply: Handler
    undoable: bool = False  # an undo op may take it back (else going back is a new op)
    action: bool = False  # a player's move at the table (reports count these)
    requestable: bool = False  # another peer may ask the owner of a hidden pile to perform it
    quiet: bool = False  # changes nothing a game's rule is about: peers, seats, talk, shows


# The kinds' names, for code that tests an op's kind.
HELLO, SEAT, CREATE, DELETE, MOVE, SET, COUNTER = ("hello", "seat", "create", "delete", "move",
                                                   "set", "counter")
CONSUME, REVEAL, SHOW, ROLL, MARK, NOTE, CHAT = ("consume", "reveal", "show", "roll", "mark",
                                                 "note", "chat")
ACK, UNDO, REDO, MODULE, DECK, END = "ack", "undo", "redo", "module", "deck", "end"
TAG = "tag"

def _apply_undo(state: State, op: Op, lookup: Lookup) -> None:
    apply_undo(state, op, lookup, UNDOABLE)  # the kinds this table marks undoable, below


_RECORDS = (
    # announce a peer: its signing key and display name (first op of every author)
    OpKind(HELLO, {"key": (_OPT_STR, False), "name": (_OPT_STR, False),
                   "watch": (_BOOL, False)}, h.apply_hello,
           quiet=True),
    # claim (or release) a seat; the author's peer then speaks for that seat
    OpKind(SEAT, {"seat": (_INT, True), "name": (_OPT_STR, False), "colour": (_OPT_STR, False),
                  "release": (_BOOL, False), "force": (_BOOL, False)}, h.apply_seat, quiet=True),
    OpKind(CREATE, {"id": (_STR, True), "kind": (_STR, True), "owner": (_OPT_INT, False),
                    "to": (_OPT_STR, False), "at": (_AT, False), "pos": (_POS, False),
                    "face_up": (_BOOL, False), "rot": (_INT, False), "props": ((dict,), False),
                    "counters": ((dict,), False), "card": (_OPT_STR, False),
                    "commitment": (_OPT_STR, False)}, h.apply_create,
           undoable=True, action=True),
    OpKind(DELETE, {"id": (_STR, True)}, h.apply_delete, undoable=True, action=True),
    OpKind(MOVE, {"id": (_STR, True), "to": (_STR, True), "at": (_AT, False),
                  "pos": (_POS, False), "face_up": (_OPT_BOOL, False), "rot": (_OPT_INT, False),
                  "card": (_OPT_STR, False), "salt": (_OPT_STR, False)}, h.apply_move,
           undoable=True, action=True, requestable=True),
    OpKind(SET, {"id": (_STR, True), "field": (_STR, True), "value": (ANY, True),
                 "card": (_OPT_STR, False), "salt": (_OPT_STR, False)}, h.apply_set,
           undoable=True, action=True),
    OpKind(COUNTER, {"id": (_STR, True), "key": (_STR, False), "add": (_OPT_INT, False),
                     "value": (_OPT_INT, False)}, h.apply_counter, undoable=True, action=True),
    # re-handle: inputs consumed, fresh committed handles out; all or nothing
    OpKind(CONSUME, {"in": ((list,), True), "expect": ((list,), False), "to": (_STR, True),
                     "at": (_AT, False), "out": ((list,), True), "owner": (_OPT_INT, False),
                     "face_up": (_BOOL, False), "why": (_OPT_STR, False),
                     # a shuffle from a jointly drawn seed: round id, commitments, missing peers
                     "fair": ((dict,), False)}, h.apply_consume, action=True),
    OpKind(REVEAL, {"id": (_STR, True), "card": (_STR, True), "salt": (_STR, True),
                    "face_up": (_OPT_BOOL, False)}, h.apply_reveal, action=True),
    # a private reveal to one seat
    OpKind(SHOW, {"id": (_STR, True), "to": (_INT, True)}, h.apply_show, action=True,
           quiet=True),
    OpKind(ROLL, {"id": (_OPT_STR, False), "sides": (_INT, True), "values": ((list,), True),
                  "why": (_OPT_STR, False),
                  # a joint roll's commitments and shares (table.core.fair), or `local`: one
                  # peer's own randomness (hot-seat, a lone peer)
                  "fair": ((dict,), False), "local": (_BOOL, False)}, h.apply_roll,
           action=True),
    OpKind(MARK, {"what": (_STR, True), "seat": (_OPT_INT, False), "value": (ANY, False),
                  "fields": ((dict,), False)}, rec.apply_mark, undoable=True),
    OpKind(NOTE, {"text": (_STR, True)}, rec.apply_nothing, quiet=True),
    OpKind(CHAT, {"text": (_STR, True), "to": (_OPT_INT, False)}, rec.apply_nothing, quiet=True),
    OpKind(ACK, {"flag": (_STR, True), "reason": (_STR, True)}, rec.apply_ack, quiet=True),
    # take back an earlier action / an undo (table.core.undo). An action that took cards across
    # a hidden zone's edge (a draw, a card played from a hand) goes back and comes again by the
    # cards as they are now (`in`), with fresh handles re-hiding the zone they enter (`out`) and
    # the cards shown where a known card comes back (`reveal`): table.core.undo_crossing
    OpKind(UNDO, {"target": ((list, tuple), True), "out": ((list,), False),
                  "in": ((list,), False), "reveal": ((list,), False)}, _apply_undo,
           action=True),
    OpKind(REDO, {"target": ((list, tuple), True), "in": ((list,), False),
                  "out": ((list,), False), "reveal": ((list,), False)}, apply_redo,
           action=True),
    # the game module (draft) in effect from here on, by content hash; its archive travels as
    # a log blob and on the LAN (docs/game-module.md)
    OpKind(MODULE, {"hash": (_STR, True), "game": (_STR, True), "version": (_STR, False),
                    "name": (_STR, False), "changes": ((dict,), False)}, rec.apply_module),
    # a seat's deck list as played: name, header fields (faction, leader...) and the hash of
    # its text; the text itself rides in the author's private record (it names hidden cards)
    OpKind(DECK, {"seat": (_INT, True), "name": (_STR, True), "fields": ((dict,), False),
                  "hash": (_STR, True)}, rec.apply_deck),
    # the game's result: who won, how it ended (apply.END_HOWS), the module's victory condition,
    # final scores (seat number as text -> points) or standings (seats, first place first)
    OpKind(END, {"winners": ((list,), True), "how": (_STR, True),
                 "condition": (_OPT_STR, False), "scores": ((dict,), False),
                 "standings": ((list,), False), "text": (_OPT_STR, False)}, rec.apply_end,
           undoable=True),
    # what the session is, for the designer's slices: its playtest group, event, the people
    # at its seats (seat number as text -> name) and free tags added or removed; written at
    # the table (the host) or afterwards (`sandtable log tag`)
    OpKind(TAG, {"group": (_OPT_STR, False), "event": (_OPT_STR, False),
                 "players": ((dict,), False), "add": ((list,), False),
                 "remove": ((list,), False)}, rec.apply_tag, quiet=True),
)

KINDS: dict[str, OpKind] = {k.name: k for k in _RECORDS}
SCHEMAS: dict[str, Schema] = {k.name: k.args for k in _RECORDS}
UNDOABLE = frozenset(k.name for k in _RECORDS if k.undoable)
ACTIONS = frozenset(k.name for k in _RECORDS if k.action)
REQUESTABLE = frozenset(k.name for k in _RECORDS if k.requestable)
QUIET = frozenset(k.name for k in _RECORDS if k.quiet)
HANDLERS: dict[str, Handler] = {k.name: k.apply for k in _RECORDS}  # the fold reads it


def apply_op(state: State, op: Op, lookup: Lookup) -> tuple[Journal, Void | None]:
    """Apply `op` at its canonical place; return its journal and, when it was void, why (the
    journal is then empty: a void op changes nothing)."""
    state.journal = journal = Journal()  # state.begin(), inline: once per op folded
    try:
        HANDLERS[op.kind](state, op, lookup)
    except Void as void:
        state.revert(journal)  # a handler may fail after its first write (e.g. a bad index)
        journal.entries.clear()
        return journal, void
    return journal, None
