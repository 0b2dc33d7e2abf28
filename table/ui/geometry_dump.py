"""Where the table's cards are on the screen, for tests that drive a real window from outside
(xdotool under Xvfb): with SANDTABLE_GEOMETRY_OUT=<file> set, each table window writes the
screen centres of the viewing seat's hand cards there (JSON) once it has settled.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, cast

from PySide6.QtCore import QTimer

if TYPE_CHECKING:
    from .main_window import TableWindow

ENV = "SANDTABLE_GEOMETRY_OUT"


def watch(window: TableWindow) -> None:
    path = os.environ.get(ENV)
    if path:
        QTimer.singleShot(1000, lambda: write(window, Path(path)))


def write(window: TableWindow, path: Path) -> None:
    view, scene = window.view, window.scene
    hand = scene.own_hand()
    cards = []
    for cid in scene.state.objs[hand].children if hand else []:
        item = scene.cards.get(cid)
        if item is None or not item.isVisible():
            continue
        centre = view.viewport().mapToGlobal(view.mapFromScene(item.sceneBoundingRect().center()))
        cards.append({"id": cid, "x": centre.x(), "y": centre.y(), "z": item.zValue()})
    cards.sort(key=lambda c: cast(float, c["z"]))
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps({"hand": cards, "zoom": view.zoom}))
    tmp.replace(path)  # whole or not at all: the test polls for it
