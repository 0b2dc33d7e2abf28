"""A peer's replica of the table: ops in, state out, everything logged.

The replica ties the pieces together: local ops are stamped (seq, Lamport, version vector), written
to the log before anyone sees them, applied and handed to listeners (netplay broadcasts them);
remote ops are validated, delivered causally and folded in canonical order. It is the only object
netplay and the UI talk to, and it knows nothing of either.
"""
from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .causal import CausalStore, RefusedOp
from .equivocation import live_ops, void_from
from .errors import BadOp, CausalityError
from .events import EventHub, Unsubscribe
from .joint import JointDraws
from .knowledge import Knowledge
from .loading import LogLoading, Verifier
from .logfile import LogReader, LogWriter, make_header
from .ops import Op, canonical_value, check_args, from_wire
from .private_draws import flag_record
from .rng import Rng
from .state import State
from .statehash import public_state_hash
from .timeline import Change, Record, Timeline
from .watchers import watcher_refusal

log = logging.getLogger(__name__)

Listener = Callable[[Change], None]
Signer = Callable[[bytes], bytes]
__all__ = ["Listener", "Replica", "Signer", "Verifier"]


class Replica(LogLoading):
    def __init__(self, table_id: str | None = None, peer_id: str | None = None, *,
                 rng: Rng | None = None, log_path: str | Path | None = None,
                 game: str = "", game_hash: str = "", signer: Signer | None = None,
                 verifier: Verifier | None = None, header_extra: dict[str, Any] | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self.table_id = table_id or secrets.token_hex(8)
        self.peer_id = peer_id or secrets.token_hex(8)
        self.rng = rng or Rng()
        self.game, self.game_hash = game, game_hash
        self.timeline = Timeline()
        self.store = CausalStore()
        self.knowledge = Knowledge()
        self.signer, self.clock = signer, clock
        self.verifier = verifier  # also sets the store's `admit` (see the property)
        # listeners hear every change and every report (`subscribe`, `subscribe_reports`); an
        # error in one reaches the caller, as a plain call would, so no fault passes unseen
        self._changes: EventHub[Change] = EventHub(propagate=(Exception,))
        self.reports: list[str] = []  # problems a person should see (bad reveals, bad peers)
        self._reports: EventHub[str] = EventHub(propagate=(Exception,))
        self.private_out: Callable[[int, dict[str, Any]], None] | None = None
        # rolls and shuffles drawn jointly with the other peers (a LAN session sets it)
        self.joint_draws: JointDraws | None = None
        # gifts received privately whose zone this peer must still re-handle (actions.settle_gifts)
        self.pending_gifts: list[dict[str, Any]] = []
        # read from a damaged one-author log: ops applied although an earlier op of theirs was
        # lost (salvage mode), and the lost ops' numbers; readers mark both wherever they show
        self.salvaged: set[tuple[str, int]] = set()
        self.lost: list[tuple[str, int]] = []
        self.damage: list[Any] = []  # logfile.Damage: what the reader could not read
        self.header_extra = dict(header_extra or {})
        self.voided_from: dict[str, int] = {}  # equivocating author -> its first void seq
        # (author, seq) -> both versions: the proof, kept in the log (table.core.equivocation)
        self.equivocations: dict[tuple[str, int], list[Any]] = {}
        # draws flagged as private dice (table.core.private_draws): op ref -> why
        self.flags: dict[tuple[str, int], str] = {}
        # content-addressed files the table's ops name by hash (a module's archive): kept in the
        # log beside the ops, so a log carries what it needs to be read again
        self.blobs: dict[str, bytes] = {}
        self.blob_kinds: dict[str, str] = {}
        self._issued_vv: dict[str, int] = {}  # version vector as of this peer's last op
        self.log: LogWriter | None = None
        if log_path is not None:
            header = make_header(self.table_id, self.peer_id, game, game_hash, **self.header_extra)
            self.log = LogWriter(log_path, header)

    @property
    def verifier(self) -> Verifier | None:
        """Checks each op's signature just before it is delivered (`_admit`); None: no check."""
        return self._verifier

    @verifier.setter
    def verifier(self, verifier: Verifier | None) -> None:
        self._verifier = verifier
        # without a verifier the store admits every op without a call per op
        self.store.admit = None if verifier is None else self._admit

    # --- reading -------------------------------------------------------------------------
    @property
    def state(self) -> State:
        return self.timeline.state

    def version_vector(self) -> dict[str, int]:
        return self.store.version_vector()

    def public_state_hash(self) -> str:
        return public_state_hash(self.state)

    def ops_missing_for(self, vector: dict[str, int]) -> list[list[Any]]:
        return [op.to_wire() for op in self.store.missing_for(vector)]

    def records(self) -> list[Record]:
        return self.timeline.records

    @property
    def my_seats(self) -> set[int]:
        return self.state.seats_of(self.peer_id)

    def subscribe(self, listener: Listener) -> Unsubscribe:
        """Hear every change to what this replica shows; returns the function that stops it."""
        return self._changes.subscribe(listener)

    def subscribe_reports(self, listener: Callable[[str], None]) -> Unsubscribe:
        """Hear every problem reported (`report`); returns the function that stops it."""
        return self._reports.subscribe(listener)

    # --- writing -------------------------------------------------------------------------
    def issue(self, kind: str, args: dict[str, Any], *, seat: int | None = None,
              private: dict[str, Any] | None = None) -> Op:
        """Stamp, log, apply and publish a local op. Raises BadOp for malformed arguments."""
        check_args(kind, args)
        seq = self.store.delivered(self.peer_id) + 1
        refused = watcher_refusal(self.state, self.peer_id, kind)
        if refused is not None:  # the table refuses it here; every other peer would void it
            raise BadOp(f"this peer watches the table: {refused}")
        # The op names only what changed in this peer's version vector since its previous op:
        # with its own previous op (implied by seq), that is its whole causal past.
        full = self.store.version_vector()
        full.pop(self.peer_id, None)
        vv = {a: n for a, n in sorted(full.items()) if self._issued_vv.get(a) != n}
        self._issued_vv = full
        # args in canonical form (keys sorted): the op is sent and logged as it is signed
        op = Op(self.peer_id, seq, self.store.max_lamport + 1, kind, canonical_value(args), vv,
                float(round(self.clock(), 3)), seat)
        if self.signer is not None:
            op = op._replace(sig=self.signer(op.signing_bytes()))
        if private:
            self.knowledge.absorb(private)
        if self.log is not None:  # write-ahead: on disk before applied or sent
            self.log.append({"op": op.to_wire(), "private": private} if private
                            else op.to_wire())
        self.store.add_local(op)
        self._fold([op])
        return op

    def receive(self, wire: Any, from_peer: str = "") -> list[Op]:
        """Take one remote op (wire form). Returns the ops it made deliverable."""
        if self._verifier is not None or self.log is not None:
            return self.receive_many([wire], from_peer)
        op = wire if type(wire) is Op else from_wire(wire)
        if op.author == self.peer_id and self.store.get(op.author, op.seq) is None:
            raise CausalityError(f"peer {from_peer or '?'} sent an op in this peer's name")
        try:
            ready = self.store.offer(op)
        except RefusedOp as err:
            if err.delivered:
                self._fold(err.delivered)
            raise
        if ready:
            self._fold(ready)
        return ready

    def receive_many(self, wires: list[Any], from_peer: str = "") -> list[Op]:
        """Take a batch (catch-up): validate each, deliver causally, fold with one rollback.

        With a verifier, every op's signature is checked just before it is delivered (the
        store's `admit`), first-hand or relayed: an op that fails is never stored, logged or
        applied. A malformed op, a bad signature or one breaking causality raises
        BadOp/CausalityError after the valid ones before it were taken; the caller (netplay)
        drops the link that sent it.
        """
        delivered: list[Op] = []
        try:
            for wire in wires:
                op = wire if type(wire) is Op else from_wire(wire)
                if op.author == self.peer_id and self.store.get(op.author, op.seq) is None:
                    raise CausalityError(f"peer {from_peer or '?'} sent an op in this peer's name")
                ready_ops: list[Op] = []
                try:
                    ready_ops = self.store.offer(op)
                except RefusedOp as err:
                    ready_ops = err.delivered
                    raise
                finally:
                    for ready in ready_ops:
                        delivered.append(ready)
                        if self.log is not None:
                            self.log.append(ready.to_wire())
        finally:
            if delivered:
                self._fold(delivered)
        return delivered

    def start_log(self, writer: LogWriter) -> None:
        """Log into ``writer`` from now on, starting with what this replica already holds (a
        joiner opens its log once it knows the game, after its catch-up): every op, then the
        equivocation proofs and private-dice flags learned meanwhile, so the log read again
        folds the live state."""
        for op in self.store.all_ops():
            writer.append(op.to_wire())
        for proof in self.equivocations.values():
            writer.append({"equivocation": proof})
        for (author, seq), why in self.flags.items():
            held = self.store.get(author, seq)
            writer.append(flag_record(author, seq, held.seat if held else None, why))
        self.log = writer

    def add_blob(self, kind: str, digest: str, data: bytes) -> None:
        """Keep a content-addressed file in this table's log (once per hash). The caller has
        checked that ``data`` is what ``digest`` names."""
        if digest in self.blobs:
            return
        self.blobs[digest] = data
        self.blob_kinds[digest] = kind
        if self.log is not None:
            self.log.append({"blob": {"kind": kind, "hash": digest, "data": data}})

    def receive_private(self, secrets_record: dict[str, Any]) -> None:
        """Secrets another peer sent this one directly (a gift, a private show). Listeners hear
        of it as a change with no records: no op changed, what this peer knows did (views read
        knowledge on their next repaint)."""
        self.knowledge.absorb(secrets_record)
        if self.log is not None:
            self.log.append({"secret": secrets_record})
        self._note_gift(secrets_record)
        self._announce(Change(len(self.timeline.records)))

    def _note_gift(self, secrets_record: dict[str, Any]) -> None:
        """A gift to re-handle (``actions.settle_gifts``). Called again for the log's secrets
        on a restart, so a crash before the re-handle loses nothing; a gift already re-handled
        is dropped then."""
        gift = secrets_record.get("gift")
        if (isinstance(gift, dict) and isinstance(gift.get("to"), str)
                and isinstance(gift.get("op"), (list, tuple)) and len(gift["op"]) == 2
                and isinstance(gift["op"][0], str) and type(gift["op"][1]) is int
                and isinstance(gift.get("handles"), (list, tuple))
                and all(isinstance(h, str) for h in gift["handles"])):
            self.pending_gifts.append({"to": gift["to"], "op": [gift["op"][0], gift["op"][1]],
                                       "handles": list(gift["handles"])})

    def _admit(self, op: Op) -> None:
        """The store's `admit`: an op whose signature does not verify is never delivered."""
        verifier = self._verifier
        if verifier is None:
            return
        if not verifier(op, self.store.key_for(op)):
            raise CausalityError(f"op {op.author}#{op.seq} has a bad signature")

    def void_author_from(self, author: str, seq: int, proof: list[Any] | None = None) -> None:
        """`author` signed two different ops as #`seq` (an equivocation): its ops from `seq` on
        are void here, whichever version each peer holds, so every honest peer folds the same
        ops and their states agree. They stay in the store and the log (evidence), and the
        proof (both versions) is logged, so the log read again voids the same ops."""
        if proof is not None and (author, seq) not in self.equivocations:
            self.equivocations[(author, seq)] = [list(w) for w in proof]
            if self.log is not None:
                self.log.append({"equivocation": self.equivocations[(author, seq)]})
        if void_from(self.voided_from, author, seq):
            self.refold()

    def _live(self, ops: list[Op]) -> list[Op]:
        return live_ops(ops, self.voided_from)

    def _fold(self, ops: list[Op]) -> None:
        if self.voided_from:
            ops = self._live(ops)
            if not ops:
                return
        if len(ops) == 1:  # one op, most often next in canonical order: no rollback to plan
            record = self.timeline.append(ops[0])
            if record is not None:
                if record.fault is not None:
                    self.report(f"peer {record.op.author}: {record.void}")
                if self._changes.handlers:  # a change nobody hears need not be built
                    self._announce(Change(len(self.timeline.records) - 1, [record]))
                return
        change = self.timeline.insert_many(ops)
        for record in change.records:
            if record.fault is not None:
                self.report(f"peer {record.op.author}: {record.void}")
        self._announce(change)

    def refold(self) -> None:
        """Fold every delivered op again (netplay's resync after a divergence)."""
        self._announce(self.timeline.rebuild(self._live(self.store.all_ops())))

    def _announce(self, change: Change) -> None:
        """Every change to what this replica shows reaches its listeners through here."""
        self._changes.emit(change)

    def report(self, message: str) -> None:
        # kept and handed to listeners (the status bar, the CLI's warnings): logged only at
        # info, or a command would print every problem twice
        log.info(message)
        self.reports.append(message)
        self._reports.emit(message)

    def close(self) -> None:
        if self.log is not None:
            self.log.close()

    # --- restoring -----------------------------------------------------------------------
    @classmethod
    def from_log(cls, path: str | Path, *, reopen: bool = False, salvage: bool | None = None,
                 **kwargs: Any) -> Replica:
        """Rebuild a replica from a log. With `reopen`, keep appending to the same file.

        Damaged records are skipped and reported in `replica.reports` (and `replica.damage`);
        raises LogError when the file is not a log at all. `salvage` (default: when not
        reopening) applies, in a log one author wrote, the ops that wait for a lost one (see
        `load_records`); a reopened table never salvages, since it must not reuse the numbers
        of the lost ops.
        """
        reader = LogReader(path)
        head = reader.header
        replica = cls(str(head.get("table", "")), str(head.get("peer", "")),
                      game=str(head.get("game", "")), game_hash=str(head.get("game_hash", "")),
                      **kwargs)
        replica.header_extra = {k: v for k, v in head.items() if k not in
                                ("format", "version", "table", "peer", "game", "game_hash",
                                 "created")}
        replica.load_records(reader.records(), str(path),
                             salvage=(not reopen) if salvage is None else salvage)
        replica.damage = list(reader.damage)
        for problem in reader.problems:
            replica.report(problem)
        if reopen:
            replica.log = LogWriter(path)
        return replica
