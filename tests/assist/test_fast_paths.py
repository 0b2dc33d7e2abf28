"""The assist's fast paths give the slow paths' answers: the timing window kept by the runner
(assist.marks) against the scan of the marks it replaced, the op kinds a plugin says it never
flags against asking it anyway, the board read field by field against the board read from
object views, in order and after rollbacks (ops arriving out of canonical order)."""
from __future__ import annotations

import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import assist.judging as judging
import assist.runner as runner_module
from assist.api import CARD_EFFECT, AssistView, GameInfo, History
from assist.mantle_of_the_keeper.board import (
    ARENA,
    Board,
    cell_of,
    hazard_kind,
    obstructions,
    read_board,
    seat_of_id,
)
from assist.marks import MarkIndex
from assist.runner import AssistRunner, load_plugin
from table.bench.legal_corpus import generate as legal_corpus
from table.bench.simulated_sessions import generate
from table.core.replica import Replica
from table.core.timeline import Timeline
from table.games import builtin_modules

GAMES = ("gauntlet", "mantle-of-the-keeper", "dead-to-rites")


def _sessions(tmp_path: Path) -> list[tuple[Any, list[Any]]]:
    """(module, ops in canonical order) of a few rule-breaking sessions per game, and of a few
    legal ones (played by the rules, with the pieces where the games put them)."""
    modules = {m.id: m for m in builtin_modules() if m.id in GAMES}
    paths = [p for game, module in modules.items()
             for p in generate(module, 3, tmp_path / game, seed=7)]
    legal_corpus(tmp_path / "legal", 9, seed=3)
    paths += sorted((tmp_path / "legal").rglob("*.sandlog"))
    out = []
    for path in paths:
        replica = Replica.from_log(path)
        out.append((modules[replica.game], [r.op for r in replica.records()]))
    return out


@pytest.fixture(scope="module")
def sessions(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Any, list[Any]]]:
    return _sessions(tmp_path_factory.mktemp("fast-paths"))


