"""Many comparisons at once: the p-values the report computes, and Holm's correction for their
number (a difference "holds" when it stays below 5% after it), so twenty figures compared at
95% do not colour one of them by chance. Benjamini-Hochberg is here too, for callers that
prefer controlling the false discovery rate; the page says which one it used."""
from __future__ import annotations

import math
from collections.abc import Sequence

ALPHA = 0.05
HOLM = "Holm"
BH = "Benjamini-Hochberg"


def normal_p(z: float) -> float:
    """Two-sided p-value of a standard normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2))


def rates_p(wins_a: int, n_a: int, wins_b: int, n_b: int) -> float:
    """Two-sided p-value that two proportions differ (the pooled z-test)."""
    if n_a <= 0 or n_b <= 0:
        return 1.0
    pooled = (wins_a + wins_b) / (n_a + n_b)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n_a + 1 / n_b))
    if se == 0:
        return 1.0
    return normal_p((wins_b / n_b - wins_a / n_a) / se)


def draws_p(draws: Sequence[float]) -> float:
    """Two-sided p-value that a bootstrapped difference is 0: twice the smaller share of draws
    on either side of 0 (never below one draw's share)."""
    if not draws:
        return 1.0
    below = sum(1 for d in draws if d <= 0) / len(draws)
    above = sum(1 for d in draws if d >= 0) / len(draws)
    return min(1.0, max(2 * min(below, above), 1 / len(draws)))


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values (same order as given): a comparison holds at level
    ALPHA for the whole family when its adjusted p is below ALPHA."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


def benjamini_hochberg(pvalues: Sequence[float]) -> list[float]:
    """Benjamini-Hochberg adjusted p-values (q-values), same order as given."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i], reverse=True)
    adjusted = [1.0] * m
    running = 1.0
    for rank, i in enumerate(order):
        running = min(running, pvalues[i] * m / (m - rank))
        adjusted[i] = min(1.0, running)
    return adjusted


def adjust(pvalues: Sequence[float], method: str = HOLM) -> list[float]:
    return holm(pvalues) if method == HOLM else benjamini_hochberg(pvalues)
