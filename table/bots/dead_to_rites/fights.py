"""Combat in Dead to Rites, as bots play it: the active player declares every attack at once,
engages its attackers and deals each target its attackers' total Power; each target's player
strikes back at one attacker; each player puts its destroyed Champions in its discard pile; a
Cutpurse that helped destroy a Champion gains its Favor."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from table.bots.api import Decision, LogEntry, SeatView
from table.bots.moves import declare, gain

from . import table_read as tr

if TYPE_CHECKING:
    from table.bots.choosing import Chooser


class Fights:
    choose: Chooser
    effects: Any  # Mapping[str, list[Effect]]

    # -- reading the fights of this turn ----------------------------------------------------
    def _declared(self, view: SeatView, name: str) -> list[LogEntry]:
        log = view.turn_log()
        start = next((e.index for e in log if e.kind == "mark" and e.args.get("what") == "phase"
                      and e.args.get("value") == "Combat"), None)
        if start is None:
            return []
        return [e for e in log if e.index > start and e.declared() == name]

    def combat_prompt(self, view: SeatView, active: int) -> int | None:
        """Whose part of the fights comes next: a target's strike-back, then the owners of
        destroyed Champions, clockwise from the active player."""
        striking = self._to_strike_back(view)
        if striking:
            return striking[0]
        for seat in [active, *tr.clockwise(view, active)]:
            if self._destroyed(view, seat):
                return seat
        return None

    def _to_strike_back(self, view: SeatView) -> list[int]:
        """The owners of attacked Champions still in play that have not struck back, in the
        order the attacks were declared."""
        struck = {str(e.fields.get("target")) for e in self._declared(view, "strike-back")}
        out = []
        for e in self._declared(view, "attack"):
            target = str(e.fields.get("target"))
            owner = view.owner(target)
            if target not in struck and owner is not None and view.exists(target) and \
                    view.place(target)[0] == f"p{owner}.play":
                out.append(owner)
        return out

    def combat_reason(self, view: SeatView, seat: int) -> str:
        """What the fights wait for from `seat` (combat_prompt's answer)."""
        if seat in self._to_strike_back(view):
            return "to strike back with their attacked Champion (Declare: Strike back)"
        return "to put their destroyed Champions in their discard pile"

    def fights_open(self, view: SeatView) -> bool:
        return bool(self._destroyed(view, view.seat))

    def _destroyed(self, view: SeatView, seat: int) -> list[str]:
        return [h for h, c in tr.champions(view, seat) if tr.damage(view, h) >= c.number("guard")]

    # -- the active player's attacks ---------------------------------------------------------
    def attack(self, view: SeatView) -> Decision:
        me = view.seat
        entered = {str(e.args.get("id")) for e in view.log(view.turn_log()[0].index)
                   if e.kind == "move"} if view.turn_log() else set()
        attackers = [(h, c) for h, c in tr.champions(view, me) if tr.ready(view, h)
                     and not c.flag("cant_attack") and (h not in entered or c.flag("haste"))]
        targets = [(h, c) for s in tr.clockwise(view, me) for h, c in tr.champions(view, s)]
        if not attackers or not targets:
            return
        plan: list[tuple[str, Any, str, Any]] = []
        for handle, card in attackers:
            def value(t: tuple[str, Any], c: Any = card) -> float:
                return self._attack_value(view, c, t)

            pick = self.choose.maybe(targets, value)
            if pick is not None:
                plan.append((handle, card, pick[0], pick[1]))
        for handle, _, target, _ in plan:
            yield declare("attack", attacker=handle, target=target)
        for handle, _, _, _ in plan:
            yield {"op": "rotate", "id": handle, "degrees": 90}
        for target in dict.fromkeys(t for _, _, t, _ in plan):
            group = [c for _, c, t, _ in plan if t == target]
            plain = sum(c.number("power") for c in group if not c.flag("poison"))
            poison = sum(c.number("power") for c in group if c.flag("poison"))
            if plain:
                yield {"op": "counter", "id": target, "key": "damage", "add": plain}
            if poison:
                yield {"op": "counter", "id": target, "key": "poison-damage", "add": poison}

    def _attack_value(self, view: SeatView, card: Any, target: tuple[str, Any]) -> float:
        handle, foe = target
        left = foe.number("guard") - tr.damage(view, handle)
        kills = card.number("power") >= left
        dies = foe.number("power") >= card.number("guard")
        owner = view.owner(handle) or 0
        leader = tr.step(view, owner) >= max(tr.step(view, s) for s in view.seats)
        value = (3.0 + foe.number("cost") if kills else 0.0) - (2.0 + card.number("cost")
                                                                 if dies else 0.0)
        value += 1.0 if leader and kills else 0.0
        value -= 1.5 if self._rite_soon(view) else 0.0  # an engaged Champion adds no Ward
        return value

    def _rite_soon(self, view: SeatView) -> bool:
        nxt = tr.next_rite(view, view.seat)
        return nxt is not None and tr.favor(view, view.seat) >= tr.rite_cost(view, view.seat,
                                                                              nxt[1])

    def rewards(self, view: SeatView) -> Decision:
        """A Champion that destroys another gains what its `destroys:` effect states."""
        me = view.seat
        gone = {str(e.args.get("id")) for e in view.log(view.turn_log()[0].index)
                if e.kind == "move" and str(e.args.get("to", "")).endswith(".discard")} \
            if view.turn_log() else set()
        for e in self._declared(view, "attack"):
            if str(e.fields.get("target")) not in gone:
                continue
            card = view.card(str(e.fields.get("attacker")))
            for effect in self.effects.get(card.id if card else "", ()):
                if effect.when == "destroys" and effect.verb == "gain":
                    yield from gain(view, f"p{me}.{effect.word}", effect.amount)

    # -- the others' part --------------------------------------------------------------------
    def respond_combat(self, view: SeatView) -> Decision:
        struck = {str(e.fields.get("target")) for e in self._declared(view, "strike-back")}
        mine = [e for e in self._declared(view, "attack")
                if view.owner(str(e.fields.get("target"))) == view.seat
                and str(e.fields.get("target")) not in struck]
        if mine:
            yield from self._strike_back(view, mine)
            return
        for handle in self._destroyed(view, view.seat):
            yield {"op": "counter", "id": handle, "key": "damage", "value": 0}
            yield {"op": "move", "id": handle, "to": f"p{view.seat}.discard", "face_up": True}

    def _strike_back(self, view: SeatView, attacks: list[LogEntry]) -> Decision:
        target = str(attacks[0].fields.get("target"))
        card = view.card(target)
        attackers = [str(e.fields.get("attacker")) for e in attacks
                     if str(e.fields.get("target")) == target]
        if card is None:
            return
        power = card.number("power")

        def value(handle: str) -> float:
            foe = view.card(handle)
            if foe is None:
                return 0.0
            kills = power >= foe.number("guard") - tr.damage(view, handle)
            return (10.0 if kills else 0.0) + foe.number("cost")

        hit = self.choose.pick(attackers, value)
        yield declare("strike-back", target=target, attacker=hit)
        if power:
            key = "poison-damage" if card.flag("poison") else "damage"
            yield {"op": "counter", "id": hit, "key": key, "add": power}


__all__ = ["Fights"]
