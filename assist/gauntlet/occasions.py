"""Gauntlet: what counts as an occasion of each rule (assist/occasions.py), so the report reads
slips per occasion: the hand limit applies to every hand at a turn's end, the alternation of
turns to every turn."""
from __future__ import annotations

from assist.occasions import turn_end, turn_start

OCCASIONS = (
    turn_end("GAU-HAND-LIMIT", what="every hand at a turn's end"),
    turn_start("GAU-TURN-ALTERNATE", what="every turn"),
)
