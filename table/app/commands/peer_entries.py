"""One op in the JSON form at a LAN table, as a headless peer performs it (a script's line, a
bot's entry): here, or, when it takes from another seat's hidden pile, asked of that seat's
peer (which performs it if its player consents)."""
from __future__ import annotations

from typing import Any


async def perform_entry(t: Any, entry: dict[str, Any], namer: Any) -> tuple[bool, str]:
    """Perform one entry here, or ask the owner of the hidden pile it takes from."""
    from table.core import actions, jsonform

    try:
        jsonform.perform(t.replica, entry, namer)
        return True, ""
    except jsonform.JsonOpError as err:
        # another player's hidden pile: its owner's peer performs the entry, if they consent
        owner = actions.foreign_owner(t.replica, jsonform.source_of(t.replica, entry))
        if owner is None or t.session.options.watch:
            return False, str(err)
    request = {k: v for k, v in entry.items() if k != "seat"}
    ok, reason = await t.session.request(request, owner)
    return bool(ok), str(reason)
