"""Numbers across sessions: win rates, card play and win correlation, flags, dice, lengths.

Plain functions over `Session`s (Qt-free, no plotting): the page and the tests read them.
"""
from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from .html import NOT_IN_LOG
from .intervals import Z95 as Z95  # (re-exported)
from .intervals import wilson as wilson
from .model import SeatInfo, Session


@dataclass(slots=True)
class Rate:
    label: str
    games: int  # seat-games (a seat in a session), or sessions, as the table says
    wins: int
    fair: float | None = None  # what the rate would be if nothing mattered

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def low(self) -> float:
        return wilson(self.wins, self.games)[0]

    @property
    def high(self) -> float:
        return wilson(self.wins, self.games)[1]

    @property
    def absent(self) -> bool:
        return self.games == 0

    @property
    def verdict(self) -> str:
        """'above' / 'below' when the interval excludes the fair share, else ''."""
        if self.fair is None or not self.games:
            return ""
        return "above" if self.low > self.fair else "below" if self.high < self.fair else ""


@dataclass(slots=True)
class CardStat:
    card: str
    group: str  # the card's faction / chosen / crown (the neutral group for neutral cards)
    sessions: int  # sessions in which some seat played it
    seat_games: int  # (session, seat) pairs that played it, in decided sessions
    wins: int  # of those, how many won
    plays: int  # copies played in all
    baseline: Rate | None = None  # the win rate of all seats of the card's group

    @property
    def win_rate(self) -> float:
        return self.wins / self.seat_games if self.seat_games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.seat_games)

    @property
    def lift(self) -> float | None:
        """Win rate when played minus the win rate of its group's seats (None: no baseline)."""
        if self.baseline is None or not self.baseline.games or not self.seat_games:
            return None
        return self.win_rate - self.baseline.rate


def decided(sessions: Iterable[Session]) -> list[Session]:
    """Sessions whose result names a winner (an end-of-game op or a winner mark)."""
    return [s for s in sessions if s.winners]


def unfinished(sessions: Iterable[Session]) -> list[Session]:
    return [s for s in sessions if not s.finished]


def fair_rate(sessions: Sequence[Session]) -> float:
    """The win rate every seat would have if nothing mattered (mean of 1 / seats)."""
    games = decided(sessions)
    return sum(1 / max(1, len(s.seats)) for s in games) / len(games) if games else 0.0


def win_rates(sessions: Iterable[Session], key: Callable[[SeatInfo], str | None],
              categories: Sequence[str] = ()) -> list[Rate]:
    """Win rate per category over decided sessions; each rate's `fair` is the mean fair share
    of the seat-games it counts. Declared `categories` never played come back absent (n = 0)."""
    counts: dict[str, list[float]] = defaultdict(lambda: [0, 0, 0.0])
    for s in decided(sessions):
        share = len(s.winners) / max(1, len(s.seats))
        for seat in s.seats:
            label = key(seat)
            if label is None:
                continue
            counts[label][0] += 1
            counts[label][1] += int(seat.seat in s.winners)
            counts[label][2] += share
    rates = [Rate(k, int(g), int(w), f / g) for k, (g, w, f) in counts.items()]
    rates += [Rate(c, 0, 0) for c in categories if c not in counts]
    return sorted(rates, key=lambda r: (r.absent, -r.rate, -r.games, r.label))


def by_attr(name: str) -> Callable[[SeatInfo], str | None]:
    return lambda seat: seat.attrs.get(name)


def by_group(seat: SeatInfo) -> str | None:
    return seat.group


def by_order(seat: SeatInfo) -> str | None:
    return None if seat.order is None else _ordinal(seat.order)


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def order_rates_by_players(sessions: Iterable[Session]) -> dict[int, list[Rate]]:
    """Seat-order win rates, one list per player count (never pooled across counts)."""
    by_count: dict[int, list[Session]] = defaultdict(list)
    for s in decided(sessions):
        by_count[len(s.seats)].append(s)
    out = {}
    for count in sorted(by_count):
        rates = win_rates(by_count[count], by_order)
        out[count] = sorted(rates, key=lambda r: r.label)
    return out


