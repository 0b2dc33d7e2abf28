"""Merge several peers' logs of one table into the designer's complete record.

The union of every op (each peer holds the whole log, but one may have crashed early) and every
secret any of them held, so the merged log shows every hidden card and can be verified: each
revealed card is checked against its commitment when the merged log is replayed.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import commit
from .errors import CoreError
from .knowledge import Knowledge, deck_hash
from .logfile import LogWriter, make_header, read_log
from .ops import Op, from_wire


class MergeError(CoreError):
    pass


@dataclass(slots=True)
class Merged:
    """Several peers' logs of one table folded into one record, in memory: the header and
    records a merged log file holds (`merge_logs` writes exactly these)."""
    header: dict[str, Any]
    records: list[Any]
    summary: str  # "N ops, K of M hidden cards known[, B secret(s) ... dropped]"
    problems: list[str] = field(default_factory=list)  # what the readers could not read


def merge_records(paths: list[Path]) -> Merged:
    """The merged record of `paths` (logs of one table), without writing a file."""
    if not paths:
        raise MergeError("no logs to merge")
    gathered = _Gathered()
    for path in paths:
        gathered.read(path)
    commitments = _commitments(gathered.ops.values())
    cards = gathered.knowledge.cards
    verified = {h: [card, salt] for h, (card, salt) in cards.items()
                if h in commitments and commit.verify(h, card, salt, commitments[h])}
    bad = len([h for h in cards if h in commitments]) - len(verified)
    summary = f"{len(gathered.ops)} ops, {len(verified)} of {len(commitments)} hidden cards known"
    if bad:
        summary += f", {bad} secret(s) did not match their commitment and were dropped"
    header = make_header(str(gathered.table_id), "merged", str(gathered.game),
                         str(gathered.game_hash), merged_from=[str(p) for p in paths])
    return Merged(header, _records(gathered, verified), summary, list(gathered.problems))


def merge_logs(paths: list[Path], out: Path) -> str:
    merged = merge_records(paths)
    if out.exists():
        out.unlink()
    writer = LogWriter(out, merged.header)
    try:
        for record in merged.records:
            writer.append(record)
    finally:
        writer.close()
    summary = f"merged {len(paths)} log(s) into {out}: {merged.summary}"
    for problem in merged.problems:
        summary += f"\nwarning: {problem}"
    return summary


class _Gathered:
    """Everything the logs of one table hold between them: ops, secrets, module archives."""

    def __init__(self) -> None:
        self.ops: dict[tuple[str, int], Op] = {}
        self.knowledge = Knowledge()
        self.blobs: dict[str, tuple[str, bytes]] = {}  # hash -> (kind, data): module archives
        self.table_id: str | None = None
        self.game, self.game_hash = "", ""
        self.problems: list[str] = []

    def read(self, path: Path) -> None:
        contents = read_log(path)
        head = contents.header
        if self.table_id is None:
            self.table_id = head.get("table")
            self.game, self.game_hash = head.get("game", ""), head.get("game_hash", "")
        elif head.get("table") != self.table_id:
            raise MergeError(f"{path}: table {head.get('table')!r} is not {self.table_id!r}; "
                             f"only logs of one table merge")
        self.problems.extend(contents.problems)
        for record in contents.records:
            if type(record) is dict:
                self._absorb(record)
                record = record.get("op")
            if record is not None:
                op = from_wire(record)
                self.ops.setdefault(op.ref, op)

    def _absorb(self, record: dict[str, Any]) -> None:
        blob = record.get("blob")
        if isinstance(blob, dict) and isinstance(blob.get("hash"), str):
            self.blobs.setdefault(blob["hash"], (str(blob.get("kind", "")),
                                                 bytes(blob.get("data") or b"")))
        for key in ("private", "secret"):
            if isinstance(record.get(key), dict):
                self.knowledge.absorb(record[key])


def _commitments(ops: Iterable[Op]) -> dict[str, Any]:
    """Every hidden card's commitment, by handle: a secret is kept only if it matches one."""
    commitments = {}
    for op in ops:
        if op.kind == "consume":
            commitments.update({h: c for h, c in op.args["out"]})
        elif op.kind == "create" and op.args.get("commitment"):
            commitments[op.args["id"]] = op.args["commitment"]
    return commitments


def _records(gathered: _Gathered, verified: dict[str, list[Any]]) -> list[Any]:
    """Module archives first, then every op in canonical order, then the verified secrets."""
    knowledge = gathered.knowledge
    records: list[Any] = [{"blob": {"kind": kind, "hash": digest, "data": data}}
                          for digest, (kind, data) in sorted(gathered.blobs.items())]
    records.extend(op.to_wire() for op in sorted(gathered.ops.values(), key=lambda o: o.key))
    records.append({"secret": {"cards": verified,
                               "shown": {h: sorted(s) for h, s in knowledge.shown.items()},
                               "decks": _verified_decks(gathered.ops.values(), knowledge),
                               # fair shuffles' shares and orders, published deck orders:
                               # what `sandtable check --audit` verifies
                               "fair": knowledge.fair}})
    return records


def _verified_decks(ops: Iterable[Op], knowledge: Knowledge) -> dict[str, str]:
    """Deck list texts that match the hash their seat's deck op recorded."""
    recorded = {op.args["seat"]: op.args["hash"] for op in sorted(ops, key=lambda o: o.key)
                if op.kind == "deck"}
    return {str(seat): text for seat, text in knowledge.decks.items()
            if recorded.get(seat) == deck_hash(text)}
