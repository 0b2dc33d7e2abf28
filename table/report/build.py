"""`sandtable report`: read many logs (files and folders), summarise, write one HTML page.

The numbers come from the designer's dataset (table.dataset): the report brings a dataset of
its inputs up to date in a cache folder (only new or changed logs are read) and reads its
sessions out of it with DuckDB queries (queries.py; `sandtable report --sql` prints them).

Bad input never stops the report: a file that is not a log, a damaged one, or a log of a game
module that is not installed is listed with the reason, and the rest is reported.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from .session import Session

_CACHES = 16  # report datasets kept in the cache (one per set of inputs)


@dataclass(slots=True)
class Report:
    sessions: list[Session] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (path, why)
    html: str = ""
    seconds: float = 0.0
    logs: int = 0  # log files read (several peers' logs of one table make one session)
    dataset: Path | None = None  # the dataset folder the numbers were read from
    logs_read: int = 0  # logs this run read (the rest were in the dataset already)
    # rules and flags dismissed as false alarms: (rule, session or "", op or None, why, source)
    dismissals: list[tuple[str, str, int | None, str, str]] = field(default_factory=list)


class Progress:
    """A one-line progress bar on a terminal (silent when the stream is not one)."""

    def __init__(self, total: int, label: str, stream: TextIO | None = None,
                 force: bool = False) -> None:
        self.total, self.label, self.done = total, label, 0
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = force or (hasattr(self.stream, "isatty") and self.stream.isatty())
        self._last = 0.0

    def step(self, note: str = "") -> None:
        self.done += 1
        now = time.monotonic()
        if self.enabled and (now - self._last > 0.05 or self.done == self.total):
            self._last = now
            width = 30
            filled = int(width * self.done / max(1, self.total))
            bar = "█" * filled + "·" * (width - filled)
            self.stream.write(f"\r{self.label} [{bar}] {self.done}/{self.total} {note[:30]:<30}")
            self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()


def cache_for(inputs: Sequence[str | Path], assist: bool) -> Path:
    """The dataset folder a report over `inputs` keeps (one per set of inputs, so a second
    report over the same logs reads nothing new); the least recently used beyond
    `_CACHES` are removed."""
    # the code that made the rows is in each session's fingerprint (table.dataset.reader):
    # after an update the same folder is brought up to date, not left behind for a new one
    key = "\n".join(sorted(str(Path(i).resolve()) for i in inputs)) + f"\nassist={assist}"
    digest = hashlib.blake2b(key.encode(), digest_size=12).hexdigest()
    root = cache_root() / "report"
    folder = root / digest
    folder.mkdir(parents=True, exist_ok=True)
    os.utime(folder)
    old = sorted((p for p in root.iterdir() if p.is_dir()), key=lambda p: p.stat().st_mtime)
    for stale in old[:-_CACHES]:
        shutil.rmtree(stale, ignore_errors=True)
    return folder


def cache_root() -> Path:
    """Where Sandtable keeps what it can make again (SANDTABLE_HOME/cache when set)."""
    home = os.environ.get("SANDTABLE_HOME")
    if home:
        return Path(home) / "cache"
    import platformdirs

    return Path(platformdirs.user_cache_dir("sandtable", appauthor=False))


def build_report(inputs: Sequence[str | Path], out: str | Path | None = None, *,
                 plugins: dict[str, Any] | None = None, progress_stream: TextIO | None = None,
                 show_progress: bool | None = None, jobs: int | None = None,
                 assist: bool = True, cache: str | Path | None = None,
                 by: str | None = None, compare_by: str = "draft",
                 dismiss: Sequence[str] = ()) -> Report:
    """Bring the dataset of `inputs` up to date in `cache` (default: `cache_for(inputs)`),
    read the sessions out of it with the report's queries, render the page, write it to
    `out` (when given). `by`: slice every game by playtest group, event, tag or player;
    `compare_by`: what the balance answer compares (draft, group, event); `dismiss`: rules
    (RULE) and flags (RULE@SESSION#OP) dismissed as false alarms, beside the dismissals files
    found beside the logs and modules. Raises DismissalError on a malformed one."""
    from table.dataset.build import build_dataset
    from table.dataset.examples import views

    from . import page
    from .from_dataset import load_sessions

    start = time.perf_counter()
    progress = Progress(0, "reading logs", progress_stream, force=bool(show_progress)) \
        if show_progress is not False else None

    def step(done: int, total: int) -> None:
        if progress is not None:
            progress.total, progress.done = total, done - 1
            progress.step()

    with tempfile.TemporaryDirectory(prefix="sandtable-report-") as scratch:
        # a caller's own plugins judge differently: their rows are never kept
        folder = Path(scratch) if plugins is not None else Path(cache) if cache is not None \
            else cache_for(inputs, assist)
        outcome = build_dataset(inputs, folder, jobs=jobs, assist=assist, progress=step,
                                plugins=plugins, dismiss=dismiss)
        if progress is not None:
            progress.close()
        con = views(folder)
        sessions, unusable = load_sessions(con)
        dismissed: list[tuple[str, str, int | None, str, str]] = [
            (str(r[0]), str(r[1]), r[2], str(r[3] or ""), str(r[4] or "")) for r in con.execute(
            "SELECT rule, coalesce(session, ''), op, why, source FROM dismissals "
            "ORDER BY rule, session, op").fetchall()]
    report = Report(sessions, outcome.skipped + unusable, logs=outcome.logs,
                    dataset=None if plugins is not None else folder,
                    logs_read=outcome.logs_read, dismissals=dismissed)
    why = {rule: reason for rule, session, _op, reason, _src in dismissed
           if not session and reason}
    report.html = page.render(sessions, report.skipped, inputs=[str(i) for i in inputs],
                              logs=outcome.logs, by=by, compare_by=compare_by, why=why)
    if out is not None:
        page.write(out, report.html)
    report.seconds = time.perf_counter() - start
    return report


def write_csv(sessions: Sequence[Session], folder: str | Path) -> list[Path]:
    """`sessions.csv` (one row per session), `seats.csv` (one row per seat), `cards.csv`
    (one row per card played, per game: plays, win rate and lift with intervals) and
    `card_stories.csv` (every card of each game's module, per draft: its story) in `folder`."""
    import csv

    from .card_stories import story_rows
    from .cardtable import card_rows
    from .tables import seat_rows, session_rows

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    ordered = sorted(sessions, key=lambda s: (s.game, s.created, s.name))
    games: dict[str, list[Session]] = {}
    for s in ordered:
        games.setdefault(s.game, []).append(s)
    cards = [row for game in sorted(games) for row in card_rows(games[game])]
    stories = [row for game in sorted(games) for row in story_rows(games[game])]
    out = []
    for name, rows in (("sessions.csv", session_rows(ordered)), ("seats.csv", seat_rows(ordered)),
                       ("cards.csv", cards), ("card_stories.csv", stories)):
        path = folder / name
        with open(path, "w", newline="", encoding="utf-8") as f:
            if rows:
                writer = csv.DictWriter(f, fieldnames=list(rows[0]))
                writer.writeheader()
                writer.writerows(rows)
        out.append(path)
    return out
