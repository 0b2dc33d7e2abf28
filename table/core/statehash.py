"""A hash of the public state, to detect divergence between peers.

It covers each live object's handle, kind, owner, location and order, face, rotation, counters,
properties, commitment and public card, plus seats, turn and phase, and (when recorded)
the module's hash and each seat's deck hash, the result and the session's tags. Never private
knowledge,
stamps or history. Compare hashes only between peers at equal version vectors.
"""
from __future__ import annotations

import hashlib
import json

from .state import State


def _obj_bytes(state: State, obj_id: str) -> bytes:
    o = state.objs[obj_id]
    return json.dumps(
        [o.id, o.kind, o.owner, o.container, o.children, list(o.pos) if o.pos else None,
         o.face_up, o.rotation, sorted(o.counters.items()), o.card, o.commitment,
         sorted(o.props.items(), key=lambda kv: kv[0])],
        separators=(",", ":"), default=str).encode()


def public_state_hash(state: State) -> str:
    digest = hashlib.sha256()
    for obj_id in sorted(state.objs):
        if state.objs[obj_id].alive:
            digest.update(_obj_bytes(state, obj_id))
    if state.module is not None:  # only tables that record their module: older hashes stand
        digest.update(json.dumps([state.module.get("hash"), sorted(
            (n, d.get("hash")) for n, d in state.decks.items())],
            separators=(",", ":")).encode())
    digest.update(json.dumps(
        [sorted((n, s.peer, s.name) for n, s in state.seats.items()), state.turn, state.phase,
         sorted(state.acks.items())], separators=(",", ":"), default=str).encode())
    if state.result is not None:  # only ended games: older hashes stay as they were
        digest.update(json.dumps(state.result, sort_keys=True, default=str).encode())
    if state.tags:  # only tagged sessions: older hashes stay as they were
        digest.update(json.dumps(state.tags, sort_keys=True).encode())
    return digest.hexdigest()[:32]


def objects_digest(state: State, ids: set[str]) -> str:
    """What the objects `ids` are now ('#': seats, turn, phase, acks, result), to tell whether
    an op changed anything at all (an op may write a field and put it back as it was)."""
    digest = hashlib.sha256()
    for obj_id in sorted(ids):
        obj = state.objs.get(obj_id)
        if obj is not None:
            digest.update(_obj_bytes(state, obj_id) + (b"1" if obj.alive else b"0"))
    if "#" in ids:
        digest.update(json.dumps([sorted((n, s.peer, s.name) for n, s in state.seats.items()),
                                  state.turn, state.phase, sorted(state.acks.items()),
                                  state.result], separators=(",", ":"), default=str).encode())
    return digest.hexdigest()
