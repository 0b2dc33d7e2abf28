"""The intervals the report puts on differences, against published values."""
from __future__ import annotations

import pytest

from table.report.intervals import diff_of_means, diff_of_rates, excludes_zero, mean_interval


def test_difference_of_rates_matches_newcombe() -> None:
    # Newcombe (1998), Statistics in Medicine 17:873, example (a): 56/70 against 48/80,
    # method 10 (the hybrid score interval): 0.0524 to 0.3339
    d, low, high = diff_of_rates(48, 80, 56, 70)
    assert d == pytest.approx(0.2)
    assert (round(low, 4), round(high, 4)) == (0.0524, 0.3339)
    assert excludes_zero((d, low, high))
    assert diff_of_rates(0, 0, 3, 5) is None


def test_difference_of_means_and_a_mean_interval() -> None:
    a, b = [1.0, 2.0, 3.0, 4.0], [3.0, 4.0, 5.0, 6.0]
    d, low, high = diff_of_means(a, b)
    assert d == pytest.approx(2.0) and low < 2.0 < high
    assert not excludes_zero(diff_of_means(a, a))
    m, lo, hi = mean_interval(a)
    assert m == pytest.approx(2.5) and lo < m < hi
    assert diff_of_means([1.0], b) is None
