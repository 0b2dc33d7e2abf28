"""Requests to the owner's peer from a LAN table window.

At a LAN table only the peer playing a seat handles that seat's hidden piles and cards. When
the player does something that needs one ("take the top card of Alice's deck", "shuffle
Alice's deck"), the window's controller hands the JSON-form entry to ``ask_owner``; this module
sets that hook for a LAN table: it sends the request on the qasync loop
(:meth:`netplay.session.lan_session.LanSession.request`) and reports the answer in the status bar.
The owner's peer performs it as its own seat (a card it draws into your hand is a gift).

``install_owner_consent`` is the other side: when another player's request reaches this
window's table, a :class:`~table.ui.lan.ConsentDialog` asks this player (accept, refuse, or
always for this game; see :mod:`netplay.session.consent`).
"""
from __future__ import annotations

import asyncio
import logging
from typing import Any

from netplay.session.consent import OwnerRequest
from table.ui.lan import ConsentDialog

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


def describe(entry: dict[str, Any], zone_name: Any) -> str:
    """A request in words, e.g. "draw the top card of Deck into Bob's hand"."""
    op = str(entry.get("op"))
    source = entry.get("from") or entry.get("pile")
    card = entry.get("card", entry.get("id"))
    if op == "draw":
        text = f"draw the top card of {zone_name(source)}"
    elif op == "shuffle":
        return f"shuffle {zone_name(source)}"
    elif op == "move":
        where = str(card).partition(":")[0] if isinstance(card, str) and ":" in card else card
        text = f"move a card from {zone_name(where)}"
    else:
        text = op
    return text + (f" to {zone_name(entry['to'])}" if entry.get("to") else "")


def install_owner_consent(window: Any, lan_table: Any) -> None:
    """Ask this window's player before performing another player's request on one of this
    seat's hidden piles (the session's ``allow_requests`` is "ask")."""
    session, replica = lan_table.session, lan_table.replica

    def zone_name(zone_id: Any) -> str:
        obj = replica.state.live(str(zone_id)) if zone_id else None
        name = getattr(obj, "name", "") if obj is not None else ""
        return f"“{name or zone_id}”"

    async def ask(request: OwnerRequest) -> str:
        future: asyncio.Future[str] = asyncio.get_running_loop().create_future()

        def answered(choice: str) -> None:
            if not future.done():
                future.set_result(choice)

        dialog = ConsentDialog(request.requester, describe(request.entry, zone_name), answered,
                               parent=window)
        window.consent_dialogs = [*getattr(window, "consent_dialogs", []), dialog]
        dialog.open()
        try:
            return await future
        finally:
            window.consent_dialogs.remove(dialog)
            if dialog.answered is None:
                dialog.withdraw()

    session.consent = ask
