"""`sandtable bench print`: a 200-card module to a PDF and to Tabletop Simulator sheets, each
against its floor measured in the same run: painting the same 200 faces into images alone.

The cards are Gauntlet's, copied under new ids until there are 200 distinct faces (so no face
is painted once and reused). Last line: JSON with the three times and the two ratios.
"""
from __future__ import annotations

import os
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

CARDS = 200


def _cards() -> tuple[list[Any], Any]:
    from table.games import find_module
    from table.ui.catalog import BackStyle, Catalog
    from table.ui.print.true_size import PrintCard

    module = find_module("gauntlet")
    catalog = Catalog.from_module(module)
    base = [catalog.face(cid) for cid in module.cards]
    cards = []
    for i in range(CARDS):
        face = base[i % len(base)]
        face = replace(face, id=f"{face.id}-{i}", name=f"{face.name} {i // len(base) + 1}")
        cards.append(PrintCard(face.id, face, BackStyle(module.back.colour, module.back.label)))
    assert module.card_size is not None
    return cards, module.card_size


def _best(fn: Any, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def run_bench(dpi: int = 300, repeat: int = 3) -> dict[str, Any]:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from table.ui.print.card_images import card_image, export
    from table.ui.print.pdf_sheets import write_pdf
    from table.ui.print.sheet_layout import plan

    _app = QApplication.instance() or QApplication(["bench"])
    cards, size = _cards()
    layout = plan("a4", size.width_mm, size.height_mm)
    with tempfile.TemporaryDirectory(prefix="sandtable-bench-print-") as tmp:
        out = Path(tmp)
        floor = _best(lambda: [card_image(c, size, dpi) for c in cards], repeat)
        pdf = _best(lambda: write_pdf(out / "cards.pdf", cards, size, layout, "a4"), repeat)
        sheets = _best(lambda: export(cards, size, out / "tts", dpi, (10, 7), singles=False),
                       repeat)
        pdf_bytes = (out / "cards.pdf").stat().st_size
    del _app
    result: dict[str, Any] = {"bench": "print", "cards": CARDS, "dpi": dpi, "paint_faces_s": round(floor, 3),
              "pdf_s": round(pdf, 3), "sheets_s": round(sheets, 3),
              "pdf_ratio": round(pdf / floor, 2), "sheets_ratio": round(sheets / floor, 2),
              "pdf_mb": round(pdf_bytes / 1e6, 2), "limit_ratio": 2.0}
    result["ok"] = result["pdf_ratio"] <= 2.0 and result["sheets_ratio"] <= 2.0
    return result
