"""A player's peer judges every roll and hidden-pile shuffle another peer makes, as it arrives.

What it can vouch for is its own part (``table.core.private_draws`` says why that is enough):

* a joint draw that records a commitment in this peer's name must hold the one it made, in a
  round it took part in; one that uses a round it took part in must come from that round's
  initiator and hold the commitments it saw there (a record whose commitments are not those the
  others sent is a forgery);
* a draw made while this peer could be reached by its author (netplay.draws.reach: a direct
  link, or a linked peer linked to it), from its author's first op on, ``caught_up`` or not,
  must include this peer: a draw alone, or a joint one without this peer, is flagged. A joint
  draw whose round may have begun before this peer was reachable (within ``round_span`` of
  that) is not judged on that count.

A flag is written to the log (``table.core.private_draws.flag``), so ``sandtable check --audit``
of this peer's log fails on the op, naming it and its seat. Nothing is judged at a table
opened allowing local draws (but a forged commitment), nor a watcher's draw (its table voids
it), nor anything when this peer watches; a draw is judged once, when it first arrives (a log
read back on a restart holds draws that arrived before).
"""
from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from netplay.draws.commit_reveal import FairRounds
from netplay.draws.reach import Reach
from netplay.draws.watching import table_fields
from table.core import fair
from table.core.ops import Op
from table.core.private_draws import describe, flag, local_draws_allowed
from table.core.replica import Replica
from table.core.timeline import Change
from table.core.watchers import is_watcher


def is_draw(op: Op) -> bool:
    return op.kind == "roll" or (op.kind == "consume" and op.args.get("why") == "shuffle")


class DrawWitness:
    def __init__(self, replica: Replica, rounds: FairRounds, reach: Reach, *,
                 round_span: float | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.replica, self.rounds, self.reach, self.clock = replica, rounds, reach, clock
        # a round lasts at most its commit and reveal timeouts (and a tick) before its op
        self.round_span = round_span if round_span is not None else \
            rounds.commit_timeout + rounds.reveal_timeout + 1.0
        self._judged: set[tuple[str, int]] = {rec.op.ref for rec in replica.records()
                                              if is_draw(rec.op)}
        self._waiting: dict[str, list[Op]] = {}  # draws waiting for their link's first vv
        self._deps: dict[str, tuple[int, int]] = {}  # author -> (ops read, highest vv[me])
        replica.subscribe(self._on_change)

    def _on_change(self, change: Change) -> None:
        me = self.replica.peer_id
        for record in change.records:
            op = record.op
            if op.author == me or op.ref in self._judged or not is_draw(op):
                continue
            self._judged.add(op.ref)
            self.judge(op)

    def link_settled(self, peer: str) -> None:
        """The link to ``peer`` now says which of its ops came before it: judge those held."""
        for op in self._waiting.pop(peer, []):
            self.judge(op, again=True)

    def link_closed(self, peer: str) -> None:
        self._waiting.pop(peer, None)

    # --- judging -------------------------------------------------------------------------
    def judge(self, op: Op, *, again: bool = False) -> None:
        """``again``: a draw that waited for its author's link (its round already checked)."""
        state, me = self.replica.state, self.replica.peer_id
        if is_watcher(state, me) or is_watcher(state, op.author):
            return
        record = op.args.get("fair")
        commits = record.get("commits") if isinstance(record, dict) else None
        if isinstance(record, dict) and isinstance(commits, dict):
            fault = None if again else self._round_fault(op, record, commits)
            if fault is not None:
                return flag(self.replica, op, self._say(op, fault))
            if me in commits:
                if record.get("round") not in self.rounds.took_part:  # not one it was in
                    self._forged(op)
                return  # else this peer's part is in it, as it made it
        if local_draws_allowed(table_fields(self.replica)):
            return
        alone = not isinstance(commits, dict) or set(commits) - set(
            fair.left_out(record)) <= {op.author}
        reached = self._reached(op, joint=not alone)
        if reached is None:
            self._waiting.setdefault(op.author, []).append(op)
        elif reached:
            flag(self.replica, op, describe(op, me) if alone else self._say(
                op, f"made a joint draw without player {me}, linked to it"))

    def _round_fault(self, op: Op, record: dict[str, Any], commits: dict[Any, Any]
                     ) -> str | None:
        """What is wrong with a joint draw's record by what this peer saw of its round."""
        me, rid = self.replica.peer_id, record.get("round")
        rnd = self.rounds.used(rid) if isinstance(rid, str) else None
        if rnd is None:
            return None
        if rnd.used:
            return f"used joint draw {rid} a second time"
        rnd.used = True
        if op.author != rnd.initiator:
            return f"used joint draw {rid}, which {rnd.initiator} started"
        if me in commits and commits[me] != rnd.commits.get(me):
            return f"recorded a commitment in player {me}'s name that it never made"
        changed = sorted(str(p) for p, c in commits.items()
                         if rnd.commits.get(p) is not None and rnd.commits[p] != c)
        if changed:
            return f"recorded commitments for {', '.join(changed)} that they did not send"
        if rnd.revealed_at is not None and me in fair.left_out(record):
            self.replica.report(f"peer {op.author}: left this peer's share out of joint draw "
                                f"{rid} although it was revealed (late, or dropped)")
        return None

    def _forged(self, op: Op) -> None:
        """A commitment in this peer's name, in a round it did not take part in: a forgery,
        once this peer would remember every round the op could be of."""
        remembers = self._remembers_rounds_of(op)
        if remembers is None:
            self._waiting.setdefault(op.author, []).append(op)
        elif remembers:
            me = self.replica.peer_id
            flag(self.replica, op, self._say(
                op, f"recorded a commitment in player {me}'s name that it never made"))

    def _remembers_rounds_of(self, op: Op) -> bool | None:
        """Whether every round ``op`` could be of would be remembered here: made while its
        author could reach this peer, which was up a round's span before that (a round it
        took part in before a restart is forgotten)."""
        since = self.reach.since.get(op.author)
        if since is None or since.at - self.rounds.started < self.round_span:
            return False
        return self._reached(op, joint=False)

    def _reached(self, op: Op, *, joint: bool) -> bool | None:
        """Whether ``op`` was made while its author could reach this peer (None: not known
        until the author's link says which of its ops came before it)."""
        since = self.reach.since.get(op.author)
        if since is None:
            return False
        if joint and self.clock() - since.at < self.round_span:
            return False  # its round may have begun before this peer could be reached
        if self._depends_on_me(op) > since.own:
            return True
        return self.reach.made_while_linked(op.author, op.seq)

    def _depends_on_me(self, op: Op) -> int:
        """The highest op of this peer that ``op`` (with its author's earlier ops) depends on."""
        me, store = self.replica.peer_id, self.replica.store
        read, highest = self._deps.get(op.author, (0, 0))
        if read > op.seq:
            read, highest = 0, 0
        for seq in range(read + 1, op.seq + 1):
            held = store.get(op.author, seq)
            if held is None:
                break
            highest = max(highest, int(held.vv.get(me, 0)))
            read = seq
        self._deps[op.author] = (read, highest)
        return highest

    def _say(self, op: Op, what: str) -> str:
        seat = f" (seat {op.seat})" if op.seat is not None else ""
        drew = (f"rolled d{op.args.get('sides')} as {op.args.get('values')}" if op.kind == "roll"
                else f"shuffled {op.args.get('to')}")
        return (f"peer {op.author}{seat} {drew}: {what}: not a joint draw of the table "
                f"(op {op.author}#{op.seq})")
