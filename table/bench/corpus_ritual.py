"""The legal corpus's Dead to Rites players on the Ritual track: in the Rite phase a player who
can pay may put their next Rite on the Altar; the opponents, clockwise from the active
player's left, each commit one card face down to the Defense Pool or pass; the pool is turned
up; the Rite is blocked when the Block total reaches its Ward (printed Ward + 1 per ready
Champion), and then goes back on top of its stack while its owner gains 2 Favor (up to the
cap) and draws 2 (Grave Choir 3), else it goes face up on the Completed pile and the step
marker moves up; the committed cards go to their owners' discard piles.

Planted slips (each counted in `Truth.planted`): a Rite placed with one Favor too few paid
(DTR-RITE-COST). The players stop at Step 3 (a Step 4 Rite would crown the others, Step 5
win).
"""
from __future__ import annotations

import random
from typing import Any

from table.bench.corpus_table import Table, cards_in
from table.core import actions as act
from table.games.rule_sources import effective

LAST_STEP = 3  # the players place Rites up to Step 3 only


def seat_number(t: Table, seat: int, rule: str, default: int) -> int:
    """A [rules] number as it applies to the seat's Crown (Hollow Market's cap, Grave Choir's
    draw)."""
    crown = next((t.card(c) for c in cards_in(t.r, f"p{seat}.crown")), None)
    return int(effective(t.module, rule, crown, default))


def counter(t: Table, obj: str) -> int:
    return int(t.r.state.objs[obj].counters.get("value", 0))


def _completed(t: Table, seat: int) -> int:
    return len(cards_in(t.r, f"p{seat}.completed"))


def _ready_champions(t: Table, seat: int) -> int:
    return sum(1 for h in cards_in(t.r, f"p{seat}.play") if (c := t.card(h)) is not None
               and c.type == "Champion" and t.r.state.objs[h].rotation % 360 == 0)


def rite_phase(t: Table, seat: int, rng: random.Random) -> None:
    """The Rite phase: perhaps a Rite on the Altar, its Defense Pool and its outcome."""
    stack = cards_in(t.r, f"p{seat}.rites")
    if not stack or rng.random() < 0.4:
        return
    rite = stack[-1]
    card = t.card(rite)
    step = counter(t, f"p{seat}.step")
    if card is None or card.number("step") != step + 1 or step + 1 > LAST_STEP:
        return
    others = [_completed(t, s) for s in t.order if s != seat]
    threat = int(t.module.rules.get("threat_cost", 1)) if others and \
        _completed(t, seat) > max(others) else 0
    cost = card.number("cost") + threat
    favor = counter(t, f"p{seat}.favor")
    if favor < cost:
        return
    paid = cost
    if t.plan.rite_slip_rate and rng.random() < t.plan.rite_slip_rate and cost > 0:
        paid = cost - 1  # the planted slip: one Favor short
        t.plant("DTR-RITE-COST")
    if paid:
        act.counter(t.r, f"p{seat}.favor", add=-paid, seat=seat)
    act.move(t.r, rite, "altar", seat=seat)
    ward = card.number("ward") + int(t.module.rules.get("ward_per_ready_champion", 1)) * \
        _ready_champions(t, seat)
    committed = _defense_pool(t, seat, rng)
    for owner, handle in reversed(committed):  # the pool turned up, each card by its owner
        act.flip(t.r, handle, True, seat=owner)
    total = sum(t.card(h).number("block") for _o, h in committed if t.card(h) is not None)
    for owner, handle in committed:
        act.move(t.r, handle, f"p{owner}.discard", face_up=True, seat=owner)
    if total >= ward:
        _blocked(t, seat, rite)
    else:
        act.move(t.r, rite, f"p{seat}.completed", face_up=True, seat=seat)
        act.counter(t.r, f"p{seat}.step", add=1, seat=seat)


def _defense_pool(t: Table, seat: int, rng: random.Random) -> list[tuple[int, str]]:
    """Each opponent in turn, clockwise from the active player's left: one card from hand
    face down, or a pass."""
    n = len(t.order)
    at = t.order.index(seat)
    out = []
    for k in range(1, n):
        other = t.order[(at + k) % n]
        hand = t.hand(other)
        if hand and rng.random() < 0.55:
            handle = rng.choice(hand)
            act.move(t.r, handle, "defense-pool", face_up=False, seat=other)
            out.append((other, cards_in(t.r, "defense-pool")[-1]))
        else:
            act.mark(t.r, "declare", value="pass", seat=other)
    return out


def _blocked(t: Table, seat: int, rite: str) -> None:
    """A blocked Rite: back on top of its stack, 2 Favor (up to the cap), 2 cards (or 3)."""
    act.move(t.r, rite, f"p{seat}.rites", seat=seat)
    cap = seat_number(t, seat, "favor_cap", 6)
    gain = max(0, min(int(t.module.rules.get("blocked_favor", 2)), cap - counter(t, f"p{seat}.favor")))
    if gain:
        act.counter(t.r, f"p{seat}.favor", add=gain, seat=seat)
    t.draw(seat, seat_number(t, seat, "blocked_draw", 2))


def unpaid_play(t: Table, seat: int) -> Any:
    """A Champion from hand into play with nothing paid (the planted slip), if one costs
    something; returns its handle."""
    found = [h for h in t.hand(seat) if (c := t.card(h)) is not None and c.type == "Champion"
             and c.number("cost") > 0 and not c.flag("ace")]
    if not found:
        return None
    act.move(t.r, found[0], f"p{seat}.play", face_up=True, seat=seat)
    return found[0]