def _entries(module: Any, ops: list[Any], *, slow: bool, shuffle: int | None = None
             ) -> list[tuple[int, str, str, str]]:
    plugin = load_plugin(module.id, [])
    runner = AssistRunner(module, _AskAll(plugin) if slow else plugin)
    timeline = Timeline()
    runner.attach(timeline)
    order = list(ops)
    if shuffle is not None:  # late arrivals: each a rollback and a re-apply of what followed
        rnd = random.Random(shuffle)
        for _ in range(len(order) // 10):
            i = rnd.randrange(1, len(order))
            j = max(0, i - rnd.randrange(1, 6))
            order[j], order[i] = order[i], order[j]
    for op in order:
        timeline.insert(op)
    assert [r.op for r in timeline.records] == ops
    return [(e.index, e.flag.rule, e.flag.severity, e.flag.message)
            for e in runner.entries(include_acked=True, include_undone=True,
                                    include_resolved=True)]


class _AskAll:
    """A plugin as it is, except that the runner asks it about every op (void ones too, and
    while the plugin would say it is idle: this class has no `idle` of its own)."""

    def __init__(self, plugin: Any) -> None:
        self._plugin = plugin
        self.ignores: frozenset[str] = frozenset()
        self.ignores_void = False

    def __getattr__(self, name: str) -> Any:
        return getattr(self._plugin, name)


def test_the_kept_window_and_the_skipped_kinds_change_no_flag(
        sessions: list[tuple[Any, list[Any]]], monkeypatch: pytest.MonkeyPatch) -> None:
    fast = [_entries(module, ops, slow=False) for module, ops in sessions]
    context_for = judging.context_for
    monkeypatch.setattr(runner_module, "context_for",
                        lambda *args, pending=None, **_kept: context_for(*args[:7],
                                                                         pending=pending))
    slow = [_entries(module, ops, slow=True) for module, ops in sessions]
    assert fast == slow
    assert sum(len(e) for e in fast) > 50  # the sessions break rules: there is much to compare


def test_after_rollbacks_the_kept_window_gives_the_same_flags(
        sessions: list[tuple[Any, list[Any]]]) -> None:
    in_order = [_entries(module, ops, slow=False) for module, ops in sessions]
    shuffled = [_entries(module, ops, slow=False, shuffle=n)
                for n, (module, ops) in enumerate(sessions)]
    assert in_order == shuffled


def test_the_kept_window_is_the_scanned_window_at_every_op(
        sessions: list[tuple[Any, list[Any]]], monkeypatch: pytest.MonkeyPatch) -> None:
    seen = []
    context_for = judging.context_for

    def both(record: Any, index: int, records: Any, marks: Any, state: Any, view: Any,
             game: Any, excused: bool | None = None, *, kept: Any = None,
             pending: Any = None) -> Any:
        scanned = History(records, index, marks, state)
        ctx = context_for(record, index, records, marks, state, view, game, excused, kept=kept,
                          pending=pending)
        seen.append(excused == judging.excused_in_window(scanned)
                    and ctx.history.current_turn_start() == scanned.current_turn_start()
                    and ctx.history.window_start() == scanned.window_start()
                    and all(ctx.history.first_mark(*k) is scanned.first_mark(*k) for k in
                            (("setup", "complete"), ("setup", None), ("declare", "pass"),
                             ("turn", None))))
        return ctx

    monkeypatch.setattr(runner_module, "context_for", both)
    for n, (module, ops) in enumerate(sessions):
        _entries(module, ops, slow=False, shuffle=n)
    assert seen and all(seen)


def _board_from_views(view: AssistView, game: GameInfo) -> Board | None:
    """The board as it was read before: from object views (the slow path)."""
    arena = view.obj(ARENA)
    if arena is None:
        return None
    grid = arena.props.get("grid") or [10, 10]
    tiles: list[tuple[str, str, str, int]] = []
    board = Board(int(grid[0]), int(grid[1]), int(arena.props.get("tile_size") or 0),
                  frozenset(), tiles)
    for child in view.children(ARENA):
        if child.kind in ("zone", "pile"):
            for tile_id in child.children:
                tile = view.obj(tile_id)
                if tile is not None and tile.props.get("tile"):
                    tiles.append((child.id, str(tile.props["tile"]),
                                  str(tile.props.get("side") or "A"), int(tile.rotation)))
            continue
        cell = cell_of(child.pos)
        if cell is None:
            continue
        kind = child.props.get("token_kind")
        if kind == "hazard" or hazard_kind(child.id) is not None:
            hk = hazard_kind(child.id, child.props.get("name"))
            if hk is not None:
                board.hazards[child.id], board.kinds[child.id] = cell, hk
        elif kind == "turret" or ".turret" in child.id:
            board.turrets[child.id] = cell
            board.turret_owner[child.id] = child.owner if child.owner is not None \
                else seat_of_id(child.id)
        elif kind == "standee" or child.id.endswith(".standee"):
            seat = child.owner if child.owner is not None else seat_of_id(child.id)
            if seat is not None:
                board.standees[seat] = cell
    board.obstructions = obstructions(game, tiles)
    return board


def test_the_board_read_field_by_field_is_the_board_read_from_views(
        sessions: list[tuple[Any, list[Any]]]) -> None:
    boards = 0
    for module, ops in sessions:
        if module.id != "mantle-of-the-keeper":
            continue
        timeline, game = Timeline(), GameInfo(module, module.players.max)
        for op in ops:
            timeline.insert(op)
            view = AssistView(timeline.state)
            board = read_board(view, game)
            assert board == _board_from_views(view, game)
            boards += board is not None and bool(board.standees)
    assert boards > 100


def _marker(what: str, value: str | None = None, void: bool = False) -> Any:
    args = {"what": what} if value is None else {"what": what, "value": value}
    return SimpleNamespace(op=SimpleNamespace(kind="mark", args=args),
                           void="refused" if void else None)


def test_the_kept_window_is_the_scanned_one_over_random_markers_and_rollbacks() -> None:
    """Random marker sequences (turns, phases, steps, card effects and other declarations,
    some void, an end op now and then), cut back at random points like a rollback: at every
    op the kept window excuses exactly when the scan of the markers does."""
    rnd = random.Random(5)
    kinds = [("turn", None), ("phase", "Dawn"), ("step", "1"), ("declare", CARD_EFFECT),
             ("declare", "attack"), ("setup", "complete"), ("winner", None)]
    checked = 0
    for _round in range(200):
        records: list[Any] = []
        marks = MarkIndex()
        for _ in range(rnd.randrange(1, 40)):
            if records and rnd.random() < 0.1:  # a rollback to an earlier op
                cut = rnd.randrange(0, len(records))
                del records[cut:]
                marks.cut(cut, records)
            if rnd.random() < 0.3:
                record: Any = SimpleNamespace(op=SimpleNamespace(kind="move", args={}),
                                              void=None)
            elif rnd.random() < 0.1:
                record = SimpleNamespace(op=SimpleNamespace(kind="end", args={}), void=None)
            else:
                what, value = rnd.choice(kinds)
                record = _marker(what, value, void=rnd.random() < 0.15)
            records.append(record)
            index = len(records) - 1
            if record.op.kind in ("mark", "end"):
                marks.add(index, record)
            assert marks.indices == [i for i, r in enumerate(records)
                                     if r.op.kind in ("mark", "end")]
            history = History(records, index, marks.indices)
            assert marks.excused == judging.excused_in_window(history), (index, records)
            kept = History(records, index, marks.indices, kept=marks)
            assert kept.current_turn_start() == history.current_turn_start()
            assert kept.window_start() == history.window_start()
            for what, value in kinds:  # asked at some ops only: answers kept from earlier ones
                if rnd.random() < 0.5:
                    assert kept.first_mark(what, value) is history.first_mark(what, value)
            checked += 1
    assert checked > 2000


def test_mark_indices_of_an_older_op_leave_out_the_later_markers() -> None:
    records = [_marker("turn"), _marker("phase", "Dawn"), _marker("phase", "Dusk")]
    assert list(History(records, 1, [0, 1, 2]).mark_indices()) == [1, 0]
    assert list(History(records, 2).mark_indices()) == [2, 1, 0]
    assert History(records, 1).records[-1] is records[1]
    assert list(History(records, 1).records) == records[:2]
    assert History(records, 2).records is records  # the op judged is the last one held


def test_kept_marks_for_a_later_op_are_not_read_for_an_older_one() -> None:
    records = [_marker("turn"), _marker("phase", "Dawn"), _marker("turn")]
    marks = MarkIndex()
    for i, record in enumerate(records):
        marks.add(i, record)
    assert History(records, 1, marks.indices, kept=marks).current_turn_start() == 0
    assert History(records, 2, marks.indices, kept=marks).current_turn_start() == 2


def test_a_rule_number_looked_up_once_is_the_one_looked_up_afresh() -> None:
    module = next(m for m in builtin_modules() if m.id == "gauntlet")
    kept = GameInfo(module, 2)
    paths = ["hand_limit", "phases", "no.such.rule", "hand_limit.deeper", "draw_per_turn"]
    for _ in range(2):  # the second round reads the kept answers
        for path in paths:
            fresh = GameInfo(module, 2)
            assert kept.param(path) is fresh.param(path)
            assert kept.param(path, "dflt") is fresh.param(path, "dflt")
    assert kept.param("no.such.rule", 7) == 7 and kept.param("hand_limit") == 3
