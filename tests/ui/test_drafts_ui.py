"""Playing a draft from its folder: the start screen's button opens it, a saved edit re-draws
the cards on the table with their new text, a broken edit is shown and changes nothing."""
from __future__ import annotations

import shutil
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

REPO = Path(__file__).resolve().parents[2]


def _draft(tmp_path: Path) -> Path:
    folder = tmp_path / "draft" / "gauntlet"
    shutil.copytree(REPO / "assets" / "gauntlet", folder)
    return folder


def test_a_draft_folder_plays_and_follows_its_edits(qtbot, tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    from table.ui.shell import Shell

    folder = _draft(tmp_path)
    monkeypatch.setattr(QFileDialog, "getExistingDirectory",
                        staticmethod(lambda *a, **k: str(folder)))
    shell = Shell()
    shell.show_start()
    qtbot.addWidget(shell.start)
    qtbot.mouseClick(shell.start.from_folder, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(shell.tables), timeout=10000)
    window = shell.tables[-1]
    qtbot.addWidget(window)
    leader = next(oid for oid, item in window.scene.cards.items()
                  if item.face is not None and item.face.name == "Ambassador")
    assert "draw one card" in window.scene.cards[leader].face.text

    cards = folder / "cards.csv"
    cards.write_text(cards.read_text("utf-8").replace("draw one card", "draw two cards"),
                     encoding="utf-8")
    qtbot.waitUntil(lambda: "draw two cards" in (window.scene.cards[leader].face.text or ""),
                    timeout=10000)
    assert window.replica.state.module["version"] == window.ctl.catalog.module.version
    changed = [r for r in window.replica.records() if r.op.kind == "module"
               and r.op.args.get("changes")]
    assert len(changed) == 1 and changed[0].op.args["changes"]["cards"] == \
        (REPO / "assets" / "gauntlet" / "cards.csv").read_text("utf-8").count("draw one card")

    ops = len(window.replica.records())
    with open(cards, "a", encoding="utf-8") as f:
        f.write('broken-card,"unterminated\n')
    qtbot.waitUntil(lambda: "The draft has errors" in window.statusBar().currentMessage(),
                    timeout=10000)
    assert "cards.csv:" in window.statusBar().currentMessage()
    assert len(window.replica.records()) == ops
    assert "draw two cards" in window.scene.cards[leader].face.text
    for w in list(shell.tables):
        w.shutdown()
