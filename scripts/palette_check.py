"""Print, for each of the table's palettes and each colour vision, the smallest CIEDE2000
distance between any two seat colours, between the flag severities and between the highlights
(drop target, selection, private card, keyboard focus), with the pair that comes closest.

Dichromacy is simulated with Machado et al. (2009) at full severity (table/ui/colour_vision.py).
Exits 1 when any figure of a palette is under the threshold (palettes.THRESHOLD). The built-in
games' own seat colours follow, for comparison: the table keeps them only when a player asks
("The game's own seat colours"), and they are not held to the threshold.

    .venv/bin/python scripts/palette_check.py [--json]
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from table.ui.colour_vision import VISIONS, closest_pair
from table.ui.palettes import CHECKED, THRESHOLD, colour_sets


def figures() -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    for p in CHECKED:
        for what, colours in colour_sets(p).items():
            for vision in VISIONS:
                d, a, b = closest_pair(colours, vision)
                rows.append({"palette": p.id, "set": what, "vision": vision,
                             "smallest": round(d, 2), "pair": [a, b], "ok": d >= THRESHOLD})
    return rows


def games_own() -> list[tuple[str, str, float, str, str]]:
    """The built-in modules' own seat colours under each vision (not held to the threshold)."""
    from table.games.registry import builtin_modules

    out = []
    for module in builtin_modules():
        colours = {f"seat {s.number}": s.colour for s in module.seats if s.colour}
        if len(colours) < 2:
            continue
        for vision in VISIONS:
            d, a, b = closest_pair(colours, vision)
            out.append((module.id, vision, d, a, b))
    return out


def main(argv: list[str]) -> int:
    rows = figures()
    if "--json" in argv:
        for row in rows:
            print(json.dumps(row))
        return 0 if all(r["ok"] for r in rows) else 1
    print(f"smallest CIEDE2000 distance (Machado 2009 dichromacy, severity 1.0); "
          f"threshold {THRESHOLD:g}")
    print(f"{'palette':<14} {'set':<16} {'vision':<13} {'smallest':>8}  closest pair")
    for r in rows:
        pair = " / ".join(r["pair"])  # type: ignore[arg-type]
        mark = "" if r["ok"] else "   BELOW THRESHOLD"
        print(f"{r['palette']:<14} {r['set']:<16} {r['vision']:<13} {r['smallest']:>8.2f}  "
              f"{pair}{mark}")
    try:
        own = games_own()
    except Exception as err:  # the modules are optional here
        print(f"\n(the games' own seat colours: not read: {err})")
        own = []
    if own:
        print("\nfor comparison, the games' own seat colours (kept only on request; not held):")
        for game, vision, d, a, b in own:
            print(f"{game:<22} {vision:<13} {d:>8.2f}  {a} / {b}")
    return 0 if all(r["ok"] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
