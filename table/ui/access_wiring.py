"""The table window's faces for the keyboard and for screen readers, wired into it: the keys
(key_routes.py), the outline panel (panels/outline_panel.py), the announcer (announcer.py),
and the toolbar's View menu: the outline, the keys' help, the colour palette and how much is
announced (both remembered in the settings)."""
from __future__ import annotations

from functools import partial
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup, QBrush, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QDockWidget,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QTextEdit,
    QToolBar,
    QToolButton,
    QWidget,
)

from . import theme
from .announcer import DEFAULT_LEVEL, LEVELS, Announcer
from .key_routes import KeyRoutes
from .palettes import DEFAULT, PALETTES
from .panels.outline_panel import OutlinePanel
from .style import apply_style

FIELDS = (QLineEdit, QAbstractSpinBox, QComboBox, QAbstractItemView, QTextEdit, QPlainTextEdit)


def install_access(w: Any) -> None:
    """Give the table window `w` (a TableWindow, its docks and toolbar made) its keys,
    outline, announcer and View menu."""
    w.keys = KeyRoutes(w)
    # the card the keys are on is read in the Card panel, as the one under the pointer is
    w.keys.focus.moved.connect(lambda: w.keys.focus.shown and w.preview.show_card(
        w.keys.focus.object_id() or ""))
    w.outline = OutlinePanel(w.keys)
    dock = QDockWidget("Table outline", w)
    dock.setObjectName("dock-Table outline")
    dock.setWidget(w.outline)
    dock.setFeatures(w.docks["log"].features())
    w.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
    w.tabifyDockWidget(w.docks["log"], dock)  # a tab beside the log: no room of its own
    w.docks["log"].raise_()
    w.docks["outline"] = dock
    name_fields(w)
    w.keys.show_table = w.view.setFocus
    w.outline.addActions(w.view.actions())  # F, R, D, N... from the outline too
    extra = w.settings.extra if w.settings is not None else {}
    if extra.get("palette", DEFAULT) != theme.PALETTE.id:
        use_palette(extra.get("palette"))
    w.announcer = Announcer(w.ctl, w.outline, str(extra.get("announce", DEFAULT_LEVEL)))
    bar = w.findChild(QToolBar, "toolbar-table")
    w.view_menu = _view_menu(w, bar)
    for keys, step in (("F6", 1), ("Shift+F6", -1)):  # the panes, wherever the keys are
        pane = QShortcut(QKeySequence(keys), w)
        pane.activated.connect(partial(next_pane, w, step))
    # the toolbar's menus by keys: Alt+V, Alt+G, Alt+D
    for keys, button in (("Alt+V", bar.findChild(QToolButton, "view-menu")),
                         ("Alt+G", bar.findChild(QToolButton, "game-menu")),
                         ("Alt+D", getattr(w.declaring, "button", None))):
        if isinstance(button, QToolButton):
            shortcut = QShortcut(QKeySequence(keys), w)
            shortcut.activated.connect(button.showMenu)


def name_fields(w: Any) -> None:
    """Every field and list of the side panels named for screen readers: a field by what it
    asks for (its placeholder), a list by its panel's title."""
    for dock in w.docks.values():
        for child in dock.widget().findChildren(QWidget):
            if child.accessibleName() or not isinstance(child, FIELDS):
                continue
            hint = child.placeholderText() if isinstance(child, QLineEdit) else ""
            child.setAccessibleName(hint.rstrip("…. ") or dock.windowTitle())


def show_outline(w: Any) -> None:
    """The outline, with the keyboard in it (on the piece the keys are on)."""
    dock = w.docks["outline"]
    dock.show()
    dock.raise_()
    w.keys.focus.shown = True
    w.outline.follow()
    w.outline.setFocus(Qt.FocusReason.ShortcutFocusReason)


