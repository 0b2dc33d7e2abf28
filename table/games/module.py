"""The loaded game module and the expansion of its per-seat templates to concrete ids."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .card_faces import CardSize
from .model import (
    SEAT,
    BackTemplate,
    Board,
    Card,
    CardType,
    Column,
    Condition,
    Counter,
    Deck,
    DeckRules,
    Die,
    FrontTemplate,
    HeaderSpec,
    PlayerRange,
    Seat,
    Tile,
    Token,
    Zone,
)
from .steps import SetupStep, StepTemplate, build_step

Decks = Mapping[int, Deck]


def _fill(text: str | None, seat: int) -> str | None:
    return None if text is None else text.replace(SEAT, str(seat))


def _is_template(text: str) -> bool:
    return SEAT in text


def _present(when: Condition | None, seat: int | None, decks: Decks | None) -> bool:
    if when is None or decks is None:
        return True
    if seat is not None:
        deck = decks.get(seat)
        return deck is not None and when.matches(deck.headers)
    return any(when.matches(d.headers) for d in decks.values())


@dataclass(frozen=True, slots=True)
class GameModule:
    """A game module: its declarations (templated by seat), cards, starter decks and setup."""

    id: str
    name: str
    version: str
    path: Path
    content_hash: str
    players: PlayerRange
    seats: tuple[Seat, ...]
    rulebook: str = ""
    boards: tuple[Board, ...] = ()
    zones: tuple[Zone, ...] = ()
    counters: tuple[Counter, ...] = ()
    tokens: tuple[tuple[Token, int], ...] = ()  # (template, count)
    dice: tuple[Die, ...] = ()
    tiles: tuple[Tile, ...] = ()
    components: tuple[tuple[str, str, int], ...] = ()  # (id, name, count), inventory only
    card_types: Mapping[str, CardType] = field(default_factory=dict)
    columns: tuple[Column, ...] = ()
    group_column: str = "group"
    groups: tuple[str, ...] = ()
    neutral: str | None = None
    cards: Mapping[str, Card] = field(default_factory=dict)
    card_counters: tuple[tuple[str, str], ...] = ()  # (id, name): counters a card may carry
    back: BackTemplate = BackTemplate("#333333", "")
    front: FrontTemplate = FrontTemplate()
    card_size: CardSize | None = None  # true size for print and export ([templates.card])
    deck_sections: tuple[str, ...] = ("main",)
    deck_headers: Mapping[str, HeaderSpec] = field(default_factory=dict)
    group_header: str | None = None
    deck_rules: Mapping[str, DeckRules] = field(default_factory=dict)
    starter_decks: Mapping[str, Deck] = field(default_factory=dict)
    setup: tuple[StepTemplate, ...] = ()
    rules: Mapping[str, Any] = field(default_factory=dict)

    # -- seats -------------------------------------------------------------------------
    def check_seats(self, seats: int) -> None:
        if not self.players.min <= seats <= self.players.max:
            raise ValueError(f"{self.name} is for {self.players.min}-{self.players.max} "
                             f"players, not {seats}")

    def seats_for(self, seats: int) -> tuple[Seat, ...]:
        self.check_seats(seats)
        return self.seats[:seats]

    # -- cards -------------------------------------------------------------------------
    def card(self, ref: str) -> Card:
        """A card by id, or by name (case-insensitive) if the name is unambiguous."""
        found = self.find_cards(ref)
        if len(found) != 1:
            raise KeyError(ref if not found else f"{ref} (ambiguous: "
                           f"{', '.join(c.id for c in found)})")
        return found[0]

    def find_cards(self, ref: str) -> list[Card]:
        if ref in self.cards:
            return [self.cards[ref]]
        key = ref.strip().casefold()
        return [c for c in self.cards.values() if c.name.casefold() == key]

    def deck(self, name: str) -> Deck:
        """A starter deck by file stem (e.g. "military")."""
        return self.starter_decks[name]

    def deck_group(self, deck: Deck) -> str | None:
        """The deck's faction/chosen/crown, from its group header."""
        if self.group_header is None:
            return None
        value = deck.headers.get(self.group_header)
        if value is None:
            return None
        spec = self.deck_headers.get(self.group_header)
        if spec is not None and spec.card_type:
            found = self.find_cards(value)
            return found[0].group if len(found) == 1 else None
        return value

    # -- expansion ---------------------------------------------------------------------
    def boards_for(self, seats: int, decks: Decks | None = None) -> tuple[Board, ...]:
        self.check_seats(seats)
        out: list[Board] = []
        for b in self.boards:
            for s in self._seats_of(b.id, seats):
                if not _present(b.when, s, decks):
                    continue
                if s is None:
                    out.append(b)
                    continue
                slots = tuple(replace(sl, id=sl.id.replace(SEAT, str(s))) for sl in b.slots)
                grid = b.grid
                if grid is not None:
                    grid = replace(grid, tile_slots=tuple(
                        replace(ts, id=ts.id.replace(SEAT, str(s))) for ts in grid.tile_slots))
                out.append(replace(b, id=b.id.replace(SEAT, str(s)),
                                   name=b.name.replace(SEAT, str(s)), owner=s, slots=slots,
                                   grid=grid))
        return tuple(out)

    def zones_for(self, seats: int, decks: Decks | None = None) -> tuple[Zone, ...]:
        """Every concrete zone: declared zones, then one ``slot`` zone per board slot."""
        self.check_seats(seats)
        out: list[Zone] = []
        for z in self.zones:
            for s in self._seats_of(z.id, seats):
                if not _present(z.when, s, decks):
                    continue
                if s is None:
                    out.append(z)
                else:
                    out.append(replace(z, id=z.id.replace(SEAT, str(s)),
                                       name=z.name.replace(SEAT, str(s)), owner=s,
                                       board=_fill(z.board, s)))
        for b in self.boards_for(seats, decks):
            for sl in b.slots:
                out.append(Zone(id=sl.id, name=sl.name, kind="slot", visibility="public",
                                face_up=True, owner=b.owner, board=b.id, when=b.when,
                                tags=sl.tags))
            if b.grid is not None:
                for ts in b.grid.tile_slots:
                    out.append(Zone(id=ts.id, name=f"{b.name} tile {ts.id.rsplit('.', 1)[-1]}",
                                    kind="slot", visibility="public", face_up=True,
                                    owner=b.owner, board=b.id, when=b.when, tags=("tile",)))
        return tuple(out)

    def counters_for(self, seats: int, decks: Decks | None = None) -> tuple[Counter, ...]:
        """Concrete counters with ``start`` (and ``max``, if decks are given) resolved."""
        self.check_seats(seats)
        out: list[Counter] = []
        for c in self.counters:
            for s in self._seats_of(c.id, seats):
                if not _present(c.when, s, decks):
                    continue
                start = c.start
                if s is not None and seats in c.start_by_seat_count:
                    start = c.start_by_seat_count[seats][s - 1]
                elif s is not None and c.start_by_seat:
                    start = c.start_by_seat[s - 1]
                maximum = c.max
                if c.max_from is not None and decks is not None and s is not None \
                        and s in decks:
                    header, column = c.max_from
                    ref = decks[s].headers.get(header)
                    found = self.find_cards(ref) if ref else []
                    if len(found) == 1 and isinstance(found[0].fields.get(column), int):
                        maximum = found[0].number(column)
                if s is None:
                    out.append(replace(c, start=start, max=maximum))
                else:
                    out.append(replace(c, id=c.id.replace(SEAT, str(s)),
                                       name=c.name.replace(SEAT, str(s)), owner=s,
                                       board=_fill(c.board, s), start=start, max=maximum,
                                       start_by_seat=(), start_by_seat_count={}))
        return tuple(out)

    def tokens_for(self, seats: int, decks: Decks | None = None) -> tuple[Token, ...]:
        """Concrete tokens; a declaration with count n > 1 gives ids ``<id>-1`` .. ``<id>-n``."""
        self.check_seats(seats)
        out: list[Token] = []
        for t, count in self.tokens:
            for s in self._seats_of(t.id, seats):
                if not _present(t.when, s, decks):
                    continue
                base = t if s is None else replace(
                    t, id=t.id.replace(SEAT, str(s)), name=t.name.replace(SEAT, str(s)),
                    owner=s, home=_fill(t.home, s),
                    colour=t.colour or self.seats[s - 1].colour)
                if count == 1:
                    out.append(base)
                else:
                    out.extend(replace(base, id=f"{base.id}-{i}", label=base.label or str(i))
                               for i in range(1, count + 1))
        return tuple(out)

    def dice_for(self, seats: int) -> tuple[Die, ...]:
        self.check_seats(seats)
        out: list[Die] = []
        for d in self.dice:
            for s in self._seats_of(d.id, seats):
                out.append(d if s is None else replace(
                    d, id=d.id.replace(SEAT, str(s)), name=d.name.replace(SEAT, str(s)),
                    owner=s, home=_fill(d.home, s)))
        return tuple(out)

    def setup_for(self, seats: int, decks: Decks | None = None) -> tuple[SetupStep, ...]:
        """The setup steps for ``seats`` players, in order, with concrete ids.

        Without ``decks``, steps that depend on a seat's deck keep their ``when`` condition
        and ``CreateDeck.cards`` is empty. With ``decks`` (seat -> Deck), conditional steps that
        do not apply are dropped and ``CreateDeck.cards`` lists the cards to create.
        """
        self.check_seats(seats)
        counters = self.counters_for(seats, decks)
        starts = {c.id: c.start for c in counters}
        steps: list[SetupStep] = []
        for t in self.setup:
            for s in (range(1, seats + 1) if t.per_seat else [None]):
                if not _present(t.when, s, decks):
                    continue
                deck = decks.get(s) if (decks is not None and s is not None) else None
                ids = [c.id for c in counters if s is None or c.owner == s]
                steps.extend(build_step(t, seats, s, starts, ids, deck, self.deck_section))
        return tuple(steps)

    def deck_section(self, deck: Deck | None, section: str) -> tuple[tuple[str, int], ...]:
        """A deck's cards in ``section``; a card-naming header counts as a 1-card section."""
        if deck is None:
            return ()
        if section in deck.sections:
            return deck.sections[section]
        spec = self.deck_headers.get(section)
        value = deck.headers.get(section)
        if spec is not None and spec.card_type and value:
            found = self.find_cards(value)
            if len(found) == 1:
                return ((found[0].id, 1),)
        return ()

    # -- boards ------------------------------------------------------------------------
    def tile(self, tile_id: str) -> Tile:
        for t in self.tiles:
            if t.id == tile_id:
                return t
        raise KeyError(tile_id)

    def obstructions(self, board_id: str,
                     placements: Iterable[tuple[str, str, str, int]]) -> frozenset[tuple[int, int]]:
        """Obstruction cells of a tiled grid, in board coordinates.

        ``placements``: (tile slot id, tile id, side, rotation in degrees clockwise).
        """
        board = next(b for b in self.boards if b.id == board_id)
        assert board.grid is not None
        origin = {ts.id: (ts.x, ts.y) for ts in board.grid.tile_slots}
        cells: set[tuple[int, int]] = set()
        for slot, tile_id, side, rotation in placements:
            tile = self.tile(tile_id)
            ox, oy = origin[slot]
            for x, y in tile.sides[side]:
                rx, ry = rotate_cell(x, y, tile.size, rotation)
                cells.add((ox + rx, oy + ry))
        return frozenset(cells)

    def _seats_of(self, ident: str, seats: int) -> list[int | None]:
        return list(range(1, seats + 1)) if _is_template(ident) else [None]


def rotate_cell(x: int, y: int, size: int, rotation: int) -> tuple[int, int]:
    """Turn cell (x, y) of a ``size``-square tile by ``rotation`` degrees clockwise."""
    r = (rotation // 90) % 4
    for _ in range(r):
        x, y = size - 1 - y, x
    return x, y

