"""What a screen reader says without being asked: another player's move, and each new flag of
the rules assist, in the log's words for the viewing seat (the core's renderer redacts through
`table.core.views`, the assist's messages through privacy.flag_message), so nothing the seat may
not know is ever spoken.

Spoken through Qt's accessibility: an announcement event (AT-SPI's object:announcement) where Qt
has it, else a live region: a label whose name changes, which readers speak. How much is said is
a setting: nothing, the others' moves and the flags (the default), or every move, one's own too.
"""
from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QAccessible, QAccessibleEvent
from PySide6.QtWidgets import QWidget

from table.core.opkinds import ACTIONS
from table.core.timeline import Change

from .controller import TableController
from .logtext import LogRenderer
from .privacy import flag_message

LEVELS = {"off": "Say nothing", "others": "Others' moves and rules flags",
          "all": "Every move, mine too, and rules flags"}
DEFAULT_LEVEL = "others"
SPOKEN = ACTIONS | {"mark", "chat", "end"}
QUIET_MARKS = ("setup",)  # setup's steps: the checklist shows them
HEARD = 50  # the last announcements kept (the panel's history, tests)
BURST = 4  # more ops than this in one change (a catch-up) are said in one sentence

try:  # Qt 6.8 and later
    from PySide6.QtGui import QAccessibleAnnouncementEvent
except ImportError:  # pragma: no cover - an older Qt: a live region instead
    QAccessibleAnnouncementEvent = None  # type: ignore[assignment,misc]


class Announcer(QObject):
    said = Signal(str)

    def __init__(self, ctl: TableController, speaker: QWidget, level: str = DEFAULT_LEVEL) -> None:
        super().__init__(speaker)
        self.ctl, self.speaker = ctl, speaker
        self.level = level if level in LEVELS else DEFAULT_LEVEL
        r = ctl.replica
        self.renderer = LogRenderer(r.state, r.knowledge, ctl.catalog, ctl.seat_name)
        self.heard: deque[str] = deque(maxlen=HEARD)
        self._done: set[tuple[str, int]] = set()  # ops said already (a rollback re-applies)
        self._flags: set[Any] = set()
        for rec in r.records():  # what was there when the window opened is not news
            self._done.add(rec.op.ref)
        self._stop = r.subscribe(self.changed)

    def detach(self) -> None:
        self._stop()

    def changed(self, change: Change) -> None:
        if self.level == "off" or self.ctl.replica.state.turn.get("seat") is None:
            # nothing said before the first turn: setup puts dozens of cards on the table
            self._done.update(rec.op.ref for rec in change.records)
            return
        lines = [self.renderer.line(rec, self.ctl.seat) for rec in change.records
                 if self._news(rec)]
        if len(lines) > BURST:  # a catch-up: one sentence, not dozens
            self.say(f"{len(lines)} moves at the table; the last: {lines[-1]}")
        else:
            for line in lines:
                self.say(line)

    def _news(self, rec: Any) -> bool:
        """An op to announce at this level, not said before."""
        op = rec.op
        if op.ref in self._done:
            return False
        self._done.add(op.ref)
        if rec.void or op.kind not in SPOKEN:
            return False
        if op.kind == "mark" and op.args.get("what") in QUIET_MARKS:
            return False
        if op.seat is None and not (op.kind == "mark" and op.args.get("what") == "turn"):
            return False  # the table's own (a host laying out), not a player's move
        # one's own move (this seat, from this peer): one knows it
        return not (self.level == "others" and op.seat == self.ctl.seat
                    and op.author == self.ctl.replica.peer_id)

    def flags(self, flags: Iterable[Any]) -> None:
        """The assist's flags now standing: each new one is said once."""
        for flag in flags:
            key = getattr(flag, "key", None) or (flag.rule, tuple(flag.objects))
            if key in self._flags:
                continue
            self._flags.add(key)
            if self.level != "off":
                self.say(f"Rules assist {flag.severity}, {flag.rule}: "
                         f"{flag_message(self.ctl, flag)}")

    def say(self, text: str) -> None:
        self.heard.append(text)
        self.said.emit(text)
        if not QAccessible.isActive():
            return
        if QAccessibleAnnouncementEvent is not None:
            QAccessible.updateAccessibility(QAccessibleAnnouncementEvent(self.speaker, text))
        else:  # a live region: its new name is read out
            self.speaker.setAccessibleDescription(text)
            QAccessible.updateAccessibility(QAccessibleEvent(self.speaker,
                                                             QAccessible.Event.DescriptionChanged))
