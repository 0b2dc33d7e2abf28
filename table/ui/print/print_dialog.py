"""Game -> Print cards...: the table's module (or one of its decks) as print-and-play sheets.

The dialog builds the same Job as `sandtable print` (job.build_job), previews its first page
with the same sheet painter (pdf_sheets.paint_sheet) and saves through the same writer, so what
the window prints is what the command line prints.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, TypeVar

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPixmap
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from table.games import ModuleError

from .job import Job, build_job
from .pdf_sheets import paint_sheet, write_pdf
from .sheet_layout import LayoutError, SheetLayout, pages

WHOLE = "The whole module (every card once)"
DECK_FILE = "A deck list file…"
PREVIEW_W = 300  # pixels: the page, small, beside the choices
W = TypeVar("W", bound=QWidget)


def _named(widget: W, name: str) -> W:
    widget.setObjectName(name)
    return widget


class PrintDialog(QDialog):
    def __init__(self, module: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("print-dialog")
        self.setWindowTitle(f"Print cards: {module.name}")
        self.module = module
        self.deck_file: str | None = None
        self.job: Job | None = None
        self.layout_: SheetLayout | None = None
        self.saved: Path | None = None  # the last PDF written
        form = self._options(module)
        self.summary = _named(QLabel(), "print-summary")
        self.summary.setWordWrap(True)
        self.error = _named(QLabel(), "print-error")
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #b00020")
        self.error.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.preview = _named(QLabel(), "print-preview")
        self.preview.setFixedWidth(PREVIEW_W)
        self.preview.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.save = _named(QPushButton("Save as PDF…"), "print-save")
        self.save.clicked.connect(self.save_pdf)
        close = QPushButton("Close")
        close.clicked.connect(self.reject)
        left = QVBoxLayout()
        left.addLayout(form)
        left.addWidget(self.summary)
        left.addWidget(self.error)
        left.addStretch(1)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.save)
        buttons.addWidget(close)
        left.addLayout(buttons)
        top = QHBoxLayout(self)
        top.addLayout(left, 1)
        top.addWidget(self.preview)
        self.what.currentIndexChanged.connect(self._what_chosen)
        for signal in (self.paper.currentIndexChanged, self.fronts_only.toggled,
                       self.marks.toggled, self.bleed.valueChanged):
            signal.connect(lambda *_: self.refresh())
        self.refresh()

    def _options(self, module: Any) -> QFormLayout:
        """Which cards, the paper, bleed, backs and crop marks."""
        self.what = _named(QComboBox(), "print-what")
        self.what.addItem(WHOLE, None)
        for name in sorted(module.starter_decks):
            self.what.addItem(f"Starter deck: {module.starter_decks[name].name}", name)
        self.what.addItem(DECK_FILE, DECK_FILE)
        self.paper = _named(QComboBox(), "print-paper")
        self.paper.addItem("A4", "a4")
        self.paper.addItem("Letter", "letter")
        self.fronts_only = _named(QCheckBox("Fronts only (no back pages)"), "print-fronts")
        self.marks = _named(QCheckBox("Crop marks"), "print-marks")
        self.marks.setChecked(True)
        self.bleed = _named(QDoubleSpinBox(), "print-bleed")
        self.bleed.setRange(0.0, 10.0)
        self.bleed.setSuffix(" mm")
        self.bleed.setSingleStep(0.5)
        form = QFormLayout()
        for label, widget in (("Cards", self.what), ("Paper", self.paper),
                              ("Bleed", self.bleed)):
            form.addRow(label, widget)
        form.addRow(self.fronts_only)
        form.addRow(self.marks)
        return form

    def _what_chosen(self, _index: int) -> None:
        if self.what.currentData() == DECK_FILE:
            path, _ = QFileDialog.getOpenFileName(self, "Deck list to print", str(self.module.path),
                                                  "Deck lists (*.txt *.deck);;All files (*)")
            if not path:
                self.what.setCurrentIndex(0)
            self.deck_file = path or None
        self.refresh()

    def deck(self) -> str | None:
        data = self.what.currentData()
        return self.deck_file if data == DECK_FILE else data

    def refresh(self) -> None:
        """Rebuild the job from the choices; show its size and its first page, or what is
        wrong (a bad deck list, no card size ...) with nothing saved."""
        self.error.clear()
        self.job = self.layout_ = None
        try:
            job = build_job(self.module, self.deck())
            layout = job.layout(self.paper.currentData(), self.bleed.value())
        except (ModuleError, LookupError, LayoutError, OSError) as err:
            self._show_error(err)
            return
        if not job.cards:
            self._show_error(ValueError(f"nothing to print ({job.what})"))
            return
        self.job, self.layout_ = job, layout
        sheets = len(pages(len(job.cards), layout))
        sides = 1 if self.fronts_only.isChecked() else 2
        self.summary.setText(f"{job.what}; {layout.per_page} a sheet at "
                             f"{job.size.width_mm:g} x {job.size.height_mm:g} mm: "
                             f"{sheets * sides} page(s)")
        self.preview.setPixmap(QPixmap.fromImage(self.first_page(PREVIEW_W)))
        self.save.setEnabled(True)

    def first_page(self, width_px: int) -> QImage:
        """The first page, as the PDF draws it, `width_px` wide."""
        assert self.job is not None and self.layout_ is not None
        layout = self.layout_
        scale = width_px / layout.page_w
        img = QImage(width_px, round(layout.page_h * scale), QImage.Format.Format_RGB32)
        img.fill(QColor("white"))
        p = QPainter(img)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        first = [self.job.cards[i] for i in pages(len(self.job.cards), layout)[0]]
        paint_sheet(p, first, self.job.size, layout, False, unit=lambda v: v * scale,
                    marks=self.marks.isChecked())
        p.end()
        return img

    def save_pdf(self) -> None:
        if self.job is None or self.layout_ is None:
            return
        deck = self.deck()
        default = Path.home() / f"{self.module.id}-{Path(deck).stem if deck else 'cards'}.pdf"
        path, _ = QFileDialog.getSaveFileName(self, "Save the cards as PDF", str(default),
                                              "PDF (*.pdf)")
        if not path:
            return
        job, paper = self.job, self.paper.currentData()
        try:
            count = write_pdf(path, job.cards, job.size, self.layout_, paper,
                              backs=not self.fronts_only.isChecked(),
                              title=f"{job.module.name}: {job.what}",
                              marks=self.marks.isChecked())
        except OSError as err:
            self._show_error(err)
            return
        self.saved = Path(path)
        self.summary.setText(f"Wrote {path}: {job.what}, {count} page(s) of {paper.upper()}")

    def _show_error(self, err: Exception) -> None:
        lines = [str(p) for p in err.problems] if isinstance(err, ModuleError) else [str(err)]
        self.error.setText("\n".join(lines))
        self.summary.clear()
        self.preview.clear()
        self.save.setEnabled(False)


def open_print_dialog(window: Any) -> PrintDialog | None:
    """The dialog for the table's module; a message when the table has none to print from."""
    from PySide6.QtWidgets import QMessageBox

    module = getattr(window.ctl.catalog, "module", None)
    if module is None:
        QMessageBox.information(window, "Print cards", "This table has no game module to print "
                                "from (the built-in sample game has no card files).")
        return None
    dialog = PrintDialog(module, window)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.show()
    return dialog
