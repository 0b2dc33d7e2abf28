"""How each op kind changes the state: one handler per kind (table.core.opkinds names which).

Each handler first checks everything that could make the op void, then mutates through the
state's journaled primitives, so a void op changes nothing (all or nothing). Handlers never look
at the receiver's "current" situation beyond the state they are given: at replay, at rollback and
live they see the same state, which is what keeps every peer identical.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from . import commit, fair
from .errors import Fault, Void
from .journal import Journal
from .objects import KINDS, PUBLIC, ROOT, Obj
from .state import Seat, State

if TYPE_CHECKING:
    from .opdata import Op

# finds an op applied earlier in canonical order: the op, its journal (None when it was void),
# and every op applied after it so far with its journal (to tell which of its writes are current)
Lookup = Callable[[tuple[str, int]],
                  "tuple[Op, Journal | None, list[tuple[Op, Journal]]] | None"]


def _live(state: State, obj_id: str, what: str = "object") -> Obj:
    obj = state.objs.get(obj_id)
    if obj is None:
        raise Void(f"{what} {obj_id!r} does not exist")
    if not obj.alive:
        raise Void(f"{what} {obj_id!r} is gone")
    return obj


def require_authority(state: State, op: Op, seat: int | None, why: str) -> None:
    """Hidden objects are owner-authoritative: only the peer playing their seat may touch them."""
    if seat is None:
        return
    holder = state.seats.get(seat)
    if holder is None or holder.peer != op.author:
        raise Void(f"only seat {seat}'s player may {why}")


def _index(state: State, parent: Obj, at: Any) -> int:
    """Resolve a pile position at apply time: 'top', 'bottom', an index, or after/before an id."""
    size = len(parent.children)
    if at is None or at == "top":
        return size
    if at == "bottom":
        return 0
    if isinstance(at, int) and not isinstance(at, bool):
        return max(0, min(size, at if at >= 0 else size + 1 + at))
    if isinstance(at, dict) and len(at) == 1:
        (where, ref), = at.items()
        if where in ("after", "before") and isinstance(ref, str):
            if ref not in parent.children:
                raise Void(f"{ref!r} is not in {parent.id!r}")
            i = parent.children.index(ref)
            return i + 1 if where == "after" else i
    raise Void(f"bad position {at!r}")


def _pos(value: Any) -> tuple[float, ...] | None:
    if value is None:
        return None
    if not 1 <= len(value) <= 3 or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
        raise Void(f"bad position {value!r}")
    return tuple(value)


def _place(state: State, obj: Obj, parent: Obj, at: Any, pos: Any) -> None:
    # only an object holding others can be asked into one of them (a card holds nothing)
    if parent is obj or (obj.children and parent.container is not None
                         and obj.id in state.ancestors(parent)):
        raise Void(f"{obj.id!r} cannot go inside itself")
    new_pos = None if pos is None else _pos(pos)
    if at is None or at == "top" or at == "bottom":  # known before the object leaves its pile
        state.move_child(obj, parent, 0 if at == "bottom" else None)
    else:
        state.remove_child(obj)
        index = _index(state, parent, at)
        state.set_field(obj, "container", parent.id)
        state.insert_child(parent, obj, index)
    if new_pos is not None or obj.pos is not None:
        state.set_field(obj, "pos", new_pos)

def check_reveal(obj: Obj, card: Any, salt: Any) -> None:
    if not isinstance(card, str) or not isinstance(salt, str):
        raise Void(f"{obj.id!r} is face down and hidden: turning it up needs its card and salt")
    if not commit.verify(obj.id, card, salt, obj.commitment or ""):
        raise Void(f"reveal of {obj.id!r} does not match its commitment", Fault.BAD_REVEAL)


FORGED_ROLL = "joint roll does not match its shares"

# how a game ends: an end op's `how`
END_HOWS = ("victory", "concession", "time", "draw", "abandoned")


# --- handlers --------------------------------------------------------------------------------
def apply_hello(state: State, op: Op, lookup: Lookup) -> None:
    if op.author in state.peers:
        raise Void("this peer has already said hello")
    state.set_peer(op.author, {"key": op.args.get("key"), "name": op.args.get("name") or "",
                               **({"watch": True} if op.args.get("watch") else {})})


def apply_seat(state: State, op: Op, lookup: Lookup) -> None:
    number = op.args["seat"]
    if not 1 <= number <= 16:
        raise Void(f"seat {number} is out of range")
    held = state.seats.get(number)
    if op.args.get("release"):
        if held is None or held.peer != op.author:
            raise Void(f"seat {number} is not this peer's to release")
        state.set_seat(number, None)
        return
    if held is not None and held.peer != op.author and not op.args.get("force"):
        raise Void(f"seat {number} is already taken")
    state.set_seat(number, Seat(op.author, op.args.get("name") or f"Seat {number}",
                                op.args.get("colour") or ""))


def apply_create(state: State, op: Op, lookup: Lookup) -> None:
    a = op.args
    if a["id"] in state.objs:
        raise Void(f"{a['id']!r} already exists")
    if a["kind"] not in KINDS:
        raise Void(f"unknown object kind {a['kind']!r}")
    parent = _live(state, a.get("to") or ROOT, "container")
    owner = a.get("owner")
    if a.get("commitment") is not None:
        require_authority(state, op, owner, "create its hidden cards")
    obj = Obj(a["id"], a["kind"], owner=owner, face_up=a.get("face_up", True),
              rotation=a.get("rot", 0), counters=dict(a.get("counters") or {}),
              props=dict(a.get("props") or {}), card=a.get("card"),
              commitment=a.get("commitment"))
    if obj.is_secret and obj.face_up:
        raise Void("a hidden card cannot be created face up")
    state.add_obj(obj)
    index = _index(state, parent, a.get("at"))
    obj.container, obj.pos = parent.id, _pos(a.get("pos"))
    state.insert_child(parent, obj, index)


def apply_delete(state: State, op: Op, lookup: Lookup) -> None:
    obj = _live(state, op.args["id"])
    if obj.id == ROOT:
        raise Void("the table itself cannot be deleted")
    if obj.is_secret:
        require_authority(state, op, obj.owner, "delete a hidden card")
    root = state.objs[ROOT]
    for child_id in list(obj.children):  # orphans stay visible on the table
        child = state.objs[child_id]
        state.remove_child(child)
        state.set_field(child, "container", ROOT)
        state.insert_child(root, child, len(root.children))
    state.remove_child(obj)
    state.set_field(obj, "alive", False)


def apply_move(state: State, op: Op, lookup: Lookup) -> None:
    a = op.args
    objs = state.objs  # both objects looked up inline (`_live` below only says why not)
    obj = objs.get(a["id"])
    if obj is None or not obj.alive:
        obj = _live(state, a["id"])
    parent = objs.get(a["to"])
    if parent is None or not parent.alive:
        parent = _live(state, a["to"], "container")
    if obj.kind == "card" and parent.props.get("visibility", PUBLIC) != PUBLIC:
        raise Void(f"a card entering {parent.id!r} must be re-handled (consume), not moved")
    face_up = a.get("face_up")
    secret = obj.card is None and obj.commitment is not None
    if secret:
        source = objs.get(obj.container or ROOT)
        if source is not None and source.visibility != PUBLIC:
            require_authority(state, op, obj.owner, "take a hidden card out of its zone")
        if face_up:
            require_authority(state, op, obj.owner, "turn up their hidden card")
            check_reveal(obj, a.get("card"), a.get("salt"))
    at, pos = a.get("at"), a.get("pos")
    if pos is None and obj.pos is None and not obj.children and parent is not obj and (
            at is None or at == "top" or at == "bottom"):
        state.move_child(obj, parent, 0 if at == "bottom" else None)  # `_place`'s common case
    else:
        _place(state, obj, parent, at, pos)
    if secret and face_up:
        state.set_field(obj, "card", a["card"])
    if face_up is not None:
        state.set_field(obj, "face_up", face_up)
    rot = a.get("rot")
    if rot is not None:
        state.set_field(obj, "rotation", rot % 360)


_SETTABLE = {"face_up": (bool,), "rotation": (int,), "pos": (list, tuple, type(None)),
             "owner": (int, type(None))}


def apply_set(state: State, op: Op, lookup: Lookup) -> None:
    a = op.args
    obj = state.objs.get(a["id"])
    if obj is None or not obj.alive:
        obj = _live(state, a["id"])  # says why not
    name, value = a["field"], a["value"]
    types = _SETTABLE.get(name)  # first: no settable field starts with "props."
    if types is None:
        if name.startswith("props."):
            key = name[len("props."):]
            if not key or (key == "visibility" and value not in ("public", "owner", "hidden")):
                raise Void(f"bad property {name!r}={value!r}")
            state.set_prop(obj, key, value)
            return
        raise Void(f"field {name!r} cannot be set (one of {sorted(_SETTABLE)} or props.NAME)")
    if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
        raise Void(f"bad value {value!r} for {name!r}")
    secret = obj.card is None and obj.commitment is not None  # obj.is_secret, inline
    if name == "face_up" and value and secret:
        require_authority(state, op, obj.owner, "turn up their hidden card")
        check_reveal(obj, a.get("card"), a.get("salt"))
        state.set_field(obj, "card", a["card"])
    elif name == "owner" and secret:
        raise Void("a hidden card changes owner only by being re-handled")
    if name == "rotation":
        value = value % 360  # type: ignore[operator]  # checked int above
    elif name == "pos":
        value = _pos(value)
    state.set_field(obj, name, value)


def apply_counter(state: State, op: Op, lookup: Lookup) -> None:
    a = op.args
    obj = state.objs.get(a["id"])
    if obj is None or not obj.alive:
        obj = _live(state, a["id"])  # says why not
    add: int | None = a.get("add")
    value: int | None = a.get("value")
    if (add is None) == (value is None):
        raise Void("a counter op states exactly one of add or value")
    key = a.get("key") or "value"
    total = value if value is not None else obj.counters.get(key, 0) + (add or 0)
    state.set_counter(obj, key, total)  # raw values: the table never clamps


def apply_consume(state: State, op: Op, lookup: Lookup) -> None:
    # a shuffle re-handles a whole pile in one op (a quarter of a game's fold): its checks and
    # writes are inlined, in the order and with the journal entries of the primitives
    a = op.args
    parent = _live(state, a["to"], "container")
    ids = a["in"]
    expect = a.get("expect") or [None] * len(ids)
    if len(expect) != len(ids):
        raise Void("consume: 'expect' must name a container per input")
    objs, seats, author = state.objs, state.seats, op.author
    inputs: list[Obj] = []
    for obj_id, where in zip(ids, expect, strict=True):  # lengths checked above
        if not isinstance(obj_id, str):
            raise Void("consume: inputs are object ids")
        obj = objs.get(obj_id)
        if obj is None or not obj.alive:
            obj = _live(state, obj_id, "input")  # raises: says which
        if where is not None and obj.container != where:
            raise Void(f"input {obj_id!r} is no longer in {where!r}")
        if obj.kind != "card":
            raise Void(f"input {obj_id!r} is not a card")
        if obj.card is None and obj.commitment is not None:  # obj.is_secret
            seat = seats.get(obj.owner) if obj.owner is not None else None
            if obj.owner is not None and (seat is None or seat.peer != author):
                require_authority(state, op, obj.owner, "re-handle their hidden card")
        else:
            holder = objs.get(obj.container or ROOT)
            if holder is not None and holder.visibility != PUBLIC:
                require_authority(state, op, holder.owner, "take a card from their zone")
        inputs.append(obj)
    if len(set(ids)) != len(inputs):
        raise Void("consume: an input is named twice")
    if parent.visibility != PUBLIC and parent.owner is not None:
        holder_seat = seats.get(parent.owner)
        mine = holder_seat is not None and holder_seat.peer == author
        if not mine and not set(parent.children).isdisjoint(ids):
            raise Void(f"only seat {parent.owner}'s player may re-handle {parent.id!r}")
    outputs = fresh_outputs(state, a["out"], "consume")
    journal = state.journal
    for obj in inputs:
        state.remove_child(obj)
        journal.append(("f", obj, "alive", True))  # state.set_field: it was alive
        obj.alive = False
    place_outputs(state, parent, outputs, a.get("owner", parent.owner),
                  bool(a.get("face_up", False)), _index(state, parent, a.get("at")))


def fresh_outputs(state: State, out: Any, kind: str) -> list[tuple[str, str]]:
    """Check re-handling outputs, [[handle, commitment], ...]: well formed, fresh, distinct."""
    outputs: list[tuple[str, str]] = []
    objs = state.objs
    for item in out:
        if (not isinstance(item, (list, tuple)) or len(item) != 2
                or not isinstance(item[0], str) or not isinstance(item[1], str)):
            raise Void(f"{kind}: each output is [handle, commitment]")
        if item[0] in objs:
            raise Void(f"{kind}: handle {item[0]!r} is not fresh")
        outputs.append((item[0], item[1]))
    if len({h for h, _ in outputs}) != len(outputs):
        raise Void(f"{kind}: an output handle is named twice")
    return outputs


def place_outputs(state: State, parent: Obj, outputs: list[tuple[str, str]], owner: int | None,
                  face_up: bool, index: int) -> None:
    """Create the fresh committed handles in `parent`, from `index` on (the journal entries of
    `add_obj` and `insert_child`, inlined: one per card of a shuffled pile)."""
    objs, journal, children, pid = state.objs, state.journal, parent.children, parent.id
    for handle, digest in outputs:
        objs[handle] = Obj(handle, "card", owner=owner, container=pid, face_up=face_up,
                           commitment=digest)
        journal.append(("new", handle))
        children.insert(index, handle)
        journal.append(("ins", parent, index, handle))
        index += 1


def apply_reveal(state: State, op: Op, lookup: Lookup) -> None:
    a = op.args
    obj = _live(state, a["id"])
    if not obj.is_secret:
        raise Void(f"{obj.id!r} is not hidden")
    require_authority(state, op, obj.owner, "reveal their hidden card")
    check_reveal(obj, a["card"], a["salt"])
    state.set_field(obj, "card", a["card"])
    if a.get("face_up") is not None:
        state.set_field(obj, "face_up", a["face_up"])


def apply_show(state: State, op: Op, lookup: Lookup) -> None:
    obj = _live(state, op.args["id"])
    if obj.is_secret:
        require_authority(state, op, obj.owner, "show their hidden card")


def apply_roll(state: State, op: Op, lookup: Lookup) -> None:
    a = op.args
    sides, values = a["sides"], a["values"]
    if sides < 2 or not values or not all(
            isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= sides for v in values):
        raise Void(f"bad roll {values!r} on d{sides}")
    if a.get("fair") is not None:  # a joint roll: every peer checks it derives from its shares
        problem = fair.roll_problem(a, op.author)
        if problem is not None:
            raise Void(f"{FORGED_ROLL}: {problem}", Fault.FORGED_ROLL)
    if a.get("id") is not None:
        die = _live(state, a["id"], "die")
        state.set_counter(die, "value", sum(values))
        state.set_prop(die, "values", list(values))
