"""Charts as inline SVG, drawn with pygal (pure Python, SVG out, no JavaScript needed).

Each function returns an `<svg>` element that scales to its container. pygal is imported only
when a chart is drawn; it renders a chart in a few milliseconds, which keeps a report over
hundreds of sessions fast. (matplotlib was tried first: ten times slower per chart and a far
heavier dependency for a desktop bundle.)
"""
from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from html import escape
from typing import Any

INK = "#263238"
PALETTE = ("#3f7cac", "#e07a5f", "#81b29a", "#9c6fb6", "#f2cc8f", "#5c677d", "#c05780")
GOOD, BAD, NEUTRAL = "#2e7d32", "#c62828", "#3f7cac"
_ids = itertools.count(1)


def _style(colours: Sequence[str] = PALETTE) -> Any:
    from pygal.style import Style

    return Style(background="white", plot_background="white", foreground=INK,
                 foreground_strong=INK, foreground_subtle="#eceff1", opacity="1",
                 opacity_hover=".85", colors=tuple(colours), font_family="DejaVu Sans, sans-serif",
                 title_font_size=15, label_font_size=12, major_label_font_size=12,
                 value_font_size=11, value_label_font_size=11, legend_font_size=12,
                 tooltip_font_size=12, guide_stroke_color="#eceff1",
                 major_guide_stroke_color="#cfd8dc")


def _config(**extra: Any) -> dict[str, Any]:
    config = dict(js=[], disable_xml_declaration=True, explicit_size=False, width=640,
                  height=330, margin=12, spacing=10, show_legend=False, truncate_label=-1,
                  truncate_legend=-1, print_values=False, include_x_axis=True,
                  style=_style(), no_data_text="no data")
    config.update(extra)
    return config


def _svg(chart: Any) -> str:
    text = chart.render(is_unicode=True)
    # the config block only feeds pygal's tooltip script, which the page does not load
    text = re.sub(r"<script[^>]*>.*?</script>", "", text, flags=re.S)
    # pygal names every chart "chart-<uuid>"; keep the id but add our class for the page CSS
    return re.sub(r"<svg ", '<svg class="chart" ', text, count=1)


def empty(message: str) -> str:
    return f'<div class="chart-empty">{escape(message)}</div>'


def hbars(labels: Sequence[str], values: Sequence[float], *, title: str, xlabel: str = "",
          notes: Sequence[str] | None = None, reference: float | None = None,
          reference_label: str = "", percent: bool = False, colour: str = PALETTE[0]) -> str:
    """Horizontal bars, first label on top, each with its value and a note (e.g. "7/20").

    With a `reference` (the fair share), bars well above it are green, well below red.
    """
    import pygal

    if not labels:
        return empty(f"{title}: no data")
    scale = 100.0 if percent else 1.0
    notes = list(notes or [""] * len(labels))
    points, texts = [], []
    for label, v, note in zip(labels, values, notes, strict=False):
        col = colour
        if reference is not None:
            col = GOOD if v > reference * 1.15 else BAD if v < reference * 0.85 else NEUTRAL
        shown = f"{v * scale:.0f}%" if percent else f"{v * scale:g}"
        texts.append(f"{label}  {shown}" + (f" ({note})" if note else ""))
        points.append({"value": v * scale, "color": col})
    if reference is not None and reference_label:
        title = f"{title} — {reference_label}"
    chart = pygal.HorizontalBar(**_config(
        height=max(170, 80 + 30 * len(labels)), x_title=xlabel or None,
        y_labels_major_count=6, show_minor_y_labels=False,
        range=(0, max(v * scale for v in values) * 1.05 or 1),
        value_formatter=(lambda x: f"{x:.0f}%") if percent else (lambda x: f"{x:g}")))
    chart.title = title
    # the numbers ride in the labels (readable for short bars too); first label on top
    chart.x_labels = list(reversed(texts))
    chart.add("", list(reversed(points)))
    return _svg(chart)


def histogram(values: Sequence[float], *, title: str, xlabel: str, bins: int = 10,
              groups: dict[str, Sequence[float]] | None = None, integer: bool = False) -> str:
    """Sessions per bin; with `groups` (module drafts) the groups are stacked, with a legend."""
    import pygal

    data = groups or {"sessions": values}
    allv = [v for vs in data.values() for v in vs]
    if not allv:
        return empty(f"{title}: no data")
    lo, hi = min(allv), max(allv)
    if integer:
        # whole numbers: one bar per value up to 15 values, else bars a whole number wide
        step = max(1, -(-int(hi - lo + 1) // 15))
        edges = [float(x) for x in range(int(lo), int(hi) + step + 1, step)]
        labels = [str(int(x)) if step == 1 else f"{int(x)}–{int(x) + step - 1}"
                  for x in edges[:-1]]
    else:
        width = (hi - lo) / bins if hi > lo else 1.0
        edges = [lo + i * width for i in range(bins + 1)]
        digits = 0 if width >= 1 else 1 if width >= 0.1 else 2
        labels = [f"{edges[i]:.{digits}f}" for i in range(bins)]  # each bar's lower edge
    # at most about 8 labels under the bars, never rotated into each other
    every = max(1, -(-len(labels) // 8))
    chart = pygal.StackedBar(**_config(show_legend=len(data) > 1, legend_at_bottom=True,
                                       x_title=xlabel if integer else f"{xlabel} (from)",
                                       y_title="sessions", x_label_rotation=0,
                                       show_minor_x_labels=every == 1,
                                       x_labels_major_every=every))
    chart.title = title
    chart.x_labels = labels
    for name, vs in data.items():
        counts = [0] * (len(edges) - 1)
        for v in vs:
            i = min(len(counts) - 1, max(0, int((v - edges[0]) // (edges[1] - edges[0]))))
            counts[i] += 1
        chart.add(name, counts)
    return _svg(chart)


def dice_chart(sides: int, counts: Sequence[int], *, title: str) -> str:
    """Observed count per face beside what a fair die would give."""
    import pygal

    total = sum(counts)
    if not total:
        return empty(f"{title}: no rolls")
    expected = total / sides
    chart = pygal.Bar(**_config(show_legend=True, legend_at_bottom=True, x_title="face",
                                y_title="rolls", style=_style((PALETTE[0], "#cfd8dc"))))
    chart.title = title
    chart.x_labels = [str(f) for f in range(1, sides + 1)]
    chart.add("rolled", list(counts))
    chart.add(f"fair die ({expected:.1f} each)", [round(expected, 1)] * sides)
    return _svg(chart)
