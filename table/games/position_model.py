"""What a position holds once read (docs/positions.md): the placements of cards, zones, tokens
and tiles, and the Position itself; `table.games.position.read_position` builds one."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from .model import Deck
from .module import GameModule
from .problems import ModuleError

UNKNOWN = "?"  # a card a saving peer could not see
FACES = ("up", "down")


class PositionError(ModuleError):
    """A position cannot be read; `problems` lists every problem as file:line: message."""


@dataclass(frozen=True, slots=True)
class CardPlacement:
    """One card in a zone. `face_up`/`owner` None: the zone's default."""

    card: str  # card id, or UNKNOWN
    line: int
    face_up: bool | None = None
    owner: int | None = None
    rotation: int = 0
    side: str | None = None
    counters: Mapping[str, int] = field(default_factory=dict)
    pos: tuple[float, float] | None = None


@dataclass(frozen=True, slots=True)
class ZonePlacement:
    """The cards of one zone, bottom first; `rest`: the seat's unplaced deck-list cards go under
    them (in random order); `shuffle`: the pile is shuffled once filled."""

    zone: str
    cards: tuple[CardPlacement, ...]
    line: int
    rest: bool = False
    shuffle: bool = False


@dataclass(frozen=True, slots=True)
class TokenPlacement:
    at: str
    cell: tuple[int, int] | None = None  # on a grid board
    pos: tuple[float, float] | None = None  # x/y in a free zone


@dataclass(frozen=True, slots=True)
class TilePlacement:
    tile: str
    side: str
    rotation: int = 0


@dataclass(frozen=True, slots=True)
class Position:
    module: GameModule
    seats: int
    source: str  # the file it was read from, for messages
    name: str = ""
    module_ref: str | None = None  # the draft folder as written in the file
    seed: int | None = None
    setup_complete: bool = True
    players: Mapping[int, str] = field(default_factory=dict)
    decks: Mapping[int, Deck] = field(default_factory=dict)
    deck_refs: Mapping[int, str] = field(default_factory=dict)  # as written, or the list's text
    zones: tuple[ZonePlacement, ...] = ()
    counters: Mapping[str, int] = field(default_factory=dict)
    tokens: Mapping[str, TokenPlacement] = field(default_factory=dict)
    dice: Mapping[str, int] = field(default_factory=dict)
    boards: Mapping[str, str] = field(default_factory=dict)  # board id -> side
    tiles: Mapping[str, TilePlacement] = field(default_factory=dict)  # tile slot -> tile
    turn_seat: int | None = None
    turn_number: int | None = None
    phase: str | None = None
    phase_kind: str = "phase"  # "phase" or "step": the marker it is set with
    digest: str = ""  # sha256 of the file: LAN peers check they start from the same one

    def card_count(self) -> int:
        return sum(len(z.cards) for z in self.zones)
