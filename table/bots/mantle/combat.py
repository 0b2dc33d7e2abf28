"""The Action Phase and its combat as Mantle bots play it: two actions (an attack on a Nearby
opponent with one card and at most one Modifier, a heal, a draw) and one movement, in any
order; the target defends with one card (and a Modifier) or not; the attacker then takes the
Health the attack cost and the Favor its Successful Damage earns; a full defense earns 2."""
from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from table.bots.api import Entry, LogEntry, SeatView
from table.bots.effects import total
from table.bots.moves import declare, gain, refill

from . import arena as ar

if TYPE_CHECKING:
    from table.bots.choosing import Chooser
    from table.games.model import Card

Actions = Generator[Entry, None, bool]


class Combat:
    choose: Chooser
    effects: Any
    heuristic: bool
    _unresolved: set[str]

    # -- reading this turn's attacks -------------------------------------------------------
    def _phase_start(self, view: SeatView) -> int:
        log = view.turn_log()
        marks = [e.index for e in log if e.kind == "mark" and e.args.get("what") == "phase"
                 and e.args.get("value") == "Action"]
        return marks[-1] if marks else (log[0].index if log else 0)

    def _open_attack(self, view: SeatView) -> tuple[LogEntry, LogEntry | None] | None:
        """The last attack of this turn not yet settled, with its response if made."""
        log = view.turn_log()
        attack, response = None, None
        for e in log:
            name = e.declared()
            if name == "attack":
                attack, response = e, None
            elif name in ("defense", "pass") and attack is not None:
                response = e
        if attack is None or self._settled(view, attack, response):
            return None
        return attack, response

    def _settled(self, view: SeatView, attack: LogEntry, response: LogEntry | None) -> bool:
        if response is None:
            return False
        damage = self._damage(attack, response)
        target = int(attack.fields.get("target", 0))
        if damage <= 0:
            return True
        return any(e.kind == "counter" and e.args.get("id") == f"p{target}.health"
                   for e in view.log(response.index))

    def _damage(self, attack: LogEntry, response: LogEntry | None) -> int:
        blocked = int(response.fields.get("value", 0)) if response is not None and \
            response.declared() == "defense" else 0
        return max(0, int(attack.fields.get("value", 0)) - blocked)

    def combat_prompt(self, view: SeatView) -> int | None:
        found = self._open_attack(view)
        if found is None:
            return None
        attack, response = found
        return int(attack.fields.get("target", 0)) if response is None else attack.seat

    # -- the target's defense ----------------------------------------------------------------
    def respond(self, view: SeatView) -> Generator[Entry, None, None]:
        found = self._open_attack(view)
        if found is None:
            return
        attack, response = found
        me = view.seat
        if response is not None:  # the attacker settles it
            yield from self._settle(view, attack, response)
            return
        hand = view.known(f"p{me}.hand")
        cards = [(h, c) for h, c in hand if c.number("defense") > 0]
        mods = [(h, c) for h, c in hand if c.type == "Modifier" and self._bonus(c, "defend")]
        incoming = int(attack.fields.get("value", 0))
        pick = self.choose.maybe(cards, lambda o: min(o[1].number("defense"), incoming) + 0.1,
                                 -1.0)
        if pick is None:
            yield declare("pass")
            return
        value = pick[1].number("defense")
        mod = None
        if mods and value < incoming:
            mod = self.choose.maybe(mods, lambda o: self._bonus(o[1], "defend"), -1.0)
        if mod is not None:
            value += self._bonus(mod[1], "defend")
        yield declare("defense", card=pick[1].name, value=value)
        for handle, _ in (pick, mod) if mod else (pick,):
            yield {"op": "move", "card": handle, "to": f"p{me}.discard", "face_up": True}
        if value >= incoming:
            yield from gain(view, f"p{me}.favor", int(view.rule("full_defense_bonus", 2)))

    def _settle(self, view: SeatView, attack: LogEntry, response: LogEntry) -> \
            Generator[Entry, None, None]:
        damage = self._damage(attack, response)
        target = int(attack.fields.get("target", 0))
        if damage:
            lost = min(damage, view.counter(f"p{target}.health"))  # Health stops at 0
            yield {"op": "counter", "id": f"p{target}.health", "add": -lost}
            yield from gain(view, f"p{view.seat}.favor",
                            damage * int(view.rule("favor_per_damage", 1)))

    def _bonus(self, card: Card, when: str) -> int:
        return total(self.effects.get(card.id, ()), when, "bonus")

    # -- the active player's actions ---------------------------------------------------------
    def _used(self, view: SeatView) -> tuple[int, bool]:
        """(actions used, moved) since this turn's Action Phase began."""
        me = view.seat
        used, moved = 0, False
        for e in view.log(self._phase_start(view)):
            if e.seat != me:
                continue
            if e.kind == "move" and e.args.get("id") == f"p{me}.standee":
                moved = True
            elif e.args.get("to") == f"p{me}.hand" and e.kind != "mark":
                used += 1  # a draw
            elif e.kind == "move" and e.args.get("to") == f"p{me}.discard" and \
                    e.args.get("face_up") and isinstance(e.args.get("card"), str):
                card = view.card_data(str(e.args["card"]))
                if card is not None and card.type != "Modifier":
                    used += 1  # a card played
        return used, moved

    def actions(self, view: SeatView) -> Actions:
        """Decisions until the phase is over (True) or an attack waits for its defense."""
        me = view.seat
        while True:
            if self._open_attack(view) is not None:
                return False
            arena = ar.read(view)
            if arena is None:
                return True
            used, moved = self._used(view)
            options: list[tuple[str, Any, float]] = [("end", None, 0.0)]
            if not moved:
                options += self._moves(view, arena)
            if used < int(view.rule("actions_per_turn", 2)):
                options += self._plays(view, arena)
            kind, what, _ = self.choose.pick(options, lambda o: o[2])
            if kind == "end":
                return True
            if kind == "move":
                for cell in what:
                    yield {"op": "move", "id": f"p{me}.standee", "to": ar.ARENA,
                           "pos": list(cell)}
            elif kind == "draw":
                yield {"op": "draw", "from": f"p{me}.deck", "to": f"p{me}.hand", "count": 1}
                if not view.count(f"p{me}.deck") and view.count(f"p{me}.discard"):
                    yield from refill(view)
            elif kind == "heal":
                handle, _card, amount = what
                yield {"op": "move", "card": handle, "to": f"p{me}.discard", "face_up": True}
                room = int(view.rule("health_start", 20)) - view.counter(f"p{me}.health")
                if min(amount, room) > 0:
                    yield {"op": "counter", "id": f"p{me}.health", "add": min(amount, room)}
            elif kind == "attack":
                yield from self._attack(view, *what)
                return False

    def _attack(self, view: SeatView, target: int, card: tuple[str, Card],
                mod: tuple[str, Card] | None) -> Generator[Entry, None, None]:
        me = view.seat
        value = card[1].number("attack") + (self._bonus(mod[1], "attack") if mod else 0)
        yield declare("attack", target=target, card=card[1].name, value=value)
        yield {"op": "move", "card": card[0], "to": f"p{me}.discard", "face_up": True}
        if mod is not None:
            yield {"op": "move", "card": mod[0], "to": f"p{me}.discard", "face_up": True}

    def _plays(self, view: SeatView, arena: ar.Arena) -> list[tuple[str, Any, float]]:
        me = view.seat
        hand = view.known(f"p{me}.hand")
        out: list[tuple[str, Any, float]] = []
        if view.count(f"p{me}.deck"):
            out.append(("draw", None, 0.5 if len(hand) < 4 else 0.05))
        mods = [(h, c) for h, c in hand if c.type == "Modifier" and self._bonus(c, "attack")]
        best_mod = max(mods, key=lambda o: self._bonus(o[1], "attack")) if mods else None
        for target in arena.targets(me):
            health = view.counter(f"p{target}.health")
            for handle, card in hand:
                if card.number("attack") <= 0:
                    continue
                self._note_text(card)
                atk = card.number("attack") + (self._bonus(best_mod[1], "attack")
                                               if best_mod else 0)
                score = 2.0 + atk - 0.1 * health + (5.0 if atk >= health + 2 else 0.0)
                out.append(("attack", (target, (handle, card), best_mod), score))
        health = view.counter(f"p{me}.health")
        attacked = any(e.declared() == "attack" for e in view.turn_log())
        for handle, card in hand if not attacked else ():  # a heal after an attack would
            heal = total(self.effects.get(card.id, ()), "play", "heal")
            if heal and card.number("attack") <= 0:  # share the attack's timing window
                out.append(("heal", (handle, card, heal),
                            1.0 + heal if health <= 20 - heal else 0.01))
        return out

    def _note_text(self, card: Card) -> None:
        """A card whose text says more than its numbers and the vocabulary: played for its
        numbers, listed as not resolved."""
        plain = card.text.strip().rstrip(".")
        if ((plain and not plain.startswith(("Attack for", "Defend for"))) or ";" in card.text \
                or " then " in card.text) and card.id not in self.effects:
            self._unresolved.add(card.id)

    def _moves(self, view: SeatView, arena: ar.Arena) -> list[tuple[str, Any, float]]:
        me = view.seat
        chosen = arena.chosen(me)
        budget = chosen.number("movement") if chosen is not None else 0
        reach = arena.reachable(me, budget)
        here = arena.cell(me)
        now = len(arena.targets(me))
        out: list[tuple[str, Any, float]] = []
        foes = [c for s, c in arena.board.standees.items() if s != me
                and view.counter(f"p{s}.health") > 0]
        for cell, path in reach.items():
            if cell == here or not path:
                continue
            there = len(arena.targets(me, cell))
            near = -min((max(abs(cell[0] - f[0]), abs(cell[1] - f[1])) for f in foes),
                        default=0) * 0.01
            score = (1.5 if there and not now else 0.0) + near
            out.append(("move", path, score))
        return out

    def card_worth(self, card: Card) -> float:
        return card.number("attack") + 0.8 * card.number("defense") + \
            total(self.effects.get(card.id, ()), "play", "heal") * 0.5


__all__ = ["Combat"]
