"""The arena and the players' mats as the assist reads them from the table view."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .geometry import Cell, MoveModel

if TYPE_CHECKING:
    from assist.api import AssistView, GameInfo
    from table.games.model import Card

ARENA = "arena"
HAZARD_KINDS = ("breach", "rift", "tremor", "surge")

# Obstruction maps, computed once per module and tile layout (a pure memo, not game state).
_OBSTRUCTIONS: dict[tuple[str, tuple[tuple[str, str, str, int], ...]], frozenset[Cell]] = {}


def cell_of(pos: Any) -> Cell | None:
    if not pos or len(pos) < 2:
        return None
    return round(pos[0]), round(pos[1])


def hazard_kind(obj_id: str, name: str | None = None) -> str | None:
    base = obj_id.split("-", 1)[0]
    if base in HAZARD_KINDS:
        return base
    if name and name.casefold() in HAZARD_KINDS:
        return name.casefold()
    return None


def seat_of_id(obj_id: str) -> int | None:
    """p3.standee -> 3."""
    if obj_id.startswith("p"):
        head = obj_id[1:].split(".", 1)[0]
        if head.isdigit():
            return int(head)
    return None


@dataclass(slots=True)
class Board:
    cols: int
    rows: int
    tile_size: int
    obstructions: frozenset[Cell]
    tiles: list[tuple[str, str, str, int]]  # (slot, tile id, side, rotation)
    hazards: dict[str, Cell] = field(default_factory=dict)  # hazard token -> cell
    kinds: dict[str, str] = field(default_factory=dict)  # hazard token -> kind
    standees: dict[int, Cell] = field(default_factory=dict)  # seat -> cell
    turrets: dict[str, Cell] = field(default_factory=dict)  # turret token -> cell
    turret_owner: dict[str, int | None] = field(default_factory=dict)

    # -- derived ---------------------------------------------------------------------------
    def cells_of(self, kind: str) -> set[Cell]:
        return {c for h, c in self.hazards.items() if self.kinds.get(h) == kind}

    @property
    def breaches(self) -> set[Cell]:
        return self.cells_of("breach")

    @property
    def obstacles(self) -> frozenset[Cell]:
        """Obstructions and Breaches: they block movement's end, cost 2 to leave, block LoS."""
        return self.obstructions | self.breaches

    def hazard_at(self, cell: Cell) -> list[str]:
        return [self.kinds[h] for h, c in self.hazards.items() if c == cell and h in self.kinds]

    def occupant_cells(self, skip: tuple[Cell, ...] = ()) -> set[Cell]:
        cells = set(self.standees.values()) | set(self.turrets.values())
        return cells - set(skip)

    def tile_of(self, cell: Cell) -> int:
        ts = self.tile_size or max(self.cols, 1)
        per_row = max(self.cols // ts, 1)
        return (cell[1] // ts) * per_row + cell[0] // ts

    def blockers(self, *, skip: tuple[Cell, ...] = ()) -> set[Cell]:
        """Everything that blocks Line of Sight: Obstructions, Breaches, Chosen and turrets."""
        return (set(self.obstacles) | self.occupant_cells()) - set(skip)

    def enemies_of(self, seat: int) -> set[Cell]:
        cells = {c for s, c in self.standees.items() if s != seat}
        cells |= {c for t, c in self.turrets.items() if self.turret_owner.get(t) != seat}
        return cells

    def move_model(self, seat: int, game: GameInfo) -> MoveModel:
        return MoveModel(
            self.cols, self.rows, self.obstacles, frozenset(self.enemies_of(seat)),
            frozenset(self.cells_of("rift")), frozenset(self.cells_of("surge")),
            exit_cost=int(game.param("obstruction_exit_cost", 2)),
            opponent_cost=int(game.param("opponent_pass_cost", 2)),
            diagonal_squeeze=int(game.param("diagonal_obstruction_extra", 1)),
            surge_bonus=int(game.param("surge_bonus", 1)))


def read_board(view: AssistView, game: GameInfo) -> Board | None:
    """The arena now: tiles, obstruction cells, hazards, standees and turrets with their cells.
    Read field by field (read at every turn and phase marker: no view of each piece is built;
    none of what it reads is hidden)."""
    if not view.exists(ARENA):
        return None
    grid = view.prop(ARENA, "grid") or [10, 10]
    cols, rows = int(grid[0]), int(grid[1])
    tile_size = int(view.prop(ARENA, "tile_size") or 0)
    tiles: list[tuple[str, str, str, int]] = []
    board = Board(cols, rows, tile_size, frozenset(), tiles)
    for child in view.child_ids(ARENA):
        kind, place = view.kind_of(child), view.place(child)
        if kind in ("zone", "pile"):  # a tile slot
            for tile_id in view.child_ids(child):
                tile = view.prop(tile_id, "tile")
                if tile:
                    tiles.append((child, str(tile), str(view.prop(tile_id, "side") or "A"),
                                  int(view.rotation(tile_id))))
            continue
        cell = cell_of(place[1]) if place is not None else None
        if cell is None:
            continue
        _place_piece(view, board, child, cell)
    board.obstructions = obstructions(game, tiles)
    return board


def may_hold(view: AssistView, kind: str) -> bool:
    """Whether the arena may hold a Hazard of `kind` (False: read_board would find none), read
    from the pieces' ids and names alone, without reading the whole board."""
    for child in view.child_ids(ARENA):
        if child.split("-", 1)[0] == kind:
            return True
        name = view.prop(child, "name")
        if isinstance(name, str) and name.casefold() == kind:
            return True
    return False


def _place_piece(view: AssistView, board: Board, piece: str, cell: Cell) -> None:
    """A hazard, turret or standee on the arena, at its cell."""
    kind = view.prop(piece, "token_kind")
    if kind == "hazard" or hazard_kind(piece) is not None:
        hk = hazard_kind(piece, view.prop(piece, "name"))
        if hk is not None:
            board.hazards[piece] = cell
            board.kinds[piece] = hk
    elif kind == "turret" or ".turret" in piece:
        owner = view.owner_of(piece)
        board.turrets[piece] = cell
        board.turret_owner[piece] = owner if owner is not None else seat_of_id(piece)
    elif kind == "standee" or piece.endswith(".standee"):
        owner = view.owner_of(piece)
        seat = owner if owner is not None else seat_of_id(piece)
        if seat is not None:
            board.standees[seat] = cell


def obstructions(game: GameInfo, tiles: list[tuple[str, str, str, int]]) -> frozenset[Cell]:
    placements = tuple(sorted(tiles))
    module = game.module
    key = (f"{module.id}:{module.content_hash}", placements)
    found = _OBSTRUCTIONS.get(key)
    if found is None:
        try:
            found = module.obstructions(ARENA, placements)
        except (KeyError, StopIteration, AssertionError):
            found = frozenset()
        if len(_OBSTRUCTIONS) > 256:
            _OBSTRUCTIONS.clear()
        _OBSTRUCTIONS[key] = found
    return found


# -- mats ---------------------------------------------------------------------------------------
def chosen_card(view: AssistView, game: GameInfo, seat: int) -> Card | None:
    for card_obj in view.child_ids(f"p{seat}.mat.chosen", "card"):
        card = game.card(view.card_of(card_obj))
        if card is not None:
            return card
    return None


def abilities(card: Card | None) -> list[tuple[str, int]]:
    """Favor Abilities printed on a mat: (name, cost), bottom-left (unlocked at start) first."""
    if card is None:
        return []
    raw = card.get("favor_abilities") or ()
    items = raw if isinstance(raw, (list, tuple)) else str(raw).split(";")
    out = []
    for item in items:
        name, _, cost = str(item).rpartition(":")
        if not name:
            name, cost = cost, ""
        cost = cost.strip()
        out.append((name.strip(), int(cost) if cost.isdigit() else 0))
    return out


def ability_slot(card: Card | None, ref: Any) -> tuple[int, str, int] | None:
    """(slot number 1.., name, cost) of an ability named by name or number."""
    found = abilities(card)
    if isinstance(ref, int) or (isinstance(ref, str) and ref.strip().isdigit()):
        n = int(ref)
        if 1 <= n <= len(found):
            return n, found[n - 1][0], found[n - 1][1]
        return None
    if isinstance(ref, str):
        for i, (name, cost) in enumerate(found, 1):
            if name.casefold() == ref.strip().casefold():
                return i, name, cost
    return None
