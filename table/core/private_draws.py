"""Private dice at a shared table: a roll or shuffle a peer drew without a player it could
reach, alone or in a "joint" draw that leaves that player out, or with a commitment forged in
another's name.

At a LAN table every roll and hidden-pile shuffle is drawn jointly with every player the peer
can reach (``netplay.draws.joint_draws``); a peer's software draws alone only when no other
player can be reached, or when the table was opened allowing local draws (``local_draws`` in
its layout mark). So a player's peer that receives a draw made while its author could reach
it, without its own commitment, has seen the author draw privately where others were present;
one that records a commitment in its name that it never made has seen a forgery
(``netplay.draws.witness`` judges both). It flags the op. The flag is written to its log as
``{"flag": {"op": [author, seq], "seat": s, "why": text}}``, so ``sandtable check --audit`` of
that log fails, naming the op and its seat, and a merged log carries the flag too.
"""
from __future__ import annotations

from typing import Any

from .ops import Op


def local_draws_allowed(layout_fields: dict[str, Any]) -> bool:
    """The table was opened allowing local draws (its layout mark says so)."""
    return layout_fields.get("local_draws") is True


def describe(op: Op, linked_to: str) -> str:
    what = (f"rolled d{op.args.get('sides')} as {op.args.get('values')}" if op.kind == "roll"
            else f"shuffled {op.args.get('to')}")
    seat = f" (seat {op.seat})" if op.seat is not None else ""
    return (f"peer {op.author}{seat} {what} alone while linked to player {linked_to}: "
            f"private dice at a shared table (op {op.author}#{op.seq})")


def flag(replica: Any, op: Op, why: str) -> None:
    """Flag ``op`` as private dice: kept (and logged) so the audit fails on it; reported."""
    if op.ref in replica.flags:
        return
    replica.flags[op.ref] = why
    if replica.log is not None:
        replica.log.append(flag_record(op.author, op.seq, op.seat, why))
    replica.report(why)


def flag_record(author: str, seq: int, seat: int | None, why: str) -> dict[str, Any]:
    """A flag as the log keeps it."""
    return {"flag": {"op": [author, seq], "seat": seat, "why": why}}


def read_flag(record: Any) -> tuple[tuple[str, int], str] | None:
    """A logged flag as (op ref, why), or None when malformed."""
    if not isinstance(record, dict):
        return None
    ref, why = record.get("op"), record.get("why")
    if (isinstance(ref, (list, tuple)) and len(ref) == 2 and isinstance(ref[0], str)
            and type(ref[1]) is int and isinstance(why, str)):
        return (ref[0], ref[1]), why
    return None
