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
    restored = False
    moved: dict[str, dict[str, Any]] = {}
    for entry in journal.entries:
        tag = entry[0]
        if tag == "f":
            obj, name, old = entry[1], entry[2], entry[3]
            key = "loc" if name in ("container", "pos") else name
            if name == "card" or (obj.id, key) in overwritten:  # reveals stay revealed
                continue
            if key == "loc":
                moved.setdefault(obj.id, {})[name] = old
            else:
                state.set_field(obj, name, old)
                restored = True
        elif tag == "rm":
            parent, index, obj_id = entry[1], entry[2], entry[3]
            if (obj_id, "loc") not in overwritten:
                where = moved.setdefault(obj_id, {})
                where.setdefault("index", index)
                where.setdefault("parent", parent.id)
        elif tag == "c":
            obj, key, old = entry[1], entry[2], entry[3]
            if (obj.id, "c:" + key) not in overwritten:
                state.set_counter(obj, key, old if isinstance(old, int) else 0)
                restored = True
        elif tag == "p":
            obj, key, old = entry[1], entry[2], entry[3]
            if (obj.id, "p:" + key) not in overwritten and old is not MISSING:
                state.set_prop(obj, key, old)
                restored = True
        elif tag == "new":
            obj = state.objs[entry[1]]
            if (obj.id, "alive") not in overwritten and obj.alive:
                state.remove_child(obj)
                state.set_field(obj, "alive", False)
                restored = True
        elif tag == "g":
            if ("#", entry[1]) not in overwritten:
                state.set_global(entry[1], entry[2])
                restored = True
    for obj_id, where in moved.items():
        obj = state.objs[obj_id]
        if "parent" not in where:  # a position change within the same container
            if "pos" in where and obj.alive:
                state.set_field(obj, "pos", where["pos"])
                restored = True
            continue
        parent = state.objs.get(where["parent"])
        if (not obj.alive or parent is None or not parent.alive or _enters_hidden(obj, parent)
                or parent.id == obj.id or obj.id in state.ancestors(parent)):
            continue
        state.remove_child(obj)
        state.set_field(obj, "container", parent.id)
        state.set_field(obj, "pos", where.get("pos", obj.pos))
        state.insert_child(parent, obj, min(where["index"], len(parent.children)))
        restored = True
    if not restored:
        raise Void(f"nothing of {ref} is still current")
