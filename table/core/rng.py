"""The one source of randomness for shuffles, dice and first-player rolls.

Live play uses the operating system's cryptographic source; tests, benchmarks and demos inject a
seeded one so runs repeat. Replays never need it: results are stated in the ops.
"""
from __future__ import annotations

import random
import secrets
from typing import TypeVar

T = TypeVar("T")


class Rng:
    def __init__(self, seed: int | None = None) -> None:
        self.seeded = seed is not None
        self._random: random.Random = random.Random(seed) if seed is not None else secrets.SystemRandom()

    def roll(self, sides: int, count: int = 1) -> list[int]:
        return [self._random.randint(1, sides) for _ in range(count)]

    def shuffled(self, items: list[T]) -> list[T]:
        out = list(items)
        self._random.shuffle(out)
        return out

    def token(self, nbytes: int = 8) -> str:
        """Hex token: handles and salts. Seeded only in tests; live play uses `secrets`."""
        if self.seeded:
            return f"{self._random.getrandbits(nbytes * 8):0{nbytes * 2}x}"
        return secrets.token_hex(nbytes)
