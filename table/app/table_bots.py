"""Bots at a hot-seat table, in this process: the window's "Add a bot" (table/ui/seat_bots.py)
seats one in any seat but the last a person plays; it then plays that seat whenever the table
waits for it (table/bots/table_hands.py), one move every `pace` milliseconds so the people at
the screen can follow it, through the same JSON op form as the command line's bots. The view
never passes to a bot's seat (so the curtain never shows for it), undo takes back only the
person's own moves, and the rules assist judges the bots' moves like anyone's. Who plays a
bot's seat is in the log's tags (players: "2" -> "<bot> (bot)"), so a resumed game seats its
bots again and a designer's report names them.

`wire(shell)` gives every hot-seat table window the app opens its bots; a LAN table's window
gets table/app/lan_bots.py's instead (a bot there is a peer of its own).
"""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QTimer

from table.bots.registry import BOT_SUFFIX, player_tag, tagged_bot
from table.core.errors import CoreError
from table.ui import seat_bots

if TYPE_CHECKING:
    from table.bots.table_hands import TableBots
    from table.ui.main_window import TableWindow
    from table.ui.shell import Shell

log = logging.getLogger(__name__)
PACE_MS = 80  # between two of a bot's moves; settings.extra["bot_pace_ms"] changes it
STRENGTHS = {"heuristic": "plays to win", "random": "any legal move, at random"}


def labels(game: str) -> list[tuple[str, str]]:
    """The installed bots of a game as a player reads them: ("...-heuristic", "Heuristic: plays
    to win"), the game's own strengths first."""
    from table.bots.registry import for_game

    out = []
    for name, cls in for_game(game).items():
        what = STRENGTHS.get(cls.strength, "")
        head = (cls.strength or name).capitalize()
        out.append((name, f"{head}: {what}" if what else head))
    return sorted(out, key=lambda o: (o[1].split(":")[0] not in ("Heuristic", "Random"), o[1]))


