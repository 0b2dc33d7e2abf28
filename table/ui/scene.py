"""The table scene: mirrors the core state, as one seat may see it, in graphics items.

It is built once, then updated from each Change the replica hands its subscribers: only the
touched objects and the containers they left or entered are redrawn, also after a rollback
(the core's Change also lists the journals a rollback reverted, so an op that turned void on
re-application is still refreshed).
Cards are read only through `table.core.views`.
"""
from __future__ import annotations

import logging
from collections.abc import Iterable
from functools import partial
from typing import Any

from PySide6.QtCore import QRectF, Signal
from PySide6.QtGui import QBrush, QColor, QPixmapCache
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene, QGraphicsSceneMouseEvent

from table.core.objects import HIDDEN, PUBLIC, ROOT, Obj
from table.core.state import State
from table.core.timeline import Change
from table.core.views import view_object

from . import layout as lay
from . import theme
from .catalog import BackStyle
from .controller import TableController
from .dragdrop import DropHandler
from .items.card_item import CardItem
from .items.die_item import DieItem
from .items.seat_area_item import SeatAreaItem
from .items.token_item import TokenItem
from .items.tracker_item import TrackerItem
from .items.zone_item import ZoneItem
from .items.zoom_still import ZoomStill
from .privacy import flag_message
from .scene_arrange import SceneArrange
from .scene_gestures import SceneGestures
from .scene_pieces import ScenePieces
from .scene_sizes import SceneSizes

log = logging.getLogger(__name__)

