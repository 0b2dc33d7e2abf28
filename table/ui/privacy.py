"""What a rules-assist flag may tell the viewing seat.

A plugin writes its messages for the designers: it may name a card that is face down or in a
hand. At a hot-seat table every seat reads the same screen, so before a message reaches a
tooltip, the log or the assist panel, each card it concerns that this seat may not see has its
name replaced by "a face-down card". Plugins also name seats by number ("Seat 2"); the table
calls them by their names ("Player 2", the name a player took), and so do its messages.
"""
from __future__ import annotations

import re
from typing import Any

from table.core.views import ALL, known_card, view_object

from .controller import TableController

HIDDEN_NAME = "a face-down card"
SEAT_WORD = re.compile(r"\b[Ss]eat (\d+)\b")


def flag_message(ctl: TableController, flag: Any) -> str:
    """The flag's message as `ctl.seat` may read it."""
    text = str(flag.message)
    state, knowledge = ctl.replica.state, ctl.replica.knowledge
    for oid in getattr(flag, "objects", ()) or ():
        obj = state.objs.get(oid)
        if obj is None or obj.kind != "card":
            continue
        if view_object(state, knowledge, obj, ctl.seat).card is not None:
            continue
        card = known_card(state, knowledge, obj, ALL)
        if card is None:
            continue
        for name in {ctl.catalog.name_of(card), card}:
            if name:
                text = text.replace(name, HIDDEN_NAME)
    return seats_by_name(ctl, text)


def seats_by_name(ctl: TableController, text: str) -> str:
    """"Seat 2" in a plugin's message, as the table names that seat."""
    seats = ctl.replica.state.seats

    def named(match: re.Match[str]) -> str:
        seat = int(match.group(1))
        return ctl.seat_name(seat) if seat in seats else match.group(0)
    return SEAT_WORD.sub(named, text)
