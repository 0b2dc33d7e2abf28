"""The replay view over generated sessions: seeking both ways, jumps, seats, fork, start screen."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from table.bench.simulated_sessions import play_session
from table.core.replica import Replica
from table.core.seek import Seeker
from table.core.snapshot import to_snapshot
from table.core.statehash import public_state_hash
from table.games import find_module


@pytest.fixture(scope="module")
def log_path(tmp_path_factory):  # type: ignore[no-untyped-def]
    path = tmp_path_factory.mktemp("replay") / "gauntlet.sandlog"
    play_session(find_module("gauntlet"), 2, 21, path, turns=6, note_rate=0.3)
    return path


def open_window(qtbot, path, **kwargs):  # type: ignore[no-untyped-def]
    from table.ui.replay.run import open_replay

    w = open_replay(path, **kwargs)
    qtbot.addWidget(w)
    w.resize(1400, 900)
    w.show()
    qtbot.waitExposed(w)
    return w


def scene_picture(w):  # type: ignore[no-untyped-def]
    """What the scene shows: every card item's place, face and rotation, and the zones."""
    cards = {oid: (round(i.pos().x()), round(i.pos().y()), round(i.rotation()))
             if i.isVisible() else None  # cards deep in a pile are not drawn
             for oid, i in w.scene.cards.items()}
    return cards, sorted(w.scene.zones)


def test_view_at_op_k_equals_replaying_k_ops(qtbot, log_path) -> None:  # type: ignore[no-untyped-def]
    w = open_window(qtbot, log_path)
    total = len(w.seeker)
    assert w.position == total
    source = Replica.from_log(log_path)
    ops = [r.op for r in source.records()]
    for k in (total // 2, 5, total - 1, total // 3, total):
        w.seek(k)
        fresh = Seeker(ops)
        fresh.seek(k)
        assert to_snapshot(w.replica.state) == to_snapshot(fresh.state)
        other = open_window(qtbot, log_path, at=k)  # a view built straight at op k
        assert scene_picture(w) == scene_picture(other), f"scene differs at op {k}"
        assert w.log_list.currentIndex().row() == k - 1
        other.shutdown()
        other.close()
    w.shutdown()


def test_controls_seek_both_ways_and_land_on_the_same_states(qtbot, log_path) -> None:  # type: ignore[no-untyped-def]
    w = open_window(qtbot, log_path, at=0)
    seen: dict[int, str] = {}
    w.seek_actions["next_turn"].trigger()
    first_turn = w.position
    assert w.source.records()[first_turn - 1].op.args.get("what") == "turn"
    for _ in range(30):
        w.seek_actions["forward"].trigger()
        seen[w.position] = public_state_hash(w.replica.state)
    w.seek_actions["next_turn"].trigger()
    w.seek_actions["next_turn"].trigger()
    w.seek_actions["prev_turn"].trigger()
    for _ in range(40):
        w.seek_actions["back"].trigger()
        if w.position in seen:
            assert public_state_hash(w.replica.state) == seen[w.position]
    w.seek_actions["next_note"].trigger()
    assert w.source.records()[w.position - 1].op.kind == "note"
    w.seek_actions["end"].trigger()
    assert w.position == len(w.seeker)
    assert public_state_hash(w.replica.state) == w.source.public_state_hash()
    w.seek_actions["start"].trigger()
    assert w.position == 0 and not w.scene.cards
    w.strip.seekRequested.emit(len(w.seeker) // 2)  # a click on the timeline
    assert w.position == len(w.seeker) // 2
    w.log_list.scrollTo(w.log_model.index(9))
    line = w.log_list.visualRect(w.log_model.index(9)).center()
    qtbot.mouseClick(w.log_list.viewport(), Qt.MouseButton.LeftButton, pos=line)  # a log line
    assert w.position == 10
    w.shutdown()


def test_seat_view(qtbot, log_path) -> None:  # type: ignore[no-untyped-def]
    w = open_window(qtbot, log_path)
    assert w.ctl.seat == -1  # a hot-seat log: everything it knows
    everyone = w.log_model.text(len(w.seeker) - 20)
    index = w.seat_pick.findData(2)
    w.seat_pick.setCurrentIndex(index)
    assert w.ctl.seat == 2
    hidden = [w.log_model.text(i) for i in range(w.log_model.rowCount())]
    assert any("a card" in t for t in hidden)  # seat 2 does not see seat 1's draws
    assert everyone
    w.shutdown()


def test_fork_from_here(qtbot, log_path, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from table.ui.main_window import TableWindow

    opened = []

    def on_fork(replica, catalog):  # type: ignore[no-untyped-def]
        window = TableWindow(replica, catalog)
        qtbot.addWidget(window)
        opened.append(window)
        return window

    w = open_window(qtbot, log_path, on_fork=on_fork)
    w.fork_path = lambda: tmp_path / "fork.sandlog"
    k = len(w.seeker) // 2
    w.seek(k)
    replica = w.fork_here()
    assert replica is not None and opened
    assert len(replica.records()) == k
    assert replica.public_state_hash() == public_state_hash(w.replica.state)
    table = opened[0]
    assert not table.ctl.read_only and table.ctl.playable_seats == [1, 2]
    table.shutdown()
    w.shutdown()


def test_open_a_log_from_the_start_screen_opens_the_replay(qtbot, log_path) -> None:  # type: ignore[no-untyped-def]
    from table.ui.replay.window import ReplayWindow
    from table.ui.shell import Shell

    shell = Shell()
    qtbot.addWidget(shell.start)
    with qtbot.waitSignal(shell.start.openLogRequested):
        shell.start.openLogRequested.emit(str(log_path))
    assert shell.replays and isinstance(shell.replays[0], ReplayWindow)
    shell.replays[0].close()
    assert not shell.replays


def test_note_action_logs_a_note(window) -> None:  # type: ignore[no-untyped-def]
    before = len(window.replica.records())
    window.add_note("rule unclear here")
    records = window.replica.records()
    assert len(records) == before + 1 and records[-1].op.kind == "note"
    assert records[-1].op.args["text"] == "rule unclear here"
    assert window.act_note.shortcut().toString() == "Ctrl+Shift+N"
