"""The player's settings (name, colour, last game, window geometry, text size) and where games
are saved.

Everything lives under platformdirs' per-user directories; SANDTABLE_HOME points both at one
folder instead (tests, portable installs). The text size is the program's, not a table's: it
is kept with QSettings (display.ini), as window sizes are, so every window reads the same one.
"""
from __future__ import annotations

import json
import logging
import os
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import platformdirs

log = logging.getLogger(__name__)
APP = "sandtable"


def config_dir() -> Path:
    home = os.environ.get("SANDTABLE_HOME")
    return Path(home) if home else Path(platformdirs.user_config_dir(APP, appauthor=False))


def data_dir() -> Path:
    home = os.environ.get("SANDTABLE_HOME")
    return Path(home) if home else Path(platformdirs.user_data_dir(APP, appauthor=False))


def games_dir() -> Path:
    path = data_dir() / "games"
    path.mkdir(parents=True, exist_ok=True)
    return path


def new_log_path(game_id: str) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = games_dir() / f"{stamp}-{game_id or 'table'}.sandlog"
    n = 1
    while path.exists():
        n += 1
        path = games_dir() / f"{stamp}-{game_id or 'table'}-{n}.sandlog"
    return path


_profile = 1  # the player this program is (table.ui.profiles claims it)


def use_profile(number: int) -> None:
    """Read and write the settings of player profile `number` from now on."""
    global _profile
    _profile = number


TEXT_SCALES = (0.8, 0.9, 1.0, 1.1, 1.2, 1.35, 1.5)  # the text-size steps (1.0: the default)


def _display() -> Any:
    from PySide6.QtCore import QSettings

    return QSettings(str(config_dir() / "display.ini"), QSettings.Format.IniFormat)


def text_scale() -> float:
    """The text size the player chose (a factor of the default), one of TEXT_SCALES."""
    try:
        value = float(_display().value("text/scale", 1.0))
    except (TypeError, ValueError):
        return 1.0
    return min(TEXT_SCALES, key=lambda s: abs(s - value))


def set_text_scale(value: float) -> float:
    """Remember a text size (the nearest of TEXT_SCALES); returns the one kept."""
    value = min(TEXT_SCALES, key=lambda s: abs(s - value))
    store = _display()
    store.setValue("text/scale", value)
    store.sync()
    return value


@dataclass
class Settings:
    name: str = ""
    colour: str = "#1e88e5"
    last_game: str = ""          # module id picked last on the start screen
    last_seats: int = 0
    last_log: str = ""           # the game in progress, offered for resume
    last_log_finished: bool = False
    last_ended: dict[str, Any] = field(default_factory=dict)  # the last game that ended:
    #   its log and a line on how ("Bob won (victory)"), offered for replay
    geometry: str = ""           # QMainWindow.saveGeometry(), hex
    window_state: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @staticmethod
    def path() -> Path:
        """This program's player's settings (profiles.py: two windows, two players)."""
        return config_dir() / ("settings.json" if _profile == 1 else
                               f"settings-{_profile}.json")

    @classmethod
    def load(cls) -> Settings:
        try:
            raw = json.loads(cls.path().read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return cls()
        known = {k: v for k, v in raw.items() if k in cls.__dataclass_fields__}
        try:
            return cls(**known)
        except TypeError:
            log.warning("ignoring damaged settings file %s", cls.path())
            return cls()

    def save(self) -> None:
        path = self.path()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp")
            tmp.write_text(json.dumps(asdict(self), indent=2), encoding="utf-8")
            tmp.replace(path)
        except OSError as err:
            log.warning("cannot save settings: %s", err)

    def resumable(self) -> Path | None:
        if self.last_log and not self.last_log_finished and Path(self.last_log).exists():
            return Path(self.last_log)
        return None
