"""Helpers for plugin authors' tests: a seeded hot-seat table with the assist attached.

    from assist.testing import AssistTable

    def test_favor_cap_fires():
        t = AssistTable("dead-to-rites", plugin=plugin)
        t.mark("phase", "Dawn", seat=1)
        t.do({"seat": 1, "op": "counter", "id": "p1.favor", "value": 7})
        assert t.rules() == ["DTR-FAVOR-CAP"]

    def test_favor_cap_nearest_legal_play():
        t = AssistTable("dead-to-rites", plugin=plugin)
        t.do({"seat": 1, "op": "counter", "id": "p1.favor", "value": 6})
        assert t.rules() == []

Ops are the JSON form of `table.core.jsonform` (cards by "ZONE:Card Name" selectors). By default
`flags()` and `rules()` report what was raised after the setup; `setup_flags()` the setup's.
A verdict that waits on later ops (a payment, a timing window) is in `pending()` until an op
settles it; `end()` says the input ended there (every window closes, as when a log is read to
its end), and the next op takes that back.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from table.core import actions as act
from table.core.jsonform import perform
from table.core.ops import Op
from table.core.replica import Replica
from table.core.rng import Rng
from table.games import find_module, load_deck
from table.games.model import Deck
from table.games.module import GameModule
from table.games.setup import new_table

from .api import Flag, Plugin
from .runner import AssistRunner, FlagEntry, PendingEntry, load_plugin


class AssistTable:
    """A seeded hot-seat table of a game, its setup done, with the game's assist attached."""

    def __init__(self, game_id: str, seats: int | None = None, *, seed: int = 7,
                 plugin: Plugin | None = None, decks: Mapping[int, Deck | str] | None = None,
                 module: GameModule | None = None, log_path: str | None = None) -> None:
        self.module = module or find_module(game_id)
        seats = seats or self.module.players.min
        chosen: dict[int, Deck] = {}
        for seat, deck in (decks or {}).items():
            chosen[seat] = load_deck(self.module, deck) if isinstance(deck, str) else deck
        self.replica: Replica = new_table(self.module, seats, chosen or None, rng=Rng(seed),
                                          peer_id="hotseat", table_id="test", log_path=log_path)
        if plugin is None:
            plugin = load_plugin(self.module.id)
            if plugin is None:
                raise LookupError(f"no assist plugin registered for {self.module.id}")
        self.plugin = plugin
        self.runner = AssistRunner.for_replica(self.replica, self.module, plugin, seat=-1)
        self.start = len(self.replica.records())

    # -- acting ----------------------------------------------------------------------------
    def _namer(self, card_id: str) -> str:
        card = self.module.cards.get(card_id)
        return card.name if card is not None else card_id

    def do(self, *entries: Mapping[str, Any] | str) -> Op | None:
        """Perform JSON ops (dicts, or JSON Lines text). Returns the last op issued."""
        last = None
        for entry in entries:
            if isinstance(entry, str):
                for line in entry.splitlines():
                    if line.strip() and not line.lstrip().startswith("#"):
                        last = perform(self.replica, json.loads(line), self._namer)
            else:
                last = perform(self.replica, dict(entry), self._namer)
        return last

    def mark(self, what: str, value: Any = None, *, seat: int | None = None,
             for_seat: int | None = None, **fields: Any) -> Op:
        return act.mark(self.replica, what, value=value, for_seat=for_seat,
                        fields=fields or None, seat=seat)

    def turn(self, seat: int) -> Op:
        """Pass the turn to `seat` (a turn marker, issued as that seat)."""
        return act.mark(self.replica, "turn", for_seat=seat, seat=seat)

    def phase(self, name: str, *, seat: int | None = None) -> Op:
        active = self.replica.state.turn.get("seat")
        return act.mark(self.replica, "phase", value=name, seat=seat or active)

    def declare(self, name: str, *, seat: int | None = None, **fields: Any) -> Op:
        return act.mark(self.replica, "declare", value=name, fields=fields or None, seat=seat)

    def end(self) -> None:
        """The input ends here: every verdict still open is settled (runner.finish)."""
        self.runner.finish()

    def ack(self, flag: Flag | FlagEntry | str, reason: str = "house rule",
            seat: int | None = None) -> Op:
        key = flag if isinstance(flag, str) else flag.key
        return self.replica.issue("ack", {"flag": key, "reason": reason}, seat=seat)

    # -- reading ---------------------------------------------------------------------------
    def find(self, zone: str, name: str) -> str:
        """The object id of the topmost card named `name` in `zone` (as the all-seeing view)."""
        from table.core.jsonform import resolve_card
        return resolve_card(self.replica, f"{zone}:{name}", None, self._namer)

    def cards(self, zone: str) -> list[str]:
        """Names of the cards in a zone, bottom -> top (hidden ones as '?')."""
        state, knowledge = self.replica.state, self.replica.knowledge
        out = []
        for child in state.objs[zone].children:
            obj = state.objs[child]
            if obj.kind == "card":
                card = obj.card or knowledge.card_of(obj.id)
                out.append(self._namer(card) if card else "?")
        return out

    def counter(self, obj_id: str, key: str = "value") -> int | None:
        return self.replica.state.objs[obj_id].counters.get(key)

    def checkpoint(self) -> int:
        """The current op count: pass it as `since` to see only what comes after."""
        return len(self.replica.records())

    def entries(self, since: int | None = None, *, include_acked: bool = False) -> list[FlagEntry]:
        # tests slip an illegal move in and undo it to go on: its flags still count here
        return self.runner.entries(include_acked=include_acked, include_undone=True,
                                   include_resolved=True,
                                   since=self.start if since is None else since)

    def flags(self, since: int | None = None, *, include_acked: bool = False) -> list[Flag]:
        return [e.flag for e in self.entries(since, include_acked=include_acked)]

    def rules(self, since: int | None = None) -> list[str]:
        """Rule ids flagged (after the setup, or since `since`), in log order."""
        return [f.rule for f in self.flags(since)]

    def setup_flags(self) -> list[Flag]:
        return [e.flag for e in self.runner.entries() if e.index < self.start]

    def pending(self) -> list[PendingEntry]:
        """The verdicts still open that have something to show (the panel's muted rows)."""
        return self.runner.pending()

    def describe(self, since: int | None = None) -> str:
        """Readable flags, for assertion messages."""
        return "\n".join(f"#{e.number} {e.flag.rule} [{e.flag.severity}] {e.flag.message}"
                         for e in self.entries(since)) or "(no flags)"


