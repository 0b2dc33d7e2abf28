"""A Dead to Rites player: Dawn (ready, Favor, draw), Main (Champions and Rituals paid from
Favor), Combat (attacks declared at once, engaged, fought, struck back), the Rite on the Altar
against the others' Defense Pool, and Dusk (damage clears); off its turn, its strike-backs,
its commits to another's Defense Pool, its Crowning draw and its own Dusk clearing. A resolved
Step 5 wins. `random` takes any legal option, `heuristic` races the Ritual and blocks the leader.
"""
from __future__ import annotations

from typing import Any

from table.bots.api import Decision, SeatView
from table.bots.choosing import ChoosingBot
from table.bots.effects import total
from table.bots.moves import begun, declare, draw, gain, mark_phase

from . import table_read as tr
from .fights import Fights
from .ritual import Ritual


class DeadToRitesBot(Fights, Ritual, ChoosingBot):
    game = "dead-to-rites"
    heuristic = True

    # -- when the table waits for this seat ---------------------------------------------------
    def wants_to_act(self, view: SeatView) -> bool:
        return not view.ended and self._prompt(view) == view.seat

    def _prompt(self, view: SeatView) -> int | None:
        """The seat the table waits for now."""
        waited = self._awaited(view)
        return waited[0] if waited is not None else None

    def waiting_for(self, view: SeatView) -> tuple[int, str] | None:
        return None if view.ended else self._awaited(view)

    def _awaited(self, view: SeatView) -> tuple[int, str] | None:
        """The seat the table waits for now, and what for."""
        active = view.turn_seat
        if active is None:
            return None
        phase = view.phase
        if phase == "Combat":
            seat = self.combat_prompt(view, active)
            if seat is not None:
                return seat, self.combat_reason(view, seat)
        if phase == "Rite":
            r = tr.rite_round(view)
            if r is not None:
                seat = self.rite_prompt(view, r)
                return seat, self.rite_reason(view, r, seat)
        if phase == "Dusk":
            for seat in [active, *tr.clockwise(view, active)]:
                if self._to_clear(view, seat):
                    return seat, "to clear the damage on their Champions (Dusk)"
        return active, "to play the turn"

    # -- acting ------------------------------------------------------------------------------
    def act(self, view: SeatView) -> Decision:
        me, active = view.seat, view.turn_seat
        if self._prompt(view) != me or active is None:
            return
        phase = view.phase
        if phase == "Combat" and self.combat_prompt(view, active) == me and \
                (me != active or self.fights_open(view)):
            yield from self.respond_combat(view)
        elif phase == "Rite" and tr.rite_round(view) is not None:
            yield from self.rite_part(view, tr.rite_round(view))  # type: ignore[arg-type]
        elif phase == "Dusk" and me != active:
            yield from self._clear(view)
        else:
            yield from self._turn(view)

    def _turn(self, view: SeatView) -> Decision:
        me = view.seat
        phase = view.phase
        index = tr.PHASES.index(phase) if phase in tr.PHASES else -1
        if index < 0 or (index == 0 and not begun(view)):  # Dawn set by the End turn before
            if index < 0:
                yield mark_phase("Dawn")
            yield from self._dawn(view)
            index = 0
        if index == 0:
            yield mark_phase("Main")
            yield from self._main(view)
            index = 1
        if index == 1:
            yield mark_phase("Combat")
            yield from self.attack(view)
            if self.combat_prompt(view, me) not in (None, me) or self.fights_open(view):
                return  # strike-backs and destructions first
            index = 2
        if index == 2:
            yield from self.rewards(view)
            yield mark_phase("Rite")
            yield from self.place_rite(view)
            if tr.rite_round(view) is not None or view.ended:
                return  # the others respond
            index = 3
        if index == 3:
            yield mark_phase("Dusk")
            yield from self._clear(view)
            return  # each player clears its own Champions, then the turn passes
        if index == 4:
            seats = view.seats
            yield {"op": "end_turn", "for_seat": seats[(seats.index(me) + 1) % len(seats)]}

    def _dawn(self, view: SeatView) -> Decision:
        me = view.seat
        for handle, _ in tr.champions(view, me):
            if not tr.ready(view, handle):
                yield {"op": "rotate", "id": handle, "degrees": 0}
        yield from gain(view, f"p{me}.favor", int(view.rule("dawn_favor", 2)))
        yield from draw(view, int(view.rule("dawn_draw", 1)))

    def _main(self, view: SeatView) -> Decision:
        """Champions and Rituals from hand, each paid from Favor; the heuristic keeps what its
        Rite this turn will cost."""
        me = view.seat
        while True:
            budget = tr.favor(view, me) - self.rite_reserve(view)
            options = [(h, c) for h, c in view.known(f"p{me}.hand")
                       if self._playable(view, c) and c.number("cost") <= budget]
            choice = self.choose.maybe(options, lambda o: self._play_value(view, o[1]))
            if choice is None:
                return
            handle, card = choice
            cost = card.number("cost")
            if cost:
                yield {"op": "counter", "id": f"p{me}.favor", "add": -cost}
            to = "play" if card.type == "Champion" else "discard"
            yield {"op": "move", "card": handle, "to": f"p{me}.{to}", "face_up": True}
            for e in self.effects.get(card.id, ()):
                if e.when == "play" and e.verb == "gain":
                    yield from gain(view, f"p{me}.{e.word}", e.amount)

    def _playable(self, view: SeatView, card: Any) -> bool:
        if card.type == "Champion":
            # one Ace of a name in play
            return not (card.flag("ace") and any(c.name == card.name
                                                 for _, c in tr.champions(view, view.seat)))
        if card.type == "Ritual":
            effects = [e for e in self.effects.get(card.id, ()) if e.when == "play"]
            if not effects or any(e.verb != "gain" for e in effects):
                self._unresolved.add(card.id)
                return False
            return True
        return False

    def _play_value(self, view: SeatView, card: Any) -> float:
        if card.type == "Ritual":
            net = total(self.effects.get(card.id, ()), "play", "gain") - card.number("cost")
            return float(net)
        return 1.0 + float(card.number("power") + card.number("guard")) * 0.5

    def _to_clear(self, view: SeatView, seat: int) -> bool:
        """Whether a seat's Champions still carry damage that clears at Dusk."""
        return any(view.counter(h, "damage") for h, _ in tr.champions(view, seat))

    def _clear(self, view: SeatView) -> Decision:
        for handle, _ in tr.champions(view, view.seat):
            if view.counter(handle, "damage"):
                yield {"op": "counter", "id": handle, "key": "damage", "value": 0}


class RandomDeadToRitesBot(DeadToRitesBot):
    name = "dead-to-rites-random"
    strength = "random"
    heuristic = False


class HeuristicDeadToRitesBot(DeadToRitesBot):
    name = "dead-to-rites-heuristic"
    strength = "heuristic"
    heuristic = True


__all__ = ["DeadToRitesBot", "HeuristicDeadToRitesBot", "RandomDeadToRitesBot", "declare"]
