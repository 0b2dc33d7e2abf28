"""Private knowledge: what this peer's software knows that the public state does not.

The identities (card + salt) of hidden cards whose owner this peer plays, cards another peer
showed privately, and secrets merged from other peers' logs. Nothing here is ever sent to other
peers except by the owner's own choice (a reveal, a private show, or a gift of a card).
"""
from __future__ import annotations

import hashlib
from typing import Any

from .fair import absorb_secrets


def deck_hash(text: str) -> str:
    """What a deck op records of a deck list's text (sha256 hex of its UTF-8 bytes)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class Knowledge:
    def __init__(self) -> None:
        self.cards: dict[str, tuple[str, str]] = {}  # handle -> (card id, salt)
        self.shown: dict[str, set[int]] = {}  # handle -> seats it was shown to privately
        self.decks: dict[int, str] = {}  # seat -> the text of its deck list (see the deck op)
        # jointly drawn randomness: shares and pre-shuffle orders of fair shuffles, published
        # deck orders (table.core.fair.absorb_secrets; the audit reads them)
        self.fair: dict[str, Any] = {}

    def card_of(self, handle: str) -> str | None:
        known = self.cards.get(handle)
        return known[0] if known is not None else None

    def salt_of(self, handle: str) -> str | None:
        known = self.cards.get(handle)
        return known[1] if known is not None else None

    def absorb(self, secrets: dict[str, Any]) -> None:
        """Merge a private record: {"cards": {handle: [card, salt]}, "shown": {handle: [seats]},
        "decks": {"seat": deck list text}} (map keys are strings in a log)."""
        for handle, pair in (secrets.get("cards") or {}).items():
            if isinstance(handle, str) and isinstance(pair, (list, tuple)) and len(pair) == 2:
                self.cards[handle] = (str(pair[0]), str(pair[1]))
        for handle, seats in (secrets.get("shown") or {}).items():
            if isinstance(handle, str) and isinstance(seats, (list, tuple)):
                self.shown.setdefault(handle, set()).update(
                    s for s in seats if isinstance(s, int))
        for seat, text in (secrets.get("decks") or {}).items():
            if isinstance(seat, str) and seat.isdigit() and isinstance(text, str):
                self.decks[int(seat)] = text
        if "fair" in secrets:
            absorb_secrets(self.fair, secrets["fair"])

    def decks_record(self) -> dict[str, str]:
        """The deck texts as a private record holds them."""
        return {str(seat): text for seat, text in sorted(self.decks.items())}