class HotSeatBots(QObject):
    """The bots of one hot-seat table window (seat_bots.BotSeats)."""

    def __init__(self, window: TableWindow, pace_ms: int = PACE_MS) -> None:
        super().__init__(window)
        self.window = window
        self.ctl = window.ctl
        self.names: dict[int, str] = {}  # the seats' names before their bots took them
        self.players: dict[int, str] = {}  # and who the log's tags said played them
        self._told = ""  # the status bar's "waits for you" while it stands
        self._table: TableBots | None = None  # made with the first bot
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(pace_ms)
        self.timer.timeout.connect(self._tick)
        self._unsubscribe = window.replica.subscribe(lambda _change: self._wake())
        window.closed.connect(self.stop)

    # -- seat_bots.BotSeats ------------------------------------------------------------------
    def choices(self) -> list[tuple[str, str]]:
        module = self.ctl.catalog.module
        return labels(module.id) if module is not None else []

    def bot_at(self, seat: int) -> str | None:
        bot = self._table.bots.get(seat) if self._table is not None else None
        return bot.name if bot is not None else None

    def why_not(self, seat: int) -> str:
        if self.ctl.read_only:
            return "This table is read-only"
        if self.ctl.catalog.module is None:
            return "Bots play only a game module's tables"
        if any(r.op.kind == "end" and r.void is None for r in self.window.replica.records()):
            return "The game is over"
        people = [s for s in self.ctl.playable_seats if s != seat]
        if seat not in self.ctl.playable_seats or not people:
            return f"{self.ctl.seat_name(seat)} is the last seat a person plays here"
        return ""

    def add(self, seat: int, name: str) -> None:
        self._seat(seat, name)

    def restore(self) -> list[int]:
        """A resumed table's bots back in their seats: the log's tags name who played each seat,
        and a bot's entry reads "<bot> (bot)". Returns the seats given back to bots."""
        players = self.window.replica.state.tags.get("players") or {}
        wanted = {int(key): tagged_bot(who) for key, who in players.items() if tagged_bot(who)}
        if not wanted:  # the usual table: the bots' plugins are not even loaded
            return []
        known = dict(self.choices())
        restored = []
        for seat, name in sorted(wanted.items()):
            if name in known and seat in self.window.replica.state.seats and \
                    self.bot_at(seat) is None and not self.why_not(seat):
                self._seat(seat, name, restored=True)
                restored.append(seat)
        return restored

    def _seat(self, seat: int, name: str, restored: bool = False) -> None:
        why = self.why_not(seat)
        if why:
            self.ctl.status.emit(why)
            return
        from table.bots.effects import EffectError
        from table.bots.registry import UnknownBot
        from table.bots.strategy import StrategyError

        try:
            bot = self._bots().seat(seat, name)
        except (UnknownBot, EffectError, StrategyError) as err:
            self.ctl.status.emit(f"Cannot seat the bot: {err}")
            return
        before = self.ctl.seat_name(seat)
        if restored:  # the log already names the seat as a bot's
            before = before.removesuffix(BOT_SUFFIX)
        self.names[seat] = before
        self.ctl.hands_off.add(seat)
        if not restored:
            tags = self.window.replica.state.tags.get("players") or {}
            self.players[seat] = str(tags.get(str(seat), ""))
            self._rename(seat, f"{before}{BOT_SUFFIX}")
            self._tag(seat, player_tag(name))
        if self.ctl.seat == seat:  # handed over: the screen passes to a person's seat
            self.ctl.set_seat(self.ctl.playable_seats[0])
        verb = "is played by a bot again" if restored else "is played by a bot"
        self.ctl.status.emit(f"{before} {verb} ({bot.strength or bot.name})")
        self.window.refresh_panels()
        self._wake()

    def remove(self, seat: int) -> None:
        if self._table is None or seat not in self._table.bots:
            return
        self._table.unseat(seat)
        self.ctl.hands_off.discard(seat)
        name = self.names.pop(seat, self.ctl.seat_name(seat))
        self._rename(seat, name)
        self._tag(seat, self.players.pop(seat, ""))
        self.ctl.status.emit(f"{name} is a person's seat again (Ctrl+{seat} plays it)")
        self.window.refresh_panels()

    # -- playing -----------------------------------------------------------------------------
    def _bots(self) -> TableBots:
        if self._table is None:
            from table.bots.table_hands import TableBots

            module = self.ctl.catalog.module
            assert module is not None
            self._table = TableBots(self.window.replica, module, self._refused)
        return self._table

    def _wake(self) -> None:
        if self._table is not None and self._table.bots and not self.timer.isActive() \
                and not self.window.shut:
            self.timer.start()

    def _tick(self) -> None:
        if self._table is None or self.window.shut:
            return
        if self._table.step():
            if self._told and self.window.statusBar().currentMessage() == self._told:
                self.window.statusBar().clearMessage()  # answered: the bots play on
            self._told = ""
            self._wake()  # its next move (the change it made woke it too)
            return
        self._tell_whose()

    def _tell_whose(self) -> None:
        """The bots wait: for a person's answer off their turn (the Defense Pool, a
        strike-back, a battle step...), the screen passes to that seat and says what for."""
        assert self._table is not None
        waited = self._table.waiting_for()
        if waited is None or waited[0] in self.ctl.hands_off:
            return
        seat, what = waited
        if what == "to play the turn":  # a turn passing moves the view (follow_turn)
            return
        if seat != self.ctl.seat:
            self.ctl.set_seat(seat)  # through the curtain, where several people play here
        message = f"{self.ctl.seat_name(seat)}: the table waits for you {what}"
        # kept until the next message (the person may come to the screen later than 8 s),
        # and said on the curtain they open first
        self.window.statusBar().showMessage(message)
        self._told = message
        if self.window.curtain.isVisible():
            self.window.curtain.say(message)

    def _refused(self, seat: int, why: str) -> None:
        log.warning("bot of seat %s: %s", seat, why)
        self.ctl.status.emit(f"{self.ctl.seat_name(seat)}'s bot stopped: {why}")

    def _rename(self, seat: int, name: str) -> None:
        replica = self.window.replica
        try:
            replica.issue("seat", {"seat": seat, "name": name,
                                   "colour": self.ctl.seat_colour(seat) or None})
        except CoreError as err:
            self.ctl.status.emit(str(err))

    def _tag(self, seat: int, player: str) -> None:
        """Who plays the seat, in the log's tags (a bot's name, or none): what a resumed table
        seats its bots from, and what a designer's report slices by."""
        try:
            self.window.replica.issue("tag", {"players": {str(seat): player}})
        except CoreError as err:
            self.ctl.status.emit(str(err))

    def stop(self) -> None:
        self.timer.stop()
        self._unsubscribe()


def attach(window: TableWindow) -> HotSeatBots | None:
    """Give a hot-seat table window its bots (a LAN table's or a read-only one gets none)."""
    if window.peers_panel is not None or window.ctl.read_only or \
            window.seats.bots is not None:
        return None
    settings = window.settings
    pace = settings.extra.get("bot_pace_ms", PACE_MS) if settings is not None else PACE_MS
    bots = HotSeatBots(window, int(pace) if isinstance(pace, int) else PACE_MS)
    seat_bots.install(window, bots)
    bots.restore()  # a resumed game: its bots play on
    return bots


def wire(shell: Shell) -> None:
    """Every table window the shell opens gets its bots (hot-seat) from here on."""
    previous: Any = shell.on_open

    def opened(window: TableWindow) -> None:
        if previous is not None:
            previous(window)
        attach(window)

    shell.on_open = opened


__all__ = ["PACE_MS", "HotSeatBots", "attach", "labels", "wire"]
