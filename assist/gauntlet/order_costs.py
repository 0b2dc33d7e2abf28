"""Paying Command for Military Orders (§11 "Onward — 1 Command", Rally 1, Rout 2, ...).

An Order (a `declare order` mark) is paid from the player's Command tracker in the same
action, read the way assist/payments.py reads a payment (the run of Command changes right
before the Order or right after it): unless the run before it paid in full, the Order's verdict
is pending until the run after it is over (or the input ends). The cost is the Leader card's
`orders` column ("Onward (1)"), or the rulebook's where the module states none. An unpaid or
underpaid Order is flagged under that Order's own rule, at the Order's op; an Order not on the
player's Leader is left to GAU-MIL-ORDERS-OWN-LEADER.
"""
from __future__ import annotations

import re
from typing import Any

from assist import payments
from assist.api import Pending, Settled, Verdict, counter_delta
from assist.payments import Due
from table.core.timeline import Record

from .facts import Facts
from .rules import RULES

RULEBOOK_COSTS = {"Onward": 1, "Rally": 1, "Rout": 2, "Entrench": 1, "Repel": 1, "Fortify": 2}
_ORDER = re.compile(r"^\s*([^()]+?)\s*(?:\((\d+)\))?\s*$")


def _command_paid(rec: Record) -> tuple[int, int] | None:
    """(seat, Command paid) when the op changes a Command tracker (a gain pays 0)."""
    op = rec.op
    cid = op.args.get("id")
    if op.kind != "counter" or not isinstance(cid, str) or not cid.endswith(".command") \
            or (op.args.get("key") or "value") != "value":
        return None
    head = cid.split(".", 1)[0]
    if not head[1:].isdigit():
        return None
    return int(head[1:]), max(0, -counter_delta(rec, cid))


def _order_of(f: Facts, rec: Record) -> tuple[int, str] | None:
    """(seat, Order name) when `rec` declares an Order."""
    a = rec.op.args
    if rec.void is not None or rec.op.kind != "mark" or a.get("what") != "declare" \
            or a.get("value") != "order":
        return None
    fields = a.get("fields") or {}
    seat = fields.get("seat") if isinstance(fields.get("seat"), int) else f.h.seat_of(rec)
    return (seat, str(fields.get("order", ""))) if isinstance(seat, int) else None


def order_costs(leader: Any) -> dict[str, int]:
    """Order name -> Command cost, as the Leader card states them."""
    out = {}
    for text in (leader.get("orders") if leader is not None else None) or ():
        m = _ORDER.match(str(text))
        if m is not None:
            name = m.group(1)
            cost = m.group(2)
            out[name] = int(cost) if cost is not None else RULEBOOK_COSTS.get(name, 0)
    return out


def _rule(name: str) -> str:
    return f"GAU-MIL-{name.upper()}"


def check_order_costs(f: Facts) -> list[Verdict]:
    """The op just applied, for the Orders' payments: it goes on paying an Order still open,
    or ends its run (the Order is judged); an Order it declares opens a verdict of its own."""
    rec = f.ctx.record
    used = _order_of(f, rec)
    out: list[Verdict] = []
    owed = [p for p in f.ctx.pending.values() if p.rule.startswith("GAU-MIL-")
            and isinstance(p.data, Due)]
    for p in owed:
        now = payments.follow(p.data, rec, _command_paid, {used[0]} if used else set())
        if isinstance(now, Due):
            if now != p.data:
                out.append(_pending(f, p.rule, now, p.on))
        else:
            out.append(_judge(f, p, now))
    if used is None:
        return out
    seat, name = used
    cost = order_costs(f.leader_card(seat)).get(name)
    if cost is None:
        return out  # not this Leader's Order: GAU-MIL-ORDERS-OWN-LEADER says so
    before = payments.paid_before(f.h.records, f.h.index, _command_paid, seat)
    due = Due(seat, cost, before)
    if not due.met():
        out.append(_pending(f, _rule(name), due, f.ctx.ref))
    return out


def settle_order_costs(f: Facts) -> list[Verdict]:
    """The input ended: every Order still open is judged with what was paid so far."""
    return [_judge(f, p, p.data.after) for p in f.ctx.pending.values()
            if p.rule.startswith("GAU-MIL-") and isinstance(p.data, Due)]


def _order_name(rule: str) -> str:
    return rule.removeprefix("GAU-MIL-").capitalize()


def _pending(f: Facts, rule: str, due: Due, on: tuple[str, int]) -> Pending:
    so_far = "unpaid so far" if not due.paid else f"{due.paid} Command paid so far"
    return Pending(rule, RULES.severity(rule, excused=False),
                   f"{f.who(due.seat)} used {_order_name(rule)} ({due.cost} Command): {so_far}.",
                   RULES.section(rule), on, (f"p{due.seat}.command",), shown=not due.met(),
                   data=due)


def _judge(f: Facts, p: Pending, after: int) -> Verdict:
    due: Due = p.data
    if due.met(after):
        return Settled(p.key)
    return RULES.flag(p.rule, f"{f.who(due.seat)} used {_order_name(p.rule)} and paid "
                      f"{due.before + after} Command; it costs {due.cost}.",
                      excused=f.ctx.excused, objects=(f"p{due.seat}.command",), ops=(p.on,))
