"""`sandtable bench ui`: how fast the table window follows remote ops and repaints.

A scene with 1,000 face-up cards; a second replica (the remote peer) issues 1,000 moves, each
delivered through `replica.receive` as netplay would. Measured:
- remote_move_ms: from the op applied by the replica to the scene updated (the scene's listener);
- receive_ms: the whole `receive` call (validation, causal delivery, fold, scene update);
- repaint_ms: a full synchronous repaint of the view with the whole table in sight
  (warm: every card showing its picture at device size; cold: the first frame after a zoom
  change, Qt scaling the pictures the cards have);
- hover_zoom_ms: from the Alt key pressed over a card to the large card painted (each card's
  first zoom: its picture is rendered then);
- startup_s: from starting to load the window's modules to its first painted frame;
- process_start_to_first_frame_s: a fresh Python process running `sandtable play` (Dead to
  Rites), from the process's start to the table's first painted frame.

Each speed beside its floor measured in the same run (table/bench/ui_floor.py), and the ratio:
repaint_floor_ratio, zoom_frame_floor_ratio, startup_floor_ratio.

Zoom changes: until zooming pauses the view scales the cards' pictures it has (the first
frame after a zoom change, repaint_cold); then it renders them crisp at the new scale once.
"""
from __future__ import annotations

import os
import random
import statistics
import time
from pathlib import Path
from typing import Any

from . import ui_floor

CARDS = 1000
MOVES = 1000
ZONES = 4
RUNS = 4  # fresh processes of each kind for the start-to-first-frame figures


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _tables(seed: int) -> tuple[Any, Any]:
    """The remote peer's replica (authoring everything) and ours, in sync."""
    from table.core import actions
    from table.core.replica import Replica
    from table.core.rng import Rng
    from table.ui.sample import _CARDS

    remote = Replica(peer_id="remote", rng=Rng(seed), game="sample")
    remote.issue("hello", {"name": "remote"})
    remote.issue("seat", {"seat": 1, "name": "Remote"})
    rnd = random.Random(seed)
    for z in range(ZONES):
        actions.create(remote, f"zone{z}", "zone", props={"name": f"Area {z + 1}",
                                                           "visibility": "public",
                                                           "zone_kind": "zone"})
    ids = [c[0] for c in _CARDS]
    for i in range(CARDS):
        remote.issue("create", {"id": f"card{i}", "kind": "card", "to": f"zone{i % ZONES}",
                                "card": ids[i % len(ids)], "face_up": True,
                                "pos": [float(rnd.randint(70, 650)), float(rnd.randint(100, 240))]})
    local = Replica(peer_id="local", game="sample")
    local.receive_many([op.to_wire() for op in remote.store.missing_for({})])
    return remote, local


def run_bench(seed: int = 1) -> dict[str, float]:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    remote, local = _tables(seed)  # the fixture: not part of any timing
    app, window, startup = _open_window(local)
    listener_ms, receive_ms = _remote_moves(app, window, remote, local, seed)
    wrong = _misplaced(window, local)
    window.view.settle_zoom()  # as the view does once zooming pauses: cards crisp at this scale
    floor_view = ui_floor.bare_scene_view(window.view, _pictures_in_sight(window))
    view = window.view
    (warm, cold), (floor_warm, floor_cold) = ui_floor.time_repaints(
        [view, floor_view], [lambda f: view.set_zoom(view.zoom * f),
                             lambda f: floor_view.scale(f, f)])
    floor_view.close()
    hover = _hover_zoom_ms(app, window)
    first_frame, floor_first_frame = _process_start_to_first_frame()
    result = {
        "cards": float(CARDS),
        "moves": float(MOVES),
        "remote_move_ms_p50": statistics.median(listener_ms),
        "remote_move_ms_p99": _pct(listener_ms, 0.99),
        "receive_ms_p50": statistics.median(receive_ms),
        "receive_ms_p99": _pct(receive_ms, 0.99),
        "repaint_ms_p50": warm,
        "repaint_floor_ms_p50": floor_warm,
        "repaint_floor_ratio": warm / floor_warm,
        "repaint_cold_ms_p50": cold,
        "zoom_frame_floor_ms_p50": floor_cold,
        "zoom_frame_floor_ratio": cold / floor_cold,
        "hover_zoom_ms_p50": statistics.median(hover),
        "hover_zoom_ms_max": max(hover),
        "startup_s": startup,
        "process_start_to_first_frame_s": first_frame,
        "startup_floor_s": floor_first_frame,
        "startup_floor_ratio": first_frame / floor_first_frame,
        "misplaced_cards": float(wrong),
        "zoom": window.view.zoom,
        "cards_in_view": float(len(_pictures_in_sight(window))),
    }
    window.shutdown()
    window.close()
    window.deleteLater()
    app.processEvents()
    return result


