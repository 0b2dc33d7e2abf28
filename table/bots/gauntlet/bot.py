"""A Gauntlet player: a whole turn by the rulebook (Capture, Draw, an Action Opportunity,
Movement with its battles, Cleanup), its part of every battle (commit, Battle Hand, reveal,
dice, result, cleanup) and the Last Stand that ends the game. Two strengths share this code:
`random` takes any legal option, `heuristic` plays to run the Gauntlet."""
from __future__ import annotations

from typing import Any

from table.bots.api import Decision, SeatView
from table.bots.choosing import ChoosingBot
from table.bots.effects import Effect, total
from table.bots.moves import declare, gain, mark_phase
from table.bots.moves import draw as draw_cards

from . import board as gb
from .battle import BATTLE_HAND, COMMIT, RESULT, REVEAL, Battling, result_order
from .board import Battle, other

STEPS = ("Capture", "Draw", "Action (before)", "Movement", "Action (after)", "Cleanup")


class GauntletBot(Battling, ChoosingBot):
    game = "gauntlet"
    heuristic = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._forced: dict[int, bool] = {1: False, 2: False}
        self._followed = 0

    # -- when the table waits for this seat ---------------------------------------------------
    def wants_to_act(self, view: SeatView) -> bool:
        if view.ended:
            return False
        b = gb.open_battle(view)
        if b is not None:
            return self._battle_turn(view, b) == view.seat
        steps = list(view.rule("phases", STEPS))
        if view.phase == steps[-1]:  # the end of a turn: every seat's upkeep, then it passes
            if self._excess_capital(view, view.seat):
                return True
            if view.turn_seat == view.seat and self._excess_capital(view, other(view.seat)):
                return False
        return view.turn_seat == view.seat

    def waiting_for(self, view: SeatView) -> tuple[int, str] | None:
        if view.ended:
            return None
        b = gb.open_battle(view)
        if b is None:
            return super().waiting_for(view)
        seat = self._battle_turn(view, b)
        if seat is None:
            return None
        step = next((n for n in (COMMIT, BATTLE_HAND, REVEAL) if (seat, n) not in b.done), None)
        if step is None:
            return seat, ("to roll the battle die" if b.winner is None else
                          "to resolve the battle's result and clean up, then Declare: Battle "
                          "step 9")
        what = {COMMIT: "to commit a card from hand face down (or not)",
                BATTLE_HAND: "to form the Battle Hand and choose a card (or not)",
                REVEAL: "to reveal the battle's cards"}[step]
        return seat, f"{what}, then Declare: Battle step {step}"

    def _excess_capital(self, view: SeatView, seat: int) -> int:
        """Capital over the Financier's limit (Territories controlled + Treasury value), cut at
        the end of every turn (§13)."""
        counter = f"p{seat}.capital"
        if not view.exists(counter):
            return 0
        n = gb.positions(view)
        limit = sum(1 for pos in range(n) if gb.controller(view, pos) == seat)
        limit += sum(c.number("value") for _, c in view.known(f"p{seat}.treasury"))
        return max(0, view.counter(counter) - limit)

    def _battle_turn(self, view: SeatView, b: Battle) -> int | None:
        """Whose part of the battle comes next."""
        a, d = b.attacker, b.defender
        for step in (COMMIT, BATTLE_HAND, REVEAL):
            for seat in (a, d):
                if (seat, step) not in b.done:
                    return seat
        if b.winner is None:
            if b.rolled(a) <= b.rolled(d):
                return a  # the attacker rolls first, a tie's reroll too, then declares
            return d
        for seat in result_order(view, b):
            if (seat, RESULT) not in b.done:
                return seat
        return a  # closes the battle

    # -- acting ------------------------------------------------------------------------------
    def act(self, view: SeatView) -> Decision:
        self._follow(view)
        b = gb.open_battle(view)
        if b is not None:
            yield from self._battle(view, b)
            return
        excess = self._excess_capital(view, view.seat)
        if excess and view.phase == list(view.rule("phases", STEPS))[-1]:
            yield {"op": "counter", "id": f"p{view.seat}.capital", "add": -excess}
            return
        if view.turn_seat != view.seat:
            return
        yield from self._turn(view)

    def _follow(self, view: SeatView) -> None:
        """Keep up with who was forced beyond the Gauntlet (a Last Stand needs it): a player
        leaves the Gauntlet past its own end only by losing a battle (no one withdraws beyond
        it), so every move of a token onto its off-column position after the setup is one, a
        counterattack lost from there as much as a final Territory lost."""
        n = gb.positions(view)
        for e in view.log(self._followed):
            if e.declared() == "forced-beyond" and isinstance(e.fields.get("seat"), int):
                self._forced[int(e.fields["seat"])] = True
            elif e.kind == "move" and str(e.args.get("id", "")).endswith(".token"):
                seat = int(str(e.args["id"])[1:].split(".")[0])
                if seat in self._forced:
                    to = str(e.args.get("to", ""))
                    self._forced[seat] = to == gb.slot(gb.start(seat, n))
        self._followed = view.log_size()

    def _turn(self, view: SeatView) -> Decision:
        me = view.seat
        phase = view.phase
        steps = list(view.rule("phases", STEPS))
        index = steps.index(phase) if phase in steps else -1
        if index <= 0:  # Capture may be set by the End turn before: its work is still ours
            if phase != steps[0]:
                yield mark_phase(steps[0])
            yield from self._capture(view)  # (nothing to do twice: a capture is done once)
            if view.ended:
                return
            index = 0
        if index == 0:
            yield mark_phase(steps[1])
            yield from self._draw(view, "hand", int(view.rule("draw_per_turn", 1)))
            index = 1
        if index == 1:
            yield mark_phase(steps[2])
            yield from self._action(view)
            index = 2
        if index == 2:
            yield mark_phase(steps[3])
            yield from self._move(view)
            if gb.open_battle(view) is not None or view.ended:
                return  # the battle goes on; this turn resumes after it
            index = 3
        if index == 3:
            yield mark_phase(steps[4])
            if not self._ao_used(view):
                yield from self._action(view)
            index = 4
        if index == 4:
            yield mark_phase(steps[5])
            yield from self._cleanup(view)
            return  # upkeep (Capital to its limit) may follow, then the turn passes
        if index == 5 and not self._excess_capital(view, other(me)):
            yield {"op": "end_turn", "for_seat": other(me)}

    # -- steps -------------------------------------------------------------------------------
    def _capture(self, view: SeatView) -> Decision:
        me = view.seat
        pos = gb.position(view, me)
        n = gb.positions(view)
        if pos is not None and gb.is_territory(pos, n) and gb.controller(view, pos) != me:
            card = gb.territory(view, pos)
            facing = view.rule("facing", [0, 180])
            yield {"op": "rotate", "id": card, "degrees": int(facing[me - 1])}

    def _draw(self, view: SeatView, to: str, count: int) -> Decision:
        """Draw; a Draw Pile that cannot complete the draw takes the Discard Pile, shuffled,
        and the draw goes on (§4.2)."""
        yield from draw_cards(view, count, f"p{view.seat}.{to}")

    def _ao_used(self, view: SeatView) -> bool:
        return any(e.declared() == "action-card" and e.seat == view.seat
                   for e in view.turn_log())

    def _action(self, view: SeatView) -> Decision:
        """The Action Opportunity: play one card for its Action effect, or not."""
        me = view.seat
        options = [(h, c) for h, c in view.known(f"p{me}.hand")
                   if self._action_effects(c.id)]
        choice = self.choose.maybe(options, lambda o: self._action_value(view, o[1].id))
        if choice is None:
            return
        handle, card = choice
        yield declare("action-card", card=handle)
        effects = self._action_effects(card.id)
        asset = any(e.verb == "bank" for e in effects)
        yield {"op": "move", "card": handle, "to": f"p{me}.{'assets' if asset else 'discard'}",
               "face_up": True}
        for e in effects:
            if e.verb == "draw":
                yield from self._draw(view, "hand", e.amount)
            elif e.verb in ("gain", "lose"):
                yield from gain(view, f"p{me}.{e.word}", e.amount if e.verb == "gain"
                                else -e.amount)

    def _action_effects(self, card_id: str) -> list[Effect]:
        """The Action effects this bot resolves (draws, trackers); others it leaves."""
        effects = [e for e in self.effects.get(card_id, ()) if e.when == "action"]
        done = [e for e in effects if e.verb in ("draw", "gain", "lose")]
        if len(done) != len(effects):
            self._unresolved.add(card_id)
            return []
        return done

    def _action_value(self, view: SeatView, card_id: str) -> float:
        effects = self._action_effects(card_id)
        value = float(sum(e.amount for e in effects if e.verb == "draw"))
        value += 0.5 * sum(e.amount for e in effects if e.verb == "gain")
        # a card that is strong in battle is worth more kept in hand
        value -= 0.5 * max(0, total(self.effects.get(card_id, ()), "battle", "bonus",
                                    ("attacker", "initiated")) - 1)
        return value

    def _move(self, view: SeatView) -> Decision:
        me, opp = view.seat, other(view.seat)
        n = gb.positions(view)
        here, there = gb.position(view, me), gb.position(view, opp)
        if here is None or there is None:
            return
        ahead = here + gb.forward(me)
        back = here - gb.forward(me)
        options: list[tuple[str, int]] = [("hold", here)]
        last_stand = ahead == gb.start(opp, n) == there and self._forced.get(opp, False) \
            and gb.controller(view, gb.final(opp, n)) == me
        if 0 <= ahead < n and (ahead != gb.start(opp, n) or last_stand) and \
                (ahead != there or gb.is_territory(ahead, n) or last_stand):
            options.append(("advance", ahead))
        terr = gb.territory_id(view, here) if gb.is_territory(here, n) else None
        no_withdraw = terr is not None and any(
            e.verb == "move" and e.amount == 0 for e in self.effects.get(terr, ()))
        if gb.is_territory(back, n) and back != there and not no_withdraw:
            options.append(("withdraw", back))
        kind, to = self.choose.pick(options, lambda o: self._move_value(view, o, there))
        if kind == "hold":
            return
        yield {"op": "move", "id": f"p{me}.token", "to": gb.slot(to)}
        if to == there:
            fields: dict[str, Any] = {"attacker": me, "defender": opp, "position": f"P{to}"}
            if last_stand:
                fields["last_stand"] = True
            yield declare("battle-open", **fields)

    def _move_value(self, view: SeatView, option: tuple[str, int], there: int) -> float:
        kind, to = option
        if kind == "advance":
            if to != there:
                return 2.0
            return 1.0 + 0.5 * self._best_bonus(view, "attacker") - 0.5 * (to == there and
                                                                            False)
        return 0.5 if kind == "hold" else 0.0

    def _best_bonus(self, view: SeatView, role: str) -> int:
        facts = {role} | ({"initiated"} if role == "attacker" else set())
        return max((total(self.effects.get(c.id, ()), "battle", "bonus", facts)
                    for _, c in view.known(f"p{view.seat}.hand")), default=0)

    def _cleanup(self, view: SeatView) -> Decision:
        me = view.seat
        limit = int(view.rule("hand_limit", 3))
        while view.count(f"p{me}.hand") > limit:
            hand = view.known(f"p{me}.hand")
            handle, _ = self.choose.pick(hand, lambda o: -self._keep_value(o[1].id))
            yield {"op": "move", "card": handle, "to": f"p{me}.discard", "face_up": True}

    def _keep_value(self, card_id: str) -> float:
        effects = self.effects.get(card_id, ())
        return float(max(total(effects, "battle", "bonus", ("attacker", "initiated")),
                   total(effects, "battle", "bonus", ("defender", "controlled"))) + \
            total(effects, "battle", "advantage", ()) * 2 + \
            0.5 * sum(e.amount for e in effects if e.when == "action" and e.verb == "draw"))



class RandomGauntletBot(GauntletBot):
    name = "gauntlet-random"
    strength = "random"
    heuristic = False


class HeuristicGauntletBot(GauntletBot):
    name = "gauntlet-heuristic"
    strength = "heuristic"
    heuristic = True


__all__ = ["GauntletBot", "HeuristicGauntletBot", "RandomGauntletBot"]
