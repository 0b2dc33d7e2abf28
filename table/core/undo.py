"""Undo and redo: an op about ops. `undo` restores what an earlier action replaced, `redo`
restores what an undo replaced; each only where that write is still current.

"Still current" is decided from the ops applied after the target (a short scan forward from it),
not from a per-field "last writer" table every op would have to maintain. The scan follows who
holds each key the target wrote: a newer write takes it; an undo hands it back to whoever held
it before the op it undid (so undoing five +1s in a row reaches back five steps); a redo hands
it back to the op its undo had taken it from.

An action that took cards across the edge of a hidden zone (a draw, a card played from a hand)
is undone and redone by the cards themselves, named as they are now (`in`): table.core.
undo_crossing. An older undo that re-hid a card with `out` alone (the journal restored, then the
zone re-handled) is still read, as older logs hold it.
"""
from __future__ import annotations

from typing import Any, TypeAlias

from .apply import Lookup, fresh_outputs, place_outputs, require_authority
from .errors import Void
from .journal import Journal
from .objects import PUBLIC, Obj
from .opdata import Op
from .state import MISSING, State, written_keys
from .undo_crossing import crossing, redo_crossing, undo_crossing

Key = tuple[str, str]
Ref = tuple[str, int]
UNDO, REDO = "undo", "redo"
_KEPT = ("card",)  # fields an undo never restores: a card seen stays seen


class _Target:
    """Marks a key still held by the target op itself (its write is current)."""


TARGET = _Target()
Holder: TypeAlias = Op | _Target | None  # TARGET, the newer op that holds a key, or None (taken back)


def target_ref(op: Op) -> Ref:
    target = op.args["target"]
    if len(target) != 2 or not isinstance(target[0], str) or not isinstance(target[1], int) \
            or isinstance(target[1], bool):
        raise Void(f"{op.kind} names its target as [author, seq]")
    return target[0], target[1]


def holders(ref: Ref, journal: Journal, later: list[tuple[Op, Journal]]) -> dict[Key, Holder]:
    """Who holds each key `ref`'s op wrote, after the ops `later` (in canonical order): TARGET
    (the op itself: its write is current), a newer op, or None (an undo took it back)."""
    owner: dict[Key, Ref | None] = dict.fromkeys(written_keys(journal), ref)
    before: dict[Ref, dict[Key, Ref | None]] = {ref: dict.fromkeys(owner)}
    ops: dict[Ref, Op] = {}
    for op, entries in later:
        wrote = [k for k in written_keys(entries) if k in owner] if entries.entries else []
        if not wrote:
            continue
        mine = before.setdefault(op.ref, {})
        ops[op.ref] = op
        back = before.get(_target_or_none(op) or ("", 0), {}) if op.kind in (UNDO, REDO) \
            else None
        for key in wrote:
            mine[key] = owner[key]
            # an undo returns the key to whoever held it before its target wrote it (unknown:
            # the target is older than this scan, so the undo itself now holds it)
            owner[key] = back.get(key, op.ref) if back is not None else op.ref
    return {k: TARGET if h == ref else None if h is None else ops[h] for k, h in owner.items()}


def _target_or_none(op: Op) -> Ref | None:
    try:
        return target_ref(op)
    except (Void, TypeError, KeyError):
        return None


def apply_undo(state: State, op: Op, lookup: Lookup, undoable: frozenset[str]) -> None:
    """Restore what the target action replaced, only where its write is still current.
    `undoable`: the kinds an undo may take back (the registry, table.core.opkinds, passes its
    own: the handler does not import the registry that imports it)."""
    _take_back(state, op, lookup, undoable, "a {kind} is not undone; going back is a new op")


def apply_redo(state: State, op: Op, lookup: Lookup) -> None:
    """Restore what the target undo replaced (the action it took back), where still current."""
    _take_back(state, op, lookup, frozenset({UNDO}), "a redo names an undo, not a {kind}")


def _take_back(state: State, op: Op, lookup: Lookup, kinds: frozenset[str], refused: str) -> None:
    ref = target_ref(op)
    found = lookup(ref)
    if found is None:
        raise Void(f"{op.kind} target {ref} is not an applied op before this one")
    target_op, journal, later = found
    if op.args.get("in") is not None:
        _take_back_crossing(state, op, lookup, target_op, journal)
        return
    if target_op.kind not in kinds:
        raise Void(refused.format(kind=target_op.kind))
    if journal is None:
        raise Void(f"{op.kind} target {ref} was void")
    held = holders(ref, journal, later)
    current = {k for k, h in held.items() if h is TARGET}
    moved: dict[str, dict[str, Any]] = {}
    restored = False
    for entry in journal.entries:
        restored |= _restore_entry(state, entry, current, moved)
    for obj_id, where in moved.items():
        restored |= _put_back(state, op, state.objs[obj_id], where)
    if not restored:
        raise Void(stale_reason(ref, held))


