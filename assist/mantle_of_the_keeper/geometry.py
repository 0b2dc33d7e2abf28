"""Grid geometry of the Mantle arena: Line of Sight, Range and movement cost.

Pure functions over cell sets, so they are easy to test and cheap to call. Cells are (x, y),
x to the right and y down, as on the `arena` board.

Choices where the rulebook is silent (catalogue B.4), also listed in docs/assist:
- Range (AMB-MAN-11) is the king-move (Chebyshev) distance, not routed around blockers.
- Obstruction cost (AMB-MAN-07): entering a cell costs 1, stepping out of an Obstruction or a
  Breach costs ``exit_cost`` (2), so crossing a single Obstruction space costs 3.
- Line of Sight diagonal pairs (AMB-MAN-09) apply to any two blockers (Obstruction, Breach,
  Chosen, turret); grazing the corner of a single blocker (AMB-MAN-10) never blocks.
- Rifts (AMB-MAN-12): a step from a Rift to any other Rift costs 1.
"""
from __future__ import annotations

import heapq
from collections.abc import Collection, Iterable
from dataclasses import dataclass

Cell = tuple[int, int]
EPS = 1e-9

NEIGHBOURS = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))


def chebyshev(a: Cell, b: Cell) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def adjacent(a: Cell, b: Cell) -> bool:
    return a != b and chebyshev(a, b) == 1


# -- Line of Sight ----------------------------------------------------------------------------
def _crosses_interior(ax: float, ay: float, dx: float, dy: float, cx: int, cy: int) -> bool:
    """Does the segment (ax, ay) + t(dx, dy), 0 <= t <= 1, pass through the open unit square at
    (cx, cy)? Liang-Barsky clipping; touching an edge or a corner does not count."""
    t0, t1 = 0.0, 1.0
    for p, q0, q1 in ((dx, cx - ax, cx + 1 - ax), (dy, cy - ay, cy + 1 - ay)):
        if abs(p) < EPS:
            if not (q0 < -EPS and q1 > EPS):  # parallel: must lie strictly inside the slab
                return False
            continue
        lo, hi = q0 / p, q1 / p
        if lo > hi:
            lo, hi = hi, lo
        t0, t1 = max(t0, lo), min(t1, hi)
        if t1 - t0 <= EPS:
            return False
    return t1 - t0 > EPS


def _lattice_points(a: Cell, b: Cell) -> Iterable[tuple[int, int]]:
    """Grid corners (integer points) that the centre-to-centre segment passes through."""
    ax, ay = a[0] + 0.5, a[1] + 0.5
    dx, dy = b[0] - a[0], b[1] - a[1]
    if dx == 0 or dy == 0:
        return  # a horizontal or vertical line between centres never meets a corner
    for x in range(min(a[0], b[0]) + 1, max(a[0], b[0]) + 1):
        t = (x - ax) / dx
        if 0 < t < 1:
            y = ay + t * dy
            if abs(y - round(y)) < EPS:
                yield x, round(y)


def line_of_sight(a: Cell, b: Cell, blockers: Collection[Cell]) -> Cell | tuple[Cell, Cell] | None:
    """None when a sees b; else what blocks: one blocker cell, or a diagonal pair of them.

    Blocked when the line from centre to centre crosses the inside of a blocker cell (other than
    a and b), or passes through the shared corner of two diagonally adjacent blockers."""
    if a == b:
        return None
    ax, ay = a[0] + 0.5, a[1] + 0.5
    dx, dy = b[0] - a[0], b[1] - a[1]
    x0, x1 = min(a[0], b[0]), max(a[0], b[0])
    y0, y1 = min(a[1], b[1]), max(a[1], b[1])
    for cell in sorted(blockers, key=lambda c: chebyshev(a, c)):
        if cell in (a, b) or not (x0 <= cell[0] <= x1 and y0 <= cell[1] <= y1):
            continue
        if _crosses_interior(ax, ay, dx, dy, cell[0], cell[1]):
            return cell
    for x, y in _lattice_points(a, b):
        for p, q in (((x - 1, y - 1), (x, y)), ((x, y - 1), (x - 1, y))):
            if p in blockers and q in blockers and a not in (p, q) and b not in (p, q):
                return (p, q)
    return None


# -- Movement ---------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class MoveModel:
    """What a step costs on the current board for one moving character."""

    cols: int
    rows: int
    obstacles: frozenset[Cell]  # Obstructions and Breaches
    opponents: frozenset[Cell] = frozenset()  # cells holding an opponent (Chosen or turret)
    rifts: frozenset[Cell] = frozenset()
    surges: frozenset[Cell] = frozenset()
    exit_cost: int = 2  # stepping out of an Obstruction or Breach
    opponent_cost: int = 2  # stepping out of a space holding an opponent
    diagonal_squeeze: int = 1  # extra for a diagonal step between two diagonal obstacles
    surge_bonus: int = 1
    # model switches, used to tell which rule a too-long move broke
    obstruction_rules: bool = True
    opponent_rules: bool = True

    def step_cost(self, u: Cell, v: Cell) -> int:
        cost = 1
        if self.obstruction_rules:
            if u in self.obstacles:
                cost = max(cost, self.exit_cost)
            if u[0] != v[0] and u[1] != v[1] and (v[0], u[1]) in self.obstacles \
                    and (u[0], v[1]) in self.obstacles:
                cost += self.diagonal_squeeze
        if self.opponent_rules and u in self.opponents:
            cost = max(cost, self.opponent_cost)
        if v in self.surges:
            cost -= self.surge_bonus
        return max(cost, 0)

    def neighbours(self, u: Cell) -> Iterable[Cell]:
        x, y = u
        for dx, dy in NEIGHBOURS:
            v = (x + dx, y + dy)
            if 0 <= v[0] < self.cols and 0 <= v[1] < self.rows:
                yield v
        if u in self.rifts:
            for r in self.rifts:
                if r != u and chebyshev(r, u) > 1:
                    yield r

    def cost(self, start: Cell, goal: Cell, limit: int | None = None) -> int | None:
        """Cheapest movement cost from start to goal (Dijkstra, stops at the goal or once every
        cheaper cell is explored past `limit`); None if unreachable within the limit."""
        if start == goal:
            return 0
        best = {start: 0}
        heap = [(0, start)]
        while heap:
            d, u = heapq.heappop(heap)
            if u == goal:
                return d
            if d > best.get(u, d) or (limit is not None and d > limit):
                continue
            for v in self.neighbours(u):
                nd = d + self.step_cost(u, v)
                if nd < best.get(v, 1 << 30):
                    best[v] = nd
                    heapq.heappush(heap, (nd, v))
        return None
