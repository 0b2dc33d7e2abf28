"""The commit-reveal round that draws a joint random seed among a table's peers.

Sans-IO, like netplay.blobs.transfer: `FairRounds` is fed messages from peers (decoded and
checked by the protocol, with the sending peer's id, which the authenticated link vouches for)
and clock ticks, and returns what to send and what happened. It never touches a socket or a
clock of its own; the session sends what it returns and calls `tick()` a few times a second.

    fair_start  {r, use, peers, c}  the initiator opens round r (its own peer id, ".", a random
                                    token) for a "roll" or a "shuffle" among
                                    `peers` (itself included) with its own commitment c
    fair_commit {r, c}              every other participant's commitment, to every participant
    fair_open   {r, commits}        the initiator fixes the set of commitments (all arrived, or
                                    some did not in time, or a participant left); participants
                                    in it then reveal
    fair_reveal {r, s}              a share: to every participant for a roll, to the initiator
                                    only for a shuffle (so only the pile's owner learns the seed)
    fair_pub    {body}              the end-of-game publication (table.core.fair_ops)

A participant reveals only once the set of commitments is fixed (it holds every participant's
commitment, or the initiator's `fair_open`), so nobody can choose a share after seeing others'.
The initiator sends `fair_open` whenever it fixes the set, so a participant that lacks a
commitment (lost with a peer that left mid-round) still reveals. A peer that does not commit or
reveal in time, leaves, or whose reveal does not match its commitment, is named (`Named`) and
left out; the round completes with every remaining share (`Drawn`, to the initiator, which
issues the op with table.core.fair_ops; the op names who was left out and why: a degraded
draw). Each participant remembers the rounds it took part in (`took_part`), so the op that uses
one can be checked against what it saw (netplay.draws.witness), and names an initiator that
never issues one (it may have thrown away a result it did not like).

netplay.draws.round_driver.FairDriver wires this to a replica (ops, reports, the publication); a
session only routes the messages, ticks a timer and says who is connected.
"""
from __future__ import annotations

import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from netplay.protocol.messages import Message, message_kind
from table.core import fair

USES = ("roll", "shuffle")
MAX_PEERS = 16
MAX_EARLY = 256  # messages held for rounds whose start has not arrived yet
MAX_OPEN = 64  # rounds open at once: a peer cannot make the others hold unbounded state
REMEMBERED = 4096  # rounds a participant keeps to check the ops that use them
LEFT = "left before revealing its share"



@message_kind("fair_start")
@dataclass(frozen=True, slots=True)
class FairStart(Message):
    r: str
    use: str
    peers: list[Any]
    c: str


@message_kind("fair_commit")
@dataclass(frozen=True, slots=True)
class FairCommit(Message):
    r: str
    c: str


@message_kind("fair_open")
@dataclass(frozen=True, slots=True)
class FairOpen(Message):
    r: str
    commits: dict[str, Any]


@message_kind("fair_reveal")
@dataclass(frozen=True, slots=True)
class FairReveal(Message):
    r: str
    s: str


@message_kind("fair_pub")
@dataclass(frozen=True, slots=True)
class FairPublication(Message):
    body: dict[str, Any]


InRound = FairCommit | FairOpen | FairReveal  # a message about a round already started
ROUND_KINDS: tuple[type[Message], ...] = (FairStart, FairCommit, FairOpen, FairReveal)


@dataclass(slots=True)
class Send:
    to: list[str]
    msg: Message


@dataclass(slots=True)
class Drawn:
    """The initiator's round is complete: issue the op with `draw`."""
    use: str
    draw: fair.JointDraw
    meta: Any = None


@dataclass(slots=True)
class Named:
    """A peer that failed the round or misbehaved, and why (for the log and the status bar)."""
    round: str
    peer: str
    reason: str


Event = Send | Drawn | Named


