"""The keyboard's place on the table: a zone, and a piece in it (or the zone itself), read from
the seat's outline (seat_outline.py). Tab moves through the zones, the arrows through a zone's
pieces; while pieces are carried over a grid, the arrows move a cell instead.

The place outlives the table's changes: a piece that left its zone leaves the focus on its
neighbour there, a zone that left the table on the zone that took its place; a new viewing seat
starts again at its own hand. `shown`: the keys are in use (the ring shows); a click on the
table hides it and moves the place to what was clicked.
"""
from __future__ import annotations

from PySide6.QtCore import QObject, QRectF, QTimer, Signal

from .items.card_item import CardItem
from .items.card_marks import CARD_RECT
from .items.zone_item import ZoneItem
from .layout import CELL, LABEL, PAD
from .scene import TableScene
from .seat_outline import COUNTERS, PieceLine, ZoneLine, outline


class KeyFocus(QObject):
    moved = Signal()           # the place (zone, piece or cell) changed
    outlineChanged = Signal()  # the outline was read again after a change on the table

    def __init__(self, scene: TableScene) -> None:
        super().__init__()
        self.scene, self.ctl = scene, scene.ctl
        self.zone_id: str | None = None
        self.piece_id: str | None = None
        self.cell: tuple[int, int] | None = None  # a grid's cell, while carrying over it
        self.shown = False
        self._zones: list[ZoneLine] | None = None
        self._stale = False
        self._at = (0, -1)  # the last place by index: where to land when it goes away
        # the outline is read again once per burst of changes (a catch-up brings hundreds)
        self._later = QTimer(self)
        self._later.setSingleShot(True)
        self._later.setInterval(0)
        self._later.timeout.connect(self.settle)
        scene.changed_by_ops.connect(self.table_changed)
        self.ctl.seatChanged.connect(self._seat_changed)

    # --- reading -------------------------------------------------------------------------------
    @property
    def zones(self) -> list[ZoneLine]:
        if self._zones is None:
            scene = self.scene
            rects = scene.layout.rects

            def drawn_at(oid: str) -> tuple[float, float]:
                rect = rects.get(oid)
                return (round(rect.top()), round(rect.left())) if rect is not None else (0, 0)

            def shown(oid: str) -> bool:
                item = scene.zones.get(oid)
                return oid in rects and (item is None or item.isVisible())

            r = self.ctl.replica
            self._zones = outline(r.state, r.knowledge, self.ctl.seat, self.ctl,
                                  scene.seats_from_here(), shown=shown, drawn_at=drawn_at)
        return self._zones

    def zone(self) -> ZoneLine | None:
        return next((z for z in self.zones if z.id == self.zone_id), None)

    def piece(self) -> PieceLine | None:
        zone = self.zone()
        i = zone.index_of(self.piece_id) if zone is not None else -1
        return zone.pieces[i] if zone is not None and i >= 0 else None

    def object_id(self) -> str | None:
        """The focused object: the piece, else the zone (a seat's counters: none)."""
        if self.piece() is not None:
            return self.piece_id
        if self.zone_id is None or self.zone_id.startswith(COUNTERS):
            return None
        return self.zone_id

    def describe(self) -> str:
        """The place in words: the zone, and the piece with its place in the zone."""
        zone = self.zone()
        if zone is None:
            return ""
        piece = self.piece()
        if piece is None:
            return zone.text
        return f"{piece.text} ({zone.index_of(piece.id) + 1} of {len(zone.pieces)} in {zone.name})"

    # --- moving --------------------------------------------------------------------------------
    def go(self, zone_id: str | None, piece_id: str | None = None) -> None:
        """Put the focus here (a piece of that zone, or the zone itself)."""
        zones = self.zones
        zi = next((i for i, z in enumerate(zones) if z.id == zone_id), -1)
        if zi < 0:
            return
        pi = zones[zi].index_of(piece_id)
        self.zone_id, self.piece_id = zones[zi].id, zones[zi].pieces[pi].id if pi >= 0 else None
        self.cell = None
        self._at = (zi, pi)
        self.moved.emit()

    def go_to_object(self, obj_id: str) -> bool:
        """Focus this piece or zone, wherever it is in the outline."""
        for zone in self.zones:
            if zone.id == obj_id:
                self.go(zone.id)
                return True
            if zone.index_of(obj_id) >= 0:
                self.go(zone.id, obj_id)
                return True
        return False

    def next_zone(self, step: int) -> None:
        zones = self.zones
        if not zones:
            return
        zi = next((i for i, z in enumerate(zones) if z.id == self.zone_id), None)
        zi = 0 if zi is None else (zi + step) % len(zones)
        self.go(zones[zi].id)

    def next_piece(self, step: int) -> None:
        """The next (previous) piece of the zone; before the first: the zone itself."""
        zone = self.zone()
        if zone is None:
            self.next_zone(1)
            return
        i = zone.index_of(self.piece_id) + step
        i = max(-1, min(len(zone.pieces) - 1, i))
        self.go(zone.id, zone.pieces[i].id if i >= 0 else None)

    def end_piece(self, last: bool) -> None:
        zone = self.zone()
        if zone is not None and zone.pieces:
            self.go(zone.id, zone.pieces[-1 if last else 0].id)

    def move_cell(self, dx: int, dy: int, size: tuple[int, int]) -> None:
        cols, rows = size
        col, row = self.cell if self.cell is not None else (0, 0)
        self.cell = (max(0, min(cols - 1, col + dx)), max(0, min(rows - 1, row + dy)))
        self.moved.emit()

    # --- following the table -------------------------------------------------------------------
    def table_changed(self) -> None:
        """The table changed: the outline is read again soon (settle)."""
        self._zones = None
        self._stale = True
        self._later.start()

    def settle(self) -> None:
        """Read the outline again; keep the place (or land next to it)."""
        if not self._stale:
            return
        self._stale = False
        self._later.stop()
        zones = self.zones
        if self.zone_id is not None and zones:
            zi = next((i for i, z in enumerate(zones) if z.id == self.zone_id), -1)
            if zi < 0:  # the zone left the table: the one now at its place
                zi = min(self._at[0], len(zones) - 1)
                self.zone_id, self.piece_id = zones[zi].id, None
            zone = zones[zi]
            pi = zone.index_of(self.piece_id)
            if pi < 0 and self.piece_id is not None:  # the piece left: its neighbour
                pi = min(self._at[1], len(zone.pieces) - 1)
                self.piece_id = zone.pieces[pi].id if pi >= 0 else None
            self._at = (zi, pi)
        self.outlineChanged.emit()
        self.moved.emit()

    def _seat_changed(self, _seat: int) -> None:
        self._zones = None
        self.zone_id = self.piece_id = None
        self.cell = None
        zones = self.zones
        if zones:
            self.go(zones[0].id)
        self.outlineChanged.emit()

    # --- where it is drawn ---------------------------------------------------------------------
    def scene_rect(self) -> QRectF | None:
        """Where the place is on the table: the piece (a pile's hidden card: the pile's top),
        the grid cell, the zone, or a seat's counters together."""
        scene = self.scene
        zone = self.zone()
        if zone is None:
            return None
        item = scene.zones.get(zone.id)
        if self.cell is not None and isinstance(item, ZoneItem):
            col, row = self.cell
            left, top = item.rect.left() + PAD, item.rect.top() + LABEL + PAD
            return item.mapRectToScene(QRectF(left + col * CELL, top + row * CELL, CELL, CELL))
        piece = self.piece()
        if piece is not None:
            found = scene.item_for(piece.id)
            if isinstance(found, CardItem) and found.isVisible():
                return found.mapRectToScene(CARD_RECT)
            if found is not None and found.isVisible():
                return found.sceneBoundingRect()
            if isinstance(item, ZoneItem):  # deep in a pile: where the pile shows its top
                c = item.card_anchor()
                w, h = CARD_RECT.width() * item.scale(), CARD_RECT.height() * item.scale()
                return QRectF(c.x() - w / 2, c.y() - h / 2, w, h)
        if isinstance(item, ZoneItem):
            return item.mapRectToScene(item.rect)
        rects = [r for r in (scene.item_for(p.id) for p in zone.pieces) if r is not None]
        if not rects:
            return None
        out = rects[0].sceneBoundingRect()
        for other in rects[1:]:
            out = out.united(other.sceneBoundingRect())
        return out
