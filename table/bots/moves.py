"""The JSON op entries every game's bots make: phase marks, declarations, tracker changes that
keep to a tracker's range, and draws that form a new Draw Pile from the Discard Pile when the
old one cannot complete the draw."""
from __future__ import annotations

from typing import Any

from .api import Decision, Entry, SeatView


def mark_phase(name: str) -> Entry:
    return {"op": "mark", "what": "phase", "value": name}


def declare(name: str, **fields: Any) -> Entry:
    return {"op": "mark", "what": "declare", "value": name, "fields": fields or None}


def begun(view: SeatView) -> bool:
    """Whether this seat has moved since the current phase began. A turn's first phase may be
    set by whoever passed the turn (a person's End turn marks the next seat's first phase), so
    a bot finds itself in a phase whose work it has still to do."""
    start = next((e.index for e in reversed(view.turn_log())
                  if e.kind == "mark" and e.args.get("what") == "phase"), None)
    if start is None:
        return False
    return any(e.seat == view.seat and e.kind != "mark" for e in view.log(start + 1))


def gain(view: SeatView, counter: str, amount: int) -> Decision:
    """Add to a tracker, never past its max or below its min (a gain over a cap is lost)."""
    if not view.exists(counter):
        return
    now = view.counter(counter)
    high, low = view.prop(counter, "max"), view.prop(counter, "min")
    target = now + amount
    if isinstance(high, int):
        target = min(target, max(high, now))
    if isinstance(low, int):
        target = max(target, min(low, now))
    if target != now:
        yield {"op": "counter", "id": counter, "add": target - now}


def refill(view: SeatView) -> Decision:
    """The Discard Pile becomes the Draw Pile, shuffled: moved over, then shuffled as its own
    op (at a LAN table every peer draws the shuffle's seed jointly)."""
    me = view.seat
    yield {"op": "move_all", "from": f"p{me}.discard", "to": f"p{me}.deck"}
    yield {"op": "shuffle", "pile": f"p{me}.deck"}


def draw(view: SeatView, count: int, to: str | None = None, *, reform: bool = True) -> Decision:
    """Draw `count` from the seat's Draw Pile; when it runs out, its Discard Pile is shuffled
    into a new one and the draw goes on (as far as cards remain)."""
    me = view.seat
    deck, discard = f"p{me}.deck", f"p{me}.discard"
    left = count
    while left > 0:
        have = view.count(deck)
        if have == 0:
            if not reform or not view.count(discard):
                return
            yield from refill(view)
            continue
        take = min(have, left)
        yield {"op": "draw", "from": deck, "to": to or f"p{me}.hand", "count": take}
        left -= take


__all__ = ["begun", "declare", "draw", "gain", "mark_phase", "refill"]
