"""What counts as a card played, as the game module declares it (`[rules.plays]` in game.toml;
docs/modules.md): which zones a play comes from and goes to per card type, face up or not, and
the phases and declarations after which a move is not a play. Moves before the setup is
complete never count; a module that declares nothing counts nothing.
"""
from __future__ import annotations

from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import Any


def _texts(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    return tuple(str(v) for v in value) if isinstance(value, (list, tuple)) else ()


@dataclass(frozen=True, slots=True)
class Plays:
    sources: tuple[str, ...]
    to: dict[str, tuple[str, ...]]  # card type -> zone patterns ({seat}: the player)
    face_up: bool
    not_in_phases: frozenset[str]
    not_after_declare: frozenset[str]

    @classmethod
    def of(cls, module: Any) -> Plays | None:
        spec = (getattr(module, "rules", None) or {}).get("plays")
        if not isinstance(spec, dict) or not isinstance(spec.get("to"), dict):
            return None
        return cls(_texts(spec.get("from", ["p{seat}.hand"])),
                   {str(k): _texts(v) for k, v in spec["to"].items()},
                   bool(spec.get("face_up", True)), frozenset(_texts(spec.get("not_in_phases"))),
                   frozenset(_texts(spec.get("not_after_declare"))))

    def is_play(self, card_type: str, source: str, dest: str, seat: int, face_up: bool,
                phase: str | None, declared: str | None) -> bool:
        """Whether moving a card of `card_type` from `source` to `dest` by `seat` is a play."""
        zones = self.to.get(card_type)
        if not zones or (self.face_up and not face_up):
            return False
        if phase in self.not_in_phases or declared in self.not_after_declare:
            return False
        return _matches(self.sources, source, seat) and _matches(zones, dest, seat)


def _matches(patterns: tuple[str, ...], zone: str, seat: int) -> bool:
    return any(fnmatchcase(zone, p.replace("{seat}", str(seat))) for p in patterns)
