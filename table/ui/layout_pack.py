"""Where the seats' areas and the shared middle go, and how large each is drawn.

The player's own area is drawn full size at the bottom. The others' areas are drawn at one
size (`k`) and the middle at another (`m`), tried in order of preference (_preference); each
area takes the arrangement of rows (layout_seat.shapes) that serves best. They go on shelves:
the bottom one holds the player's area and, when there is room beside it, the next seats in
table order; above it the remaining seats (the last seat in table order nearest the player's
left, as around a real table). The middle goes on the shelf where it fits best, or on one of
its own above the player's. Of the plans that fit the room at the sizes tried, the one that
leaves the view the most zoom wins.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from itertools import product

from .layout_seat import Shape

OTHERS_SCALES = (1.0, 0.9, 0.8, 0.75, 0.7, 0.6, 0.5, 0.4, 0.3, 0.25, 0.2)
MIDDLE_SCALES = (1.0, 0.9, 0.8, 0.75, 0.7, 0.6, 0.5, 0.45, 0.4, 0.35, 0.3, 0.25, 0.2, 0.15, 0.1)
SHELF_GAP = 20.0     # between the shelves, and between areas on a shelf
MARGIN = 8.0         # around the table
OWN = -1             # the player's own area, among the pieces
GOOD_OTHERS = 0.75   # the others' cards read at 7 px cap height from this size on
GOOD_MIDDLE = 0.6    # the middle's trackers and cards are easy to hit from this size on


@dataclass(slots=True)
class Piece:
    """An area on the table: a seat's (`seat`), or the middle (`seat` None), drawn at `k`."""
    seat: int | None
    shape: Shape
    k: float

    @property
    def w(self) -> float:
        return self.shape.w * self.k

    @property
    def h(self) -> float:
        return self.shape.h * self.k


@dataclass(slots=True)
class Plan:
    shelves: list[list[Piece]]  # top to bottom; the last holds the player's own area
    k: float
    m: float
    w: float  # the table's width and height, margins included
    h: float

    def flipped(self, piece: Piece) -> bool:
        """Whether a seat's area lies above the player's shelf (its play area faces down,
        toward the middle of the table)."""
        return piece.seat is not None and not any(piece is p for p in self.shelves[-1])


def shelf_width(shelf: list[Piece]) -> float:
    return sum(p.w for p in shelf) + SHELF_GAP * (len(shelf) - 1)


def _fill_shelves(pieces: list[Piece], width: float) -> list[list[Piece]]:
    shelves: list[list[Piece]] = []
    for piece in pieces:
        if shelves and shelf_width(shelves[-1]) + SHELF_GAP + piece.w <= width:
            shelves[-1].append(piece)
        else:
            shelves.append([piece])
    return shelves


def _arrange(own: Piece, others: list[Piece], width: float) -> list[list[Piece]]:
    """The seats' shelves, top to bottom, the player's shelf last: the next seats beside the
    player while they fit, the rest above, the last seat nearest the player's left."""
    bottom = [own]
    rest = list(others)
    while rest and shelf_width(bottom) + SHELF_GAP + rest[0].w <= width:
        bottom.append(rest.pop(0))
    return [*_fill_shelves(list(reversed(rest)), width), bottom]


def _with_middle(shelves: list[list[Piece]], middle: Piece, width: float,
                 spot: int) -> list[list[Piece]] | None:
    """The middle on shelf `spot` counted from the bottom (0: beside the player, at the end;
    above, in the middle of the shelf), or on a shelf of its own just above the player's
    (-1); None: it does not fit there."""
    if spot < 0:
        return [*shelves[:-1], [middle], shelves[-1]]
    if spot >= len(shelves):
        return None
    shelf = shelves[-1 - spot]
    if shelf_width(shelf) + SHELF_GAP + middle.w > width:
        return None
    at = len(shelf) if spot == 0 else (len(shelf) + 1) // 2
    out = [list(s) for s in shelves]
    out[-1 - spot].insert(at, middle)
    return out


