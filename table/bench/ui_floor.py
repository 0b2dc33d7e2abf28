"""The floors `sandtable bench ui` measures the table against, in the same run: the same
unavoidable work with nothing of ours.

- repaint: a bare QGraphicsScene of plain QGraphicsPixmapItems, one per card in sight, each
  the card's own picture at device size (the pixmaps the table blits), at the cards' places,
  in a view of the same size and zoom;
- zoom frame: the first frame after the same zoom steps in that bare scene (Qt scales the
  pixmaps, as the table scales its cached pictures until zooming pauses);
- process start: a fresh Python process that opens a bare QGraphicsView (QApplication, a scene
  of one rectangle, shown) and reports its age at the first paint.
"""
from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

REPAINTS = 60
ZOOM_STEPS = 30
ZOOM_STEP = 1.02


def time_repaints(views: list[Any], zooms: list[Callable[[float], None]]
                  ) -> list[tuple[float, float]]:
    """For each view (zoomed by its function in `zooms`), the median ms of a full synchronous
    repaint (warm) and of the first frame after each of ZOOM_STEPS zoom steps (cold); the zoom
    ends where it started. The views take turns, frame by frame, so each sees the same load on
    a shared machine."""
    warm: list[list[float]] = [[] for _ in views]
    cold: list[list[float]] = [[] for _ in views]
    for view in views:
        view.viewport().repaint()
    for _ in range(REPAINTS):
        for k, view in enumerate(views):
            warm[k].append(_ms(view.viewport().repaint))
    for step in range(ZOOM_STEPS):
        factor = ZOOM_STEP if step % 2 else 1 / ZOOM_STEP
        for k, view in enumerate(views):
            zooms[k](factor)
            cold[k].append(_ms(view.viewport().repaint))
    return [(statistics.median(w), statistics.median(c)) for w, c in zip(warm, cold, strict=True)]


def _ms(fn: Callable[[], object]) -> float:
    """The GUI thread's CPU time for `fn` (painting is all there): what other processes on a
    shared machine take in between is left out."""
    t0 = time.thread_time()
    fn()
    return (time.thread_time() - t0) * 1000


def bare_scene_view(table_view: Any, pictures: list[tuple[Any, float, float]]) -> Any:
    """A bare QGraphicsView the size of `table_view`'s viewport, at its transform and centre,
    over a scene of QGraphicsPixmapItems: (pixmap, x, y) with x, y the picture's top-left in
    scene units; each drawn at device size (scaled by 1 / zoom in the scene)."""
    from PySide6.QtGui import QTransform
    from PySide6.QtWidgets import (
        QApplication,
        QGraphicsPixmapItem,
        QGraphicsScene,
        QGraphicsView,
    )

    zoom = table_view.transform().m11()
    view = QGraphicsView()
    scene = QGraphicsScene(view)  # the view keeps it
    scene.setSceneRect(table_view.sceneRect())
    for pix, x, y in pictures:
        item = QGraphicsPixmapItem(pix)
        item.setTransform(QTransform.fromScale(1 / zoom, 1 / zoom))
        item.setPos(x, y)
        scene.addItem(item)
    view.setScene(scene)
    view.setFrameShape(table_view.frameShape())
    view.setHorizontalScrollBarPolicy(table_view.horizontalScrollBarPolicy())
    view.setVerticalScrollBarPolicy(table_view.verticalScrollBarPolicy())
    size = table_view.viewport().size()
    view.resize(size.width() + 2 * view.frameWidth(), size.height() + 2 * view.frameWidth())
    view.setTransform(table_view.transform())
    view.show()
    view.viewport().resize(size)
    view.centerOn(table_view.mapToScene(table_view.viewport().rect().center()))
    QApplication.processEvents()  # shown and exposed: repaints paint now
    return view


# run with `python -c`: it imports nothing of Sandtable's
BARE_VIEW_CHILD = """
import os, sys
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
def age():
    ticks = int(open("/proc/self/stat").read().rsplit(")", 1)[1].split()[19])
    return float(open("/proc/uptime").read().split()[0]) - ticks / os.sysconf("SC_CLK_TCK")
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication, QGraphicsScene, QGraphicsView
app = QApplication(["bare"])
class FirstPaint(QObject):
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint:
            print(f"{age():.3f}", flush=True)
            app.quit()
        return False
scene = QGraphicsScene()
scene.addRect(0, 0, 100, 140)
view = QGraphicsView(scene)
spy = FirstPaint()
view.viewport().installEventFilter(spy)
view.resize(1366, 768)
view.show()
app.exec()
"""
