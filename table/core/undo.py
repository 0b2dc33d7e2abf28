"""Undo: restore what an earlier op replaced, only where its write is still current.

"Still current" is decided from the journals of the ops applied after the target (a short scan
back from the end), not from a per-field "last writer" table every op would have to maintain.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .apply import Lookup
from .errors import Void
from .objects import PUBLIC, Obj
from .state import MISSING, State, written_keys

if TYPE_CHECKING:
    from .ops import Op


def _enters_hidden(obj: Obj, parent: Obj) -> bool:
    return obj.kind == "card" and parent.visibility != PUBLIC


def apply_undo(state: State, op: Op, lookup: Lookup) -> None:
    """Restore what the target op replaced, only where its write is still current."""
    target = op.args["target"]
    if len(target) != 2 or not isinstance(target[0], str) or not isinstance(target[1], int):
        raise Void("undo names its target as [author, seq]")
    ref = (target[0], target[1])
    found = lookup(ref)
    if found is None:
        raise Void(f"undo target {ref} is not an applied op before this one")
    target_op, journal, later = found
    from .opkinds import UNDOABLE  # here: the registry imports this handler

    if target_op.kind not in UNDOABLE:
        raise Void(f"a {target_op.kind} is not undone; going back is a new op")
    if journal is None:
        raise Void(f"undo target {ref} was void")
    overwritten: set[tuple[str, str]] = set()
    for newer in later:
        overwritten |= written_keys(newer)
    moved: dict[str, dict[str, Any]] = {}
    restored = False
    for entry in journal.entries:
        restored |= _restore_entry(state, entry, overwritten, moved)
    for obj_id, where in moved.items():
        restored |= _put_back(state, state.objs[obj_id], where)
    if not restored:
        raise Void(f"nothing of {ref} is still current")


def _restore_entry(state: State, entry: tuple[Any, ...], overwritten: set[tuple[str, str]],
                   moved: dict[str, dict[str, Any]]) -> bool:
    """Restore one journal entry unless a later op wrote the same key; a move is only noted
    in `moved` (its container, place and index come from several entries). True if restored."""
    tag = entry[0]
    if tag == "f":
        obj, name, old = entry[1], entry[2], entry[3]
        key = "loc" if name in ("container", "pos") else name
        if name == "card" or (obj.id, key) in overwritten:  # reveals stay revealed
            return False
        if key == "loc":
            moved.setdefault(obj.id, {})[name] = old
            return False
        state.set_field(obj, name, old)
        return True
    if tag == "rm":
        parent, index, obj_id = entry[1], entry[2], entry[3]
        if (obj_id, "loc") not in overwritten:
            where = moved.setdefault(obj_id, {})
            where.setdefault("index", index)
            where.setdefault("parent", parent.id)
        return False
    if tag == "c":
        obj, key, old = entry[1], entry[2], entry[3]
        if (obj.id, "c:" + key) in overwritten:
            return False
        state.set_counter(obj, key, old if isinstance(old, int) else 0)
        return True
    if tag == "p":
        obj, key, old = entry[1], entry[2], entry[3]
        if (obj.id, "p:" + key) in overwritten or old is MISSING:
            return False
        state.set_prop(obj, key, old)
        return True
    if tag == "new":
        obj = state.objs[entry[1]]
        if (obj.id, "alive") in overwritten or not obj.alive:
            return False
        state.remove_child(obj)
        state.set_field(obj, "alive", False)
        return True
    if tag == "g" and ("#", entry[1]) not in overwritten:
        state.set_global(entry[1], entry[2])
        return True
    return False


def _put_back(state: State, obj: Obj, where: dict[str, Any]) -> bool:
    """Move an object back where the undone op found it, if that place can still take it."""
    if "parent" not in where:  # a position change within the same container
        if "pos" in where and obj.alive:
            state.set_field(obj, "pos", where["pos"])
            return True
        return False
    parent = state.objs.get(where["parent"])
    if (not obj.alive or parent is None or not parent.alive or _enters_hidden(obj, parent)
            or parent.id == obj.id or obj.id in state.ancestors(parent)):
        return False
    state.remove_child(obj)
    state.set_field(obj, "container", parent.id)
    state.set_field(obj, "pos", where.get("pos", obj.pos))
    state.insert_child(parent, obj, min(where["index"], len(parent.children)))
    return True
