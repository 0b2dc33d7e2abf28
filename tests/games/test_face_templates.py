"""Face templates: the examples in docs/game-module.md load in their games and paint every
region; bad regions and card sizes are reported with their game.toml line."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from table.games import load_module
from table.games.problems import ModuleError

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "game-module.md").read_text(encoding="utf-8")
EXAMPLES = {m.group(2): m.group(1)
                             for m in re.finditer(r"```toml\n(# example: ([a-z-]+)[^`]*)```", DOC)}


def _with(tmp_path: Path, game: str, extra: str) -> Path:
    folder = tmp_path / game
    shutil.copytree(ROOT / "assets" / game, folder)
    toml = folder / "game.toml"
    toml.write_text(toml.read_text(encoding="utf-8") + "\n" + extra, encoding="utf-8")
    return folder


def test_every_shipped_game_has_an_example():
    assert set(EXAMPLES) == {"dead-to-rites", "gauntlet", "mantle-of-the-keeper"}


@pytest.mark.parametrize("game", sorted(EXAMPLES))
def test_the_documented_example_loads_and_paints_each_region(game, tmp_path, qapp):  # type: ignore[no-untyped-def]
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QImage, QPainter

    from table.ui.card_renderer import paint_face, recording_texts
    from table.ui.catalog import Catalog

    module = load_module(_with(tmp_path, game, EXAMPLES[game]))
    [(card_type, regions)] = module.front.layouts.items()
    catalog = Catalog.from_module(module)
    faces = [f for f in catalog.faces.values() if f.type == card_type and "#" not in f.id]
    assert faces and all(f.layout == regions for f in faces)
    img = QImage(240, 336, QImage.Format.Format_ARGB32)
    p = QPainter(img)
    p.scale(2, 2)
    with recording_texts() as texts:
        paint_face(p, QRectF(0, 0, 120, 168), faces[0], 1.0)
    p.end()
    assert faces[0].name in texts
    for region in regions:
        if region.show in ("power", "guard", "block"):
            assert f"{faces[0].label(region.show)} {faces[0].value(region.show)}" in texts


def test_bad_regions_are_named_by_line(tmp_path):  # type: ignore[no-untyped-def]
    extra = ('[templates.front.by_type.Unit]\nregions = [\n'
             '  { show = "nonsense", at = [0, 0, 10, 10] },\n'
             '  { show = "name", at = [90, 0, 20, 10] },\n'
             '  { show = "name", at = [0, 0, 50, 10], size = 500 },\n]\n')
    folder = _with(tmp_path, "gauntlet", extra)
    with pytest.raises(ModuleError) as err:
        load_module(folder)
    lines = (folder / "game.toml").read_text(encoding="utf-8").splitlines()
    text = "\n".join(str(p) for p in err.value.problems)
    for needle, why in (("nonsense", "is no card column"), ("[90, 0", "does not lie inside"),
                        ("size = 500", "font size in points")):
        n = next(i for i, t in enumerate(lines, 1) if needle in t)
        assert re.search(rf"game.toml:{n}: .*{why}", text), (needle, text)


def test_labels_give_full_names_and_short_forms_for_the_stat_line(tmp_path):  # type: ignore[no-untyped-def]
    module = load_module(ROOT / "assets" / "dead-to-rites")
    front = module.front
    assert [front.label_of(c) for c in ("power", "guard", "block", "cost")] == \
        ["Power", "Guard", "Block", "Favor"]
    assert [front.short_of(c) for c in ("power", "guard", "block")] == ["Pow", "Grd", "Blk"]
    # without a short form one is made from the name, never a blind three-letter cut
    assert front.short_of("ward") == "Ward" and front.short_of("favor_cap") == "FC"
    from table.games.model import abbreviate

    assert [abbreviate(w) for w in ("Guard", "Block", "Attack", "Movement", "Cost", "Favor cap")
            ] == ["Grd", "Blk", "Atk", "Mvt", "Cost", "FC"]


def test_a_bad_short_label_is_named_by_line(tmp_path):  # type: ignore[no-untyped-def]
    folder = _with(tmp_path, "gauntlet", "")
    toml = folder / "game.toml"
    text = toml.read_text(encoding="utf-8")
    assert "[templates.front.colours]" in text
    toml.write_text(text.replace("[templates.front.colours]", '[templates.front.labels]\n'
                                 'stake = { name = "Stake", short = "Stakes" }\n'
                                 'orders = { name = "Orders", shortname = "O" }\n\n'
                                 '[templates.front.colours]', 1), encoding="utf-8")
    with pytest.raises(ModuleError) as err:
        load_module(folder)
    lines = toml.read_text(encoding="utf-8").splitlines()
    problems = "\n".join(str(p) for p in err.value.problems)
    for needle, why in (('short = "Stakes"', "short must be 1 to 4 characters"),
                        ("shortname", "shortname")):
        n = next(i for i, t in enumerate(lines, 1) if needle in t)
        assert re.search(rf"game.toml:{n}: .*{why}", problems), (needle, problems)