def _take_back_crossing(state: State, op: Op, lookup: Lookup, target_op: Op,
                        journal: Journal | None) -> None:
    """An undo (redo) naming the cards as they are now: the target is the action (the undo of
    the action) that took them across a hidden zone's edge."""
    if journal is None:
        raise Void(f"{op.kind} target {target_op.ref} was void")
    undo_journal = journal
    if op.kind == REDO:
        if target_op.kind != UNDO:
            raise Void(f"a redo names an undo, not a {target_op.kind}")
        found = lookup(target_ref(target_op))
        if found is None or found[1] is None:
            raise Void("the undo's action is not an applied op")
        target_op, journal = found[0], found[1]
    x = crossing(state, target_op, journal)
    if x is None:
        raise Void(f"the {target_op.kind} took no card across a hidden zone's edge: "
                   f"its {op.kind} names no cards")
    if op.kind == UNDO:
        undo_crossing(state, op, x, lookup)
    else:
        redo_crossing(state, op, x, undo_journal, lookup)


def stale_reason(ref: Ref, held: dict[Key, Holder]) -> str:
    """Why nothing of `ref` can be restored: already taken back, or a newer op holds it."""
    newer = [h for k, h in held.items() if isinstance(h, Op) and k[1] not in _KEPT]
    if newer:
        first = newer[0]
        return f"#{first.seq} of {first.author} changed it since {ref}"
    return f"{ref} is already taken back"


def _restore_entry(state: State, entry: tuple[Any, ...], current: set[Key],
                   moved: dict[str, dict[str, Any]]) -> bool:
    """Restore one journal entry if the target still holds its key; a move is only noted
    in `moved` (its container, place and index come from several entries). True if restored."""
    tag = entry[0]
    if tag == "f":
        obj, name, old = entry[1], entry[2], entry[3]
        key = "loc" if name in ("container", "pos") else name
        if name in _KEPT or (obj.id, key) not in current:
            return False
        if key == "loc":
            moved.setdefault(obj.id, {})[name] = old
            return False
        changed = bool(getattr(obj, name) != old)
        if name == "alive" and not old:
            state.remove_child(obj)  # gone again (a redone delete): a dead object is unlisted
        state.set_field(obj, name, old)
        return changed
    if tag == "rm":
        parent, index, obj_id = entry[1], entry[2], entry[3]
        if (obj_id, "loc") in current:
            where = moved.setdefault(obj_id, {})
            where.setdefault("index", index)
            where.setdefault("parent", parent.id)
        return False
    if tag == "c":
        obj, key, old = entry[1], entry[2], entry[3]
        old = old if isinstance(old, int) else 0
        if (obj.id, "c:" + key) not in current or obj.counters.get(key, 0) == old:
            return False
        state.set_counter(obj, key, old)
        return True
    if tag == "p":
        obj, key, old = entry[1], entry[2], entry[3]
        if (obj.id, "p:" + key) not in current or old is MISSING or obj.props.get(key) == old:
            return False
        state.set_prop(obj, key, old)
        return True
    if tag == "new":
        obj = state.objs[entry[1]]
        if (obj.id, "alive") not in current or not obj.alive:
            return False
        state.remove_child(obj)
        state.set_field(obj, "alive", False)
        return True
    if tag == "g" and ("#", entry[1]) in current and getattr(state, entry[1]) != entry[2]:
        state.set_global(entry[1], entry[2])
        return True
    return False


def enters_hidden(obj: Obj, parent: Obj) -> bool:
    return obj.kind == "card" and parent.visibility != PUBLIC


def _put_back(state: State, op: Op, obj: Obj, where: dict[str, Any]) -> bool:
    """Move an object back where the undone op found it, if that place can still take it."""
    if "parent" not in where:  # a position change within the same container
        if "pos" in where and obj.alive:
            state.set_field(obj, "pos", where["pos"])
            return True
        return False
    parent = state.objs.get(where["parent"])
    if (not obj.alive or parent is None or not parent.alive
            or parent.id == obj.id or obj.id in state.ancestors(parent)):
        return False
    hidden = enters_hidden(obj, parent)
    if hidden and op.args.get("out") is None:
        raise Void(f"{obj.id!r} goes back into {parent.id!r}, a hidden zone: the {op.kind} "
                   f"must re-hide it there with fresh handles ('out')")
    state.remove_child(obj)
    state.set_field(obj, "container", parent.id)
    state.set_field(obj, "pos", where.get("pos", obj.pos))
    state.insert_child(parent, obj, min(where["index"], len(parent.children)))
    if hidden:
        _rehide(state, op, parent)
    return True


def _rehide(state: State, op: Op, zone: Obj) -> None:
    """Re-handle the whole hidden zone a card came back into, with the op's fresh handles."""
    require_authority(state, op, zone.owner, "re-hide a card in their zone")
    cards = [state.objs[c] for c in state.cards_in(zone)]
    outputs = fresh_outputs(state, op.args["out"], op.kind)
    if len(outputs) != len(cards):
        raise Void(f"{op.kind}: {zone.id!r} holds {len(cards)} cards once the card is back, "
                   f"not {len(outputs)}")
    index = zone.children.index(cards[0].id)
    for card in cards:
        state.remove_child(card)
        state.set_field(card, "alive", False)
    place_outputs(state, zone, outputs, zone.owner, False, index)
