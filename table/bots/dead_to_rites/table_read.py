"""Dead to Rites as a bot reads it: seats clockwise, Favor and its cap, Champions (ready or
engaged, damage), the step track, the Rite on the Altar and the Defense Pool's round."""
from __future__ import annotations

from dataclasses import dataclass

from table.bots.api import LogEntry, SeatView
from table.games.model import Card

ALTAR, POOL = "altar", "defense-pool"
PHASES = ("Dawn", "Main", "Combat", "Rite", "Dusk")


def clockwise(view: SeatView, after: int) -> list[int]:
    """Every other seat, clockwise from the left of `after`."""
    seats = view.seats
    i = seats.index(after)
    return seats[i + 1:] + seats[:i]


def favor(view: SeatView, seat: int) -> int:
    return view.counter(f"p{seat}.favor")


def step(view: SeatView, seat: int) -> int:
    return view.counter(f"p{seat}.step")


def champions(view: SeatView, seat: int) -> list[tuple[str, Card]]:
    return [(h, c) for h, c in view.known(f"p{seat}.play") if c.type == "Champion"]


def ready(view: SeatView, handle: str) -> bool:
    return view.rotation(handle) == 0


def damage(view: SeatView, handle: str) -> int:
    return view.counter(handle, "damage") + view.counter(handle, "poison-damage")


def crown(view: SeatView, seat: int) -> Card | None:
    for _, card in view.known(f"p{seat}.crown"):
        if card.type == "Crown":
            return card
    return None


def blocked_draw(view: SeatView, seat: int) -> int:
    c = crown(view, seat)
    own = c.number("blocked_draw") if c is not None else 0
    return own or int(view.rule("blocked_draw", 2))


def alone_in_lead(view: SeatView, seat: int) -> bool:
    mine = step(view, seat)
    return all(step(view, s) < mine for s in view.seats if s != seat)


def next_rite(view: SeatView, seat: int) -> tuple[str, Card] | None:
    known = view.known(f"p{seat}.rites")
    return known[-1] if known else None


def rite_cost(view: SeatView, seat: int, rite: Card) -> int:
    extra = int(view.rule("threat_cost", 1)) if alone_in_lead(view, seat) else 0
    return rite.number("cost") + extra


def ward(view: SeatView, seat: int, rite: Card) -> int:
    per = int(view.rule("ward_per_ready_champion", 1))
    return rite.number("ward") + per * sum(1 for h, _ in champions(view, seat) if ready(view, h))


@dataclass(slots=True)
class RiteRound:
    """The Rite on the Altar and where its Defense Pool round stands."""

    owner: int
    rite: str
    card: Card
    placed: int  # log index of the move onto the Altar
    passed: set[int]
    ward: int


def rite_round(view: SeatView) -> RiteRound | None:
    ids = view.ids(ALTAR)
    if not ids:
        return None
    rite = ids[-1]
    card = view.card(rite)
    owner = view.owner(rite)
    if card is None or owner is None:
        return None
    placed = 0
    passed: set[int] = set()
    declared_ward = card.number("ward")
    log = view.turn_log()
    for e in log:
        name = e.declared()
        if name == "ward":
            placed = e.index
            declared_ward = int(e.fields.get("ward", declared_ward))
            passed = set()
        elif name == "pass" and e.seat is not None and e.index > placed:
            passed.add(e.seat)
    return RiteRound(owner, rite, card, placed, passed, declared_ward)


def pool_total(view: SeatView, r: RiteRound, effects: dict[str, list[object]]) -> int:
    """The Block of every card committed to this Rite's Defense Pool (read as it is flipped
    face up), plus what the Interrupts played face up into it add: their bonus, not their
    Block ("add up the Block values of every committed card"; a played Interrupt is not
    committed)."""
    from table.bots.effects import Effect, total

    got = 0
    for e in view.log(r.placed):
        card_id = _revealed_into_pool(view, e)
        if card_id is None:
            continue
        card = view.card_data(card_id)
        if card is None:
            continue
        if e.kind == "move":  # an Interrupt played into the pool
            got += total([x for x in effects.get(card_id, ()) if isinstance(x, Effect)],
                         "interrupt", "bonus")
        else:
            got += card.number("block")
    return got


def _revealed_into_pool(view: SeatView, e: LogEntry) -> str | None:
    card = e.args.get("card")
    if not isinstance(card, str):
        return None
    if e.kind == "set" and e.args.get("field") == "face_up" and e.args.get("value") is True:
        return card  # a committed card flipped over
    if e.kind == "move" and e.args.get("to") == POOL and e.args.get("face_up"):
        return card
    return None


__all__ = ["ALTAR", "PHASES", "POOL", "RiteRound", "alone_in_lead", "blocked_draw",
           "champions", "clockwise", "crown", "damage", "favor", "next_rite", "pool_total",
           "ready", "rite_cost", "rite_round", "step", "ward"]
