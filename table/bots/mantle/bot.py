"""A Mantle of the Keeper player: the arena's Hazards and its Chosen placed at the start, then
each turn Income (1 Favor, 1 card), an Action Phase of two actions (attack a Nearby opponent,
heal, draw) and one free movement, End of turn (discard to 6 for Favor); off its turn, its
defense against each attack and leaving the arena at 0 Health. The last Chosen standing wins.
`random` takes any legal option, `heuristic` hunts the weakest opponent it can reach."""
from __future__ import annotations

from table.bots.api import Decision, SeatView
from table.bots.choosing import ChoosingBot
from table.bots.moves import begun, declare, gain, mark_phase, refill

from . import arena as ar
from .combat import Combat
from .setup import Placing

PHASES = ("Income", "Action", "End of turn")


class MantleBot(Combat, Placing, ChoosingBot):
    game = "mantle-of-the-keeper"
    heuristic = True

    def wants_to_act(self, view: SeatView) -> bool:
        return not view.ended and self._prompt(view) == view.seat

    def _prompt(self, view: SeatView) -> int | None:
        seat = self.placing_prompt(view)
        if seat is not None:
            return seat
        seat = self.combat_prompt(view)
        if seat is not None:
            return seat
        for s in view.seats:  # a Chosen at 0 Health leaves the arena before play goes on
            if view.counter(f"p{s}.health") <= 0 and view.place(f"p{s}.standee")[0] == ar.ARENA:
                return s
        return view.turn_seat

    def waiting_for(self, view: SeatView) -> tuple[int, str] | None:
        seat = None if view.ended else self._prompt(view)
        if seat is None:
            return None
        if self.placing_prompt(view) == seat:
            return seat, "to place a Hazard or their Chosen in the arena"
        if view.counter(f"p{seat}.health") <= 0:
            return seat, "to take their Chosen out of the arena"
        if self.combat_prompt(view) == seat and view.turn_seat != seat:
            return seat, "to defend (a card with a defense value) or pass (Declare: Pass)"
        return seat, "to play the turn"

    def act(self, view: SeatView) -> Decision:
        me = view.seat
        if self._prompt(view) != me:
            return
        if self.placing_prompt(view) == me:
            yield from self.place(view)
        elif view.counter(f"p{me}.health") <= 0:
            yield {"op": "move", "id": f"p{me}.standee", "to": f"p{me}.accessories"}
            yield declare("elimination", seat=me)
        elif self.combat_prompt(view) == me:
            yield from self.respond(view)
        elif view.turn_seat == me:
            yield from self._turn(view)
        yield from self._keep_deck(view)

    def _living(self, view: SeatView) -> list[int]:
        return [s for s in view.seats if view.counter(f"p{s}.health") > 0]

    def _turn(self, view: SeatView) -> Decision:
        me = view.seat
        living = self._living(view)
        if len(living) <= 1:
            if living == [me]:
                yield {"op": "mark", "what": "winner", "for_seat": me}
                yield {"op": "end", "winners": [me], "how": "victory",
                       "condition": "Last Chosen remaining"}
            return
        phase = view.phase
        if phase not in PHASES or (phase == PHASES[0] and not begun(view)):
            if phase != PHASES[0]:  # else the End turn before set it
                yield mark_phase("Income")
            yield from gain(view, f"p{me}.favor", int(view.rule("income_favor", 1)))
            yield from self._draw(view, int(view.rule("income_draw", 1)))
            yield mark_phase("Action")
            phase = "Action"
        if phase == "Action":
            done = yield from self.actions(view)
            if not done:
                return  # an attack waits for its defense
            yield mark_phase("End of turn")
            phase = "End of turn"
        if phase == "End of turn":
            yield from self._discard_to_limit(view)
            yield from self._keep_deck(view)
            nxt = self._next_seat(view)
            yield {"op": "end_turn", "for_seat": nxt}

    def _next_seat(self, view: SeatView) -> int:
        seats, me = view.seats, view.seat
        i = seats.index(me)
        for k in range(1, len(seats) + 1):
            s = seats[(i + k) % len(seats)]
            if view.counter(f"p{s}.health") > 0:
                return s
        return me

    def _draw(self, view: SeatView, count: int) -> Decision:
        """Draw; an emptied Draw Pile is formed again from the Discard Pile at once."""
        me = view.seat
        for _ in range(count):
            if not view.count(f"p{me}.deck"):
                return
            yield {"op": "draw", "from": f"p{me}.deck", "to": f"p{me}.hand", "count": 1}
            yield from self._keep_deck(view)

    def _keep_deck(self, view: SeatView) -> Decision:
        me = view.seat
        if not view.count(f"p{me}.deck") and view.count(f"p{me}.discard") and \
                view.counter(f"p{me}.health") > 0:
            yield from refill(view)

    def _discard_to_limit(self, view: SeatView) -> Decision:
        me = view.seat
        limit = int(view.rule("hand_limit", 6))
        dropped = 0
        while view.count(f"p{me}.hand") > limit:
            hand = view.known(f"p{me}.hand")
            handle, _ = self.choose.pick(hand, lambda o: -self.card_worth(o[1]))
            yield {"op": "move", "card": handle, "to": f"p{me}.discard", "face_up": True}
            dropped += 1
        if dropped:
            yield from gain(view, f"p{me}.favor",
                            dropped * int(view.rule("favor_per_hand_limit_discard", 1)))


class RandomMantleBot(MantleBot):
    name = "mantle-of-the-keeper-random"
    strength = "random"
    heuristic = False


class HeuristicMantleBot(MantleBot):
    name = "mantle-of-the-keeper-heuristic"
    strength = "heuristic"
    heuristic = True


__all__ = ["HeuristicMantleBot", "MantleBot", "RandomMantleBot"]
