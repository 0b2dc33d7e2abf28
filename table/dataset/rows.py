"""One session's rows for every table of the dataset, from its logs folded into one replica.

A single pass over the folded ops in canonical order derives what each op means for a
designer (turn, phase, whose turn, which card, where from and to, whether it was a play), the
flags the assist raised on it, the dice and shuffles, and the notes. Hidden information: an
op's `card` is a card only once an op made it public (created face up, turned up, revealed) and
from then on, never from what the log learned later (a merged log knows every secret at its
end; the dataset must not use that knowledge for the ops before the reveal).
"""
from __future__ import annotations

from typing import Any

from table.core import opkinds

from .assist_flags import AssistWatch
from .collected import Rows, Walk
from .fold import Folded, Module, fold_session, resolve_module
from .plays import Plays
from .sessions_table import recorded_as, seat_rows, session_row, session_tags, settle
from .sources import SessionLogs
from .stories import Stories

_OBJECT_KINDS = ("move", "set", "delete", "create", "reveal", "show", "counter", "roll")


def session_rows(session: SessionLogs, rows: Rows, *, modules: dict[str, Any] | None = None,
                 plugins: dict[str, Any] | None = None, assist: bool = True) -> None:
    """Read, fold and derive one session into `rows`."""
    box: dict[str, Any] = {}

    def prepare(replica: Any, header: dict[str, Any], records: list[Any]) -> None:
        found = resolve_module(str(header.get("game", "")), records, modules)
        seats = replica.header_extra.get("seats")
        watch = AssistWatch(found.module, (plugins or {}).get(replica.game),
                            seats=seats if isinstance(seats, int) else None,
                            knowledge=replica.knowledge, enabled=assist)
        watch.attach(replica.timeline)
        box.update(found=found, watch=watch)

    folded = fold_session(session, prepare)
    found: Module = box.get("found") or Module()
    occasions = box["watch"].occasions() if "watch" in box else {}
    by_index, flags_why = box["watch"].flags() if "watch" in box else ({}, "")
    if folded.replica is None:
        flags_why = flags_why or "the log could not be replayed"
    walk = Walk()
    if folded.replica is not None:
        _walk_ops(session.table, folded, found.module, by_index, rows, walk)
        _occasion_rows(session.table, folded.replica, occasions, rows)
        settle(walk, folded.replica, found.module)
    session_row(session, folded, found, walk, flags_why, rows)
    seat_rows(session.table, walk, rows, session_tags(folded.replica.state)["players"]
              if folded.replica is not None else None)
    if folded.replica is not None:
        # the replica's only cycle (its causal store calls back into it): without it the
        # whole fold is freed by reference counting as soon as the session is done
        folded.replica.store.admit = None
    module = found.module
    digest = str(found.recorded.get("hash") or getattr(module, "content_hash", "") or "")
    if module is not None and digest:
        rows.modules[digest] = (str(module.id), str(getattr(module, "version", "")),
                                str(getattr(module, "path", "")))


def _occasion_rows(table: str, replica: Any, occasions: dict[int, list[tuple[str, Any]]],
                   rows: Rows) -> None:
    """How often each rule applied, per seat (ops read in salvage mode left out, as their
    flags are)."""
    if not occasions:
        return
    records, salvaged = replica.records(), replica.salvaged
    counts: dict[tuple[str, Any], int] = {}
    for index, found in occasions.items():
        if index < len(records) and records[index].op.ref in salvaged:
            continue
        for rule, seat in found:
            counts[(rule, seat)] = counts.get((rule, seat), 0) + 1
    for (rule, seat), n in sorted(counts.items(), key=lambda kv: (kv[0][0], kv[0][1] or 0)):
        rows.add("occasions", session=table, rule=rule, seat=seat, occasions=n)


def _source(record: Any) -> str | None:
    """Where a move took its object from (the journal keeps the old container)."""
    for entry in record.journal.entries:
        if entry[0] == "f" and entry[2] == "container":
            return str(entry[3])
    return None


