"""Paying Command for Orders: each Order paid (no flag), unpaid and underpaid (flagged under
its own rule), with the payment before the Order or right after it."""
from __future__ import annotations

from collections.abc import Callable

import pytest

from assist.testing import AssistTable

from .cases_core import fight, full_battle
from .gau_kit import MOVE, ORDER_COSTS, begin, order, settle, stock, table

# Where each Order is legal (its Leader, and the situation before it is used)
SITUATIONS: dict[str, tuple[str | None, Callable[[AssistTable], None]]] = {
    "Onward": (None, lambda t: begin(t, 1, MOVE)),
    "Rally": (None, lambda t: fight(t)),
    "Rout": (None, lambda t: full_battle(t)),
    "Entrench": ("Commandant", lambda t: fight(t, att=2, pos=4)),
    "Repel": ("Commandant", lambda t: full_battle(t, att=2, pos=4, winner=1, close=False)),
    "Fortify": ("Commandant", lambda t: full_battle(t)),
}


def _used(name: str, paid: int, *, after: bool = False) -> tuple[AssistTable, int]:
    leader, situation = SITUATIONS[name]
    t = table(l1=leader)
    stock(t, 1, 2)
    situation(t)
    since = t.checkpoint()
    if after:
        t.declare("order", seat=1, order=name)
        t.do({"seat": 1, "op": "counter", "id": "p1.command", "add": -paid})
    else:
        order(t, 1, name, paid)
    settle(t)  # the payment is over: the Order is judged
    return t, since


@pytest.mark.parametrize("name", ORDER_COSTS)
def test_a_paid_order_raises_nothing(name: str) -> None:
    t, since = _used(name, ORDER_COSTS[name])
    assert t.rules(since) == [], t.describe(since)


@pytest.mark.parametrize("name", ORDER_COSTS)
def test_paid_right_after_the_order_raises_nothing(name: str) -> None:
    t, since = _used(name, ORDER_COSTS[name], after=True)
    assert t.rules(since) == [], t.describe(since)


@pytest.mark.parametrize("name", ORDER_COSTS)
def test_an_unpaid_order_is_flagged_under_its_rule(name: str) -> None:
    t, since = _used(name, 0)
    rule = f"GAU-MIL-{name.upper()}"
    assert t.rules(since) == [rule], t.describe(since)
    (flag,) = t.flags(since)
    player = t.replica.state.seats[1].name  # players are named as the table names them
    assert flag.message == f"{player} used {name} and paid 0 Command; it costs {ORDER_COSTS[name]}."
    assert flag.ops[0] == t.replica.records()[since].op.ref  # laid at the Order it judges


@pytest.mark.parametrize("name", [n for n, cost in ORDER_COSTS.items() if cost > 1])
def test_an_underpaid_order_is_flagged(name: str) -> None:
    t, since = _used(name, ORDER_COSTS[name] - 1)
    assert t.rules(since) == [f"GAU-MIL-{name.upper()}"], t.describe(since)


def test_overpaid_is_flagged_too() -> None:
    t, since = _used("Rally", 2)
    assert t.rules(since) == ["GAU-MIL-RALLY"], t.describe(since)


def test_two_orders_each_paid_by_its_own_run() -> None:
    t = table()
    stock(t, 1, 2)
    fight(t)
    since = t.checkpoint()
    order(t, 1, "Rally")
    order(t, 1, "Rally", 0)  # the second Rally has nothing left to pay with
    settle(t)
    assert t.rules(since) == ["GAU-MIL-RALLY"], t.describe(since)
