"""Near misses in names a designer or a player writes: the "did you mean" of a message."""
from __future__ import annotations

import difflib
from collections.abc import Iterable


def suggest(name: str, choices: Iterable[str]) -> str:
    """' (did you mean "X"?)' for a close match, else ''."""
    found = difflib.get_close_matches(name, list(choices), n=1, cutoff=0.6)
    if not found:
        folded = {c.casefold(): c for c in choices}
        found = [folded[f] for f in difflib.get_close_matches(name.casefold(), list(folded),
                                                              n=1, cutoff=0.6)]
    return f' (did you mean "{found[0]}"?)' if found else ""
