"""Fires / nearest-legal pairs added later (appended, so the ids of the older cases stay):
refilling the Draw Pile card by card, and the last turn's Cleanup before the game's end op."""
from __future__ import annotations

from assist.testing import AssistTable
from table.core import actions as act

from .cases_core import case, cp
from .gau_kit import AO1, AO2, CLEANUP, DRAW, MOVE, begin, cmd, discard


@case("GAU-RESHUFFLE-TRIGGER")
def _(t: AssistTable, legal: bool) -> int:
    """Card by card and then shuffled: the refill, when the Draw Pile was empty."""
    begin(t, 1, DRAW)
    for _ in range(3):
        discard(t, 1)
    cmd(t, 1, "draw", **{"from": "p1.deck", "to": "p1.hand", "count": 27 if legal else 26})
    c = cp(t)
    for _ in range(3):
        cmd(t, 1, "move", card="p1.discard:#0", to="p1.deck")
    cmd(t, 1, "shuffle", pile="p1.deck")
    cmd(t, 1, "draw", **{"from": "p1.deck", "to": "p1.hand", "count": 1})
    return c


@case("GAU-RESHUFFLE-TRIGGER")
def _(t: AssistTable, legal: bool) -> int:
    """Card by card: all of the Discard Pile goes, not part of it."""
    begin(t, 1, DRAW)
    for _ in range(3):
        discard(t, 1)
    cmd(t, 1, "draw", **{"from": "p1.deck", "to": "p1.hand", "count": 27})
    c = cp(t)
    for _ in range(3 if legal else 2):
        cmd(t, 1, "move", card="p1.discard:#0", to="p1.deck")
    cmd(t, 1, "shuffle", pile="p1.deck")
    return c


@case("GAU-RESHUFFLE-TRIGGER")
def _(t: AssistTable, legal: bool) -> int:
    """The same refill as one gesture."""
    begin(t, 1, DRAW)
    for _ in range(3):
        discard(t, 1)
    cmd(t, 1, "draw", **{"from": "p1.deck", "to": "p1.hand", "count": 27 if legal else 26})
    c = cp(t)
    cmd(t, 1, "move_all", **{"from": "p1.discard", "to": "p1.deck", "shuffle": True})
    return c


@case("GAU-HAND-LIMIT")
def _(t: AssistTable, legal: bool) -> int:
    """The game's end op after the last Cleanup: the turn ends there too."""
    begin(t, 1, DRAW)
    cmd(t, 1, "draw", **{"from": "p1.deck", "to": "p1.hand"})
    for step in (AO1, MOVE, AO2, CLEANUP):
        t.phase(step, seat=1)
    c = cp(t)
    if legal:
        discard(t, 1)
    act.end_game(t.replica, [1], "time", seat=1)
    return c
