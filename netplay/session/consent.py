"""Whether this peer performs another peer's request on one of its seat's hidden piles.

At a real table you may ask a player to draw the top card of their deck for you; they can say
no. A LAN peer answers such requests (``netplay.session.lan_session``) according to its policy:

* ``"always"``: perform every valid request (headless peers: scripted players, by default;
  ``--allow-requests never`` refuses);
* ``"never"``: refuse them all;
* ``"ask"``: ask this peer's player (the app shows Accept / Refuse / Always for this game);
  an answer ``"always"`` switches the policy to ``"always"`` for the rest of this game. No
  answer within ``ASK_TIMEOUT`` seconds, or nobody to ask, is a refusal.
"""


from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

ASK_TIMEOUT = 45.0  # the asking peer waits a little longer (REQUEST_TIMEOUT)
REQUEST_TIMEOUT = 60.0


@dataclass(frozen=True, slots=True)
class OwnerRequest:
    """Another peer asks this peer to do ``entry`` (JSON op form) as ``seat``."""
    peer_id: str
    requester: str  # the asking player's name (or peer id)
    seat: int
    entry: dict[str, Any]


# Returns "accept", "refuse" or "always".
ConsentAsker = Callable[[OwnerRequest], Awaitable[str]]


async def decide(policy: str, asker: ConsentAsker | None, request: OwnerRequest,
                 timeout: float = ASK_TIMEOUT) -> tuple[bool, str]:
    """(allowed, answer): answer is "always" when the player chose that, else "accept",
    "refuse", "never", "unanswered" or "nobody to ask"."""
    if policy == "always":
        return True, "accept"
    if policy == "never":
        return False, "never"
    if asker is None:
        return False, "nobody to ask"
    try:
        answer = await asyncio.wait_for(asker(request), timeout)
    except TimeoutError:
        return False, "unanswered"
    return answer in ("accept", "always"), answer


def refusal_text(answer: str) -> str:
    return {"never": "the owner's table does not take requests",
            "nobody to ask": "nobody at the owner's table to ask",
            "unanswered": "the owner did not answer"}.get(answer, "the owner refused")
