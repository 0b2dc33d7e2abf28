"""Drafts side by side: the same figures for each draft of a game, each next draft against the
reference draft (the one most of its sessions were played under) with the difference and its
95% interval, per player count (a fair share differs between counts, so they are never pooled)
and per group; each draft's per-rule flag rates; and the list of what each draft changed."""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any

from . import aggregate as agg
from . import corrections
from .changes import changes, module_of
from .html import NOT_IN_LOG, _pct, _Raw, _table, version_label
from .intervals import Z95, diff_of_means, diff_of_rates, excludes_zero, mean_interval, wilson
from .model import Session

Diff = tuple[float, float, float] | None


@dataclass(slots=True)
class Cell:
    text: str  # the figure as shown: value, interval, n
    diff: Diff = None  # against the reference draft (None for the reference itself)
    percent: bool = True  # a difference in points (rates) or in units (means)
    p: float | None = None  # two-sided p-value of the difference
    adjusted: float | None = None  # after Holm's correction over the table's comparisons


@dataclass(slots=True)
class Row:
    section: str
    label: str
    cells: list[Cell] = field(default_factory=list)  # one per draft, the reference first


Draft = tuple[str, str, list[Session]]  # (version, hash, sessions)


def reference_first(drafts: Sequence[Draft]) -> list[Draft]:
    """The reference draft first: the one with the most sessions whose module is known."""
    known = [d for d in drafts if d[0] != NOT_IN_LOG] or list(drafts)
    ref = max(known, key=lambda d: (len(d[2]), max(s.created for s in d[2])))
    return [ref] + [d for d in drafts if d is not ref]


def _rate_cell(wins: int, n: int, ref: tuple[int, int] | None) -> Cell:
    if not n:
        return Cell("—")
    lo, hi = wilson(wins, n)
    return Cell(f"{_pct(wins / n)} ({_pct(lo)}–{_pct(hi)}, n={n})",
                None if ref is None else diff_of_rates(ref[0], ref[1], wins, n),
                p=None if ref is None or not ref[1] else corrections.rates_p(*ref, wins, n))


def _mean_cell(values: list[float], ref: list[float] | None, digits: int = 1) -> Cell:
    if not values:
        return Cell("—")
    m, lo, hi = mean_interval(values)
    diff = None if ref is None else diff_of_means(ref, values)
    return Cell(f"{m:.{digits}f} ({lo:.{digits}f}–{hi:.{digits}f}, n={len(values)})",
                diff, percent=False, p=None if diff is None else _welch_p(diff))


def _welch_p(d: tuple[float, float, float]) -> float:
    """The two-sided p-value of a difference of means, from its 95% interval."""
    half = (d[2] - d[1]) / 2
    return corrections.normal_p(d[0] / (half / Z95)) if half > 0 else 1.0


def _rates_row(section: str, label: str, drafts: list[Draft],
               count: Callable[[list[Session]], tuple[int, int]]) -> Row:
    ref = count(drafts[0][2])
    return Row(section, label, [_rate_cell(*count(x), None if i == 0 else ref)
                                for i, (_v, _h, x) in enumerate(drafts)])


def _means_row(section: str, label: str, drafts: list[Draft],
               values: Callable[[list[Session]], list[float]], digits: int = 1) -> Row:
    ref = values(drafts[0][2])
    return Row(section, label, [_mean_cell(values(x), None if i == 0 else ref, digits)
                                for i, (_v, _h, x) in enumerate(drafts)])


def _first_wins(count: int) -> Callable[[list[Session]], tuple[int, int]]:
    def of(ss: list[Session]) -> tuple[int, int]:
        games = [s for s in agg.decided(ss) if len(s.seats) == count]
        return sum(1 for s in games for x in s.seats
                   if x.order == 1 and x.seat in s.winners), len(games)
    return of


def _group_wins(group: str, count: int) -> Callable[[list[Session]], tuple[int, int]]:
    def of(ss: list[Session]) -> tuple[int, int]:
        seats = [(s, x) for s in agg.decided(ss) if len(s.seats) == count for x in s.seats
                 if x.group == group]
        return sum(1 for s, x in seats if x.seat in s.winners), len(seats)
    return of


