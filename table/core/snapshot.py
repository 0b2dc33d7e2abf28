"""Snapshots: the public state as plain data, and back.

Used for replay checkpoints (seeking back through a long log without replaying from the start)
and for compacting a log below the point every current peer has applied. A snapshot holds no
private knowledge and no history: the same content the state hash covers.
"""
from __future__ import annotations

from typing import Any

from .objects import Obj
from .state import Seat, State

SNAPSHOT_VERSION = 1


def to_snapshot(state: State) -> dict[str, Any]:
    objects = [[o.id, o.kind, o.owner, o.container, list(o.pos) if o.pos else None, o.face_up,
                o.rotation, dict(o.counters), dict(o.props), o.card, o.commitment, o.alive,
                list(o.children)] for o in state.objs.values()]
    return {"version": SNAPSHOT_VERSION, "objects": objects,
            "seats": {str(n): [s.peer, s.name, s.colour] for n, s in state.seats.items()},
            "peers": dict(state.peers), "turn": dict(state.turn), "phase": state.phase,
            "acks": dict(state.acks), "result": state.result,
            **({"tags": dict(state.tags)} if state.tags else {})}


def from_snapshot(data: dict[str, Any]) -> State:
    if data.get("version") != SNAPSHOT_VERSION:
        raise ValueError(f"snapshot version {data.get('version')!r} is not supported")
    state = State()
    state.objs.clear()
    for (oid, kind, owner, container, pos, face_up, rotation, counters, props, card, commitment,
         alive, children) in data["objects"]:
        state.objs[oid] = Obj(oid, kind, owner, container, tuple(pos) if pos else None, face_up,
                              rotation, dict(counters), dict(props), card, commitment, alive,
                              list(children))
    state.seats = {int(n): Seat(*v) for n, v in data["seats"].items()}
    state.peers = dict(data["peers"])
    state.turn = dict(data["turn"])
    state.phase = data["phase"]
    state.acks = dict(data["acks"])
    state.result = data.get("result")
    state.tags = dict(data.get("tags") or {})
    return state
