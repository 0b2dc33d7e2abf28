"""One session of the legal corpus being played: its replica, decks, seat order and the
moves every game's scripted players share (draw, refill, discard to the limit, roll)."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from table.bench.corpus_plan import Plan
from table.bench.simulated_sessions import SessionClock
from table.core import actions as act
from table.core.replica import Replica
from table.core.rng import Rng


def cards_in(r: Replica, zone: str) -> list[str]:
    return r.state.cards_in(r.state.live(zone))


def _card_id(r: Replica, handle: str) -> str | None:
    obj = r.state.objs.get(handle)
    return (obj.card if obj is not None and obj.card else None) or r.knowledge.card_of(handle)


class Table:
    """One session being played: the replica, its module, the seats in turn order."""

    def __init__(self, module: Any, seats: int, seed: int, path: Path, plan: Plan,
                 rnd: random.Random, start_time: float, group: str = "") -> None:
        from table.games.setup import new_table

        self.module, self.plan, self.rnd = module, plan, rnd
        names = sorted(plan.decks.get(module.id) or module.starter_decks)
        picks = rnd.sample(names, seats) if len(names) >= seats else \
            [rnd.choice(names) for _ in range(seats)]  # each Chosen / Crown / faction once
        self.decks = {s: module.starter_decks[name] for s, name in enumerate(picks, start=1)}
        self.r = new_table(module, seats, self.decks, rng=Rng(seed), log_path=path,
                           peer_id=f"hotseat{seed % 10000:04d}")
        last = self.r.records()[-1].op.time if self.r.records() else start_time
        self.r.clock = SessionClock(max(last, start_time), rnd, gaps=(3.0, 40.0))
        order = sorted(self.r.state.seats)
        first = self.r.state.turn.get("seat") or order[0]
        index = order.index(first)
        self.order = order[index:] + order[:index]
        self.groups = {s: module.deck_group(d) or "?" for s, d in self.decks.items()}
        self.slip_seat: int | None = None
        self.income_slip: int | None = None  # the turn number of Mantle's extra Income draw
        self.dusk_slip: int | None = None  # from this turn on, the next Dusk with damage slips
        self.dusk_slipped_at: int | None = None
        self.planted: dict[str, int] = {}
        # the fights, refills and slips draw from a generator of their own, so the choices
        # the older plantings make (and so their sessions' results) stay as they were
        self.extra = random.Random(seed ^ 0x5EED)
        self.seed = seed
        self.slips = random.Random(seed ^ 0x511D)  # the later slips' own choices
        self.play_slip: int | None = None  # the turn a Dead to Rites Champion goes unpaid
        self.run: Any = None  # a Gauntlet session's run (table.bench.corpus_gauntlet)
        self.group = group
        self.occasions: dict[str, int] = {}
        self.dead = frozenset(plan.dead_cards.get(module.id, ()))
        self.per_occasion = random.Random(seed ^ 0xDA3)  # the slips at a rate per occasion

    def occasion(self, rule: str) -> None:
        self.occasions[rule] = self.occasions.get(rule, 0) + 1

    def playable(self, handle: str) -> bool:
        """Whether the scripted players would play this card (never a planted dead card)."""
        card = self.card(handle)
        return card is not None and card.id not in self.dead

    def forgets_dawn(self, seat: int) -> bool:
        """Whether this Dawn's Favor is forgotten: the session's one slip (`slip_rate`), or a
        slip at the plan's rate per Dawn (`dawn_slips`, planted here)."""
        self.occasion("DTR-DAWN-INCOME")
        if self.slip_seat == seat:
            self.slip_seat = None
            return True
        if self.plan.dawn_slips and self.per_occasion.random() < self.plan.dawn_slips:
            self.plant("DTR-DAWN-INCOME")
            return True
        return False

    def plant(self, rule: str) -> None:
        self.planted[rule] = self.planted.get(rule, 0) + 1

    def card(self, handle: str) -> Any:
        card_id = _card_id(self.r, handle)
        return self.module.cards.get(card_id) if card_id else None

    def hand(self, seat: int) -> list[str]:
        return cards_in(self.r, f"p{seat}.hand")

    def draw(self, seat: int, count: int = 1) -> None:
        """Draw `count` cards; a Draw Pile emptied is formed again from the Discard Pile at
        once (Mantle's rule; harmless elsewhere, where the corpus's decks never run out)."""
        deck, discard = f"p{seat}.deck", f"p{seat}.discard"
        for _ in range(count):
            if not cards_in(self.r, deck):
                return
            act.draw(self.r, deck, f"p{seat}.hand", 1, seat=seat)
            if not cards_in(self.r, deck) and cards_in(self.r, discard):
                self.refill(seat)

    def refill(self, seat: int) -> None:
        """The Discard Pile becomes the Draw Pile: one gesture, or card by card then shuffled."""
        deck, discard = f"p{seat}.deck", f"p{seat}.discard"
        if self.extra.random() < 0.5:
            act.move_all(self.r, discard, deck, shuffle=True, seat=seat)
            return
        while cards_in(self.r, discard):
            act.move(self.r, cards_in(self.r, discard)[-1], deck, seat=seat)
        act.shuffle(self.r, deck, seat=seat, now=True)

    def discard_to(self, seat: int, limit: int, to: str = "discard") -> int:
        """Discard down to the hand limit (the slip: once, the slipping seat forgets)."""
        if self.slip_seat == seat and len(self.hand(seat)) > limit:
            self.slip_seat = None
            return 0
        dropped = 0
        while len(self.hand(seat)) > limit:
            act.move(self.r, self.hand(seat)[0], f"p{seat}.{to}", face_up=True, seat=seat)
            dropped += 1
        return dropped

    def roll(self, seat: int, why: str) -> None:
        loaded_here = self.plan.loaded_group is None or self.group == self.plan.loaded_group
        if self.module.id != self.plan.loaded_game or not loaded_here:
            value = self.rnd.randint(1, 6)
        else:  # 6 with probability loaded_six, the other faces equally likely
            value = 6 if self.rnd.random() < self.plan.loaded_six else self.rnd.randint(1, 5)
        self.r.issue("roll", {"sides": 6, "values": [value], "why": why}, seat=seat)