def _flagged(rule: str) -> Callable[[list[Session]], tuple[int, int]]:
    def of(ss: list[Session]) -> tuple[int, int]:
        checked = [s for s in ss if not s.flags_why]
        return sum(1 for s in checked if s.flags[rule]), len(checked)
    return of


def rows(drafts: list[Draft]) -> list[Row]:
    """Every figure for every draft; `drafts` with the reference first."""
    every = [s for _v, _h, x in drafts for s in x]
    counts = sorted({len(s.seats) for s in every})
    out: list[Row] = []
    for n in counts:
        at = [(v, h, [s for s in x if len(s.seats) == n]) for v, h, x in drafts]
        section = f"{n} players"
        out.append(_means_row(section, "turns per game", at, lambda ss: [s.turns for s in ss]))
        out.append(_means_row(section, "minutes per game", at,
                              lambda ss: [s.minutes for s in ss], 0))
        out.append(_rates_row(section, f"first player wins (fair {_pct(1 / n)})", at,
                              _first_wins(n)))
        groups = sorted({x.group for s in every if len(s.seats) == n for x in s.seats
                         if x.group})
        for group in groups:
            out.append(_rates_row(section, f"{group} wins", at, _group_wins(group, n)))
    out.append(_means_row("flags", "flags per session", drafts,
                          lambda ss: [float(sum(s.flags.values())) for s in ss]))
    rules: Counter[str] = Counter()
    for s in every:
        rules.update(set(s.flags))
    for rule, _n in rules.most_common(15):
        out.append(_rates_row("flags", f"sessions with {rule}", drafts, _flagged(rule)))
    return out


def _diff_text(cell: Cell) -> Any:
    d = cell.diff
    if d is None:
        return "—"
    scale, unit = (100, " pts") if cell.percent else (1, "")
    text = f"{d[0] * scale:+.1f}{unit} ({d[1] * scale:+.1f} to {d[2] * scale:+.1f})"
    if not excludes_zero(d) or cell.adjusted is None or cell.adjusted >= corrections.ALPHA:
        return text  # within the noise once the number of comparisons is allowed for
    return _Raw(f'<span class="{"pos" if d[0] > 0 else "neg"}">{escape(text)} · holds</span>')


def _correct(table: list[Row]) -> int:
    """Holm's correction over every difference of the table; returns how many there are."""
    cells = [c for row in table for c in row.cells[1:] if c.p is not None]
    for cell, adjusted in zip(cells, corrections.holm([c.p or 1.0 for c in cells]),
                              strict=True):
        cell.adjusted = adjusted
    return len(cells)


def render(drafts: list[Draft]) -> str:
    """The drafts-compared section of a game with more than one draft."""
    drafts = reference_first(drafts)
    labels = [version_label(v, h) for v, h, _x in drafts]
    head = ["", "Figure", f"{labels[0]} (reference)"]
    for label in labels[1:]:
        head += [label, f"{label} − reference (95% CI)"]
    body = []
    table = rows(drafts)
    family = _correct(table)
    for row in table:
        line: list[Any] = [row.section, row.label, row.cells[0].text]
        for cell in row.cells[1:]:
            line += [cell.text, _diff_text(cell)]
        body.append(line)
    changed = []
    ref_module = module_of(drafts[0][1])
    for (v, h, x), label in zip(drafts[1:], labels[1:], strict=False):
        lines = (["its sessions were judged by another module than their own: no draft to "
                  "compare"] if v == NOT_IN_LOG else changes(ref_module, module_of(h)))
        changed.append(f"<li><b>{escape(label)}</b> ({len(x)} sessions) against "
                       f"{escape(labels[0])}: " + escape("; ".join(lines)) + "</li>")
    return ("<h3>Drafts side by side</h3><p class=muted>Each draft against the reference (the "
            "draft most sessions were played under): the figure with its 95% interval and n, "
            "and the difference with its 95% interval (Newcombe's for rates, Welch's for means). "
            f"Green or red only when the difference holds after Holm's correction for the "
            f"{family} comparisons of this table (its p-value times the comparisons left, "
            "step by step, below 5%): twenty figures compared at 95% would otherwise colour one "
            "by chance. Per player count, since the fair share differs between counts.</p>"
            f"<p><b>What each draft changed</b></p><ul>{''.join(changed)}</ul>"
            + _table(head, body, set(range(2, len(head))), cls="compare"))
