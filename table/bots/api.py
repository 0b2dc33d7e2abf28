"""The bot API: what a bot sees (`SeatView`: exactly its seat's view of the table, the module's
data, the log as ops every peer receives, and the assist's verdicts on its own moves) and how it
answers (`Bot.act`: JSON op entries, performed one by one as a person's gestures are).

A bot is a player without hands. It never reads the replica itself: every card identity it
learns comes through `table.core.views.known_card` for its seat, so a bot in a hot-seat batch
(where one replica holds every seat's secrets) knows no more than a bot in its own headless peer
at a LAN table. docs/bots.md is the guide.
"""
from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from table.core.views import known_card

if TYPE_CHECKING:
    from assist.view import AssistView
    from table.core.replica import Replica
    from table.games.model import Card
    from table.games.module import GameModule

    from .effects import Effect
    from .strategy import Strategy

API_VERSION = 1
Entry = dict[str, Any]  # one op in the JSON form of table.core.jsonform
Decision = Iterator[Entry]  # performed one by one; the view reads the table after each


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One op of the log as every peer receives it (public arguments only)."""

    index: int
    kind: str
    seat: int | None
    args: Mapping[str, Any]

    def declared(self) -> str | None:
        """The declaration's name, for a `mark` op with what="declare"."""
        if self.kind == "mark" and self.args.get("what") == "declare":
            value = self.args.get("value")
            return value if isinstance(value, str) else None
        return None

    @property
    def fields(self) -> Mapping[str, Any]:
        fields = self.args.get("fields")
        return fields if isinstance(fields, Mapping) else {}


@dataclass(frozen=True, slots=True)
class Verdict:
    """A flag the rules assist raised on one of this seat's own moves."""

    rule: str
    severity: str
    op_index: int


class SeatView:
    """The table as one seat may see it, read-only; the single door a bot looks through."""

    __slots__ = ("_marks", "_r", "_verdicts", "module", "seat")

    def __init__(self, replica: Replica, module: GameModule, seat: int,
                 verdicts: Callable[[int], list[Verdict]] | None = None) -> None:
        self._r = replica
        self.module = module
        self.seat = seat
        self._verdicts = verdicts
        self._marks: tuple[int, list[LogEntry]] | None = None

    # -- the module's data ------------------------------------------------------------------
    @property
    def rules(self) -> Mapping[str, Any]:
        return self.module.rules

    def rule(self, name: str, default: Any = None) -> Any:
        return self.module.rules.get(name, default)

    def card_data(self, card_id: str | None) -> Card | None:
        return self.module.cards.get(card_id) if card_id else None

    # -- objects, as this seat sees them -----------------------------------------------------
    def exists(self, obj_id: str) -> bool:
        return self._r.state.live(obj_id) is not None

    def ids(self, zone: str) -> list[str]:
        """The cards in a zone, bottom -> top (handles: what every peer sees)."""
        obj = self._r.state.live(zone)
        return self._r.state.cards_in(obj) if obj is not None else []

    def count(self, zone: str) -> int:
        return len(self.ids(zone))

    def card_id(self, obj_id: str) -> str | None:
        """The card a card object is, when this seat may know it (else None)."""
        obj = self._r.state.objs.get(obj_id)
        if obj is None or obj.kind != "card":
            return None
        return known_card(self._r.state, self._r.knowledge, obj, self.seat)

    def card(self, obj_id: str) -> Card | None:
        """The module's data of a card object this seat may know."""
        return self.card_data(self.card_id(obj_id))

    def known(self, zone: str) -> list[tuple[str, Card]]:
        """(handle, card) for every card of a zone this seat may know, bottom -> top."""
        out = []
        for handle in self.ids(zone):
            card = self.card(handle)
            if card is not None:
                out.append((handle, card))
        return out

    def place(self, obj_id: str) -> tuple[str | None, tuple[float, ...] | None]:
        obj = self._r.state.live(obj_id)
        return (None, None) if obj is None else (obj.container, obj.pos)

    def rotation(self, obj_id: str) -> int:
        obj = self._r.state.live(obj_id)
        return 0 if obj is None else obj.rotation % 360

    def face_up(self, obj_id: str) -> bool:
        obj = self._r.state.live(obj_id)
        return obj is not None and obj.face_up

    def owner(self, obj_id: str) -> int | None:
        obj = self._r.state.objs.get(obj_id)
        return None if obj is None else obj.owner

    def counter(self, obj_id: str, key: str = "value") -> int:
        obj = self._r.state.live(obj_id)
        return 0 if obj is None else int(obj.counters.get(key, 0))

    def prop(self, obj_id: str, key: str, default: Any = None) -> Any:
        obj = self._r.state.live(obj_id)
        return default if obj is None else obj.props.get(key, default)

    # -- turn, phase and the log ------------------------------------------------------------
    @property
    def seats(self) -> list[int]:
        return sorted(self._r.state.seats)

    @property
    def turn_seat(self) -> int | None:
        seat = self._r.state.turn.get("seat")
        return seat if isinstance(seat, int) else None

    @property
    def turn_number(self) -> int:
        return int(self._r.state.turn.get("number", 0))

    @property
    def phase(self) -> str | None:
        return self._r.state.phase

    @property
    def ended(self) -> bool:
        """The game's result is recorded (an `end` op)."""
        return any(rec.op.kind == "end" and rec.void is None
                   for rec in reversed(self._r.records()[-8:]))

    def log_size(self) -> int:
        return len(self._r.records())

    def log(self, since: int = 0) -> list[LogEntry]:
        """The applied ops from index `since` on (void ones left out), as every peer has them."""
        records = self._r.records()
        return [LogEntry(i, rec.op.kind, rec.op.seat, rec.op.args)
                for i in range(max(0, since), len(records))
                if (rec := records[i]).void is None]

    def turn_log(self) -> list[LogEntry]:
        """The marks (turn, phase, declarations, winner) of the current turn, in order,
        from its turn marker on; cached until the log grows."""
        records = self._r.records()
        if self._marks is not None and self._marks[0] == len(records):
            return self._marks[1]
        start = 0
        for i in range(len(records) - 1, -1, -1):
            rec = records[i]
            if rec.void is None and rec.op.kind == "mark" and rec.op.args.get("what") == "turn":
                start = i
                break
        marks = [LogEntry(i, rec.op.kind, rec.op.seat, rec.op.args)
                 for i in range(start, len(records))
                 if (rec := records[i]).void is None and rec.op.kind in ("mark", "roll", "end")]
        self._marks = (len(records), marks)
        return marks

    def assist_view(self) -> AssistView:
        """The same seat's view in the rules assist's reading API (its board and geometry
        helpers take one): built on table.core.views like this one."""
        from assist.view import AssistView

        return AssistView(self._r.state, self._r.knowledge, self.seat)

    def verdicts(self) -> list[Verdict]:
        """The rules assist's flags on this seat's own moves (none when no assist runs)."""
        return self._verdicts(self.seat) if self._verdicts is not None else []


