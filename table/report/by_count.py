"""First player's win rate and game length per player count: never pooled across counts (the
fair share is 1/2 at two players and 1/4 at four, so a pooled rate means nothing)."""
from __future__ import annotations

from collections import defaultdict

from . import aggregate as agg
from .html import _pct, _table
from .intervals import mean_interval, wilson
from .model import Session


def render(ss: list[Session]) -> str:
    by: dict[int, list[Session]] = defaultdict(list)
    for s in ss:
        by[len(s.seats)].append(s)
    rows = []
    for count in sorted(by):
        x = by[count]
        games = agg.decided(x)
        wins = sum(1 for s in games for seat in s.seats
                   if seat.order == 1 and seat.seat in s.winners)
        lo, hi = wilson(wins, len(games))
        first = (f"{_pct(wins / len(games))} ({_pct(lo)}–{_pct(hi)}, n={len(games)})"
                 if games else "—")
        fair = 1 / count if count else None  # a table closed before any seat was taken
        verdict = ("above" if lo > fair else "below" if hi < fair else "fair") \
            if games and fair is not None else ""
        turns = mean_interval([float(s.turns) for s in x])
        minutes = mean_interval([s.minutes for s in x])
        rows.append([f"{count} players" if count else "no seat taken", len(x), len(games), first,
                     _pct(fair) if fair is not None else "—", verdict,
                     f"{turns[0]:.1f} ({turns[1]:.1f}–{turns[2]:.1f})",
                     f"{minutes[0]:.0f} ({minutes[1]:.0f}–{minutes[2]:.0f})"])
    return ("<h3>First player and game length, per player count</h3><p class=muted>The first "
            "player's win rate in decided sessions with its 95% interval, against the fair share "
            "at that count; mean turns and minutes per game with their 95% intervals.</p>"
            + _table(["Players", "Sessions", "Decided", "First player wins", "Fair share",
                      "Verdict", "Turns per game", "Minutes per game"], rows, {1, 2}))
