"""An author that signed two different ops under one number: the proof and the fold's rule.

The rule, the same in the live fold, a replay, a merge and every reader: once two different ops
signed by one author under one number ``(author, seq)`` are known, every op of that author from
``seq`` on is void, whichever version a peer received first. The proof is both versions in wire
form. Netplay shows it to every peer; the replica writes it to its log as the record
``{"equivocation": [WIRE, WIRE]}``, so a log read again voids the same ops and hashes to the
live state, and two peers that each received one version agree once either has seen both.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .errors import BadOp
from .ops import Op, from_wire

Verify = Callable[[Op], bool]  # True when an op's signature holds


def check_proof(proof: Any, verify: Verify | None = None) -> tuple[str, int]:
    """The ``(author, seq)`` a proof convicts. Raises BadOp when it proves nothing: not two
    ops, not one author and number, the same op twice, or (with ``verify``) a version whose
    signature does not hold (anyone could write an unsigned 'second version')."""
    if not isinstance(proof, (list, tuple)) or len(proof) != 2:
        raise BadOp("an equivocation proof must hold two ops")
    one, two = (from_wire(wire) for wire in proof)
    if (one.author, one.seq) != (two.author, two.seq):
        raise BadOp(f"an equivocation proof names {one.author}#{one.seq} and "
                    f"{two.author}#{two.seq}, not one number")
    if one.sig == two.sig and one.signing_bytes() == two.signing_bytes():
        raise BadOp(f"an equivocation proof for {one.author}#{one.seq} holds one op twice")
    if verify is not None and not (verify(one) and verify(two)):
        raise BadOp(f"an equivocation proof for {one.author}#{one.seq} has a bad signature")
    return one.author, one.seq


def void_from(voided: dict[str, int], author: str, seq: int) -> bool:
    """Record that ``author``'s ops from ``seq`` on are void; True if that voids more."""
    if voided.get(author, seq + 1) <= seq:
        return False
    voided[author] = seq
    return True


def live_ops(ops: list[Op], voided: dict[str, int]) -> list[Op]:
    """The ops the fold applies: all but an equivocating author's from its void number on."""
    return [op for op in ops if op.seq < voided.get(op.author, op.seq + 1)]
