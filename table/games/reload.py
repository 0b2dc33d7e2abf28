"""A draft edited during play: what changed between two versions of a module, whether the
table can take the new one, and the ops that put it into the log.

A new version is refused (nothing applied, the reason given) when it belongs to another game,
removes a card that is on the table (as far as this peer knows it), or removes a zone that holds
cards. Otherwise `apply_change` records the new module (its archive and a module op carrying a
summary of the change) and issues `set` ops for counters whose range changed, so every peer,
the replay and the assist see the new version from that op on.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from table.core import actions as act
from table.core.replica import Replica

from .module import GameModule
from .record import record_module
from .store import ModuleStore


@dataclass(slots=True)
class ModuleChange:
    old: GameModule
    new: GameModule
    cards_changed: list[str] = field(default_factory=list)
    cards_added: list[str] = field(default_factory=list)
    cards_removed: list[str] = field(default_factory=list)
    rules: dict[str, tuple[Any, Any]] = field(default_factory=dict)  # dotted key -> (old, new)
    ranges: dict[str, tuple[Any, Any]] = field(default_factory=dict)  # counter id -> (min, max)
    refused: list[str] = field(default_factory=list)

    @property
    def same(self) -> bool:
        return self.old.content_hash == self.new.content_hash

    def summary(self) -> dict[str, Any]:
        """What the module op records of the change (and the log line shows)."""
        out: dict[str, Any] = {"from": self.old.content_hash}
        cards = len(self.cards_changed) + len(self.cards_added) + len(self.cards_removed)
        if cards:
            out["cards"] = cards
        if self.rules:
            out["rules"] = {k: [_plain(a), _plain(b)] for k, (a, b) in sorted(self.rules.items())}
        return out

    def describe(self) -> str:
        parts = []
        cards = len(self.cards_changed) + len(self.cards_added) + len(self.cards_removed)
        if cards:
            parts.append(f"{cards} card(s) changed")
        parts.extend(f"{k} {a} -> {b}" for k, (a, b) in sorted(self.rules.items()))
        return f"{self.new.name} {self.new.version}" + (f" ({', '.join(parts)})" if parts
                                                        else "")


def _plain(value: Any) -> Any:
    return value if isinstance(value, (int, float, str, bool)) or value is None else str(value)


def _flat(rules: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in rules.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping):
            out.update(_flat(value, name + "."))
        else:
            out[name] = value
    return out


def _card_key(card: Any) -> tuple[Any, ...]:
    return (card.name, card.type, card.group, card.text, card.side_b, card.text_b, card.image,
            tuple(sorted(card.fields.items())))


def plan_change(old: GameModule, new: GameModule, r: Replica) -> ModuleChange:
    """Compare two versions of a module against the table as this peer knows it."""
    change = ModuleChange(old, new)
    if new.id != old.id:
        change.refused.append(f"the new module is {new.id!r}, but this table plays {old.id!r}")
        return change
    for cid, card in new.cards.items():
        before = old.cards.get(cid)
        if before is None:
            change.cards_added.append(cid)
        elif _card_key(before) != _card_key(card):
            change.cards_changed.append(cid)
    change.cards_removed = sorted(set(old.cards) - set(new.cards))
    a, b = _flat(old.rules), _flat(new.rules)
    change.rules = {k: (a.get(k), b.get(k)) for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)}
    _refuse_losses(change, r)
    _counter_ranges(change, r)
    return change


def _refuse_losses(change: ModuleChange, r: Replica) -> None:
    state, known = r.state, r.knowledge
    removed = set(change.cards_removed)
    if removed:
        on_table = sorted({cid for o in state.objs.values() if o.alive and o.kind == "card"
                           for cid in (o.card or known.card_of(o.id),) if cid in removed})
        for cid in on_table:
            change.refused.append(f"card {change.old.cards[cid].name!r} ({cid}) is on the "
                                  f"table; the new version removes it")
    seats = max(len(state.seats), change.new.players.min)
    try:
        declared = {z.id for z in change.new.zones_for(seats, None)}
        before = {z.id for z in change.old.zones_for(seats, None)}
    except ValueError as err:
        change.refused.append(str(err))
        return
    for zone_id in sorted(before - declared):
        zone = state.live(zone_id)
        if zone is not None and any(state.objs[c].alive for c in zone.children):
            change.refused.append(f"zone {zone_id!r} holds cards; the new version removes it")


def _counter_ranges(change: ModuleChange, r: Replica) -> None:
    seats = max(len(r.state.seats), change.new.players.min)
    try:
        counters = change.new.counters_for(seats, None)
    except ValueError:
        return
    for counter in counters:
        obj = r.state.live(counter.id)
        if obj is None:
            continue
        now = (obj.props.get("min"), obj.props.get("max"))
        if now != (counter.min, counter.max):
            change.ranges[counter.id] = (counter.min, counter.max)


def apply_change(r: Replica, change: ModuleChange, store: ModuleStore | None = None) -> None:
    """Put the new version into the log: its archive, the module op, new counter ranges."""
    if change.refused:
        raise ValueError("; ".join(change.refused))
    record_module(r, change.new, store, changes=change.summary())
    for counter_id, (low, high) in sorted(change.ranges.items()):
        act.set_field(r, counter_id, "props.min", low)
        act.set_field(r, counter_id, "props.max", high)
