"""A tiny synchronous event hub: subscribe a handler, emit events to every handler."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Generic, TypeVar

log = logging.getLogger(__name__)

E = TypeVar("E")


class EventHub(Generic[E]):
    """Handlers run synchronously, in subscription order. A handler that raises is logged and
    skipped, unless the exception type is listed in ``propagate`` for :meth:`emit`."""

    def __init__(self) -> None:
        self._handlers: list[Callable[[E], None]] = []

    def subscribe(self, handler: Callable[[E], None]) -> Callable[[], None]:
        """Add a handler; returns a function that removes it."""
        self._handlers.append(handler)

        def unsubscribe() -> None:
            if handler in self._handlers:
                self._handlers.remove(handler)

        return unsubscribe

    def emit(self, event: E, propagate: tuple[type[BaseException], ...] = ()) -> None:
        for handler in list(self._handlers):
            try:
                handler(event)
            except propagate:
                raise
            except Exception:
                log.exception("event handler %r failed on %r", handler, event)
