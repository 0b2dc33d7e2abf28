"""Paying Command for Military Orders (§11 "Onward — 1 Command", Rally 1, Rout 2, ...).

An Order (a `declare order` mark) is paid from the player's Command tracker in the same
action, read the way assist/payments.py reads a payment (the run of Command changes right
before the Order or right after it). The cost is the Leader card's `orders` column
("Onward (1)"), or the rulebook's where the module states none. An unpaid or underpaid Order
is flagged under that Order's own rule; an Order not on the player's Leader is left to
GAU-MIL-ORDERS-OWN-LEADER.
"""
from __future__ import annotations

import re
from typing import Any

from assist import payments
from assist.api import Flag, counter_delta
from table.core.timeline import Record

from .facts import Facts
from .rules import RULES

RULEBOOK_COSTS = {"Onward": 1, "Rally": 1, "Rout": 2, "Entrench": 1, "Repel": 1, "Fortify": 2}
_ORDER = re.compile(r"^\s*([^()]+?)\s*(?:\((\d+)\))?\s*$")


def _is_command_change(rec: Record) -> bool:
    op = rec.op
    cid = op.args.get("id")
    return op.kind == "counter" and isinstance(cid, str) and cid.endswith(".command") \
        and (op.args.get("key") or "value") == "value"


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


def check_order_costs(f: Facts, out: list[Flag]) -> None:
    """At the op that ends a payment run: judge the Order just before that run."""
    records = f.h.records
    index = f.h.index
    i = payments.pending_entry(records, index, _is_command_change)
    used = _order_of(f, records[i]) if i is not None else None
    if i is None or used is None:
        return
    seat, name = used
    cost = order_costs(f.leader_card(seat)).get(name)
    if cost is None:
        return  # not this Leader's Order: GAU-MIL-ORDERS-OWN-LEADER says so
    cid = f"p{seat}.command"
    nxt = _order_of(f, records[index])
    before, after = payments.paid_around(
        records, i, index, _is_command_change,
        lambda a, b: sum(-d for j in range(a, b) if (d := counter_delta(records[j], cid)) < 0),
        next_entry_pays=nxt is not None and nxt[0] == seat)
    if payments.settled(cost, before, after):
        return
    op = records[i].op
    out.append(RULES.flag(f"GAU-MIL-{name.upper()}", f"Seat {seat} used {name} and paid "
                          f"{before + after} Command; it costs {cost}.", excused=f.ctx.excused,
                          objects=(cid,), ops=((op.author, op.seq),)))
