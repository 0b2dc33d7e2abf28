"""A LAN table as this peer holds it: the session, the replica, the module, and the tasks that
run its setup; and waiting on what the replica announces rather than polling it."""


from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from netplay.link.quic import QuicSettings
from netplay.link.table_ticket import table_ticket
from netplay.session.lan_session import LanSession
from table.core.events import EventHub
from table.core.replica import Replica
from table.games.module import GameModule
from table.games.position import Position
from table.lan.modules import ModuleFollower, blob_lookup

log = logging.getLogger(__name__)


class LanError(Exception):
    """Hosting or joining failed; the message is for the player."""


class NobodyFound(LanError):
    """Rejoining: discovery found no other peer of the table (a HOST:PORT may still work)."""


@dataclass
class LanTable:
    session: LanSession
    replica: Replica
    module: GameModule | None = None
    seats: int = 0
    table_name: str = ""
    tasks: set[asyncio.Task[Any]] = field(default_factory=set)
    setting_up: set[int] = field(default_factory=set)  # this peer's seats whose setup task runs
    position: Position | None = None  # the table starts from this position (docs/positions.md)
    modules: ModuleFollower | None = None
    # told when the table moved to another module (a draft changed during play)
    on_module: Callable[[GameModule], None] | None = None

    @property
    def ticket(self) -> str | None:
        """The table's invitation over the internet (None: no internet endpoint open)."""
        quic = self.session.mesh.quic
        return table_ticket(self.replica.table_id, quic.ticket()) if quic is not None else None

    async def invite_over_internet(self, settings: QuicSettings) -> str:
        """Open the internet endpoint if it is not yet; the table's ticket."""
        quic = await self.session.mesh.open_internet(settings)
        return table_ticket(self.replica.table_id, quic.ticket())

    def module_changed(self, module: GameModule) -> None:
        self.module = module
        if self.on_module is not None:
            self.on_module(module)

    def spawn(self, coro: Any) -> None:
        """Run `coro` for as long as the table is open (closing the table cancels it)."""
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def follow_modules(self) -> None:
        """Serve the table's modules to others, and fetch each new one the table moves to."""
        self.session.blobs.server.lookup = blob_lookup(self.replica)
        self.modules = ModuleFollower(self.replica, self.session.blobs,
                                      on_module=self.module_changed,
                                      report=lambda text: log.info("%s", text))

    async def close(self, graceful: bool = True) -> None:
        if self.modules is not None:
            self.modules.close()
        for task in list(self.tasks):
            task.cancel()
        await self.session.stop(graceful)
        self.replica.close()


async def until_changed(replica: Replica, ready: Callable[[], bool], *,
                        kinds: Iterable[str] | None = None, timeout: float | None = None,
                        events: EventHub[Any] | None = None) -> bool:
    """Wait until `ready()` holds, asking again after each change the replica announces (ops
    from any peer, a rollback, new knowledge) that holds an op of one of `kinds` (any op if
    None), and after each of `events` (the session's, for what brings no op: a link made or
    lost). No polling. True once ready; False when `timeout` passes first."""
    if ready():
        return True
    wanted = frozenset(kinds) if kinds is not None else None
    event = asyncio.Event()

    def on_change(change: Any) -> None:
        if wanted is not None and not any(rec.op.kind in wanted for rec in change.records):
            return
        if ready():
            event.set()

    def on_event(_event: Any) -> None:
        if ready():
            event.set()

    stop_listening = replica.subscribe(on_change)
    unsubscribe = events.subscribe(on_event) if events is not None else None
    try:
        await asyncio.wait_for(event.wait(), timeout)
        return True
    except TimeoutError:
        return ready()
    finally:
        stop_listening()
        if unsubscribe is not None:
            unsubscribe()
