"""The assist runner: follows the timeline op by op and keeps each op's flags.

It is a `table.core.timeline.Observer`: after every applied op (in canonical order, void ones too,
re-applies after a rollback included) it asks the game's plugin for verdicts and stores each flag
under the index of the op it judges; a verdict that waits on later ops stays open (pending) in
its book (assist/verdict_book.py) until the plugin settles it. When the timeline rolls back from
index i, what the ops from i on raised, opened and settled is taken back and comes back,
recomputed, as the ops are applied again. `finish()` says the input ended: every verdict still
open is settled (Plugin.settle), until another op comes. Acknowledged flags (an `ack` op naming
the flag's key) are kept but filtered from `flags()`. A plugin that raises is disabled for the
session, with a notice.

Qt-free: the UI hears flag changes through `runner.subscribe(callback)`.
"""
from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from table.core.events import EventHub, Unsubscribe
from table.core.knowledge import Knowledge
from table.core.ops import Op
from table.core.state import State
from table.core.timeline import Record, Timeline
from table.core.views import ALL

from .api import (
    CARD_EFFECT,
    CARD_EFFECT_SPEC,
    AssistView,
    DeclarationSpec,
    Flag,
    GameInfo,
    OpRef,
    Plugin,
    Verdict,
)
from .conditions import Conditions
from .flag_reading import FlagEntry, FlagReading
from .judging import context_for, judge, setup_complete
from .marks import MarkIndex
from .occasions import OccasionCount, load_declared
from .plugins import assist_declarations, load_plugin
from .verdict_book import PendingEntry, VerdictBook

if TYPE_CHECKING:
    from table.core.replica import Replica
    from table.games.module import GameModule

log = logging.getLogger(__name__)

# Loading a plugin is assist.plugins'; these names stay importable from here, where callers
# that run one already look.
__all__ = ["POSITION_MARKS", "AssistRunner", "FlagEntry", "PendingEntry", "assist_declarations",
           "load_plugin", "run_over"]

# A table started from a position (table/games/position_table.py) lays its situation out
# between these two setup markers; nothing between them is a move to judge.
POSITION_MARKS = ("position", "position-end")


# ---------------------------------------------------------------------------------------------
# Loading plugins
def _cached_module(digest: str) -> GameModule | None:
    """A module from the per-user module store (where a table's modules are kept by hash)."""
    from table.games.problems import ModuleError
    from table.games.registry import ModuleNotFound
    from table.games.store import default_store

    try:
        return default_store().load(digest)
    except (ModuleNotFound, ModuleError, ValueError):
        return None


