"""Two labelled sets of sessions side by side (two drafts; or two playtest groups, two bot
pairings: any two sets): per player count and balance figure, the difference with its 95%
interval and whether it holds after Holm's correction for the number of comparisons; and the
answer in a sentence ("v0.7 · … is more balanced: it narrows the faction spread from 31 to 12
points ...").

    from table.report.contrast import contrast
    result = contrast(("greedy vs greedy", sessions_a), ("greedy vs careful", sessions_b),
                      group_header="faction")
    print(result.sentence(game="Gauntlet"))
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from . import corrections
from .balance import Balance, Figure, balances, shifted
from .intervals import diff_of_means, diff_of_rates
from .model import Session

Labelled = tuple[str, Sequence[Session]]


@dataclass(slots=True)
class Difference:
    players: int
    key: str
    label: str
    a: Figure
    b: Figure
    diff: float  # b − a
    low: float
    high: float
    p: float
    adjusted: float = 1.0  # after the correction for the family's size

    @property
    def holds(self) -> bool:
        return self.adjusted < corrections.ALPHA

    @property
    def points(self) -> bool:
        return self.a.points

    def reversed(self) -> Difference:
        """The same difference read the other way (a − b)."""
        return replace(self, a=self.b, b=self.a, diff=-self.diff, low=-self.high,
                       high=-self.low)

    def shown(self) -> str:
        scale, unit = (100, " pts") if self.points else (1, "")
        digits = 0 if self.points else 1
        return (f"{self.diff * scale:+.{digits}f}{unit} ({self.low * scale:+.{digits}f} to "
                f"{self.high * scale:+.{digits}f})")


@dataclass(slots=True)
class Contrast:
    a: str
    b: str
    balance_a: dict[int, Balance]
    balance_b: dict[int, Balance]
    differences: list[Difference] = field(default_factory=list)
    method: str = corrections.HOLM
    group_header: str = "group"
    noun: str = ""  # what a set is called in the answer ("draft", "group"; "" for none)

    def find(self, players: int, key: str) -> Difference | None:
        return next((d for d in self.differences if d.players == players and d.key == key),
                    None)

    @property
    def primary_count(self) -> int | None:
        """The player count the answer speaks of: the one with the most decided sessions."""
        both = [n for n in self.balance_a if n in self.balance_b]
        if not both:
            return None
        return max(both, key=lambda n: (self.balance_a[n].decided + self.balance_b[n].decided,
                                        -n))

    def reversed(self) -> Contrast:
        """The same comparison read from the other set's side."""
        return Contrast(self.b, self.a, self.balance_b, self.balance_a,
                        [d.reversed() for d in self.differences], self.method,
                        self.group_header, self.noun)

    def sentence(self, game: str = "") -> str:
        """The answer: which set is more balanced, by how much, how sure; the first player."""
        return answer(self, game)


def _difference(players: int, a: Figure, b: Figure) -> Difference:
    if a.draws and b.draws:
        # the two sets drawn independently; the basic bootstrap (the draws reflected about
        # the observed difference: each side's own bias out), for the interval and the
        # p-value alike
        diff = b.value - a.value
        draws = [y - x for x, y in zip(a.draws, b.draws, strict=False)]
        reflected = [2 * diff - d for d in draws]
        low, high = shifted(draws, diff)
        return Difference(players, a.key, a.label, a, b, diff, low, high,
                          corrections.draws_p(reflected))
    if a.counts is not None and b.counts is not None:
        found = diff_of_rates(*a.counts, *b.counts)
        d = found if found is not None else (b.value - a.value, -1.0, 1.0)
        return Difference(players, a.key, a.label, a, b, b.value - a.value, d[1], d[2],
                          corrections.rates_p(*a.counts, *b.counts))
    if a.values is not None and b.values is not None:
        found = diff_of_means(a.values, b.values)
        d = found if found is not None else (b.value - a.value, -math.inf, math.inf)
        half = (d[2] - d[1]) / 2
        z = d[0] / (half / 1.959964) if half > 0 and math.isfinite(half) else 0.0
        return Difference(players, a.key, a.label, a, b, d[0], d[1], d[2],
                          corrections.normal_p(z) if half > 0 else 1.0)
    se = math.sqrt((a.se or 0.0) ** 2 + (b.se or 0.0) ** 2)
    diff = b.value - a.value
    return Difference(players, a.key, a.label, a, b, diff, diff - 1.959964 * se,
                      diff + 1.959964 * se, corrections.normal_p(diff / se) if se else 1.0)


def contrast(a: Labelled, b: Labelled, group_header: str | None = None,
             method: str = corrections.HOLM, noun: str = "") -> Contrast:
    """Set `b` against set `a`: every balance figure both have, per player count, corrected
    for the number of comparisons (`method`: Holm, or Benjamini-Hochberg). `noun` names a set
    in the answer ("draft": "draft v0.7 · … is more balanced")."""
    out = Contrast(a[0], b[0], balances(a[1], group_header, a[0]),
                   balances(b[1], group_header, b[0]), method=method,
                   group_header=group_header or "group", noun=noun)
    for players, ba in out.balance_a.items():
        bb = out.balance_b.get(players)
        if bb is None:
            continue
        for key, fa in ba.figures.items():
            fb = bb.figures.get(key)
            if fb is not None:
                out.differences.append(_difference(players, fa, fb))
    adjusted = corrections.adjust([d.p for d in out.differences], method)
    for d, p in zip(out.differences, adjusted, strict=True):
        d.adjusted = p
    return out


def _pts(x: float) -> str:
    return f"{x * 100:.0f}"


def answer(c: Contrast, game: str = "") -> str:
    """The answer in a sentence (or two): which set is more balanced and how sure."""
    lead = f"{game}: " if game else ""
    count = c.primary_count
    group = c.group_header
    spread = c.find(count, f"spread:{group}") if count is not None else None
    many = len(c.differences)
    correction = f"{c.method}'s correction over {many} comparison{'s' if many != 1 else ''}"
    at = "" if count is None or len(c.balance_a) == 1 == len(c.balance_b) else \
        f" at {count} players"
    if spread is None:
        return (f"{lead}{c.b} and {c.a} cannot be compared on their {group} spread{at}: too "
                f"few decided sessions of each {group} (at least 5 seat-games each).")
    a, b = spread.a.value, spread.b.value
    if b > a:  # said from the more balanced set's side, whichever set is the reference
        return answer(c.reversed(), game)
    noun = f"{c.noun} " if c.noun else ""
    better, worse = (c.b, c.a) if b < a else (c.a, c.b)
    interval = (f"difference {spread.diff * 100:+.0f} points, 95% interval "
                f"{spread.low * 100:+.0f} to {spread.high * 100:+.0f}")
    if spread.holds and b != a:
        how = f"it narrows the {group} spread from {_pts(a)} to {_pts(b)} points"
        text = (f"{lead}{noun}{better} is more balanced than {noun}{worse}{at}: {how} "
                f"({interval}; holds after {correction})")
    else:
        text = (f"{lead}{noun}{better} looks more balanced than {noun}{worse}{at} ({group} "
                f"spread {_pts(b)} against {_pts(a)} points), but the "
                f"difference ({interval}) does not hold after {correction}: more sessions "
                f"would tell")
    first = c.find(count, "first") if count is not None else None
    if first is not None:
        text += (f"; the first-player edge moves from {first.a.value * 100:+.0f} to "
                 f"{first.b.value * 100:+.0f} points ({first.shown()}, holds)" if first.holds
                 else f"; the first-player edge shows no difference that holds "
                      f"({first.shown()})")
    return text + "."
