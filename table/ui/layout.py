"""Where each zone, pile, board and tracker sits on the table.

Game modules give no coordinates, so the table is laid out automatically for the room the view
has: each seat gets an area (its hand and trackers at the table's edge, its piles, boards and
play area toward the middle, in as many rows as suit the room: layout_seat.py), and the shared
boards, piles and trackers form the middle. The seats come in table order starting with the
viewing seat, so each player's own area is at the bottom, full size, nearest them; the others'
areas and the middle are placed around it at the largest sizes that fit (layout_pack.py).
Positions are stored relative to their zone, so a free-zone position means the same spot for
every peer however each one's window lays the table out.

An area drawn smaller is laid out at full size in a frame of its own, then shrunk into place:
`Layout.scale` says by how much for every container and piece there (its rect is where it
lands on the table), and `local`/`to_scene`/`to_local` convert between the two (stored
positions stay full-size units, so a position means the same spot at every scale).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from PySide6.QtCore import QPointF, QRectF

from table.core.objects import ROOT, Obj
from table.core.state import State

from .layout_boards import board_rect
from .layout_pack import MARGIN, OTHERS_SCALES, OWN, SHELF_GAP, Piece, plan, shelf_width
from .layout_seat import (
    Box,
    Group,
    Shape,
    content_class,
    group_role,
    holds_no_cards,
    place_seat,
    seat_boxes,
    shapes,
)
from .layout_units import (
    CELL,
    CONTAINERS,
    DIE,
    FAN_CARDS,
    FAN_W,
    LABEL,
    PAD,
    PIECES,
    PILE_H,
    PILE_W,
    PLAY_H,
    SHORT_H,
    TRACKER_H,
    TRACKER_W,
    ZONE_W,
    grid_size,
    laid_out_piece,
    role,
    seat_of,
)
from .theme import CARD_W, GAP

__all__ = [  # the units and facts of layout_units, read as lay.role, lay.PIECES...
    "CELL", "CONTAINERS", "DEFAULT_ROOM", "DIE", "FAN_CARDS", "FAN_W", "LABEL", "OTHERS_SCALES",
    "PAD", "PIECES", "PILE_H", "PILE_W", "PLAY_H", "TRACKER_H", "TRACKER_W", "Layout", "compute",
    "content_class", "grid_size", "laid_out_piece", "local", "role", "seat_of", "tile_slots",
    "to_local", "to_scene",
]

DEFAULT_ROOM = (1744.0, 1104.0)  # a laptop's view (1090x690 px) at the own area's zoom

@dataclass(slots=True)
class Layout:
    rects: dict[str, QRectF] = field(default_factory=dict)
    seat_areas: dict[int, QRectF] = field(default_factory=dict)
    flipped: set[int] = field(default_factory=set)  # seats above the player's (facing down)
    middle: QRectF = field(default_factory=QRectF)
    bounds: QRectF = field(default_factory=QRectF)
    scale: dict[str, float] = field(default_factory=dict)  # id -> drawn at this size (< 1)
    seat_scale: dict[int, float] = field(default_factory=dict)
    others: float = 1.0        # the size the others' areas are drawn at
    middle_scale: float = 1.0  # and the middle's
    # what each container's size took from what it held (layout_seat.content_class)
    held: dict[str, str] = field(default_factory=dict)


def local(rect: QRectF, k: float) -> QRectF:
    """A shrunk container's full-size rect (what its contents are laid out in)."""
    return rect if k == 1.0 else QRectF(rect.topLeft(), rect.size() / k)


def to_scene(point: QPointF, rect: QRectF, k: float) -> QPointF:
    """A point of `local(rect, k)` where it is drawn on the table."""
    return point if k == 1.0 else rect.topLeft() + (point - rect.topLeft()) * k


def to_local(point: QPointF, rect: QRectF, k: float) -> QPointF:
    """A point on the table, in `local(rect, k)`'s full-size units."""
    return point if k == 1.0 else rect.topLeft() + (point - rect.topLeft()) / k


def _framed(out: Layout, origin: QPointF, k: float, place: Callable[..., None]) -> None:
    """Lay out with `place` in a frame of its own at (0, 0), then shrink it by `k` into the
    table at `origin`."""
    frame = Layout()
    place(out=frame)
    for oid, r in frame.rects.items():
        out.rects[oid] = QRectF(origin.x() + r.x() * k, origin.y() + r.y() * k,
                                r.width() * k, r.height() * k)
        if k != 1.0:
            out.scale[oid] = k


def tile_slots(module: object) -> dict[str, tuple[int, int, int]]:
    """Tile slot id -> (col, row, size) from a game module's grids (positions are not state)."""
    out: dict[str, tuple[int, int, int]] = {}
    for board in getattr(module, "boards", ()) or ():
        grid = getattr(board, "grid", None)
        if grid is None:
            continue
        for ts in grid.tile_slots:
            out[ts.id] = (ts.x, ts.y, grid.tile_size or 1)
    return out


