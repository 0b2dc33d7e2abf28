"""Setup steps as data: one frozen dataclass per step kind, with concrete ids.

``game.toml`` lists ``[[setup]]`` tables (``do = "<kind>"``). The loader checks them and keeps
:class:`StepTemplate` records; :func:`expand_steps` turns them into concrete steps for a seat
count (per-seat steps become one step per seat, ``{seat}`` filled in, ``*_by_seat`` and
``*_by_seat_count`` values picked). Executing the steps against the table is not done here.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from .model import SEAT, Condition, Deck


@dataclass(frozen=True, slots=True, kw_only=True)
class Step:
    step: int  # 1-based position of the [[setup]] entry it came from
    seat: int | None = None  # the seat a per-seat step is for
    when: Condition | None = None  # still to be tested against the seat's deck headers


@dataclass(frozen=True, slots=True, kw_only=True)
class CreateDeck(Step):
    """Create the cards of ``seat``'s deck-list ``section`` in ``zone`` (in list order).

    ``section`` is a deck-list section ("main", "territories"...) or a header that names a
    card ("leader", "crown"...). ``cards`` is filled in when decks are given to expansion.
    """

    section: str
    zone: str
    face_up: bool
    side: str | None = None  # side up, for double-sided cards
    cards: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class CreateCards(Step):
    """Create fixed module cards (supplemental components) in ``zone``, owned by ``owner``."""

    zone: str
    cards: tuple[tuple[str, int], ...]
    face_up: bool
    side: str | None = None
    owner: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Shuffle(Step):
    zone: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Draw(Step):
    """Move the top ``count`` cards of ``from_zone`` to ``to_zone`` (a deal or a draw)."""

    from_zone: str
    to_zone: str
    count: int


@dataclass(frozen=True, slots=True, kw_only=True)
class SetCounter(Step):
    counter: str
    value: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Place(Step):
    """Put ``token`` (or die) in zone/slot ``at``; on a grid board, at ``cell`` (x, y)."""

    token: str
    at: str
    cell: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class PlaceTile(Step):
    """Lay ``tile`` in tile slot ``slot`` with ``side`` up, turned ``rotation`` degrees clockwise."""

    tile: str
    slot: str
    side: str
    rotation: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class SetSide(Step):
    """Turn a board (or every double-sided card in a zone) to ``side``."""

    target: str
    side: str


@dataclass(frozen=True, slots=True, kw_only=True)
class SetFace(Step):
    """Turn every card in ``zones`` face up (a reveal) or face down, all at once."""

    zones: tuple[str, ...]
    face_up: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class Rotate(Step):
    """Set the rotation of every card in ``zone`` (degrees clockwise, 0 = facing seat 1)."""

    zone: str
    degrees: int


@dataclass(frozen=True, slots=True, kw_only=True)
class FirstPlayer(Step):
    """Decide who takes the first turn.

    ``method`` "roll": every player rolls (their die from ``dice``, or the one shared die);
    highest (or lowest) wins; ties reroll if
    ``reroll_ties``. "random": the table picks a seat at random. If ``assigns_seats``, seats
    are numbered clockwise from the first player (seat 1 = first player), which is what later
    seat-dependent steps (starting Favor by seat...) count from.
    """

    method: Literal["roll", "random"]
    dice: tuple[str, ...] = ()  # the dice rolled ("roll"): one shared die, or one per seat
    highest_wins: bool = True
    reroll_ties: bool = True
    assigns_seats: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Prompt(Step):
    """A step players do by hand at the table (arrange, choose, place); shown as an instruction."""

    text: str


SetupStep = (CreateDeck | CreateCards | Shuffle | Draw | SetCounter | Place | PlaceTile
             | SetSide | SetFace | Rotate | FirstPlayer | Prompt)

# Field kinds drive both checking and expansion:
#   zone counter token board tile tileslot die: an id of that kind (templated with {seat})
#   str int bool face(up/down) cards({id: n} or [id]) cell([x, y]) method
FieldKind = str
STEP_FIELDS: dict[str, dict[str, tuple[FieldKind, bool]]] = {
    # kind: {field: (field kind, required)}
    "create_deck": {"section": ("section", True), "zone": ("zone", True),
                    "face": ("face", False), "side": ("str", False)},
    "create_cards": {"zone": ("zone", True), "cards": ("cards", True), "face": ("face", False),
                     "side": ("str", False), "owner": ("int", False)},
    "shuffle": {"zone": ("zone", True)},
    "draw": {"from": ("zone", True), "to": ("zone", True), "count": ("int", True)},
    "set_counter": {"counter": ("counter", True), "value": ("int", True)},
    "set_counters": {"counters": ("counter_list", False)},
    "place": {"token": ("token", True), "at": ("zone_or_board", True), "cell": ("cell", False)},
    "place_tile": {"tile": ("tile", True), "slot": ("tileslot", True), "side": ("str", True),
                   "rotation": ("int", False)},
    "set_side": {"target": ("board_or_zone", True), "side": ("str", True)},
    "reveal": {"zones": ("zone_list", True)},
    "hide": {"zones": ("zone_list", True)},
    "rotate": {"zone": ("zone", True), "degrees": ("int", True)},
    "first_player": {"method": ("method", True), "dice": ("die_list", False),
                     "highest_wins": ("bool", False), "reroll_ties": ("bool", False),
                     "assigns_seats": ("bool", False)},
    "prompt": {"text": ("str", True)},
}
COMMON_KEYS = ("do", "each_seat", "when", "note")


@dataclass(frozen=True, slots=True)
class StepTemplate:
    """A checked ``[[setup]]`` entry, before seat expansion."""

    index: int  # 1-based
    kind: str
    per_seat: bool
    values: Mapping[str, Any]  # field -> value as written (str may hold {seat})
    by_seat: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    by_seat_count: Mapping[str, Mapping[int, tuple[Any, ...]]] = field(default_factory=dict)
    when: Condition | None = None
    line: int = 0

    def value(self, name: str, seats: int, seat: int | None, default: Any = None) -> Any:
        """The value of field ``name`` for ``seat`` in a ``seats``-player game."""
        if seat is not None and name in self.by_seat_count and seats in self.by_seat_count[name]:
            return fill(self.by_seat_count[name][seats][seat - 1], seat)
        if seat is not None and name in self.by_seat:
            return fill(self.by_seat[name][seat - 1], seat)
        return fill(self.values.get(name, default), seat)


def fill(value: Any, seat: int | None) -> Any:
    """Replace ``{seat}`` in strings (recursively in lists and tables)."""
    if seat is None:
        return value
    if isinstance(value, str):
        return value.replace(SEAT, str(seat))
    if isinstance(value, list | tuple):
        return type(value)(fill(v, seat) for v in value)
    if isinstance(value, dict):
        return {fill(k, seat): fill(v, seat) for k, v in value.items()}
    return value


def card_counts(value: Any) -> tuple[tuple[str, int], ...]:
    """``{id: n}`` or ``[id, ...]`` as ((id, n), ...)."""
    if isinstance(value, dict):
        return tuple((str(k), int(v)) for k, v in value.items())
    if isinstance(value, list | tuple):
        return tuple((str(v), 1) for v in value)
    return ()


def build_step(t: StepTemplate, seats: int, seat: int | None,
               counter_starts: Mapping[str, int], counter_ids: list[str],
               deck: Deck | None, deck_section: Any) -> list[SetupStep]:
    """The concrete step(s) of template ``t`` for one seat (or the table, if seat is None)."""
    common: dict[str, Any] = {"step": t.index, "seat": seat, "when": t.when}

    def v(name: str, default: Any = None) -> Any:
        return t.value(name, seats, seat, default)

    k = t.kind
    if k == "create_deck":
        section = v("section")
        cards = deck_section(deck, section) if deck is not None else ()
        return [CreateDeck(**common, section=section, zone=v("zone"),
                           face_up=v("face", "down") == "up", side=v("side"), cards=cards)]
    if k == "create_cards":
        owner = v("owner", seat)
        return [CreateCards(**common, zone=v("zone"), cards=card_counts(v("cards")),
                            face_up=v("face", "up") == "up", side=v("side"), owner=owner)]
    if k == "shuffle":
        return [Shuffle(**common, zone=v("zone"))]
    if k == "draw":
        return [Draw(**common, from_zone=v("from"), to_zone=v("to"), count=v("count"))]
    if k == "set_counter":
        return [SetCounter(**common, counter=v("counter"), value=v("value"))]
    if k == "set_counters":
        wanted = v("counters")
        ids = list(wanted) if wanted else counter_ids
        return [SetCounter(**common, counter=c, value=counter_starts[c])
                for c in ids if c in counter_starts]
    if k == "place":
        cell = v("cell")
        return [Place(**common, token=v("token"), at=v("at"),
                      cell=(int(cell[0]), int(cell[1])) if cell else None)]
    if k == "place_tile":
        return [PlaceTile(**common, tile=v("tile"), slot=v("slot"), side=v("side"),
                          rotation=v("rotation", 0))]
    if k == "set_side":
        return [SetSide(**common, target=v("target"), side=v("side"))]
    if k in ("reveal", "hide"):
        return [SetFace(**common, zones=tuple(v("zones")), face_up=(k == "reveal"))]
    if k == "rotate":
        return [Rotate(**common, zone=v("zone"), degrees=v("degrees"))]
    if k == "first_player":
        return [FirstPlayer(**common, method=v("method"), dice=tuple(v("dice") or ()),
                            highest_wins=v("highest_wins", True),
                            reroll_ties=v("reroll_ties", True),
                            assigns_seats=v("assigns_seats", False))]
    if k == "prompt":
        return [Prompt(**common, text=v("text"))]
    raise ValueError(f"unknown step kind {k!r}")
