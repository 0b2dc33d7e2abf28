"""Joint draws wired to a replica: what a LAN session needs to roll and shuffle fairly.

`FairDriver` owns a `FairRounds` and turns its events into ops (`fair_ops.fair_roll` /
`fair_shuffle`), messages (through the `send` callable it is given) and reports (named peers go
to `replica.report`). The joint ops other peers issue are checked by netplay.draws.witness.
No sockets, no clock of its own: a session plugs it in with a few lines:

    fair = FairDriver(replica, send=lambda peer, msg: mesh.send(peer, msg), clock=loop.time)
    # messages of a kind in ROUTED:                  fair.on_message(peer, msg)
    # a timer, a few times a second:                  fair.tick()
    # a link dropped:                                 fair.peer_gone(peer)
    # the player rolls / shuffles a hidden pile:      fair.roll(connected, sides=..., seat=...)
    #                                                 fair.shuffle(connected, pile, seat=...)
    # the game is over for this peer:                 fair.publish(connected)

With no other peer connected, `roll` and `shuffle` use local randomness at once (marked local).
"""
from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from netplay.draws.commit_reveal import ROUND_KINDS, Drawn, Event, FairPublication, FairRounds, Named, Send
from netplay.protocol.messages import Message
from netplay.protocol.splitting import PUBLICATION_MAPS, split_maps
from table.core import actions as act
from table.core.errors import CoreError
from table.core.fair_ops import fair_roll, fair_shuffle, publish, receive_publication
from table.core.ops import Op
from table.core.replica import Replica

ROUTED: tuple[type[Message], ...] = (*ROUND_KINDS, FairPublication)  # what a session routes here
Sender = Callable[[str, Message], Any]


class FairDriver:
    def __init__(self, replica: Replica, send: Sender, *,
                 clock: Callable[[], float] = time.monotonic, **options: Any) -> None:
        self.replica, self.send = replica, send
        self.rounds = FairRounds(replica.peer_id, clock=clock, **options)
        self.issued: list[Op] = []  # the joint ops this peer issued (for the UI to follow)
        self.closed = False
        self._settled: list[Callable[[], None]] = []  # called once no round is open

    @property
    def open_rounds(self) -> int:
        """How many joint rounds this peer takes part in are still open."""
        return len(self.rounds.rounds)

    def when_settled(self, callback: Callable[[], None]) -> None:
        """Call `callback` once no joint round is open (now, if none is)."""
        self._settled.append(callback)
        self._notify_settled()

    def _notify_settled(self) -> None:
        if self.rounds.rounds or not self._settled:
            return
        waiting, self._settled = self._settled, []
        for callback in waiting:
            callback()

    # --- what the player does ------------------------------------------------------------
    def roll(self, peers: list[str], *, sides: int = 6, count: int = 1,
             die_id: str | None = None, why: str | None = None,
             seat: int | None = None) -> Op | None:
        """Roll with every peer in `peers`; alone, roll locally now and return the op (else
        the op is issued when the round completes, in a few milliseconds)."""
        if not set(peers) - {self.replica.peer_id}:
            return act.roll(self.replica, die_id=die_id, sides=sides, count=count, why=why,
                            seat=seat, now=True)
        meta = {"sides": sides, "count": count, "die_id": die_id, "why": why, "seat": seat}
        self._handle(self.rounds.start("roll", peers, meta)[1])
        return None

    def shuffle(self, peers: list[str], pile_id: str, *, seat: int | None = None,
                incoming: list[str] | None = None) -> Op | None:
        """Shuffle a hidden pile of this peer's seat (with `incoming` cards added) from a seed
        drawn with `peers`; alone, shuffle locally now and return the op."""
        if not set(peers) - {self.replica.peer_id}:
            if incoming:
                pile = self.replica.state.objs[pile_id]
                cards = [self.replica.state.objs[c] for c in incoming]
                return act.rehandle_into(self.replica, pile, cards, seat=seat, why="shuffle",
                                         shuffle=True)
            return act.shuffle(self.replica, pile_id, seat=seat, now=True)
        meta = {"pile": pile_id, "seat": seat, "incoming": list(incoming or [])}
        self._handle(self.rounds.start("shuffle", peers, meta)[1])
        return None

    def publish(self, peers: list[str]) -> dict[str, Any]:
        """The end-of-game publication: kept in this peer's log and sent to `peers`."""
        body = publish(self.replica, self.rounds.my_shares)
        parts = split_maps(body, PUBLICATION_MAPS)  # a long game's is too big for one message
        for peer in peers:
            if peer != self.replica.peer_id:
                for part in parts:
                    self.send(peer, FairPublication(part))
        return body

    # --- what the session feeds in -------------------------------------------------------
    def on_message(self, peer: str, msg: Message) -> None:
        if isinstance(msg, FairPublication):
            receive_publication(self.replica, msg.body, peer)
        else:
            self._handle(self.rounds.on_message(peer, msg))

    def tick(self) -> None:
        self._handle(self.rounds.tick())

    def peer_gone(self, peer: str) -> None:
        self._handle(self.rounds.peer_gone(peer))

    def close(self) -> None:
        """Stop following the replica and abandon the rounds still open (the session left
        the table). A round finished later (the last reveal, or a link closing as the mesh
        stops) would issue its op after replication stopped, into this peer's log only; the
        other peers drop a round whose initiator left."""
        self.closed = True
        self.rounds.rounds.clear()
        self._notify_settled()

    def _handle(self, events: list[Event]) -> None:
        if self.closed:
            return
        self._deliver(events)
        self._notify_settled()  # a round may have ended (issued, given up, or its peer gone)

    def _deliver(self, events: list[Event]) -> None:
        for event in events:
            if isinstance(event, Send):
                for peer in event.to:
                    self.send(peer, event.msg)
            elif isinstance(event, Named):
                self.replica.report(f"peer {event.peer}: {event.reason} (joint draw "
                                    f"{event.round})")
            elif isinstance(event, Drawn):
                self._issue(event)

    def _issue(self, done: Drawn) -> None:
        m = done.meta
        try:
            if done.use == "roll":
                op = fair_roll(self.replica, done.draw, sides=m["sides"], count=m["count"],
                               die_id=m["die_id"], why=m["why"], seat=m["seat"])
            else:
                op = fair_shuffle(self.replica, m["pile"], done.draw, seat=m["seat"],
                                  incoming=m["incoming"])
        except CoreError as err:  # the pile or die went away while the round ran
            self.replica.report(f"could not use joint draw {done.draw.round}: {err}")
            return
        self.issued.append(op)
