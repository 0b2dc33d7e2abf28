"""Rules-assist declarations from the toolbar's Declare menu: an attack, a Pact, a card effect.

Fields that name pieces (attacker, target, card...) come from the selection, else the player
points at them on the table; only values (a seat, a number) are typed.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from PySide6.QtWidgets import QMenu, QStatusBar, QToolBar, QToolButton, QWidget

from .ask import ask_text
from .controller import TableController
from .pointing import Pointer, is_pointed
from .view import TableView


class Selection(Protocol):
    def selected_ids(self) -> list[str]: ...


class DeclaringHost(Protocol):
    """What declaring needs of the table window."""
    ctl: TableController
    view: TableView
    assist_runner: Any  # the rules assist (its declarations), or None

    @property
    def scene(self) -> Selection: ...

    def statusBar(self) -> QStatusBar: ...
    def window(self) -> QWidget: ...  # the parent of its menu and questions


class Declaring:
    def __init__(self, host: DeclaringHost) -> None:
        self.host = host
        self.ctl, self.scene = host.ctl, host.scene
        self.pointer = Pointer(host.view, lambda text: host.statusBar().showMessage(text))
        self.button: QToolButton | None = None  # the toolbar's Declare button, with an assist
        self.menu: QMenu | None = None

    def build_menu(self, bar: QToolBar,
                   start_assist: Callable[[], None] | None = None) -> QMenu | None:
        """The toolbar's Declare menu, with the assist's declarations; `start_assist`: the
        assist is still to come (late_assist.py), its declarations fill the menu then (opening
        the menu before that starts it)."""
        runner = self.host.assist_runner
        if runner is None and start_assist is None:
            return None
        menu = self.menu = QMenu("Declare", self.host.window())
        if runner is not None:
            self.fill_menu(runner)
        elif start_assist is not None:
            menu.aboutToShow.connect(start_assist)
        button = QToolButton()
        button.setText("Declare")
        button.setToolTip("Declare an attack, a Pact, a card effect... (logged for the assist)")
        button.setMenu(menu)
        button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        bar.addSeparator()
        bar.addWidget(button)
        self.button = button
        return menu

    def fill_menu(self, runner: Any) -> None:
        if self.menu is None or self.menu.actions():
            return
        for spec in runner.declarations:
            act = self.menu.addAction(spec.label)
            act.triggered.connect(lambda _=False, sp=spec: self.declare(sp))

    def declare(self, spec: Any, fields: dict[str, Any] | None = None) -> None:
        """Issue a declaration. Its fields come from `fields`, then the selection; pieces still
        missing (attacker, target, card...) are pointed at on the table, then the rest typed."""
        values = dict(fields or {})
        chosen = list(self.scene.selected_ids())
        to_point = []
        for name in spec.fields:
            if name in values:
                continue
            if chosen:
                values[name] = chosen.pop(0)
            elif is_pointed(name):
                to_point.append(name)
        if not to_point:
            self._declare_rest(spec, values)
            return
        prompts = [f"{spec.label}: click the {name} (or Enter on it)" for name in to_point]
        self.pointer.ask(prompts, lambda ids: self._declare_rest(
            spec, {**values, **dict(zip(to_point, ids, strict=False))}))

    def _declare_rest(self, spec: Any, values: dict[str, Any]) -> None:
        from .panels.assist_panel import declare

        for name in spec.fields:
            if name not in values:
                text, ok = ask_text(self.host.window(), spec.label, f"{name}:")
                if not ok:
                    return
                values[name] = text.strip()
        if self.ctl.act(declare, spec.name, values).op is not None:
            self.ctl.status.emit(f"Declared: {spec.label}")
