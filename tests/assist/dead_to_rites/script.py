"""A scripted, legal game of Dead to Rites (seed 7): nine turns with attacks, two blocked Rites
and a resolved one. `Game` drives an AssistTable; tests call its steps and slip moves in."""
from __future__ import annotations

from collections.abc import Callable

from assist.dead_to_rites import plugin
from assist.testing import AssistTable

Hook = Callable[["Game"], None]


class Game:
    def __init__(self, hooks: dict[str, Hook] | None = None, seed: int = 7) -> None:
        self.t = AssistTable("dead-to-rites", seed=seed, plugin=plugin)
        self.hooks = hooks or {}
        # default moves a test leaves out: "draw1", "clear5", "ready9", "pay-rite3"
        self.skip: set[str] = set()

    # -- small moves -----------------------------------------------------------------------
    def at(self, label: str) -> None:
        hook = self.hooks.get(label)
        if hook is not None:
            hook(self)

    def phase(self, seat: int, name: str) -> None:
        self.t.do({"seat": seat, "op": "mark", "what": "phase", "value": name})

    def turn(self, seat: int) -> None:
        self.t.do({"seat": seat, "op": "mark", "what": "turn", "for_seat": seat})

    def favor(self, seat: int, add: int) -> None:
        self.t.do({"seat": seat, "op": "counter", "id": f"p{seat}.favor", "add": add})

    def draw(self, seat: int, count: int = 1) -> None:
        self.t.do({"seat": seat, "op": "draw", "from": f"p{seat}.deck", "to": f"p{seat}.hand",
                   "count": count})

    def play(self, seat: int, name: str, cost: int) -> str:
        self.favor(seat, -cost)
        op = self.t.do({"seat": seat, "op": "move", "card": f"p{seat}.hand:{name}",
                        "to": f"p{seat}.play", "face_up": True})
        assert op is not None
        return str(op.args["id"])

    def rotate(self, seat: int, card: str, degrees: int) -> None:
        self.t.do({"seat": seat, "op": "rotate", "id": card, "degrees": degrees})

    def damage(self, seat: int, card: str, add: int | None = None, value: int | None = None,
               key: str = "damage") -> None:
        entry = {"seat": seat, "op": "counter", "id": card, "key": key}
        entry.update({"add": add} if add is not None else {"value": value})
        self.t.do(entry)

    def declare(self, seat: int, name: str, **fields: object) -> None:
        self.t.declare(name, seat=seat, **fields)

    def dawn(self, seat: int, gain: int = 2) -> None:
        self.turn(seat) if self.t.replica.state.turn["seat"] != seat else None
        self.phase(seat, "Dawn")
        self.at(f"dawn{seat}")
        self.favor(seat, gain)
        if f"draw{self.t.replica.state.turn['number']}" not in self.skip:
            self.draw(seat)

    def commit(self, seat: int, name: str) -> str:
        op = self.t.do({"seat": seat, "op": "move", "card": f"p{seat}.hand:{name}",
                        "to": "defense-pool"})
        assert op is not None
        return str(op.args["id"])

    def place_rite(self, seat: int, cost: int) -> str:
        if f"pay-rite{self.t.replica.state.turn['number']}" not in self.skip:
            self.favor(seat, -cost)
        rite = self.t.find(f"p{seat}.rites", self.t.cards(f"p{seat}.rites")[-1])
        self.t.do({"seat": seat, "op": "move", "id": rite, "to": "altar"})
        return rite

    def flip_and_discard(self, committed: list[tuple[int, str]]) -> None:
        for seat, card in committed:
            self.t.do({"seat": seat, "op": "flip", "id": card, "face_up": True})
        for seat, card in committed:
            self.t.do({"seat": seat, "op": "move", "id": card, "to": f"p{seat}.discard"})

    # -- the game ----------------------------------------------------------------------------
    def play_all(self) -> AssistTable:
        t = self.t
        # Turn 1, seat 1 (the setup's turn marker already made it seat 1's turn)
        self.dawn(1)
        self.phase(1, "Main")
        self.brand = self.play(1, "Brand Guard", 2)
        self.at("main1")
        self.phase(1, "Combat")
        self.phase(1, "Rite")
        self.phase(1, "Dusk")
        # Turn 2, seat 2
        self.dawn(2)
        self.phase(2, "Main")
        self.dirge = self.play(2, "Dirge Adept", 2)
        self.phase(2, "Combat")
        self.at("combat2")
        self.phase(2, "Rite")
        self.phase(2, "Dusk")
        # Turn 3, seat 3: a Rite, blocked by seats 4 and 1 (Block 2 + 3 >= Ward 3 + 1)
        self.dawn(3)
        self.phase(3, "Main")
        self.tithe = self.play(3, "Tithe Initiate", 1)
        self.phase(3, "Combat")
        self.phase(3, "Rite")
        rite = self.place_rite(3, 2)
        self.at("rite3")
        self.declare(3, "ward", ward=4)
        pool = [(4, self.commit(4, "Bastion Golem")), (1, self.commit(1, "Kindling Ward"))]
        self.declare(2, "pass")
        self.flip_and_discard(pool)
        t.do({"seat": 3, "op": "move", "id": rite, "to": "p3.rites"})
        self.favor(3, 2)
        self.draw(3, 2)
        self.at("blocked3")
        self.phase(3, "Dusk")
        # Turn 4, seat 4: a Rite that resolves (Block 2 + 1 < Ward 4)
        self.dawn(4)
        self.phase(4, "Main")
        self.ember = self.play(4, "Ember Initiate", 1)
        self.phase(4, "Combat")
        self.phase(4, "Rite")
        rite = self.place_rite(4, 2)
        pool = [(1, self.commit(1, "Sudden Blaze"))]
        self.declare(2, "pass")
        pool.append((3, self.commit(3, "Scorched Ground")))
        self.flip_and_discard(pool)
        t.do({"seat": 4, "op": "move", "id": rite, "to": "p4.completed"})
        t.do({"seat": 4, "op": "counter", "id": "p4.step", "add": 1})
        self.at("resolved4")
        self.phase(4, "Dusk")
        # Turn 5, seat 1: Brand Guard attacks Dirge Adept, which dies and strikes back
        self.dawn(1)
        self.phase(1, "Main")
        self.cutpurse = self.play(1, "Cutpurse", 2)
        self.at("main5")
        self.phase(1, "Combat")
        self.declare(1, "attack", attacker=self.brand, target=self.dirge)
        self.at("declared5")
        if "engage5" not in self.skip:
            self.rotate(1, self.brand, 90)
        self.damage(1, self.dirge, add=1)
        self.declare(2, "strike-back", target=self.dirge, attacker=self.brand)
        self.damage(2, self.brand, add=2)
        self.at("fought5")
        self.damage(2, self.dirge, value=0)
        t.do({"seat": 2, "op": "move", "id": self.dirge, "to": "p2.discard"})
        self.phase(1, "Rite")
        self.phase(1, "Dusk")
        if "clear5" not in self.skip:
            self.damage(1, self.brand, value=0)
        self.at("dusk5")
        # Turn 6, seat 2: a Rite blocked by seat 3 alone; Grave Choir draws 3
        self.dawn(2)
        self.phase(2, "Main")
        self.phase(2, "Combat")
        self.phase(2, "Rite")
        rite = self.place_rite(2, 2)
        pool = [(3, self.commit(3, "Debt Ward"))]
        self.declare(4, "pass")
        self.declare(1, "pass")
        self.flip_and_discard(pool)
        t.do({"seat": 2, "op": "move", "id": rite, "to": "p2.rites"})
        self.favor(2, 2)
        self.draw(2, 3)
        self.phase(2, "Dusk")
        # Turn 7, seat 3: Tithe Initiate attacks Ember Initiate; both survive
        self.dawn(3)
        self.phase(3, "Main")
        self.phase(3, "Combat")
        self.declare(3, "attack", attacker=self.tithe, target=self.ember)
        self.rotate(3, self.tithe, 90)
        self.damage(3, self.ember, add=1)
        self.declare(4, "strike-back", target=self.ember, attacker=self.tithe)
        self.damage(4, self.tithe, add=1)
        self.phase(3, "Rite")
        self.phase(3, "Dusk")
        self.damage(3, self.tithe, value=0)
        self.damage(4, self.ember, value=0)
        # Turn 8, seat 4
        self.dawn(4)
        self.phase(4, "Main")
        self.phase(4, "Combat")
        self.phase(4, "Rite")
        self.phase(4, "Dusk")
        # Turn 9, seat 1: Brand Guard readies at Dawn
        self.turn(1)
        self.phase(1, "Dawn")
        self.at("dawn9")
        if "ready9" not in self.skip:
            self.rotate(1, self.brand, 0)
        self.favor(1, 2)
        self.draw(1)
        self.at("dawn1-late")
        self.phase(1, "Main")
        self.at("end")
        return t
