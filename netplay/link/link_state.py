"""A link's states, the moves between them, and its settings (timeouts, heartbeats, limits).

CONNECTING -> HANDSHAKING -> OPEN -> CLOSING -> CLOSED; any state may go straight to CLOSING or
CLOSED, and nothing comes back from CLOSED.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field

from netplay.protocol.wire import DEFAULT_LIMITS, WireLimits


class LinkState(enum.Enum):
    CONNECTING = "connecting"
    HANDSHAKING = "handshaking"
    OPEN = "open"
    CLOSING = "closing"
    CLOSED = "closed"


TRANSITIONS: dict[LinkState, frozenset[LinkState]] = {
    LinkState.CONNECTING: frozenset({LinkState.HANDSHAKING, LinkState.CLOSING, LinkState.CLOSED}),
    LinkState.HANDSHAKING: frozenset({LinkState.OPEN, LinkState.CLOSING, LinkState.CLOSED}),
    LinkState.OPEN: frozenset({LinkState.CLOSING, LinkState.CLOSED}),
    LinkState.CLOSING: frozenset({LinkState.CLOSED}),
    LinkState.CLOSED: frozenset(),
}


@dataclass(frozen=True, slots=True)
class LinkConfig:
    # Short beats and a short silence limit: a cut link is noticed within seconds, and the
    # mesh redials it (a long limit only delays the relink; TCP's retransmit backoff during a
    # cut can outlast any timer).
    heartbeat_interval: float = 1.0
    dead_after: float = 6.0
    handshake_timeout: float = 10.0
    hello_timeout: float = 2.0  # an accepted connection must start its hello this soon
    connect_timeout: float = 3.0
    close_timeout: float = 1.0
    send_queue_max: int = 4096
    limits: WireLimits = field(default_factory=lambda: DEFAULT_LIMITS)
