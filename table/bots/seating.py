"""A bot made for one seat of one table: the module's card effects, and the strategy file's
priorities for that seat's deck group (the same for a batch, a table played here and a bot's
own LAN peer)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .api import Bot
from .effects import module_effects
from .registry import find
from .strategy import strategies_for

if TYPE_CHECKING:
    from table.core.replica import Replica
    from table.games.module import GameModule


def make_bot(module: GameModule, name: str, *, seed: int | str, group: str = "") -> Bot:
    """The bot `name` (or the game's `heuristic`, `random`) for a seat of deck group `group`;
    raises registry.UnknownBot, effects.EffectError or strategy.StrategyError."""
    cls = find(name, module.id)
    return cls(seed=seed, effects=module_effects(module.cards),
               strategy=strategies_for(module).get(group))


def seat_group(replica: Replica, module: GameModule, seat: int) -> str:
    """The deck group (faction, Crown, Chosen) of a seat's deck, as the table's log header
    names it ("" when it names none the module knows)."""
    decks = replica.header_extra.get("decks") or {}
    name = decks.get(str(seat)) if isinstance(decks, dict) else None
    deck = next((d for d in module.starter_decks.values() if d.name == name), None)
    return (module.deck_group(deck) or "") if deck is not None else ""


__all__ = ["make_bot", "seat_group"]
