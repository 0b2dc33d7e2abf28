"""Watchers: peers at a table who take no seat.

A watcher says so in its ``hello`` (``watch: true``). It sees the public table, chats and adds
designer notes, and nothing else: any other op it signs is void at its place on every peer
(the same reason everywhere, so states agree) and its own replica refuses to issue one.
"""
from __future__ import annotations

from .errors import Fault, Void
from .state import State

WATCHER_KINDS = frozenset({"hello", "note", "chat"})
WATCHER_REFUSED = "a watcher cannot"


def is_watcher(state: State, peer_id: str) -> bool:
    return bool((state.peers.get(peer_id) or {}).get("watch"))


def watchers(state: State) -> list[str]:
    return sorted(pid for pid, info in state.peers.items() if (info or {}).get("watch"))


def watcher_refusal(state: State, author: str, kind: str) -> Void | None:
    """Why an op of `kind` is void because its author watches (None when it may take effect)."""
    if kind in WATCHER_KINDS or not is_watcher(state, author):
        return None
    return Void(f"{WATCHER_REFUSED} {kind} (watchers only chat and add notes)", Fault.WATCHER_OP)
