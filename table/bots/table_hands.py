"""Bots in some seats of a table people play at in this process (hot-seat): each bot plays
whenever the table waits for its seat (its turns, and whatever it must answer between them, as
its `wants_to_act` reads the table), one entry at a time, so a window shows every move as it
lands and a person's move in between is read before the bot's next one. Entries are performed
through the JSON op form as the bot's seat: logged, undone, judged by the assist like anyone's.

The caller decides when to `step` (a window's timer); nothing here waits or loops on its own.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from table.core.errors import CoreError

from .api import Bot, Entry, SeatView
from .match import perform_as
from .seating import make_bot, seat_group

if TYPE_CHECKING:
    from table.core.replica import Replica
    from table.games.module import GameModule


class TableBots:
    """The bots seated at one table, and the decision one of them is in the middle of."""

    def __init__(self, replica: Replica, module: GameModule,
                 on_refused: Callable[[int, str], None] | None = None) -> None:
        self.replica = replica
        self.module = module
        self.bots: dict[int, Bot] = {}
        self._views: dict[int, SeatView] = {}
        self._decision: tuple[int, Iterator[Entry]] | None = None
        self._yielded = False  # the decision under way performed an entry already
        self._idle: dict[int, int] = {}  # seat -> log size when its bot last had nothing to do
        self.on_refused = on_refused  # (seat, why) an entry of its bot was refused

    def seat(self, seat: int, name: str) -> Bot:
        """Seat the bot `name` (or the game's `heuristic`, `random`); raises what make_bot
        raises. The seat's deck group picks its strategy file's priorities."""
        bot = make_bot(self.module, name, seed=f"{self.replica.peer_id}:{seat}",
                       group=seat_group(self.replica, self.module, seat))
        self.unseat(seat)
        self.bots[seat] = bot
        self._views[seat] = SeatView(self.replica, self.module, seat)
        return bot

    def unseat(self, seat: int) -> None:
        self.bots.pop(seat, None)
        self._views.pop(seat, None)
        self._idle.pop(seat, None)
        if self._decision is not None and self._decision[0] == seat:
            self._decision = None

    def step(self) -> bool:
        """Perform the next entry of the bot the table waits for; False when no bot has
        anything to do now (the table waits for a person, or the game is over)."""
        while True:
            if self._decision is None:
                self._decision = self._next()
                self._yielded = False
                if self._decision is None:
                    return False
            seat, entries = self._decision
            try:
                entry = next(entries)
            except StopIteration:
                if not self._yielded:  # it had nothing to do: not asked again until a change
                    self._idle[seat] = len(self.replica.records())
                self._decision = None
                continue
            except Exception as err:  # a bot's own failure stops its decision, not the table
                self._refused(seat, f"{type(err).__name__}: {err}")
                continue
            try:
                perform_as(self.replica, seat, entry)
            except CoreError as err:
                self._refused(seat, f"{entry.get('op')}: {err}")
                continue
            self._yielded = True
            return True

    def waiting_for(self) -> tuple[int, str] | None:
        """The seat the table waits for now and what for, as the bots read the game's flow
        (None: no bot here, or the game is over)."""
        for seat in sorted(self.bots):
            return self.bots[seat].waiting_for(self._views[seat])
        return None

    def _refused(self, seat: int, why: str) -> None:
        self._decision = None
        self._idle[seat] = len(self.replica.records())
        if self.on_refused is not None:
            self.on_refused(seat, why)

    def _next(self) -> tuple[int, Iterator[Entry]] | None:
        """The first bot, from the seat whose turn it is on, that the table waits for."""
        if not self.bots:
            return None
        size = len(self.replica.records())
        for seat in self._order():
            bot, view = self.bots[seat], self._views[seat]
            if view.ended or self._idle.get(seat) == size:
                continue
            if bot.wants_to_act(view):
                return seat, iter(bot.act(view))
        return None

    def _order(self) -> list[int]:
        seats = sorted(self.bots)
        active = self.replica.state.turn.get("seat")
        if isinstance(active, int):
            return sorted(seats, key=lambda s: (s - active) % 64)
        return seats


__all__ = ["TableBots"]
