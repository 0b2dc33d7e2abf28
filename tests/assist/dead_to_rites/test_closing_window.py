"""The closing window read in one marker scan (window.closing) gives what the separate lookups
give: the window's start, phase and active seat (Dtr.window_before; the first window of play
opens after the setup-complete marker), the turn marker before the op (Dtr.mark_before),
whether a result already closed it, and its ops."""
from __future__ import annotations

from assist.api import AssistView, GameInfo
from assist.dead_to_rites.reader import Dtr
from assist.dead_to_rites.window import closing
from assist.judging import context_for
from table.core import actions as act

from .script import Game


def _closed_by_result(d: Dtr, start: int) -> bool:
    """The scan close_window used before: a winner mark or an `end` op after `start`."""
    for i in d.history.mark_indices():
        if i <= start:
            return False
        rec = d.records[i]
        if i < d.ctx.index and rec.void is None and (
                rec.op.kind == "end" or rec.op.args.get("what") == "winner"):
            return True
    return False


def test_closing_matches_the_separate_lookups_at_every_op() -> None:
    game = Game()
    t = game.play_all()
    t.mark("winner", 1, seat=1)
    t.phase("Dusk", seat=1)
    act.end_game(t.replica, [1], "time", seat=1, text="time limit")
    records = t.replica.timeline.records
    marks = [i for i, r in enumerate(records) if r.op.kind in ("mark", "end")]
    state = t.replica.state
    game_info = GameInfo(t.module, len(state.seats))
    checked = 0
    for index, record in enumerate(records):
        ctx = context_for(record, index, records, marks, state, AssistView(state), game_info)
        d = Dtr(ctx)
        w = closing(d)
        start, phase, active = d.window_before(index)
        setup = d.history.setup_end()
        if setup is not None and start < setup:  # play's first window opens after the setup
            start = setup
        assert (w.start, w.phase, w.active) == (start, phase, active), index
        assert w.turn == d.mark_before(index, ("turn",)), index
        assert w.closed == _closed_by_result(d, start), index
        if not w.closed:
            assert w.ops == list(d.range(start, index)), index
        checked += w.closed
    assert checked  # the ops after the winner marker saw a closed window
