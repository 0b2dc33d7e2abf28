"""Requests to the owner's peer from a LAN table window.

At a LAN table only the peer playing a seat handles that seat's hidden piles and cards. When
the player does something that needs one ("take the top card of Alice's deck", "shuffle
Alice's deck"), the window's controller hands the JSON-form entry to ``ask_owner``; this module
sets that hook for a LAN table: it sends the request on the qasync loop
(:meth:`netplay.session.LanSession.request`) and reports the answer in the status bar.
The owner's peer performs it as its own seat (a card it draws into your hand is a gift).
"""
from __future__ import annotations

import asyncio
import logging
from typing import Any

log = logging.getLogger(__name__)

_VERBS = {"draw": "draw for you", "move": "move that card for you",
          "shuffle": "shuffle for you"}


def install_owner_requests(window: Any, lan_table: Any) -> None:
    """Let the window's refused draw/move/shuffle on another seat's hidden pile or card ask
    that seat's peer (``window.ctl.ask_owner``)."""
    ctl, session = window.ctl, lan_table.session
    tasks: set[asyncio.Future[Any]] = set()

    def ask(entry: dict[str, Any], seat: int) -> None:
        who = ctl.seat_name(seat)
        verb = _VERBS.get(str(entry.get("op")), "do that for you")
        ctl.status.emit(f"Asked {who}'s table to {verb}…")

        async def run() -> None:
            try:
                ok, error = await session.request(entry, seat)
            except Exception as err:  # the link went away mid-request, say
                log.exception("request to seat %s failed", seat)
                ok, error = False, str(err) or type(err).__name__
            if ok:
                ctl.status.emit(f"{who}'s table did it ({entry.get('op')})")
            else:
                ctl.status.emit(f"{who}'s table refused: {error}")

        task = asyncio.ensure_future(run())
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    ctl.ask_owner = ask
