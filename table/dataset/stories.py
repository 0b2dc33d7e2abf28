"""Every card's story in a seat's hand: in the opening hand, drawn during play, held at the
end, played, or used in other ways (discarded, committed, banked: each by the zone it went to).

The dataset's `hands` table holds one row per (session, seat, card) with these counts, what the
session learned by its end (a merged or hot-seat log names every card; a one-peer log only its
own seat's): hidden cards are re-handled whenever a card joins their zone, so the pass follows
each handle in and out of the hands, and names it by what the logs knew at their end.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from table.core.objects import OWNER
from table.core.views import ALL


@dataclass(slots=True)
class Story:
    """One seat's counts of one card (copies), through the session."""
    opening: int = 0  # in the hand when play began
    drawn: int = 0  # entered the hand during play
    held_end: int = 0  # in the hand at the end
    played: int = 0  # played, as the module declares a play
    used: Counter[str] = field(default_factory=Counter)  # left the hand otherwise, by zone name
    held: bool = False  # entered the hand at some point (setup included)


class Stories:
    """Follows the cards into and out of the seats' hands, op by op (applied ops only)."""

    def __init__(self, replica: Any, one_peer: bool) -> None:
        self.state, self.knowledge = replica.state, replica.knowledge
        self.view = ALL if not one_peer else min(replica.my_seats) if replica.my_seats else 0
        self.where: dict[str, int] = {}  # handle -> the seat whose hand holds it now
        self.stories: dict[tuple[int, str], Story] = {}
        self.opened = False
        self._hands: dict[str, int | None] = {}  # zone id -> its owner when it is a hand

    def _hand(self, zone: Any) -> int | None:
        """The seat whose hand `zone` is (a zone only its owner sees), else None."""
        if not isinstance(zone, str):
            return None
        if zone not in self._hands:
            obj = self.state.objs.get(zone)
            self._hands[zone] = obj.owner if obj is not None and obj.owner is not None \
                and obj.visibility == OWNER else None
        return self._hands[zone]

    def _card(self, handle: str, seat: int) -> str | None:
        """The card a handle is, as far as the logs (and this log's view) know it."""
        if self.view != ALL and seat != self.view:
            obj = self.state.objs.get(handle)
            return str(obj.card) if obj is not None and obj.card else None
        card = self.knowledge.card_of(handle)
        if card is None:
            obj = self.state.objs.get(handle)
            card = obj.card if obj is not None else None
        return None if card is None else str(card)

    def _story(self, seat: int, card: str) -> Story:
        story = self.stories.get((seat, card))
        if story is None:
            story = self.stories[(seat, card)] = Story()
        return story

    def open_play(self) -> None:
        """Play begins: what each hand holds now is its opening hand."""
        if self.opened:
            return
        self.opened = True
        for handle, seat in self.where.items():
            card = self._card(handle, seat)
            if card is not None:
                self._story(seat, card).opening += 1

    def see(self, record: Any, source: str | None, play: bool) -> None:
        """An applied move (`source`: its old container) or consume."""
        op, a = record.op, record.op.args
        if op.kind == "consume":
            self._consume(a)
            return
        handle = a["id"]
        seat = self.where.pop(handle, None)
        if seat is None and source is not None:
            seat = self._hand(source)
        if seat is None or self._hand(a["to"]) == seat:
            return
        card = a.get("card") if isinstance(a.get("card"), str) else self._card(handle, seat)
        if card is None:
            return
        story = self._story(seat, card)
        if play:
            story.played += 1
        elif self.opened:
            story.used[self._zone_name(a["to"])] += 1

    def _consume(self, a: dict[str, Any]) -> None:
        dest = self._hand(a["to"])
        stayed = [h for h in a["in"] if dest is not None and self.where.get(h) == dest]
        for handle in a["in"]:
            seat = self.where.pop(handle, None)
            if seat is None or seat == dest:
                continue  # re-handled with newcomers in its own hand
            card = self._card(handle, seat)
            if card is not None and self.opened:
                self._story(seat, card).used[self._zone_name(a["to"])] += 1
        if dest is None:
            return
        for handle, _commitment in a["out"]:
            self.where[handle] = dest
        # the newcomers: the hand's cards after, less the ones it held before (which new
        # handle is which is hidden; the cards are what the logs knew at their end)
        after = Counter(c for h, _c in a["out"] if (c := self._card(h, dest)) is not None)
        before = Counter(c for h in stayed if (c := self._card(h, dest)) is not None)
        for card, n in (after - before).items():
            story = self._story(dest, card)
            story.held = True
            if self.opened:
                story.drawn += n

    def _zone_name(self, zone: str) -> str:
        obj = self.state.objs.get(zone)
        name = obj.props.get("name") if obj is not None else None
        return str(name or zone)

    def close(self) -> None:
        """The session's end: what each hand holds now."""
        for handle, seat in self.where.items():
            card = self._card(handle, seat)
            if card is not None:
                story = self._story(seat, card)
                story.held_end += 1
                story.held = True

    def rows(self, table: str, rows: Any) -> None:
        for (seat, card), s in sorted(self.stories.items()):
            rows.add("hands", session=table, seat=seat, card=card, held=s.held,
                     opening=s.opening, drawn=s.drawn, held_end=s.held_end, played=s.played,
                     used=sorted(s.used.items()))
