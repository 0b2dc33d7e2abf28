"""Render a table window after setup to a PNG, offscreen (the `screenshot` command, docs)."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any


def render_table(game_id: str, seats: int | None, seat: int | None, size: tuple[int, int],
                 out: str | Path) -> Path:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from .games import available_games, start_game
    from .main_window import TableWindow
    from .style import apply_style

    app = QApplication.instance() or QApplication(["sandtable"])
    apply_style(app)  # type: ignore[arg-type]
    choices = {g.id: g for g in available_games()}
    if game_id not in choices:
        raise SystemExit(f"unknown game {game_id!r}; known: {', '.join(sorted(choices))}")
    choice = choices[game_id]
    n = seats or choice.max_seats
    replica, catalog = start_game(choice, n, choice.default_decks[:n] or None)
    window = TableWindow(replica, catalog)
    if seat is not None:
        window.ctl.set_seat(seat)
    saved = save_window_png(app, window, size, out)
    window.shutdown()
    window.deleteLater()
    if not saved:
        raise SystemExit(f"cannot write {out}")
    return Path(out)


def save_window_png(app: Any, window: Any, size: tuple[int, int], out: str | Path) -> bool:
    """Show a table (or replay) window at `size`, fit the table in it, and save a picture."""
    window.resize(*size)
    window.show()
    for _ in range(3):  # let the layout and the scene settle before fitting
        app.processEvents()
    fit = getattr(window.view, "fit_legible", window.view.fit_table)
    fit()
    window.view.settle_zoom()  # cards crisp at this scale, as once zooming pauses
    app.processEvents()
    path = Path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    return bool(window.grab().save(str(path)))
