"""Where each zone, pile, board and tracker sits on the table.

Game modules give no coordinates, so the table is laid out automatically: each seat gets an
area along the bottom or top edge (play area toward the middle, then piles, hand and trackers
toward the edge), and shared boards, piles and trackers sit in a band across the middle. The
layout depends only on the public state, so every peer (and every seat in hot-seat) sees the
same table and a free-zone position means the same spot for all.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from PySide6.QtCore import QRectF

from table.core.objects import OWNER, ROOT, Obj
from table.core.state import State

from .theme import CARD_H, CARD_W, GAP

LABEL = 20.0           # zone name strip
PAD = 8.0
PILE_W = CARD_W + 2 * PAD
PILE_H = CARD_H + LABEL + 2 * PAD
TRACKER_W, TRACKER_H = 150.0, 58.0
DIE = 56.0
CELL = 64.0
HAND_MIN_W = CARD_W * 5.5
PLAY_H = CARD_H + LABEL + 2 * PAD + 20
CONTAINERS = ("zone", "pile", "board")
PIECES = ("counter", "die")


def role(obj: Obj) -> str:
    """How a container behaves on screen: pile, hand, slot, grid, board or zone."""
    zk = obj.props.get("zone_kind")
    if obj.kind == "pile" or zk == "pile":
        return "pile"
    if zk == "slot":
        return "slot"
    if "grid" in obj.props or zk == "grid":
        return "grid"
    if obj.kind == "board":
        return "board"
    if obj.visibility == OWNER and obj.owner is not None:
        return "hand"
    return "zone"


def seat_of(obj: Obj) -> int | None:
    seat = obj.props.get("seat", obj.owner)
    return seat if isinstance(seat, int) else None


def grid_size(obj: Obj) -> tuple[int, int]:
    g = obj.props.get("grid") or [8, 8]
    try:
        return max(1, int(g[0])), max(1, int(g[1]))
    except (TypeError, ValueError, IndexError):
        return 8, 8


@dataclass(slots=True)
class Layout:
    rects: dict[str, QRectF] = field(default_factory=dict)
    seat_areas: dict[int, QRectF] = field(default_factory=dict)
    flipped: set[int] = field(default_factory=set)  # seats along the top edge
    middle: QRectF = field(default_factory=QRectF)
    bounds: QRectF = field(default_factory=QRectF)


@dataclass(slots=True)
class _Group:
    hands: list[Obj] = field(default_factory=list)
    piles: list[Obj] = field(default_factory=list)
    zones: list[Obj] = field(default_factory=list)
    boards: list[Obj] = field(default_factory=list)
    trackers: list[Obj] = field(default_factory=list)


def _sort_key(obj: Obj) -> tuple[int, str]:
    name = str(obj.props.get("name", obj.id)).lower()
    order = 0 if "deck" in name or "draw" in name else 1 if "discard" in name else 2
    return order, obj.id


def _board_rect(state: State, board: Obj) -> tuple[float, float]:
    if role(board) == "grid":
        cols, rows = grid_size(board)
        return cols * CELL + 2 * PAD, rows * CELL + LABEL + 2 * PAD
    slots = [state.objs[c] for c in board.children if state.objs[c].kind in CONTAINERS]
    n = max(1, len(slots))
    return n * (PILE_W + GAP / 2) + 2 * PAD, PILE_H + LABEL + 2 * PAD


def compute(state: State, seats: list[int]) -> Layout:
    out = Layout()
    groups: dict[int | None, _Group] = {s: _Group() for s in seats}
    groups[None] = _Group()
    root = state.objs[ROOT]
    for cid in root.children:
        obj = state.objs[cid]
        if not obj.alive:
            continue
        seat = seat_of(obj)
        g = groups.setdefault(seat if seat in groups else None, _Group())
        if obj.kind in PIECES:
            g.trackers.append(obj)
        elif obj.kind in CONTAINERS:
            r = role(obj)
            {"pile": g.piles, "hand": g.hands, "grid": g.boards, "board": g.boards,
             "slot": g.piles}.get(r, g.zones).append(obj)
    for g in groups.values():
        g.piles.sort(key=_sort_key)
    # seat areas: first half along the bottom (left to right), the rest along the top
    bottom = seats[:(len(seats) + 1) // 2]
    top = list(reversed(seats[len(bottom):]))
    sizes = {s: _seat_size(state, groups[s]) for s in seats}
    mid_w, mid_h = _middle_size(state, groups[None])
    row_w = max([sum(sizes[s][0] for s in row) + GAP * 2 * (len(row) - 1)
                 for row in (bottom, top) if row] + [mid_w])
    top_h = max([sizes[s][1] for s in top], default=0.0)
    bottom_h = max([sizes[s][1] for s in bottom], default=0.0)
    y_mid = top_h + (3 * GAP if top else 0)
    out.middle = QRectF(0, y_mid, row_w, mid_h)
    _place_middle(state, groups[None], out, out.middle)
    for row, y, flipped in ((top, 0.0, True), (bottom, y_mid + mid_h + 3 * GAP, False)):
        if not row:
            continue
        used = sum(sizes[s][0] for s in row) + GAP * 2 * (len(row) - 1)
        x = (row_w - used) / 2
        h = top_h if flipped else bottom_h
        for s in row:
            area = QRectF(x, y, sizes[s][0], h)
            out.seat_areas[s] = area
            if flipped:
                out.flipped.add(s)
            _place_seat(state, groups[s], out, area, flipped)
            x += sizes[s][0] + 2 * GAP
    out.bounds = QRectF(-GAP * 3, -GAP * 3, row_w + GAP * 6,
                        y_mid + mid_h + (3 * GAP + bottom_h if bottom else 0) + GAP * 6)
    return out


def _seat_size(state: State, g: _Group) -> tuple[float, float]:
    zones_w = sum(_zone_w(z) for z in g.zones) + GAP * max(0, len(g.zones) - 1)
    boards = [_board_rect(state, b) for b in g.boards]
    boards_w = sum(w for w, _ in boards) + GAP * max(0, len(boards) - 1)
    piles_w = len(g.piles) * (PILE_W + GAP)
    hands_w = sum(HAND_MIN_W for _ in g.hands) + GAP * len(g.hands)
    trackers_w = (TRACKER_W + GAP) if g.trackers else 0
    row_b = piles_w + hands_w + trackers_w
    width = max(zones_w, boards_w, row_b, CARD_W * 6) + 2 * PAD
    tr_h = _trackers_h(g.trackers)
    height = (PLAY_H + GAP if g.zones else 0) + (max(h for _, h in boards) + GAP if boards else 0) \
        + max(PILE_H, tr_h) + 2 * PAD + 26  # 26: the seat's name plate
    return width, height


def _zone_w(z: Obj) -> float:
    return CARD_W * 6


def _trackers_h(trackers: list[Obj]) -> float:
    return sum((DIE if t.kind == "die" else TRACKER_H) + GAP / 2 for t in trackers)


def _place_seat(state: State, g: _Group, out: Layout, area: QRectF, flipped: bool) -> None:
    """Rows from the table's edge inward: name plate, piles + hand + trackers, boards, play."""
    rows: list[tuple[str, float]] = [("plate", 26.0),
                                     ("b", max(PILE_H, _trackers_h(g.trackers)))]
    if g.boards:
        rows.append(("boards", max(_board_rect(state, b)[1] for b in g.boards)))
    if g.zones:
        rows.append(("zones", PLAY_H))
    if not flipped:
        rows.reverse()  # bottom seats: play area on top (toward the middle), edge at bottom
    y = area.top() + PAD if not flipped else area.top()
    inner_w = area.width() - 2 * PAD
    for name, h in rows:
        x = area.left() + PAD
        if name == "b":
            for p in g.piles:
                out.rects[p.id] = QRectF(x, y, PILE_W, PILE_H)
                x += PILE_W + GAP
            tr_x = area.right() - PAD - TRACKER_W if g.trackers else area.right() - PAD
            if g.hands:
                hw = (tr_x - GAP - x - GAP * (len(g.hands) - 1)) / len(g.hands)
                for hand in g.hands:
                    out.rects[hand.id] = QRectF(x, y, hw, PILE_H)
                    x += hw + GAP
            ty = y
            for t in g.trackers:
                th = DIE if t.kind == "die" else TRACKER_H
                tw = DIE if t.kind == "die" else TRACKER_W
                out.rects[t.id] = QRectF(tr_x, ty, tw, th)
                ty += th + GAP / 2
        elif name == "zones":
            w = (inner_w - GAP * (len(g.zones) - 1)) / len(g.zones)
            for z in g.zones:
                out.rects[z.id] = QRectF(x, y, w, h)
                x += w + GAP
        elif name == "boards":
            for b in g.boards:
                bw, bh = _board_rect(state, b)
                _place_board(state, b, out, QRectF(x, y, bw, bh))
                x += bw + GAP
        y += h + GAP


