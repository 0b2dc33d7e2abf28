"""Dead to Rites: what counts as an occasion of each rule (assist/occasions.py), so the report
reads slips per occasion: a Dawn's income is due at every Dawn, damage clears at every Dusk that
finds a damaged Champion, a cost is due for every card put into play."""
from __future__ import annotations

from assist.api import GameInfo
from assist.occasions import declared, enters, phase
from table.core.state import State
from table.core.timeline import Record


def _damage_on_a_champion(record: Record, state: State, game: GameInfo) -> bool:
    """Some Champion in play carries (non-Poison) damage as the Dusk begins."""
    for obj in state.objs.values():
        if obj.kind == "card" and obj.alive and obj.counters.get("damage", 0) > 0 \
                and str(obj.container or "").endswith(".play"):
            return True
    return False


def _crowning_rite(record: Record, state: State, game: GameInfo) -> bool:
    """A Rite of step 4 or 5 placed on the Altar (when its card is known)."""
    obj = state.objs.get(record.op.args["id"])
    card = game.module.cards.get(obj.card) if obj is not None and obj.card else None
    if card is None:
        return False
    step = str(dict(card.fields).get("step", "")).strip()
    return step.isdigit() and int(step) >= 4


OCCASIONS = (
    phase("DTR-DAWN-INCOME", "Dawn", what="every Dawn (each seat's)"),
    phase("DTR-DAWN-READY", "Dawn", what="every Dawn (each seat's)"),
    phase("DTR-DAMAGE-CLEAR-DUSK", "Dusk", when=_damage_on_a_champion,
          what="every Dusk with damage on a Champion in play"),
    enters("DTR-PLAY-COST", "p*.play", what="every card put into play"),
    enters("DTR-CROWNING", "altar", what="every Rite of step 4 or 5 placed on the Altar"),
    declared("DTR-ATTACKER-ENGAGES", "attack", what="every attack declared"),
    declared("DTR-STRIKE-BACK", "attack", what="every attack declared"),
)
