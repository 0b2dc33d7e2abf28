"""What replication needs from the table core (``table.core.replica.Replica``), declared: ops
in their wire form, signed and verified as ``netplay.replication.replication`` says.

The replica's ``verifier`` is any callable (op, announced key) -> valid; the verifier a LAN
session sets (:class:`~netplay.replication.opsign.OpVerifier`) also has the hooks of
:class:`ReceivingVerifier`, which replication uses to verify a batch faster, from the bytes
each op arrived as.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from table.core.causal import CausalStore

KeyOf = Callable[[Any], "str | None"]  # the announced key the replica will check an op with


@runtime_checkable
class ReceivingVerifier(Protocol):
    """A verifier that takes each op's signed bytes from the canonical bytes it arrived as
    (``received_as``, until ``forget_received``) and checks a batch ahead of its delivery."""

    def __call__(self, op: Any, key_hex: str | None) -> bool: ...
    def received_as(self, op: Any, raw: bytes) -> None: ...
    def check_ahead(self, ops: list[Any], given_key: KeyOf) -> None: ...
    def forget_received(self) -> None: ...


_HOOKED: dict[type, bool] = {}  # verifier type -> whether it has the hooks (asked once)


def receiving_hooks(verifier: Any) -> ReceivingVerifier | None:
    """``verifier`` itself if it has :class:`ReceivingVerifier`'s hooks, else None. Asked once
    per verifier type: isinstance against a runtime protocol walks its members every time."""
    kind = type(verifier)
    hooked = _HOOKED.get(kind)
    if hooked is None:
        hooked = _HOOKED[kind] = isinstance(verifier, ReceivingVerifier)
    return verifier if hooked else None


class Replica(Protocol):
    """The table core's replica, as replication uses it."""

    @property
    def peer_id(self) -> str: ...
    @property
    def store(self) -> CausalStore: ...
    @property
    def verifier(self) -> Callable[[Any, str | None], bool] | None: ...
    @property
    def equivocations(self) -> dict[tuple[str, int], list[Any]]: ...

    def version_vector(self) -> dict[str, int]: ...
    def ops_missing_for(self, vv: dict[str, int]) -> list[list[Any]]: ...
    def receive_many(self, wires: list[Any], from_peer: str = "") -> Any: ...
    def public_state_hash(self) -> str: ...
    def report(self, message: str) -> None: ...
    def void_author_from(self, author: str, seq: int, proof: list[Any] | None = None) -> None: ...


@dataclass(frozen=True, slots=True)
class ReplicationConfig:
    hash_interval: float = 5.0
    max_batch_ops: int = 256
    max_batch_bytes: int = 512 * 1024
