"""How balanced a set of sessions is (a draft's, a playtest group's, a bot pairing's), per
player count, each figure with its 95% interval:

- the spread of win rates across factions (the module's group header), the decks' other headers
  (leaders) and the decks themselves: the largest minus the smallest, and one dispersion figure,
  the standard deviation of the true win rates once the sampling noise is taken out (the
  observed rates' variance less their mean sampling variance);
- the first player's edge (its win rate less the fair share at that count) and the seat-order
  spread (largest minus smallest win rate by turn order);
- game length: mean turns and their standard deviation.

The spreads' intervals come from a parametric bootstrap of the categories' win rates (each a
normal draw around the observed rate with its binomial variance), seeded by the data, so a page
made twice says the same; the draws are kept for the differences between two sets
(contrast.py).
"""
from __future__ import annotations

import hashlib
import math
import random
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .intervals import Z95, mean_interval, wilson
from .model import SeatInfo, Session

DRAWS = 1000  # bootstrap draws per figure
MIN_GAMES = 5  # a category with fewer seat-games is left out of a spread (named apart)


@dataclass(slots=True)
class Figure:
    """One balance figure of one set of sessions at one player count."""
    key: str  # stable id ("spread:faction", "first", "turns", ...): what two sets compare on
    label: str  # as the page names it
    value: float
    low: float
    high: float
    points: bool = True  # a win-rate figure (shown in points) or a length (turns)
    draws: list[float] = field(default_factory=list)  # bootstrap draws, when bootstrapped
    counts: tuple[int, int] | None = None  # (wins, games) of a rate figure
    values: list[float] | None = None  # a mean's values
    se: float | None = None  # a standard deviation's standard error
    detail: str = ""  # the categories behind a spread (highest and lowest)
    n: int = 0  # seat-games or sessions it is read from

    def shown(self) -> str:
        scale, unit = (100, " pts") if self.points else (1, "")
        digits = 0 if self.points else 1
        return (f"{self.value * scale:.{digits}f}{unit} ({self.low * scale:.{digits}f}–"
                f"{self.high * scale:.{digits}f})")


@dataclass(slots=True)
class Balance:
    players: int
    sessions: int
    decided: int
    figures: dict[str, Figure] = field(default_factory=dict)


Key = Callable[[SeatInfo], str | None]


def _rng(*parts: object) -> random.Random:
    seed = hashlib.blake2b(repr(parts).encode(), digest_size=8).hexdigest()
    return random.Random(int(seed, 16))


def _category_rates(ss: Sequence[Session], key: Key) -> dict[str, tuple[int, int]]:
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for s in ss:
        if not s.winners:
            continue
        for seat in s.seats:
            label = key(seat)
            if label is not None:
                counts[label][0] += int(seat.seat in s.winners)
                counts[label][1] += 1
    return {k: (w, n) for k, (w, n) in counts.items()}


def _dispersion(rates: Sequence[tuple[float, int]]) -> float:
    """The spread of the true rates once the sampling noise is taken out (an SD)."""
    if len(rates) < 2:
        return 0.0
    ps = [p for p, _n in rates]
    mean = sum(ps) / len(ps)
    var = sum((p - mean) ** 2 for p in ps) / (len(ps) - 1)
    noise = sum(p * (1 - p) / n for p, n in rates) / len(rates)
    return math.sqrt(max(0.0, var - noise))


def _sorted_q(ordered: Sequence[float], q: float) -> float:
    """The q-quantile of values already sorted."""
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def shifted(draws: Sequence[float], observed: float, floor: float | None = None
            ) -> tuple[float, float]:
    """The 95% interval of a bootstrapped figure (the basic bootstrap: the draws' spread
    around the observed value, reflected): a largest-minus-smallest figure runs high by itself
    (noise widens it), and the reflection takes that bias out of the interval."""
    ordered = sorted(draws)
    low = 2 * observed - _sorted_q(ordered, 0.975)
    high = 2 * observed - _sorted_q(ordered, 0.025)
    if floor is not None:
        low, high = max(floor, low), max(floor, high)
    return low, high


def spread_figures(name: str, counts: dict[str, tuple[int, int]], rng: random.Random,
                   what: str) -> list[Figure]:
    """The spread (largest − smallest) and the dispersion of the categories' win rates."""
    kept = {k: (w, n) for k, (w, n) in counts.items() if n >= MIN_GAMES}
    if len(kept) < 2:
        return []
    labels = sorted(kept)
    observed = [(kept[k][0] / kept[k][1], kept[k][1]) for k in labels]
    # one column of draws per category: a normal draw around its rate with the binomial
    # variance of a rate shrunk towards one half (so a 0% or 100% category still varies)
    columns = []
    for (p, n), (w, _n) in zip(observed, (kept[k] for k in labels), strict=True):
        shrunk = (w + 2) / (n + 4)
        sd = math.sqrt(shrunk * (1 - shrunk) / n)
        gauss = rng.gauss
        columns.append([min(1.0, max(0.0, gauss(p, sd))) for _ in range(DRAWS)])
    rows = list(zip(*columns, strict=True))
    spreads = [hi - lo for hi, lo in zip(map(max, rows), map(min, rows), strict=True)]
    sizes = [n for _p, n in observed]
    dispersions = [_dispersion(list(zip(row, sizes, strict=True))) for row in rows]
    ps = [p for p, _n in observed]
    top = max(labels, key=lambda k: kept[k][0] / kept[k][1])
    bottom = min(labels, key=lambda k: kept[k][0] / kept[k][1])
    detail = (f"{top} {100 * kept[top][0] / kept[top][1]:.0f}% … {bottom} "
              f"{100 * kept[bottom][0] / kept[bottom][1]:.0f}%" if top != bottom else
              f"all {100 * kept[top][0] / kept[top][1]:.0f}%")
    left = sorted(set(counts) - set(kept))
    if left:
        detail += f"; fewer than {MIN_GAMES} seat-games, left out: {', '.join(left)}"
    n = sum(sizes)
    spread, dispersion = max(ps) - min(ps), _dispersion(observed)
    return [Figure(f"spread:{name}", f"{what} spread (largest − smallest win rate)", spread,
                   *_bounded(spreads, spread), draws=spreads, detail=detail, n=n),
            Figure(f"dispersion:{name}", f"{what} dispersion (SD of true win rates)",
                   dispersion, *_bounded(dispersions, dispersion), draws=dispersions, n=n)]


