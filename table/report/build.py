"""`sandtable report`: read many logs (files and folders), summarise, write one HTML page.

Bad input never stops the report: a file that is not a log, a damaged one, or a log of a game
module that is not installed is listed with the reason, and the rest is reported.
"""
from __future__ import annotations

import logging
import os
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from .session import Session, Skip, read_session
from .sources import read_group, tables

LOG_SUFFIX = ".sandlog"


@dataclass(slots=True)
class Report:
    sessions: list[Session] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (path, why)
    html: str = ""
    seconds: float = 0.0
    logs: int = 0  # log files read (several peers' logs of one table make one session)


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


def find_logs(inputs: Iterable[str | Path]) -> tuple[list[Path], list[tuple[str, str]]]:
    """Log files named or found (recursively) in folders; missing inputs are skipped."""
    found: list[Path] = []
    skipped: list[tuple[str, str]] = []
    for item in inputs:
        path = Path(item)
        if path.is_dir():
            logs = sorted(p for p in path.rglob(f"*{LOG_SUFFIX}") if p.is_file())
            if not logs:
                skipped.append((str(path), f"a folder with no {LOG_SUFFIX} file"))
            found.extend(logs)
        elif path.is_file():
            found.append(path)
        else:
            skipped.append((str(path), "no such file or folder"))
    seen: set[Path] = set()
    unique = []
    for p in found:
        key = p.resolve()
        if key not in seen:
            seen.add(key)
            unique.append(p)
    return unique, skipped


def _read(paths: list[Path], plugins: dict[str, Any] | None, assist: bool = True
          ) -> list[tuple[Path, Session | None, str]]:
    """The sessions one table's logs make (usually one), each with its log or why not."""
    # a plugin that fails is reported in the page (and disabled for that log): no tracebacks
    quiet = logging.getLogger("assist")
    level = quiet.level
    quiet.setLevel(logging.CRITICAL)
    out: list[tuple[Path, Session | None, str]] = []
    try:
        for source in read_group(paths):
            if isinstance(source, tuple):
                out.append((source[0], None, source[1]))
                continue
            try:
                out.append((source.path, read_session(source, plugins=plugins, assist=assist),
                            ""))
            except Skip as err:
                out.append((source.path, None, str(err)))
        return out
    finally:
        quiet.setLevel(level)


def read_sessions(paths: Sequence[Path], *, plugins: dict[str, Any] | None = None,
                  progress: Progress | None = None, jobs: int = 1, assist: bool = True
                  ) -> tuple[list[Session], list[tuple[str, str]]]:
    """Every session in `paths`: one per table (its peers' logs merged), not one per log."""
    sessions: list[Session] = []
    skipped: list[tuple[str, str]] = []
    groups = tables(list(paths))
    results: Iterable[list[tuple[Path, Session | None, str]]]
    if jobs > 1 and len(groups) >= 24 and plugins is None:
        from concurrent.futures import ProcessPoolExecutor

        pool = ProcessPoolExecutor(max_workers=jobs)
        results = pool.map(_read, groups, [None] * len(groups), [assist] * len(groups),
                           chunksize=8)
    else:
        pool = None
        results = (_read(g, plugins, assist) for g in groups)
    try:
        for group, read in zip(groups, results):
            for path, session, why in read:
                if session is None:
                    skipped.append((str(path), why))
                else:
                    sessions.append(session)
            for path in group:
                if progress is not None:
                    progress.step(path.name)
    finally:
        if pool is not None:
            pool.shutdown()
    return sessions, skipped


def build_report(inputs: Sequence[str | Path], out: str | Path | None = None, *,
                 plugins: dict[str, Any] | None = None, progress_stream: TextIO | None = None,
                 show_progress: bool | None = None, jobs: int | None = None,
                 assist: bool = True) -> Report:
    """Read every log in `inputs`, render the page, write it to `out` (when given)."""
    from . import page

    start = time.perf_counter()
    paths, skipped = find_logs(inputs)
    progress = Progress(len(paths), "reading logs", progress_stream,
                        force=bool(show_progress)) if show_progress is not False else None
    if jobs is None:
        jobs = min(4, os.cpu_count() or 1)
    sessions, bad = read_sessions(paths, plugins=plugins, progress=progress, jobs=jobs,
                                  assist=assist)
    if progress is not None:
        progress.close()
    report = Report(sessions, skipped + bad, logs=len(paths))
    report.html = page.render(sessions, report.skipped, inputs=[str(i) for i in inputs],
                              logs=len(paths))
    if out is not None:
        page.write(out, report.html)
    report.seconds = time.perf_counter() - start
    return report


def write_csv(sessions: Sequence[Session], folder: str | Path) -> list[Path]:
    """`sessions.csv` (one row per session), `seats.csv` (one row per seat) and `cards.csv`
    (one row per card played, per game: plays, win rate and lift with intervals) in `folder`."""
    import csv

    from .cardtable import card_rows
    from .tables import seat_rows, session_rows

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    ordered = sorted(sessions, key=lambda s: (s.game, s.created, s.name))
    games: dict[str, list[Session]] = {}
    for s in ordered:
        games.setdefault(s.game, []).append(s)
    cards = [row for game in sorted(games) for row in card_rows(games[game])]
    out = []
    for name, rows in (("sessions.csv", session_rows(ordered)), ("seats.csv", seat_rows(ordered)),
                       ("cards.csv", cards)):
        path = folder / name
        with open(path, "w", newline="", encoding="utf-8") as f:
            if rows:
                writer = csv.DictWriter(f, fieldnames=list(rows[0]))
                writer.writeheader()
                writer.writerows(rows)
        out.append(path)
    return out
