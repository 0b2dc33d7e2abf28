"""The report as one self-contained HTML page: CSS inline, charts as inline SVG, one small
inline script that sorts the card tables (the page reads the same without it). It opens with
the answer (which draft is more balanced, and how sure) and keeps every table in the page's own
flow: no box scrolls inside it, so a screenshot or a printout shows all of it."""
from __future__ import annotations

import time
from collections.abc import Sequence
from html import escape
from pathlib import Path

from . import aggregate as agg
from .balance_page import answers
from .card_stories import SORT_SCRIPT
from .game_section import game as game_section
from .html import _num, _Raw, _table, version_label
from .session import Session

__all__ = ["render", "version_label", "write"]

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
.grid{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:14px;margin:14px 0}
.panel{background:#fff;border-radius:8px;padding:12px 14px;box-shadow:0 1px 2px #0001}
div.answer{font-size:16px;background:#e8f1f8;border-left:4px solid #3f7cac;padding:2px 14px;
border-radius:4px;margin:8px 0 14px}
div.answer p{margin:8px 0}
p.answer-line{font-weight:600}
td{overflow-wrap:break-word}
table.stories td:first-child{min-width:9em}
.panel p.why{color:#607d8b;font-size:12px;margin:4px 0 0}
svg.chart{width:100%;height:auto;display:block}
svg.ci{vertical-align:middle}
table.rates td:first-child{font-weight:600}
table.sessions td:first-child{white-space:nowrap}
.chart-empty{color:#78909c;padding:30px 10px;text-align:center;border:1px dashed #cfd8dc;border-radius:6px}
table{border-collapse:collapse;width:100%;font-size:13px;background:#fff}
th,td{padding:5px 8px;border-bottom:1px solid #eceff1;text-align:left;vertical-align:top}
th{background:#eef2f5;font-weight:600}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
.pos{color:#2e7d32;font-weight:600}.neg{color:#c62828;font-weight:600}
.warn{background:#fff8e1;border-left:4px solid #ffb300;padding:10px 14px;border-radius:4px;margin:12px 0}
.bad{background:#ffebee;border-left:4px solid #e53935;padding:10px 14px;border-radius:4px;margin:12px 0}
.warn ul,.bad ul{margin:6px 0 0;padding-left:20px}
.tag{display:inline-block;background:#eceff1;border-radius:10px;padding:0 8px;font-size:12px;margin-right:4px}
.bar{display:inline-block;height:9px;background:#3f7cac;border-radius:2px;vertical-align:middle}
@media print{details{display:block}details>summary{display:none}}
details summary{cursor:pointer;color:#3f7cac;font-weight:600;margin:8px 0}
small,.muted{color:#78909c}
"""


def render(sessions: list[Session], skipped: list[tuple[str, str]], *, inputs: Sequence[str],
           seconds: float | None = None, logs: int | None = None, by: str | None = None,
           compare_by: str = "draft", why: dict[str, str] | None = None) -> str:
    """The page. `by`: slice every game's figures by playtest group, event, tag or player;
    `compare_by`: what the balance answer compares (drafts, or groups, events); `why`: why each
    dismissed rule was dismissed."""
    games: dict[str, list[Session]] = {}
    for s in sorted(sessions, key=lambda s: (s.game_name, s.created, s.name)):
        games.setdefault(s.game, []).append(s)
    parts = [f"<!doctype html><html lang=en><head><meta charset=utf-8>"
             f"<meta name=viewport content='width=device-width'>"
             f"<title>Playtest report — Sandtable</title><style>{CSS}</style></head><body><main>"]
    stamp = time.strftime("%Y-%m-%d %H:%M")
    parts.append("<h1>Playtest report</h1>")
    said = answers(games, compare_by) if games else []
    if said:  # the answer first: a paragraph per comparison (the first is the page's opening)
        parts.append('<div class="answer">' + "".join(f"<p>{escape(a)}</p>" for a in said)
                     + "</div>")
    read = logs if logs is not None else sum(max(1, len(s.logs)) for s in sessions)
    parts.append(f'<p class="lead"><b>{read} log(s) -&gt; {len(sessions)} session(s)</b> of '
                 f'{len(games)} game(s) (a LAN table\'s logs, one per peer, are one session), '
                 f'read from {escape(", ".join(inputs[:4]))}{" …" if len(inputs) > 4 else ""} · '
                 f'made {stamp} by Sandtable</p>')
    if games:
        parts.append("<nav>" + "".join(f'<a href="#{escape(g)}">{escape(ss[0].game_name)}</a>'
                                        for g, ss in games.items()) + "</nav>")
    parts.append(_overview(games))
    parts.append(_skipped(skipped))
    parts.append(_merged(sessions))
    parts.append(_incomplete(sessions))
    for game, ss in games.items():
        parts.append(game_section(game, ss, by=by, compare_by=compare_by, why=why))
    if not sessions:
        parts.append('<p class="bad">No session could be read.</p>')
    parts.append(f"</main>{SORT_SCRIPT}</body></html>")
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
                     sum(len(s.notes) for s in ss), len(agg.decided(ss)),
                     len(agg.unfinished(ss)), sum(1 for s in ss if s.salvaged or s.damage),
                     sum(sum(s.salvaged_flags.values()) for s in ss),
                     sum(sum(s.dismissed_flags.values()) for s in ss)])
    return ("<h3>Overview</h3>" + _table(
        ["Game", "Sessions", "Drafts", "Turns (mean)", "Minutes (mean)", "Flags / session",
         "Notes", "With a winner", "Unfinished", "Damaged logs",
         "Salvaged flags (not in the totals)", "Dismissed flags (not in the totals)"], rows,
        {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}))


def _skipped(skipped: list[tuple[str, str]]) -> str:
    if not skipped:
        return ""
    items = "".join(f"<li><b>{escape(p)}</b>: {escape(why)}</li>" for p, why in skipped)
    return (f'<div class="bad"><b>{len(skipped)} input(s) skipped</b> — the report covers the '
            f"rest.<ul>{items}</ul></div>")


def _merged(sessions: list[Session]) -> str:
    """Which sessions were read from several peers' logs, and the logs that disagreed."""
    merged = [s for s in sessions if len(s.logs) > 1]
    if not merged:
        return ""
    items = "".join(
        f"<li><b>{escape(s.path.name)}</b>: {len(s.logs)} logs -&gt; 1 session ("
        + escape(", ".join(Path(p).name for p in s.logs)) + ")"
        + (" — <b>the logs disagree</b>: " + escape("; ".join(
            f"{name} lacks {n} op(s) the others hold" for name, n in s.disagree))
           + "; merged, each op counted once" if s.disagree else "")
        + "</li>" for s in merged[:40])
    more = f"<li>… and {len(merged) - 40} more</li>" if len(merged) > 40 else ""
    logs = sum(len(s.logs) for s in merged)
    return (f'<details class="warn"{" open" if any(s.disagree for s in merged) else ""}>'
            f"<summary>{logs} logs of {len(merged)} table(s) read as {len(merged)} "
            f"session(s) (one table, one session: every op once, every peer's secrets)"
            f"</summary><ul>{items}{more}</ul></details>")


def _incomplete(sessions: list[Session]) -> str:
    out = []
    damaged = [s for s in sessions if s.damage or s.salvaged]
    if damaged:
        items = "".join(
            f"<li><b>{escape(s.name)}</b>: "
            + escape("; ".join(s.damage[:3]) + (" …" if len(s.damage) > 3 else ""))
            + (f" — <b>salvage mode</b>: op(s) {escape(', '.join(f'#{n}' for n in s.lost[:5]))}"
               f" lost, {s.salvaged} later op(s) read without them" if s.salvaged else "")
            + "</li>" for s in damaged[:40])
        more = f"<li>… and {len(damaged) - 40} more</li>" if len(damaged) > 40 else ""
        out.append(f'<div class="bad"><b>{len(damaged)} damaged log(s)</b> — read as far as '
                   f"the bytes allow; what was lost (record and byte):<ul>{items}{more}</ul>"
                   f"</div>")
    # (unfinished sessions have a closed table in their game's section, and logs that
    # disagree are named above, where the tables read from several logs are)
    rows = [(s, [m for m in s.incomplete if not m.startswith((
        "no flags", "salvaged", "unfinished", "the logs of this table disagree"))
                 and m not in s.problems]) for s in sessions]
    rows = [(s, ms) for s, ms in rows if ms]
    if rows:
        items = "".join(f"<li><b>{escape(s.name)}</b>: {escape('; '.join(ms))}</li>"
                        for s, ms in rows[:40])
        more = f"<li>… and {len(rows) - 40} more</li>" if len(rows) > 40 else ""
        out.append(f'<details class="warn"{" open" if len(rows) <= 8 else ""}><summary>'
                   f"{len(rows)} session(s) are incomplete — what they could not tell"
                   f"</summary><ul>{items}{more}</ul></details>")
    return "".join(out)


def write(path: str | Path, html: str) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)  # `--out reports/june.html` makes its folder
    path.write_text(html, encoding="utf-8")
    return path
