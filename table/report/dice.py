"""Where the dice were unfair: a chi-square per session, seat and die, and the sessions it
singles out, so a loaded die (one seat's, at one table) can be found; pooling every roll of
every session only says *that* something is off, never where.

A session is singled out when its most uneven seat-die is unlikely from a fair die even after
allowing for how many seat-dice the session has (Bonferroni: p times the number of tests in
the session, below `ALPHA`). With a few dozen rolls per seat, only a die that is far off is
found; the page says how many rolls each test had.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from html import escape

from .aggregate import Dice
from .html import _Raw, _table
from .model import Session

ALPHA = 0.001  # per session: over a thousand sessions, about one fair one is listed
MIN_ROLLS = 12  # fewer rolls than this for a seat's die: no test (the chi-square needs some)


@dataclass(slots=True)
class SeatDie(Dice):
    """One seat's rolls of one die size in one session (the chi-square is Dice's)."""
    session: Session
    seat: int | None

    @property
    def most(self) -> int:
        """The face that came up most (1-based)."""
        return max(range(self.sides), key=lambda i: self.counts[i]) + 1


@dataclass(slots=True)
class Suspect:
    die: SeatDie  # the session's most uneven seat-die
    tests: int  # seat-dice tested in the session

    @property
    def adjusted(self) -> float:
        return min(1.0, self.die.p_value * self.tests)


def seat_dice(s: Session) -> list[SeatDie]:
    by: dict[tuple[int | None, int], list[int]] = defaultdict(list)
    for sides, value, seat in s.rolls:
        if 2 <= sides <= 100 and 1 <= value <= sides:
            counts = by.setdefault((seat, sides), [0] * sides)
            counts[value - 1] += 1
    return [SeatDie(sides, counts, session=s, seat=seat) for (seat, sides), counts in sorted(
        by.items(), key=lambda kv: (kv[0][0] if kv[0][0] is not None else -1, kv[0][1]))]


def suspects(sessions: list[Session]) -> tuple[list[Suspect], int]:
    """(sessions singled out, most uneven first; how many sessions had a seat-die tested)."""
    out, tested = [], 0
    for s in sessions:
        dice = [d for d in seat_dice(s) if d.total >= MIN_ROLLS]
        if not dice:
            continue
        tested += 1
        worst = min(dice, key=lambda d: d.p_value)
        suspect = Suspect(worst, len(dice))
        if suspect.adjusted < ALPHA:
            out.append(suspect)
    out.sort(key=lambda x: x.adjusted)
    return out, tested


def render(sessions: list[Session]) -> str:
    found, tested = suspects(sessions)
    why = (f"A chi-square per session, seat and die (seats with at least {MIN_ROLLS} rolls of "
           f"a die: {tested} session(s) tested); a session is listed when its most uneven "
           f"seat-die has p × (seat-dice in the session) below {ALPHA}, which a fair die does "
           f"in about {ALPHA:.1%} of sessions.")
    by_seat = _by_seat(sessions)
    if not any(s.rolls for s in sessions):
        return "<h3>Dice by session and seat</h3><p class=muted>No rolls in these sessions.</p>"
    if not tested:
        most = max((d.total for s in sessions for d in seat_dice(s)), default=0)
        return (f"<h3>Dice by session and seat</h3><p class=muted>No seat rolled a die "
                f"{MIN_ROLLS} times or more in one session (at most {most}): too few to test "
                f"a session on its own.</p>" + by_seat)
    if not found:
        return (f"<h3>Dice by session and seat</h3><p class=muted>{escape(why)}</p>"
                f"<p>No session's dice, tested on their own, look unfair: with a few dozen "
                f"rolls per seat only a die far off shows; a die loaded at some tables shows "
                f"in the dice pooled per playtest group (Dice per group).</p>" + by_seat)
    rows = []
    for x in found[:60]:
        d = x.die
        name = next((i.name for i in d.session.seats if i.seat == d.seat), f"seat {d.seat}")
        faces = " ".join(f"{f + 1}:{c}" for f, c in enumerate(d.counts))
        rows.append([d.session.path.name, name, f"d{d.sides}", d.total, faces,
                     f"{d.most} ({d.counts[d.most - 1]} of {d.total}, fair "
                     f"{d.total / d.sides:.1f})", f"{d.chi2:.1f}", _p(d.p_value),
                     _Raw(f'<span class="neg">{_p(x.adjusted)}</span>')])
    more = f"<p class=muted>… and {len(found) - 60} more.</p>" if len(found) > 60 else ""
    return (f"<h3>Dice by session and seat: {len(found)} of {tested} session(s) singled out"
            f"</h3><p class=muted>{escape(why)}</p>" + _table(
                ["Session", "Seat", "Die", "Rolls", "Faces (face:count)", "Most often",
                 "χ²", "p", "p × tests"], rows, {3, 6, 7, 8}) + f"{more}" + by_seat)


def _by_seat(sessions: list[Session]) -> str:
    """Each seat number's dice over every session (a die that travels with a seat, or a
    table whose every die is off, shows here when no session has enough rolls alone)."""
    pooled: dict[tuple[int | None, int], list[int]] = {}
    for s in sessions:
        for d in seat_dice(s):
            counts = pooled.setdefault((d.seat, d.sides), [0] * d.sides)
            for i, c in enumerate(d.counts):
                counts[i] += c
    if not pooled:
        return ""
    rows = []
    for (seat, sides), counts in sorted(pooled.items(), key=lambda kv: (
            kv[0][0] if kv[0][0] is not None else -1, kv[0][1])):
        d = SeatDie(sides, counts, session=sessions[0], seat=seat)
        cls = "neg" if d.p_value * len(pooled) < ALPHA else ""
        rows.append([f"seat {seat}" if seat is not None else "no seat", f"d{sides}", d.total,
                     " ".join(f"{f + 1}:{c}" for f, c in enumerate(counts)), f"{d.chi2:.1f}",
                     _Raw(f'<span class="{cls}">{_p(d.p_value)}</span>')])
    return ("<details><summary>Dice by seat over all sessions</summary>"
            + _table(["Seat", "Die", "Rolls", "Faces (face:count)", "χ²", "p"], rows,
                     {2, 4, 5}) + "</details>")


def _p(p: float) -> str:
    return f"{p:.1e}" if p < 0.001 else f"{p:.3f}"
