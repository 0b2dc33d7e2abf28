"""Looking through a pile (search, or peek at the top N) and taking a card out of it."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from table.core.objects import ROOT
from table.core.views import known_card

from .controller import TableController
from .window_fit import fit_window


class PileDialog(QDialog):
    def __init__(self, ctl: TableController, pile_id: str, card_ids: list[str], title: str,
                 hand_id: str | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctl, self.pile_id, self.hand_id = ctl, pile_id, hand_id
        self.setWindowTitle(title)
        self.fit = fit_window(self, "pile", 360, 420)
        self.list = QListWidget()
        self.list.setAccessibleName("Cards, top first")
        state = ctl.replica.state
        for n, cid in enumerate(card_ids):  # top first
            obj = state.objs[cid]
            card = known_card(state, ctl.replica.knowledge, obj, ctl.seat)
            item = QListWidgetItem(f"{n + 1}. {ctl.catalog.name_of(card) if card else '(unknown)'}")
            item.setData(Qt.ItemDataRole.UserRole, cid)
            self.list.addItem(item)
        if self.list.count():
            self.list.setCurrentRow(0)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        self.take = QPushButton("Take into hand")
        self.take.setEnabled(hand_id is not None)
        self.take.clicked.connect(lambda: self._move(self.hand_id))
        self.table = QPushButton("Put on the table")
        self.table.clicked.connect(lambda: self._move(ROOT))
        buttons.addButton(self.take, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(self.table, QDialogButtonBox.ButtonRole.ActionRole)
        box = QVBoxLayout(self)
        box.addWidget(QLabel("Top of the pile first. Only you see this list."))
        box.addWidget(self.list, 1)
        box.addWidget(buttons)

    def _move(self, dest: str | None) -> None:
        item = self.list.currentItem()
        if item is None or dest is None:
            return
        cid = item.data(Qt.ItemDataRole.UserRole)
        entry = {"op": "move", "id": cid, "to": dest}
        if self.ctl.perform({**entry, "face_up": True} if dest == ROOT else entry).op is not None:
            self.list.takeItem(self.list.row(item))
