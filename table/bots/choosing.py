"""How a bot chooses among its legal options: at random (the random strength) or by a score
(the heuristic strength), the same game code asking either. A strategy file's priorities
(table/bots/strategy.py) reorder the heuristic's options."""
from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from .api import Bot

T = TypeVar("T")


class Chooser:
    """Picks one option; `heuristic` False picks uniformly at random (ties, too, at random)."""

    def __init__(self, rnd: random.Random, heuristic: bool) -> None:
        self.rnd = rnd
        self.heuristic = heuristic

    def pick(self, options: Sequence[T], score: Callable[[T], float]) -> T:
        if not options:
            raise ValueError("no option to choose from")
        if not self.heuristic or len(options) == 1:
            return options[self.rnd.randrange(len(options))]
        best = max(score(o) for o in options)
        top = [o for o in options if score(o) == best]
        return top[self.rnd.randrange(len(top))]

    def maybe(self, options: Sequence[T], score: Callable[[T], float],
              skip_score: float = 0.0) -> T | None:
        """One option or none: at random, "none" is one more option; by score, an option is
        taken only when it scores above `skip_score`."""
        if not options:
            return None
        if not self.heuristic:
            i = self.rnd.randrange(len(options) + 1)
            return options[i] if i < len(options) else None
        choice = self.pick(options, score)
        return choice if score(choice) > skip_score else None


__all__ = ["Chooser"]


class ChoosingBot(Bot):
    """A shipped game's bot: it chooses with a Chooser (at random or by score, as its class's
    `heuristic` says) and keeps the cards whose text it met and did not resolve."""

    heuristic = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.choose = Chooser(self.rnd, self.heuristic)
        self._unresolved: set[str] = set()

    def unresolved(self) -> set[str]:
        return set(self._unresolved)
