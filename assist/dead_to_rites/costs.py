"""Paying Favor for cards and Rites: DTR-PLAY-COST and DTR-RITE-COST.

A card played from hand and a Rite placed on the Altar are paid from the player's Favor tracker
in the same action, the way assist/payments.py reads a payment: the run of Favor changes right
before the move, or right after it. The move is read at its own op, as the table stood then (a
card committed face down to the Defense Pool is a block, not a play, whatever its face shows
later); unless the run before it paid in full, its verdict is pending ("unpaid so far") until
the run after it is over, and the flag names the move's op.

The excuses are the catalogue's: a `card-effect` declaration naming the card, in the entry's
timing window, means it was played for free (no flag); any other card effect declared there
makes the E* rule a warning.
"""
from __future__ import annotations

from dataclasses import dataclass

from assist import payments
from assist.api import CARD_EFFECT, Pending, Settled, Verdict, counter_delta, journal_moves
from assist.payments import Due
from table.core.timeline import Record

from .reader import ALTAR, POOL, Dtr, resolve, z, zone_kind, zone_seat
from .rules import RULES

COST_RULES = frozenset({"DTR-PLAY-COST", "DTR-RITE-COST"})

# Where a card from hand goes when it is played, by type (as [rules.plays] of the module
# counts plays); a card committed face down to the Defense Pool is a block, not a play.
_PLAYED_TO = {"Champion": ("play",), "Ritual": ("play", "discard"),
              "Interrupt": ("play", "discard", POOL), "Pact": ("pacts",)}


@dataclass(frozen=True, slots=True)
class Entry:
    """A paid move as it was made."""

    rule: str  # DTR-PLAY-COST or DTR-RITE-COST
    obj: str
    seat: int
    name: str
    cost: int  # the printed cost
    threat: int = 0  # the Threat added (alone in the lead when placing a Rite)


@dataclass(frozen=True, slots=True)
class Owed:
    """What a cost verdict keeps while it is pending: the move and its payment so far."""

    entry: Entry
    due: Due


def _favor_paid(rec: Record) -> tuple[int, int] | None:
    """(seat, Favor paid) when the op changes a Favor tracker (a gain pays 0)."""
    op = rec.op
    fid = op.args.get("id")
    if op.kind != "counter" or zone_kind(fid) != "favor" or (op.args.get("key") or "value") \
            != "value" or not isinstance(fid, str):
        return None
    seat = zone_seat(fid)
    if seat is None:
        return None
    return seat, max(0, -counter_delta(rec, fid))


def entries(d: Dtr, rec: Record) -> list[Entry]:
    """The paid entries the op just applied made (read off the table as it stands now, right
    after that op): cards played from hand, a Rite put on the Altar."""
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
                others = [d.completed(s) for s in d.seats() if s != owner]
                alone = bool(others) and d.completed(owner) > max(others)
                out.append(Entry("DTR-RITE-COST", obj, owner, card.name, cost,
                                 int(d.p("threat_cost", 1)) if alone else 0))
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


def check_payments(d: Dtr) -> list[Verdict]:
    """The op just applied, for the payments: it goes on paying an entry still open, or ends
    its run (the entry is judged); and an entry it makes opens a verdict of its own."""
    rec, index = d.ctx.record, d.ctx.index
    made = entries(d, rec)
    out: list[Verdict] = []
    owed = [p for p in d.ctx.pending.values() if p.rule in COST_RULES]
    if owed:
        seats = {e.seat for e in made}
        for p in owed:
            now = payments.follow(p.data.due, rec, _favor_paid, seats)
            if isinstance(now, Due):
                if now != p.data.due:
                    out.append(_pending(d, Owed(p.data.entry, now), p.on))
            else:
                out.append(_judge(d, p, now, index + 1))
    for e in made:
        before = payments.paid_before(d.records, index, _favor_paid, e.seat)
        due = Due(e.seat, e.cost + e.threat, before, 0, d.ctx.history.window_start())
        if not due.met():
            out.append(_pending(d, Owed(e, due), d.ctx.ref))
    return out


def settle_payments(d: Dtr) -> list[Verdict]:
    """The input ended: every entry still open is judged with what was paid so far."""
    return [_judge(d, p, p.data.due.after, d.ctx.index + 1)
            for p in d.ctx.pending.values() if p.rule in COST_RULES]


def _did(e: Entry) -> str:
    return f"played {e.name}" if e.rule == "DTR-PLAY-COST" else f"placed {e.name} on the Altar"


def _pending(d: Dtr, owed: Owed, on: tuple[str, int]) -> Pending:
    e, due = owed.entry, owed.due
    so_far = "unpaid so far" if not due.paid else f"{due.paid} Favor paid so far"
    message = f"{d.who(e.seat)} {_did(e)} ({due.cost} Favor): {so_far}."
    return Pending(e.rule, RULES.severity(e.rule, excused=False), message,
                   RULES.section(e.rule), on, (e.obj, z(e.seat, "favor")), shown=not due.met(),
                   data=owed)


def _judge(d: Dtr, p: Pending, after: int, stop: int) -> Verdict:
    """The verdict on a pending entry once its payment is over (`stop`: the ops before it are
    the entry's timing window so far, where a card effect may excuse it)."""
    owed: Owed = p.data
    e, due = owed.entry, owed.due
    if due.met(after):
        return Settled(p.key)
    effects = d.declarations(CARD_EFFECT, due.window, stop)
    if any(resolve(d, d.field(r, "card")) == e.obj or _names(d.field(r, "card"), e.name)
           for _i, r in effects):
        return Settled(p.key)  # played for free (or at another price) by the card declared
    why = f", {e.threat} of it Threat (alone in the lead)" if e.threat else ""
    paid = due.before + after
    message = f"{d.who(e.seat)} {_did(e)} and paid {paid} Favor; it costs {due.cost}{why}."
    return RULES.flag(e.rule, message, excused=bool(effects), objects=(e.obj, z(e.seat, "favor")),
                      ops=(p.on,))


def _names(value: object, name: str) -> bool:
    return isinstance(value, str) and value.strip().casefold() == name.casefold()

