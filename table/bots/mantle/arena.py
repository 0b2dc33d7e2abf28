"""Mantle of the Keeper's arena as a bot reads it, through the rules assist's own reading of the
board and its geometry (Line of Sight, Range, movement cost): one implementation of the grid,
so a bot's legal move is what the assist calls legal."""
from __future__ import annotations

import heapq
from dataclasses import dataclass

from assist.api import AssistView, GameInfo
from assist.mantle_of_the_keeper.board import Board, chosen_card, read_board
from assist.mantle_of_the_keeper.geometry import Cell, MoveModel, chebyshev, line_of_sight
from table.bots.api import SeatView
from table.games.model import Card

ARENA = "arena"
HAZARDS = ("tremor-1", "surge-1", "breach-1", ("rift-1", "rift-2"), "tremor-2")


@dataclass(slots=True)
class Arena:
    view: SeatView
    game: GameInfo
    board: Board

    def chosen(self, seat: int) -> Card | None:
        return chosen_card(assist_view(self.view), self.game, seat)

    def cell(self, seat: int) -> Cell | None:
        return self.board.standees.get(seat)

    def free(self, cell: Cell) -> bool:
        return cell not in self.board.obstacles and cell not in self.board.occupant_cells() \
            and not self.board.hazard_at(cell)

    def cells(self) -> list[Cell]:
        return [(x, y) for y in range(self.board.rows) for x in range(self.board.cols)]

    def targets(self, seat: int, cell: Cell | None = None) -> list[int]:
        """The opponents `seat` may Target from `cell` (its own by default): Line of Sight and
        Range, never from an Obstruction."""
        here = cell or self.cell(seat)
        card = self.chosen(seat)
        if here is None or card is None or here in self.board.obstacles:
            return []
        reach = card.number("range")
        mine = self.cell(seat)
        blockers = self.board.blockers(skip=(mine,) if cell and mine else ())
        if cell:
            blockers.add(cell)
        out = []
        for other, there in sorted(self.board.standees.items()):
            if other == seat or self.view.counter(f"p{other}.health") <= 0:
                continue
            if chebyshev(here, there) <= reach and line_of_sight(here, there, blockers) is None:
                out.append(other)
        return out

    def model(self, seat: int) -> MoveModel:
        return self.board.move_model(seat, self.game)

    def reachable(self, seat: int, budget: int) -> dict[Cell, list[Cell]]:
        """Cells `seat` can end its movement on within `budget`, with a path of single steps
        that never enters a Tremor (its damage is left out of the bots' plans)."""
        start = self.cell(seat)
        if start is None:
            return {}
        m = self.model(seat)
        tremors = self.board.cells_of("tremor")
        best: dict[Cell, int] = {start: 0}
        path: dict[Cell, list[Cell]] = {start: []}
        heap = [(0, start)]
        while heap:
            d, u = heapq.heappop(heap)
            if d > best.get(u, d):
                continue
            for v in m.neighbours(u):
                if v in tremors or chebyshev(u, v) > 1:
                    continue  # no Rift hops: a leg's cost is then exactly its step's
                nd = d + m.step_cost(u, v)
                if nd <= budget and nd < best.get(v, 1 << 30):
                    best[v] = nd
                    path[v] = [*path[u], v]
                    heapq.heappush(heap, (nd, v))
        return {c: p for c, p in path.items() if c == start or self.free(c)}


def assist_view(view: SeatView) -> AssistView:
    return view.assist_view()


def read(view: SeatView) -> Arena | None:
    game = GameInfo(view.module, len(view.seats))
    board = read_board(assist_view(view), game)
    return None if board is None else Arena(view, game, board)


__all__ = ["ARENA", "HAZARDS", "Arena", "read"]
