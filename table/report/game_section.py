"""A game's section of the report page: its figures, balance and drafts compared, confusion
per occasion, win rates, charts, dice, every card's story, notes in context and sessions; and,
with `--by`, the same for each slice of its sessions (playtest group, event, tag, player)."""
from __future__ import annotations

from collections import Counter
from html import escape

from . import aggregate as agg
from . import balance_page, by_count, card_stories, charts, compare, confusion, dice, notes, slices
from .html import _num, _table, version_label
from .model import Session
from .tables import _flag_rates, _group_rates, _matchups, _order_rates, _other_attrs, _sessions


def game(game_id: str, ss: list[Session], *, by: str | None = None, compare_by: str = "draft",
         why: dict[str, str] | None = None) -> str:
    """The game's section; with `by`, a table of its slices, their dice, then each slice."""
    name = ss[0].game_name
    if by is None:
        return _game(game_id, ss, compare_by, why, f'<h2 id="{escape(game_id)}">{escape(name)}</h2>')
    parts = slices.slices(ss, by)
    out = [f'<h2 id="{escape(game_id)}">{escape(name)} — by {escape(by)}</h2>',
           slices.summary(parts, by), slices.render_dice(parts, by)]
    for value, x in parts:
        out.append(_game(f"{game_id}-{value}", x, compare_by, why,
                         f'<h2 id="{escape(game_id)}-{escape(value)}">{escape(name)} · '
                         f"{escape(by)} {escape(value)}</h2>"))
    return "".join(out)


def _game(game_id: str, ss: list[Session], compare_by: str, why: dict[str, str] | None,
          title: str) -> str:
    drafts = agg.versions(ss)
    out = [title]
    tags = " ".join(f'<span class="tag">{escape(version_label(v, h))}: {len(x)} sessions</span>'
                    for v, h, x in drafts)
    out.append(f'<p class="lead">{len(ss)} sessions · {tags}</p>')
    flagged = agg.flags_by_rule(ss)
    open_ = agg.unfinished(ss)
    out.append('<div class="cards">' + "".join(
        f'<div class="kpi"><b>{v}</b><span>{escape(k)}</span></div>' for k, v in [
            ("sessions", len(ss)),
            ("decided (a winner)", len(agg.decided(ss))),
            ("unfinished (no result)", len(open_)),
            ("turns per game (mean)", _num(agg.mean(s.turns for s in ss))),
            ("minutes per game (mean)", _num(agg.mean(s.minutes for s in ss), 0)),
            ("seconds per turn (mean)", _num(agg.mean(s.seconds_per_turn for s in ss), 0)),
            ("flags raised", sum(n for _r, n, _s in flagged)),
            ("designer notes", sum(len(s.notes) for s in ss)),
        ]) + "</div>")
    out.append(_endings(ss))
    out.append(notes.unfinished(ss))
    out.append(balance_page.render(ss, compare_by))
    if len(drafts) > 1:
        out.append("<h3>Drafts compared (by module content hash)</h3>")
        out.append(_drafts(drafts))
        out.append(compare.render(drafts))
    out.append(confusion.render(ss, why))
    out.append(by_count.render(ss))
    out.append(_group_rates(ss, drafts))
    out.append(_matchups(ss))
    out.append(_order_rates(ss))
    out.append(_other_attrs(ss))
    out.append('<div class="grid">')
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
    out.append(dice.render(ss))
    groups = slices.slices(ss, "group")
    if len(groups) > 1:
        out.append(slices.render_dice(groups, "group"))
    out.append(_flag_rates(ss))
    out.append(card_stories.render(ss, drafts))
    out.append(notes.render(ss))
    out.append(_sessions(ss))
    return "".join(out)


def _endings(ss: list[Session]) -> str:
    hows = Counter(s.how or "unfinished" for s in ss)
    conditions = Counter(s.condition for s in ss if s.condition)
    parts = [f"{escape(h)}: {n}" for h, n in hows.most_common()]
    text = "How the games ended — " + " · ".join(parts)
    if conditions:
        text += " · victory conditions: " + ", ".join(f"{escape(c)} ({n})"
                                                        for c, n in conditions.most_common())
    if hows.get("unfinished"):
        text += (". Unfinished sessions (no end-of-game op) are left out of every win rate.")
    return f'<p class="muted">{text}</p>'


def _panel(body: str, why: str = "") -> str:
    return f'<div class="panel">{body}{f"<p class=why>{why}</p>" if why else ""}</div>'


def _drafts(drafts: list[tuple[str, str, list[Session]]]) -> str:
    rows = []
    for v, h, x in drafts:
        flagged = agg.flags_by_rule(x)
        rows.append([version_label(v, h), len(x), _num(agg.mean(s.turns for s in x)),
                     _num(agg.mean(s.minutes for s in x), 0),
                     _num(agg.mean(s.actions_per_turn for s in x)),
                     _num(agg.mean(s.seconds_per_turn for s in x), 0),
                     _num(agg.mean(sum(s.flags.values()) for s in x)),
                     flagged[0][0] if flagged else "—",
                     _num(agg.mean(len(s.notes) for s in x))])
    # (the first player's rate is per player count, in the side-by-side table below)
    return _table(["Draft", "Sessions", "Turns", "Minutes", "Actions / turn", "Sec / turn",
                   "Flags / session", "Most flagged rule", "Notes / session"],
                  rows, {1, 2, 3, 4, 5, 6, 8})


def _flags_chart(ss: list[Session], flagged: list[tuple[str, int, int]]) -> tuple[str, str]:
    if not flagged:
        whys = sorted({s.flags_why for s in ss if s.flags_why})
        why = "; ".join(whys) if whys else "the assist raised no flag"
        return charts.empty(f"Rules flagged: none ({escape(why)})"), ""
    top = flagged[:12]
    svg = charts.hbars([r for r, _n, _s in top], [n for _r, n, _s in top],
                       title="Flags raised (raw counts; the ranking is per occasion)",
                       notes=[f"in {s} sessions" for _r, _n, s in top],
                       xlabel="flags raised by the rules assist", colour=charts.PALETTE[1])
    example: dict[str, str] = {}
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
    verdict = ("looks fair" if d.p_value >= 0.05 else "unlikely from fair dice (which "
               "sessions, seats and playtest groups: under Dice by session and seat, and Dice "
               "per group)")
    svg = charts.dice_chart(d.sides, d.counts, title=f"d{d.sides} rolls against a fair die "
                                                     f"({d.total} rolls)")
    others = ", ".join(f"d{o.sides}: {o.total} rolls, p={o.p_value:.2f}" for o in found if o is not d)
    why = (f"All sessions pooled: χ² = {d.chi2:.1f} on {d.sides - 1} df, p = {d.p_value:.3f}: "
           f"{verdict}."
           + (f" Also {others}." if others else ""))
    return svg, escape(why)
