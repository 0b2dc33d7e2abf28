"""The report's tables: rates with n and 95% intervals, seat order per player count,
matchups, cards with lift against their own group, flagged rules, and the sessions table
(also written as CSV by `report --csv`)."""
from __future__ import annotations

import time
from collections.abc import Iterable
from html import escape
from typing import Any

from . import aggregate as agg
from .html import NOT_IN_LOG, _num, _pct, _Raw, _table, version_label
from .session import Session, installed_module


def _ci_bar(r: agg.Rate, width: int = 170) -> str:
    """A rate as a dot on a 0-100% track with its 95% interval and the fair share (tick)."""
    if r.absent:
        return '<span class="muted">absent — not played</span>'
    def x(v: float) -> float:  # the track's scale
        return 4 + v * (width - 8)

    colour = {"above": "#2e7d32", "below": "#c62828"}.get(r.verdict, "#3f7cac")
    fair = (f'<line x1="{x(r.fair):.1f}" x2="{x(r.fair):.1f}" y1="2" y2="16" stroke="#90a4ae" '
            f'stroke-dasharray="2,2"/>' if r.fair is not None else "")
    return (f'<svg class="ci" width="{width}" height="18" viewBox="0 0 {width} 18" role="img">'
            f'<title>{_pct(r.rate)} (95% CI {_pct(r.low)}–{_pct(r.high)})</title>'
            f'<rect x="4" y="8" width="{width - 8}" height="2" fill="#eceff1"/>{fair}'
            f'<line x1="{x(r.low):.1f}" x2="{x(r.high):.1f}" y1="9" y2="9" stroke="{colour}" '
            f'stroke-width="3" stroke-linecap="round" opacity=".45"/>'
            f'<circle cx="{x(r.rate):.1f}" cy="9" r="4.5" fill="{colour}"/></svg>')


def _rate_row(r: agg.Rate, label: str | None = None) -> list[Any]:
    if r.absent:
        return [label or r.label, 0, "—", _Raw('<span class="muted">absent</span>'), "—",
                _Raw(_ci_bar(r))]
    cls = {"above": "pos", "below": "neg"}.get(r.verdict, "")
    return [label or r.label, r.games, r.wins, _Raw(f'<span class="{cls}">{_pct(r.rate)}</span>'),
            f"{_pct(r.low)}–{_pct(r.high)}", _Raw(_ci_bar(r))]


_RATE_HEAD = ["", "n", "Wins", "Win rate", "95% CI", "rate · interval · fair share (dashed)"]


def _rates_table(title: str, rates: list[agg.Rate], head: str, why: str = "") -> str:
    heads = [head, *_RATE_HEAD[1:]]
    return (f"<h3>{escape(title)}</h3>" + (f'<p class="muted">{why}</p>' if why else "")
            + _table(heads, [_rate_row(r) for r in rates], {1, 2}, cls="rates"))


def _group_rates(ss: list[Session], drafts: list[Any]) -> str:
    module = installed_module(ss[0].game)
    header = getattr(module, "group_header", None)
    declared = list(getattr(module, "groups", ()) or ())
    if not any(x.group for s in ss for x in s.seats):
        return "<h3>Win rate by group</h3><p class=muted>The logs do not name the decks' groups.</p>"
    name = header or "group"
    why = (f"Seat-games of decided sessions (n), wins, and the 95% Wilson interval; green or red "
           f"when the interval leaves the fair share (1 / players at each table). A {name} "
           f"declared by the module but not played is shown as absent, not 0%.")
    out = [_rates_table(f"Win rate by {name}", agg.win_rates(ss, agg.by_group, declared),
                        name.capitalize(), why)]
    if len(drafts) > 1:
        for v, h, x in drafts:
            out.append(_rates_table(f"… in draft {version_label(v, h)}",
                                    agg.win_rates(x, agg.by_group, declared), name.capitalize()))
    return "".join(out)


def _order_rates(ss: list[Session]) -> str:
    split = agg.order_rates_by_players(ss)
    if not split:
        return "<h3>Win rate by seat order</h3><p class=muted>No decided session.</p>"
    out = ["<h3>Win rate by seat order, per player count</h3>"
           '<p class="muted">Never pooled across player counts: the fair share differs, and an '
           "edge at one count can hide behind balance at another.</p>"]
    for count, rates in split.items():
        sessions = sum(1 for s in agg.decided(ss) if len(s.seats) == count)
        rows = [_rate_row(r, f"plays {r.label}") for r in rates]
        out.append(f"<h3>{count} players <small>({sessions} decided sessions, fair share "
                   f"{_pct(1 / count)})</small></h3>" + _table(
                       ["Seat order", *_RATE_HEAD[1:]], rows, {1, 2}, cls="rates"))
    return "".join(out)


def _matchups(ss: list[Session]) -> str:
    cells = agg.matchups(ss)
    if not cells:
        return ""
    groups = sorted({k[0] for k in cells} | {k[1] for k in cells})
    head = ["row beats column", *groups]
    rows = []
    for a in groups:
        row: list[Any] = [a]
        for b in groups:
            cell = cells.get((a, b))
            if a == b:
                row.append(_Raw('<span class="muted">·</span>'))
            elif cell is None:
                row.append(_Raw('<span class="muted">absent</span>'))
            else:
                lo, hi = cell.interval
                cls = "pos" if lo > 0.5 else "neg" if hi < 0.5 else ""
                row.append(_Raw(f'<span class="{cls}">{_pct(cell.rate)}</span> '
                                f"<small>{cell.wins}/{cell.games} · {_pct(lo)}–{_pct(hi)}</small>"))
        rows.append(row)
    return ("<h3>Matchups</h3><p class=muted>How often the row's group won against the column's, "
            "of the sessions where both sat at the table and one of the two won (wins/games, 95% "
            "interval). Absent: the two never met.</p>" + _table(head, rows))


