"""Declaring by pointing: "click the attacker, then the target" instead of typing ids.

While a question is open the next left click on a piece (or Enter on the piece the keyboard
is on) answers it (the piece is selected so
the player sees what was chosen); Esc or a right-click gives up. The status bar says what to
click. The pieces chosen are handed on as object ids, which is what declarations store.
"""
from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent

from table.core.objects import ROOT

from .scene import TableScene
from .view import TableView

# declaration fields that name a piece on the table (the others are typed: seats, numbers)
POINTED = {"card", "attacker", "target", "defender", "blocker", "champion", "ward", "pact",
           "territory", "piece", "source", "tile"}


def is_pointed(field: str) -> bool:
    return field in POINTED or field.endswith("card")


class Pointer(QObject):
    def __init__(self, view: TableView, say: Callable[[str], None]) -> None:
        super().__init__(view)
        self.view, self.say = view, say
        self.prompts: list[str] = []
        self.chosen: list[str] = []
        self.done: Callable[[list[str]], None] | None = None

    @property
    def active(self) -> bool:
        return self.done is not None

    def ask(self, prompts: list[str], done: Callable[[list[str]], None]) -> None:
        """Ask for one piece per prompt, in order; `done` gets their ids (never on Esc)."""
        self.cancel()
        self.prompts, self.chosen, self.done = list(prompts), [], done
        self.view.viewport().installEventFilter(self)
        self.view.installEventFilter(self)
        self.view.viewport().setCursor(Qt.CursorShape.CrossCursor)
        self.view.setFocus()
        self.say(self.prompts[0] + "  (Esc: cancel)")

    def cancel(self) -> None:
        if self.active:
            self._stop()
            self.say("Declaration cancelled")

    def _stop(self) -> None:
        self.done = None
        self.view.viewport().removeEventFilter(self)
        self.view.removeEventFilter(self)
        self.view.viewport().unsetCursor()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            if event.key() == Qt.Key.Key_Escape:
                self.cancel()
                return True
            return False
        if watched is not self.view.viewport():
            return False
        if kind == QEvent.Type.MouseButtonPress and isinstance(event, QMouseEvent):
            if event.button() == Qt.MouseButton.LeftButton:
                self._pick(event)
            else:
                self.cancel()
            return True
        return kind in (QEvent.Type.MouseButtonRelease, QEvent.Type.MouseButtonDblClick,
                        QEvent.Type.ContextMenu)

    def _pick(self, event: QMouseEvent) -> None:
        scene: TableScene = self.view.scene()  # type: ignore[assignment]
        item = scene.piece_at(self.view.mapToScene(event.position().toPoint()))
        self.pick(getattr(item, "obj_id", ROOT) if item is not None else ROOT)

    def pick(self, obj_id: str | None) -> None:
        """Answer the open question with this piece (a click on it, or Enter on the piece the
        keyboard is on)."""
        scene: TableScene = self.view.scene()  # type: ignore[assignment]
        item = scene.item_for(obj_id) if obj_id is not None and obj_id != ROOT else None
        if obj_id is None or obj_id == ROOT or item is None:
            self.say("Choose a piece: " + self.prompts[len(self.chosen)] + "  (Esc: cancel)")
            return
        self.chosen.append(obj_id)
        if len(self.chosen) == 1:
            scene.clearSelection()
        item.setSelected(True)
        if len(self.chosen) < len(self.prompts):
            self.say(self.prompts[len(self.chosen)] + "  (Esc: cancel)")
            return
        done, chosen = self.done, list(self.chosen)
        self._stop()
        scene.clearSelection()  # answered: the next declaration starts afresh
        if done is not None:
            done(chosen)
