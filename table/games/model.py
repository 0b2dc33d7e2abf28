"""The game module as data: frozen dataclasses the loader builds from ``assets/<id>/``.

Declarations whose id contains ``{seat}`` are templates, one per seat; the ``*_for(seats)``
methods of :class:`GameModule` (see ``module.py``) expand them to concrete ids.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from .card_faces import Region

Visibility = Literal["public", "owner", "hidden"]
ZoneKind = Literal["pile", "zone", "slot"]
CardValue = str | int | bool | tuple[str, ...] | None

SEAT = "{seat}"


@dataclass(frozen=True, slots=True)
class Condition:
    """Present only if a deck header has one of ``values`` (e.g. faction = Diplomats).

    A per-seat object tests its own seat's deck; a shared object is present if any seat's
    deck matches.
    """

    header: str
    values: tuple[str, ...]

    def matches(self, headers: Mapping[str, str]) -> bool:
        value = headers.get(self.header)
        return value is not None and value.casefold() in {v.casefold() for v in self.values}


@dataclass(frozen=True, slots=True)
class PlayerRange:
    min: int
    max: int


@dataclass(frozen=True, slots=True)
class Seat:
    number: int  # 1-based
    name: str
    colour: str


@dataclass(frozen=True, slots=True)
class Zone:
    """A place cards go: a pile (ordered stack), a free zone, or a slot on a board."""

    id: str
    name: str
    kind: ZoneKind
    visibility: Visibility
    face_up: bool  # how cards lie when they enter (hands: as seen by their owner)
    owner: int | None = None  # seat, for per-seat zones
    board: str | None = None  # the board this zone is drawn on, if any
    when: Condition | None = None
    tags: tuple[str, ...] = ()
    keeper: int | None = None  # seat whose software holds a shared hidden pile


@dataclass(frozen=True, slots=True)
class Counter:
    """A tracked number. The table never clamps; ``min``/``max`` are for display and the assist."""

    id: str
    name: str
    start: int
    min: int | None = 0
    max: int | None = None
    owner: int | None = None
    board: str | None = None
    when: Condition | None = None
    # start per seat: index seat-1; by seat count: {n: [start of seat 1..n]}
    start_by_seat: tuple[int, ...] = ()
    start_by_seat_count: Mapping[int, tuple[int, ...]] = field(default_factory=dict)
    # max taken from a column of the card a deck header names (e.g. the Crown's favor_cap)
    max_from: tuple[str, str] | None = None
    # the [rules] number the max is (one source: game.toml states it once, in [rules])
    max_rule: str | None = None


@dataclass(frozen=True, slots=True)
class Token:
    """A physical piece: player token, standee, hazard, cube, turret, marker."""

    id: str
    name: str
    kind: str
    owner: int | None = None
    home: str | None = None  # zone id it is created in
    colour: str | None = None  # None: the owner's seat colour
    shape: str = "disc"
    label: str = ""
    when: Condition | None = None


@dataclass(frozen=True, slots=True)
class Die:
    id: str
    name: str
    sides: int = 6
    owner: int | None = None
    home: str | None = None


@dataclass(frozen=True, slots=True)
class BoardSlot:
    """A named position on a board; it is also a zone of kind ``slot`` with the same id."""

    id: str  # full id, e.g. "gauntlet.P4"
    name: str
    seat: int | None = None  # whose end/side it belongs to, if any
    tags: tuple[str, ...] = ()
    index: int = 0  # order along the board


@dataclass(frozen=True, slots=True)
class TileSlot:
    """Where one tile goes on a tiled grid: top-left cell ``(x, y)``."""

    id: str  # full id, e.g. "arena.t1"
    x: int
    y: int


@dataclass(frozen=True, slots=True)
class Grid:
    cols: int
    rows: int
    tile_size: int | None = None
    tile_slots: tuple[TileSlot, ...] = ()


@dataclass(frozen=True, slots=True)
class Board:
    """A board or mat: a background with named slots, a grid, or just tracks and areas."""

    id: str
    name: str
    kind: Literal["slots", "grid", "mat"]
    sides: tuple[str, ...] = ()
    slots: tuple[BoardSlot, ...] = ()
    grid: Grid | None = None
    owner: int | None = None
    when: Condition | None = None


@dataclass(frozen=True, slots=True)
class Tile:
    """A double-sided map tile; each side lists its obstruction cells (local x, y)."""

    id: str
    name: str
    size: int
    sides: Mapping[str, frozenset[tuple[int, int]]]
    sample: bool = False


@dataclass(frozen=True, slots=True)
class CardType:
    name: str
    sides: tuple[str, ...] = ()  # two names for a double-sided card, else empty
    sections: tuple[str, ...] = ("main",)  # deck-list sections it may appear in
    counters: tuple[str, ...] = ()  # counters a card of this type can carry (damage...)


@dataclass(frozen=True, slots=True)
class Column:
    """A game-specific column of cards.csv."""

    name: str
    type: Literal["int", "str", "bool", "list"]
    required: bool = False


@dataclass(frozen=True, slots=True)
class Card:
    id: str
    name: str
    type: str
    group: str  # faction / chosen / crown; the module's neutral group name for neutral cards
    text: str = ""
    side_b: str = ""  # name of the second side of a double-sided card
    text_b: str = ""
    image: str = ""
    sample: bool = False
    fields: Mapping[str, CardValue] = field(default_factory=dict)
    line: int = 0

    def get(self, column: str) -> CardValue:
        if column in ("id", "name", "type", "group", "text", "image", "sample"):
            return getattr(self, column)  # type: ignore[no-any-return]  # str or bool fields
        return self.fields.get(column)

    def flag(self, column: str) -> bool:
        return bool(self.fields.get(column))

    def number(self, column: str) -> int:
        value = self.fields.get(column)
        return value if isinstance(value, int) and not isinstance(value, bool) else 0


@dataclass(frozen=True, slots=True)
class BackTemplate:
    colour: str
    label: str
    by_type: Mapping[str, tuple[str, str]] = field(default_factory=dict)  # type -> (colour, label)


@dataclass(frozen=True, slots=True)
class FrontTemplate:
    title: str = "name"
    subtitle: tuple[str, ...] = ("type",)
    corner: str | None = None  # big number top right, e.g. "value"
    stats: tuple[str, ...] = ()
    body: str = "text"
    flags: tuple[str, ...] = ()  # bool columns shown as badges
    colour_by: str = "group"
    colours: Mapping[str, str] = field(default_factory=dict)
    default_colour: str = "#777777"
    labels: Mapping[str, str] = field(default_factory=dict)  # column -> its name on the face
    short_labels: Mapping[str, str] = field(default_factory=dict)  # column -> its small form
    layouts: Mapping[str, tuple[Region, ...]] = field(default_factory=dict)  # card type -> regions

    def label_of(self, column: str) -> str:
        return self.labels.get(column) or column.replace("_", " ").title()

    def short_of(self, column: str) -> str:
        """The name over a stat's value on the table's small stat line: the module's own short
        form (`labels = { guard = { name = "Guard", short = "Grd" } }`), else one made up."""
        return self.short_labels.get(column) or abbreviate(self.label_of(column))

    def colour_for(self, card: Card) -> str:
        key = card.get(self.colour_by)
        return self.colours.get(str(key), self.default_colour)


@dataclass(frozen=True, slots=True)
class HeaderSpec:
    """A ``key: value`` line a deck list may or must have."""

    name: str
    required: bool = False
    card_type: str | None = None  # the value names a card of this type
    group: bool = False  # the value is a group (faction...) name


@dataclass(frozen=True, slots=True)
class DeckRules:
    """Construction limits of one deck-list section (read from ``[rules.deck.<section>]``)."""

    section: str
    min_cards: int | None = None
    max_cards: int | None = None
    max_copies: int | None = None  # per card name
    unique_flag: str | None = None  # cards with this flag: at most 1 copy
    value_field: str | None = None
    max_value: int | None = None
    distinct: bool = False  # every card a different title
    max_flagged: Mapping[str, int] = field(default_factory=dict)  # flag column -> max cards
    own_group_only: bool = False  # cards must be of the deck's group (or neutral, if allowed)
    allow_neutral: bool = True


@dataclass(frozen=True, slots=True)
class Deck:
    """A parsed deck list. ``cards`` is the main section; ``sections`` holds every section."""

    name: str
    file: str
    headers: Mapping[str, str]
    sections: Mapping[str, tuple[tuple[str, int], ...]]
    lines: Mapping[tuple[str, str], int] = field(default_factory=dict)  # (section, card) -> line
    header_lines: Mapping[str, int] = field(default_factory=dict)
    text: str = ""  # the list as written (recorded in the log at setup: see the deck op)

    @property
    def cards(self) -> tuple[tuple[str, int], ...]:
        return self.sections.get("main", ())

    def count(self, section: str = "main") -> int:
        return sum(n for _, n in self.sections.get(section, ()))


def abbreviate(label: str) -> str:
    """A stat's name cut to fit over its value: "Favor cap" -> "FC", "Cost" -> "Cost", "Guard"
    -> "Grd", "Block" -> "Blk", "Attack" -> "Atk" (the first letter, the next consonant and the
    last one, as a reader abbreviates, rather than the first three letters: "GUA", "BLO")."""
    words = label.split()
    if len(words) > 1:
        return "".join(w[0] for w in words).upper()
    if len(label) <= 4:
        return label
    consonants = [c for c in label[1:] if c.isalpha() and c.lower() not in "aeiouy"]
    return label[0] + consonants[0] + consonants[-1] if len(consonants) >= 2 else label[:3]
