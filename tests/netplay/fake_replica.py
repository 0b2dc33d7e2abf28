"""A minimal in-test Replica: ops are kept per author, delivered in seq order."""

from __future__ import annotations

import hashlib
from typing import Any

import msgpack


class FakeReplica:
    def __init__(self, peer_id: str) -> None:
        self._peer_id = peer_id
        self.log: dict[str, list[dict[str, Any]]] = {}
        self.pending: dict[tuple[str, int], dict[str, Any]] = {}
        self.received_from: list[str] = []
        self.corrupt = False

    @property
    def peer_id(self) -> str:
        return self._peer_id

    def new_op(self, payload: Any) -> dict[str, Any]:
        seq = len(self.log.get(self._peer_id, [])) + 1
        return {"author": self._peer_id, "seq": seq, "payload": payload}

    def add_local(self, op: dict[str, Any]) -> None:
        self.log.setdefault(self._peer_id, []).append(op)

    def version_vector(self) -> dict[str, int]:
        return {a: len(ops) for a, ops in self.log.items()}

    def ops_missing_for(self, vv: dict[str, int]) -> list[dict[str, Any]]:
        return [op for a, ops in self.log.items() for op in ops[vv.get(a, 0):]]

    def receive(self, op: dict[str, Any], from_peer: str) -> None:
        self.received_from.append(from_peer)
        self.pending[(op["author"], op["seq"])] = op
        progress = True
        while progress:
            progress = False
            for (author, seq), pending in list(self.pending.items()):
                have = len(self.log.get(author, []))
                if seq <= have:
                    del self.pending[(author, seq)]
                elif seq == have + 1:
                    self.log.setdefault(author, []).append(pending)
                    del self.pending[(author, seq)]
                    progress = True

    def public_state_hash(self) -> str:
        items = sorted((a, op["seq"], op["payload"]) for a, ops in self.log.items() for op in ops)
        if self.corrupt:
            items.append(("x", 0, "corrupt"))
        return hashlib.sha256(msgpack.packb(items)).hexdigest()
