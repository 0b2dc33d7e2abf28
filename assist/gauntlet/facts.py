"""What the Gauntlet checks read from the table and the current turn, computed lazily per op.

Nothing here is kept between ops (the runner recomputes after rollbacks): `Facts` lives for one
`check` call. The layout (positions, ends, faction components) is derived once per game module
from its declarations, so a designer who edits game.toml changes what is read.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from assist.api import OpContext, journal_moves
from table.core.timeline import Record

MoveT = tuple[int, str, str | None, str | None]  # (record index, object, from, to)


@dataclass(slots=True)
class Layout:
    slots: tuple[str, ...]  # position index -> slot zone id
    territory: frozenset[int]
    final: dict[int, int]  # seat -> position of its final Territory
    side: dict[int, frozenset[int]]  # seat -> Territory positions at its end
    off: dict[int, int]  # seat -> its off-column position
    faction_parts: dict[str, str]  # per-seat template suffix ("command") -> faction
    slot_no: dict[str, int] = field(default_factory=dict)  # slot zone id -> its first index


_LAYOUTS: dict[int, Layout] = {}


def layout_of(module: Any) -> Layout:
    found = _LAYOUTS.get(id(module))
    if found is not None:
        return found
    board = next((b for b in module.boards if b.kind == "slots"), None)
    slots = tuple(s.id for s in board.slots) if board is not None else ()
    territory: set[int] = set()
    final: dict[int, int] = {}
    off: dict[int, int] = {}
    side: dict[int, set[int]] = {}
    if board is not None:
        for i, s in enumerate(board.slots):
            if "territory" in s.tags:
                territory.add(i)
                if s.seat is not None:
                    side.setdefault(s.seat, set()).add(i)
            if "final" in s.tags and s.seat is not None:
                final[s.seat] = i
            if "off-column" in s.tags and s.seat is not None:
                off[s.seat] = i
    parts: dict[str, str] = {}
    for decl in (*module.counters, *module.zones):
        when = decl.when
        if when is not None and when.header == "faction" and "{seat}" in decl.id:
            parts[decl.id.split(".", 1)[1]] = when.values[0]
    slot_no: dict[str, int] = {}
    for i, slot in enumerate(slots):
        slot_no.setdefault(slot, i)
    lay = Layout(slots, frozenset(territory), final,
                 {k: frozenset(v) for k, v in side.items()}, off, parts, slot_no)
    _LAYOUTS[id(module)] = lay
    return lay


@dataclass(slots=True)
class Battle:
    open_i: int
    attacker: int | None
    defender: int | None
    pos: int | None
    last_stand: bool
    close_i: int | None = None
    winner: int | None = None
    winner_i: int | None = None
    result: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class Decl:
    index: int
    name: str
    fields: dict[str, Any]
    seat: int | None


def moves_of(record: Record, index: int) -> list[MoveT]:
    return [(index, o, frm, to) for o, frm, to in journal_moves(record)]


class Facts:
    """Lazy, per-op view of the Gauntlet state for one check call."""

    def __init__(self, ctx: OpContext, start: int | None = None, *, at_end: bool = False) -> None:
        self.ctx = ctx
        self._start = start
        # where a window that closes now ends (exclusive): at the marker being checked, or
        # past the last op when the input ends after it
        self.stop = ctx.history.index + 1 if at_end else ctx.history.index
        self.v = ctx.view
        self.h = ctx.history
        self.game = ctx.game
        self.lay = layout_of(ctx.game.module)
        self._turn: list[Decl] | None = None
        self._steps: list[tuple[int, str]] | None = None
        self._battles: list[Battle] | None = None
        self._faction: dict[int, str | None] = {}
        self._step_nos: dict[str, int] | None = None  # phase name -> its first place
        self._names: dict[int, str] | None = None

    # -- parameters -------------------------------------------------------------------------
    def p(self, name: str, default: Any) -> Any:
        return self.game.param(name, default)

    @property
    def phases(self) -> list[str]:
        return list(self.p("phases", ["Capture", "Draw", "Action (before)", "Movement",
                                      "Action (after)", "Cleanup"]))

    def step_no(self, name: str | None) -> int | None:
        """0 Capture, 1 Draw, 2 AO before, 3 Movement, 4 AO after, 5 Cleanup."""
        if name is None:
            return None
        nos = self._step_nos
        if nos is None:  # asked several times per op: the phases are read once
            nos = self._step_nos = {}
            for i, phase in enumerate(self.phases):
                nos.setdefault(phase, i)  # as list.index: the first place a name holds
        return nos.get(name)

    @property
    def step(self) -> int | None:
        return self.step_no(self.v.phase)

    # -- seats ------------------------------------------------------------------------------
    @property
    def active(self) -> int | None:
        return self.v.turn[0]

    @property
    def seat(self) -> int | None:
        return self.ctx.seat

    @property
    def names(self) -> dict[int, str]:
        """Each seat as the table calls it (read once per check)."""
        if self._names is None:
            self._names = {n: name or f"Seat {n}" for n, name in self.v.seats.items()}
        return self._names

    def who(self, seat: int | None) -> str:
        """A seat as the table calls it (its player's name), as every message names players."""
        if seat is None:
            return "someone"
        return self.names.get(seat) or f"Seat {seat}"

    def other(self, seat: int | None) -> int | None:
        if seat is None:
            return None
        return 2 if seat == 1 else 1

    def faction(self, seat: int) -> str | None:
        if seat not in self._faction:
            found = None
            for part, faction in self.lay.faction_parts.items():
                if self.v.exists(f"p{seat}.{part}"):
                    found = faction
                    break
            if found is None:
                lead = self.leader_card(seat)
                found = lead.group if lead is not None else None
            self._faction[seat] = found
        return self._faction[seat]

    def leader_card(self, seat: int) -> Any:
        for cid in self.v.child_ids(f"p{seat}.leader", "card"):
            card = self.game.card(self.v.card_of(cid))
            if card is not None:
                return card
        return None

    def leader(self, seat: int) -> str | None:
        card = self.leader_card(seat)
        return card.id if card is not None else None

    # -- cards ------------------------------------------------------------------------------
    def card(self, obj_id: str) -> Any:
        return self.game.card(self.v.card_of(obj_id))

    def value(self, obj_id: str) -> int:
        card = self.card(obj_id)
        return card.number("value") if card is not None else 0

    # -- the Gauntlet -----------------------------------------------------------------------
    def pos_index(self, zone: str | None) -> int | None:
        return None if zone is None else self.lay.slot_no.get(zone)

    def parse_pos(self, value: Any) -> int | None:
        if isinstance(value, bool) or value is None:
            return None
        if isinstance(value, int):
            return value if 0 <= value < len(self.lay.slots) else None
        text = str(value)
        for i, s in enumerate(self.lay.slots):
            if text == s or text == s.rsplit(".", 1)[-1]:
                return i
        return None

    def token_pos(self, seat: int | None) -> int | None:
        if seat is None:
            return None
        return self.pos_index(self.v.zone_of(f"p{seat}.token"))

    def territory_at(self, pos: int) -> str | None:
        ids = self.v.child_ids(self.lay.slots[pos], "card")
        for cid in ids:
            card = self.card(cid)
            if card is None or card.type == "Territory":
                return cid
        return ids[0] if ids else None

    def overlays_at(self, pos: int) -> list[str]:
        terr = self.territory_at(pos)
        out = [c for c in self.v.child_ids(self.lay.slots[pos], "card") if c != terr]
        if terr is not None:
            out += self.v.child_ids(terr, "card")
        return out

    def facing(self) -> list[int]:
        return list(self.p("facing", [0, 180]))

    def seat_facing(self, rotation: int) -> int | None:
        f = self.facing()
        return f.index(rotation) + 1 if rotation in f else None

    def controller(self, pos: int) -> int | None:
        terr = self.territory_at(pos)
        return None if terr is None else self.seat_facing(self.v.rotation(terr))

    def controlled(self, seat: int) -> int:
        return sum(1 for p in self.lay.territory if self.controller(p) == seat)

    def territories_in_gauntlet(self) -> int:
        return sum(1 for p in self.lay.territory if self.territory_at(p) is not None)

    def toward_home(self, seat: int) -> int:
        """-1 or +1: the direction of `seat`'s own end."""
        return -1 if self.lay.off.get(seat, 0) < len(self.lay.slots) // 2 else 1

    def is_token(self, obj_id: str) -> int | None:
        if obj_id.startswith("p") and obj_id.endswith(".token"):
            try:
                return int(obj_id[1:-6])
            except ValueError:
                return None
        return None

    # -- this turn's markers (marks only: cheap) ---------------------------------------------
    def _scan(self) -> None:
        start = self.h.current_turn_start() if self._start is None else self._start
        decls: list[Decl] = []
        steps: list[tuple[int, str]] = []
        records = self.h.records
        for i in self.h.mark_indices():
            if i < start:
                break
            rec = records[i]
            if rec.void is not None or (self._start is not None and i >= self.h.index):
                continue
            a = rec.op.args
            what = a.get("what")
            if what == "declare":
                f = a.get("fields") or {}
                seat = f.get("seat") if isinstance(f.get("seat"), int) else self.h.seat_of(rec)
                decls.append(Decl(i, str(a.get("value")), f, seat))
            elif what in ("phase", "step"):
                steps.append((i, str(a.get("value"))))
        decls.reverse()
        steps.reverse()
        self._turn, self._steps = decls, steps

    @property
    def decls(self) -> list[Decl]:
        if self._turn is None:
            self._scan()
        assert self._turn is not None
        return self._turn

    @property
    def steps(self) -> list[tuple[int, str]]:
        if self._steps is None:
            self._scan()
        assert self._steps is not None
        return self._steps

    def decl(self, *names: str, since: int = 0, before: int | None = None,
             seat: int | None = None) -> list[Decl]:
        end = self.h.index + 1 if before is None else before
        return [d for d in self.decls if d.name in names and since <= d.index < end
                and (seat is None or d.seat == seat)]

    def step_start(self) -> int:
        """Index of the current step marker (or the turn marker)."""
        return self.steps[-1][0] if self.steps else self.h.current_turn_start()

    def step_at(self, index: int) -> int | None:
        name = None
        for i, s in self.steps:
            if i > index:
                break
            name = s
        return self.step_no(name)

    @property
    def battles(self) -> list[Battle]:
        if self._battles is None:
            out: list[Battle] = []
            for d in self.decls:
                f = d.fields
                if d.name == "battle-open":
                    att = f.get("attacker", d.seat)
                    att = att if isinstance(att, int) else d.seat
                    de = f.get("defender")
                    de = de if isinstance(de, int) else self.other(att)
                    out.append(Battle(d.index, att, de, self.parse_pos(f.get("position")),
                                      bool(f.get("last_stand", False))))
                elif out and out[-1].close_i is None:
                    if d.name == "battle-winner":
                        w = f.get("winner")
                        out[-1].winner = w if isinstance(w, int) else None
                        out[-1].winner_i = d.index
                        out[-1].result = dict(f)
                    elif d.name == "battle-close":
                        out[-1].close_i = d.index
            self._battles = out
        return self._battles

    @property
    def battle(self) -> Battle | None:
        """The open battle, if any."""
        b = self.battles
        return b[-1] if b and b[-1].close_i is None else None

    def battle_at(self, index: int) -> Battle | None:
        for b in self.battles:
            if b.open_i <= index and (b.close_i is None or index <= b.close_i):
                return b
        return None

    def won_this_turn(self, seat: int, before: int | None = None) -> list[Battle]:
        end = self.h.index if before is None else before
        return [b for b in self.battles if b.winner == seat and b.winner_i is not None
                and b.winner_i <= end]

    # -- records in a window (journals: only on demand) --------------------------------------
    def moves_between(self, start: int, end: int | None = None) -> list[MoveT]:
        records = self.h.records
        stop = self.h.index if end is None else end
        out: list[MoveT] = []
        for i in range(max(start, 0), stop + 1):
            rec = records[i]
            if rec.void is None and rec.op.kind in ("move", "consume", "create", "delete"):
                out.extend(moves_of(rec, i))
        return out

    def counter_at(self, obj_id: str, index: int, key: str = "value") -> int | None:
        """A counter's value just before record `index` (from the journals after it)."""
        records = self.h.records
        for i in range(index, self.h.index + 1):
            for entry in records[i].journal.entries:
                if entry[0] == "c" and entry[1].id == obj_id and entry[2] == key:
                    old = entry[3]
                    return old if isinstance(old, int) else 0
        return self.v.counter(obj_id, key)

    def rolls_between(self, start: int, end: int | None = None) -> list[tuple[int, int | None,
                                                                            list[int]]]:
        records = self.h.records
        stop = self.h.index if end is None else end
        out = []
        for i in range(max(start, 0), stop + 1):
            rec = records[i]
            if rec.void is None and rec.op.kind == "roll":
                out.append((i, self.h.seat_of(rec), list(rec.op.args["values"])))
        return out