@dataclass
class Round:
    rid: str
    use: str
    initiator: str
    peers: list[str]
    share: str
    started: float
    meta: Any = None
    commits: dict[str, str] = field(default_factory=dict)
    shares: dict[str, str] = field(default_factory=dict)
    bad: dict[str, str] = field(default_factory=dict)  # peer -> why its share is left out
    fixed: bool = False  # the set of commitments is final
    revealed_at: float | None = None
    deadline: float = 0.0
    done: bool = False
    invited: list[str] = field(default_factory=list)  # the peers it started with
    gone: set[str] = field(default_factory=set)  # participants that left during it
    used: bool = False  # an op used it (a participant's view)


class FairRounds:
    """This peer's side of every joint draw (as initiator or participant)."""

    def __init__(self, me: str, *, clock: Callable[[], float] = time.monotonic,
                 new_share: Callable[[], str] = fair.new_share,
                 new_round_id: Callable[[], str] = lambda: secrets.token_hex(8),
                 commit_timeout: float = 3.0, reveal_timeout: float = 3.0,
                 settle_timeout: float = 15.0) -> None:
        self.me, self.clock = me, clock
        self.new_share, self.new_round_id = new_share, new_round_id
        self.commit_timeout, self.reveal_timeout = commit_timeout, reveal_timeout
        self.settle_timeout = settle_timeout
        self.rounds: dict[str, Round] = {}
        self.started = clock()  # what this peer cannot have forgotten is since then
        self.early: list[tuple[str, InRound]] = []
        # the rounds others started that this peer took part in, open or not (latest last)
        self.took_part: OrderedDict[str, Round] = OrderedDict()
        self._handlers: dict[type[Message], Callable[[str, Any], list[Event]]] = {
            FairStart: self._on_start, FairCommit: self._on_commit, FairOpen: self._on_open,
            FairReveal: self._on_reveal}
        # round id -> the share this peer revealed privately to a pile's owner: published at
        # the end of the game (table.core.fair_ops.publication)
        self.my_shares: dict[str, str] = {}

    # --- starting ------------------------------------------------------------------------
    def start(self, use: str, peers: list[str], meta: Any = None) -> tuple[str, list[Event]]:
        """Open a round among `peers` (this peer is added). Needs at least one other peer:
        alone, use local randomness (actions.roll / actions.shuffle)."""
        if use not in USES:
            raise ValueError(f"a joint draw is for one of {USES}, not {use!r}")
        members = sorted(set(peers) | {self.me})
        if len(members) < 2:
            raise ValueError("a joint draw needs another peer; alone, roll locally")
        if len(members) > MAX_PEERS:
            raise ValueError(f"a joint draw takes at most {MAX_PEERS} peers")
        rid = f"{self.me}.{self.new_round_id()}"  # named by its initiator: nobody can take it
        rnd = Round(rid, use, self.me, members, self.new_share(), self.clock(), meta,
                    invited=list(members))
        rnd.commits[self.me] = fair.share_commit(rid, self.me, rnd.share)
        rnd.deadline = rnd.started + self.commit_timeout
        self.rounds[rid] = rnd
        return rid, [Send(self._others(rnd), FairStart(rid, use, members, rnd.commits[self.me]))]

    # --- messages ------------------------------------------------------------------------
    def on_message(self, peer: str, msg: Message) -> list[Event]:
        handler = self._handlers.get(type(msg))
        return handler(peer, msg) if handler is not None else []

    def _round_for(self, peer: str, msg: InRound) -> Round | None:
        """The round a message is about, if this peer takes part in it with ``peer``."""
        rnd = self.rounds.get(msg.r)
        if rnd is None:  # its start may still be on its way
            self.early.append((peer, msg))
            del self.early[:-MAX_EARLY]
            return None
        if rnd.done or peer not in rnd.peers or peer == self.me:
            return None
        return rnd

    def _on_start(self, peer: str, msg: FairStart) -> list[Event]:
        rid, peers, use = msg.r, msg.peers, msg.use
        if rid in self.rounds or not rid.startswith(peer + ".") or len(rid) > fair.MAX_ID:
            return []
        if len(self.rounds) >= MAX_OPEN:
            return [Named(rid, peer, "started a joint draw while too many were open; ignored")]
        if (use not in USES or self.me not in peers or peer not in peers
                or not all(isinstance(p, str) and len(p) <= fair.MAX_ID for p in peers)
                or len(peers) > MAX_PEERS or not fair.is_hex(msg.c)):
            return [Named(rid, peer, "sent a malformed joint draw start")]
        members = sorted(set(peers))
        rnd = Round(rid, use, peer, members, self.new_share(), self.clock(), invited=members)
        rnd.commits[peer] = msg.c
        rnd.commits[self.me] = fair.share_commit(rid, self.me, rnd.share)
        rnd.deadline = rnd.started + self.commit_timeout + self.reveal_timeout + \
            self.settle_timeout
        self.rounds[rid] = rnd
        self.took_part[rid] = rnd
        if len(self.took_part) > REMEMBERED:
            self.took_part.popitem(last=False)
        events: list[Event] = [Send(self._others(rnd), FairCommit(rid, rnd.commits[self.me]))]
        early, self.early = [e for e in self.early if e[1].r == rid], \
            [e for e in self.early if e[1].r != rid]
        for sender, held in early:
            events += self.on_message(sender, held)
        return events + self._maybe_reveal(rnd)

    def _on_commit(self, peer: str, msg: FairCommit) -> list[Event]:
        rnd, digest = self._round_for(peer, msg), msg.c
        if rnd is None or rnd.fixed or peer in rnd.commits:
            return []
        if not fair.is_hex(digest):
            return [Named(rnd.rid, peer, "sent a malformed commitment")]
        rnd.commits[peer] = digest
        return self._maybe_reveal(rnd)

    def _on_open(self, peer: str, msg: FairOpen) -> list[Event]:
        rnd, commits = self._round_for(peer, msg), msg.commits
        if rnd is None or peer != rnd.initiator or rnd.initiator == self.me or rnd.fixed:
            return []
        changed = [p for p, c in commits.items() if p in rnd.commits and rnd.commits[p] != c]
        if changed or not all(p in rnd.peers and fair.is_hex(c) for p, c in commits.items()):
            rnd.done = True
            return [Named(rnd.rid, peer, f"fixed commitments that are not the ones sent "
                                         f"({', '.join(sorted(changed)) or 'unknown peers'})")]
        rnd.commits = dict(commits)
        return self._reveal(rnd)

    def _on_reveal(self, peer: str, msg: FairReveal) -> list[Event]:
        rnd, share = self._round_for(peer, msg), msg.s
        if rnd is None or peer in rnd.shares or peer in rnd.bad:
            return []
        if not fair.share_matches(rnd.rid, peer, share, rnd.commits.get(peer)):
            reason = "revealed a share that does not match its commitment" \
                if peer in rnd.commits else "revealed a share without a commitment in the round"
            rnd.bad[peer] = reason
            return [Named(rnd.rid, peer, reason), *self._maybe_finish(rnd)]
        rnd.shares[peer] = share
        return self._maybe_finish(rnd)

    # --- phases --------------------------------------------------------------------------
    def _maybe_reveal(self, rnd: Round) -> list[Event]:
        if rnd.fixed or set(rnd.peers) - rnd.commits.keys():
            return []
        return self._reveal(rnd)

    def _reveal(self, rnd: Round) -> list[Event]:
        """The set of commitments is final: reveal this peer's share (if it is in the set).
        The initiator tells the others the set first (``fair_open``): one may lack a
        commitment that reached the initiator (its sender left), and it must reveal too."""
        rnd.fixed = True
        now = self.clock()
        events: list[Event] = []
        if rnd.initiator == self.me:
            rnd.deadline = now + self.reveal_timeout
            for peer in sorted(rnd.gone & rnd.commits.keys()):  # it will never reveal
                rnd.bad.setdefault(peer, LEFT)
                events.append(Named(rnd.rid, peer, LEFT))
            events.append(Send(self._others(rnd), FairOpen(rnd.rid, dict(rnd.commits))))
        if self.me not in rnd.commits:
            return events
        rnd.shares[self.me] = rnd.share
        rnd.revealed_at = now
        msg = FairReveal(rnd.rid, rnd.share)
        if rnd.initiator != self.me:
            if rnd.use == "shuffle":
                self.my_shares[rnd.rid] = rnd.share
                events.append(Send([rnd.initiator], msg))
            else:
                events.append(Send(self._others(rnd), msg))
        elif rnd.use == "roll":
            events.append(Send(self._others(rnd), msg))
        return events + self._maybe_finish(rnd)

    def _maybe_finish(self, rnd: Round) -> list[Event]:
        if rnd.initiator != self.me or not rnd.fixed or rnd.done:
            return []
        if rnd.commits.keys() - rnd.shares.keys() - rnd.bad.keys():
            return []
        return self._finish(rnd)

    def _finish(self, rnd: Round) -> list[Event]:
        rnd.done = True
        events: list[Event] = []
        missing = sorted(rnd.commits.keys() - rnd.shares.keys())
        for peer in missing:
            if peer not in rnd.bad:
                events.append(Named(rnd.rid, peer, "did not reveal its share in time; the draw "
                                                   "used the others' shares"))
        shares = {p: rnd.shares[p] for p in rnd.commits if p in rnd.shares}
        absent = sorted(set(rnd.invited) - rnd.commits.keys())
        left = sorted(rnd.gone & (set(missing) | set(absent)))
        draw = fair.JointDraw(rnd.rid, dict(rnd.commits), shares, missing, absent, left)
        del self.rounds[rnd.rid]
        return [*events, Drawn(rnd.use, draw, rnd.meta)]

    def tick(self) -> list[Event]:
        """Timeouts: commitments (initiator fixes the set), reveals (initiator completes with
        the others' shares), settling (a participant names an initiator that never used it)."""
        now, events = self.clock(), list[Event]()
        for rnd in list(self.rounds.values()):
            if now < rnd.deadline:
                continue
            if rnd.initiator != self.me:
                del self.rounds[rnd.rid]
                if rnd.revealed_at is not None and not rnd.done:
                    events.append(Named(rnd.rid, rnd.initiator, f"never used joint {rnd.use} "
                                        f"{rnd.rid} (it may have thrown away a result)"))
            elif not rnd.fixed:
                for peer in sorted(set(rnd.peers) - rnd.commits.keys()):
                    events.append(Named(rnd.rid, peer, "did not commit in time; left out of "
                                                       "the draw"))
                events += self._reveal(rnd)
            else:
                events += self._finish(rnd)
        return events

    def peer_gone(self, peer: str) -> list[Event]:
        """A peer can no longer be reached: stop waiting for it (or drop a round it started).
        As the initiator, its commitment (if it made one) stays in the set and its share is
        left out, named: the round goes on with every remaining share."""
        events: list[Event] = []
        for rnd in list(self.rounds.values()):
            if peer not in rnd.peers or rnd.done:
                continue
            if rnd.initiator == peer:
                del self.rounds[rnd.rid]
            elif rnd.initiator == self.me:
                rnd.gone.add(peer)
                if peer not in rnd.commits:
                    rnd.peers = [p for p in rnd.peers if p != peer]
                    events += self._maybe_reveal(rnd)
                elif rnd.fixed and peer not in rnd.shares and peer not in rnd.bad:
                    rnd.bad[peer] = LEFT
                    events.append(Named(rnd.rid, peer, LEFT))
                    events += self._maybe_finish(rnd)
        return events

    def used(self, rid: str) -> Round | None:
        """An op used round ``rid``: the round as this peer took part in it (None: it did not),
        no longer open (the initiator is not named for never using it)."""
        rnd = self.rounds.get(rid)
        if rnd is not None and rnd.initiator != self.me:
            del self.rounds[rid]
            rnd.done = True
        return self.took_part.get(rid)

    def _others(self, rnd: Round) -> list[str]:
        return [p for p in rnd.peers if p != self.me]
