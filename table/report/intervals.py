"""Intervals the report puts on every figure: a proportion's (Wilson), a difference of two
proportions' (Newcombe's hybrid score interval, built from the two Wilson intervals), and a
difference of two means' (Welch's normal approximation)."""
from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.959964  # the normal quantile of a two-sided 95% interval


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (sound at small n and near 0 or 1)."""
    if games <= 0:
        return 0.0, 1.0
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def diff_of_rates(wins_a: int, n_a: int, wins_b: int, n_b: int
                  ) -> tuple[float, float, float] | None:
    """(b - a, low, high): the difference of two independent proportions with its 95%
    interval (Newcombe 1998, method 10); None when either side has no games."""
    if n_a <= 0 or n_b <= 0:
        return None
    pa, pb = wins_a / n_a, wins_b / n_b
    la, ua = wilson(wins_a, n_a)
    lb, ub = wilson(wins_b, n_b)
    d = pb - pa
    low = d - math.sqrt((pb - lb) ** 2 + (ua - pa) ** 2)
    high = d + math.sqrt((ub - pb) ** 2 + (pa - la) ** 2)
    return d, max(-1.0, low), min(1.0, high)


def mean_and_sd(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    if not n:
        return 0.0, 0.0
    m = sum(values) / n
    var = sum((v - m) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    return m, math.sqrt(var)


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """(mean, low, high): a mean with its 95% normal interval."""
    m, sd = mean_and_sd(values)
    half = Z95 * sd / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return m, m - half, m + half


def diff_of_means(a: Sequence[float], b: Sequence[float]) -> tuple[float, float, float] | None:
    """(mean b - mean a, low, high) with Welch's 95% interval; None when a side has < 2."""
    if len(a) < 2 or len(b) < 2:
        return None
    ma, sa = mean_and_sd(a)
    mb, sb = mean_and_sd(b)
    half = Z95 * math.sqrt(sa * sa / len(a) + sb * sb / len(b))
    return mb - ma, mb - ma - half, mb - ma + half


def excludes_zero(d: tuple[float, float, float] | None) -> bool:
    return d is not None and (d[1] > 0 or d[2] < 0)
