"""A seeded 3-seat Mantle table for the plugin's tests, with a known arena and known hands.

Seat 1 Shem the Ranger (Range 4, Base Movement 3): Heirloom Bows (Attack 5) and Hunter's Marks
(Modifier). Seat 2 Khaya the Artificer (Range 3, Movement 3): Tomes of Defense (Defense 5).
Seat 3 Velya the Assassin (Range 2, Movement 4): Daggers (Attack 3, Defense 1).

Obstructions (default tiles): (1,1) (3,3) (9,0) (6,2) (7,2) (0,7) (1,8) (8,6) (7,7).
Standees: p1 (2,1), p2 (6,1), p3 (2,6). Hazards: tremor-1 (4,4), surge-1 (5,4), breach-1 (4,7),
rift-1 (0,0) + rift-2 (9,9), tremor-2 (8,8).
"""
from __future__ import annotations

from typing import Any

from assist.mantle_of_the_keeper import plugin
from assist.testing import AssistTable
from table.games import find_module, load_deck

GAME = "mantle-of-the-keeper"
MODULE = find_module(GAME)
DECKS = {
    1: load_deck(MODULE, "chosen: Shem the Ranger\n\n12 heirloom-bow\n8 shem-hunters-mark\n"),
    2: load_deck(MODULE, "chosen: Khaya the Artificer\n\n20 tome-of-defense\n"),
    3: load_deck(MODULE, "chosen: Velya the Assassin\n\n20 velya-dagger\n"),
}
STANDEES = {1: (2, 1), 2: (6, 1), 3: (2, 6)}
HAZARDS = {"tremor-1": (4, 4), "surge-1": (5, 4), "breach-1": (4, 7), "rift-1": (0, 0),
           "rift-2": (9, 9), "tremor-2": (8, 8)}
CARD = {1: "Heirloom Bow", 2: "Tome of Defense", 3: "Dagger"}


class Game:
    """An AssistTable in play (setup done, arena set, seat 1's turn begun, no phase yet)."""

    def __init__(self, *, hazards: dict[str, tuple[int, int]] | None = None,
                 standees: dict[int, tuple[int, int]] | None = None, start: bool = True,
                 seats: int = 3) -> None:
        self.t = AssistTable(GAME, seats, plugin=plugin, decks={s: DECKS[s] for s in
                                                                range(1, min(seats, 3) + 1)},
                             seed=1)
        for token, cell in (HAZARDS if hazards is None else hazards).items():
            self.put(token, cell, seat=1)
        for seat, cell in (STANDEES if standees is None else standees).items():
            self.put(f"p{seat}.standee", cell, seat=seat)
        self.pre = self.t.checkpoint()
        if start:
            self.t.turn(1)
        self.since = self.t.checkpoint()

    # -- acting ------------------------------------------------------------------------------
    def do(self, **entry: Any) -> None:
        self.t.do(entry)

    def put(self, obj: str, cell: tuple[int, int], seat: int | None = None) -> None:
        self.t.do({"seat": seat, "op": "move", "id": obj, "to": "arena", "pos": list(cell)})

    def step(self, seat: int, *cells: tuple[int, int], obj: str | None = None) -> None:
        for cell in cells:
            self.put(obj or f"p{seat}.standee", cell, seat)

    def favor(self, seat: int, add: int, by: int | None = None) -> None:
        self.do(seat=by or seat, op="counter", id=f"p{seat}.favor", add=add)

    def health(self, seat: int, add: int, by: int | None = None) -> None:
        self.do(seat=by or seat, op="counter", id=f"p{seat}.health", add=add)

    def draw(self, seat: int, count: int = 1) -> None:
        self.do(seat=seat, op="draw", **{"from": f"p{seat}.deck"}, to=f"p{seat}.hand",
                count=count)

    def play(self, seat: int, name: str | None = None, to: str | None = None,
             face_up: bool = True) -> None:
        self.do(seat=seat, op="move", card=f"p{seat}.hand:{name or CARD[seat]}",
                to=to or f"p{seat}.discard", face_up=face_up)

    def declare(self, name: str, seat: int, **fields: Any) -> None:
        self.t.declare(name, seat=seat, **fields)

    def phase(self, name: str) -> None:
        self.t.phase(name)

    def turn(self, seat: int) -> None:
        self.t.turn(seat)

    def income(self, seat: int) -> None:
        self.phase("Income")
        self.favor(seat, 1)
        self.draw(seat)
        self.phase("Action")

    def attack(self, seat: int, target: int, *, card: str | None = None, damage: int = 0,
               defend: str | None = None, bonus: bool = True, **extra: Any) -> None:
        """A whole attack: declare, play, defend (optional), Health and Favor as the rules say."""
        name = card or CARD[seat]
        self.declare("attack", seat, target=target, card=name, **extra)
        self.play(seat, name)
        if defend is not None:
            self.declare("defense", target, card=defend)
            self.play(target, defend)
        if damage:
            self.health(target, -damage, by=seat)
            self.favor(seat, damage)
        elif defend is not None and bonus:
            self.favor(target, 2)

    def end_turn(self, seat: int, nxt: int) -> None:
        self.phase("End of turn")
        self.turn(nxt)

    # -- reading -----------------------------------------------------------------------------
    def rules(self, since: int | None = None) -> list[str]:
        return self.t.rules(self.since if since is None else since)

    def mark(self) -> int:
        return self.t.checkpoint()

    def describe(self) -> str:
        return self.t.describe(self.since)