def _size(shelves: list[list[Piece]]) -> tuple[float, float]:
    w = max(shelf_width(s) for s in shelves) + 2 * MARGIN
    h = sum(max(p.h for p in s) for s in shelves) + SHELF_GAP * (len(shelves) - 1) + 2 * MARGIN
    return w, h


def _best_at(own: list[Shape], others: list[tuple[int, list[Shape]]], middle: list[Shape],
             k: float, m: float, room: tuple[float, float]) -> Plan | None:
    """The plan at these sizes that leaves the most zoom, or None when none fits the room."""
    width, height = room
    best: tuple[float, Plan] | None = None
    rows = range(max((len(s) for _, s in others), default=1))
    mids = [Piece(None, shape, m) for shape in middle]
    for own_shape in own:
        if own_shape.w + 2 * MARGIN > width or own_shape.h + 2 * MARGIN > height:
            continue
        for r in rows:
            pieces = [Piece(seat, shapes[min(r, len(shapes) - 1)], k) for seat, shapes in others]
            seats = _arrange(Piece(OWN, own_shape, 1.0), pieces, width - 2 * MARGIN)
            for mid, spot in product(mids, range(-1, len(seats))):
                shelves = _with_middle(seats, mid, width - 2 * MARGIN, spot)
                if shelves is None:
                    continue
                w, h = _size(shelves)
                if w > width + 0.5 or h > height + 0.5:
                    continue
                zoom = min(width / w, height / h)
                if best is None or zoom > best[0] + 1e-6:
                    best = (zoom, Plan(shelves, k, m, w, h))
    return best[1] if best is not None else None


def _largest(sizes: tuple[float, ...], fits: Callable[[float], Plan | None],
             at_least: float = 0.0) -> tuple[float, Plan] | None:
    """The largest of `sizes` (no smaller than `at_least`) at which `fits` finds a plan."""
    for size in sizes:
        if size < at_least - 1e-9:
            break
        found = fits(size)
        if found is not None:
            return size, found
    return None


def _at_k(at: Callable[[float, float], Plan | None], m: float, k: float) -> Plan | None:
    return at(k, m)


def plan(own: list[Shape], others: list[tuple[int, list[Shape]]], middle: list[Shape],
         room: tuple[float, float], min_middle: float = 0.0,
         fixed: tuple[float, float] | None = None) -> Plan:
    """The plan for the table in `room` (own-area units). The sizes, in order of preference:
    the others legible (as large as fits, up to GOOD_OTHERS), then the middle large enough to
    use (up to GOOD_MIDDLE), then the others larger, then the middle; the middle at least
    `min_middle` while any plan allows it. `fixed`: these sizes (the plan may not fit)."""
    def at(k: float, m: float) -> Plan | None:
        return _best_at(own, others, middle, k, m, room)

    if fixed is not None:
        found = at(*fixed)
    else:
        found = None
        for floor in ((min_middle, 0.0) if min_middle > 0 else (0.0,)):
            lowest = min(m for m in MIDDLE_SCALES if m >= floor - 1e-9) if floor <= 1 else 1.0
            good_k = [k for k in OTHERS_SCALES if k <= GOOD_OTHERS] or [OTHERS_SCALES[-1]]
            step = _largest(tuple(good_k), partial(_at_k, at, lowest))
            if step is None:
                continue
            k = step[0]
            good_m = tuple(m for m in MIDDLE_SCALES if m <= max(GOOD_MIDDLE, lowest))
            m = (_largest(good_m, partial(at, k), lowest) or (lowest, step[1]))[0]
            k = (_largest(OTHERS_SCALES, partial(_at_k, at, m), k) or (k, None))[0]
            m, found = _largest(MIDDLE_SCALES, partial(at, k), m) or (m, at(k, m))
            break
    if found is not None:
        return found
    k, m = fixed or (OTHERS_SCALES[-1], MIDDLE_SCALES[-1])
    # nothing fits: the smallest sizes, laid out as if there were room enough
    found = _best_at(own, others, middle, k, m,
                     (max(room[0], min(s.w for s in own) + 2 * MARGIN), 1e9))
    assert found is not None
    return found
