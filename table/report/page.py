"""The report as one self-contained HTML page: CSS inline, charts as inline SVG, no scripts."""
from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from html import escape
from pathlib import Path
from typing import Any

from . import aggregate as agg
from . import charts
from .session import Session, installed_module

CSS = """
*{box-sizing:border-box}
body{font:14px/1.45 "DejaVu Sans",system-ui,sans-serif;color:#263238;background:#f5f6f8;margin:0}
main{max-width:1320px;margin:0 auto;padding:24px 28px 60px}
h1{font-size:26px;margin:0 0 4px}
h2{font-size:21px;margin:38px 0 6px;padding-top:14px;border-top:3px solid #3f7cac}
h3{font-size:15px;margin:22px 0 8px;color:#37474f}
p.lead{color:#546e7a;margin:0 0 14px}
nav a{margin-right:14px;color:#3f7cac;font-weight:600;text-decoration:none}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));gap:10px;margin:14px 0}
.kpi{background:#fff;border-radius:8px;padding:10px 14px;box-shadow:0 1px 2px #0001}
.kpi b{display:block;font-size:22px}
.kpi span{color:#607d8b;font-size:12px}
.grid{display:grid;grid-template-columns:1fr 1fr;gap:14px}
.panel{background:#fff;border-radius:8px;padding:12px 14px;box-shadow:0 1px 2px #0001;overflow:auto}
.panel p.why{color:#607d8b;font-size:12px;margin:4px 0 0}
svg.chart{width:100%;height:auto;display:block}
.chart-empty{color:#78909c;padding:30px 10px;text-align:center;border:1px dashed #cfd8dc;border-radius:6px}
table{border-collapse:collapse;width:100%;font-size:13px;background:#fff}
th,td{padding:5px 8px;border-bottom:1px solid #eceff1;text-align:left;vertical-align:top}
th{background:#eef2f5;font-weight:600;position:sticky;top:0}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
.pos{color:#2e7d32;font-weight:600}.neg{color:#c62828;font-weight:600}
.warn{background:#fff8e1;border-left:4px solid #ffb300;padding:10px 14px;border-radius:4px;margin:12px 0}
.bad{background:#ffebee;border-left:4px solid #e53935;padding:10px 14px;border-radius:4px;margin:12px 0}
.warn ul,.bad ul{margin:6px 0 0;padding-left:20px}
.tag{display:inline-block;background:#eceff1;border-radius:10px;padding:0 8px;font-size:12px;margin-right:4px}
.bar{display:inline-block;height:9px;background:#3f7cac;border-radius:2px;vertical-align:middle}
.scroll{max-height:420px;overflow:auto}
details summary{cursor:pointer;color:#3f7cac;font-weight:600;margin:8px 0}
small,.muted{color:#78909c}
"""


def _pct(x: float) -> str:
    return f"{x * 100:.0f}%"


def _num(x: float, digits: int = 1) -> str:
    return f"{x:.{digits}f}"


