"""The rules-assist plugin API (version 1): what a game's plugin sees and what it returns.

A plugin is a pure function of an `OpContext`: after every op the timeline applies (in canonical
order, void ops included), the runner calls `Plugin.check(ctx)` and keeps the flags it returns
under the op each one judges; on the setup-complete marker it also calls
`Plugin.check_setup(ctx)`. After a rollback the runner throws away what the taken-back ops
raised and asks again, so a plugin must never keep state between calls. Flags never block
anything.

A verdict may wait on later ops (a payment made right after a play, a timing window): the plugin
returns a `Pending` for the op it judges, sees it again in `ctx.pending` at every later op, and
settles it with a `Flag` naming that op first in `ops` or with `Settled`. The end of the input
closes every window (`Plugin.settle`).

Everything a plugin reads goes through `AssistView` (built on `table.core.views`, so hidden
information stays hidden from a seat's assist; in assist/view.py) and `History` (the records
applied so far; in assist/history.py), both importable from here.
Rule numbers come from the game module (`GameInfo.param`), never from constants in the plugin.
See docs/assist/plugin-guide.md.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from table.core.ops import Op
from table.core.timeline import Record
from table.core.views import ALL

from .history import WINDOW_MARKS, History
from .view import AssistView

if TYPE_CHECKING:
    from table.games.model import Card
    from table.games.module import GameModule

API_VERSION = 1
Severity = Literal["error", "warning"]
OpRef = tuple[str, int]

# The declaration every plugin understands: "a card effect allows what comes next". It excuses E*
# rules (errors unless excused) in the same timing window: they are reported as warnings.
CARD_EFFECT = "card-effect"
# Reasons an `ack` op may give.
ACK_REASONS = ("card effect", "house rule")


def flag_key(rule: str, ref: OpRef) -> str:
    """The stable id of a flag, used by `ack` ops: rule id @ the triggering op's author:seq."""
    return f"{rule}@{ref[0]}:{ref[1]}"


@dataclass(frozen=True, slots=True)
class Flag:
    """A move that looks illegal. `ops[0]` is the op it judges: a plugin names it first when it
    gives its verdict later (a payment's entry, an attack whose window closed); otherwise the
    runner puts the op being checked there."""

    rule: str  # rule id as in rules-catalogue.md, e.g. "DTR-FAVOR-CAP"
    severity: Severity
    message: str  # what a player understands: what happened and what the rule says
    section: str  # rulebook section, e.g. "Turn structure"
    ops: tuple[OpRef, ...] = ()
    objects: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        """Stable id for acknowledgements (needs the triggering op: the runner puts it first)."""
        if not self.ops:
            raise ValueError(f"flag {self.rule} has no triggering op yet")
        return flag_key(self.rule, self.ops[0])


@dataclass(frozen=True, slots=True)
class Pending:
    """A verdict on the op `on` that waits on later ops: what the table shows so far (e.g.
    "Ashen Colossus played, unpaid so far"). The panel shows it at once, muted; it is never
    logged, counted or printed by `check`. The plugin finds it again in `ctx.pending` (by
    `key`) at every later op it is asked about and settles it there: a `Flag` judging the same
    op under the same rule, or `Settled`. A new `Pending` under the same key replaces it (the
    payment so far changed); `shown=False` keeps it open with nothing to show (paid in full so
    far). `data` is the plugin's own record of the move as it was made (what it judges later
    without reading the table again)."""

    rule: str
    severity: Severity
    message: str
    section: str
    on: OpRef
    objects: tuple[str, ...] = ()
    shown: bool = True
    data: Any = field(default=None, compare=False)

    @property
    def key(self) -> str:
        return flag_key(self.rule, self.on)


@dataclass(frozen=True, slots=True)
class Settled:
    """A pending verdict (by key) closed with nothing to flag."""

    key: str


Verdict = Flag | Pending | Settled


@dataclass(frozen=True, slots=True)
class RuleInfo:
    """One rule a plugin checks (for docs and the panel)."""

    rule: str
    severity: Severity  # the rule's nominal severity; E* rules are "error" (downgraded if excused)
    section: str
    summary: str