# ---------------------------------------------------------------------------------------------
class AssistRunner(FlagReading):
    """Runs one game's plugin over a timeline, as a timeline observer."""

    def __init__(self, module: GameModule, plugin: Plugin | None, *, seats: int | None = None,
                 seat: int = ALL, knowledge: Knowledge | None = None,
                 enabled: bool = True) -> None:
        self.module = module
        self.plugin = plugin
        self.game = GameInfo(module, seats or module.players.max)
        self.seat = seat
        self.knowledge = knowledge
        self.enabled = enabled and plugin is not None
        # op kinds the plugin never flags (never a marker: setup checks hang on one)
        self._ignored = plugin.ignores - {"mark"} if plugin is not None else frozenset()
        # when the plugin says it has nothing to say (asked only if it says anything)
        self._idle = plugin.idle if plugin is not None \
            and getattr(type(plugin), "idle", Plugin.idle) is not Plugin.idle else None
        self.notices: list[str] = []  # visible problems: a plugin disabled, a plugin not loaded
        self.disabled: str | None = None  # why the plugin was disabled, if it was
        self._changes: EventHub[None] = EventHub()  # flags changed (subscribe)
        self.version = 0  # bumps whenever the flags change
        self._per_op: list[tuple[Flag, ...]] = []  # flags of the op at each index
        self._refs: list[OpRef] = []
        self._marks = MarkIndex()
        # (index, kind, target, ref) of each applied undo and redo, in log order
        self._undos: list[tuple[int, str, OpRef, OpRef]] = []
        self._position: list[int] = []  # indices of the position begin/end markers applied
        self._conditions = Conditions()  # flags about how the table is, and which cleared
        self._book = VerdictBook()  # verdicts given later than the op they judge
        self._records: list[Record] | None = None
        self._state: State | None = None
        self._timeline: Timeline | None = None
        self._view: AssistView | None = None  # the last view made (see _view_of)
        # the state's module record last followed to the end (see _follow_module)
        self._module_seen: dict[str, Any] | None = None
        # hash -> module: the modules this table has played under (a live-reloaded draft)
        self._modules: dict[str, GameModule] = {module.content_hash: module}
        self.resolve_module: Callable[[str], GameModule | None] | None = _cached_module
        # each rule's occasions (the plugin package's occasions module), counted beside the
        # checks: what a designer reads slips per occasion against
        self.occasions = OccasionCount(load_declared(plugin, self.notices))

    # -- wiring ----------------------------------------------------------------------------
    @classmethod
    def for_replica(cls, replica: Replica, module: GameModule, plugin: Plugin | None = None, *,
                    load: bool = True, seat: int | None = None,
                    enabled: bool = True) -> AssistRunner:
        """A runner attached to a replica (catching up over what it already holds)."""
        notices: list[str] = []
        if plugin is None and load:
            plugin = load_plugin(module.id, notices)
        seats = len(replica.state.seats) or None
        if seat is None:
            mine = replica.my_seats
            seat = next(iter(mine)) if len(mine) == 1 and len(replica.state.seats) > 1 else ALL
        runner = cls(module, plugin, seats=seats, seat=seat, knowledge=replica.knowledge,
                     enabled=enabled)
        runner.notices.extend(notices)
        runner.attach(replica.timeline)
        return runner

    def attach(self, timeline: Timeline) -> None:
        """Observe `timeline`; ops it already holds are checked by replaying them aside."""
        self.detach()
        self._timeline = timeline
        self._state = timeline.state
        self._records = timeline.records
        self._reset()
        if timeline.records and self.enabled:
            self._catch_up(timeline)
        timeline.observers.append(self)
        self._changed()

    def detach(self) -> None:
        if self._timeline is not None and self in self._timeline.observers:
            self._timeline.observers.remove(self)
        self._timeline = None

    def _reset(self) -> None:
        self._per_op = []
        self._refs = []
        self._marks.reset()
        self._undos = []
        self._position = []
        self._conditions.reset()
        self.occasions.reset()
        self._book.reset()

    def _catch_up(self, timeline: Timeline) -> None:
        shadow = Timeline()
        self._state, self._records = shadow.state, shadow.records
        shadow.observers.append(self)
        try:
            for record in list(timeline.records):
                shadow.insert(record.op)
        finally:
            shadow.observers.remove(self)
            self._state, self._records = timeline.state, timeline.records

    def set_enabled(self, on: bool) -> None:
        """Turn the assist on (recomputing every flag) or off (no flags)."""
        on = on and self.plugin is not None and self.disabled is None
        if on == self.enabled:
            return
        self.enabled = on
        self._reset()
        if on and self._timeline is not None:
            self._catch_up(self._timeline)
        elif self._timeline is not None:
            self._per_op = [()] * len(self._timeline.records)
            self._refs = [r.op.ref for r in self._timeline.records]
        self._changed()

    # -- Observer --------------------------------------------------------------------------
    def rolled_back(self, index: int) -> None:
        self._forget_from(index)
        self.version += 1

    def applied(self, index: int, record: Record, state: State) -> None:
        if index != len(self._per_op):  # never expected: resynchronise rather than misfile
            self._forget_from(index)
            while len(self._per_op) < index:
                self._per_op.append(())
                self._refs.append(("?", 0))
        elif self._book.last_at >= index and self._book.undo_from(index, self._per_op):
            self.version += 1  # the input had been finished: its windows were open after all
        op = record.op
        kind = op.kind
        quiet = len(self._position) % 2  # inside a position's layout (its markers judged)
        if kind == "mark" or kind == "end":  # an end op is the game's result marker
            self._marks.add(index, record)
            if record.void is None and op.args.get("what") == "setup" \
                    and op.args.get("value") in POSITION_MARKS:
                self._position.append(index)
        elif (kind == "undo" or kind == "redo") and record.void is None \
                and len(op.args["target"]) == 2:
            target = op.args["target"]
            ref = (str(target[0]), int(target[1]))
            self._undos.append((index, kind, ref, op.ref))
            if kind == "undo" and self._book.entries and self._book.drop_on(index, ref):
                self.version += 1  # a move taken back leaves nothing to judge
                self._changed()
        flags: tuple[Flag, ...] = ()
        cleared = False
        plugin = self.plugin
        if self.enabled and not quiet and plugin is not None:
            if self._conditions.live:
                cleared = self._follow_conditions(index, record, state)
            if kind not in self._ignored and (record.void is None or not plugin.ignores_void):
                found = self._check(index, record, state)
                if found:
                    flags, settled = self._book.take(index, (op.author, op.seq), found,
                                                     self._per_op, self._refs)
                    cleared |= settled
            elif state.module is not self._module_seen:
                self._follow_module(state)
            if flags:
                self._conditions.raised(index, flags, plugin)
            if kind in self.occasions.kinds:
                self.occasions.see(index, record, state, self.game)
        self._per_op.append(flags)
        self._refs.append((op.author, op.seq))
        if flags or cleared:
            self.version += 1
        if (flags or cleared or kind == "ack") and self._changes:
            self._changed()

    def _follow_conditions(self, index: int, record: Record, state: State) -> bool:
        assert self.plugin is not None
        try:
            return self._conditions.follow(index, record, self.plugin, self._view_of(state),
                                           self.game)
        except Exception as err:  # any plugin bug disables the plugin
            self._disable(err)
            return False

    def _view_of(self, state: State) -> AssistView:
        """The seat's view of `state`: one object for as long as state, knowledge and seat stay
        (an AssistView keeps nothing but those three; it reads the state as it is)."""
        view = self._view
        if view is None or not view.of(state, self.knowledge, self.seat):
            view = self._view = AssistView(state, self.knowledge, self.seat)
        return view

    def _follow_module(self, state: State) -> None:
        """Judge each op by the module in effect at its place (a draft may change mid-game)."""
        recorded = state.module
        digest = recorded.get("hash") if recorded else None
        if not digest or digest == self.game.module.content_hash:
            self._module_seen = recorded  # settled for as long as the state holds this record
            return
        module = self._modules.get(digest)
        if module is None and self.resolve_module is not None:
            module = self.resolve_module(digest)
            if module is not None:
                self._modules[digest] = module
        if module is not None:
            self.game = GameInfo(module, self.game.seats)
            self._module_seen = recorded

    def _check(self, index: int, record: Record, state: State, *,
               end: bool = False) -> Sequence[Verdict]:
        """The plugin's verdicts on the op at `index` (`end`: the input ends after it, so every
        window closes: Plugin.settle)."""
        plugin = self.plugin
        assert plugin is not None
        if state.module is not self._module_seen:
            self._follow_module(state)
        marks, view = self._marks, self._view_of(state)
        try:
            if self._idle is not None and self._idle(view) and (end or not setup_complete(record)):
                return ()
        except Exception as err:  # any plugin bug disables the plugin
            self._disable(err)
            return ()
        ctx = context_for(record, index, self._records, marks.indices, state, view, self.game,
                          marks.excused, kept=marks, pending=self._book.open)
        try:
            return plugin.settle(ctx) if end else judge(plugin, ctx)
        except Exception as err:  # any plugin bug disables the plugin
            self._disable(err)
            return ()

    def finish(self) -> None:
        """The input ended: a log read to its end, a scenario's last move, a table closed.
        Every timing window still open closes now (Plugin.settle), so a slip that is the last
        move is judged like any other; verdicts the plugin leaves open are dropped. An op
        applied later takes this back first (the windows were open after all)."""
        n = len(self._per_op)
        plugin, records, state = self.plugin, self._records, self._state
        if not self.enabled or plugin is None or not n or records is None or state is None \
                or len(records) != n or self._book.last_at >= n or len(self._position) % 2:
            return
        found = self._check(n - 1, records[n - 1], state, end=True)
        _own, changed = self._book.take(n, None, found, self._per_op, self._refs)
        self._book.drop_open(n)
        self._book.mark_end(n)
        if changed or found:
            self._changed()

    def _disable(self, err: BaseException) -> None:
        name = type(self.plugin).__name__ if self.plugin is not None else "?"
        self.disabled = f"{type(err).__name__}: {err}"
        notice = (f"Rules assist {self.module.id} ({name}) was disabled for this session: "
                  f"it raised {self.disabled}")
        log.exception(notice, exc_info=err)
        self.notices.append(notice)
        self.enabled = False
        self._changed()

    def _changed(self) -> None:
        self.version += 1
        self._changes.emit(None)  # a listener that fails is logged: it must not break the fold

    def subscribe(self, listener: Callable[[], None]) -> Unsubscribe:
        """Hear every change to the flags; returns the function that stops it."""
        return self._changes.subscribe(lambda _: listener())

    # -- reading ---------------------------------------------------------------------------
    @property
    def declarations(self) -> list[DeclarationSpec]:
        specs = [CARD_EFFECT_SPEC]
        if self.plugin is not None:
            try:
                specs += [s for s in self.plugin.declarations() if s.name != CARD_EFFECT]
            except Exception as err:  # any plugin bug disables the plugin
                self._disable(err)
        return specs

    def _forget_from(self, index: int) -> None:
        """Drop what was kept of the ops from `index` on (taken back, or out of step)."""
        self._book.undo_from(index, self._per_op)
        del self._per_op[index:]
        del self._refs[index:]
        self._marks.cut(index, self._records if self._records is not None else [])
        self._drop_undos_from(index)
        while self._position and self._position[-1] >= index:
            self._position.pop()
        self._conditions.rolled_back(index)
        self.occasions.cut(index)

    def _drop_undos_from(self, index: int) -> None:
        undos = self._undos
        while undos and undos[-1][0] >= index:
            undos.pop()



def run_over(records: Iterable[Op], module: GameModule, plugin: Plugin, *,
             seats: int | None = None, knowledge: Knowledge | None = None,
             finish: bool = True) -> AssistRunner:
    """Fold ops in order on a fresh timeline with a runner attached (for checks and benches);
    the input ends with the last op (`finish`: its open verdicts are settled)."""
    runner = AssistRunner(module, plugin, seats=seats, knowledge=knowledge)
    timeline = Timeline()
    runner.attach(timeline)
    for op in records:
        timeline.insert(op)
    if finish:
        runner.finish()
    return runner
