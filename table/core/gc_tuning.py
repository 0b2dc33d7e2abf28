"""Garbage-collector settings for a long session.

A table keeps every op and its journal for the whole session: hundreds of thousands of small,
long-lived objects. With CPython's default thresholds the collector re-walks them so often that
it doubles the cost of applying an op. None of them form cycles that need prompt collection, so
young collections can be much rarer.
"""
from __future__ import annotations

import gc


def tune_gc() -> None:
    gc.set_threshold(50_000, 20, 100)
