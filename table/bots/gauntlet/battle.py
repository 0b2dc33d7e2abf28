"""A Gauntlet battle as the bots fight it (§6): the attacker's and then the defender's part of
each step, each closed by a `battle-step` declaration of the seat whose part is done
(2 commit, 3 Battle Hand, 4 reveal, 9 result and cleanup); dice with net advantage, the winner
declared by the attacker (Defender's Advantage, the Last Stand's +1, an unbroken tie rerolled),
the loser's retreat or its being forced beyond, and the faction rules a battle triggers."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from table.bots.api import Decision, SeatView
from table.bots.effects import total
from table.bots.moves import declare, gain
from table.bots.moves import draw as draw_cards

from . import board as gb
from .board import Battle, other

if TYPE_CHECKING:
    from table.bots.choosing import Chooser

COMMIT, BATTLE_HAND, REVEAL, RESULT = 2, 3, 4, 9


class Battling:
    choose: Chooser
    effects: Any

    def _battle_turn(self, view: SeatView, b: Battle) -> int | None:
        raise NotImplementedError

    # -- the battle --------------------------------------------------------------------------
    def _battle(self, view: SeatView, b: Battle) -> Decision:
        me = view.seat
        if self._battle_turn(view, b) != me:
            return
        if (me, COMMIT) not in b.done:
            yield from self._commit(view, b)
            yield declare("battle-step", step=COMMIT)
        elif (me, BATTLE_HAND) not in b.done:
            yield from draw_cards(view, self._battle_hand_size(view, b),
                                  f"p{view.seat}.battle-hand")
            yield from self._choose(view, b)
            yield declare("battle-step", step=BATTLE_HAND)
        elif (me, REVEAL) not in b.done:
            for zone in ("commit", "battle-choice"):
                for handle in view.ids(f"p{me}.{zone}"):
                    yield {"op": "flip", "id": handle, "face_up": True}
            yield declare("battle-step", step=REVEAL)
        elif b.winner is None:
            yield from self._dice(view, b)
        elif (me, RESULT) not in b.done:
            yield from self._result(view, b)
            yield declare("battle-step", step=RESULT)
        else:
            yield declare("battle-close")
            if b.last_stand and b.winner == me == b.attacker:
                yield {"op": "mark", "what": "winner", "for_seat": me,
                       "fields": {"how": "gauntlet"}}
                yield {"op": "end", "winners": [me], "how": "victory",
                       "condition": "Ran the Gauntlet (won the Last Stand)"}

    def _battle_hand_size(self, view: SeatView, b: Battle) -> int:
        """The module's Battle Hand, and what the contested Territory adds (Whispering Wood:
        `battle: draw 1 battle-hand`)."""
        n = gb.positions(view)
        terr = gb.territory_id(view, b.pos) if gb.is_territory(b.pos, n) else None
        extra = sum(e.amount for e in self.effects.get(terr or "", ())
                    if e.when == "battle" and e.verb == "draw" and e.word == "battle-hand"
                    and e.applies(gb.battle_facts(view, b, view.seat)))
        return int(view.rule("battle_hand", 3)) + int(extra)

    def _bonus(self, view: SeatView, b: Battle, card_id: str) -> float:
        facts = gb.battle_facts(view, b, view.seat)
        effects = self.effects.get(card_id, ())
        return total(effects, "battle", "bonus", facts) + \
            1.5 * total(effects, "battle", "advantage", facts) + \
            1.0 * total(effects, "battle", "negate", facts)  # the opponent's choice, undone

    def _commit(self, view: SeatView, b: Battle) -> Decision:
        me = view.seat
        hand = view.known(f"p{me}.hand")
        # a committed card is lost for good (Graveyard): only a strong one, or in a Last Stand
        need = 0.0 if b.last_stand else 1.5
        choice = self.choose.maybe(hand, lambda o: self._bonus(view, b, o[1].id), need)
        if choice is not None:
            yield {"op": "move", "card": choice[0], "to": f"p{me}.commit"}

    def _choose(self, view: SeatView, b: Battle) -> Decision:
        me = view.seat
        cards = view.known(f"p{me}.battle-hand")
        choice = self.choose.maybe(cards, lambda o: self._bonus(view, b, o[1].id), -1.0)
        if choice is not None:
            yield {"op": "move", "card": choice[0], "to": f"p{me}.battle-choice"}

    def _used(self, view: SeatView, seat: int) -> list[str]:
        """The cards a side used that count: its commitment and its chosen card, unless the
        opponent's used cards negate the chosen one (Saboteur: `battle: negate 1`)."""
        def known(zone: str, who: int) -> list[str]:
            return [c for h in view.ids(f"p{who}.{zone}") if (c := view.card_id(h)) is not None]

        foe = [*known("commit", other(seat)), *known("battle-choice", other(seat))]
        negated = sum(total(self.effects.get(c, ()), "battle", "negate") for c in foe)
        chosen = known("battle-choice", seat)
        return known("commit", seat) + chosen[min(negated, len(chosen)):]

    def _dice(self, view: SeatView, b: Battle) -> Decision:
        me = view.seat
        a, d = b.attacker, b.defender
        if me == a and b.rolled(a) == b.rolled(d) and b.rolled(a) > 0:
            winner, totals = self._decide(view, b)
            if winner is not None:
                yield declare("battle-winner", winner=winner, attacker_total=totals[0],
                              defender_total=totals[1], attacker_die=totals[2],
                              defender_die=totals[3])
                return
        mine = gb.side(view, b, me, self._used(view, me), self.effects)
        net = mine.advantage
        if net and b.rolled(me) == 0:
            yield declare("net-advantage", seat=me, net=net)
        yield {"op": "roll", "id": f"p{me}.die", "count": 1 + abs(net)}

    def _decide(self, view: SeatView, b: Battle) -> tuple[int | None, tuple[int, int, int, int]]:
        a, d = b.attacker, b.defender
        sa = gb.side(view, b, a, self._used(view, a), self.effects)
        sd = gb.side(view, b, d, self._used(view, d), self.effects)
        da = _kept(b.rolls[a][-1], sa.advantage)
        dd = _kept(b.rolls[d][-1], sd.advantage)
        ta, td = da + sa.bonus, dd + sd.bonus
        if ta > td:
            return a, (ta, td, da, dd)
        if td > ta or b.last_stand or gb.controller(view, b.pos) == d:
            return d, (ta, td, da, dd)  # Defender's Advantage breaks a tie
        return None, (ta, td, da, dd)  # an unbroken tie: both reroll

    def _result(self, view: SeatView, b: Battle) -> Decision:
        me = view.seat
        n = gb.positions(view)
        faction = gb.faction(view, me)
        if b.winner == me and faction == "Military" and not self._gained(view, "command"):
            yield from gain(view, f"p{me}.command", 1)  # the first battle won each turn
        if b.winner != me and not (b.last_stand and me == b.defender):
            here = gb.position(view, me)
            if here is not None:
                to = here - gb.forward(me)
                yield {"op": "move", "id": f"p{me}.token", "to": gb.slot(to)}
                if me == b.defender and here == gb.final(me, n):
                    yield declare("forced-beyond", seat=me)
        terr = gb.territory_id(view, b.pos) if gb.is_territory(b.pos, n) else None
        to_discard = terr is not None and any(e.verb == "discard" and e.when == "battle"
                                              for e in self.effects.get(terr, ()))
        for handle in view.ids(f"p{me}.commit"):
            yield {"op": "move", "id": handle, "to": f"p{me}.{'discard' if to_discard else 'graveyard'}",
                   "face_up": True}
        # against the Inquisition a card used from a Battle Hand goes to the Graveyard
        condemned = gb.faction(view, other(me)) == "Inquisition"
        for handle in view.ids(f"p{me}.battle-choice"):
            yield {"op": "move", "id": handle,
                   "to": f"p{me}.{'graveyard' if condemned else 'discard'}", "face_up": True}
        for handle in view.ids(f"p{me}.battle-hand"):
            yield {"op": "move", "id": handle, "to": f"p{me}.discard", "face_up": True}
        if faction == "Inquisition" and not self._gained(view, "conviction") and \
                self._condemned_this_battle(view, b):
            yield from gain(view, f"p{me}.conviction", 1)

    def _gained(self, view: SeatView, tracker: str) -> bool:
        """Whether this seat's tracker already rose this turn (a once-per-turn gain)."""
        counter = f"p{view.seat}.{tracker}"
        start = view.turn_log()[0].index if view.turn_log() else 0
        return any(e.kind == "counter" and e.args.get("id") == counter and
                   int(e.args.get("add", 0) or 0) > 0 for e in view.log(start))

    def _condemned_this_battle(self, view: SeatView, b: Battle) -> bool:
        """Whether an opposing card entered a Graveyard in this battle."""
        grave = f"p{other(view.seat)}.graveyard"
        return any(e.kind == "move" and e.args.get("to") == grave
                   for e in view.log(b.open_index))


def result_order(view: SeatView, b: Battle) -> tuple[int, int]:
    """Who resolves its result and cleanup first: the Inquisition's side last, so its
    Conviction follows the opposing cards into the Graveyard."""
    a, d = b.attacker, b.defender
    if gb.faction(view, a) == "Inquisition" and gb.faction(view, d) != "Inquisition":
        return d, a
    return a, d


def _kept(values: list[int], advantage: int) -> int:
    if not values:
        return 0
    return max(values) if advantage >= 0 else min(values)


__all__ = ["BATTLE_HAND", "COMMIT", "RESULT", "REVEAL", "Battling", "result_order"]
