"""The table's core: ops, state, the fold, the log. No Qt, no network.

It may run compiled (packaging/compile_core.py); table.core.native makes sure a build older than
the sources never runs. Without a build, this is one stat at import.
"""
from __future__ import annotations

import os

if os.path.isfile(os.path.join(os.path.dirname(__file__), "compiled.stamp")):
    from .native import guard

    guard()
