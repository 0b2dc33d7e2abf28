"""Every card's story: every card of the module, with how often seats held it (in the opening
hand, drawn during play, still held at the end), played it, used it in other ways (discarded,
committed, banked: by the zone it went to) or never played it; the win rate of the seats that
held it and its lift against its own group's seats, each with a 95% interval. Dead cards (held
in some sessions, never played) come first; a click on a column's header sorts the table by it.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any

from . import aggregate as agg
from .intervals import diff_of_rates, wilson
from .model import Session


@dataclass(slots=True)
class Story:
    """One card across a set of sessions."""
    card: str
    name: str
    type: str
    group: str
    held_in: int = 0  # seat-games in which a seat held it
    sessions: int = 0  # sessions in which some seat held it
    opening: int = 0  # copies in opening hands
    drawn: int = 0
    held_end: int = 0
    played: int = 0
    used: Counter[str] = field(default_factory=Counter)
    wins: int = 0  # of the holders' seat-games in decided sessions, wins
    games: int = 0  # holders' seat-games in decided sessions
    base: agg.Rate | None = None  # the win rate of its group's seats (everyone for neutral)
    playable: bool = True  # its type is one the module declares plays of

    @property
    def dead(self) -> bool:
        """Held in some session, never played (a card of a type that is played)."""
        return self.held_in > 0 and self.played == 0 and self.playable

    @property
    def status(self) -> str:
        if self.dead:
            return "dead: held, never played"
        if not self.held_in and not self.played:
            return "never held"
        return "" if self.playable else f"a {self.type}: not a played type"

    def lift(self) -> tuple[float, float, float] | None:
        if self.base is None or not self.base.games or not self.games:
            return None
        return diff_of_rates(self.base.wins, self.base.games, self.wins, self.games)


def stories(ss: Sequence[Session], module: Any) -> list[Story]:
    """Every card of `module` (and any card the sessions name that it lacks), dead first."""
    from table.dataset.plays import Plays

    cards = getattr(module, "cards", None) or {}
    neutral = getattr(module, "neutral", None)
    plays = Plays.of(module)
    out = {cid: Story(cid, c.name, c.type, c.group or "",
                      playable=plays is None or c.type in plays.to)
           for cid, c in cards.items()}
    rates = {r.label: r for r in agg.win_rates(ss, agg.by_group)}
    everyone = agg.Rate("all", sum(r.games for r in rates.values()),
                        sum(r.wins for r in rates.values()))
    for s in ss:
        seen: set[str] = set()
        for st in s.stories:
            story = out.get(st.card)
            if story is None:
                story = out[st.card] = Story(st.card, st.card, "", "")
            story.opening += st.opening
            story.drawn += st.drawn
            story.held_end += st.held_end
            story.played += st.played
            story.used.update(dict(st.used))
            if st.held:
                story.held_in += 1
                seen.add(st.card)
                if s.winners:
                    story.games += 1
                    story.wins += int(st.seat in s.winners)
        for card in seen:
            out[card].sessions += 1
    for story in out.values():
        story.base = everyone if not story.group or story.group == neutral else \
            rates.get(story.group)
    return sorted(out.values(), key=lambda c: (not c.dead, -c.held_in if c.dead else 0,
                                               -c.played, -c.held_in, c.name))


_HEAD = [("Card", False), ("Type", False), ("Group", False), ("Held in (seat-games)", True),
         ("Sessions", True), ("Opening hand", True), ("Drawn", True), ("Held at the end", True),
         ("Played", True), ("Other uses", False), ("Win rate when held (95% CI)", True),
         ("Lift vs its group (95% CI)", True), ("", False)]


def _cell(text: str, sort: float | str | None = None, cls: str = "") -> str:
    key = f' data-v="{escape(str(sort))}"' if sort is not None else ""
    return f'<td class="{cls}"{key}>{text}</td>'


def _row(c: Story) -> str:
    uses = ", ".join(f"{escape(z)} {n}" for z, n in c.used.most_common()) or "—"
    if c.games:
        lo, hi = wilson(c.wins, c.games)
        held = f"{c.wins / c.games:.0%} ({lo:.0%}–{hi:.0%}, n={c.games})"
        held_v: float | None = c.wins / c.games
    else:
        held, held_v = "—", None
    lift = c.lift()
    if lift is None:
        lift_text, lift_v = "—", None
    else:
        cls = "pos" if lift[1] > 0 else "neg" if lift[2] < 0 else ""
        lift_text = (f'<span class="{cls}">{lift[0] * 100:+.0f} pts</span> <small>'
                     f"{lift[1] * 100:+.0f} to {lift[2] * 100:+.0f}</small>")
        lift_v = lift[0]
    status = f'<span class="neg">{escape(c.status)}</span>' if c.dead else escape(c.status)
    n = "n"
    return ("<tr>" + _cell(f"<b>{escape(c.name)}</b>", c.name) + _cell(escape(c.type), c.type)
            + _cell(escape(c.group or "—"), c.group) + _cell(str(c.held_in), c.held_in, n)
            + _cell(str(c.sessions), c.sessions, n) + _cell(str(c.opening), c.opening, n)
            + _cell(str(c.drawn), c.drawn, n) + _cell(str(c.held_end), c.held_end, n)
            + _cell(str(c.played), c.played, n) + _cell(uses)
            + _cell(held, held_v if held_v is not None else "")
            + _cell(lift_text, lift_v if lift_v is not None else "") + _cell(status, c.status)
            + "</tr>")


def table(rows: Sequence[Story]) -> str:
    head = "".join(f'<th class="{"n" if num else ""}">{escape(h)}</th>' for h, num in _HEAD)
    return (f'<table class="sortable stories"><thead><tr>{head}</tr></thead><tbody>'
            + "".join(_row(c) for c in rows) + "</tbody></table>")


def render(ss: list[Session], drafts: list[tuple[str, str, list[Session]]]) -> str:
    from .changes import module_of
    from .session import installed_module

    if not any(s.stories for s in ss):
        return ("<h3>Every card's story</h3><p class=muted>These logs say nothing of the "
                "seats' hands.</p>")
    installed = installed_module(ss[0].game)

    def module(digest: str) -> Any:
        return module_of(digest) or installed

    rows = stories(ss, module(drafts[0][1]) if drafts else installed)
    dead = [c for c in rows if c.dead]
    out = [f"<h3>Every card's story ({len(rows)} cards; {len(dead)} dead)</h3>"
           f"<p class=muted>Every card of the module. Held in: the seat-games in which a seat "
           f"held it (as far as the logs know: a one-peer log sees only its own hand); copies in "
           f"opening hands, drawn during play, still held at the end, played (as the module "
           f"declares a play), and gone from the hand otherwise, by the zone they went to. The "
           f"win rate of the seats that held it (decided sessions) and its lift against its own "
           f"group's seats, with 95% intervals. <b>Dead cards</b> (held, never played, of a type "
           f"the module declares plays of) come first; click a column's header to sort by "
           f"it.</p>"]
    if dead:
        out.append("<p><b>Dead cards:</b> " + escape(", ".join(
            f"{c.name} (held in {c.held_in})" for c in dead[:40]))
            + (" …" if len(dead) > 40 else "") + "</p>")
    seen = [c for c in rows if c.held_in or c.played]
    unseen = [c for c in rows if not (c.held_in or c.played)]
    out.append(table(seen))
    if unseen:
        out.append(f"<details><summary>{len(unseen)} card(s) never in a hand (Rites, Crowns, "
                   f"cards no deck played or drew): "
                   + escape(", ".join(c.name for c in unseen[:12]))
                   + (" …" if len(unseen) > 12 else "") + f"</summary>{table(unseen)}</details>")
    if len(drafts) > 1:
        from .html import version_label

        for version, digest, x in drafts:
            per = stories(x, module(digest))
            out.append(f"<details><summary>Every card's story in draft "
                       f"{escape(version_label(version, digest))} ({len(x)} sessions; "
                       f"{sum(c.dead for c in per)} dead)</summary>{table(per)}</details>")
    return "".join(out)


def story_rows(ss: list[Session]) -> list[dict[str, Any]]:
    """Every card of a game's module per draft, its story (`report --csv`: card_stories.csv)."""
    from .changes import module_of
    from .html import version_label
    from .session import installed_module

    out = []
    installed = installed_module(ss[0].game) if ss else None
    for version, digest, x in agg.versions(ss):
        for c in stories(x, module_of(digest) or installed):
            lift = c.lift()
            low, high = wilson(c.wins, c.games)
            out.append({
                "game": ss[0].game, "draft": version_label(version, digest), "card": c.card,
                "name": c.name, "type": c.type, "group": c.group, "dead": int(c.dead),
                "held_in": c.held_in, "sessions": c.sessions, "opening": c.opening,
                "drawn": c.drawn, "held_end": c.held_end, "played": c.played,
                "other_uses": "; ".join(f"{z} {n}" for z, n in c.used.most_common()),
                "held_seat_games": c.games, "held_wins": c.wins,
                "win_when_held": round(c.wins / c.games, 4) if c.games else "",
                "win_low": round(low, 4) if c.games else "",
                "win_high": round(high, 4) if c.games else "",
                "lift": round(lift[0], 4) if lift else "",
                "lift_low": round(lift[1], 4) if lift else "",
                "lift_high": round(lift[2], 4) if lift else ""})
    return out


# Sorts a `table.sortable` by the column whose header is clicked (again: the other way), by
# each cell's data-v (numbers as numbers); the page reads the same without it.
SORT_SCRIPT = """<script>
document.querySelectorAll('table.sortable').forEach(function (t) {
  t.querySelectorAll('th').forEach(function (th, i) {
    th.style.cursor = 'pointer';
    th.title = 'sort by this column';
    th.addEventListener('click', function () {
      var body = t.tBodies[0], rows = Array.prototype.slice.call(body.rows);
      var down = th.dataset.dir !== 'down';
      th.dataset.dir = down ? 'down' : 'up';
      function key(r) {
        var v = r.cells[i].dataset.v; var n = parseFloat(v);
        return v === '' || v === undefined ? null : isNaN(n) ? v.toLowerCase() : n;
      }
      rows.sort(function (a, b) {
        var x = key(a), y = key(b);
        if (x === y) return 0; if (x === null) return 1; if (y === null) return -1;
        return (x < y ? -1 : 1) * (down ? -1 : 1);
      });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
});
</script>"""
