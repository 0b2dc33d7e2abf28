"""Every test run keeps Sandtable's per-user data (the module cache, saved games) in a folder
of its own, never in the user's real data directory."""
from __future__ import annotations

import os
import tempfile

if "SANDTABLE_HOME" not in os.environ:
    os.environ["SANDTABLE_HOME"] = tempfile.mkdtemp(prefix="sandtable-tests-")
