"""Two handshake objects joined by a byte pump (tests): no sockets, no clock but a fake one."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from netplay.protocol.handshake import Established, Handshake, Rejected
from netplay.protocol.identity import Identity

Event = Established | Rejected | None
Edit = Callable[[str, bytes], bytes]


class FakeClock:
    def __init__(self, now: float = 100.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@dataclass
class Exchange:
    """The outcome of a pumped handshake, with every byte each side sent."""

    initiator: Event
    responder: Event
    c2s: bytearray = field(default_factory=bytearray)
    s2c: bytearray = field(default_factory=bytearray)


def pair(pass_i: str | None = None, pass_r: str | None = None, table_i: str = "t",
         table_r: str = "t", clock: FakeClock | None = None) -> tuple[Handshake, Handshake]:
    clock = clock or FakeClock()
    init = Handshake(Identity.generate(), table_i, pass_i, initiator=True, listen_port=4100,
                     clock=clock)
    resp = Handshake(Identity.generate(), table_r, pass_r, initiator=False, listen_port=4200,
                     clock=clock)
    return init, resp


def pump(init: Handshake, resp: Handshake, edit: Edit | None = None,
         chunk: int | None = None) -> Exchange:
    """Start both sides and carry bytes between them until both are done.

    ``edit(direction, data)`` may rewrite what travels ("c2s" or "s2c"); ``chunk`` delivers
    at most that many bytes per feed. A side that finished with a rejection hangs up, so a
    peer still waiting then sees the connection end."""
    result = Exchange(None, None)
    pending = {"c2s": init.start(), "s2c": resp.start()}
    sides = {"c2s": (resp, "responder", "s2c"), "s2c": (init, "initiator", "c2s")}
    while pending["c2s"] or pending["s2c"]:
        for direction in ("c2s", "s2c"):
            data, pending[direction] = pending[direction], b""
            if not data:
                continue
            if edit is not None:
                data = edit(direction, data)
            getattr(result, direction).extend(data)
            receiver, name, back = sides[direction]
            step_size = chunk or len(data)
            for i in range(0, len(data), step_size):
                step = receiver.feed(data[i:i + step_size])
                pending[back] += step.send
                if step.event is not None:
                    setattr(result, name, step.event)
    for hs, name, other in ((init, "initiator", "responder"), (resp, "responder", "initiator")):
        if getattr(result, name) is None and isinstance(getattr(result, other), Rejected):
            setattr(result, name, hs.connection_lost().event)
    return result