def _other_attrs(ss: list[Session]) -> str:
    module = installed_module(ss[0].game)
    header = getattr(module, "group_header", None)
    out = []
    for name in agg.attribute_names(ss, header):
        if name == header:
            continue
        rates = agg.win_rates(ss, agg.by_attr(name))
        out.append(_rates_table(f"Win rate by {name}", rates, name.capitalize()))
    return "".join(out)


def _flag_rates(ss: list[Session]) -> str:
    rates = agg.flag_rates(ss)
    if not rates:
        return ""
    rows = [[r.label, r.games, r.wins, _pct(r.rate), f"{_pct(r.low)}–{_pct(r.high)}"]
            for r in rates[:20]]
    return ("<h3>Sessions with each rule flagged</h3><p class=muted>Of the sessions the rules "
            "assist checked (n), how many had the rule flagged at least once, with the 95% "
            "interval.</p>" + _table(["Rule", "n", "Sessions flagged", "Share", "95% CI"],
                                     rows, {1, 2}))


def _date(s: Session) -> str:
    if s.started > 0:
        return time.strftime("%Y-%m-%d %H:%M", time.gmtime(s.started))
    return s.created[:16].replace("T", " ")


def session_rows(ss: Iterable[Session]) -> list[dict[str, Any]]:
    """One row per session (the page's table and `report --csv`)."""
    rows = []
    for s in ss:
        rows.append({
            "session": s.name, "date": _date(s), "game": s.game,
            "draft": _draft(s),
            "log": s.kind, "logs": len(s.logs) or 1, "randomness": s.randomness,
            "players": len(s.seats),
            "groups": "; ".join(f"{x.seat}: {x.group or '?'}" for x in s.seats),
            "winner": s.winner_text or "", "how": s.how or "unfinished",
            "condition": s.condition, "turns": s.turns, "minutes": round(s.minutes, 1),
            "flags": sum(s.flags.values()),
            "flags_by_rule": "; ".join(f"{r}×{n}" for r, n in s.flags.most_common()),
            "salvaged_flags": sum(s.salvaged_flags.values()),
            "dismissed_flags": sum(s.dismissed_flags.values()),
            "group": s.group, "event": s.event, "tags": "; ".join(s.tags),
            "notes": len(s.notes),
            "problems": "; ".join(m for m in s.incomplete if not m.startswith("no flags")),
        })
    return rows


def _draft(s: Session) -> str:
    if not s.draft_known:
        return (f"{NOT_IN_LOG} (the log names {version_label(s.version, s.game_hash)}; judged by "
                f"{s.judged_by})")
    return version_label(s.version, s.game_hash) + "".join(
        f"; changed at op {n} to {version_label(v, h)}" for n, v, h in s.module_changes)


def seat_rows(ss: Iterable[Session]) -> list[dict[str, Any]]:
    """One row per seat of each session (`report --csv`)."""
    rows = []
    for s in ss:
        for x in s.seats:
            rows.append({
                "session": s.name, "game": s.game, "draft": _draft(s),
                "players": len(s.seats), "seat": x.seat, "name": x.name, "deck": x.deck,
                "group": x.group or "", "order": x.order or "",
                "won": ("" if not s.finished else int(x.seat in s.winners)),
                "score": s.scores.get(x.seat, ""), "turns": s.turns_by_seat[x.seat],
                "actions": s.actions[x.seat], "cards_played": len(s.played.get(x.seat, [])),
            })
    return rows


def _sessions(ss: list[Session]) -> str:
    rows = []
    for row, s in zip(session_rows(ss), ss, strict=False):
        rows.append([row["date"], row["session"], row["draft"], row["players"], row["groups"],
                     row["winner"] or "—", row["how"], row["turns"], _num(s.minutes, 0),
                     row["flags_by_rule"] or ("—" if not s.flags_why else "n/a"),
                     row["salvaged_flags"] or "", row["notes"],
                     _RANDOMNESS.get(s.randomness, s.randomness), row["problems"] or ""])
    audited = sum(s.randomness in ("audited", "play audited") for s in ss)
    return (f"<details><summary>Sessions ({len(ss)}; randomness audited in {audited}): one row "
            f"each</summary>"
            + _table(["Date", "Session", "Draft", "Players", "Groups", "Winner", "Ended", "Turns",
                      "Minutes", "Flags", "Salvaged flags (not counted)", "Notes",
                      "Dice and shuffles", "Problems"], rows,
                     {3, 7, 8, 10, 11}, cls="sessions") + "</details>")


# how each session's randomness reads in the sessions table (table.core.audit.audit_summary)
_RANDOMNESS = {"audited": "audited ✓",  # at a LAN table, the seats' setup shuffles included
               "play audited": "audited in play ✓ (some of the setup: one peer's)",
               "local": "one peer's (not auditable)",
               "degraded": "joint, a peer left out of some",
               "unverifiable": "joint, secrets not published", "failed": "AUDIT FAILED",
               "none": "—"}