@dataclass(frozen=True, slots=True)
class DeclarationSpec:
    """A declaration the plugin understands: the UI offers it as a `mark` op,
    what="declare", value=name, fields={field: ...}."""

    name: str
    label: str
    fields: tuple[str, ...] = ()


CARD_EFFECT_SPEC = DeclarationSpec(CARD_EFFECT, "Card effect (excuses this timing window)",
                                   ("card",))


# ---------------------------------------------------------------------------------------------
_MISSING = object()  # a [rules] path the module does not have


@dataclass(slots=True)
class GameInfo:
    module: GameModule
    seats: int
    # path -> what `param` found there (a module's rules never change: a new module is a new
    # GameInfo), so a rule number asked at every op is looked up once
    _found: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def param(self, path: str, default: Any = None) -> Any:
        """A rule number from the module's game.toml [rules], by dotted path ("starter_deck.aces")."""
        node = self._found.get(path, _MISSING)
        if node is _MISSING:
            node = self._found[path] = self._lookup(path)
        return default if node is _MISSING else node

    def _lookup(self, path: str) -> Any:
        node: Any = self.module.rules
        for part in path.split("."):
            if not isinstance(node, Mapping) or part not in node:
                return _MISSING
            node = node[part]
        return node

    def card(self, card_id: str | None) -> Card | None:
        if card_id is None:
            return None
        return self.module.cards.get(card_id)


@dataclass(slots=True)
class OpContext:
    op: Op
    record: Record
    view: AssistView
    history: History
    game: GameInfo
    excused: bool = False  # a card-effect declaration was made in this timing window
    # the verdicts still open before this op, by key (read-only: the runner keeps them)
    pending: Mapping[str, Pending] = field(default_factory=dict)
    _moves: list[tuple[str, str | None, str | None]] | None = field(default=None, repr=False)

    @property
    def index(self) -> int:
        return self.history.index

    @property
    def ref(self) -> OpRef:
        return (self.op.author, self.op.seq)

    @property
    def seat(self) -> int | None:
        """The seat the op was made as."""
        return self.history.seat_of(self.record)

    @property
    def void(self) -> bool:
        return self.record.void is not None

    def severity(self, nominal: Severity = "error") -> Severity:
        """For E* rules: "error" unless excused by a card-effect declaration, then "warning"."""
        return "warning" if self.excused else nominal

    # -- what the op did, read from its journal (empty for a void op) ---------------------
    def moves(self) -> list[tuple[str, str | None, str | None]]:
        """(object, from container, to container) for every object this op placed, removed
        or created; re-handled cards appear as (old, zone, None) and (new, None, zone)."""
        if self._moves is None:
            self._moves = journal_moves(self.record)
        return self._moves

    def counter_before(self, obj_id: str, key: str = "value") -> int | None:
        """A counter's value before this op, if this op changed it (else its current value)."""
        for entry in self.record.journal.entries:
            if entry[0] == "c" and entry[1].id == obj_id and entry[2] == key:
                old = entry[3]
                return old if isinstance(old, int) else None
        return self.view.counter(obj_id, key)

    def field_before(self, obj_id: str, name: str) -> Any:
        """An object field (rotation, face_up, card...) before this op."""
        for entry in self.record.journal.entries:
            if entry[0] == "f" and entry[1].id == obj_id and entry[2] == name:
                return entry[3]
        return self.view.raw_field(obj_id, name)

    def flag(self, rule: str, severity: Severity, message: str, section: str,
             objects: Sequence[str] = (), ops: Sequence[OpRef] = ()) -> Flag:
        """Build a flag (the runner adds this op as ops[0] when `ops` names none)."""
        return Flag(rule, severity, message, section, tuple(ops), tuple(objects))

    def ref_at(self, index: int) -> OpRef:
        """The (author, seq) of the record at `index` (an earlier op a verdict judges)."""
        op = self.history.records[index].op
        return (op.author, op.seq)