def _middle_size(state: State, g: _Group) -> tuple[float, float]:
    boards = [_board_rect(state, b) for b in g.boards]
    w = sum(bw for bw, _ in boards) + GAP * len(boards)
    w += len(g.piles) * (PILE_W + GAP)
    w += len(g.zones) * (CARD_W * 4 + GAP)
    w += (TRACKER_W + GAP) if g.trackers else 0
    w += CARD_W * 4 + GAP  # the open table, where loose cards land
    h = max([bh for _, bh in boards] + [PILE_H, _trackers_h(g.trackers)])
    return w, max(h, PLAY_H)


def _place_middle(state: State, g: _Group, out: Layout, band: QRectF) -> None:
    x, y = band.left(), band.top()
    for b in g.boards:
        bw, bh = _board_rect(state, b)
        _place_board(state, b, out, QRectF(x, y + (band.height() - bh) / 2, bw, bh))
        x += bw + GAP
    for p in g.piles:
        out.rects[p.id] = QRectF(x, y + (band.height() - PILE_H) / 2, PILE_W, PILE_H)
        x += PILE_W + GAP
    for z in g.zones:
        out.rects[z.id] = QRectF(x, y, CARD_W * 4, band.height())
        x += CARD_W * 4 + GAP
    ty = y
    for t in g.trackers:
        th = DIE if t.kind == "die" else TRACKER_H
        tw = DIE if t.kind == "die" else TRACKER_W
        out.rects[t.id] = QRectF(x, ty, tw, th)
        ty += th + GAP / 2
    if g.trackers:
        x += TRACKER_W + GAP
    out.rects[ROOT] = QRectF(x, y, max(CARD_W * 4, band.right() - x), band.height())


def _place_board(state: State, board: Obj, out: Layout, rect: QRectF) -> None:
    out.rects[board.id] = rect
    if role(board) == "grid":
        return
    x = rect.left() + PAD
    y = rect.top() + LABEL + PAD
    for cid in board.children:
        child = state.objs[cid]
        if child.alive and child.kind in CONTAINERS:
            out.rects[cid] = QRectF(x, y, PILE_W, PILE_H)
            x += PILE_W + GAP / 2


def cell_rect(board_rect: QRectF, col: float, row: float) -> QRectF:
    return QRectF(board_rect.left() + PAD + col * CELL, board_rect.top() + LABEL + PAD + row * CELL,
                  CELL, CELL)
