"""One seat's area: its places as boxes, and the ways they can be arranged in rows.

A seat's boxes run from the table's edge inward: its hands, its trackers, its piles and slots,
its boards, its free zones (the play area toward the middle). An arrangement breaks that run
into rows (one to four); the fewer the rows, the wider and lower the area. The table's layout
(layout_pack.py) picks the arrangement that fits the room there is, at the size the area is
drawn at. Zones stretch to fill their row.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations, pairwise

from PySide6.QtCore import QRectF

from table.core.objects import Obj
from table.core.state import State

from .layout_boards import board_rect, place_board
from .layout_units import (
    BACKS_W,
    DIE,
    FAN_W,
    PAD,
    PIECE_W,
    PILE_H,
    PILE_W,
    PLATE,
    PLAY_H,
    SHORT_H,
    TRACKER_H,
    TRACKER_W,
    ZONE_W,
    role,
)
from .theme import GAP


@dataclass(slots=True)
class Group:
    """A seat's (or the middle's) top-level places and pieces."""
    hands: list[Obj] = field(default_factory=list)
    piles: list[Obj] = field(default_factory=list)
    zones: list[Obj] = field(default_factory=list)
    boards: list[Obj] = field(default_factory=list)
    trackers: list[Obj] = field(default_factory=list)


@dataclass(slots=True)
class Box:
    """A place in a row: `objs` (a tracker column holds up to three), its natural size, and
    whether it takes its share of the row's spare width (zones, by `weight`)."""
    kind: str
    objs: list[Obj]
    w: float
    h: float
    weight: float = 0.0


@dataclass(slots=True)
class Shape:
    """An arrangement of a seat's boxes: rows from the table's edge inward, and its size
    (margins and the name plate included)."""
    rows: list[list[Box]]
    w: float
    h: float


def is_main_hand(z: Obj) -> bool:
    """The hand a player holds (side hands: a battle hand, territories to arrange)."""
    name = str(z.props.get("name", "")).strip().lower()
    return name == "hand" or z.id.lower().endswith(".hand")


def _zone_weight(z: Obj) -> float:
    name = (str(z.props.get("name", "")) + z.id).lower()
    return 2.0 if "play" in name or "battle" in name else 1.0


def holds_no_cards(state: State, z: Obj) -> bool:
    """A zone of tokens and dice only (Mantle's standee and cubes): a low row is room enough."""
    kids = [state.objs[c] for c in z.children if state.objs[c].alive]
    return bool(kids) and all(k.kind != "card" for k in kids)


def holds_pieces_too(state: State, z: Obj) -> bool:
    """A zone holding cards and tokens or dice: a column beside the cards for the pieces (they
    lie there, off the cards' names)."""
    kids = [state.objs[c] for c in z.children if state.objs[c].alive]
    return any(k.kind == "card" for k in kids) and any(k.kind in ("token", "die") for k in kids)


def content_class(state: State, obj: Obj) -> str:
    """What of a container's size comes from what it holds: a low zone (tokens only), a zone
    with a column for its pieces, a narrow slot (no card), or nothing. When it changes, the
    table is laid out again (scene.apply_touched), so a replay seeking to a move and a table
    built at that move look the same."""
    from .layout_boards import narrow_slot

    if narrow_slot(state, obj):
        return "narrow"
    if role(obj) != "zone":
        return ""
    return "low" if holds_no_cards(state, obj) else "pieces" if holds_pieces_too(state, obj) \
        else ""


