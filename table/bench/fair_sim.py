"""Several peers' joint-draw rounds run in memory, with no sockets: for tests and the benchmark.

Every message goes through msgpack and the message catalogue's checks, as it would on a link;
`drop` and `tamper` let a test make a peer that never reveals, or reveals a wrong share.
"""
from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

import msgpack

from netplay.draws.commit_reveal import Drawn, Event, FairRounds, Named, Send
from netplay.protocol.messages import check_message, decode_message, encode_message

Hook = Callable[[str, str, dict[str, Any]], Any]


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class MemoryNet:
    """A FairRounds per peer, and the messages between them, delivered in FIFO order."""

    def __init__(self, peers: list[str], *, clock: Callable[[], float] | None = None,
                 **options: Any) -> None:
        self.clock = clock or FakeClock()
        self.rounds = {p: FairRounds(p, clock=self.clock, **options) for p in peers}
        self.queue: deque[tuple[str, str, dict[str, Any]]] = deque()
        self.drawn: dict[str, list[Drawn]] = {p: [] for p in peers}
        self.named: list[tuple[str, Named]] = []  # (the peer that named, the event)
        self.sent: list[tuple[str, str, str]] = []  # (from, to, message type)
        self.drop: Hook | None = None  # (from, to, msg) -> True: the message is lost
        self.left: set[str] = set()  # peers gone from the table (their messages are lost)
        self.tamper: Hook | None = None  # (from, to, msg) -> the message to deliver instead

    def feed(self, sender: str, events: list[Event]) -> None:
        for event in events:
            if isinstance(event, Send):
                for to in event.to:
                    msg = msgpack.unpackb(msgpack.packb(encode_message(event.msg), use_bin_type=True))
                    self.queue.append((sender, to, check_message(msg)))
            elif isinstance(event, Drawn):
                self.drawn[sender].append(event)
            else:
                self.named.append((sender, event))

    def run(self) -> None:
        while self.queue:
            sender, to, msg = self.queue.popleft()
            if (self.drop is not None and self.drop(sender, to, msg)) or {sender, to} & self.left:
                continue
            if self.tamper is not None:
                msg = self.tamper(sender, to, msg)
            self.sent.append((sender, to, msg["t"]))
            self.feed(to, self.rounds[to].on_message(sender, decode_message(msg)))

    def start(self, initiator: str, use: str, meta: Any = None) -> str:
        rid, events = self.rounds[initiator].start(use, list(self.rounds), meta)
        self.feed(initiator, events)
        self.run()
        return rid

    def leave(self, peer: str) -> None:
        """``peer`` leaves (its links drop): every other peer hears it gone."""
        self.left.add(peer)
        for other, rounds in self.rounds.items():
            if other not in self.left:
                self.feed(other, rounds.peer_gone(peer))
        self.run()

    def advance(self, seconds: float) -> None:
        """Let time pass (a FakeClock) and run every peer's timeouts."""
        assert isinstance(self.clock, FakeClock)
        self.clock.now += seconds
        for peer, rounds in self.rounds.items():
            self.feed(peer, rounds.tick())
        self.run()
