"""The objects on a table: cards, piles, zones, tokens, counters, dice and boards.

Every object is one record with the same fields, so ops, views and the state hash treat them
uniformly. Any object may contain others (a pile its cards, a board its tokens, a Territory its
Overlays); `children` keeps their order, bottom first, so "top" is the end of the list.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

KINDS = frozenset({"card", "pile", "zone", "token", "counter", "die", "board"})

# Who may see the faces of the cards inside a container.
PUBLIC = "public"   # everyone (discard piles, the play area, the Altar)
OWNER = "owner"     # only the container's owner (a hand)
HIDDEN = "hidden"   # nobody, only a count (a draw pile)
VISIBILITIES = frozenset({PUBLIC, OWNER, HIDDEN})

ROOT = "table"  # the fallback zone every table has: orphans of a deleted container land here


@dataclass(slots=True)
class Obj:
    id: str
    kind: str
    owner: int | None = None
    container: str | None = None
    pos: tuple[float, ...] | None = None  # x/y in a free zone, col/row on a grid; None in a pile
    face_up: bool = True
    rotation: int = 0
    counters: dict[str, int] = field(default_factory=dict)
    props: dict[str, Any] = field(default_factory=dict)  # name, visibility, side, template data...
    card: str | None = None  # card definition id, when it is public knowledge
    commitment: str | None = None  # hex digest binding a hidden handle to its card (see commit.py)
    alive: bool = True
    children: list[str] = field(default_factory=list)

    @property
    def visibility(self) -> str:
        return self.props.get("visibility", PUBLIC)  # type: ignore[no-any-return]

    @property
    def is_secret(self) -> bool:
        """True when the card's identity is known only to its owner's software."""
        return self.card is None and self.commitment is not None
