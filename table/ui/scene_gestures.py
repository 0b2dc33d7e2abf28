"""What the player's gestures on the table mean: the items report a double-click, a hover or
a drag and these decide (draw from a pile, play from the hand, flip); and the viewing seat's own
places (its hand, deck, play area) that those gestures and the window's keys act on.

A mixin of TableScene: it reads the scene's registries and acts through its controller.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QPointF
from PySide6.QtWidgets import QGraphicsItem, QGraphicsSceneMouseEvent

from table.core import actions
from table.core.objects import HIDDEN, ROOT

from . import layout as lay
from .items.card_item import CardItem
from .items.die_item import DieItem
from .items.token_item import TokenItem
from .items.tracker_item import TrackerItem
from .items.zone_item import ZoneItem

if TYPE_CHECKING:
    from table.core.state import State

    from .controller import TableController
    from .dragdrop import DropHandler


class SceneGestures:
    if TYPE_CHECKING:
        ctl: TableController
        @property
        def state(self) -> State: ...
        drops: DropHandler
        cards: dict[str, CardItem]
        tokens: dict[str, TokenItem]
        zones: dict[str, ZoneItem]
        trackers: dict[str, TrackerItem]
        dice: dict[str, DieItem]
        where: dict[str, str]

        def items(self, pos: QPointF) -> list[QGraphicsItem]: ...
        def selectedItems(self) -> list[QGraphicsItem]: ...
        cardHovered: Any

    def hovered(self, item: CardItem | None) -> None:
        self.cardHovered.emit(item.obj_id if item is not None else "")

    def piece_at(self, pos: QPointF) -> QGraphicsItem | None:
        """The topmost piece or place under `pos` (None: the bare table)."""
        for item in self.items(pos):
            if not item.isVisible():
                continue
            if isinstance(item, (CardItem, TokenItem, DieItem, TrackerItem)):
                return item
            if isinstance(item, ZoneItem) and item.role not in ("tile", "tileslot"):
                return item
        return None

    @property
    def carrying(self) -> bool:
        """A drag of pieces is under way."""
        return self.drops.active

    def drag_started(self, item: QGraphicsItem, event: QGraphicsSceneMouseEvent) -> None:
        self.drops.press(item, event)

    def drag_finished(self, item: QGraphicsItem, event: QGraphicsSceneMouseEvent) -> None:
        self.drops.release(item, event)

    def selected_ids(self) -> list[str]:
        return [i.obj_id for i in self.selectedItems() if isinstance(i, (CardItem, TokenItem))]

    def card_double_clicked(self, item: CardItem) -> None:
        """Draw from a pile, play from the hand to one's play area, else flip."""
        where = self.where.get(item.obj_id, ROOT)
        if item.container_role == "pile":
            self.draw_from(where, 1)
        elif item.container_role == "hand":
            play = self.own_play_area()
            if play is not None and lay.seat_of(self.state.objs[where]) == self.ctl.seat:
                self.drops.send([item.obj_id], self.zones[play])
        else:
            self.flip_items([item])

    def flip_items(self, items: list[CardItem]) -> None:
        for item in items:
            self.ctl.act(actions.flip, item.obj_id)

    def rotate_items(self, ids: list[str]) -> None:
        for oid in ids:
            obj = self.state.live(oid)
            if obj is not None:
                self.ctl.act(actions.rotate, oid, 90 if obj.rotation == 0 else 0)

    def bump_counter(self, obj_id: str, delta: int) -> None:
        self.ctl.act(actions.counter, obj_id, add=delta)

    def roll_die(self, obj_id: str) -> None:
        obj = self.state.live(obj_id)
        sides = obj.props.get("sides", 6) if obj is not None else 6
        op = self.ctl.act(actions.roll, die_id=obj_id,
                          sides=sides if isinstance(sides, int) else 6).op
        if op is not None:
            self.ctl.status.emit(f"Rolled {op.args['values'][0]} on d{op.args['sides']}")
        elif self.ctl.joint_pending:
            self._tell_joint_roll(obj_id)

    def _tell_joint_roll(self, obj_id: str) -> None:
        """A roll drawn with the other peers: its op arrives a few ms later (or the draw
        falls back to local randomness when a peer does not answer in time)."""
        r = self.ctl.replica
        self.ctl.status.emit("Rolling with the other players...")

        def arrived(change: Any) -> None:
            for record in change.records:
                op = record.op
                if op.author == r.peer_id and op.kind == "roll" and op.args.get("id") == obj_id:
                    stop()
                    self.ctl.status.emit(f"Rolled {op.args['values'][0]} on d{op.args['sides']}")
                    return

        stop = r.subscribe(arrived)

    def own_zone(self, role: str, name_hint: str = "") -> str | None:
        """The viewing seat's zone of a role, the one whose name has `name_hint` first."""
        found: list[tuple[int, str]] = []
        for oid, item in self.zones.items():
            obj = self.state.objs[oid]
            if lay.seat_of(obj) != self.ctl.seat or item.role != role:
                continue
            name = str(obj.props.get("name", "")).lower()
            exact = name_hint and (name == name_hint or oid.lower().endswith("." + name_hint))
            near = name_hint and name_hint in name + " " + oid.lower()
            found.append((0 if exact else 1 if near else 2, oid))
        return min(found)[1] if found else None

    def own_hand(self) -> str | None:
        return self.own_zone("hand", "hand")

    def own_play_area(self) -> str | None:
        return self.own_zone("zone", "play")

    def own_deck(self) -> str | None:
        """The viewing seat's draw pile: a face-down pile of theirs, 'deck'/'draw' named first."""
        best: tuple[int, str] | None = None
        for oid, item in self.zones.items():
            obj = self.state.objs[oid]
            if item.role != "pile" or lay.seat_of(obj) != self.ctl.seat:
                continue
            name = (str(obj.props.get("name", "")) + " " + oid).lower()
            rank = (0 if obj.visibility == HIDDEN else 2) + \
                (0 if "deck" in name or "draw" in name else 1)
            if best is None or rank < best[0]:
                best = (rank, oid)
        return best[1] if best is not None and best[0] < 3 else None

    def draw_from(self, pile_id: str, count: int) -> None:
        hand = self.own_hand() or ROOT
        self.ctl.perform({"op": "draw", "from": pile_id, "to": hand, "count": count})

    def item_for(self, obj_id: str) -> QGraphicsItem | None:
        return (self.cards.get(obj_id) or self.tokens.get(obj_id) or self.zones.get(obj_id)
                or self.trackers.get(obj_id) or self.dice.get(obj_id))