def next_pane(w: Any, step: int) -> None:
    """F6 (Shift+F6 back): the table, its outline, the chat's field, round again."""
    panes = ["table", "outline", "chat"]
    here = QApplication.focusWidget()
    at = 1 if here is w.outline else 2 if here is w.chat.entry else 0
    pane = panes[(at + step) % len(panes)]
    if pane == "outline":
        show_outline(w)
    elif pane == "chat":
        w.docks["chat"].show()
        w.docks["chat"].raise_()
        w.chat.entry.setFocus(Qt.FocusReason.ShortcutFocusReason)
    else:
        w.view.setFocus(Qt.FocusReason.ShortcutFocusReason)


def _view_menu(w: Any, bar: QToolBar) -> QMenu:
    menu = QMenu("View", w)
    outline = menu.addAction("Table outline\tF6")  # F6 itself: the window's (next_pane)
    outline.triggered.connect(lambda _=False: show_outline(w))
    keys = menu.addAction("Keys and mouse…")
    keys.triggered.connect(lambda _=False: w.help.toggle())
    extra = w.settings.extra if w.settings is not None else {}
    colours = _choices(menu.addMenu("Colours"), {p.id: p.name for p in PALETTES.values()},
                       theme.PALETTE.id, partial(_palette_chosen, w))
    said = _choices(menu.addMenu("Announcements (screen readers)"), LEVELS,
                    str(extra.get("announce", DEFAULT_LEVEL)), partial(_level_chosen, w))
    menu.setProperty("choices", (colours, said))  # kept with the menu
    button = QToolButton()
    button.setObjectName("view-menu")
    button.setText("View")
    button.setToolTip("The table outline (F6), the keys, colours for every eye or high "
                      "contrast, what a screen reader announces (Alt+V)")
    button.setMenu(menu)
    button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
    # after the toolbar's other menus, before its way back to the start screen
    back = next((a for a in bar.actions() if a.text() == "Start screen"), None)
    if back is not None:
        bar.insertWidget(back, button)
    else:
        bar.addWidget(button)
    return menu


def _choices(menu: QMenu, options: dict[str, str], current: str, chosen: Any) -> QActionGroup:
    group = QActionGroup(menu)
    for key, text in options.items():
        act = QAction(text, menu)
        act.setCheckable(True)
        act.setChecked(key == current)
        act.triggered.connect(lambda _=False, k=key: chosen(k))
        group.addAction(act)
        menu.addAction(act)
    return group


def _remember(w: Any, key: str, value: str) -> None:
    if w.settings is not None:
        w.settings.extra[key] = value
        w.settings.save()


def _palette_chosen(w: Any, palette_id: str) -> None:
    _remember(w, "palette", palette_id)
    use_palette(palette_id)
    w.ctl.status.emit(f"Colours: {PALETTES[palette_id].name}")


def _level_chosen(w: Any, level: str) -> None:
    _remember(w, "announce", level)
    w.announcer.level = level
    w.ctl.status.emit(f"Announcements: {LEVELS[level]}")


def use_palette(palette_id: str | None) -> None:
    """Paint every table window, its panels and dialogs in this palette from now on."""
    theme.use_palette(palette_id)
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        return
    apply_style(app)
    for widget in app.topLevelWidgets():
        scene = getattr(widget, "scene", None)
        if scene is not None and hasattr(scene, "refresh_view"):
            repaint_table(widget)


def repaint_table(w: Any) -> None:
    """The window's table and panels in the palette now in use."""
    scene = w.scene
    scene.setBackgroundBrush(QBrush(theme.TABLE_BG))
    scene.refresh_view()
    for card in scene.cards.values():
        card.marks.refresh()
    for i, seat in enumerate(w.ctl.seats[:w.seat_bar.count()]):
        w.seat_bar.setTabTextColor(i, theme.seat_colour(seat, w.ctl.seat_colour(seat)))
    w.log_panel.rebuild()
    w.seats.refresh()
    w.turn.refresh()
    scene.update()
