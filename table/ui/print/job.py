"""A print or export job from what a designer names: a game or module folder, a deck list or
the whole module, only what changed since an earlier version. Shared by the command line and
the window's Game -> Print cards... dialog."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from table.games.card_faces import CardSize
from table.games.module import GameModule
from table.games.print_selection import (
    all_cards,
    card_size,
    changed_cards,
    deck_cards,
    earlier_version,
)

from ..catalog import Catalog
from .sheet_layout import SheetLayout, plan
from .true_size import PrintCard, print_cards


@dataclass(frozen=True, slots=True)
class Job:
    module: GameModule
    size: CardSize
    cards: list[PrintCard]
    what: str  # "deck ember-court (40 cards)", for messages and the PDF title

    def layout(self, paper: str, bleed: float = 0.0) -> SheetLayout:
        return plan(paper, self.size.width_mm, self.size.height_mm, bleed)


def build_job(module: GameModule, deck: str | None = None, changed_since: str | None = None,
              size: str | None = None) -> Job:
    """Raises ModuleError (file:line problems) on a bad deck list, size, art or version."""
    true_size = card_size(module, size)
    if deck:
        picks = deck_cards(module, deck)
        what = f"deck {Path(deck).stem}"
    else:
        picks, what = all_cards(module), f"{module.name} {module.version}, every card"
    if changed_since:
        before = earlier_version(module, changed_since)
        changed = set(changed_cards(before, module))
        picks = [(cid, n) for cid, n in picks if cid in changed]
        what += f", changed since {before.version} ({before.content_hash[:12]})"
    cards = print_cards(module, Catalog.from_module(module), picks)
    return Job(module, true_size, cards, f"{what}: {len(cards)} card(s)")
