"""A board on the table: its size, and the places of its slots and zones (in a row, or tile
slots over its grid) and of its trackers (in columns of three at its right)."""
from __future__ import annotations

from PySide6.QtCore import QRectF

from table.core.objects import Obj
from table.core.state import State

from .layout_units import (
    CELL,
    CONTAINERS,
    DIE,
    LABEL,
    PAD,
    PILE_H,
    PILE_W,
    SLOT_NARROW,
    TRACKER_H,
    TRACKER_W,
    grid_size,
    laid_out_piece,
    role,
    seat_of,
)
from .theme import CARD_W, GAP


def board_parts(state: State, board: Obj) -> tuple[list[Obj], list[Obj]]:
    kids = [state.objs[c] for c in board.children if state.objs[c].alive]
    return ([k for k in kids if k.kind in CONTAINERS],
            [k for k in kids if laid_out_piece(k)])


def narrow_slot(state: State, obj: Obj) -> bool:
    """A slot of a seat's board with no card in it (a place for a cube on a player's mat):
    narrow, until a card comes (the table is then laid out again)."""
    board = state.objs.get(obj.container or "")
    return role(obj) == "slot" and board is not None and seat_of(board) is not None and \
        not any(state.objs[c].kind == "card" and state.objs[c].alive for c in obj.children)


def _child_w(state: State, obj: Obj) -> float:
    if narrow_slot(state, obj):
        return SLOT_NARROW
    return PILE_W if role(obj) in ("pile", "slot") else CARD_W * 2.6


def board_rect(state: State, board: Obj) -> tuple[float, float]:
    """A board's width and height."""
    conts, pieces = board_parts(state, board)
    tr_w = (TRACKER_W + GAP) * ((len(pieces) + 2) // 3)  # trackers in columns of three
    tr_h = min(3, len(pieces)) * (TRACKER_H + GAP / 2)
    if role(board) == "grid":
        cols, rows = grid_size(board)
        return cols * CELL + 2 * PAD + tr_w, max(rows * CELL, tr_h) + LABEL + 2 * PAD
    spots = [c for c in conts if role(c) != "grid"]
    w = sum(_child_w(state, c) + GAP / 2 for c in spots) + tr_w
    return max(w + 2 * PAD, CARD_W * 2), max(PILE_H, tr_h) + LABEL + 2 * PAD


def place_board(state: State, board: Obj, rects: dict[str, QRectF], rect: QRectF,
                tiles: dict[str, tuple[int, int, int]]) -> None:
    """Put `board` at `rect` and its parts inside it (into `rects`, by id)."""
    rects[board.id] = rect
    conts, pieces = board_parts(state, board)
    x = rect.left() + PAD
    y = rect.top() + LABEL + PAD
    if role(board) == "grid":
        cols, _rows = grid_size(board)
        for c in conts:  # tile slots cover their cells of the grid
            if c.id in tiles:
                col, row, size = tiles[c.id]
                r = QRectF(x + col * CELL, y + row * CELL, size * CELL, size * CELL)
                rects[c.id] = r
                for t in c.children:
                    if state.objs[t].kind in CONTAINERS:
                        rects[t] = r
        x += cols * CELL + GAP
    else:
        for c in conts:
            w = _child_w(state, c)
            rects[c.id] = QRectF(x, y, w, PILE_H)
            x += w + GAP / 2
    for i, p in enumerate(pieces):
        col, row = divmod(i, 3)
        tx = rect.right() - PAD - (TRACKER_W + GAP) * ((len(pieces) + 2) // 3) + GAP + \
            col * (TRACKER_W + GAP)
        rects[p.id] = QRectF(tx, y + row * (TRACKER_H + GAP / 2),
                                 DIE if p.kind == "die" else TRACKER_W,
                                 DIE if p.kind == "die" else TRACKER_H)
