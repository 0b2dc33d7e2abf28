"""What a card looks like on paper: its true size and the regions of a designer-laid face.

`[templates.card]` gives the size (a preset name or width_mm/height_mm); each
`[templates.front.by_type.<Type>]` may list `regions`, each placing one field of cards.csv (or
"stats", "art", "subtitle", "flags") in a box given in percent of the card. A type with no
regions keeps the built-in layout. Pure data: the UI's painter draws it, print and export reuse it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .toml_reader import Table

# Common card sizes in millimetres (width, height).
PRESETS: dict[str, tuple[float, float]] = {
    "poker": (63.0, 88.0),
    "bridge": (57.0, 89.0),
    "tarot": (70.0, 120.0),
    "mini": (44.0, 63.0),
}
MIN_MM, MAX_MM = 20.0, 300.0  # smaller cannot be handled, larger is no card
_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")
SPECIAL = ("stats", "art", "subtitle", "flags")
ALIGNS = ("left", "centre", "center", "right")
VALIGNS = ("top", "middle", "bottom")
SHAPES = ("rect", "pill", "circle")
REGION_KEYS = ("show", "at", "size", "min_size", "bold", "italic", "align", "valign", "fill",
               "colour", "label", "shape")


@dataclass(frozen=True, slots=True)
class CardSize:
    width_mm: float
    height_mm: float
    line: int = 0  # where game.toml gives it (0: not given)

    @property
    def ratio(self) -> float:
        return self.height_mm / self.width_mm


@dataclass(frozen=True, slots=True)
class Region:
    """One field drawn in a box of the face. `at` is (x, y, w, h) in percent of the card."""

    show: str
    at: tuple[float, float, float, float]
    size: float = 9.0          # points at true size; shrunk to fit down to min_size
    min_size: float = 5.0
    bold: bool = False
    italic: bool = False
    align: str = "left"
    valign: str = "middle"
    fill: str = ""             # "" none, "faction" (the card's colour) or "#rrggbb"
    colour: str = ""           # text colour; "" reads best on the fill
    label: bool = False        # prefix the field's label ("Power 3")
    shape: str = "rect"


def read_card_size(tt: Table) -> CardSize | None:
    """`[templates.card]`: `size = "poker"` or `width_mm` and `height_mm`."""
    c = tt.table("card")
    if c is None:
        return None
    c.check_keys(("size", "width_mm", "height_mm"))
    preset = c.str("size")
    if preset is not None:
        found = PRESETS.get(preset.lower())
        if found is None:
            c.problem("size", f"[templates.card] size '{preset}' is not one of "
                      f"{', '.join(PRESETS)} (or give width_mm and height_mm)")
            return None
        return CardSize(*found, line=c.line("size"))
    w, h = _mm(c, "width_mm"), _mm(c, "height_mm")
    if w is None or h is None:
        if w is None and h is None:
            c.problem(None, "[templates.card] needs size = \"poker\" (or bridge, tarot, mini) "
                      "or width_mm and height_mm")
        return None
    return CardSize(w, h, line=c.line("width_mm"))


def _mm(c: Table, key: str) -> float | None:
    value = c.data.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        c.problem(key, f"[templates.card] {key} must be a number of millimetres, not {value!r}")
        return None
    if not MIN_MM <= float(value) <= MAX_MM:
        c.problem(key, f"[templates.card] {key} = {value} mm is not a card size (it must be "
                  f"between {MIN_MM:g} and {MAX_MM:g} mm)")
        return None
    return float(value)


def read_layouts(f: Table, columns: set[str], types: set[str]) -> dict[str, tuple[Region, ...]]:
    """`[templates.front.by_type.<Type>] regions = [...]`: the laid-out faces per card type."""
    bt = f.table("by_type")
    out: dict[str, tuple[Region, ...]] = {}
    for name, value in (bt.data.items() if bt else []):
        assert bt is not None
        if name not in types:
            bt.problem(name, f"[templates.front.by_type]: unknown card type '{name}'")
            continue
        if not isinstance(value, dict):
            bt.problem(name, f"[templates.front.by_type.{name}] must be a table with regions")
            continue
        t = bt.sub(name, value, f"[templates.front.by_type.{name}]")
        t.check_keys(("regions",))
        regions = [r for r in (_region(t, i, item, columns)
                               for i, item in enumerate(t.data.get("regions") or [])) if r]
        if regions:
            out[name] = tuple(regions)
    return out


def _region(t: Table, i: int, item: object, columns: set[str]) -> Region | None:
    where = f"{t.label} region #{i + 1}"
    if not isinstance(item, dict):
        t.sink.add(t.index.line_of((*t.path, "regions", i)), f"{where} must be a table like "
                   f"{{ show = \"name\", at = [4, 3, 70, 12] }}")
        return None
    r = Table(t.sink, t.index, (*t.path, "regions", i), item, where)
    r.check_keys(REGION_KEYS)
    show = r.str("show", required=True)
    if show is None:
        return None
    if show not in columns and show not in SPECIAL:
        r.problem("show", f"{where}: '{show}' is no card column nor one of {', '.join(SPECIAL)}")
        return None
    at = item.get("at")
    if not (isinstance(at, list) and len(at) == 4 and all(
            isinstance(v, int | float) and not isinstance(v, bool) for v in at)):
        r.problem("at", f"{where}: at must be [x, y, width, height] in percent of the card")
        return None
    x, y, w, h = (float(v) for v in at)
    if min(x, y) < 0 or w <= 0 or h <= 0 or x + w > 100.001 or y + h > 100.001:
        r.problem("at", f"{where}: the box {at} does not lie inside the card (0-100 percent)")
        return None
    for key in ("fill", "colour"):
        value = r.str(key, default="") or ""
        if value and value != "faction" and not _HEX.match(value):
            r.problem(key, f"{where}: {key} '{value}' must be \"faction\" or a colour like "
                      f"\"#a83232\"")
            item = {**item, key: ""}
    size = _points(r, "size", 9.0)
    choices = {"align": ALIGNS, "valign": VALIGNS, "shape": SHAPES}
    picked = {}
    for key, allowed in choices.items():
        value = r.str(key, default=allowed[0] if key != "valign" else "middle") or ""
        if value not in allowed:
            r.problem(key, f"{where}: {key} '{value}' is not one of {', '.join(allowed)}")
            value = allowed[0] if key != "valign" else "middle"
        picked[key] = "centre" if value == "center" else value
    return Region(show=show, at=(x, y, w, h), size=size,
                  min_size=min(size, _points(r, "min_size", max(4.0, size * 0.55))),
                  bold=r.bool("bold"), italic=r.bool("italic"), align=picked["align"],
                  valign=picked["valign"], fill=str(item.get("fill") or ""),
                  colour=str(item.get("colour") or ""), label=r.bool("label"),
                  shape=picked["shape"])


def _points(r: Table, key: str, default: float) -> float:
    value = r.data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or not 2 <= value <= 72:
        r.problem(key, f"{r.label}: {key} must be a font size in points (2-72), not {value!r}")
        return default
    return float(value)
