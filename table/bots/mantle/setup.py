"""The arena laid out by the players at the start (the module's setup prompts for it): five
Hazards (a Rift pair counts as one) placed in turn clockwise from the first player, then each
Chosen on a free space of a Rym tile no other Chosen stands on."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from table.bots.api import Decision, SeatView

from . import arena as ar

if TYPE_CHECKING:
    from table.bots.choosing import Chooser


class Placing:
    choose: Chooser
    heuristic: bool
    _started: bool = False
    _scanned: int = 0

    def _play_started(self, view: SeatView) -> bool:
        """Whether a phase marker was ever set (play has begun: no more placing)."""
        if not self._started:
            self._started = any(e.kind == "mark" and e.args.get("what") == "phase"
                                for e in view.log(self._scanned))
            self._scanned = view.log_size()
        return self._started

    def _order(self, view: SeatView) -> list[int]:
        seats = view.seats
        first = view.turn_seat if view.turn_seat in seats else seats[0]
        i = seats.index(first) if first is not None else 0
        return seats[i:] + seats[:i]

    def _hazards_placed(self, view: SeatView) -> int:
        count = 0
        for unit in ar.HAZARDS:
            tokens = unit if isinstance(unit, tuple) else (unit,)
            if all(view.place(t)[0] == ar.ARENA for t in tokens):
                count += 1
        return count

    def placing_prompt(self, view: SeatView) -> int | None:
        if self._play_started(view):
            return None
        order = self._order(view)
        wanted = min(int(view.rule("hazards_at_setup", 5)), len(ar.HAZARDS))
        placed = self._hazards_placed(view)
        if placed < wanted:
            return order[placed % len(order)]
        for seat in order:
            if view.place(f"p{seat}.standee")[0] != ar.ARENA:
                return seat
        return None

    def place(self, view: SeatView) -> Decision:
        arena = ar.read(view)
        if arena is None:
            return
        wanted = min(int(view.rule("hazards_at_setup", 5)), len(ar.HAZARDS))
        placed = self._hazards_placed(view)
        free = [c for c in arena.cells() if arena.free(c)]
        if placed < wanted:
            unit = ar.HAZARDS[placed]
            tokens = unit if isinstance(unit, tuple) else (unit,)
            cells = self.choose.rnd.sample(free, len(tokens))
            for token, cell in zip(tokens, cells, strict=True):
                yield {"op": "move", "id": token, "to": ar.ARENA, "pos": list(cell)}
            return
        taken = {arena.board.tile_of(c) for c in arena.board.standees.values()}
        spots = [c for c in free if arena.board.tile_of(c) not in taken]
        centre = (arena.board.cols / 2 - 0.5, arena.board.rows / 2 - 0.5)

        def near_centre(c: Any) -> float:
            return -float(abs(c[0] - centre[0]) + abs(c[1] - centre[1]))

        cell = self.choose.pick(spots, near_centre)
        yield {"op": "move", "id": f"p{view.seat}.standee", "to": ar.ARENA, "pos": list(cell)}


__all__ = ["Placing"]
