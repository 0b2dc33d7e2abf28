"""The Parquet and SQL libraries `dataset` and `report` need, checked before either starts: an
install that lacks them (a trimmed environment, a bundle built without them) says so in one line
instead of failing at an import deep in the work."""
from __future__ import annotations

import importlib.util
import sys

NEEDED = ("pyarrow", "duckdb")


def missing(names: tuple[str, ...] = NEEDED) -> list[str]:
    """The libraries among `names` this Python cannot import (found without importing them)."""
    return [name for name in names if importlib.util.find_spec(name) is None]


def check_data_tools(command: str) -> bool:
    """True when `command` can run; else one line on stderr naming what is missing."""
    absent = missing()
    if absent:
        print(f"sandtable: {command} needs {' and '.join(NEEDED)} ({', '.join(absent)} missing): "
              "install them (pip install sandtable brings both)", file=sys.stderr)
    return not absent
