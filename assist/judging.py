"""Judging one op: the OpContext a plugin is handed (the view, the history up to the op, whether
a card effect excuses its timing window, the verdicts still open) and the verdicts it returns."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from table.core.state import State
from table.core.timeline import Record

from .api import CARD_EFFECT, AssistView, GameInfo, History, OpContext, Pending, Plugin, Verdict
from .history import KeptMarks


def context_for(record: Record, index: int, records: Sequence[Record] | None,
                marks: Sequence[int], state: State, view: AssistView,
                game: GameInfo, excused: bool | None = None, *,
                kept: KeptMarks | None = None,
                pending: Mapping[str, Pending] | None = None) -> OpContext:
    """The context of the op at `index`; `records`: the timeline's list, if the caller holds it
    (else, or if it no longer holds this record there, the history is rebuilt around it).
    `excused`: whether a card effect excuses the op's timing window, when the caller keeps
    track of it (assist.marks); else it is found from the marks. `kept`: the rest of what the
    caller keeps of the markers up to this op (History reads it instead of scanning).
    `pending`: the verdicts still open before this op (the runner's book)."""
    held: Sequence[Record] = records if records is not None else []
    if len(held) <= index or held[index] is not record:
        held = _Single(held, index, record)
    history = History(held, index, marks, state, kept=kept)
    if excused is None:
        excused = excused_in_window(history)
    return OpContext(record.op, record, view, history, game, excused,
                     pending if pending is not None else {})


def judge(plugin: Plugin, ctx: OpContext) -> Sequence[Verdict]:
    """The plugin's verdicts on this op (and its setup checks on the setup-complete marker);
    a flag that names no op judges this one (the runner files it so). A plugin's exception
    goes to the caller, which disables the plugin."""
    record = ctx.record
    found = plugin.check(ctx)
    if record.op.kind == "mark" and setup_complete(record):
        found = list(found) + list(plugin.check_setup(ctx))
    return found


def setup_complete(record: Record) -> bool:
    """The setup-complete marker (where a plugin's setup checks run)."""
    a = record.op.args
    return record.op.kind == "mark" and record.void is None and a.get("what") == "setup" \
        and a.get("value") == "complete"


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
