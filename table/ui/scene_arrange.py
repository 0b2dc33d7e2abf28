"""Where the pieces of a container go: one placed on its own where it lies, or the whole
container arranged (a hand's fan, a pile's top cards, a slot's row, a free zone's rows).

A mixin of TableScene: it positions the scene's card and token items from the state.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF

from table.core.objects import ROOT, Obj

from . import layout as lay
from . import placement
from .items.card_item import CardItem
from .items.token_item import TokenItem
from .items.zone_item import ZoneItem
from .seat_outline import hand_sort_key

if TYPE_CHECKING:
    from table.core.state import State

    from .controller import TableController


class SceneArrange:
    if TYPE_CHECKING:
        ctl: TableController
        cards: dict[str, CardItem]
        tokens: dict[str, TokenItem]
        zones: dict[str, ZoneItem]
        _dirty: set[str]
        _pile_shown: dict[str, set[str]]
        _z_top: float

        @property
        def state(self) -> State: ...
        def frame_of(self, container_id: str) -> tuple[QRectF | None, float]: ...
        @staticmethod
        def _shrunk(spot: placement.Spot, rect: QRectF, k: float) -> placement.Spot: ...

    def _item(self, oid: str) -> CardItem | TokenItem | None:
        return self.cards.get(oid) or self.tokens.get(oid)

    def _place_one(self, obj: Obj) -> None:
        """Place a piece alone when its container allows it; else re-arrange the container."""
        parent = self.state.objs.get(obj.container or ROOT)
        if parent is None:
            return
        role = "table" if parent.id == ROOT else lay.role(parent)
        if role == "pile":
            item = self._item(obj.id)
            if item is not None and obj.id in parent.children and \
                    parent.children.index(obj.id) < len(parent.children) - placement.PILE_SHOWN:
                item.setVisible(False)  # deep in a pile: hidden, the pile shows its top
                self._pile_shown.get(parent.id, set()).discard(obj.id)
                return
            self._dirty.add(parent.id)
            return
        if role in ("zone", "table", "grid", "board") and obj.pos is not None:
            item = self._item(obj.id)
            rect, k = self.frame_of(parent.id)
            if item is None or rect is None:
                return
            box = lay.local(rect, k)
            if role == "grid":
                spot = placement.grid_spot(box, obj.pos, 0, obj.kind == "card")
            else:
                spot = placement.free_spot(box, obj.pos, 0, 0)
            self._z_top += 0.001
            spot.z = self._z_top
            self._apply_spot(item, self._shrunk(spot, rect, k), obj)
        else:
            self._dirty.add(parent.id)

    def _hand_order(self, obj: Obj) -> tuple[str, str, str, str]:
        """One's own hand, sorted as a player would hold it (seat_outline.hand_sort_key: the
        keys and the outline go through it in the same order)."""
        return hand_sort_key(self.state, self.ctl.replica.knowledge, self.ctl.catalog,
                             self.ctl.seat, obj)

    def arrange(self, container_id: str) -> None:
        """Position every piece of a container whose layout depends on the others (order)."""
        parent = self.state.objs.get(container_id)
        zone = self.zones.get(container_id)
        if parent is None or not parent.alive:
            return
        drawn, k = self.frame_of(container_id)
        rect = lay.local(drawn, k) if drawn is not None else None
        kids = [self.state.objs[c] for c in parent.children]
        cards = [k for k in kids if k.kind in ("card", "token") and k.alive]
        if zone is not None:
            zone.set_count(sum(1 for k in cards if k.kind == "card"))
        if rect is None:
            if parent.kind == "card":  # overlays on a card: tuck them under it
                host = self.cards.get(parent.id)
                if host is not None:
                    for i, under in enumerate(cards):
                        item = self._item(under.id)
                        if item is not None:
                            self._apply_spot(item, placement.Spot(
                                host.pos() + QPointF(0, 24 * (i + 1) * host.scale()), 0,
                                host.zValue() - 0.001 * (i + 1), scale=host.scale()), under)
            return
        role = "table" if container_id == ROOT else lay.role(parent)
        if role == "hand" and lay.seat_of(parent) == self.ctl.seat:
            cards.sort(key=self._hand_order)  # a hand's stored order is random (privacy)
        n = len(cards)
        if role == "pile":
            self._arrange_pile(container_id, rect, cards, k)
            return
        auto = tokens = 0
        loose = sum(1 for c in cards if c.pos is None and c.kind == "card")  # laid side by side
        for i, card in enumerate(cards):
            item = self._item(card.id)
            if item is None:
                continue
            if role == "slot":
                spot = placement.slot_spot(rect, i, n)
            elif role == "hand":
                fan = lay.seat_of(parent) == self.ctl.seat
                spot = placement.hand_spot(rect, i, n, fan)
            elif role == "grid":
                spot = placement.grid_spot(rect, card.pos, i, card.kind == "card")
            else:
                if card.pos is not None:
                    continue  # placed on its own (_place_one), stacked by arrival
                if card.kind == "token":
                    spot = placement.token_spot(rect, tokens)
                    tokens += 1
                else:
                    spot = placement.free_spot(rect, None, i, auto, loose)
                    auto += 1
            self._apply_spot(item, self._shrunk(spot, rect, k), card)

    def _arrange_pile(self, pile_id: str, rect: QRectF, cards: list[Obj], k: float) -> None:
        """Only the top cards of a pile are shown; touch just those (piles can be long)."""
        n = len(cards)
        top = cards[max(0, n - placement.PILE_SHOWN):]
        shown = {k.id for k in top}
        for oid in self._pile_shown.get(pile_id, set()) - shown:
            item = self._item(oid)
            obj = self.state.objs.get(oid)
            if item is not None and obj is not None and obj.container == pile_id:
                item.setVisible(False)
        for i, top_card in enumerate(top, start=n - len(top)):
            item = self._item(top_card.id)
            if item is not None:
                self._apply_spot(item, self._shrunk(placement.pile_spot(rect, i, n), rect, k), top_card)
        self._pile_shown[pile_id] = shown

    def _apply_spot(self, item: CardItem | TokenItem, spot: placement.Spot, obj: Obj) -> None:
        if item.pos() != spot.pos:
            item.setPos(spot.pos)
        rotation = spot.rotation + (obj.rotation if isinstance(item, CardItem)
                                    and item.container_role != "hand" else 0)
        turned = item.rotation() != rotation or item.scale() != spot.scale
        if item.rotation() != rotation:
            item.setRotation(rotation)
        if item.zValue() != spot.z:
            item.setZValue(spot.z)
        if item.scale() != spot.scale:
            item.setScale(spot.scale)
        if turned and isinstance(item, CardItem):
            item.spot_changed()  # its picture drawn smooth when turned, sharp at its size
        if item.isVisible() != spot.visible:
            item.setVisible(spot.visible)
