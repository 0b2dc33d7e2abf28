"""Paying Favor for cards and Rites: DTR-PLAY-COST and DTR-RITE-COST.

A card played from hand and a Rite placed on the Altar are paid from the player's Favor tracker
in the same action, the way assist/payments.py reads a payment: the run of Favor changes right
before the move, or right after it (the flag names the entry's op as well).

The excuses are the catalogue's: a `card-effect` declaration naming the card, in the entry's
timing window, means it was played for free (no flag); any other card effect declared there
makes the E* rule a warning.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

from assist import payments
from assist.api import CARD_EFFECT, Flag, journal_moves
from table.core.timeline import Record

from .reader import ALTAR, POOL, Dtr, resolve, z, zone_kind, zone_seat
from .rules import RULES

# Where a card from hand goes when it is played, by type (as [rules.plays] of the module
# counts plays); a card committed face down to the Defense Pool is a block, not a play.
_PLAYED_TO = {"Champion": ("play",), "Ritual": ("play", "discard"),
              "Interrupt": ("play", "discard", POOL), "Pact": ("pacts",)}


@dataclass(frozen=True, slots=True)
class Entry:
    rule: str  # DTR-PLAY-COST or DTR-RITE-COST
    obj: str
    seat: int
    name: str
    cost: int


def _is_favor_change(rec: Record) -> bool:
    op = rec.op
    return op.kind == "counter" and zone_kind(op.args.get("id")) == "favor" \
        and (op.args.get("key") or "value") == "value"


def entries(d: Dtr, rec: Record) -> list[Entry]:
    """The paid entries an op made: cards played from hand, a Rite put on the Altar."""
    if rec.void is not None or rec.op.kind not in ("move", "consume"):
        return []
    out = []
    for obj, src, dst in journal_moves(rec):
        card = d.card(obj) if dst is not None else None
        cost = card.get("cost") if card is not None else None
        if card is None or not isinstance(cost, int) or isinstance(cost, bool):
            continue
        owner = d.view.owner_of(obj)
        if card.type == "Rite":
            if dst == ALTAR and zone_kind(src) == "rites" and owner is not None:
                out.append(Entry("DTR-RITE-COST", obj, owner, card.name, cost))
            continue
        seat = zone_seat(src)
        if zone_kind(src) != "hand" or seat is None or seat != owner:
            continue
        kinds = _PLAYED_TO.get(card.type, ())
        to = zone_kind(dst)
        if to in kinds and (dst == POOL or zone_seat(dst) == seat) and (
                to in ("play", "pacts") or d.view.is_up(obj)):
            out.append(Entry("DTR-PLAY-COST", obj, seat, card.name, cost))
    return out


def check_payments(d: Dtr) -> list[Flag]:
    """At the op that ends a payment run: judge the entry just before that run."""
    i = payments.pending_entry(d.records, d.ctx.index, _is_favor_change)
    if i is None:
        return []
    found = entries(d, d.records[i])
    if not found:
        return []
    later = {e.seat for e in entries(d, d.ctx.record)}  # the run after pays the next entry
    out = []
    for e in found:
        before, after = payments.paid_around(
            d.records, i, d.ctx.index, _is_favor_change, functools.partial(_paid, d, e.seat),
            next_entry_pays=e.seat in later)
        out += _judge(d, e, i, before, after)
    return out


def _paid(d: Dtr, seat: int, start: int, stop: int) -> int:
    _up, down = d.favor_gain(seat, start, stop)
    return down


def _judge(d: Dtr, e: Entry, at: int, before: int, after: int) -> list[Flag]:
    expected, why = e.cost, ""
    if e.rule == "DTR-RITE-COST":
        others = [d.completed(s) for s in d.seats() if s != e.seat]
        if others and d.completed(e.seat) > max(others):  # alone in the lead when paying
            expected += int(d.p("threat_cost", 1))
            why = f" +{d.p('threat_cost', 1)} Threat (alone in the lead)"
    paid = before + after
    if payments.settled(expected, before, after):
        return []
    start, _phase, _active = d.window_before(at + 1)
    effects = d.declarations(CARD_EFFECT, start, d.ctx.index)
    if any(resolve(d, d.field(r, "card")) == e.obj or _names(d.field(r, "card"), e.name)
           for _i, r in effects):
        return []  # played for free (or at another price) by the card effect declared
    what = "played" if e.rule == "DTR-PLAY-COST" else "placed on the Altar"
    message = (f"Seat {e.seat} {what} {e.name} and paid {paid} Favor; it costs "
               f"{e.cost}{why}.")
    entry_op = d.records[at].op
    return [RULES.flag(e.rule, message, excused=bool(effects), objects=(e.obj, z(e.seat, "favor")),
                       ops=((entry_op.author, entry_op.seq),))]


def _names(value: object, name: str) -> bool:
    return isinstance(value, str) and value.strip().casefold() == name.casefold()