def _bounded(draws: Sequence[float], observed: float) -> tuple[float, float]:
    """A spread's (or dispersion's) 95% interval: the basic bootstrap's (which takes out the
    upward bias noise gives a largest-minus-smallest figure) joined with the percentile one
    (which still reaches as far as noise alone would when the figure sits at 0, where the
    basic one shrinks to nothing): the wider of the two, never below 0."""
    ordered = sorted(draws)
    low, high = shifted(ordered, observed, floor=0.0)
    return max(0.0, min(low, _sorted_q(ordered, 0.025))), max(high, _sorted_q(ordered, 0.975))


def _first_player(ss: Sequence[Session], players: int) -> Figure | None:
    games = [s for s in ss if s.winners]
    if not games:
        return None
    wins = sum(1 for s in games for x in s.seats if x.order == 1 and x.seat in s.winners)
    low, high = wilson(wins, len(games))
    fair = 1 / players
    return Figure("first", "First-player edge (its win rate − the fair share)",
                  wins / len(games) - fair, low - fair, high - fair, counts=(wins, len(games)),
                  n=len(games))


def _turns(ss: Sequence[Session]) -> list[Figure]:
    values = [float(s.turns) for s in ss]
    if len(values) < 2:
        return []
    mean, low, high = mean_interval(values)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))
    se = sd / math.sqrt(2 * (len(values) - 1))
    return [Figure("turns", "Game length (mean turns)", mean, low, high, points=False,
                   values=values, n=len(values)),
            Figure("turns-sd", "Game length spread (SD of turns)", sd,
                   max(0.0, sd - Z95 * se), sd + Z95 * se, points=False, se=se, n=len(values))]


def _nth(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th") + " to play"


def _same_split(ss: Sequence[Session], key: Key) -> bool:
    """Whether `key` splits the seats exactly as their groups do (one value per group)."""
    pairs = {(seat.group, key(seat)) for s in ss for seat in s.seats}
    return len(pairs) == len({g for g, _v in pairs}) == len({v for _g, v in pairs})


def _attr(header: str) -> Key:
    return lambda seat: seat.attrs.get(header)


def attributes(ss: Sequence[Session], group_header: str | None) -> list[tuple[str, str, Key]]:
    """(name, what, key) of each way to split the seats: the module's group header (faction,
    crown, chosen), the decks' other headers (leader), and the decks themselves when there are
    more decks than groups."""
    out: list[tuple[str, str, Key]] = []
    group = group_header or "group"
    out.append((group, group, lambda seat: seat.group))
    headers = sorted({k for s in ss for x in s.seats for k in x.attrs if k != group_header})
    for header in headers:
        if not _same_split(ss, _attr(header)):  # a leader per faction: the same figure twice
            out.append((header, header, _attr(header)))
    decks = {x.deck for s in ss for x in s.seats}
    groups = {x.group for s in ss for x in s.seats}
    if len(decks) > len(groups):
        out.append(("deck", "deck", lambda seat: seat.deck or None))
    return out


def balance(ss: Sequence[Session], players: int, group_header: str | None,
            label: str = "") -> Balance:
    """The balance figures of the sessions at one player count."""
    at = [s for s in ss if len(s.seats) == players]
    rng = _rng(label, players, len(at), sum(s.turns for s in at))
    out = Balance(players, len(at), sum(1 for s in at if s.winners))
    for name, what, key in attributes(at, group_header):
        for figure in spread_figures(name, _category_rates(at, key), rng, what.capitalize()):
            out.figures[figure.key] = figure
    first = _first_player(at, players)
    if first is not None:
        out.figures[first.key] = first
    orders = _category_rates(at, lambda seat: None if seat.order is None else _nth(seat.order))
    for figure in spread_figures("order", orders, rng, "Seat-order")[:1]:
        out.figures[figure.key] = figure
    for figure in _turns(at):
        out.figures[figure.key] = figure
    return out


_MEMO: dict[tuple[object, ...], dict[int, Balance]] = {}


def balances(ss: Sequence[Session], group_header: str | None, label: str = ""
             ) -> dict[int, Balance]:
    """The balance figures per player count (never pooled: the fair share differs). A page
    asks for the same set's more than once (its answer, its tables): figured out once."""
    key = (label, group_header, tuple((str(s.path), s.table_id, s.turns, len(s.seats),
                                       tuple(sorted(s.winners))) for s in ss))
    if key not in _MEMO:
        if len(_MEMO) > 64:
            _MEMO.clear()
        _MEMO[key] = {n: balance(ss, n, group_header, label)
                      for n in sorted({len(s.seats) for s in ss})}
    return _MEMO[key]
