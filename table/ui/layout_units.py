"""The table layout's units and the few facts it reads off an object: how a container behaves
on screen (its role), whose area it belongs in, a board's grid (layout.py lays them out)."""
from __future__ import annotations

from table.core.objects import OWNER, Obj

from .theme import CARD_H, CARD_W

LABEL = 20.0           # zone name strip
PAD = 6.0
PILE_W = CARD_W + 2 * PAD
PILE_H = CARD_H + LABEL + 2 * PAD
TRACKER_W, TRACKER_H = 150.0, 58.0
DIE = 56.0
CELL = 112.0  # a Mantle arena cell: the arena is the heart of that table, so it is big
FAN_CARDS = 6  # the viewer's own hand holds this many cards side by side: names in full
FAN_STEP = CARD_W + 6
FAN_W = FAN_CARDS * FAN_STEP - 6 + 2 * PAD
BACKS_STEP = CARD_W * 0.2  # another player's hand: a row of backs, overlapped
BACKS_W = CARD_W + 5 * BACKS_STEP + 2 * PAD
PLAY_H = PILE_H + 4
SHORT_H = LABEL + 2 * PAD + 56  # a zone of tokens only (a standee, cubes)
ZONE_W = PILE_W  # a free zone's narrowest (a play area: twice that); zones fill their row
PLATE = 26.0  # the seat's name plate along its area's edge
PIECE_W = DIE + 8  # a column for a zone's tokens and dice beside its cards
SLOT_NARROW = 60.0  # a board's slot that holds no card (a cube's place): a token's width
CONTAINERS = ("zone", "pile", "board")
PIECES = ("counter", "die")


def role(obj: Obj) -> str:
    """How a container behaves on screen: pile, hand, slot, grid, board or zone."""
    zk = obj.props.get("zone_kind")
    if obj.props.get("board_kind") == "tile":
        return "tile"
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


def laid_out_piece(obj: Obj) -> bool:
    """A tracker or die the layout places (one put down at a spot of its own is not)."""
    return obj.kind in PIECES and obj.pos is None


def seat_of(obj: Obj) -> int | None:
    """Whose area it sits in. A zone made by game setup states its seat; a shared hidden pile
    owned by its keeper seat (Mantle's Turn Order deck) still belongs in the middle."""
    seat = obj.props.get("seat") if "zone_kind" in obj.props else \
        obj.props.get("seat", obj.owner)
    return seat if isinstance(seat, int) else None


def grid_size(obj: Obj) -> tuple[int, int]:
    g = obj.props.get("grid") or [8, 8]
    try:
        return max(1, int(g[0])), max(1, int(g[1]))
    except (TypeError, ValueError, IndexError):
        return 8, 8
