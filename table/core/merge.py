"""Merge several peers' logs of one table into the designer's complete record.

The union of every op (each peer holds the whole log, but one may have crashed early) and every
secret any of them held, so the merged log shows every hidden card and can be verified: each
revealed card is checked against its commitment when the merged log is replayed. An author
that signed two ops under one number (two logs holding one version each, or a logged proof)
keeps one version and the proof is written too, so the merged log voids the same ops.
"""
from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from . import commit
from .equivocation import check_proof
from .errors import BadOp, CoreError
from .knowledge import Knowledge, deck_hash
from .logfile import LogWriter, make_header, read_log
from .causal import same_op
from .ops import Op, from_wire
from .private_draws import read_flag


class MergeError(CoreError):
    pass


def merge_logs(paths: list[Path], out: Path) -> str:
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
    _write(out, gathered, verified, [str(p) for p in paths])
    summary = (f"merged {len(paths)} log(s) into {out}: {len(gathered.ops)} ops, "
               f"{len(verified)} of {len(commitments)} hidden cards known")
    if bad:
        summary += f", {bad} secret(s) did not match their commitment and were dropped"
    for problem in gathered.problems:
        summary += f"\nwarning: {problem}"
    return summary


class _Gathered:
    """Everything the logs of one table hold between them: ops, secrets, module archives."""

    def __init__(self) -> None:
        self.ops: dict[tuple[str, int], Op] = {}
        # (author, seq) -> both versions: from a log's proof, or two logs holding one each
        self.equivocations: dict[tuple[str, int], list[Any]] = {}
        self.flags: dict[tuple[str, int], dict[str, Any]] = {}  # private dice, as flagged
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
                known = self.ops.setdefault(op.ref, op)
                if known is not op and not same_op(known, op):
                    self.equivocations.setdefault(op.ref, [known.to_wire(), op.to_wire()])

    def _absorb(self, record: dict[str, Any]) -> None:
        flagged = read_flag(record.get("flag"))
        if flagged is not None:
            self.flags.setdefault(flagged[0], record["flag"])
        if "equivocation" in record:
            try:
                ref = check_proof(record["equivocation"])
            except BadOp as err:
                self.problems.append(f"an equivocation record proves nothing: {err}")
            else:
                self.equivocations.setdefault(ref, list(record["equivocation"]))
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


def _write(out: Path, gathered: _Gathered, verified: dict[str, list[Any]],
           merged_from: list[str]) -> None:
    if out.exists():
        out.unlink()
    writer = LogWriter(out, make_header(str(gathered.table_id), "merged", str(gathered.game),
                                        str(gathered.game_hash), merged_from=merged_from))
    knowledge = gathered.knowledge
    try:
        for digest, (kind, data) in sorted(gathered.blobs.items()):
            writer.append({"blob": {"kind": kind, "hash": digest, "data": data}})
        for op in sorted(gathered.ops.values(), key=lambda o: o.key):
            writer.append(op.to_wire())
        for _ref, proof in sorted(gathered.equivocations.items()):  # replay voids the same
            writer.append({"equivocation": proof})
        for _ref, flagged in sorted(gathered.flags.items()):
            writer.append({"flag": flagged})
        writer.append({"secret": {"cards": verified,
                                  "shown": {h: sorted(s) for h, s in knowledge.shown.items()},
                                  "decks": _verified_decks(gathered.ops.values(), knowledge),
                                  # fair shuffles' shares and orders, published deck orders:
                                  # what `sandtable check --audit` verifies
                                  "fair": knowledge.fair}})
    finally:
        writer.close()


def _verified_decks(ops: Iterable[Op], knowledge: Knowledge) -> dict[str, str]:
    """Deck list texts that match the hash their seat's deck op recorded."""
    recorded = {op.args["seat"]: op.args["hash"] for op in sorted(ops, key=lambda o: o.key)
                if op.kind == "deck"}
    return {str(seat): text for seat, text in knowledge.decks.items()
            if recorded.get(seat) == deck_hash(text)}
