"""Whose turn, which phase; any seat can advance them (each click is a `mark` op)."""
from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from table.core import actions

from .. import theme
from ..controller import TableController

DEFAULT_PHASES = ["Start", "Main", "End"]
# Fallback for modules that do not declare `phases = [...]` under [rules] in game.toml:
KNOWN_PHASES = {"dead-to-rites": ["Dawn", "Main", "Combat", "Rite", "Dusk"],
                "mantle-of-the-keeper": ["Income", "Action", "End of turn"],
                "sample": ["Dawn", "Main", "Combat", "Rite", "Dusk"]}


def phases_for(ctl: TableController) -> list[str]:
    module = ctl.catalog.module
    rules = getattr(module, "rules", None) or {}
    found = rules.get("phases") if isinstance(rules, Mapping) else None
    if isinstance(found, (list, tuple)) and found:
        return [str(p) for p in found]
    return KNOWN_PHASES.get(ctl.catalog.game_id, DEFAULT_PHASES)


class TurnPanel(QWidget):
    def __init__(self, ctl: TableController) -> None:
        super().__init__()
        self.ctl = ctl
        self.phases = phases_for(ctl)
        self.label = QLabel()  # whose turn
        self.label.setTextFormat(Qt.TextFormat.RichText)
        self.label.setWordWrap(True)
        self.phase_label = QLabel()  # a line of its own: never under a wrapped turn line
        self.phase_label.setTextFormat(Qt.TextFormat.RichText)
        for label in (self.label, self.phase_label):
            label.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        self.phase = QComboBox()
        self.phase.addItems(self.phases)
        self.phase.setToolTip("Set the phase (logged)")
        self.phase.setPlaceholderText("no phase yet")
        self.phase.activated.connect(self._set_phase)
        self.next_phase = QPushButton("Next phase ▸")
        self.next_phase.setToolTip("Advance to the next phase (N)")
        self.next_phase.clicked.connect(self.advance_phase)
        self.end_turn = QPushButton("End turn  »")
        self.end_turn.setToolTip("Pass the turn to the next seat (Ctrl+Enter)")
        self.end_turn.clicked.connect(self.pass_turn)
        row = QHBoxLayout()
        row.addWidget(self.phase, 1)
        row.addWidget(self.next_phase)
        box = QVBoxLayout(self)
        box.setContentsMargins(6, 6, 6, 6)
        box.addWidget(self.label)
        box.addWidget(self.phase_label)
        box.addLayout(row)
        box.addWidget(self.end_turn)
        box.addStretch(1)
        self.refresh()

    def refresh(self) -> None:
        state = self.ctl.replica.state
        seat = state.turn.get("seat")
        number = state.turn.get("number", 0)
        if seat is None:
            text = "<b>No turn yet</b> — press <i>End turn</i> to start with the first seat"
        else:
            colour = theme.seat_colour(seat, self.ctl.seat_colour(seat)).name()
            text = (f"<span style='font-size:large'>Turn {number}: "
                    f"<b style='color:{colour}'>{self.ctl.seat_name(seat)}</b></span>")
        phase = state.phase
        self.label.setText(text)
        self.phase_label.setText(f"Phase: <b>{phase}</b>" if phase else "Phase: —")
        # no phase yet (a turn just began): the box shows none rather than a stale one
        self.phase.setCurrentIndex(self.phases.index(phase) if phase in self.phases else -1)

    def _set_phase(self, index: int) -> None:
        if self.phases[index] == self.ctl.replica.state.phase:
            return  # already there: a second marker would read as the phase run twice
        self.ctl.act(actions.mark, "phase", value=self.phases[index])

    def advance_phase(self) -> None:
        phase = self.ctl.replica.state.phase
        if phase in self.phases and self.phases.index(phase) + 1 < len(self.phases):
            nxt = self.phases[self.phases.index(phase) + 1]
        elif phase == self.phases[-1]:
            self.pass_turn()
            return
        else:
            nxt = self.phases[0]
        self.ctl.act(actions.mark, "phase", value=nxt)

    def pass_turn(self) -> None:
        seats = self.ctl.seats
        cur = self.ctl.replica.state.turn.get("seat")
        nxt = seats[(seats.index(cur) + 1) % len(seats)] if cur in seats else seats[0]
        # the next seat's first phase is its own op (at a LAN table its peer issues it)
        self.ctl.act(actions.pass_turn, nxt, first_phase=self.phases[0] if self.phases else None)