def _open_window(local: Any) -> tuple[Any, Any, float]:
    """The table window on `local`, at the legible zoom with the table's middle in sight; and
    the seconds from loading the window's modules (Qt not yet needed) to its first frame."""
    start = time.perf_counter()
    from PySide6.QtCore import QEvent, QObject
    from PySide6.QtWidgets import QApplication

    from table.ui.main_window import TableWindow
    from table.ui.sample import sample_catalog
    from table.ui.view import LEGIBLE_ZOOM

    app = QApplication.instance() or QApplication(["sandtable-bench"])
    painted: list[float] = []

    class FirstPaint(QObject):
        def eventFilter(self, obj: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Paint and not painted:
                painted.append(time.perf_counter())
            return False

    window = TableWindow(local, sample_catalog())
    spy = FirstPaint()
    window.view.viewport().installEventFilter(spy)
    window.resize(1600, 1000)
    window.show()
    while not painted and time.perf_counter() - start < 30:
        app.processEvents()
    startup = (painted[0] if painted else time.perf_counter()) - start
    window.view.fit_table()
    # measured at the zoom a player gets by default on a table too big to fit (the legible
    # zoom), so the figures do not depend on how wide the side panels happen to be
    window.view.set_zoom(LEGIBLE_ZOOM)
    window.view.centerOn(window.scene.sceneRect().center())
    app.processEvents()
    return app, window, startup


def _remote_moves(app: Any, window: Any, remote: Any, local: Any,
                  seed: int) -> tuple[list[float], list[float]]:
    """MOVES remote moves delivered through `receive`: ms of the scene's share of each (its
    change listener), and of the whole `receive` call."""
    from table.core import actions

    scene = window.scene
    listener_ms: list[float] = []

    def timed(change: Any) -> None:
        t0 = time.perf_counter()
        scene.on_change(change)
        listener_ms.append((time.perf_counter() - t0) * 1000)

    scene.detach()  # the scene hears each change through the timed wrapper instead
    stop_timing = local.subscribe(timed)
    rnd = random.Random(seed + 1)
    receive_ms: list[float] = []
    for i in range(MOVES):
        card = f"card{rnd.randrange(CARDS)}"
        dest = f"zone{rnd.randrange(ZONES)}"
        op = actions.move(remote, card, dest, pos=[float(rnd.randint(70, 650)),
                                                   float(rnd.randint(100, 240))])
        t0 = time.perf_counter()
        local.receive(op.to_wire(), "remote")
        receive_ms.append((time.perf_counter() - t0) * 1000)
        if i % 100 == 0:
            app.processEvents()  # let paints happen now and then, as a live window would
    app.processEvents()
    stop_timing()
    return listener_ms, receive_ms


def _misplaced(window: Any, local: Any) -> int:
    """Cards the scene shows somewhere other than where the state says."""
    wrong = 0
    for i in range(CARDS):
        obj = local.state.objs[f"card{i}"]
        item = window.scene.cards[obj.id]
        rect = window.scene.layout.rects[obj.container]
        if obj.pos is not None and abs(item.pos().x() - rect.left() - obj.pos[0]) > 0.5:
            wrong += 1
    return wrong


def _pictures_in_sight(window: Any) -> list[tuple[Any, float, float]]:
    """Each card in sight: its picture at the view's device scale, and its picture's top-left
    in scene units (the floor scene draws the same pixmaps at the same places)."""
    from table.ui.card_pixmaps import MARGIN, STEPS, picture
    from table.ui.items.card_marks import CARD_RECT

    view = window.view
    zoom = view.zoom * view.devicePixelRatioF()
    in_view = view.mapToScene(view.viewport().rect()).boundingRect()
    out = []
    for item in sorted(window.scene.cards.values(), key=lambda i: i.zValue()):
        if not in_view.intersects(item.sceneBoundingRect()):
            continue
        corner = item.scenePos() + CARD_RECT.topLeft()
        out.append((picture(item.look, max(1, round(zoom * STEPS))),
                    corner.x() - MARGIN / zoom, corner.y() - MARGIN / zoom))
    return out


def _process_age() -> float:
    """Seconds since this process started (Linux: /proc), else since the bench module loaded."""
    try:
        stat = Path("/proc/self/stat").read_text()
        ticks = int(stat.rsplit(")", 1)[1].split()[19])
        uptime = float(Path("/proc/uptime").read_text().split()[0])
        return uptime - ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return time.perf_counter() - _LOADED


_LOADED = time.perf_counter()


def first_frame_child(game: str = "dead-to-rites") -> None:
    """Run in a fresh process (`sandtable bench ui` starts it): `sandtable play --game GAME`,
    printing the process's age when the table view first paints, then quitting."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QEvent, QObject
    from PySide6.QtWidgets import QApplication, QGraphicsView

    app = QApplication(["sandtable"])

    class FirstPaint(QObject):
        done = False

        def eventFilter(self, obj: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Paint and not self.done and \
                    isinstance(obj.parent(), QGraphicsView):
                self.done = True
                print(f"{_process_age():.3f}", flush=True)
                os._exit(0)  # measured; the table may not have started its event loop yet
            return False

    spy = FirstPaint()
    app.installEventFilter(spy)
    from table.app.desktop import run_app

    run_app([], game=game)


def _process_start_to_first_frame() -> tuple[float, float]:
    """Seconds from a fresh process's start to its first frame: `sandtable play`, and the
    floor's bare QGraphicsView, run in turns so both see the same load."""
    import subprocess
    import sys
    import tempfile

    # as on a player's machine after the first launch: byte code cached (kept out of the tree),
    # settings and saves in a folder of their own
    with tempfile.TemporaryDirectory(prefix="sandtable-bench-") as tmp:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env.update(QT_QPA_PLATFORM="offscreen", PYTHONPYCACHEPREFIX=os.path.join(tmp, "pyc"),
                   SANDTABLE_HOME=os.path.join(tmp, "home"))
        app_code = "from table.bench.ui import first_frame_child; first_frame_child()"
        ages: dict[str, list[float]] = {app_code: [], ui_floor.BARE_VIEW_CHILD: []}
        for _ in range(RUNS):  # the first run writes the byte code; the best of the others
            for code, seen in ages.items():
                out = subprocess.run([sys.executable, "-c", code], capture_output=True,
                                     text=True, timeout=120, env=env)
                try:
                    seen.append(float(out.stdout.strip().splitlines()[-1]))
                except (ValueError, IndexError):
                    seen.append(float("nan"))
        return min(ages[app_code][1:]), min(ages[ui_floor.BARE_VIEW_CHILD][1:])


def _hover_zoom_ms(app: Any, window: Any) -> list[float]:
    """Alt pressed with the cursor over a card (come there as a mouse does: moving onto it),
    to the zoomed card painted; one card per look."""
    from PySide6.QtCore import QEvent, QPointF, Qt
    from PySide6.QtGui import QCursor, QKeyEvent, QMouseEvent

    view = window.view
    seen: set[int] = set()
    out: list[float] = []
    for item in window.scene.cards.values():
        if item.look in seen or len(out) >= 12:
            continue
        centre = view.viewport().mapToGlobal(view.mapFromScene(item.sceneBoundingRect().center()))
        QCursor.setPos(centre)
        if view.card_under_cursor() is None:
            continue
        seen.add(item.look)
        local = QPointF(view.viewport().mapFromGlobal(centre))
        app.sendEvent(view.viewport(), QMouseEvent(
            QEvent.Type.MouseMove, local, QPointF(centre), Qt.MouseButton.NoButton,
            Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier))
        app.processEvents()  # the idle moment after the cursor arrives
        press = QKeyEvent(QEvent.Type.KeyPress, Qt.Key.Key_Alt, Qt.KeyboardModifier.AltModifier)
        t0 = time.perf_counter()
        app.sendEvent(view, press)
        view.hover_zoom.repaint()
        out.append((time.perf_counter() - t0) * 1000)
        app.sendEvent(view, QKeyEvent(QEvent.Type.KeyRelease, Qt.Key.Key_Alt,
                                      Qt.KeyboardModifier.NoModifier))
    return out or [float("nan")]


if __name__ == "__main__":
    for key, value in run_bench().items():
        print(f"{key:>22}: {value:.3f}")