def _sort_key(obj: Obj) -> tuple[int, str]:
    name = str(obj.props.get("name", obj.id)).lower()
    order = 0 if "deck" in name or "draw" in name else 1 if "discard" in name else 2
    return order, obj.id


def _groups(state: State, seats: list[int]) -> dict[int | None, Group]:
    """The table's top-level containers and trackers by the seat whose area they are in
    (None: the shared middle)."""
    groups: dict[int | None, Group] = {s: Group() for s in seats}
    groups[None] = Group()
    for cid in state.objs[ROOT].children:
        obj = state.objs[cid]
        if not obj.alive:
            continue
        seat = seat_of(obj)
        g = groups.setdefault(seat if seat in groups else None, Group())
        if obj.kind in PIECES:
            if laid_out_piece(obj):
                g.trackers.append(obj)
        elif obj.kind in CONTAINERS:
            getattr(g, group_role(obj)).append(obj)
    for g in groups.values():
        g.piles.sort(key=_sort_key)
    return groups


def _middle_boxes(state: State, g: Group) -> list[Box]:
    """The middle's boxes: its boards first, then its piles, zones and trackers, then the open
    table where loose cards land."""
    out = [Box("board", [b], *board_rect(state, b)) for b in g.boards]
    out += [Box("pile", [p], PILE_W, PILE_H) for p in g.piles]
    out += [Box("zone", [z], ZONE_W * 2, SHORT_H if holds_no_cards(state, z) else PLAY_H, 1.0)
            for z in g.zones]
    for i in range(0, len(g.trackers), 3):
        column = g.trackers[i:i + 3]
        h = sum((DIE if t.kind == "die" else TRACKER_H) + GAP / 2 for t in column)
        out.append(Box("trackers", column, TRACKER_W + GAP / 2, h))
    out.append(Box("table", [state.objs[ROOT]], CARD_W * 3, PLAY_H, 1.5))
    return out


def compute(state: State, seats: list[int],
            tiles: dict[str, tuple[int, int, int]] | None = None, others: float | None = None,
            middle: float | None = None, room: tuple[float, float] | None = None,
            min_middle: float = 0.0) -> Layout:
    """Rects for every container and tracker. `seats` in table order, the viewer's first (its
    area goes at the bottom, full size). `tiles`: tile slot id -> (col, row, size). `room`:
    the view's size in the own area's units; the others' areas and the middle are drawn as
    large as fits it (layout_pack), the middle at least `min_middle` where it can be.
    `others`/`middle`: those sizes instead."""
    tiles = tiles or {}
    groups = _groups(state, seats)
    own_boxes = seat_boxes(state, groups[seats[0]], True) if seats else []
    other_shapes = [(s, shapes(seat_boxes(state, groups[s], False))) for s in seats[1:]]
    fixed = None if others is None and middle is None else \
        (others if others is not None else 1.0,
         middle if middle is not None else others if others is not None else 1.0)
    chosen = plan(shapes(own_boxes), other_shapes, shapes(_middle_boxes(state, groups[None]), 2, 0.0),
                  room or DEFAULT_ROOM, min_middle, fixed)
    out = Layout(others=chosen.k, middle_scale=chosen.m)
    out.held = {oid: content_class(state, obj) for oid, obj in state.objs.items()
                if obj.alive and obj.kind in CONTAINERS}
    y = 0.0
    for shelf in chosen.shelves:
        shelf_h = max(p.h for p in shelf)
        x = (chosen.w - 2 * MARGIN - shelf_width(shelf)) / 2  # each shelf centred
        for piece in shelf:
            flipped = chosen.flipped(piece)
            _put(state, out, piece, QPointF(x, y + (shelf_h - piece.h if flipped else 0.0)),
                 seats[0] if seats else 0, flipped, tiles)
            x += piece.w + SHELF_GAP
        y += shelf_h + SHELF_GAP
    out.bounds = QRectF(-MARGIN, -MARGIN, chosen.w, chosen.h)
    return out


def _put(state: State, out: Layout, piece: Piece, at: QPointF, viewer: int, flipped: bool,
         tiles: dict[str, tuple[int, int, int]]) -> None:
    """Lay out one area at full size in a frame of its own and shrink it into place at `at`
    (a flipped area, above the player's shelf, has its play area toward the middle)."""
    area = QRectF(at.x(), at.y(), piece.w, piece.h)
    place = partial(_place_rows, state, shape=piece.shape, tiles=tiles,
                    plate=piece.seat is not None, flipped=flipped or piece.seat is None)
    if piece.seat is None:
        out.middle = area
    else:
        seat = viewer if piece.seat == OWN else piece.seat
        out.seat_areas[seat] = area
        out.seat_scale[seat] = piece.k
        if flipped:
            out.flipped.add(seat)
    _framed(out, at, piece.k, place)


def _place_rows(state: State, out: Layout, shape: Shape, tiles: dict[str, tuple[int, int, int]],
                plate: bool, flipped: bool) -> None:
    place_seat(state, shape, out.rects, QRectF(0, 0, shape.w, shape.h), flipped, tiles, plate)
