"""Print and export: only what changed since a version, bad input named by file and line, and
Tabletop Simulator sheets that say which card is where."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from table.app.cli import main
from table.games import find_module
from table.games.store import ModuleStore

ASSETS = Path(__file__).resolve().parents[2] / "assets"
poppler = pytest.mark.skipif(not shutil.which("pdftotext"), reason="needs poppler-utils")


def _draft(tmp_path: Path, game: str = "gauntlet") -> Path:
    folder = tmp_path / game
    shutil.copytree(ASSETS / game, folder)
    return folder


def _edit_cards(folder: Path, changes: dict[str, tuple[str, str]]) -> None:
    path = folder / "cards.csv"
    text = path.read_text(encoding="utf-8")
    for old, new in changes.values():
        assert old in text
        text = text.replace(old, new, 1)
    path.write_text(text, encoding="utf-8")


@poppler
@pytest.mark.processes
def test_changed_since_prints_exactly_the_two_edited_cards(tmp_path, qapp, monkeypatch):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("SANDTABLE_HOME", str(tmp_path / "home"))
    draft = _draft(tmp_path)
    ModuleStore().add_folder(draft)  # the version played before (0.6.x, in the module cache)
    version = find_module("gauntlet").version
    _edit_cards(draft, {"general": ("Forward. Again.", "Forward. Again and again."),
                        "cartographer": ("cartographer,Cartographer,Unit,Neutral,1,",
                                         "cartographer,Cartographer,Unit,Neutral,2,")})
    pdf = tmp_path / "reprint.pdf"
    for since in (version, str(ASSETS / "gauntlet")):  # by version, and by folder
        assert main(["print", "--module", str(draft), "--changed-since", since,
                     "--out", str(pdf)]) == 0
        text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True,
                              check=True).stdout
        pages = int(re.search(r"Pages:\s+(\d+)", subprocess.run(
            ["pdfinfo", str(pdf)], capture_output=True, text=True).stdout)[1])  # type: ignore[index]
        assert pages == 2  # one sheet of fronts, one of backs
        flat = " ".join(text.split())
        assert "General" in flat and "Cartographer" in flat
        others = [c.name for c in find_module("gauntlet").cards.values()
                  if c.name not in ("General", "Cartographer") and f"{c.name}" in flat
                  and len(c.name) > 8]
        assert others == []
    from table.games import load_module
    from table.ui.print.job import build_job

    job = build_job(load_module(draft), changed_since=version)
    assert sorted(c.card_id for c in job.cards) == ["cartographer", "general"]


def test_a_missing_or_absurd_card_size_is_named_with_its_file_and_line(tmp_path, qapp, capsys):  # type: ignore[no-untyped-def]
    draft = _draft(tmp_path)
    toml = draft / "game.toml"
    text = toml.read_text(encoding="utf-8")
    toml.write_text(text.replace('[templates.card]\nsize = "poker"\n', ""), encoding="utf-8")
    out = tmp_path / "x.pdf"
    assert main(["print", "--module", str(draft), "--out", str(out)]) == 1
    err = capsys.readouterr().err
    line = next(n for n, t in enumerate(toml.read_text().splitlines(), 1)
                if t.startswith("[templates"))
    assert f"gauntlet/game.toml:{line}: no card size" in err
    toml.write_text(text.replace('size = "poker"', "width_mm = 63\nheight_mm = 9000"),
                    encoding="utf-8")
    assert main(["print", "--module", str(draft), "--out", str(out)]) == 1
    err = capsys.readouterr().err
    line = next(n for n, t in enumerate(toml.read_text().splitlines(), 1)
                if t.startswith("height_mm"))
    assert re.search(rf"gauntlet/game.toml:{line}: .*height_mm = 9000 mm is not a card size", err)
    assert not out.exists()


def test_missing_or_unreadable_art_is_named_with_its_card_line(tmp_path, qapp, capsys):  # type: ignore[no-untyped-def]
    draft = _draft(tmp_path)
    csv = draft / "cards.csv"
    rows = csv.read_text(encoding="utf-8").splitlines()
    header = rows[0].split(",")
    image = header.index("image")
    lines = {}
    for n, name in ((1, "art/none.png"), (2, "art/broken.png")):
        cells = rows[n].split(",")
        assert cells[0] in ("general", "commandant")  # plain rows: no quoted commas before image
        cells[image - len(header)] = name
        rows[n] = ",".join(cells)
        lines[name] = n + 1
    (draft / "art").mkdir()
    (draft / "art" / "broken.png").write_bytes(b"not a picture")
    csv.write_text("\n".join(rows) + "\n", encoding="utf-8")
    out = tmp_path / "x.pdf"
    assert main(["print", "--module", str(draft), "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert f"gauntlet/cards.csv:{lines['art/none.png']}: card 'general': art 'art/none.png' is " \
           f"missing" in err
    assert f"gauntlet/cards.csv:{lines['art/broken.png']}: card 'commandant': art " \
           f"'art/broken.png' cannot be read" in err
    assert not out.exists() and not list(tmp_path.glob(".x.pdf*"))  # nothing half-written


def test_a_deck_list_naming_unknown_cards_is_refused_with_its_line(tmp_path, qapp, capsys):  # type: ignore[no-untyped-def]
    deck = tmp_path / "mine.txt"
    deck.write_text("faction: Military\n2 Cartographer\n1 No Such Card\n", encoding="utf-8")
    out = tmp_path / "x.pdf"
    assert main(["print", "--game", "gauntlet", "--deck", str(deck), "--out", str(out)]) == 1
    assert re.search(r"mine\.txt:3: no card named 'No Such Card'", capsys.readouterr().err)
    assert not out.exists()


def test_export_images_writes_cards_sheets_a_back_and_an_index(tmp_path, qapp):  # type: ignore[no-untyped-def]
    from PySide6.QtGui import QImage

    out = tmp_path / "tts"
    assert main(["export-images", "--game", "mantle-of-the-keeper", "--deck", "nomad",
                 "--dpi", "100", "--sheet", "4x3", "--out", str(out)]) == 0
    module = find_module("mantle-of-the-keeper")
    deck = module.starter_decks["nomad"]
    entries = [(cid, n) for s in deck.sections.values() for cid, n in s]
    total = sum(n for _, n in entries)
    w, h = round(63 * 100 / 25.4), round(88 * 100 / 25.4)
    for cid, _ in entries:
        img = QImage(str(out / f"{cid}.png"))
        assert (img.width(), img.height()) == (w, h)
    index = (out / "sheets.txt").read_text(encoding="utf-8").splitlines()
    slots = [line for line in index if line.startswith("sheet-")]
    assert len(slots) == total
    sheets = sorted(out.glob("sheet-*.png"))
    assert len(sheets) == -(-total // 12)
    first = QImage(str(sheets[0]))
    assert (first.width(), first.height()) == (4 * w, min(3, -(-total // 4)) * h)
    assert QImage(str(out / "back.png")).width() == w
    # the index names the card in each slot, in the deck list's order and counts
    named = [line.split()[-1] for line in slots]
    assert slots[0].startswith("sheet-1.png  4 x 3  row 1, col 1")
    assert len(named) == total
    assert main(["export-images", "--game", "gauntlet", "--sheet", "11x7",
                 "--out", str(out)]) == 1


@poppler
@pytest.mark.processes
def test_changed_since_a_log_prints_exactly_the_two_cards_edited_after_it(  # type: ignore[no-untyped-def]
        tmp_path, qapp, monkeypatch):
    """A draft is played (`sandtable new` writes its log, the module inside it), two of its
    cards are edited, and the reprint against that log holds exactly those two."""
    monkeypatch.setenv("SANDTABLE_HOME", str(tmp_path / "home"))
    shelf = tmp_path / "drafts"
    draft = _draft(shelf, "dead-to-rites")
    monkeypatch.setenv("SANDTABLE_ASSETS", str(shelf))  # `new --game` finds the draft first
    log = tmp_path / "playtest.sandlog"
    assert main(["new", "--game", "dead-to-rites", "--seats", "4", "--seed", "1",
                 "--out", str(log)]) == 0
    _edit_cards(draft, {
        "pyre": ("ember-court-pyre-stalker,Pyre Stalker,Champion,Ember Court,3,1,3,1,",
                 "ember-court-pyre-stalker,Pyre Stalker,Champion,Ember Court,3,1,4,1,"),
        "herald": ("May attack the turn it is played.",
                   "May attack the turn it is played; once more.")})
    pdf = tmp_path / "reprint.pdf"
    assert main(["print", "--module", str(draft), "--changed-since", str(log),
                 "--fronts-only", "--out", str(pdf)]) == 0
    text = " ".join(subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True,
                                   check=True).stdout.split())
    module = find_module("dead-to-rites")
    printed = [c.name for c in module.cards.values() if c.name in text]
    assert printed == ["Pyre Stalker", "Flame Herald"], printed
    assert "Power 4" in text and "once more" in text
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True).stdout
    assert re.search(r"Pages:\s+1\b", info), info