def seat_boxes(state: State, g: Group, viewer: bool) -> list[Box]:
    """The seat's boxes from the table's edge inward."""
    out: list[Box] = []
    for hand in sorted(g.hands, key=lambda h: not is_main_hand(h)):
        if is_main_hand(hand):
            w = FAN_W if viewer else BACKS_W
            out.append(Box("hand", [hand], w, PILE_H, 1.0))
        else:
            out.append(Box("hand", [hand], PILE_W, PILE_H))
    for i in range(0, len(g.trackers), 3):
        column = g.trackers[i:i + 3]
        h = sum((DIE if t.kind == "die" else TRACKER_H) + GAP / 2 for t in column)
        out.append(Box("trackers", column, TRACKER_W + GAP / 2, h))
    out += [Box("pile", [p], PILE_W, PILE_H) for p in g.piles]
    for b in g.boards:
        bw, bh = board_rect(state, b)
        out.append(Box("board", [b], bw, bh))
    for z in g.zones:
        weight = _zone_weight(z)
        h = SHORT_H if holds_no_cards(state, z) else PLAY_H
        w = ZONE_W * (weight if viewer else 1.0) + (PIECE_W if holds_pieces_too(state, z) else 0)
        out.append(Box("zone", [z], w, h, weight))
    return out


def _row_w(row: list[Box]) -> float:
    return sum(b.w for b in row) + GAP * (len(row) - 1)


def _shape(rows: list[list[Box]], plate: float) -> Shape:
    w = max(_row_w(r) for r in rows) + 2 * PAD
    h = sum(max(b.h for b in r) for r in rows) + GAP * (len(rows) - 1) + 2 * PAD + plate
    return Shape(rows, w, h)


def shapes(boxes: list[Box], most_rows: int = 4, plate: float = PLATE) -> list[Shape]:
    """For each number of rows, the arrangement with the narrowest widest row (the run broken
    in order, so the hand stays at the edge and the play area toward the middle)."""
    if not boxes:
        return [Shape([], 2 * PAD + 200, 2 * PAD + PLATE)]
    out: list[Shape] = []
    n = len(boxes)
    for rows in range(1, min(most_rows, n) + 1):
        best: Shape | None = None
        for cuts in combinations(range(1, n), rows - 1):
            edges = (0, *cuts, n)
            shape = _shape([boxes[a:b] for a, b in pairwise(edges)], plate)
            if best is None or (shape.w, shape.h) < (best.w, best.h):
                best = shape
        assert best is not None
        out.append(best)
    return out


def place_seat(state: State, shape: Shape, rects: dict[str, QRectF], area: QRectF,
               flipped: bool, tiles: dict[str, tuple[int, int, int]], plate: bool = True) -> None:
    """Put the seat's boxes into `area` (full-size units): rows from the table's edge (the
    bottom, or the top when `flipped`) inward, each row as wide as the area; the name plate's
    room along the edge (the middle has none)."""
    inner_w = area.width() - 2 * PAD
    heights = [max(b.h for b in row) for row in shape.rows]
    y = area.top() + PAD + (PLATE if flipped and plate else 0.0)
    order = list(zip(shape.rows, heights, strict=True))
    if not flipped:
        order.reverse()  # bottom seats: the play area toward the middle, hands at the edge
    for row, h in order:
        spare = max(0.0, inner_w - _row_w(row))
        weights = sum(b.weight for b in row) or 1.0
        x = area.left() + PAD
        for box in row:
            w = box.w + spare * box.weight / weights
            tall = box.h if box.kind == "zone" else h  # a low zone stays low
            _place_box(state, box, rects, QRectF(x, y, w, tall), tiles)
            x += w + GAP
        y += h + GAP


def _place_box(state: State, box: Box, rects: dict[str, QRectF], r: QRectF,
               tiles: dict[str, tuple[int, int, int]]) -> None:
    if box.kind == "trackers":
        y = r.top()
        for t in box.objs:
            size = (DIE, DIE) if t.kind == "die" else (TRACKER_W, TRACKER_H)
            rects[t.id] = QRectF(r.left(), y, *size)
            y += size[1] + GAP / 2
    elif box.kind == "board":
        place_board(state, box.objs[0], rects, QRectF(r.left(), r.top(), box.w, box.h), tiles)
    elif box.kind == "pile":
        rects[box.objs[0].id] = QRectF(r.left(), r.top(), PILE_W, PILE_H)
    else:
        rects[box.objs[0].id] = r


def group_role(obj: Obj) -> str:
    """Which list of a Group a top-level container goes in."""
    return {"pile": "piles", "hand": "hands", "grid": "boards", "board": "boards",
            "slot": "piles"}.get(role(obj), "zones")
