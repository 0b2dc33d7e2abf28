"""Printed card text the general rules give way to ("When a specific card ... rule conflicts
with a general rule, follow the specific rule", Rules Conventions): a Territory that sends hand
commitments to the Discard Pile instead of the Graveyard (Sunken Quarry) or forms Battle Hands
of 4 (Whispering Wood), and Action cards whose
Action effect gains a faction tracker (War Council: "Gain 1 Command.", Edict: "Gain 1
Conviction."). The assist reads the module's text columns, as battle_totals.py reads Battle
effects: only the exact sentences below; any other text changes nothing here.
"""
from __future__ import annotations

import re
from typing import Any

from .facts import Battle, Facts
from .marks import AO_AFTER, AO_BEFORE

COMMITS_TO_DISCARD = "Cards committed from hand here go to the Discard Pile instead of the " \
    "Graveyard."
BATTLE_HAND_OF_FOUR = "Battle Hands formed here have 4 cards instead of 3."
_GAIN = re.compile(r"^Gain (\d+) ([A-Z][a-z]+)\.$")


def commits_discarded(f: Facts, b: Battle | None, owner: int | None) -> bool:
    """Whether the battle's contested Territory sends `owner`'s hand commitments to their
    Discard Pile (unless a Ranger's Fieldcraft ignored that printed effect this turn)."""
    if b is None or b.pos is None:
        return False
    terr = f.territory_at(b.pos)
    card = f.card(terr) if terr is not None else None
    if card is None or str(card.text).strip() != COMMITS_TO_DISCARD:
        return False
    return not f.decl("fieldcraft", since=b.open_i, seat=owner)


def battle_hand_extra(f: Facts, b: Battle | None) -> int:
    """Cards a Battle Hand formed in this battle has over the module's number (Whispering
    Wood: 4 instead of 3)."""
    if b is None or b.pos is None:
        return 0
    terr = f.territory_at(b.pos)
    card = f.card(terr) if terr is not None else None
    return 1 if card is not None and str(card.text).strip() == BATTLE_HAND_OF_FOUR else 0


def action_gain(card: Any, tracker: str) -> int:
    """What a card's Action effect gains of a tracker ("Gain 1 Command." -> 1 for command)."""
    text = str(card.get("action") or "").strip() if card is not None else ""
    m = _GAIN.match(text)
    return int(m.group(1)) if m and m.group(2).casefold() == tracker else 0


def printed_gains(f: Facts, seat: int, tracker: str) -> int:
    """How many gains of `tracker` the cards `seat` played for their Action effect give this
    turn (each card one gain): the cards that left its hand for its Discard Pile in an Action
    Opportunity of this turn."""
    hand, discard = f"p{seat}.hand", f"p{seat}.discard"
    n = 0
    for i, obj, frm, to in f.moves_between(f.h.current_turn_start()):
        if frm == hand and to == discard and f.step_at(i) in (AO_BEFORE, AO_AFTER) and \
                action_gain(f.card(obj), tracker):
            n += 1
    return n


__all__ = ["BATTLE_HAND_OF_FOUR", "COMMITS_TO_DISCARD", "action_gain", "battle_hand_extra",
           "commits_discarded", "printed_gains"]
