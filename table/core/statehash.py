"""A hash of the public state, to detect divergence between peers.

It covers each live object's handle, kind, owner, location and order, face, rotation, counters,
properties, commitment and public card, plus seats, turn and phase, and (when recorded)
the module's hash and each seat's deck hash. Never private knowledge,
stamps or history. Compare hashes only between peers at equal version vectors.
"""
from __future__ import annotations

import hashlib
import json

from .state import State


def public_state_hash(state: State) -> str:
    digest = hashlib.sha256()
    for obj_id in sorted(state.objs):
        o = state.objs[obj_id]
        if not o.alive:
            continue
        digest.update(json.dumps(
            [o.id, o.kind, o.owner, o.container, o.children, list(o.pos) if o.pos else None,
             o.face_up, o.rotation, sorted(o.counters.items()), o.card, o.commitment,
             sorted(o.props.items(), key=lambda kv: kv[0])],
            separators=(",", ":"), default=str).encode())
    if state.module is not None:  # only tables that record their module: older hashes stand
        digest.update(json.dumps([state.module.get("hash"), sorted(
            (n, d.get("hash")) for n, d in state.decks.items())],
            separators=(",", ":")).encode())
    digest.update(json.dumps(
        [sorted((n, s.peer, s.name) for n, s in state.seats.items()), state.turn, state.phase,
         sorted(state.acks.items())], separators=(",", ":"), default=str).encode())
    if state.result is not None:  # only ended games: older hashes stay as they were
        digest.update(json.dumps(state.result, sort_keys=True, default=str).encode())
    return digest.hexdigest()[:32]