class Bot(ABC):
    """A player without hands: reads its `SeatView`, answers with JSON op entries.

    `act` is asked whenever the table changes (or, in a batch, whenever the game's flow says
    this seat is to move). It yields nothing when there is nothing for its seat to do; else
    the entries of its next decision, each performed before the next is asked for, so a
    generator may read the table again after each one (a draw's new cards, say)."""

    name = "bot"
    game = ""  # the game module id it plays ("" = any)
    strength = ""  # "random", "heuristic", ... (shown to players and in reports)

    def __init__(self, seed: int | str = 0, strategy: Strategy | None = None,
                 effects: Mapping[str, list[Effect]] | None = None) -> None:
        self.rnd = random.Random(f"{self.name}:{seed}")
        self.strategy = strategy
        self.effects: Mapping[str, list[Effect]] = effects or {}

    @abstractmethod
    def wants_to_act(self, view: SeatView) -> bool:
        """Whether the table waits for this seat now (read from the table alone)."""

    @abstractmethod
    def act(self, view: SeatView) -> Decision:
        """The entries of this seat's next decision (none: nothing to do)."""

    def unresolved(self) -> set[str]:
        """Card ids whose text this bot met and did not resolve (for the simulation report)."""
        return set()

    def waiting_for(self, view: SeatView) -> tuple[int, str] | None:
        """The seat the table waits for now, as this bot reads the game's flow, and what for
        in a player's words ("to commit to the Defense Pool or pass"): what a table with
        people at it tells the person its bots wait for. None: nothing (the game is over)."""
        if view.ended or view.turn_seat is None:
            return None
        return view.turn_seat, "to play the turn"


__all__ = ["API_VERSION", "Bot", "Decision", "Entry", "LogEntry", "SeatView", "Verdict"]
