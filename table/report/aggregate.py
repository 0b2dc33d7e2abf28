"""Numbers across sessions: win rates, card play and win correlation, flags, dice, lengths.

Plain functions over `Session`s (Qt-free, no plotting): the page and the tests read them.
"""
from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from .session import SeatInfo, Session


@dataclass(slots=True)
class Rate:
    label: str
    games: int  # seat-games (a seat in a session)
    wins: int

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass(slots=True)
class CardStat:
    card: str
    sessions: int  # sessions in which some seat played it
    seat_games: int  # (session, seat) pairs that played it
    wins: int  # of those, how many won
    plays: int  # copies played in all

    @property
    def win_rate(self) -> float:
        return self.wins / self.seat_games if self.seat_games else 0.0


def decided(sessions: Iterable[Session]) -> list[Session]:
    return [s for s in sessions if s.winner is not None]


def fair_rate(sessions: Sequence[Session]) -> float:
    """The win rate every seat would have if nothing mattered (mean of 1 / seats)."""
    games = decided(sessions)
    return sum(1 / max(1, len(s.seats)) for s in games) / len(games) if games else 0.0


def win_rates(sessions: Iterable[Session], key: Callable[[SeatInfo], str | None]) -> list[Rate]:
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for s in decided(sessions):
        for seat in s.seats:
            label = key(seat)
            if label is None:
                continue
            counts[label][0] += 1
            counts[label][1] += int(seat.seat == s.winner)
    return sorted((Rate(k, g, w) for k, (g, w) in counts.items()),
                  key=lambda r: (-r.rate, -r.games, r.label))


def by_attr(name: str) -> Callable[[SeatInfo], str | None]:
    return lambda seat: seat.attrs.get(name)


def by_order(seat: SeatInfo) -> str | None:
    return None if seat.order is None else _ordinal(seat.order)


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def attribute_names(sessions: Iterable[Session]) -> list[str]:
    """Deck headers seen (faction, leader, crown, chosen...), most common first."""
    seen: Counter[str] = Counter()
    for s in sessions:
        for seat in s.seats:
            seen.update(seat.attrs)
    return [name for name, _n in seen.most_common()]


def card_stats(sessions: Sequence[Session]) -> list[CardStat]:
    stats: dict[str, CardStat] = {}
    for s in sessions:
        in_session: set[str] = set()
        for seat, cards in s.played.items():
            for card in set(cards):
                stat = stats.setdefault(card, CardStat(card, 0, 0, 0, 0))
                stat.seat_games += 1
                stat.wins += int(s.winner == seat)
                in_session.add(card)
            for card in cards:
                stats[card].plays += 1
        for card in in_session:
            stats[card].sessions += 1
    return sorted(stats.values(), key=lambda c: (-c.sessions, -c.plays, c.card))


def flags_by_rule(sessions: Iterable[Session]) -> list[tuple[str, int, int]]:
    """(rule, flags, sessions with it), most flagged first."""
    total: Counter[str] = Counter()
    where: Counter[str] = Counter()
    for s in sessions:
        total.update(s.flags)
        where.update(set(s.flags))
    return [(rule, n, where[rule]) for rule, n in total.most_common()]


@dataclass(slots=True)
class Dice:
    sides: int
    counts: list[int]  # index 0 = face 1

    @property
    def total(self) -> int:
        return sum(self.counts)

    @property
    def expected(self) -> float:
        return self.total / self.sides if self.sides else 0.0

    @property
    def chi2(self) -> float:
        e = self.expected
        return sum((c - e) ** 2 / e for c in self.counts) if e else 0.0

    @property
    def p_value(self) -> float:
        """Chance of a spread at least this uneven from fair dice (chi-square, sides-1 df)."""
        return chi2_sf(self.chi2, self.sides - 1)


def dice(sessions: Iterable[Session]) -> list[Dice]:
    by_sides: dict[int, list[int]] = {}
    for s in sessions:
        for sides, value in s.rolls:
            if 1 <= sides <= 100 and 1 <= value <= sides:
                by_sides.setdefault(sides, [0] * sides)[value - 1] += 1
    return [Dice(n, counts) for n, counts in sorted(by_sides.items())]


def chi2_sf(x: float, df: int) -> float:
    """Survival function of the chi-square distribution (regularised upper gamma Q(df/2, x/2))."""
    if df <= 0:
        return 1.0
    if x <= 0:
        return 1.0
    a, z = df / 2.0, x / 2.0
    if z < a + 1:  # series for P, then Q = 1 - P
        term = total = 1.0 / a
        n = a
        for _ in range(500):
            n += 1
            term *= z / n
            total += term
            if abs(term) < abs(total) * 1e-12:
                break
        return max(0.0, 1.0 - total * math.exp(-z + a * math.log(z) - math.lgamma(a)))
    # continued fraction for Q (Lentz)
    tiny = 1e-300
    b = z + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 500):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-12:
            break
    return min(1.0, math.exp(-z + a * math.log(z) - math.lgamma(a)) * h)


def mean(values: Iterable[float]) -> float:
    values = list(values)
    return sum(values) / len(values) if values else 0.0


def first_player_rate(sessions: Sequence[Session]) -> Rate:
    games = decided(sessions)
    wins = sum(1 for s in games for seat in s.seats if seat.order == 1 and seat.seat == s.winner)
    return Rate("1st", len(games), wins)


def versions(sessions: Iterable[Session]) -> list[tuple[str, str, list[Session]]]:
    """(version label, content hash, sessions) per module draft, newest log first."""
    groups: dict[tuple[str, str], list[Session]] = {}
    for s in sessions:
        groups.setdefault((s.version, s.game_hash), []).append(s)
    ordered = sorted(groups.items(), key=lambda kv: max(x.created for x in kv[1]), reverse=True)
    return [(v, h, ss) for (v, h), ss in ordered]
