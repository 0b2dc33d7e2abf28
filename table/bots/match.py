"""One game played by bots in process: a hot-seat table of a module (seeded: the same seed gives
the same game, op for op), each seat's bot asked in turn whether the table waits for it, its
entries performed through the JSON op form as that seat. The log is a real session log."""
from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from table.core.jsonform import perform
from table.core.replica import Replica
from table.core.rng import Rng

from .api import Bot, SeatView, Verdict
from .registry import player_tag

if TYPE_CHECKING:
    from table.games.model import Deck
    from table.games.module import GameModule

START_TIME = 1.7e9


class Stalled(RuntimeError):
    """No seat's bot has anything to do and the game has not ended."""


class DeterministicClock:
    """Op times for a simulated session: a seeded few seconds to a minute between ops, so the
    same seed writes the same log and the report's durations look like play."""

    def __init__(self, seed: int, start: float = START_TIME) -> None:
        self.now = start
        self.rnd = random.Random(f"clock:{seed}")

    def __call__(self) -> float:
        self.now += self.rnd.uniform(1.0, 20.0)
        return self.now


@dataclass(slots=True)
class Result:
    """How one game went."""

    seed: int
    seats: int
    bots: dict[int, str]
    decks: dict[int, str]
    winners: list[int]
    how: str  # "victory", or "stalled" / "turn-limit" when the bots did not finish
    condition: str
    turns: int
    ops: int
    log: str | None = None
    unresolved: list[str] = field(default_factory=list)
    bot_seconds: float = 0.0


def perform_as(replica: Replica, seat: int, entry: Mapping[str, object],
               namer: Callable[[str], str] | None = None) -> None:
    """Perform one of a bot's entries as its seat (the seat is the bot's, whatever it wrote)."""
    perform(replica, {**entry, "seat": seat}, namer)


class Match:
    """A table with one bot per seat; `play` runs it to its end."""

    def __init__(self, module: GameModule, bots: Mapping[int, Bot], seed: int, *,
                 decks: Mapping[int, Deck] | None = None, log_path: str | Path | None = None,
                 max_turns: int = 400,
                 verdicts: Callable[[Replica], Callable[[int], list[Verdict]]] | None = None
                 ) -> None:
        from table.games.setup import new_table

        self.module = module
        self.bots = dict(bots)
        self.seed = seed
        self.max_turns = max_turns
        self.replica = new_table(module, len(bots), decks, rng=Rng(seed),
                                 log_path=log_path, peer_id=f"bots{seed:08d}",
                                 # a draft's game of the same seed is another table
                                 table_id=f"sim-{module.id}-{module.content_hash[:12]}-{seed}",
                                 clock=DeterministicClock(seed))
        # who plays each seat, in the log: the report and the dataset name the bots
        self.replica.issue("tag", {"players": {str(s): player_tag(b.name)
                                               for s, b in self.bots.items()}})
        judge = verdicts(self.replica) if verdicts is not None else None
        self.views = {seat: SeatView(self.replica, module, seat, judge) for seat in self.bots}
        self.decks = {s: d.name for s, d in (decks or {}).items()}
        self.log_path = str(log_path) if log_path is not None else None
        self.clock_seconds = 0.0

    def step(self) -> bool:
        """One decision of the seat the table waits for; False when none wants to act."""
        order = self._order()
        for seat in order:
            view = self.views[seat]
            bot = self.bots[seat]
            if not bot.wants_to_act(view):
                continue
            acted = False
            for entry in bot.act(view):
                perform_as(self.replica, seat, entry)
                acted = True
            if acted:
                return True
        return False

    def _order(self) -> Sequence[int]:
        seats = sorted(self.bots)
        active = self.replica.state.turn.get("seat")
        if isinstance(active, int) and active in seats:
            i = seats.index(active)
            return seats[i:] + seats[:i]
        return seats

    def play(self) -> Result:
        view = next(iter(self.views.values()))
        idle = 0
        while not view.ended:
            if view.turn_number > self.max_turns:
                return self._result("turn-limit")
            if self.step():
                idle = 0
                continue
            idle += 1
            if idle > 1:
                return self._result("stalled")
        return self._result(None)

    def _result(self, unfinished: str | None) -> Result:
        r = self.replica
        winners: list[int] = []
        how, condition = unfinished or "", ""
        for rec in reversed(r.records()):
            if rec.op.kind == "end" and rec.void is None:
                winners = [int(s) for s in rec.op.args.get("winners", [])]
                how = str(rec.op.args.get("how", ""))
                condition = str(rec.op.args.get("condition", ""))
                break
        unresolved = sorted(set().union(*(b.unresolved() for b in self.bots.values())))
        return Result(self.seed, len(self.bots), {s: b.name for s, b in self.bots.items()},
                      self.decks, winners, how, condition,
                      int(r.state.turn.get("number", 0)), len(r.records()),
                      self.log_path, unresolved)

    def close(self) -> None:
        self.replica.close()


__all__ = ["DeterministicClock", "Match", "Result", "Stalled", "perform_as"]