def run_ops(game_id: str, ops: Iterable[Mapping[str, Any] | str], *, seats: int | None = None,
            seed: int = 7, plugin: Plugin | None = None) -> list[Flag]:
    """Flags raised by JSON ops performed on a fresh seeded table of `game_id` (after setup),
    the input ending with the last of them."""
    table = AssistTable(game_id, seats, seed=seed, plugin=plugin)
    table.do(*ops)
    table.end()
    return table.flags()





def missing_names(flag: Flag, replica: Replica, namer: Any = None) -> list[str]:
    """What a flag's message leaves unnamed that it is about: each card among its objects (by
    name) and each player whose pieces it names (a seat's zone, counter, token or card, by
    the seat's name at the table). A flag about no piece at all (the table's player count, a
    supply) need name no one. Empty when the message names them all."""
    import re

    state, knowledge = replica.state, replica.knowledge
    names = {n: s.name or f"Seat {n}" for n, s in state.seats.items()}
    text = flag.message
    missing: list[str] = []
    seats: set[int] = set()
    for oid in flag.objects:
        obj = state.objs.get(oid)
        head = re.match(r"^p(\d+)\.", oid)
        if head is not None:
            seats.add(int(head.group(1)))
        if obj is None or obj.kind != "card":
            continue
        card = obj.card or knowledge.card_of(oid)
        name = namer(card) if namer is not None and card else card
        if name and name not in text:
            missing.append(f"the card {name}")
        if obj.owner is not None and obj.owner in names and head is None:
            seats.add(obj.owner)
    missing += [f"the player {names[s]}" for s in sorted(seats) if s in names
                and names[s] not in text]
    return missing

__all__ = ["AssistTable", "missing_names", "run_ops"]
