"""The Ritual track as bots play it: the active player pays its next Rite's cost (+1 alone in
the lead) and puts it on the Altar with its Ward; on Step 4 or 5 every other player draws one
(Crowning); clockwise from its left each opponent commits cards face down (or Interrupts face
up) to the Defense Pool, or passes; the committers reveal and discard their cards; then the
Rite is blocked (back on its stack, 2 Favor, 2 or 3 cards) or resolves (Completed pile, step
+1); Step 5 resolved wins the game."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from table.bots.api import Decision, SeatView
from table.bots.effects import total
from table.bots.moves import declare, draw, gain

from . import table_read as tr
from .table_read import ALTAR, POOL, RiteRound

if TYPE_CHECKING:
    from table.bots.choosing import Chooser


class Ritual:
    choose: Chooser
    effects: Any
    heuristic: bool

    def _rule(self, action: str, **names: float) -> bool | None:
        """What the strategy file says of an action here (None: no rule, the bot decides)."""
        strategy = getattr(self, "strategy", None)
        return strategy.allows(action, **names) if strategy is not None and self.heuristic \
            else None

    # -- the active player's Rite ------------------------------------------------------------
    def rite_reserve(self, view: SeatView) -> int:
        """Favor the heuristic keeps in Main for this turn's Rite."""
        nxt = tr.next_rite(view, view.seat)
        if not self.heuristic or nxt is None:
            return 0
        cost = tr.rite_cost(view, view.seat, nxt[1])
        cap = view.prop(f"p{view.seat}.favor", "max")
        if isinstance(cap, int) and cost > cap:
            return 0  # out of reach whatever is kept
        return cost  # saved up, turn after turn, until the Rite can go on the Altar

    def place_rite(self, view: SeatView) -> Decision:
        me = view.seat
        nxt = tr.next_rite(view, me)
        if nxt is None:
            return
        handle, rite = nxt
        cost = tr.rite_cost(view, me, rite)
        if tr.favor(view, me) < cost:
            return
        rule = self._rule("rite", favor=tr.favor(view, me), cost=cost, step=tr.step(view, me),
                          ward=tr.ward(view, me, rite), hand=view.count(f"p{me}.hand"))
        if rule is False or self.choose.maybe([nxt], lambda o: 1.0) is None:
            return
        yield {"op": "counter", "id": f"p{me}.favor", "add": -cost}
        yield {"op": "move", "id": handle, "to": ALTAR}
        yield declare("ward", ward=tr.ward(view, me, rite))

    # -- whose part of the round comes next ---------------------------------------------------
    def rite_prompt(self, view: SeatView, r: RiteRound) -> int:
        others = tr.clockwise(view, r.owner)
        if self._crowning(view, r):
            for seat in others:
                if not self._crowned(view, r, seat):
                    return seat
        for seat in others:
            if seat not in r.passed:
                return seat
        for seat in others:
            if any(view.owner(h) == seat for h in view.ids(POOL)):
                return seat
        return r.owner

    def rite_reason(self, view: SeatView, r: RiteRound, seat: int) -> str:
        """What the Rite on the Altar waits for from `seat` (rite_prompt's answer)."""
        if seat == r.owner:
            return "to resolve or block their Rite against the Defense Pool"
        if self._crowning(view, r) and not self._crowned(view, r, seat):
            return "to draw 1 card for the Crowning"
        if seat not in r.passed:
            return ("to commit cards face down to the Defense Pool, then pass (Declare: Pass)")
        return "to reveal their committed cards and put them in their discard pile"

    def _crowning(self, view: SeatView, r: RiteRound) -> bool:
        return r.card.number("step") >= 4

    def _crowned(self, view: SeatView, r: RiteRound, seat: int) -> bool:
        """Whether a seat drew its Crowning card (or has none left to draw)."""
        if not view.count(f"p{seat}.deck") and not view.count(f"p{seat}.discard"):
            return True
        hand = f"p{seat}.hand"
        return any(e.seat == seat and e.args.get("to") == hand and e.kind != "mark"
                   for e in view.log(r.placed))

    def rite_part(self, view: SeatView, r: RiteRound) -> Decision:
        me = view.seat
        if me == r.owner:
            yield from self._resolve(view, r)
        elif self._crowning(view, r) and not self._crowned(view, r, me):
            yield from draw(view, int(view.rule("crowning_draw", 1)))
        elif me not in r.passed:
            yield from self._commit(view, r)
            yield declare("pass")
        else:
            for handle in view.ids(POOL):
                if view.owner(handle) != me:
                    continue
                if not view.face_up(handle):
                    yield {"op": "flip", "id": handle, "face_up": True}
                yield {"op": "move", "id": handle, "to": f"p{me}.discard", "face_up": True}

    # -- an opponent's commit -----------------------------------------------------------------
    def _commit(self, view: SeatView, r: RiteRound) -> Decision:
        me = view.seat
        hand = view.known(f"p{me}.hand")
        if not hand:
            return
        if not self.heuristic:
            k = self.choose.rnd.randrange(min(3, len(hand)) + 1)
            for handle, _ in self.choose.rnd.sample(hand, k):
                yield {"op": "move", "card": handle, "to": POOL}
            return
        need = self._need(view, r)
        rule = self._rule("block", rite_step=r.card.number("step"), step=tr.step(view, me),
                          ward=r.ward, hand=len(hand), owner_step=tr.step(view, r.owner))
        if rule is not None:
            need = r.ward if rule and need <= 0 else need if rule else 0
        if need <= 0:
            return
        # the cheapest cards to give up first: high Block, low use in this seat's own plans
        hand.sort(key=lambda o: (self._keep(view, o[1]) - o[1].number("block"), o[0]))
        given = 0
        for handle, card in hand:
            if given >= need:
                break
            bonus = total(self.effects.get(card.id, ()), "interrupt", "bonus")
            cost = card.number("cost")
            # played, an Interrupt adds its bonus (paid for); committed, its Block (free)
            play = card.type == "Interrupt" and bonus > card.number("block") and \
                tr.favor(view, me) >= cost
            if card.number("block") <= 0 and not play:
                continue
            if play:
                if cost:
                    yield {"op": "counter", "id": f"p{me}.favor", "add": -cost}
                yield {"op": "move", "card": handle, "to": POOL, "face_up": True}
                given += bonus
            else:
                yield {"op": "move", "card": handle, "to": POOL}
                given += card.number("block")

    def _need(self, view: SeatView, r: RiteRound) -> int:
        """Block this seat means to give: the whole Ward against a winning Rite, a share of
        it against the leader, nothing against a Rite that leaves this seat's chances be."""
        me, owner = view.seat, r.owner
        rite_step = r.card.number("step")
        mine = tr.step(view, me)
        step_max = int(view.rule("step_max", 5))
        if rite_step >= step_max:
            return r.ward
        if mine >= rite_step and tr.alone_in_lead(view, me) and rite_step == mine:
            return 0  # a tie with this seat at the top lets its own last Rite cost less
        if rite_step <= mine:
            return 0
        others = [s for s in tr.clockwise(view, owner) if s != me]
        committed = sum(1 for h in view.ids(POOL) if view.owner(h) != me)
        later = [s for s in others if s not in r.passed]
        share = r.ward - int(1.5 * committed) - len(later)
        return max(0, share)

    def _keep(self, view: SeatView, card: Any) -> float:
        if card.type == "Champion":
            return 1.0 + 0.3 * float(card.number("power") + card.number("guard"))
        return 0.5

    # -- the owner resolves ------------------------------------------------------------------
    def _resolve(self, view: SeatView, r: RiteRound) -> Decision:
        me = view.seat
        blocked = tr.pool_total(view, r, dict(self.effects)) >= r.ward
        if blocked:
            yield {"op": "move", "id": r.rite, "to": f"p{me}.rites"}
            yield from gain(view, f"p{me}.favor", int(view.rule("blocked_favor", 2)))
            yield from draw(view, tr.blocked_draw(view, me))
            return
        yield {"op": "move", "id": r.rite, "to": f"p{me}.completed", "face_up": True}
        yield {"op": "counter", "id": f"p{me}.step", "add": 1}
        if tr.step(view, me) >= int(view.rule("step_max", 5)):
            yield {"op": "mark", "what": "winner", "for_seat": me}
            yield {"op": "end", "winners": [me], "how": "victory",
                   "condition": "Step 5 Rite resolved"}


__all__ = ["Ritual"]
