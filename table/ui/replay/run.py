"""`sandtable replay FILE`: the replay view on its own (or a picture of it, offscreen)."""
from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any


def open_replay(path: str | Path, *, at: int | None = None, seat: int | None = None,
                on_fork: Any = None) -> Any:
    """A ReplayWindow over a log (raises CoreError/OSError when the file cannot be read)."""
    from ..games import open_log
    from .window import ReplayWindow

    source, catalog = open_log(path, reopen=False)
    # read for this window alone: its fold becomes the replay's cursor (the log folds once)
    return ReplayWindow(source, catalog, path=path, at=at, seat=seat, on_fork=on_fork,
                        take_fold=True)


def _open_table(replica: Any, catalog: Any) -> Any:
    from ..main_window import TableWindow

    window = TableWindow(replica, catalog, title=f"{catalog.game_name} — forked — Sandtable")
    window.show()
    return window


def run_replay(path: str, *, at: int | None = None, seat: int | None = None,
               screenshot: str | None = None, size: str = "1600x1000") -> int:
    if screenshot:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from table.core.errors import CoreError

    from ..style import apply_style
    from ..text_size import apply_text_scale

    app = QApplication.instance() or QApplication(["sandtable"])
    assert isinstance(app, QApplication)
    apply_style(app)
    apply_text_scale(app)  # the text size the player chose
    try:
        window = open_replay(path, at=at, seat=seat, on_fork=_open_table)
    except (CoreError, OSError) as err:
        print(f"sandtable: {err}", file=sys.stderr)
        return 1
    if screenshot:
        from ..render import save_window_png

        w, h = (int(v) for v in size.lower().split("x"))
        ok = save_window_png(app, window, (w, h), screenshot)
        window.shutdown()
        print(f"wrote {screenshot}" if ok else f"cannot write {screenshot}")
        return 0 if ok else 1
    window.show()
    return app.exec()