def journal_moves(record: Record) -> list[tuple[str, str | None, str | None]]:
    """(object, from container, to container) for every object an applied op placed, removed or
    created (empty for a void op). A card re-handled into a hidden zone shows as (old, zone,
    None) and (new, None, zone): hidden cards change handles when they move."""
    removed: dict[str, str] = {}
    inserted: dict[str, str] = {}
    order: list[str] = []  # each object once, in the order the journal first names it
    for entry in record.journal.entries:
        tag = entry[0]
        if tag == "rm":
            oid = entry[3]
            if oid not in removed:
                if oid not in inserted:
                    order.append(oid)
                removed[oid] = entry[1].id
        elif tag == "ins":
            oid = entry[3]
            if oid not in inserted and oid not in removed:
                order.append(oid)
            inserted[oid] = entry[1].id
    get_removed, get_inserted = removed.get, inserted.get
    return [(o, frm, to) for o in order if (frm := get_removed(o)) != (to := get_inserted(o))]


def counter_delta(record: Record, obj_id: str, key: str = "value") -> int:
    """How much an applied `counter` op changed one counter (0 for other ops or objects)."""
    op = record.op
    if record.void is not None or op.kind != "counter" or op.args.get("id") != obj_id:
        return 0
    if (op.args.get("key") or "value") != key:
        return 0
    if op.args.get("add") is not None:
        return int(op.args["add"])
    for entry in record.journal.entries:
        if entry[0] == "c" and entry[2] == key:
            old = entry[3] if isinstance(entry[3], int) else 0
            return int(op.args["value"]) - old
    return 0


class Plugin(ABC):
    """One game's checks. Subclass, and expose an instance as `plugin` in the package; register
    it under the entry-point group `sandtable.assist`."""

    game_id: str
    api_version: int = API_VERSION

    @abstractmethod
    def rules(self) -> list[RuleInfo]:
        """Every rule this plugin checks."""

    def declarations(self) -> list[DeclarationSpec]:
        """Declarations the plugin understands (the UI adds the common card-effect one)."""
        return []

    @abstractmethod
    def check(self, ctx: OpContext) -> Sequence[Verdict]:
        """Verdicts on the op in ctx (called after every applied op, void ones too): flags,
        pending verdicts, and the settling of earlier ones (`ctx.pending`)."""

    def check_setup(self, ctx: OpContext) -> list[Flag]:
        """Flags about deck construction and setup (called on the setup-complete marker)."""
        return []

    def settle(self, ctx: OpContext) -> Sequence[Verdict]:
        """The input ended right after the op in ctx (a log read to its end, a scenario's last
        move, a table closed): every window still open closes now, as if a window marker came
        next. Settle every verdict in `ctx.pending` and give the verdicts of the open windows
        (flags name the op they judge first in `ops`; a flag naming none judges the last op).
        A verdict left open here is dropped. An op that comes later takes all this back."""
        return []

    # rules whose verdict waits on later ops (a payment, a timing window): each has a rule
    # scenario whose slip is its last move, and its nearest legal twin (docs/assist)
    waits: frozenset[str] = frozenset()

    # op kinds whose `check` never flags anything, and whether a void op never does: the
    # runner does not ask about those at all (a plugin is a pure function: asking would only
    # get nothing back). The setup-complete marker is always asked (check_setup).
    ignores: frozenset[str] = frozenset()
    ignores_void: bool = False

    def idle(self, view: AssistView) -> bool:
        """Whether `check` flags nothing at all, whatever the op, while the table stands as
        `view` shows it after the op (Gauntlet: before the first turn, when setup is judged
        on the setup-complete marker). The runner then does not ask; it always asks about
        the setup-complete marker. A plugin that overrides this makes it cheap: it is asked
        at every op."""
        return False

    # rules whose flags describe how the table is (a piece misplaced, a count wrong), not a
    # move: they clear from the live views once `still_shows` says the table no longer shows
    # them (assist/conditions.py)
    conditions: frozenset[str] = frozenset()

    def still_shows(self, flag: Flag, view: AssistView, game: GameInfo) -> bool:
        """Whether the table still shows what a condition flag says (asked after an op that
        touched one of its objects)."""
        return True


__all__ = [
    "ACK_REASONS",
    "ALL",
    "API_VERSION",
    "CARD_EFFECT",
    "CARD_EFFECT_SPEC",
    "WINDOW_MARKS",
    "AssistView",
    "DeclarationSpec",
    "Flag",
    "GameInfo",
    "History",
    "OpContext",
    "OpRef",
    "Pending",
    "Plugin",
    "RuleInfo",
    "Settled",
    "Severity",
    "Verdict",
    "counter_delta",
    "flag_key",
    "journal_moves",
]
