"""A rule's occasions: the times it applied (every Dawn, every hand at a turn's end), so a
designer reads how often a rule is slipped per occasion, not how often it is flagged.

Each game's plugin package may hold an `occasions` module (assist/<game>/occasions.py) with
`OCCASIONS`: one `Occasion` per rule id, stating what counts as one. The runner counts them
beside the checks, op by op as the ops are applied (a rollback takes back the ones it
undoes), never asking the plugin's checks anything: the occasions are a declared hook of their
own. Rules without an entry have no occasions (the report ranks them apart, by flags).

The vocabulary below covers what the built-in games state: a phase or step marked (`phase`),
a turn ending (`turn_end`: the next turn's marker, or the game's end op), a card entering a
zone (`enters`); each may add a condition on the table as the op left it.
"""
from __future__ import annotations

import importlib
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import Any

from table.core.state import State
from table.core.timeline import Record

from .api import GameInfo

log = logging.getLogger(__name__)

# which seats the occasion is for (one occasion each; None: the table's), from an applied op
# and the table as it left it (read only)
Counter = Callable[[Record, State, GameInfo], tuple[int | None, ...]]
Condition = Callable[[Record, State, GameInfo], bool]


@dataclass(frozen=True, slots=True)
class Occasion:
    rule: str
    what: str  # what counts as one, in words ("every Dawn")
    kinds: frozenset[str]  # the op kinds that can be one (the runner asks no other)
    count: Counter


def phase(rule: str, name: str, *, when: Condition | None = None, what: str = "") -> Occasion:
    """Every phase (or step) marker of `name`: the seat that marked it, its occasion."""
    def count(record: Record, state: State, game: GameInfo) -> tuple[int | None, ...]:
        a = record.op.args
        if a.get("what") not in ("phase", "step") or a.get("value") != name:
            return ()
        if when is not None and not when(record, state, game):
            return ()
        return (record.op.seat,)
    return Occasion(rule, what or f"every {name}", frozenset({"mark"}), count)


def turn_end(rule: str, *, what: str = "") -> Occasion:
    """Every turn that ends: at the next turn's marker, or at the game's end op."""
    def count(record: Record, state: State, game: GameInfo) -> tuple[int | None, ...]:
        op = record.op
        if op.kind == "mark":
            if op.args.get("what") != "turn":
                return ()
            number = op.args.get("value")  # a turn that starts a position ends nothing
            if type(number) is int or (state.turn.get("number") or 0) < 2:
                return ()
            return (None,)
        return (None,) if (state.turn.get("number") or 0) >= 1 else ()  # the last turn ends
    return Occasion(rule, what or "every turn's end (every hand at a turn's end)",
                    frozenset({"mark", "end"}), count)


def enters(rule: str, zone: str, *, what: str = "") -> Occasion:
    """Every card moved into a zone matching `zone` (`p*.play`): the mover's occasion."""
    def count(record: Record, state: State, game: GameInfo) -> tuple[int | None, ...]:
        a = record.op.args
        obj = state.objs.get(a["id"])
        if obj is None or obj.kind != "card" or not fnmatchcase(str(a.get("to", "")), zone):
            return ()
        return (record.op.seat,)
    return Occasion(rule, what or f"every card put into {zone}", frozenset({"move"}), count)


def declared(rule: str, value: str, *, what: str = "") -> Occasion:
    """Every declaration of `value` (an attack, a defense): the declaring seat's occasion."""
    def count(record: Record, state: State, game: GameInfo) -> tuple[int | None, ...]:
        a = record.op.args
        return (record.op.seat,) if a.get("what") == "declare" and a.get("value") == value \
            else ()
    return Occasion(rule, what or f"every {value} declared", frozenset({"mark"}), count)


def turn_start(rule: str, *, what: str = "") -> Occasion:
    """Every turn marker (a new turn begins)."""
    def count(record: Record, state: State, game: GameInfo) -> tuple[int | None, ...]:
        a = record.op.args
        return (a.get("seat"),) if a.get("what") == "turn" else ()
    return Occasion(rule, what or "every turn", frozenset({"mark"}), count)


def load(plugin: Any) -> dict[str, Occasion]:
    """The occasions the plugin's package declares (its `occasions` module), by rule id."""
    if plugin is None:
        return {}
    package = type(plugin).__module__.rpartition(".")[0]
    declared = getattr(plugin, "occasions_module", None) or f"{package}.occasions"
    try:
        found = importlib.import_module(declared)
    except ModuleNotFoundError as err:
        if err.name == declared:
            return {}
        raise
    return {o.rule: o for o in getattr(found, "OCCASIONS", ())}


def load_declared(plugin: Any, notices: list[str]) -> list[Occasion]:
    """`load`, but an occasions module that fails never costs the checks: it is named in the
    runner's notices and no occasion is counted."""
    try:
        return list(load(plugin).values())
    except Exception as err:  # a broken hook of its own: the checks go on without it
        notices.append(f"the rules' occasions could not be read: {type(err).__name__}: {err}")
        log.warning("occasions of %s: %s", type(plugin).__name__, err)
        return []


class OccasionCount:
    """The occasions of the ops applied so far, by op index (a rollback cuts them back)."""

    def __init__(self, occasions: Iterable[Occasion]) -> None:
        self.occasions = list(occasions)
        self.kinds = frozenset(k for o in self.occasions for k in o.kinds)
        self.by_index: dict[int, list[tuple[str, int | None]]] = {}

    def see(self, index: int, record: Record, state: State, game: GameInfo) -> None:
        if record.void is not None or record.op.kind not in self.kinds:
            return
        try:
            found = [(o.rule, seat) for o in self.occasions if record.op.kind in o.kinds
                     for seat in o.count(record, state, game)]
        except Exception as err:  # an occasion's own bug: counting stops, the checks go on
            log.warning("occasions stopped: %s: %s", type(err).__name__, err)
            self.occasions, self.kinds = [], frozenset()
            return
        if found:
            self.by_index[index] = found

    def cut(self, index: int) -> None:
        for i in [i for i in self.by_index if i >= index]:
            del self.by_index[i]

    def reset(self) -> None:
        self.by_index.clear()