class TableScene(QGraphicsScene, SceneArrange, SceneGestures, ScenePieces, SceneSizes):
    cardHovered = Signal(str)            # object id, "" when the cursor leaves
    readSeat = Signal(int)               # a seat's name plate was clicked: read its area
    changed_by_ops = Signal()            # after every applied Change (panels refresh)

    def __init__(self, controller: TableController) -> None:
        super().__init__()
        self.ctl = controller
        self.replica = controller.replica
        self.setBackgroundBrush(QBrush(theme.TABLE_BG))
        # cards cache their painting per zoom level; a full table needs more than Qt's 10 MB
        QPixmapCache.setCacheLimit(max(QPixmapCache.cacheLimit(), 256 * 1024))
        self.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.NoIndex)  # pieces move a lot
        self.cards: dict[str, CardItem] = {}
        self.tokens: dict[str, TokenItem] = {}
        self._flagged: dict[str, list[Any]] = {}  # objects wearing a rules-assist badge
        self.zones: dict[str, ZoneItem] = {}
        self.trackers: dict[str, TrackerItem] = {}
        self.dice: dict[str, DieItem] = {}
        self.areas: dict[int, SeatAreaItem] = {}
        self.where: dict[str, str] = {}     # piece id -> container it is drawn in
        self.layout = lay.Layout()
        self._tiles = lay.tile_slots(controller.catalog.module)
        self.drops = DropHandler(self)
        self._dirty: set[str] = set()       # containers to re-arrange after this change
        self._pile_shown: dict[str, set[str]] = {}  # pile -> ids of its visible cards
        self._z_top = 0.0  # free zones stack by arrival: the last placed lies on top
        self.card_resolution = 1.0  # device pixels per unit the cards' pictures are kept at
        self.room: tuple[float, float] | None = None  # the view's, in own-area units
        self.min_middle = 0.0
        self._selected: set[CardItem] = set()  # the cards showing a selection outline
        self.selectionChanged.connect(self._outline_selection)
        self.rebuild()
        self._unsubscribe = self.replica.subscribe(self.on_change)
        controller.seatChanged.connect(self.refresh_view)

    def plate_clicked(self, seat: int) -> None:
        self.readSeat.emit(seat)

    def detach(self) -> None:
        self._unsubscribe()

    @property
    def state(self) -> State:
        return self.replica.state

    # --- building ----------------------------------------------------------------------------
    def rebuild(self) -> None:
        """Lay the table out again and place everything (new seats or containers, seat switch)."""
        state = self.state
        self.layout = self.compute_layout()
        live = {oid for oid, o in state.objs.items() if o.alive}
        for registry in (self.cards, self.tokens, self.zones, self.trackers, self.dice):
            for oid in [k for k in registry if k not in live]:
                self.removeItem(registry.pop(oid))
                self.where.pop(oid, None)
        for oid in live:
            obj = state.objs[oid]
            if oid == ROOT or obj.kind in lay.CONTAINERS:
                self._configure_zone(obj)
            elif obj.kind in lay.PIECES:
                self._configure_piece(obj)
        for oid in live:
            obj = state.objs[oid]
            if obj.kind in ("card", "token"):
                self._update_piece(obj)
        for oid in live:
            obj = state.objs[oid]
            if oid == ROOT or obj.kind in lay.CONTAINERS:
                self.arrange(oid)
        self._configure_areas()
        self.setSceneRect(self.layout.bounds)

    def seats_from_here(self) -> list[int]:
        """The seats in table order starting with the viewing seat, whose area the layout puts
        at the bottom, nearest the player (every seat sees itself there)."""
        seats = self.ctl.seats
        if self.ctl.seat not in seats:
            return seats
        i = seats.index(self.ctl.seat)
        return seats[i:] + seats[:i]

    def refresh_view(self, *_: object) -> None:
        """The viewing seat changed: faces, hands and plates change, and the new seat's own
        area comes to the bottom."""
        if self.layout.seat_areas and self.seats_from_here()[:1] != \
                [s for s in self.layout.seat_areas if s not in self.layout.flipped][:1]:
            self.rebuild()
        for oid in list(self.cards):
            obj = self.state.objs.get(oid)
            if obj is not None:
                self._update_piece(obj)
        for oid in self.zones:
            obj = self.state.objs[oid]
            self._configure_zone(obj)
            if lay.role(obj) == "hand":
                self.arrange(oid)
        self._configure_areas()
        self.show_flags(self._flagged)  # tooltips worded for the new seat
        self.update()

    def _configure_zone(self, obj: Obj) -> None:
        item = self.zones.get(obj.id)
        if item is None:
            item = self.zones[obj.id] = ZoneItem(obj.id)
            self.addItem(item)
        rect, k = self.frame_of(obj.id)
        rect = lay.local(rect if rect is not None else QRectF(0, 0, 10, 10), k)
        item.setTransformOriginPoint(rect.topLeft())  # shrunk (others' areas) about its corner
        item.setScale(k)
        role = "table" if obj.id == ROOT else lay.role(obj)
        if obj.id in self._tiles:
            role = "tileslot"  # a place for a map tile on a grid: the tile shows, not the slot
        seat = lay.seat_of(obj)
        note = {PUBLIC: "", HIDDEN: "face down"}.get(obj.visibility, "")
        if role == "hand":
            note = "only you see these" if self.ctl.viewer_mark(seat) == "you" else "hidden from you"
        count = len(self.state.cards_in(obj))
        item.configure(role, rect, str(obj.props.get("name", obj.id)), count,
                       theme.seat_colour(seat, self.ctl.seat_colour(seat)), note,
                       seat == self.ctl.seat, lay.grid_size(obj) if role == "grid" else (0, 0))
        if role == "tile":
            item.blocked = self._blocked_cells(obj)
        item.setVisible(obj.id in self.layout.rects)

    def _blocked_cells(self, tile: Obj) -> list[tuple[int, int]]:
        """Obstruction cells of a placed map tile, turned with it (from the module's data)."""
        module = self.ctl.catalog.module
        try:
            data = module.tile(str(tile.props.get("tile")))
            cells = data.sides[str(tile.props.get("side"))]
            from table.games.module import rotate_cell
            return [rotate_cell(x, y, data.size, tile.rotation) for x, y in cells]
        except (AttributeError, KeyError, ImportError):
            return []

    # --- pieces ------------------------------------------------------------------------------
    def _update_piece(self, obj: Obj) -> None:
        """Refresh a card's or token's look and put it where its container wants it."""
        if obj.kind == "card":
            item = self.cards.get(obj.id)
            if item is None:
                item = self.cards[obj.id] = CardItem(obj.id)
                item.set_resolution(self.card_resolution)
                self.addItem(item)
            view = view_object(self.state, self.replica.knowledge, obj, self.ctl.seat)
            parent = self.state.objs.get(obj.container or ROOT)
            role = lay.role(parent) if parent is not None and parent.id != ROOT else "zone"
            in_hand = role == "hand"
            face = None
            if view.card is not None and (view.shows_face or in_hand):
                side = obj.props.get("side")
                face = self.ctl.catalog.face(view.card, side if isinstance(side, str) else None)
            owner_colour = theme.seat_colour(obj.owner, self.ctl.seat_colour(obj.owner)) \
                if obj.owner is not None else None
            private = face is not None and not obj.face_up
            back = self.ctl.catalog.back
            if in_hand and face is None:  # backs overlap in a hand: a label would read "DE F"
                back = BackStyle(back.colour, "")
            item.set_look(face, back, owner_colour, dict(obj.counters), private)
            item.container_role = role
            # others' hidden hand cards are not ours to pick up
            item.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsMovable,
                         not (in_hand and face is None) and not self.ctl.read_only)
            item.base_rotation = float(obj.rotation)
        elif obj.kind == "token":
            tok = self.tokens.get(obj.id)
            if tok is None:
                tok = self.tokens[obj.id] = TokenItem(obj.id)
                self.addItem(tok)
            own = QColor(str(obj.props.get("colour") or ""))  # a piece's own (a hazard's)
            name = str(obj.props.get("name", obj.id))
            # a seat's piece says whose it is, not by its colour alone: "P1", "T2"
            whose = f"{name[:1]}{obj.owner}" if obj.owner is not None else ""
            tok.set_look(own if own.isValid() else theme.seat_colour(
                obj.owner, self.ctl.seat_colour(obj.owner)), str(obj.props.get("shape", "disc")),
                str(obj.props.get("label", "")) or whose, name, dict(obj.counters),
                self._token_tag(obj))
            tok.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsMovable, not self.ctl.read_only)
        else:
            return
        old = self.where.get(obj.id)
        self.where[obj.id] = obj.container or ROOT
        if old is not None and old != self.where[obj.id] and self._needs_arrange(old):
            self._dirty.add(old)
        self._place_one(obj)

    def _token_tag(self, obj: Obj) -> str:
        """On a grid (Mantle's arena) a token says whose it is, or what it is (a hazard)."""
        parent = self.state.objs.get(obj.container or ROOT)
        if parent is None or lay.role(parent) != "grid":
            return ""
        if obj.owner is not None:
            return self.ctl.seat_name(obj.owner)
        return str(obj.props.get("name", ""))

    def _needs_arrange(self, container_id: str) -> bool:
        """Whether leaving this container moves the others (hands, piles, slots, auto rows)."""
        zone = self.zones.get(container_id)
        if zone is None:
            return True
        if zone.role in ("zone", "table", "grid", "board"):
            objs = self.state.objs
            return any(objs[c].pos is None for c in objs[container_id].children)
        return True

    def flags_on(self, obj_id: str) -> list[Any]:
        """The rules-assist flags this piece wears (its badge)."""
        return list(self._flagged.get(obj_id, ()))

    def show_flags(self, by_object: dict[str, list[Any]]) -> None:
        """Badge the cards and tokens the rules assist flagged (and unbadge the rest); the
        tooltips are worded for the viewing seat."""
        message = partial(flag_message, self.ctl)
        for oid in set(self._flagged) | set(by_object):
            item = self._item(oid)
            if item is not None:
                item.set_flags(by_object.get(oid, []), message)
        self._flagged = dict(by_object)

    # --- following the replica ---------------------------------------------------------------
    def restore(self, ids: Iterable[str]) -> None:
        """Show these pieces where the state says again (a drag moved them by hand)."""
        self._dirty = set()
        for oid in ids:
            obj = self.state.objs.get(oid)
            if obj is not None and obj.alive and obj.kind in lay.PIECES:
                self._configure_piece(obj)
            elif obj is not None and obj.alive:
                self._update_piece(obj)
        for cid in self._dirty:
            self.arrange(cid)

    def on_change(self, change: Change) -> None:
        self.apply_touched(change.touched)
        if any(r.op.kind == "seat" for r in change.records):
            self._rename_seats()
        self.changed_by_ops.emit()

    def _rename_seats(self) -> None:
        """A seat op names no object: the name plates and the pieces that say whose they are
        take the seats' names as they are now."""
        self._configure_areas()
        for oid in [*self.trackers, *self.dice]:
            obj = self.state.objs.get(oid)
            if obj is not None and obj.alive:
                self._configure_piece(obj)

    def apply_touched(self, touched: set[str]) -> None:
        state = self.state
        self._dirty = set()
        relayout = False
        for oid in touched:
            obj = state.objs.get(oid)
            if obj is None or not obj.alive:
                relayout |= self._forget(oid)
                continue
            if oid == ROOT or obj.kind in lay.CONTAINERS:
                if oid not in self.zones:
                    relayout = True
                if self._needs_arrange(oid):
                    self._dirty.add(oid)
            elif obj.kind in lay.PIECES:
                if oid not in self.trackers and oid not in self.dice:
                    relayout = True
                else:
                    self._configure_piece(obj)
            else:
                self._update_piece(obj)
        if relayout or self._root_layout_changed(touched) or self._held_changed():
            self.rebuild()
            return
        for cid in self._dirty:
            self.arrange(cid)
        if any(self.zones.get(c) is not None and self.zones[c].role in ("hand", "pile")
               for c in self._dirty):
            self._configure_areas()  # hand and deck counts on the name plates

    def _held_changed(self) -> bool:
        """A container whose size comes from what it holds (a low zone, a narrow slot, a
        column for pieces) now holds something else: the table is laid out again."""
        held = self.layout.held
        for cid in self._dirty:
            obj = self.state.objs.get(cid)
            if obj is not None and cid in held and lay.content_class(self.state, obj) != held[cid]:
                return True
        return False

    def _root_layout_changed(self, touched: set[str]) -> bool:
        """A container or tracker joined or left the table's top level."""
        if ROOT not in touched:
            return False
        root = self.state.objs[ROOT]
        laid = {oid for oid in self.layout.rects if oid != ROOT}
        now = {c for c in root.children if self.state.objs[c].kind in lay.CONTAINERS
               or lay.laid_out_piece(self.state.objs[c])}
        return not now <= laid

    def _forget(self, oid: str) -> bool:
        for registry in (self.cards, self.tokens):
            item = registry.pop(oid, None)
            if item is not None:
                self.removeItem(item)
                old = self.where.pop(oid, None)
                if old is not None:
                    self._dirty.add(old)
                return False
        return oid in self.zones or oid in self.trackers or oid in self.dice

    # --- the pictures' resolution, the drag under way ----------------------------------------
    def zoom_started(self) -> None:
        """The view starts zooming: the backgrounds show still pictures until it pauses."""
        for still in self._stills():
            still.hold(self.card_resolution)

    def _stills(self) -> list[ZoomStill]:
        return [z.still for z in self.zones.values()] + [a.still for a in self.areas.values()]

    def set_card_resolution(self, scale: float) -> None:
        """Zooming paused: every picture crisp at `scale` device pixels per unit."""
        for still in self._stills():
            still.release()
        if abs(scale - self.card_resolution) < 1e-3:
            return
        self.card_resolution = scale
        for item in self.cards.values():
            item.set_resolution(scale)

    def _outline_selection(self) -> None:
        """Cards draw their selection outline as a mark (card_marks): tell those that changed."""
        now = {i for i in self.selectedItems() if isinstance(i, CardItem)}
        for item in now ^ self._selected:
            item.selection_changed()
        self._selected = now

    def mouseMoveEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        super().mouseMoveEvent(event)
        self.drops.moving(event)