def _publish(public: dict[str, str], kind: str, a: dict[str, Any]) -> None:
    """Note the card this (applied) op made public, if it did."""
    card = a.get("card")  # checked against the card's commitment when the op was applied
    if not isinstance(card, str):
        return
    if kind in ("create", "move", "reveal") or (kind == "set" and a.get("field") == "face_up"):
        public[str(a["id"])] = card


class _Turns:
    """Where the play stands at each op: the turn, whose it is, the phase, whether the setup is
    done, each seat's last declaration; and, for the session row, when play began and ended."""

    def __init__(self, walk: Walk) -> None:
        self.walk = walk
        self.turn, self.active, self.phase, self.setup_done = 0, None, None, False
        self.declared: dict[int, str] = {}  # seat -> its last declaration, until its next move

    def see(self, op: Any, live: bool) -> None:
        walk, a = self.walk, op.args
        if op.kind == "mark" and live:
            what = a["what"]
            if what == "turn":
                self.turn, self.active, self.phase = self.turn + 1, a.get("seat"), None
                walk.turn_times.append(op.time)
                if isinstance(self.active, int) and self.active not in walk.order:
                    walk.order.append(self.active)
                if walk.play_start is None:
                    walk.play_start = op.time
            elif what in ("phase", "step"):
                self.phase = a.get("value")
            elif what == "declare" and op.seat is not None:
                self.declared[op.seat] = str(a.get("value"))
            elif what == "setup" and a.get("value") == "complete":
                self.setup_done = True
            elif what == "winner":
                walk.legacy_winner = a.get("value", a.get("seat"))
        if self.setup_done and walk.play_start is None and op.kind in opkinds.ACTIONS:
            walk.play_start = op.time
        if walk.play_start is not None:
            walk.last_time = max(walk.last_time, op.time)

    def is_play(self, plays: Plays | None, spec: Any, record: Any, source: str | None) -> bool:
        """Whether this applied move is a play (it ends the seat's declaration either way)."""
        op = record.op
        last = self.declared.pop(op.seat, None)
        return bool(plays and self.setup_done and spec is not None and source is not None
                    and plays.is_play(spec.type, source, str(op.args["to"]), op.seat,
                                      op.args.get("face_up") is True, self.phase, last))


def _walk_ops(table: str, folded: Folded, module: Any, by_index: dict[int, list[Any]],
              rows: Rows, walk: Walk) -> None:
    replica = folded.replica
    records = replica.records()
    turns = _Turns(walk)
    plays = Plays.of(module)
    cards = getattr(module, "cards", None) or {}
    names = {n: s.name or f"Seat {n}" for n, s in replica.state.seats.items()}
    salvaged = replica.salvaged
    draws = _Draws(replica, records)
    walk.audited = draws.status
    public: dict[str, str] = {}  # handle -> card, once an op made it public
    stories = Stories(replica, recorded_as(replica, len(folded.source.logs)) == "one peer")
    for index, record in enumerate(records):
        op, a, kind = record.op, record.op.args, record.op.kind
        live = record.void is None
        n = index + 1
        began = walk.play_start
        turns.see(op, live)
        if began is None and walk.play_start is not None:  # play begins: the opening hands
            stories.open_play()
        obj = a.get("id") if kind in _OBJECT_KINDS else None
        if live:
            _publish(public, kind, a)
        card = public.get(obj) if isinstance(obj, str) else None
        source = _source(record) if kind == "move" and live else None
        play = kind == "move" and live and op.seat is not None and \
            turns.is_play(plays, cards.get(card) if card else None, record, source)
        _op_row(rows, table, n, record, turns, obj, card, source, play, op.ref in salvaged)
        for flag in by_index.get(index, ()):
            seen = [public[h] for h in getattr(flag, "objects", ()) if h in public]
            rows.add("salvaged_flags" if op.ref in salvaged else "flags", session=table, op=n,
                     rule=flag.rule,
                     severity=str(getattr(flag.severity, "value", flag.severity)),
                     seat=op.seat, card=seen[0] if seen else None, turn=turns.turn,
                     section=flag.section, message=flag.message, salvaged=op.ref in salvaged)
        if not live:
            continue
        if kind == "consume" or kind == "move":
            stories.see(record, source, play)
        if kind == "note":
            rows.add("notes", session=table, op=n, turn=turns.turn, seat=op.seat,
                     name=names.get(op.seat or 0, "?"), text=str(a.get("text", "")),
                     phase=turns.phase, active_seat=turns.active, time=_ms(op.time))
        elif kind == "roll" or (kind == "consume" and a.get("why") == "shuffle"):
            draws.add(rows, table, n, record, turns.turn)
    stories.close()
    stories.rows(table, rows)


