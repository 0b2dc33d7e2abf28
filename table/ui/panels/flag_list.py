"""The assist panel's list of flags, readable in a narrow dock: each flag is one row across the
whole width, its op, severity and rule on a first line, its message below, then its rulebook
section, both wrapped (never cut to the few words a column would hold). A pending verdict's
row is drawn muted.

The items keep the five columns (op, severity, rule, message, section) as data; only the first
is shown, as wide as the list, and a delegate draws the whole flag in it. Qt's tree sizes rows
without knowing the width (so word wrap alone gives one-line rows): the delegate measures the
message at the viewport's width, and the list lays its rows out again when that width changes.
"""
from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt
from PySide6.QtGui import QColor, QFontMetrics, QPainter, QResizeEvent
from PySide6.QtWidgets import (
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeWidget,
    QTreeWidgetItem,
    QWidget,
)

COLUMNS = ["Op", "Severity", "Rule", "Message", "Section"]
MESSAGE, SEVERITY, SECTION = 3, 1, 4
MUTED_ROLE = Qt.ItemDataRole.UserRole + 1  # a pending verdict's row: drawn muted
PAD = 6
WRAP = Qt.TextFlag.TextWordWrap | Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop
Index = QModelIndex | QPersistentModelIndex


def _text(index: Index, column: int) -> str:
    return str(index.sibling(index.row(), column).data() or "")


def headline(index: Index) -> str:
    return f"#{_text(index, 0)}  {_text(index, SEVERITY)}  {_text(index, 2)}"


def section_line(index: Index) -> str:
    section = _text(index, SECTION)
    return f"Rulebook: {section}" if section else ""


class FlagDelegate(QStyledItemDelegate):
    def __init__(self, tree: FlagList) -> None:
        super().__init__(tree)
        self.tree = tree

    def message_rect(self, width: int, index: Index, metrics: QFontMetrics) -> QRect:
        """Where the wrapped message goes in a row `width` wide (from the row's top left)."""
        inner = max(40, width - 2 * PAD)
        bound = metrics.boundingRect(QRect(0, 0, inner, 100_000), int(WRAP), _text(index, MESSAGE))
        return QRect(PAD, PAD + metrics.height() + 2, inner, bound.height())

    def section_rect(self, width: int, index: Index, metrics: QFontMetrics) -> QRect:
        """Where the rulebook section goes, whole and wrapped, under the message."""
        message = self.message_rect(width, index, metrics)
        text = section_line(index)
        if not text:
            return QRect(message.left(), message.bottom(), message.width(), 0)
        bound = metrics.boundingRect(QRect(0, 0, message.width(), 100_000), int(WRAP), text)
        return QRect(message.left(), message.bottom() + 3, message.width(), bound.height())

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        if index.column() != 0:
            return QSize(0, 0)  # hidden columns: only the first one's size counts
        width = self.tree.viewport().width()
        rect = self.section_rect(width, index, QFontMetrics(option.font))
        return QSize(width, rect.bottom() + PAD)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        style = self.tree.style()
        style.drawPrimitive(QStyle.PrimitiveElement.PE_PanelItemViewItem, option, painter,
                            self.tree)
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        palette = option.palette
        text_colour = palette.highlightedText().color() if selected else palette.text().color()
        muted = bool(index.sibling(index.row(), 0).data(MUTED_ROLE))
        if muted and not selected:
            text_colour = palette.placeholderText().color()
        metrics = QFontMetrics(option.font)
        top = option.rect.topLeft()
        painter.save()
        painter.setFont(option.font)
        line = QRect(top.x() + PAD, top.y() + PAD, option.rect.width() - 2 * PAD, metrics.height())
        brush = index.sibling(index.row(), SEVERITY).data(Qt.ItemDataRole.ForegroundRole)
        painter.setPen(brush.color() if brush is not None and not selected else text_colour)
        painter.drawText(line, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                         metrics.elidedText(headline(index), Qt.TextElideMode.ElideRight,
                                            line.width()))
        painter.setPen(text_colour)
        painter.drawText(self.message_rect(option.rect.width(), index, metrics).translated(top),
                         int(WRAP), _text(index, MESSAGE))
        section = section_line(index)
        if section:
            painter.setPen(palette.placeholderText().color() if not selected else text_colour)
            painter.drawText(self.section_rect(option.rect.width(), index,
                                               metrics).translated(top), int(WRAP), section)
        painter.restore()


class FlagList(QTreeWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setHeaderLabels(COLUMNS)
        self.setHeaderHidden(True)  # each row says what each part is
        for column in range(1, len(COLUMNS)):  # data only: the first column draws the flag
            self.setColumnHidden(column, True)
        self.header().setStretchLastSection(True)
        self.setRootIsDecorated(False)
        self.setUniformRowHeights(False)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setAlternatingRowColors(True)
        self.setItemDelegate(FlagDelegate(self))
        self.setMinimumWidth(120)  # the dock may be narrow: the table needs the room
        self._width = 0

    def add_flag(self, columns: list[str], colour: QColor, *,
                 muted: bool = False) -> QTreeWidgetItem:
        """A row: op, severity (or "pending"), rule, message, section; `muted`: a verdict still
        open, drawn in the muted colour."""
        item = QTreeWidgetItem(columns)
        item.setForeground(SEVERITY, colour)
        item.setData(0, MUTED_ROLE, muted)
        tip = columns[MESSAGE] + (f"\nRulebook: {columns[SECTION]}" if columns[SECTION] else "")
        item.setToolTip(0, tip)
        self.addTopLevelItem(item)
        return item

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self.viewport().width() != self._width:  # the messages wrap anew: new row heights
            self._width = self.viewport().width()
            self.scheduleDelayedItemsLayout()
