"""Where each zone, pile, board and tracker sits on the table.

Game modules give no coordinates, so the table is laid out automatically: each seat gets an
area along the bottom or top edge (play area toward the middle, then piles, hand and trackers
toward the edge), and shared boards, piles and trackers sit in a band across the middle. The
seats come in table order starting with the viewing seat, so each player's own area is at the
bottom, nearest them; otherwise the layout depends only on the public state, and positions
are stored relative to their zone, so a free-zone position means the same spot for every peer.

On a small screen the others' areas and the middle are drawn smaller (`others` < 1), so the
whole table is in view while the player's own area stays large enough to read. Each of them is
laid out at full size in a frame of its own, then shrunk into place: `Layout.scale` says by how
much for every container and piece there (its rect is where it lands on the table), and
`local`/`to_scene`/`to_local` convert between the two (stored positions stay full-size units,
so a position means the same spot at every scale, on every peer).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from PySide6.QtCore import QPointF, QRectF

from table.core.objects import ROOT, Obj
from table.core.state import State

from .layout_boards import board_rect, place_board
from .layout_units import (
    CELL,
    CONTAINERS,
    DIE,
    FAN_CARDS,
    FAN_W,
    HAND_MIN_W,
    LABEL,
    PAD,
    PIECES,
    PILE_H,
    PILE_W,
    PLAY_H,
    TRACKER_H,
    TRACKER_W,
    grid_size,
    laid_out_piece,
    role,
    seat_of,
)
from .theme import CARD_W, GAP

__all__ = [  # the units and facts of layout_units, read as lay.role, lay.PIECES...
    "CELL", "CONTAINERS", "DIE", "FAN_CARDS", "FAN_W", "HAND_MIN_W", "LABEL", "PAD", "PIECES",
    "PILE_H", "PILE_W", "PLAY_H", "TRACKER_H", "TRACKER_W", "Layout", "compute", "grid_size",
    "laid_out_piece", "local", "role", "seat_of", "tile_slots", "to_local", "to_scene",
]

@dataclass(slots=True)
class Layout:
    rects: dict[str, QRectF] = field(default_factory=dict)
    seat_areas: dict[int, QRectF] = field(default_factory=dict)
    flipped: set[int] = field(default_factory=set)  # seats along the top edge
    middle: QRectF = field(default_factory=QRectF)
    bounds: QRectF = field(default_factory=QRectF)
    scale: dict[str, float] = field(default_factory=dict)  # id -> drawn at this size (< 1)
    seat_scale: dict[int, float] = field(default_factory=dict)


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


@dataclass(slots=True)
class _Group:
    hands: list[Obj] = field(default_factory=list)
    piles: list[Obj] = field(default_factory=list)
    zones: list[Obj] = field(default_factory=list)
    boards: list[Obj] = field(default_factory=list)
    trackers: list[Obj] = field(default_factory=list)


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


def _groups(state: State, seats: list[int]) -> dict[int | None, _Group]:
    """The table's top-level containers and trackers by the seat whose area they are in
    (None: the shared middle)."""
    groups: dict[int | None, _Group] = {s: _Group() for s in seats}
    groups[None] = _Group()
    for cid in state.objs[ROOT].children:
        obj = state.objs[cid]
        if not obj.alive:
            continue
        seat = seat_of(obj)
        g = groups.setdefault(seat if seat in groups else None, _Group())
        if obj.kind in PIECES:
            if laid_out_piece(obj):
                g.trackers.append(obj)
        elif obj.kind in CONTAINERS:
            {"pile": g.piles, "hand": g.hands, "grid": g.boards, "board": g.boards,
             "slot": g.piles}.get(role(obj), g.zones).append(obj)
    for g in groups.values():
        g.piles.sort(key=_sort_key)
    return groups


def compute(state: State, seats: list[int],
            tiles: dict[str, tuple[int, int, int]] | None = None, others: float = 1.0,
            middle: float | None = None) -> Layout:
    """Rects for every container and tracker. `seats` in table order, the viewer's first (its
    area goes at the bottom, leftmost). `tiles`: tile slot id -> (col, row, size). `others`:
    the size the other seats' areas are drawn at (the viewer's is full size); `middle`: the
    shared middle's (default: `others`)."""
    mid_k = others if middle is None else middle
    out = Layout()
    tiles = tiles or {}
    groups = _groups(state, seats)
    # seat areas: first half along the bottom (left to right), the rest along the top
    bottom = seats[:(len(seats) + 1) // 2]
    top = list(reversed(seats[len(bottom):]))
    k = {s: 1.0 if i == 0 else others for i, s in enumerate(seats)}  # the viewer's: full size
    sizes = {s: _seat_size(state, groups[s], s == seats[0]) for s in seats}
    drawn = {s: (sizes[s][0] * k[s], sizes[s][1] * k[s]) for s in seats}
    mid_w, mid_h = _middle_size(state, groups[None])
    row_w = max([sum(drawn[s][0] for s in row) + GAP * 2 * (len(row) - 1)
                 for row in (bottom, top) if row] + [mid_w * mid_k])
    top_h = max([drawn[s][1] for s in top], default=0.0)
    bottom_h = max([drawn[s][1] for s in bottom], default=0.0)
    y_mid = top_h + (3 * GAP if top else 0)
    out.middle = QRectF(0, y_mid, row_w, mid_h * mid_k)
    _framed(out, out.middle.topLeft(), mid_k, partial(
        _place_middle, state, groups[None], band=QRectF(0, 0, row_w / mid_k, mid_h),
        tiles=tiles))
    for row, y, flipped in ((top, 0.0, True), (bottom, y_mid + mid_h * mid_k + 3 * GAP, False)):
        if not row:
            continue
        used = sum(drawn[s][0] for s in row) + GAP * 2 * (len(row) - 1)
        x = (row_w - used) / 2
        h = top_h if flipped else bottom_h
        for s in row:
            # a shrunk area keeps its own height, against the middle of the table
            own_h = h if k[s] == 1.0 else drawn[s][1]
            area = QRectF(x, y + (h - own_h if flipped else 0.0), drawn[s][0], own_h)
            out.seat_areas[s] = area
            out.seat_scale[s] = k[s]
            if flipped:
                out.flipped.add(s)
            _framed(out, area.topLeft(), k[s], partial(
                _place_seat, state, groups[s], area=QRectF(0, 0, sizes[s][0], own_h / k[s]),
                flipped=flipped, tiles=tiles, viewer=s == seats[0]))
            x += drawn[s][0] + 2 * GAP
    out.bounds = QRectF(-GAP * 3, -GAP * 3, row_w + GAP * 6,
                        y_mid + mid_h * mid_k + (3 * GAP + bottom_h if bottom else 0) + GAP * 6)
    return out


# --- a seat's area ---------------------------------------------------------------------------
def _seat_width(state: State, g: _Group, viewer: bool = False) -> float:
    boards_w = sum(board_rect(state, b)[0] + GAP for b in g.boards)
    piles_w = len(g.piles) * (PILE_W + GAP)
    hand_row = HAND_MIN_W + TRACKER_W + GAP
    if viewer and g.hands:  # the fan of one's own hand, the other hands beside it
        hand_row = FAN_W + (len(g.hands) - 1) * (PILE_W + GAP) + \
            ((len(g.trackers) + 2) // 3) * (TRACKER_W + GAP)
    return max(piles_w + boards_w, CARD_W * 7.5, hand_row) + 2 * PAD


def _hand_widths(hands: list[Obj], avail: float, viewer: bool) -> list[float]:
    """The hands' widths in their row: by weight; the viewer's own hand at least FAN_W."""
    weights = [_hand_weight(h) for h in hands]
    widths = [avail * w / sum(weights) for w in weights]
    main = weights.index(max(weights))
    others = [i for i in range(len(hands)) if i != main]
    if not viewer or widths[main] >= FAN_W or not others:
        return widths
    widths[main] = min(FAN_W, avail - len(others) * PILE_W)
    rest = avail - widths[main]
    side = sum(weights[i] for i in others)
    for i in others:
        widths[i] = rest * weights[i] / side
    return widths


def _rows(state: State, g: _Group) -> list[tuple[str, float]]:
    """Rows from the table's edge inward: name plate, hand + trackers, piles + boards, play."""
    rows: list[tuple[str, float]] = [("plate", 26.0)]
    tr_h = _trackers_h(g.trackers[:3]) if g.trackers else 0.0
    if g.hands or g.trackers:
        rows.append(("hand", max(PILE_H if g.hands else 0.0, tr_h)))
    if g.piles or g.boards:
        rows.append(("piles", max([PILE_H] + [board_rect(state, b)[1] for b in g.boards])))
    if g.zones:
        rows.append(("zones", PLAY_H))
    return rows


def _seat_size(state: State, g: _Group, viewer: bool = False) -> tuple[float, float]:
    rows = _rows(state, g)
    return _seat_width(state, g, viewer), sum(h for _, h in rows) + GAP * (len(rows) - 1) + 2 * PAD


def _hand_weight(z: Obj) -> float:
    """The hand a player holds gets the room for its fan; side hands (a battle hand,
    territories to arrange) less."""
    name = str(z.props.get("name", "")).strip().lower()
    return 3.0 if name == "hand" or z.id.lower().endswith(".hand") else 1.0


def _weight(z: Obj) -> float:
    name = (str(z.props.get("name", "")) + z.id).lower()
    return 2.0 if "play" in name or "battle" in name else 1.0


def _place_seat(state: State, g: _Group, out: Layout, area: QRectF, flipped: bool,
                tiles: dict[str, tuple[int, int, int]], viewer: bool = False) -> None:
    rows = _rows(state, g)
    if not flipped:
        rows.reverse()  # bottom seats: play area toward the middle, name at the table's edge
    y = area.top() + PAD
    inner_w = area.width() - 2 * PAD
    for name, h in rows:
        x = area.left() + PAD
        if name == "hand":
            cols = (len(g.trackers) + 2) // 3
            tr_w = cols * (TRACKER_W + GAP)
            if g.hands:
                avail = inner_w - tr_w - GAP * (len(g.hands) - 1)
                for hand, hw in zip(g.hands, _hand_widths(g.hands, avail, viewer), strict=True):
                    out.rects[hand.id] = QRectF(x, y, hw, h)
                    x += hw + GAP
            for i, t in enumerate(g.trackers):
                col, row = divmod(i, 3)
                tx = area.right() - PAD - tr_w + GAP + col * (TRACKER_W + GAP)
                th = DIE if t.kind == "die" else TRACKER_H
                tw = DIE if t.kind == "die" else TRACKER_W
                out.rects[t.id] = QRectF(tx, y + row * (TRACKER_H + GAP / 2), tw, th)
        elif name == "piles":
            for p in g.piles:
                out.rects[p.id] = QRectF(x, y, PILE_W, PILE_H)
                x += PILE_W + GAP
            for b in g.boards:
                bw, bh = board_rect(state, b)
                place_board(state, b, out.rects, QRectF(x, y, bw, bh), tiles)
                x += bw + GAP
        elif name == "zones":
            total = sum(_weight(z) for z in g.zones)
            avail = inner_w - GAP * (len(g.zones) - 1)
            for z in g.zones:
                w = avail * _weight(z) / total
                out.rects[z.id] = QRectF(x, y, w, h)
                x += w + GAP
        y += h + GAP


def _trackers_h(trackers: list[Obj]) -> float:
    return sum((DIE if t.kind == "die" else TRACKER_H) + GAP / 2 for t in trackers)


# --- the shared middle of the table ----------------------------------------------------------
def _middle_size(state: State, g: _Group) -> tuple[float, float]:
    boards = [board_rect(state, b) for b in g.boards]
    w = sum(bw for bw, _ in boards) + GAP * len(boards)
    w += len(g.piles) * (PILE_W + GAP)
    w += len(g.zones) * (CARD_W * 3 + GAP)
    w += (TRACKER_W + GAP) * ((len(g.trackers) + 2) // 3)
    w += CARD_W * 3 + GAP  # the open table, where loose cards land
    h = max([bh for _, bh in boards] + [PILE_H, _trackers_h(g.trackers[:3])])
    return w, max(h, PLAY_H)


def _place_middle(state: State, g: _Group, out: Layout, band: QRectF,
                  tiles: dict[str, tuple[int, int, int]]) -> None:
    x, y = band.left(), band.top()
    for b in g.boards:
        bw, bh = board_rect(state, b)
        place_board(state, b, out.rects, QRectF(x, y + (band.height() - bh) / 2, bw, bh), tiles)
        x += bw + GAP
    for p in g.piles:
        out.rects[p.id] = QRectF(x, y + (band.height() - PILE_H) / 2, PILE_W, PILE_H)
        x += PILE_W + GAP
    for z in g.zones:
        out.rects[z.id] = QRectF(x, y, CARD_W * 3, band.height())
        x += CARD_W * 3 + GAP
    for i, t in enumerate(g.trackers):
        col, row = divmod(i, 3)
        th = DIE if t.kind == "die" else TRACKER_H
        tw = DIE if t.kind == "die" else TRACKER_W
        out.rects[t.id] = QRectF(x + col * (TRACKER_W + GAP), y + row * (TRACKER_H + GAP / 2),
                                 tw, th)
    x += (TRACKER_W + GAP) * ((len(g.trackers) + 2) // 3)
    out.rects[ROOT] = QRectF(x, y, max(CARD_W * 3, band.right() - x), band.height())
