"""Judging one op: the OpContext a plugin is handed (the view, the history up to the op, whether
a card effect excuses its timing window) and the flags it returns, each naming the op first."""
from __future__ import annotations

from collections.abc import Sequence

from table.core.ops import Op
from table.core.state import State
from table.core.timeline import Record

from .api import CARD_EFFECT, AssistView, Flag, GameInfo, History, OpContext, Plugin
from .history import KeptMarks


def context_for(record: Record, index: int, records: Sequence[Record] | None,
                marks: Sequence[int], state: State, view: AssistView,
                game: GameInfo, excused: bool | None = None, *,
                kept: KeptMarks | None = None) -> OpContext:
    """The context of the op at `index`; `records`: the timeline's list, if the caller holds it
    (else, or if it no longer holds this record there, the history is rebuilt around it).
    `excused`: whether a card effect excuses the op's timing window, when the caller keeps
    track of it (assist.marks); else it is found from the marks. `kept`: the rest of what the
    caller keeps of the markers up to this op (History reads it instead of scanning)."""
    held: Sequence[Record] = records if records is not None else []
    if len(held) <= index or held[index] is not record:
        held = _Single(held, index, record)
    history = History(held, index, marks, state, kept=kept)
    if excused is None:
        excused = excused_in_window(history)
    return OpContext(record.op, record, view, history, game, excused)


def judge(plugin: Plugin, ctx: OpContext) -> tuple[Flag, ...]:
    """The plugin's flags for this op (and its setup checks on the setup-complete marker).
    A plugin's exception goes to the caller, which disables the plugin."""
    record = ctx.record
    found = plugin.check(ctx)
    if record.op.kind == "mark" and setup_complete(record):
        found = list(found) + list(plugin.check_setup(ctx))
    if not found:  # most ops
        return ()
    return tuple(_with_op(f, record.op) for f in found)


def setup_complete(record: Record) -> bool:
    """The setup-complete marker (where a plugin's setup checks run)."""
    a = record.op.args
    return record.op.kind == "mark" and record.void is None and a.get("what") == "setup" \
        and a.get("value") == "complete"


def _with_op(flag: Flag, op: Op) -> Flag:
    """The flag with the triggering op first in `ops` (its key names that op)."""
    ref = (op.author, op.seq)
    if flag.ops and flag.ops[0] == ref:
        return flag
    ops = (ref, *tuple(r for r in flag.ops if tuple(r) != ref))
    return Flag(flag.rule, flag.severity, flag.message, flag.section, ops, tuple(flag.objects))


def excused_in_window(history: History) -> bool:
    """A card-effect declaration in the current timing window (since the last turn/phase/step),
    found by scanning the markers (assist.marks keeps the same answer as ops land)."""
    start = history.window_start()
    for i in history.mark_indices():
        if i < start:
            return False
        rec = history.records[i]
        a = rec.op.args
        if rec.void is None and a.get("what") == "declare" and a.get("value") == CARD_EFFECT:
            return True
    return False


class _Single(list[Record]):
    """Records as they stood when an op was applied on a timeline we don't hold the list of."""

    def __init__(self, records: Sequence[Record], index: int, record: Record) -> None:
        super().__init__(records[:index])
        self.append(record)
