"""Merge several peers' logs of one table into the designer's complete record.

The union of every op (each peer holds the whole log, but one may have crashed early) and every
secret any of them held, so the merged log shows every hidden card and can be verified: each
revealed card is checked against its commitment when the merged log is replayed. An author
that signed two ops under one number (two logs holding one version each, or a logged proof)
keeps one version and the proof is written too, so the merged log voids the same ops.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import commit
from .causal import same_op
from .equivocation import check_proof
from .errors import BadOp, CoreError
from .knowledge import Knowledge, deck_hash
from .logfile import LogContents, LogWriter, make_header, read_log
from .ops import Op, from_wire
from .private_draws import read_flag

_HEADER_KEYS = {"format", "version", "table", "peer", "game", "game_hash", "created",
                "recovered", "merged_from"}


class MergeError(CoreError):
    pass


def merge_logs(paths: list[Path], out: Path) -> str:
    merged = merge_records(paths)
    _write(out, merged)
    summary = f"merged {len(paths)} log(s) into {out}: {merged.summary}"
    for problem in merged.problems:
        summary += f"\nwarning: {problem}"
    return summary


def merge_records(paths: list[Path]) -> MergedLog:
    """The merged record of `paths` (logs of one table), without writing a file."""
    if not paths:
        raise MergeError("no logs to merge")
    return merge_contents([read_log(path) for path in paths])


@dataclass
class MergedLog:
    """Several peers' logs of one table as one log, in memory: what `log merge` writes and
    what every reader that counts sessions reads (one table, one session)."""
    header: dict[str, Any]
    records: list[Any]  # module archives, then every op in canonical order, then the secrets
    sources: list[Path]
    problems: list[str]  # what the sources could not read (damage, by file)
    ops: int = 0
    known: int = 0  # hidden cards whose identity some log held, verified
    hidden: int = 0  # hidden cards (commitments)
    dropped: int = 0  # secrets that did not match their commitment
    missing: dict[Path, int] = field(default_factory=dict)  # a source -> ops it lacks

    @property
    def summary(self) -> str:
        text = f"{self.ops} ops, {self.known} of {self.hidden} hidden cards known"
        if self.dropped:
            text += f", {self.dropped} secret(s) did not match their commitment and were dropped"
        return text


def merge_contents(contents: list[LogContents]) -> MergedLog:
    """The union of `contents` (logs of one table, read): every op once, every secret any of
    them holds that matches its commitment."""
    if not contents:
        raise MergeError("no logs to merge")
    gathered = _Gathered()
    held: dict[Path, int] = {}
    # an intact header names the table; a rebuilt one may not
    contents = sorted(contents, key=lambda item: bool(item.header.get("recovered")))
    for item in contents:
        held[item.path] = gathered.absorb(item)
    commitments = _commitments(gathered.ops.values())
    cards = gathered.knowledge.cards
    verified = {h: [card, salt] for h, (card, salt) in cards.items()
                if h in commitments and commit.verify(h, card, salt, commitments[h])}
    knowledge = gathered.knowledge
    records: list[Any] = [{"blob": {"kind": kind, "hash": digest, "data": data}}
                          for digest, (kind, data) in sorted(gathered.blobs.items())]
    records += [op.to_wire() for op in sorted(gathered.ops.values(), key=lambda o: o.key)]
    # the proofs, so replay voids the same ops; private dice as they were flagged
    records += [{"equivocation": proof} for _ref, proof in sorted(gathered.equivocations.items())]
    records += [{"flag": flagged} for _ref, flagged in sorted(gathered.flags.items())]
    records.append({"secret": {"cards": verified,
                               "shown": {h: sorted(s) for h, s in knowledge.shown.items()},
                               "decks": _verified_decks(gathered.ops.values(), knowledge),
                               # fair shuffles' shares and orders, published deck orders:
                               # what `sandtable check --audit` verifies
                               "fair": knowledge.fair}})
    # what only headers say (seats, deck names) comes from the first log that says it
    extras: dict[str, Any] = {}
    for item in contents:
        for key, value in item.header.items():
            if key not in _HEADER_KEYS:
                extras.setdefault(key, value)
    extras["merged_from"] = [str(item.path) for item in contents]
    header = make_header(str(gathered.table_id), "merged", str(gathered.game),
                         str(gathered.game_hash), **extras)
    total = len(gathered.ops)
    return MergedLog(header, records, [item.path for item in contents], gathered.problems,
                     total, len(verified), len(commitments),
                     len([h for h in cards if h in commitments]) - len(verified),
                     {path: total - n for path, n in held.items() if n < total})


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

    def absorb(self, contents: LogContents) -> int:
        """Take in one log's ops and secrets; returns how many ops it held."""
        head, path = contents.header, contents.path
        if self.table_id is None:
            self.table_id = head.get("table")
            self.game, self.game_hash = head.get("game", ""), head.get("game_hash", "")
        elif head.get("table") != self.table_id and not head.get("recovered"):
            # (a log whose damaged header was rebuilt may have lost its table id)
            raise MergeError(f"{path}: table {head.get('table')!r} is not {self.table_id!r}; "
                             f"only logs of one table merge")
        if not self.game:
            self.game, self.game_hash = head.get("game", ""), head.get("game_hash", "")
        self.problems.extend(contents.problems)
        held: set[tuple[str, int]] = set()
        for record in contents.records:
            if type(record) is dict:
                self._absorb(record)
                record = record.get("op")
            if record is not None:
                op = from_wire(record)
                known = self.ops.setdefault(op.ref, op)
                if known is not op and not same_op(known, op):
                    self.equivocations.setdefault(op.ref, [known.to_wire(), op.to_wire()])
                held.add(op.ref)
        return len(held)

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


def _write(out: Path, merged: MergedLog) -> None:
    if out.exists():
        out.unlink()
    writer = LogWriter(out, merged.header)
    try:
        for record in merged.records:
            writer.append(record)
    finally:
        writer.close()


def _verified_decks(ops: Iterable[Op], knowledge: Knowledge) -> dict[str, str]:
    """Deck list texts that match the hash their seat's deck op recorded."""
    recorded = {op.args["seat"]: op.args["hash"] for op in sorted(ops, key=lambda o: o.key)
                if op.kind == "deck"}
    return {str(seat): text for seat, text in knowledge.decks.items()
            if recorded.get(seat) == deck_hash(text)}
