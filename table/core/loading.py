"""Reading a log back into a replica: its records in file order, each op validated once and
delivered causally, every op then folded in one pass; the secrets, blobs, equivocation proofs
and flags beside them kept. `Replica` (table.core.replica) inherits it; `Replica.from_log`
opens the file.
"""
from __future__ import annotations

import gc
from collections.abc import Callable, Iterable
from typing import Any

from .causal import CausalStore, Equivocation, RefusedOp
from .equivocation import check_proof, void_from
from .errors import BadOp, CausalityError
from .knowledge import Knowledge
from .ops import Op, from_wire
from .private_draws import read_flag

Verifier = Callable[[Op, "str | None"], bool]  # (op, announced key of its author) -> valid?


class LogLoading:
    """The replica's reading of its log. The attributes and methods below are the replica's
    (declared here for the type checker); the replica defines them."""

    store: CausalStore
    knowledge: Knowledge
    blobs: dict[str, bytes]
    blob_kinds: dict[str, str]
    flags: dict[tuple[str, int], str]
    voided_from: dict[str, int]
    equivocations: dict[tuple[str, int], list[Any]]
    salvaged: set[tuple[str, int]]
    lost: list[tuple[str, int]]
    _verifier: Verifier | None

    def report(self, message: str) -> None:
        raise NotImplementedError

    def _fold(self, ops: list[Op]) -> None:
        raise NotImplementedError

    def _note_gift(self, secrets_record: dict[str, Any]) -> None:
        raise NotImplementedError

    def _load_blob(self, blob: dict[str, Any], number: int, source: str) -> None:
        digest, data, kind = blob.get("hash"), blob.get("data"), blob.get("kind")
        if isinstance(digest, str) and isinstance(data, bytes) and isinstance(kind, str):
            self.blobs.setdefault(digest, data)  # checked against the hash by whoever reads it
            self.blob_kinds.setdefault(digest, kind)
        else:
            self.report(f"{source}: record {number}: a malformed blob record; skipped")

    def load_records(self, records: Iterable[Any], source: str = "log", *,
                     salvage: bool = False) -> None:
        # A bulk load makes hundreds of thousands of acyclic objects that all stay alive: the
        # cycle collector would only re-walk them, so it pauses until the load is done.
        collecting = gc.isenabled()
        gc.disable()
        try:
            self._load_records(records, source)
            self._after_load(source, salvage)
        finally:
            if collecting:
                gc.enable()

    def _load_records(self, records: Iterable[Any], source: str) -> None:
        ops: list[Op] = []
        offer = self.store.offer
        for number, record in enumerate(records, start=2):
            try:
                if type(record) is list:
                    ops.extend(offer(from_wire(record)))
                    continue
                for key in ("private", "secret"):  # secrets ride beside some ops
                    if isinstance(record.get(key), dict):
                        self.knowledge.absorb(record[key])
                blob = record.get("blob")
                if isinstance(blob, dict):
                    self._load_blob(blob, number, source)
                if isinstance(record.get("secret"), dict):
                    self._note_gift(record["secret"])
                if "equivocation" in record:
                    self._load_proof(record["equivocation"])
                if (flagged := read_flag(record.get("flag"))) is not None:
                    self.flags.setdefault(*flagged)
                wire = record.get("op")
                if wire is not None:
                    ops.extend(offer(from_wire(wire)))
            except Equivocation as proof:  # both versions in one log: a proof as well
                void_from(self.voided_from, proof.author, proof.seq)
                self.report(f"{source}: record {number}: {proof}")
            except (BadOp, CausalityError) as err:
                if isinstance(err, RefusedOp):
                    ops.extend(err.delivered)
                self.report(f"{source}: record {number}: {err}")
        if ops:
            self._fold(ops)

    def _load_proof(self, proof: Any) -> None:
        """A logged equivocation proof: its author's ops from its number on are void, as they
        were live. With a verifier, both versions' signatures must hold."""
        verifier = self._verifier
        verify = None if verifier is None else (lambda op: verifier(op, self.store.key_for(op)))
        author, seq = check_proof(proof, verify)
        self.equivocations.setdefault((author, seq), [list(w) for w in proof])
        void_from(self.voided_from, author, seq)

    def _after_load(self, source: str, salvage: bool) -> None:
        """Salvage mode: in a log one author wrote, a lost op would hold back every later op of
        that author (causal delivery waits for it) although they are intact. Apply them anyway,
        in canonical order, and remember which they are; an op that needed the lost one turns
        void at its place, as any op whose target is gone."""
        pending = self.store.pending
        authors = set(self.store.by_author) | {a for a, p in pending.items() if p}
        waiting = [op for p in pending.values() for op in p.values()]
        if not waiting or len(authors) != 1 or not salvage:
            waiting_count = len(waiting)
            if waiting_count:
                self.report(f"{source}: {waiting_count} op(s) wait for ops this log lacks")
            return
        author = next(iter(authors))
        have = self.store.delivered(author)
        seqs = sorted(op.seq for op in waiting)
        present = set(seqs)
        self.lost = [(author, n) for n in range(have + 1, seqs[-1]) if n not in present]
        waiting.sort(key=lambda op: op.key)
        self.salvaged = {op.ref for op in waiting}
        self._fold(waiting)
        lost = ", ".join(f"#{n}" for _a, n in self.lost[:6]) + (" ..." if len(self.lost) > 6
                                                                   else "")
        self.report(f"{source}: salvage mode: op(s) {lost} lost; {len(waiting)} later op(s) "
                    f"applied without them (marked as salvaged)")