def _table(head: Sequence[str], rows: Iterable[Sequence[Any]], numeric: set[int] | None = None,
           cls: str = "") -> str:
    numeric = numeric or set()
    out = [f'<table class="{cls}"><thead><tr>']
    out += [f'<th class="{"n" if i in numeric else ""}">{escape(h)}</th>'
            for i, h in enumerate(head)]
    out.append("</tr></thead><tbody>")
    for row in rows:
        out.append("<tr>" + "".join(
            f'<td class="{"n" if i in numeric else ""}">{c if isinstance(c, _Raw) else escape(str(c))}</td>'
            for i, c in enumerate(row)) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


class _Raw(str):
    """Already-escaped HTML for a table cell."""


def _short(h: str) -> str:
    return h[:8] if h else "?"


def version_label(version: str, game_hash: str) -> str:
    return f"v{version} · {_short(game_hash)}"


def render(sessions: list[Session], skipped: list[tuple[str, str]], *, inputs: Sequence[str],
           seconds: float | None = None) -> str:
    games: dict[str, list[Session]] = {}
    for s in sorted(sessions, key=lambda s: (s.game_name, s.created, s.name)):
        games.setdefault(s.game, []).append(s)
    parts = [f"<!doctype html><html lang=en><head><meta charset=utf-8>"
             f"<meta name=viewport content='width=device-width'>"
             f"<title>Playtest report — Sandtable</title><style>{CSS}</style></head><body><main>"]
    stamp = time.strftime("%Y-%m-%d %H:%M")
    parts.append("<h1>Playtest report</h1>")
    parts.append(f'<p class="lead">{len(sessions)} session(s) of {len(games)} game(s), read from '
                 f'{escape(", ".join(inputs[:4]))}{" …" if len(inputs) > 4 else ""} · '
                 f'made {stamp} by Sandtable</p>')
    if games:
        parts.append("<nav>" + "".join(f'<a href="#{escape(g)}">{escape(ss[0].game_name)}</a>'
                                        for g, ss in games.items()) + "</nav>")
    parts.append(_overview(games))
    parts.append(_skipped(skipped))
    parts.append(_incomplete(sessions))
    for game, ss in games.items():
        parts.append(_game(game, ss))
    if not sessions:
        parts.append('<p class="bad">No session could be read.</p>')
    parts.append("</main></body></html>")
    return "".join(parts)


def _overview(games: dict[str, list[Session]]) -> str:
    if not games:
        return ""
    rows = []
    for game, ss in games.items():
        rows.append([_Raw(f'<a href="#{escape(game)}">{escape(ss[0].game_name)}</a>'), len(ss),
                     len(agg.versions(ss)), _num(agg.mean(s.turns for s in ss)),
                     _num(agg.mean(s.minutes for s in ss), 0),
                     _num(agg.mean(sum(s.flags.values()) for s in ss)),
                     sum(len(s.notes) for s in ss), len(agg.decided(ss))])
    return ("<h3>Overview</h3>" + _table(
        ["Game", "Sessions", "Drafts", "Turns (mean)", "Minutes (mean)", "Flags / session",
         "Notes", "With a winner"], rows, {1, 2, 3, 4, 5, 6, 7}))


def _skipped(skipped: list[tuple[str, str]]) -> str:
    if not skipped:
        return ""
    items = "".join(f"<li><b>{escape(p)}</b>: {escape(why)}</li>" for p, why in skipped)
    return (f'<div class="bad"><b>{len(skipped)} input(s) skipped</b> — the report covers the '
            f"rest.<ul>{items}</ul></div>")


def _incomplete(sessions: list[Session]) -> str:
    rows = [(s, [m for m in s.incomplete if not m.startswith("no flags")]) for s in sessions]
    rows = [(s, ms) for s, ms in rows if ms]
    if not rows:
        return ""
    items = "".join(f"<li><b>{escape(s.name)}</b>: {escape('; '.join(ms))}</li>"
                    for s, ms in rows[:40])
    more = f"<li>… and {len(rows) - 40} more</li>" if len(rows) > 40 else ""
    return (f'<div class="warn"><b>{len(rows)} session(s) are incomplete</b> — what they could '
            f"not tell:<ul>{items}{more}</ul></div>")


def _game(game: str, ss: list[Session]) -> str:
    name = ss[0].game_name
    drafts = agg.versions(ss)
    out = [f'<h2 id="{escape(game)}">{escape(name)}</h2>']
    tags = " ".join(f'<span class="tag">{escape(version_label(v, h))}: {len(x)} sessions</span>'
                    for v, h, x in drafts)
    out.append(f'<p class="lead">{len(ss)} sessions · {tags}</p>')
    fair = agg.fair_rate(ss)
    first = agg.first_player_rate(ss)
    flagged = agg.flags_by_rule(ss)
    out.append('<div class="cards">' + "".join(
        f'<div class="kpi"><b>{v}</b><span>{escape(k)}</span></div>' for k, v in [
            ("sessions", len(ss)),
            ("turns per game (mean)", _num(agg.mean(s.turns for s in ss))),
            ("minutes per game (mean)", _num(agg.mean(s.minutes for s in ss), 0)),
            ("seconds per turn (mean)", _num(agg.mean(s.seconds_per_turn for s in ss), 0)),
            ("actions per turn (mean)", _num(agg.mean(s.actions_per_turn for s in ss))),
            ("first player wins", f"{_pct(first.rate)} <small>of {first.games}</small>"),
            ("flags raised", sum(n for _r, n, _s in flagged)),
            ("designer notes", sum(len(s.notes) for s in ss)),
        ]) + "</div>")
    if len(drafts) > 1:
        out.append("<h3>Drafts compared (by module content hash)</h3>")
        out.append(_drafts(drafts))
    out.append('<div class="grid">')
    out.append(_panel(_win_chart(ss, drafts, fair)))
    out.append(_panel(_order_chart(ss, drafts, fair)))
    out.append(_panel(charts.histogram(
        [s.turns for s in ss], title="Game length", xlabel="turns", integer=True,
        groups={version_label(v, h): [s.turns for s in x] for v, h, x in drafts}
        if len(drafts) > 1 else None)))
    out.append(_panel(charts.histogram(
        [s.seconds_per_turn / 60 for s in ss], title="Time per turn (mean of each session)",
        xlabel="minutes per turn", bins=12,
        groups={version_label(v, h): [s.seconds_per_turn / 60 for s in x] for v, h, x in drafts}
        if len(drafts) > 1 else None)))
    out.append(_panel(*_flags_chart(ss, flagged)))
    out.append(_panel(*_dice_chart(ss)))
    out.append("</div>")
    out.append(_other_attrs(ss, fair))
    out.append(_cards(ss))
    out.append(_notes(ss))
    out.append(_sessions(ss))
    return "".join(out)


def _panel(body: str, why: str = "") -> str:
    return f'<div class="panel">{body}{f"<p class=why>{why}</p>" if why else ""}</div>'


def _drafts(drafts: list[tuple[str, str, list[Session]]]) -> str:
    rows = []
    for v, h, x in drafts:
        first = agg.first_player_rate(x)
        flagged = agg.flags_by_rule(x)
        rows.append([version_label(v, h), len(x), _num(agg.mean(s.turns for s in x)),
                     _num(agg.mean(s.minutes for s in x), 0),
                     _num(agg.mean(s.actions_per_turn for s in x)),
                     _num(agg.mean(s.seconds_per_turn for s in x), 0),
                     f"{_pct(first.rate)} of {first.games}",
                     _num(agg.mean(sum(s.flags.values()) for s in x)),
                     flagged[0][0] if flagged else "—",
                     _num(agg.mean(len(s.notes) for s in x))])
    return _table(["Draft", "Sessions", "Turns", "Minutes", "Actions / turn", "Sec / turn",
                   "1st player wins", "Flags / session", "Most flagged rule", "Notes / session"],
                  rows, {1, 2, 3, 4, 5, 7, 9})


def _win_chart(ss: list[Session], drafts: list[Any], fair: float) -> str:
    names = agg.attribute_names(ss)
    attr = names[0] if names else None
    if attr is None:
        return charts.empty("Win rate: the logs do not name the decks' factions")
    rates = agg.win_rates(ss, agg.by_attr(attr))
    title = f"Win rate by {attr}"
    if len(drafts) > 1:
        cats = [r.label for r in rates]
        series = {}
        for v, h, x in drafts:
            per = {r.label: r.rate for r in agg.win_rates(x, agg.by_attr(attr))}
            series[version_label(v, h)] = [per.get(c, 0.0) for c in cats]
        return charts.grouped_bars(cats, series, title=title, ylabel="% of games won",
                                   percent=True, reference=fair, reference_label="fair share")
    return charts.hbars([r.label for r in rates], [r.rate for r in rates], title=title,
                        notes=[f"{r.wins}/{r.games}" for r in rates], reference=fair,
                        reference_label=f"fair share {_pct(fair)}", percent=True,
                        xlabel="% of games won (wins/games)")


def _order_chart(ss: list[Session], drafts: list[Any], fair: float) -> str:
    rates = sorted(agg.win_rates(ss, agg.by_order), key=lambda r: r.label)
    if len(drafts) > 1:
        cats = [r.label for r in rates]
        series = {}
        for v, h, x in drafts:
            per = {r.label: r.rate for r in agg.win_rates(x, agg.by_order)}
            series[version_label(v, h)] = [per.get(c, 0.0) for c in cats]
        return charts.grouped_bars(cats, series, title="Win rate by seat order",
                                   ylabel="% of games won", percent=True, reference=fair,
                                   reference_label="fair share")
    return charts.hbars([f"plays {r.label}" for r in rates], [r.rate for r in rates],
                        title="Win rate by seat order", notes=[f"{r.wins}/{r.games}" for r in rates],
                        reference=fair, reference_label=f"fair share {_pct(fair)}",
                        percent=True, xlabel="% of games won (wins/games)")


def _flags_chart(ss: list[Session], flagged: list[tuple[str, int, int]]) -> tuple[str, str]:
    if not flagged:
        whys = sorted({s.flags_why for s in ss if s.flags_why})
        why = "; ".join(whys) if whys else "the assist raised no flag"
        return charts.empty(f"Rules flagged: none ({escape(why)})"), ""
    top = flagged[:12]
    svg = charts.hbars([r for r, _n, _s in top], [n for _r, n, _s in top],
                       title="Rules flagged most", notes=[f"in {s} sessions" for _r, _n, s in top],
                       xlabel="flags raised by the rules assist", colour=charts.PALETTE[1])
    example = {}
    for s in ss:
        for rule, msg in s.flag_messages.items():
            example.setdefault(rule, msg)
    lines = "".join(f"<br><b>{escape(r)}</b>: {escape(example.get(r, ''))}" for r, _n, _s in top[:4])
    off = [s for s in ss if s.flags_why]
    if off:
        whys = sorted({s.flags_why for s in off})
        lines += (f"<br><b>Incomplete:</b> the assist did not run to the end in {len(off)} "
                  f"session(s): {escape('; '.join(whys)[:300])}")
    return svg, f"Examples:{lines}"


def _dice_chart(ss: list[Session]) -> tuple[str, str]:
    found = agg.dice(ss)
    if not found:
        return charts.empty("Dice: no rolls in these sessions"), ""
    d = max(found, key=lambda d: d.total)
    verdict = ("looks fair" if d.p_value >= 0.05 else "unlikely from fair dice")
    svg = charts.dice_chart(d.sides, d.counts, title=f"d{d.sides} rolls against a fair die "
                                                     f"({d.total} rolls)")
    others = ", ".join(f"d{o.sides}: {o.total} rolls, p={o.p_value:.2f}" for o in found if o is not d)
    why = (f"χ² = {d.chi2:.1f} on {d.sides - 1} df, p = {d.p_value:.2f}: {verdict}."
           + (f" Also {others}." if others else ""))
    return svg, escape(why)


def _other_attrs(ss: list[Session], fair: float) -> str:
    names = agg.attribute_names(ss)[1:]
    out = []
    for name in names:
        rates = agg.win_rates(ss, agg.by_attr(name))
        rows = [[r.label, r.games, r.wins, _Raw(_rate_cell(r.rate, fair))] for r in rates]
        out.append(f"<h3>Win rate by {escape(name)}</h3>" + _table(
            [name.capitalize(), "Games", "Wins", "Win rate"], rows, {1, 2}))
    return "".join(out)


def _rate_cell(rate: float, fair: float) -> str:
    cls = "pos" if rate > fair * 1.15 else "neg" if rate < fair * 0.85 else ""
    return (f'<span class="bar" style="width:{rate * 120:.0f}px"></span> '
            f'<span class="{cls}">{_pct(rate)}</span>')


def _cards(ss: list[Session]) -> str:
    stats = agg.card_stats(ss)
    if not stats:
        return "<h3>Cards</h3><p class=muted>No card was played from a hand in these sessions.</p>"
    module = installed_module(ss[0].game)
    cards = getattr(module, "cards", {}) or {}
    base = agg.fair_rate(ss)
    n = len(ss)
    rows = []
    for c in stats[:25]:
        card = cards.get(c.card)
        lift = c.win_rate - base
        cls = "pos" if lift > 0.05 else "neg" if lift < -0.05 else ""
        rows.append([card.name if card else c.card, card.type if card else "",
                     card.group if card else "",
                     _Raw(f'<span class="bar" style="width:{c.sessions / n * 100:.0f}px"></span>'
                          f" {_pct(c.sessions / n)}"), c.plays, c.seat_games,
                     _Raw(f'{_pct(c.win_rate)} <span class="{cls}">({lift * 100:+.0f})</span>')])
    incomplete = any(s.hidden_unknown for s in ss)
    note = (" Counts only cards this set of logs saw played (some logs are one peer's)."
            if incomplete else "")
    return ("<h3>Cards: play rate and win correlation</h3>"
            f'<p class="muted">Play rate: share of sessions in which some seat played the card '
            f"from hand. Win rate when played: how often a seat that played it won, and in "
            f"brackets the difference in points from the fair share ({_pct(base)}). Top 25 of "
            f"{len(stats)} cards.{note}</p>" + _table(
                ["Card", "Type", "Group", "Play rate", "Copies played", "Seat-games",
                 "Win rate when played"], rows, {4, 5}))


def _notes(ss: list[Session]) -> str:
    rows = [(s.name, n, turn, who, text) for s in ss for n, turn, who, text in s.notes]
    if not rows:
        return "<h3>Designer notes</h3><p class=muted>No notes in these sessions.</p>"
    return (f"<h3>Designer notes ({len(rows)})</h3><div class=scroll>" + _table(
        ["Session", "Op", "Turn", "Who", "Note"], rows, {1, 2}) + "</div>")


def _sessions(ss: list[Session]) -> str:
    rows = []
    for s in ss:
        decks = ", ".join(f"{x.name}: {next(iter(x.attrs.values()), x.deck)}" for x in s.seats)
        per_seat = " · ".join(
            f"{x.seat}: {s.actions[x.seat] / max(1, s.turns_by_seat[x.seat]):.1f}" for x in s.seats)
        flags = ", ".join(f"{r}×{n}" for r, n in s.flags.most_common(3)) or (
            "—" if not s.flags_why else "n/a")
        rows.append([s.name, version_label(s.version, s.game_hash), s.kind, decks, s.turns,
                     _num(s.minutes, 0), _num(s.actions_per_turn), per_seat,
                     _num(s.seconds_per_turn, 0), flags, len(s.notes),
                     s.winner_text or "—"])
    return (f"<details><summary>Every session ({len(ss)})</summary><div class=scroll>" + _table(
        ["Session", "Draft", "Log", "Seats", "Turns", "Minutes", "Actions / turn",
         "Actions / turn by seat", "Sec / turn", "Flags by rule", "Notes", "Winner"], rows,
        {4, 5, 6, 8, 10}) + "</div></details>")


def write(path: str | Path, html: str) -> Path:
    path = Path(path)
    path.write_text(html, encoding="utf-8")
    return path