def _op_row(rows: Rows, table: str, n: int, record: Any, turns: _Turns, obj: Any,
            card: str | None, source: str | None, play: bool, salvaged: bool) -> None:
    op, a, kind = record.op, record.op.args, record.op.kind
    active = turns.active
    # in OPS's column order (schema.py)
    rows.add_op((table, n, op.author, op.seat, turns.turn,
                 active if isinstance(active, int) else None,
                 None if turns.phase is None else str(turns.phase), kind,
                 _what(kind, a), _value(kind, a), obj if isinstance(obj, str) else None, card,
                 len(a["in"]) if kind == "consume" else
                 len(a["values"]) if kind == "roll" else None,
                 source if kind == "move" else _first(a.get("expect"))
                 if kind == "consume" else None,
                 a.get("to") if kind in ("move", "consume", "create") else None,
                 _face_up(kind, a), play, record.void is not None, salvaged, _ms(op.time)))


class _Draws:
    """Rolls and shuffles, with whether each was joint and passed the audit."""

    def __init__(self, replica: Any, records: list[Any]) -> None:
        self.failed: set[int] | None = None
        ops = [r.op for r in records]
        if any(op.kind in ("roll", "consume") and op.args.get("fair") is not None for op in ops):
            from table.core.audit import audit_replica

            audit = audit_replica(replica)  # replays the log: only when a draw was joint
            # a degraded draw is joint, not audited as joint with everyone
            self.failed = {f.number for f in audit.failures + audit.unverifiable
                           + audit.degraded}
            self.status = audit.status
        else:  # as table.core.audit.audit_summary says it, without replaying
            local = any(op.kind == "roll" or (op.kind == "consume" and op.args.get("why")
                        == "shuffle") for op in ops)
            self.status = "local" if local else "none"

    def add(self, rows: Rows, table: str, n: int, record: Any, turn: int) -> None:
        op, a = record.op, record.op.args
        joint = a.get("fair") is not None
        audited = joint and self.failed is not None and n not in self.failed
        why = a.get("why")
        if op.kind == "roll":
            for value in a["values"]:
                rows.add("draws", session=table, op=n, kind="roll", seat=op.seat, turn=turn,
                         die=a.get("id"), sides=int(a["sides"]), value=int(value),
                         joint=joint, audited=audited, why=why)
        else:
            rows.add("draws", session=table, op=n, kind="shuffle", seat=op.seat, turn=turn,
                     zone=a["to"], cards=len(a["in"]), joint=joint, audited=audited, why=why)


def _what(kind: str, a: dict[str, Any]) -> str | None:
    value = a.get("what") if kind == "mark" else a.get("field") if kind == "set" else \
        a.get("why") if kind in ("roll", "consume") else None
    return None if value is None else str(value)


def _value(kind: str, a: dict[str, Any]) -> str | None:
    """A mark's value (the phase, the declaration), a set's new value, a counter's change."""
    if kind == "mark" or kind == "set":
        value = a.get("value")
    elif kind == "counter":
        value = a["add"] if a.get("add") is not None else a.get("value")
    else:
        return None
    return None if value is None else str(value)


def _face_up(kind: str, a: dict[str, Any]) -> bool | None:
    if kind == "set":
        return bool(a["value"]) if a.get("field") == "face_up" else None
    value = a.get("face_up") if kind in ("move", "consume", "create") else None
    return None if value is None else bool(value)


def _first(items: Any) -> str | None:
    for item in items or ():
        if isinstance(item, str):
            return item
    return None


def _ms(seconds: float) -> int:
    return round(seconds * 1000)
