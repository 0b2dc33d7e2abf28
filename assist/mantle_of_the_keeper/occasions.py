"""Mantle of the Keeper: what counts as an occasion of each rule (assist/occasions.py), so the
report reads slips per occasion: Income at every Income phase, the hand limit at every hand at a
turn's end, damage at every attack."""
from __future__ import annotations

from assist.occasions import declared, phase, turn_end

OCCASIONS = (
    phase("MAN-INCOME", "Income", what="every Income phase"),
    phase("MAN-ACTION-LIMIT", "Action", what="every Action phase"),
    phase("MAN-HAND-LIMIT-FAVOR", "End of turn", what="every End-of-turn phase"),
    turn_end("MAN-HAND-LIMIT", what="every hand at a turn's end"),
    declared("MAN-DAMAGE", "attack", what="every attack declared"),
    declared("MAN-FULL-DEFENSE", "defense", what="every defense declared"),
)
