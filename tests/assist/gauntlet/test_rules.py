"""Every rule of cases_core, cases_factions and cases_more: it fires on the illegal move, not
on the nearest legal one."""
from __future__ import annotations

import pytest

from . import (
    cases_factions,  # noqa: F401 - registers the faction cases
    cases_more,  # noqa: F401 - registers the later cases (after the others)
)
from .cases_core import CASES
from .gau_kit import table

IDS = [f"{rule}-{i}" for i, (rule, _, _) in enumerate(CASES)]


@pytest.mark.parametrize(("rule", "args", "fn"), CASES, ids=IDS)
def test_fires(rule, args, fn):
    t = table(*args)
    since = fn(t, False)
    assert rule in t.rules(since), t.describe(since)


@pytest.mark.parametrize(("rule", "args", "fn"), CASES, ids=IDS)
def test_nearest_legal(rule, args, fn):
    t = table(*args)
    since = fn(t, True)
    assert t.rules(since) == [], t.describe(since)  # no flag at all, not only this rule
