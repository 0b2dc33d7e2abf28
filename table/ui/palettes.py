"""The table's colour palettes: seat colours, flag severities, highlights and the felt.

Each palette is chosen so that any two of its seat colours, its two flag severities and its
highlights (drop target, selection, private card, keyboard focus) stay at least THRESHOLD apart
(CIEDE2000) to a typical eye and under deuteranopia, protanopia and tritanopia as Machado et al.
(2009) simulate them (colour_vision.py; scripts/palette_check.py prints the figures, a test holds
them). Colour never carries a meaning alone on the table: seats are named on their plates and
tabs, a flag's badge is an octagon (error) or a triangle (warning) with its word in the panels,
the focus ring is a double line, the selection a single one, a drop target a fill.

"Colours for every eye" is the default; "High contrast" puts the table on black with white
lines and text; "The game's own seat colours" keeps a module's seat colours (a designer's
choice, not checked) with the default palette's other colours.
"""
from __future__ import annotations

from dataclasses import dataclass, field

THRESHOLD = 10.0  # CIEDE2000: colours this far apart are told apart at a glance
DEFAULT = "every-eye"


@dataclass(frozen=True)
class Palette:
    id: str
    name: str
    seats: tuple[str, ...]
    severities: dict[str, str]   # error, warning
    highlights: dict[str, str]   # drop, select, private, focus
    felt: str
    felt_dark: str
    zone_edge: tuple[int, int, int, int]   # RGBA
    zone_fill: tuple[int, int, int, int]
    zone_label: tuple[int, int, int, int]
    focus_edge: str = "#000000"  # the dark line under the focus ring's bright one
    game_seats: bool = False     # seats in the game module's own colours
    widgets: dict[str, str] = field(default_factory=dict)  # the Qt palette of panels, dialogs


EVERY_EYE = Palette(
    DEFAULT, "Colours for every eye",
    seats=("#f75210", "#52c8f5", "#20a65f", "#f0e442", "#c87da7", "#3872ee"),
    severities={"error": "#d32f2f", "warning": "#f9a825"},
    highlights={"drop": "#ffc21a", "select": "#2979ff", "private": "#e6b3ff",
                "focus": "#ffffff"},
    felt="#1f3a2e", felt_dark="#172c23",
    zone_edge=(255, 255, 255, 70), zone_fill=(255, 255, 255, 18),
    zone_label=(235, 240, 235, 200))

HIGH_CONTRAST = Palette(
    "high-contrast", "High contrast",
    seats=("#ff5a00", "#c6deff", "#34b070", "#ffff5a", "#ef8ab4", "#8988ff"),
    severities={"error": "#ff3b3b", "warning": "#ffd000"},
    highlights={"drop": "#ffe600", "select": "#2f7dff", "private": "#ffb3ff",
                "focus": "#ffffff"},
    felt="#000000", felt_dark="#000000",
    zone_edge=(255, 255, 255, 230), zone_fill=(255, 255, 255, 26),
    zone_label=(255, 255, 255, 255),
    widgets={"window": "#000000", "base": "#000000", "alternate": "#141414",
             "text": "#ffffff", "button": "#1a1a1a", "highlight": "#ffe600",
             "highlighted_text": "#000000", "disabled": "#b0b0b0"})

GAME_SEATS = Palette(
    "game", "The game's own seat colours", EVERY_EYE.seats, EVERY_EYE.severities,
    EVERY_EYE.highlights, EVERY_EYE.felt, EVERY_EYE.felt_dark, EVERY_EYE.zone_edge,
    EVERY_EYE.zone_fill, EVERY_EYE.zone_label, game_seats=True)

PALETTES = {p.id: p for p in (EVERY_EYE, HIGH_CONTRAST, GAME_SEATS)}
CHECKED = (EVERY_EYE, HIGH_CONTRAST)  # the palettes whose every colour the check holds


def palette(palette_id: str | None) -> Palette:
    """The palette of this id (the default for an unknown one: a setting from another
    version)."""
    return PALETTES.get(palette_id or DEFAULT, EVERY_EYE)


def colour_sets(p: Palette) -> dict[str, dict[str, str]]:
    """The sets whose colours must stay apart, by what they tell apart."""
    return {"seat colours": {f"seat {i}": c for i, c in enumerate(p.seats, start=1)},
            "flag severities": dict(p.severities),
            "highlights": dict(p.highlights)}
