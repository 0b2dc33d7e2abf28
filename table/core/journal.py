"""The undo record of one applied op (a Journal): what each state primitive replaced.

A module of its own because the class subclasses `list`: the compiled build of the core
(packaging/compile_core.py) leaves it as Python, as mypyc compiles no subclass of a builtin.
"""
from __future__ import annotations

from typing import Any


class Journal(list[tuple[Any, ...]]):
    """The undo record of one applied op: a list of (primitive, args) to reverse.

    The journal is the list itself (a long log keeps one per op: a list inside an object cost
    40 bytes more each). It compares and hashes by identity, and is always true, as the object
    it replaced was: journals are records of events, two empty ones are not the same one."""

    __slots__ = ()
    __hash__ = object.__hash__  # type: ignore[assignment]  # by identity, see above

    def __eq__(self, other: object) -> bool:
        return self is other

    def __ne__(self, other: object) -> bool:
        return self is not other

    def __bool__(self) -> bool:
        return True

    @property
    def entries(self) -> list[tuple[Any, ...]]:
        """The entries, oldest first (the journal itself)."""
        return self

    def touched(self) -> set[str]:
        """Ids of the objects this op changed ('#' for seats, turn and phase), for the UI."""
        ids: set[str] = set()
        for entry in self.entries:
            tag = entry[0]
            if tag in ("f", "c", "p"):
                ids.add(entry[1].id)
            elif tag in ("rm", "ins"):
                ids.add(entry[1].id)
                ids.add(entry[3])
            elif tag == "new":
                ids.add(entry[1])
            else:
                ids.add("#")
        return ids
