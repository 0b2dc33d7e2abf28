"""Reading Dead to Rites concepts off the table and the history (stateless helpers).

Zones and counters have the module's readable ids: pN.deck, pN.hand, pN.discard, pN.play,
pN.rites, pN.completed, pN.crown, pN.pacts, altar, defense-pool; pN.favor, pN.step.
A Champion is ready at rotation 0 and engaged otherwise.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from assist.api import AssistView, GameInfo, OpContext, counter_delta, journal_moves
from table.core.timeline import Record
from table.games.model import Card
from table.games.rule_sources import effective

ALTAR = "altar"
POOL = "defense-pool"


def zone_seat(zone_id: str | None) -> int | None:
    """3 for "p3.hand"; None for shared zones."""
    if not zone_id or zone_id[0] != "p":
        return None
    head, _, _ = zone_id.partition(".")
    return int(head[1:]) if head[1:].isdigit() else None


def zone_kind(zone_id: str | None) -> str | None:
    """"hand" for "p3.hand", "altar" for "altar"."""
    if not zone_id:
        return None
    _head, dot, tail = zone_id.partition(".")
    return tail if dot and zone_seat(zone_id) is not None else zone_id


def z(seat: int, kind: str) -> str:
    return f"p{seat}.{kind}"


class Dtr:
    """Dead to Rites reading helpers over one OpContext."""

    __slots__ = ("ctx", "game", "history", "names", "records", "seat_ids", "stop", "view")

    def __init__(self, ctx: OpContext, *, at_end: bool = False) -> None:
        self.ctx = ctx
        self.view = ctx.view
        self.game = ctx.game
        self.history = ctx.history
        self.records = ctx.history.records
        self.seat_ids: list[int] | None = None  # the seats don't change while one op is judged
        self.names: dict[int, str] | None = None
        # where a window that closes now ends (exclusive): at the op being checked (a marker
        # closes the window before it), or past it when the input ends after it
        self.stop = ctx.index + 1 if at_end else ctx.index

    # -- cards -------------------------------------------------------------------------------
    @classmethod
    def of_table(cls, view: AssistView, game: GameInfo) -> Dtr:
        """The helpers that read only the table (a condition flag's re-check has no op)."""
        d = cls.__new__(cls)
        d.view, d.game, d.seat_ids, d.names = view, game, None, None
        return d

    def who(self, seat: int | None) -> str:
        """A seat as the table calls it (its player's name), as every message names players."""
        if seat is None:
            return "someone"
        if self.names is None:
            self.names = self.view.seats
        return self.names.get(seat) or f"Seat {seat}"

    def whose(self, obj_id: str | None) -> str:
        """A card as a message names it: its owner's name and its own ("Ember's Brand Guard")."""
        if not obj_id:
            return "a card"
        owner = self.view.owner_of(obj_id)
        name = self.name(obj_id)
        return f"{self.who(owner)}'s {name}" if owner is not None else name

    def owned(self, objs: list[str]) -> str:
        """Cards grouped by owner: "Ember's Brand Guard and Cutpurse, Choir's Dirge Adept"."""
        groups: dict[int | None, list[str]] = {}
        for obj in objs:
            groups.setdefault(self.view.owner_of(obj), []).append(self.name(obj))
        return ", ".join((f"{self.who(owner)}'s " if owner is not None else "")
                         + " and ".join(names) for owner, names in groups.items())

    def place(self, zone_id: str | None) -> str:
        """A zone as a message names it ("Market's discard pile", "the Altar")."""
        if not zone_id:
            return "nowhere"
        seat = zone_seat(zone_id)
        label = str(self.view.prop(zone_id, "name", zone_kind(zone_id) or zone_id)).lower()
        if seat is None:
            return f"the {label}" if label != "altar" else "the Altar"
        return f"{self.who(seat)}'s {label}"

    def ref(self, index: int) -> tuple[str, int]:
        """The (author, seq) of the op at `index`: the op a verdict given later judges."""
        op = self.records[index].op
        return (op.author, op.seq)

    def card(self, obj_id: str) -> Card | None:
        return self.game.card(self.view.card_of(obj_id))

    def name(self, obj_id: str) -> str:
        card = self.card(obj_id)
        return card.name if card is not None else "a hidden card"

    def is_type(self, obj_id: str, kind: str) -> bool:
        card = self.card(obj_id)
        return card is not None and card.type == kind

    def champions(self, seat: int) -> list[str]:
        return [c for c in self.view.child_ids(z(seat, "play"), "card")
                if self.is_type(c, "Champion")]

    def all_champions(self) -> Iterator[tuple[int, str]]:
        for seat in self.seats():
            for c in self.champions(seat):
                yield seat, c

    def ready(self, obj_id: str) -> bool:
        return self.view.rotation(obj_id) % 360 == 0

    def damage(self, obj_id: str) -> int:
        return (self.view.counter(obj_id, "damage") or 0) + (
            self.view.counter(obj_id, "poison-damage") or 0)

    # -- seats, crowns, numbers ------------------------------------------------------------
    def seats(self) -> list[int]:
        if self.seat_ids is None:
            self.seat_ids = sorted(self.view.seats) or list(range(1, self.game.seats + 1))
        return self.seat_ids

    def crown(self, seat: int) -> Card | None:
        for c in self.view.child_ids(z(seat, "crown"), "card"):
            card = self.card(c)
            if card is not None and card.type == "Crown":
                return card
        return None

    def crown_number(self, seat: int, rule: str, default: int) -> int:
        """A [rules] number as it applies to the seat's Crown, in the module in force at this
        op (the Crown's column wins where [rules.overrides] says so and the Crown gives one)."""
        return int(effective(self.game.module, rule, self.crown(seat), default))

    def favor_cap(self, seat: int) -> int:
        return self.crown_number(seat, "favor_cap", 6)

    def blocked_draw(self, seat: int) -> int:
        return self.crown_number(seat, "blocked_draw", 2)

    def favor(self, seat: int) -> int:
        return self.view.counter(z(seat, "favor")) or 0

    def step(self, seat: int) -> int:
        return self.view.counter(z(seat, "step")) or 0

    def completed(self, seat: int) -> int:
        return self.view.count(z(seat, "completed"))

    def p(self, name: str, default: Any) -> Any:
        return self.game.param(name, default)

    # -- phases ------------------------------------------------------------------------------
    def phase_named(self, value: Any, which: str) -> bool:
        """Is `value` the phase this module calls `which` ("dawn", "combat", "dusk")?"""
        return isinstance(value, str) and value.strip().casefold() == which

    @property
    def active(self) -> int | None:
        return self.view.turn[0]

    # -- history -----------------------------------------------------------------------------
    def mark_before(self, index: int, whats: tuple[str, ...]) -> int | None:
        """Index of the latest effective mark of these kinds strictly before `index`."""
        records = self.records
        for i in self.history.mark_indices():
            if i >= index:
                continue
            rec = records[i]
            if rec.void is None and rec.op.args.get("what") in whats:
                return i
        return None

    def window_before(self, index: int) -> tuple[int, str | None, int | None]:
        """The timing window that ends at `index`: (start, its phase, the active seat)."""
        start = self.mark_before(index, ("turn", "phase", "step"))
        if start is None:
            return 0, None, None
        rec = self.records[start]
        phase = rec.op.args.get("value") if rec.op.args.get("what") != "turn" else None
        turn = self.mark_before(start + 1, ("turn",))
        active = self.records[turn].op.args.get("seat") if turn is not None else None
        return start, phase, active

    def range(self, start: int, stop: int) -> Iterator[tuple[int, Record]]:
        records = self.records
        for i in range(max(start, 0), stop):
            rec = records[i]
            if rec.void is None:
                yield i, rec

    def _declares(self, start: int, stop: int) -> Iterator[tuple[int, Record]]:
        """Every effective declaration in [start, stop), newest first (the marker index)."""
        records = self.records
        for i in self.history.mark_indices():
            if i < start:
                break
            if i >= stop:
                continue
            rec = records[i]
            if rec.void is None and rec.op.args.get("what") == "declare":
                yield i, rec

    def declarations_by_name(self, start: int, stop: int) -> dict[str, list[tuple[int, Record]]]:
        """Every effective declaration in [start, stop), by name, oldest first (one scan)."""
        out: dict[str, list[tuple[int, Record]]] = {}
        for i, rec in self._declares(start, stop):
            out.setdefault(str(rec.op.args.get("value")), []).append((i, rec))
        for found in out.values():
            found.reverse()
        return out

    def declarations(self, name: str, start: int, stop: int) -> list[tuple[int, Record]]:
        out = [(i, rec) for i, rec in self._declares(start, stop)
               if rec.op.args.get("value") == name]
        out.reverse()
        return out

    def draws(self, seat: int, start: int, stop: int) -> int:
        """Cards that went from pN.deck into pN.hand in [start, stop)."""
        deck, hand = z(seat, "deck"), z(seat, "hand")
        n = 0
        for _i, rec in self.range(start, stop):
            if rec.op.kind not in ("consume", "move"):
                continue
            moves = journal_moves(rec)  # a draw re-handles the whole hand: count what left the deck
            if any(dst == hand for _o, _s, dst in moves):
                n += sum(1 for _o, src, _d in moves if src == deck)
        return n

    def left_to_draw(self, seat: int, before: int) -> int:
        """Cards in the seat's deck and discard pile just before op `before` (what a draw could
        still take, the discard pile shuffled into a new deck: AMB-DTR-05), counted back from
        the table as it stands at the op being judged."""
        piles = (z(seat, "deck"), z(seat, "discard"))
        n = sum(self.view.count(p) for p in piles)
        for _i, rec in self.range(before, self.ctx.index + 1):
            for _o, src, dst in journal_moves(rec):
                n += (src in piles) - (dst in piles)
        return n

    def short_draw_ok(self, seat: int, drew: int, need: int, until: int) -> bool:
        """Fewer cards drawn than asked is right when nothing was left to draw by op `until`
        (deck and discard pile both empty: a player draws what there is)."""
        return drew < need and self.left_to_draw(seat, until) == 0

    def favor_gain(self, seat: int, start: int, stop: int) -> tuple[int, int]:
        """(sum of increases, sum of decreases) of pN.favor in [start, stop)."""
        fid = z(seat, "favor")
        up = down = 0
        for _i, rec in self.range(start, stop):
            if rec.op.kind == "counter" and rec.op.args.get("id") == fid:
                d = counter_delta(rec, fid)
                if d > 0:
                    up += d
                else:
                    down -= d
        return up, down

    def moved_in(self, zone: str, start: int, stop: int) -> list[tuple[int, Record, str]]:
        """(index, record, object) for objects that entered `zone` in [start, stop)."""
        out = []
        for i, rec in self.range(start, stop):
            if rec.op.kind in ("move", "consume", "create"):
                for obj, _src, dst in journal_moves(rec):
                    if dst == zone:
                        out.append((i, rec, obj))
        return out

    def seat_of(self, rec: Record) -> int | None:
        return self.history.seat_of(rec)

    def field(self, rec: Record, name: str) -> Any:
        fields = rec.op.args.get("fields") or {}
        return fields.get(name)

    def seat_field(self, rec: Record, name: str) -> int | None:
        """A declaration field naming a seat: 3, "3", "p3" or "Player 3"."""
        value = self.field(rec, name)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, str):
            text = value.strip().casefold()
            for prefix in ("player", "seat", "p"):
                if text.startswith(prefix):
                    text = text[len(prefix):].strip()
            if text.isdigit():
                return int(text)
        return None


def resolve(d: Dtr, value: object) -> str | None:
    """A declaration field naming an object: its id, or "ZONE:Card Name" (topmost match)."""
    if not isinstance(value, str) or not value:
        return None
    if d.view.exists(value):
        return value
    zone, sep, name = value.partition(":")
    if not sep:
        return None
    key = name.strip().casefold()
    for obj_id in reversed(d.view.child_ids(zone, "card")):
        card = d.card(obj_id)
        if card is not None and (card.name.casefold() == key or card.id == name):
            return obj_id
    return None
