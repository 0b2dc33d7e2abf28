"""Merge several peers' logs of one table into the designer's complete record.

The union of every op (each peer holds the whole log, but one may have crashed early) and every
secret any of them held, so the merged log shows every hidden card and can be verified: each
revealed card is checked against its commitment when the merged log is replayed.
"""
from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from . import commit
from .errors import CoreError
from .knowledge import Knowledge, deck_hash
from .logfile import LogWriter, make_header, read_log
from .ops import Op, from_wire


class MergeError(CoreError):
    pass


def merge_logs(paths: list[Path], out: Path) -> str:
    if not paths:
        raise MergeError("no logs to merge")
    ops: dict[tuple[str, int], Op] = {}
    knowledge = Knowledge()
    blobs: dict[str, tuple[str, bytes]] = {}  # hash -> (kind, data): module archives
    table_id, game, game_hash, problems = None, "", "", []
    for path in paths:
        contents = read_log(path)
        head = contents.header
        if table_id is None:
            table_id, game, game_hash = head.get("table"), head.get("game", ""), head.get(
                "game_hash", "")
        elif head.get("table") != table_id:
            raise MergeError(f"{path}: table {head.get('table')!r} is not {table_id!r}; "
                             f"only logs of one table merge")
        problems.extend(contents.problems)
        for record in contents.records:
            if type(record) is dict:
                blob = record.get("blob")
                if isinstance(blob, dict) and isinstance(blob.get("hash"), str):
                    blobs.setdefault(blob["hash"], (str(blob.get("kind", "")),
                                                    bytes(blob.get("data") or b"")))
                for key in ("private", "secret"):
                    if isinstance(record.get(key), dict):
                        knowledge.absorb(record[key])
                record = record.get("op")
            if record is not None:
                op = from_wire(record)
                ops.setdefault(op.ref, op)
    # keep only secrets that match a commitment somewhere in the merged ops
    commitments = {}
    for op in ops.values():
        if op.kind == "consume":
            commitments.update({h: c for h, c in op.args["out"]})
        elif op.kind == "create" and op.args.get("commitment"):
            commitments[op.args["id"]] = op.args["commitment"]
    verified = {h: [card, salt] for h, (card, salt) in knowledge.cards.items()
                if h in commitments and commit.verify(h, card, salt, commitments[h])}
    bad = len([h for h in knowledge.cards if h in commitments]) - len(verified)
    if out.exists():
        out.unlink()
    writer = LogWriter(out, make_header(str(table_id), "merged", str(game), str(game_hash),
                                        merged_from=[str(p) for p in paths]))
    try:
        for digest, (kind, data) in sorted(blobs.items()):
            writer.append({"blob": {"kind": kind, "hash": digest, "data": data}})
        for op in sorted(ops.values(), key=lambda o: o.key):
            writer.append(op.to_wire())
        writer.append({"secret": {"cards": verified,
                                  "shown": {h: sorted(s) for h, s in knowledge.shown.items()},
                                  "decks": _verified_decks(ops.values(), knowledge),
                                  # fair shuffles' shares and orders, published deck orders:
                                  # what `sandtable check --audit` verifies
                                  "fair": knowledge.fair}})
    finally:
        writer.close()
    hidden_total = len(commitments)
    summary = (f"merged {len(paths)} log(s) into {out}: {len(ops)} ops, "
               f"{len(verified)} of {hidden_total} hidden cards known")
    if bad:
        summary += f", {bad} secret(s) did not match their commitment and were dropped"
    for problem in problems:
        summary += f"\nwarning: {problem}"
    return summary


def _verified_decks(ops: Iterable[Op], knowledge: Knowledge) -> dict[str, str]:
    """Deck list texts that match the hash their seat's deck op recorded."""
    recorded = {op.args["seat"]: op.args["hash"] for op in sorted(ops, key=lambda o: o.key)
                if op.kind == "deck"}
    return {str(seat): text for seat, text in knowledge.decks.items()
            if recorded.get(seat) == deck_hash(text)}
