"""What counts as "a card played", as the game module declares it (`[rules.plays]`).

    [rules.plays]
    from = ["p{seat}.hand"]             # where a played card comes from ({seat}: the player)
    face_up = true                      # a play ends face up (a card committed face down is not)
    not_in_phases = ["End of turn"]     # moves in these phases are not plays (hand-limit discards)
    not_after_declare = ["exchange"]    # nor the move right after such a declaration by the seat
    [rules.plays.to]                    # per card type: the zones a card is played to
    Action = ["p{seat}.discard", "gauntlet.*"]   # shell-style patterns

Moves before the setup-complete marker never count. A module without the table counts nothing
(the report says so) rather than guessing.
"""
from __future__ import annotations

from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import Any


@dataclass(frozen=True, slots=True)
class PlayRule:
    sources: tuple[str, ...]
    to: dict[str, tuple[str, ...]]  # card type -> zone patterns
    face_up: bool = True
    not_in_phases: frozenset[str] = frozenset()
    not_after_declare: frozenset[str] = frozenset()

    def counts(self, card_type: str, source: str, dest: str, seat: int, face_up: bool,
               phase: str | None, declared: str | None) -> bool:
        """Whether a move of a card of `card_type` from `source` to `dest` by `seat` is a play."""
        patterns = self.to.get(card_type)
        if not patterns or (self.face_up and not face_up):
            return False
        if phase is not None and phase in self.not_in_phases:
            return False
        if declared is not None and declared in self.not_after_declare:
            return False
        return _any(self.sources, source, seat) and _any(patterns, dest, seat)


def _any(patterns: tuple[str, ...], obj_id: str, seat: int) -> bool:
    return any(fnmatchcase(obj_id, p.replace("{seat}", str(seat))) for p in patterns)


def _strings(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if isinstance(value, (list, tuple)):
        return tuple(str(v) for v in value)
    return ()


def play_rule(module: Any) -> PlayRule | None:
    """The module's declaration, or None when it declares none."""
    spec = (getattr(module, "rules", None) or {}).get("plays")
    if not isinstance(spec, dict) or not isinstance(spec.get("to"), dict):
        return None
    to = {str(k): _strings(v) for k, v in spec["to"].items()}
    return PlayRule(_strings(spec.get("from", ["p{seat}.hand"])), to,
                    bool(spec.get("face_up", True)),
                    frozenset(_strings(spec.get("not_in_phases"))),
                    frozenset(_strings(spec.get("not_after_declare"))))


def victory_conditions(module: Any) -> list[str]:
    """The ways to win the module names (`[rules.victory] conditions`)."""
    spec = (getattr(module, "rules", None) or {}).get("victory")
    return list(_strings(spec.get("conditions"))) if isinstance(spec, dict) else []
