"""A bot in a headless LAN peer (`sandtable host|join --headless --seat N --bot NAME`): it
holds only its seat's secrets (its peer's replica is all it has), reads its seat's view, and
plays through the same JSON op form as a script, asking the owner's peer for anything of
another seat's hidden piles; a joint roll or shuffle is waited for before its next move."""
from __future__ import annotations

import asyncio
import contextlib
import sys
from typing import Any


async def play_bot(t: Any, name: str, seat: int, stop: asyncio.Event) -> str:
    """Play `seat` until the game ends (returns how) or `stop` is set."""
    from table.app.commands.log import _namer
    from table.app.commands.peer_entries import perform_entry
    from table.bots import registry
    from table.bots.api import SeatView
    from table.bots.effects import module_effects

    module = t.module
    bot = registry.find(name, module.id)(seed=f"{t.replica.peer_id}:{seat}",
                                         effects=module_effects(module.cards))
    view = SeatView(t.replica, module, seat)
    namer = _namer(t.replica)
    _tag(t, seat, registry.player_tag(name))  # who plays the seat, in every peer's log
    changed = asyncio.Event()
    unsubscribe = t.replica.subscribe(lambda _change: changed.set())
    try:
        while not stop.is_set():
            if view.ended:
                return "ended"
            if bot.wants_to_act(view):
                for entry in bot.act(view):
                    ok, error = await perform_entry(t, {**entry, "seat": seat}, namer)
                    if not ok:
                        print(f"bot: {entry}: {error}", file=sys.stderr)
                        break
                    await _settled(t)
                continue
            changed.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(changed.wait(), 0.5)
        _tag(t, seat, "")  # taken out: nobody plays the seat now
        return "stopped"
    finally:
        unsubscribe()


def _tag(t: Any, seat: int, player: str) -> None:
    from table.core.errors import CoreError

    try:
        t.replica.issue("tag", {"players": {str(seat): player}})
    except CoreError as err:  # a watcher's peer, say: the bot plays on untagged
        print(f"bot: the seat's tag: {err}", file=sys.stderr)


async def _settled(t: Any, timeout: float = 30.0) -> None:
    """Until no joint roll or shuffle of the table is open (its op has arrived)."""
    done = asyncio.Event()
    t.session.fair.when_settled(done.set)
    with contextlib.suppress(asyncio.TimeoutError):
        await asyncio.wait_for(done.wait(), timeout)
    await asyncio.sleep(0)
