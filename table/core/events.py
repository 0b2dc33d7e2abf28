"""One way to listen: a tiny synchronous event hub. Subscribe a handler, get back the function
that unsubscribes it; emit an event to every handler.

The replica announces its changes and reports through hubs, and netplay's rooms (mesh,
replication, session) announce theirs through the same class, so every listener in the program
is added and removed the same way and no one touches a list of handlers.
"""
from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Generic, TypeVar

log = logging.getLogger(__name__)

E = TypeVar("E")
Unsubscribe = Callable[[], None]


class EventHub(Generic[E]):
    """Handlers run synchronously, in subscription order. A handler that raises is logged and
    skipped, unless the exception's type is in ``propagate`` (given to the hub for every emit,
    or to one :meth:`emit`): then it reaches whoever emitted, as a plain call would."""

    def __init__(self, propagate: tuple[type[BaseException], ...] = ()) -> None:
        # read it (is anyone listening?), never change it: `subscribe` and its unsubscribe do
        self.handlers: list[Callable[[E], None]] = []
        self._propagate = propagate

    def __len__(self) -> int:
        return len(self.handlers)

    def subscribe(self, handler: Callable[[E], None]) -> Unsubscribe:
        """Add a handler; returns a function that removes it (calling it twice is harmless)."""
        self.handlers.append(handler)

        def unsubscribe() -> None:
            if handler in self.handlers:
                self.handlers.remove(handler)

        return unsubscribe

    def emit(self, event: E, propagate: tuple[type[BaseException], ...] | None = None) -> None:
        if not self.handlers:
            return
        passing = self._propagate if propagate is None else propagate
        for handler in list(self.handlers):  # a handler may unsubscribe itself
            try:
                handler(event)
            except passing:
                raise
            except Exception:
                log.exception("event handler %r failed on %r", handler, event)
