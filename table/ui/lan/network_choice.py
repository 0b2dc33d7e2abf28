"""Which network a LAN table is hosted or looked for on: the Host and Join dialogs' "Network"
row. Every network by default; a machine with a VPN or two network cards may pick one."""
from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QWidget

from .model import NetworkOption


class NetworkChoice(QComboBox):
    """The options the app found (table.app.lan_wiring), `chosen` (an address, None for every
    network) selected when it is still one of them."""

    def __init__(self, options: list[NetworkOption], chosen: str | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("lan-network")
        self.setAccessibleName("Network")
        self.setToolTip("Where the table is announced and where players connect: every "
                        "network of this computer, or one (a VPN, one of two network cards)")
        for option in options:
            self.addItem(option.label, option.address)
        index = self.findData(chosen) if chosen is not None else 0
        self.setCurrentIndex(max(index, 0))

    def interfaces(self) -> list[str] | None:
        """The session's interfaces for the choice: None for every network."""
        address = self.currentData()
        return None if address is None else [str(address)]