def attribute_names(sessions: Iterable[Session], group_header: str | None = None) -> list[str]:
    """Deck headers seen (faction, leader, crown, chosen...): the module's group header first,
    then the others by how many seats carry them, then by name (a stable order)."""
    seen: Counter[str] = Counter()
    for s in sessions:
        for seat in s.seats:
            seen.update(seat.attrs.keys())
    names = sorted(seen, key=lambda n: (n != group_header, -seen[n], n))
    return names


@dataclass(slots=True)
class Matchup:
    row: str
    column: str
    wins: int  # sessions the row's group won against the column's (both at the table)
    games: int  # sessions with both at the table that one of the two won

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)


def matchups(sessions: Iterable[Session]) -> dict[tuple[str, str], Matchup]:
    """Group against group: of the sessions where seats of both sat and one of them won, how
    often the row's won (two-player games: exactly head to head)."""
    out: dict[tuple[str, str], Matchup] = {}
    for s in decided(sessions):
        for a in s.seats:
            for b in s.seats:
                if a is b or a.group is None or b.group is None or a.group == b.group:
                    continue
                a_won, b_won = a.seat in s.winners, b.seat in s.winners
                if a_won == b_won:
                    continue
                cell = out.setdefault((a.group, b.group), Matchup(a.group, b.group, 0, 0))
                cell.games += 1
                cell.wins += int(a_won)
    return out


def card_stats(sessions: Sequence[Session], module: object | None = None) -> list[CardStat]:
    """Cards by sessions played in; win rate of the seats that played them, against the win
    rate of all seats of the card's own group (so a card does not inherit its faction's
    strength); neutral cards against every seat."""
    cards = getattr(module, "cards", None) or {}
    neutral = getattr(module, "neutral", None)
    group_rates = {r.label: r for r in win_rates(sessions, by_group)}
    everyone = Rate("all", sum(r.games for r in group_rates.values()),
                    sum(r.wins for r in group_rates.values()))
    stats: dict[str, CardStat] = {}
    for s in sessions:
        in_session: set[str] = set()
        for seat, played in s.played.items():
            for card in set(played):
                stat = stats.get(card)
                if stat is None:
                    group = getattr(cards.get(card), "group", "") or ""
                    base = everyone if not group or group == neutral else \
                        group_rates.get(group)
                    stat = stats[card] = CardStat(card, group, 0, 0, 0, 0, base)
                if s.winners:
                    stat.seat_games += 1
                    stat.wins += int(seat in s.winners)
                in_session.add(card)
            for card in played:
                stats[card].plays += 1
        for card in in_session:
            stats[card].sessions += 1
    return sorted(stats.values(), key=lambda c: (-c.sessions, -c.plays, c.card))


def flag_rates(sessions: Sequence[Session]) -> list[Rate]:
    """Per rule: the share of sessions (where the assist ran) in which it was flagged."""
    checked = [s for s in sessions if not s.flags_why]
    where: Counter[str] = Counter()
    for s in checked:
        where.update(set(s.flags))
    return [Rate(rule, len(checked), n) for rule, n in where.most_common()]


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
        for sides, value, _seat in s.rolls:
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
    wins = sum(1 for s in games for seat in s.seats if seat.order == 1 and seat.seat in s.winners)
    return Rate("1st", len(games), wins, fair_rate(games))


def versions(sessions: Iterable[Session]) -> list[tuple[str, str, list[Session]]]:
    """(version label, content hash, sessions) per module draft, newest log first."""
    groups: dict[tuple[str, str], list[Session]] = {}
    for s in sessions:
        # a log judged by another module than its own is not filed under its draft
        key = (s.version, s.game_hash) if s.draft_known else (NOT_IN_LOG, "")
        groups.setdefault(key, []).append(s)
    ordered = sorted(groups.items(), key=lambda kv: max(x.created for x in kv[1]), reverse=True)
    return [(v, h, ss) for (v, h), ss in ordered]
