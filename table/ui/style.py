"""One look for every window: Fusion with a dark palette and a little styling, or high
contrast (black, white, yellow) when that palette is chosen (palettes.py)."""
from __future__ import annotations

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QLabel

from . import theme

SHEET = """
QWidget#start, QWidget#start-page { background: #16241d; }
QLabel#title { font-size: 40px; font-weight: bold; color: #f1e9d2; }
QLabel#tagline { font-size: 14px; color: #a8b8ae; }
QLabel#muted { color: #8c9a91; }
QGroupBox { border: 1px solid #3c5046; border-radius: 8px; margin-top: 14px; padding: 10px;
            font-weight: bold; color: #e6e6e6; }
QGroupBox::title { subcontrol-origin: margin; left: 10px; padding: 0 4px; }
QPushButton { padding: 6px 14px; border-radius: 5px; background: #2e4238; color: #eeeeee;
              border: 1px solid #4b6357; }
QPushButton:hover { background: #3a5447; }
QPushButton:disabled { color: #7a857f; background: #243029; border-color: #34423a; }
QPushButton#primary { background: #c98b2b; color: #1b1408; font-weight: bold; font-size: 15px;
                      padding: 9px; border: none; }
QPushButton#primary:hover { background: #ddA040; }
QDockWidget::title { background: #22312a; padding: 4px 8px; color: #dcdcdc; }
QTabBar::tab { padding: 6px 16px; font-weight: bold; }
QTabBar::tab:selected { background: #2b3d34; }
QToolBar { spacing: 4px; border-bottom: 1px solid #2c3b33; }
"""


# High contrast: black and white, lines two pixels wide, the keyboard's place in yellow
HIGH_CONTRAST_SHEET = """
QWidget { background: #000000; color: #ffffff; }
QLabel#title { font-size: 40px; font-weight: bold; color: #ffffff; }
QLabel#tagline, QLabel#muted { color: #ffffff; }
QGroupBox { border: 2px solid #ffffff; border-radius: 8px; margin-top: 14px; padding: 10px;
            font-weight: bold; }
QGroupBox::title { subcontrol-origin: margin; left: 10px; padding: 0 4px; }
QPushButton, QToolButton, QComboBox, QLineEdit, QSpinBox, QTextEdit, QPlainTextEdit,
QListView, QTreeView, QTabBar::tab { border: 2px solid #ffffff; }
QPushButton { padding: 6px 14px; border-radius: 5px; background: #000000; color: #ffffff; }
QPushButton:disabled { color: #b0b0b0; border-color: #b0b0b0; }
QPushButton:focus, QToolButton:focus, QComboBox:focus, QLineEdit:focus, QSpinBox:focus,
QListView:focus, QTreeView:focus, QTabBar::tab:focus { border: 3px solid #ffe600; }
QPushButton#primary { background: #ffe600; color: #000000; font-weight: bold; font-size: 15px; }
QDockWidget::title { background: #000000; padding: 4px 8px; color: #ffffff;
                     border-bottom: 2px solid #ffffff; }
QTabBar::tab { padding: 6px 16px; font-weight: bold; }
QTabBar::tab:selected { background: #ffe600; color: #000000; }
QToolBar { spacing: 4px; border-bottom: 2px solid #ffffff; }
QToolTip { background: #ffffff; color: #000000; border: 2px solid #000000; }
"""


def apply_style(app: QApplication) -> None:
    """Fusion in the palette now in use (theme.PALETTE): the dark look, or high contrast."""
    app.setStyle("Fusion")
    hc = theme.PALETTE.widgets
    pal = QPalette()
    base, text = QColor(hc.get("base", "#1d2622")), QColor(hc.get("text", "#e8e8e8"))
    pal.setColor(QPalette.ColorRole.Window, QColor(hc.get("window", "#1b2420")))
    pal.setColor(QPalette.ColorRole.WindowText, text)
    pal.setColor(QPalette.ColorRole.Base, base)
    pal.setColor(QPalette.ColorRole.AlternateBase, QColor(hc.get("alternate", "#24302a")))
    pal.setColor(QPalette.ColorRole.Text, text)
    pal.setColor(QPalette.ColorRole.Button, QColor(hc.get("button", "#2b3731")))
    pal.setColor(QPalette.ColorRole.ButtonText, text)
    pal.setColor(QPalette.ColorRole.Highlight, QColor(hc.get("highlight", "#c98b2b")))
    pal.setColor(QPalette.ColorRole.HighlightedText,
                 QColor(hc.get("highlighted_text", "#111111")))
    pal.setColor(QPalette.ColorRole.ToolTipBase, QColor("#fffbe6"))
    pal.setColor(QPalette.ColorRole.ToolTipText, QColor("#111111"))
    pal.setColor(QPalette.ColorRole.PlaceholderText, QColor(hc.get("disabled", "#8a968f")))
    disabled = QColor(hc.get("disabled", "#777"))
    pal.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.ButtonText, disabled)
    pal.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.WindowText, disabled)
    app.setPalette(pal)
    app.setStyleSheet(HIGH_CONTRAST_SHEET if hc else SHEET)


def show_error(label: QLabel, text: str) -> None:
    """A dialog's status line as an error (red), or cleared with an empty text."""
    label.setText(text)
    label.setProperty("error", bool(text))
    label.setStyleSheet("color: #e57373;" if text else "")
