"""Ops in batches, both ways: the ``ops`` messages a list of ops is sent in (within the batch
limits), and the live ops that arrived together from one peer, held until the last of them so
that they are verified back to back and applied with one fold (a burst costs less per op than
the same ops one by one; every op is still checked, and in the order it came). Live ops are
handed on to the peers that have no link to their author (:func:`relay_live`)."""
from __future__ import annotations

import logging
from typing import Any, Protocol

from netplay.protocol.messages import OpBatch
from netplay.protocol.wire import pack
from netplay.replication.seam import ReplicationConfig

log = logging.getLogger("netplay.replication.replication")  # where these lines always were


class LinkedPeers(Protocol):
    def peers(self) -> list[str]: ...
    def linked_to(self, peer_id: str, other: str) -> bool: ...
    def send(self, peer_id: str, msg: OpBatch) -> bool: ...


def relay_live(mesh: LinkedPeers, author: str, ops: list[list[Any]]) -> None:
    """Hand an author's live ops on, as they came, to each linked peer that has no link to it
    (its gossip says so): a peer reached only through this one gets them live, not at the next
    hash exchange. Only first-hand ops are handed on: one hop."""
    targets = [p for p in mesh.peers() if p != author and not mesh.linked_to(p, author)]
    if targets:
        relayed = OpBatch(ops)
        for peer in targets:
            mesh.send(peer, relayed)


def op_batches(wires: list[list[Any]], config: ReplicationConfig) -> list[OpBatch]:
    """``wires`` in ``ops`` messages of at most ``max_batch_ops`` ops and ``max_batch_bytes``
    (an op too large for any batch is logged and left out)."""
    batches: list[OpBatch] = []
    batch: list[list[Any]] = []
    size = 0
    for op in wires:
        op_size = len(pack(op))
        if op_size > config.max_batch_bytes:
            log.error("op %s/%s is too large to send (%d bytes)", op[0], op[1], op_size)
            continue
        full = len(batch) >= config.max_batch_ops or size + op_size > config.max_batch_bytes
        if batch and full:
            batches.append(OpBatch(batch))
            batch, size = [], 0
        batch.append(op)
        size += op_size
    if batch:
        batches.append(OpBatch(batch))
    return batches


class HeldLive:
    """Live ops (checked: envelope, encoding, author) that came together from one peer, and
    the bytes each came as, until they are taken to be delivered."""

    __slots__ = ("ops", "peer_id", "raws")

    def __init__(self) -> None:
        self.peer_id = ""
        self.ops: list[list[Any]] = []
        self.raws: list[bytes] = []

    def __bool__(self) -> bool:
        return bool(self.ops)

    def hold(self, peer_id: str, ops: list[list[Any]], raws: list[bytes]) -> None:
        self.peer_id = peer_id
        self.ops += ops
        self.raws += raws

    def take(self) -> tuple[str, list[list[Any]], list[bytes]]:
        taken = self.peer_id, self.ops, self.raws
        self.ops, self.raws = [], []
        return taken
