"""The page's answer to "which draft is more balanced, and how sure": the opening sentences, a
game's balance figures per draft (or per set the designer compares, `--compare`) and player
count, and the sets side by side with their differences corrected for their number."""
from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from .balance import Balance, balances
from .contrast import Contrast, contrast
from .html import NOT_IN_LOG, _Raw, _table, version_label
from .model import Session

# what `--compare` splits a game's sessions by (drafts by default)
COMPARE = ("draft", "group", "event")
ORDER = ["spread", "dispersion", "first", "spread:order", "turns", "turns-sd"]


def sets_of(ss: Sequence[Session], by: str = "draft") -> list[tuple[str, list[Session]]]:
    """The labelled sets a game's sessions fall into, the reference first (the set with the
    most sessions; for drafts, among those whose module is known)."""
    groups: dict[str, list[Session]] = {}
    for s in ss:
        if by == "draft":
            label = version_label(s.version, s.game_hash) if s.draft_known else NOT_IN_LOG
        else:
            label = (s.group if by == "group" else s.event) or f"(no {by})"
        groups.setdefault(label, []).append(s)
    known = [k for k in groups if k != NOT_IN_LOG] or list(groups)
    ref = max(known, key=lambda k: (len(groups[k]), max(x.created for x in groups[k])))
    return [(ref, groups[ref]), *sorted((k, v) for k, v in groups.items() if k != ref)]


def contrasts(sets: list[tuple[str, list[Session]]], header: str | None, by: str = "draft"
              ) -> list[Contrast]:
    """Each other set against the reference (the first)."""
    return [contrast(sets[0], other, header, noun=by) for other in sets[1:]]


def _summary(name: str, label: str, by: dict[int, Balance], header: str) -> str:
    """One set's balance in a sentence (a game played under one draft)."""
    count = max(by, key=lambda n: (by[n].decided, -n)) if by else None
    if count is None:
        return f"{name} ({label}): no decided session."
    b = by[count]
    parts = []
    spread = b.figures.get(f"spread:{header}")
    if spread is not None:
        parts.append(f"{header} spread {spread.value * 100:.0f} points (95% interval "
                     f"{spread.low * 100:.0f} to {spread.high * 100:.0f})")
    first = b.figures.get("first")
    if first is not None:
        parts.append(f"first-player edge {first.value * 100:+.0f} points "
                     f"({first.low * 100:+.0f} to {first.high * 100:+.0f})")
    at = f" at {count} players" if len(by) > 1 else ""
    return (f"{name} ({label}, {b.sessions} sessions{at}): " + "; ".join(parts) + "."
            if parts else f"{name} ({label}): too few decided sessions to tell.")


def answers(games: dict[str, list[Session]], by: str = "draft") -> list[str]:
    """The page's opening: a sentence per comparison (games compared first), then one per
    game played under one set."""
    compared, single = [], []
    for ss in games.values():
        header = _header(ss)
        sets = sets_of(ss, by)
        name = ss[0].game_name
        if len(sets) > 1:
            compared += [c.sentence(name) for c in contrasts(sets, header, by)]
        else:
            single.append(_summary(name, sets[0][0], balances(ss, header, sets[0][0]), header))
    return compared + single


def _header(ss: Sequence[Session]) -> str:
    from .session import installed_module

    module = installed_module(ss[0].game)
    return str(getattr(module, "group_header", None) or "group")


def _label(key: str) -> int:
    kind = key if key in ORDER else key.split(":")[0]
    return ORDER.index(kind) if kind in ORDER else len(ORDER)


def render(ss: list[Session], by: str = "draft") -> str:
    """A game's balance per set and player count, then the sets side by side."""
    header = _header(ss)
    sets = sets_of(ss, by)
    what = "draft" if by == "draft" else f"{by}"
    rows: list[list[Any]] = []
    for label, x in sets:
        for players, b in balances(x, header, label).items():
            for key in sorted(b.figures, key=lambda k: (_label(k), k)):
                f = b.figures[key]
                rows.append([label, f"{players} players", b.sessions, b.decided, f.label,
                             f.shown(), f.detail])
    out = [f"<h3>Balance per {escape(what)} and player count</h3><p class=muted>Spreads are the "
           f"largest minus the smallest win rate across the {escape(header)}s (decks, leaders) "
           f"with at least 5 seat-games; the dispersion is the standard deviation of their true "
           f"win rates once sampling noise is taken out; 95% intervals from a parametric "
           f"bootstrap (1,000 draws). The first-player edge is its win rate less the fair "
           f"share; game length counts every session.</p>"
           + _table([what.capitalize(), "Players", "Sessions", "Decided", "Figure",
                     "Value (95% CI)", "Behind it"], rows, {2, 3})]
    for c in contrasts(sets, header, by) if len(sets) > 1 else []:
        out.append(render_contrast(c))
    return "".join(out)


def render_contrast(c: Contrast) -> str:
    """Two sets side by side: every figure, its difference, interval and whether it holds."""
    rows = []
    for d in sorted(c.differences, key=lambda d: (d.players, _label(d.key), d.key)):
        text = d.shown()
        cell: Any = _Raw(f'<span class="{"pos" if d.diff < 0 else "neg"}">{escape(text)}</span>'
                         ) if d.holds and d.a.points and d.key != "first" else text
        rows.append([f"{d.players} players", d.label, d.a.shown(), d.b.shown(), cell,
                     _p(d.p), _p(d.adjusted), "yes" if d.holds else "no"])
    holding = sum(d.holds for d in c.differences)
    return (f"<h3>{escape(c.b)} against {escape(c.a)}: balance side by side</h3>"
            f'<p class="answer-line">{escape(c.sentence())}</p>'
            f"<p class=muted>Each difference is {escape(c.b)} − {escape(c.a)} with its 95% "
            f"interval (bootstrap for spreads, Newcombe for the first player's rate, Welch for "
            f"mean turns). {len(c.differences)} comparisons: a difference holds when its "
            f"p-value, corrected by {c.method}'s method for their number, stays below 5% "
            f"({holding} do). Green: a narrower spread that holds; red: a wider one.</p>"
            + _table(["Players", "Figure", c.a, c.b, f"{c.b} − {c.a} (95% CI)", "p",
                      f"p ({c.method})", "Holds"], rows, {5, 6}))


def _p(p: float) -> str:
    return f"{p:.1e}" if p < 0.001 else f"{p:.3f}"
