"""`sandtable dataset`: write (or bring up to date) a Parquet dataset of sessions.

Incremental: every session row keeps the content hashes of the logs it was read from, so a run
reads only the sessions whose logs are new or changed, takes the rows of any session whose logs
changed or are gone out of the part files that hold them, and keeps the rest as they are; the
result holds the same rows as a fresh run. Sharded: `shard=(i, n)` takes only the tables whose
id falls in the i-th of n slices (by a hash of the table id, so every peer's log of a table
lands in the same slice); each shard writes its own part files, so parts written by several
machines into one folder (or copied together) are the dataset.
"""
from __future__ import annotations

import csv
import gc
import hashlib
import logging
import os
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from .collected import Rows
from .dismissals import gather, module_folders
from .dismissals import write as write_dismissals
from .reader import reader_stamp
from .rows import session_rows
from .schema import CARDS_KEYS, SESSION_TABLES
from .sources import SessionLogs, find_logs, group_logs, shard_of

CHUNK = 8  # sessions a worker reads before it hands its rows back
# rows of a table gathered before they are written as one row group: a row group per chunk
# (hundreds of tiny ones) cost the writer more than every other step of the parent together,
# and makes every later query open them all
ROW_GROUP = 65_536


@dataclass(slots=True)
class Outcome:
    """What a run did, for its summary line and the tests."""
    out: Path
    logs: int = 0  # log files in this run's inputs (and shard)
    logs_read: int = 0
    sessions_read: int = 0
    kept: int = 0
    dropped: int = 0
    total: int = 0
    damaged: list[str] = field(default_factory=list)  # session ids whose logs were damaged
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (path, why)
    seconds: float = 0.0

    def lines(self) -> list[str]:
        out = [f"skipped {path}: {why}" for path, why in self.skipped]
        out.append(f"read {self.logs_read} log(s) ({self.sessions_read} new or changed "
                   f"session(s)); {self.kept} session(s) unchanged, {self.dropped} dropped; "
                   f"{self.out}: {self.total} session(s) in {self.seconds:.1f} s")
        return out


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _part_name(sessions: Sequence[tuple[str, str]]) -> str:
    """A part file's name from the sessions (id, fingerprint) it holds: the same sessions make
    the same name on any machine, different ones never collide."""
    text = "\n".join(f"{s} {f}" for s, f in sorted(sessions))
    return f"part-{hashlib.blake2b(text.encode(), digest_size=10).hexdigest()}.parquet"


def read_part(path: Path, columns: list[str] | None = None) -> pa.Table:
    """One part file (its columns), read as a single file: `pq.read_table` would load the
    whole pyarrow.dataset machinery (a tenth of a second) to read a folder we never give it."""
    with pq.ParquetFile(path) as part:
        return part.read(columns=columns)


def existing_sessions(out: Path) -> dict[str, tuple[str, str, list[str]]]:
    """session id -> (fingerprint, the part file that holds it, its logs' paths)."""
    found: dict[str, tuple[str, str, list[str]]] = {}
    for part in sorted((out / "sessions").glob("part-*.parquet")):
        table = read_part(part, ["session", "fingerprint", "sources"])
        for session, fingerprint, sources in zip(table.column("session").to_pylist(),
                                                 table.column("fingerprint").to_pylist(),
                                                 table.column("sources").to_pylist(), strict=False):
            found[str(session)] = (str(fingerprint), part.name, list(sources))
    return found


def _relocate(out: Path, parts: dict[str, dict[str, list[tuple[str, str]]]]) -> None:
    """Logs that moved (same content, another path): only their sessions' `sources` (and the
    log each is named after) change. `parts`: part -> session -> its logs (digest, path)."""
    for name, moved in parts.items():
        path = out / "sessions" / name
        data = read_part(path)
        sources, named = [], []
        for row in data.select(["session", "sources", "source_hashes",
                                "named_after"]).to_pylist():
            now = moved.get(row["session"])
            if now is None:
                sources.append(row["sources"])
                named.append(row["named_after"])
                continue
            sources.append([path for _digest, path in now])
            old = dict(zip(row["sources"], row["source_hashes"], strict=False))
            named.append(dict(now).get(old.get(row["named_after"], ""), row["named_after"]))
        for column, values in (("sources", sources), ("named_after", named)):
            index = data.schema.get_field_index(column)
            data = data.set_column(index, data.schema.field(index),
                                   pa.array(values, data.schema.field(index).type))
        _write_atomic(data, path)


def _drop(out: Path, parts: dict[str, set[str]]) -> None:
    """Rewrite each part without the given sessions (a part left empty is removed)."""
    for name, gone in parts.items():
        sessions = read_part(out / "sessions" / name, ["session", "fingerprint"])
        left = [(s, f) for s, f in zip(sessions.column("session").to_pylist(),
                                       sessions.column("fingerprint").to_pylist(), strict=False)
                if s not in gone]
        new_name = _part_name(left)
        for table in SESSION_TABLES:
            path = out / table / name
            if not path.exists():
                continue
            if left:
                data = read_part(path)
                keep = pa.array([s not in gone for s in data.column("session").to_pylist()],
                                pa.bool_())
                _write_atomic(data.filter(keep), out / table / new_name)
            path.unlink()


def _write_atomic(data: pa.Table, path: Path) -> None:
    # a name of this process's own: shards writing into one folder at once never share one
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    pq.write_table(data, tmp)
    os.replace(tmp, path)


def _work(chunk: list[SessionLogs], assist: bool, plugins: dict[str, Any] | None = None
          ) -> tuple[dict[str, pa.Table], dict[str, tuple[str, str, str]], list[str]]:
    """A worker's share: read a few sessions and hand back their rows as Arrow tables."""
    from .assist_flags import quiet_assist

    level = quiet_assist()
    rows = Rows()
    # A fold makes many small objects, and a folded replica is one big cycle (replica,
    # timeline, state): the collector's passes over a fold would re-walk every object made so
    # far, so it pauses; each session's leftovers are then freed by a pass over the youngest
    # generation only (just what that session made), never over the whole process.
    collecting = gc.isenabled()
    gc.disable()
    try:
        for session in chunk:
            session_rows(session, rows, assist=assist, plugins=plugins)
            gc.collect(0)
    finally:
        if collecting:
            gc.enable()
        logging.getLogger("assist").setLevel(level)
    tables = {name: pa.Table.from_pydict(rows.columns(name), schema=schema)
              for name, schema in SESSION_TABLES.items()}
    damaged = [s for s, d in zip(rows.tables["sessions"]["session"],
                                 rows.tables["sessions"]["damaged"], strict=False) if d]
    return tables, rows.modules, damaged


def _results(todo: list[SessionLogs], jobs: int, assist: bool,
             plugins: dict[str, Any] | None) -> Iterator[Any]:
    # a few new sessions (an incremental run) are shared out evenly, two chunks per worker;
    # one chunk's worth or less is read here, as it always was (no pool to start)
    size = CHUNK if len(todo) <= CHUNK else \
        max(1, min(CHUNK, -(-len(todo) // (2 * max(1, jobs)))))
    chunks = [todo[i:i + size] for i in range(0, len(todo), size)]
    if jobs <= 1 or len(chunks) <= 1 or plugins is not None:  # a caller's plugin stays here
        for chunk in chunks:
            yield _work(chunk, assist, plugins)
        return
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=min(jobs, len(chunks))) as pool:
        yield from pool.map(_work, chunks, [assist] * len(chunks))


def build_dataset(inputs: Sequence[str | Path], out: str | Path, *, jobs: int | None = None,
                  shard: tuple[int, int] | None = None, assist: bool = True,
                  progress: Callable[[int, int], None] | None = None,
                  plugins: dict[str, Any] | None = None, dismiss: Sequence[str] = ()
                  ) -> Outcome:
    """Write (or bring up to date) the dataset of `inputs` in `out`; `plugins`: a caller's
    rules-assist plugin per game (tests), used in this process; `dismiss`: rules and flags
    dismissed as false alarms beside those the dismissals files say (dismissals.py).
    Raises DismissalError (naming the file) before reading anything when one is malformed."""
    start = time.perf_counter()
    out = Path(out)
    outcome = Outcome(out)
    logs, outcome.skipped = find_logs(inputs)
    dismissals = gather(inputs, module_folders(log.game for log in logs if log.game), dismiss)
    wanted = {s.table: s for s in group_logs(logs)
              if shard is None or shard_of(s.table, shard[1]) == shard[0]}
    stamp = reader_stamp(assist, plugins)
    for logs_of_table in wanted.values():
        logs_of_table.reader = stamp
    have = existing_sessions(out)
    mine = {s: v for s, v in have.items() if shard is None or shard_of(s, shard[1]) == shard[0]}
    todo = [s for t, s in sorted(wanted.items()) if mine.get(t, ("",))[0] != s.fingerprint]
    stale: dict[str, set[str]] = {}
    moved: dict[str, dict[str, list[tuple[str, str]]]] = {}
    for session, (fingerprint, part, sources) in mine.items():
        if session not in wanted or wanted[session].fingerprint != fingerprint:
            stale.setdefault(part, set()).add(session)
        elif sources != [str(p) for p in wanted[session].paths]:
            moved.setdefault(part, {})[session] = [(log.digest, str(log.path))
                                                   for log in wanted[session].logs]
    outcome.kept = len(wanted) - len(todo)
    outcome.logs = sum(len(s.logs) for s in wanted.values())
    outcome.dropped = sum(1 for s in mine if s not in wanted)
    for table in SESSION_TABLES:
        (out / table).mkdir(parents=True, exist_ok=True)
    (out / "cards").mkdir(parents=True, exist_ok=True)
    _relocate(out, moved)  # before any part is rewritten: the names stay the same
    _drop(out, stale)
    if todo:
        _write_new(out, todo, (jobs or default_jobs(), assist, plugins), outcome, progress)
    outcome.logs_read = sum(len(s.logs) for s in todo)
    outcome.sessions_read = len(todo)
    _prune_cards(out)
    write_dismissals(out, dismissals)
    outcome.total = len(existing_sessions(out))
    outcome.seconds = time.perf_counter() - start
    return outcome


def _write_new(out: Path, todo: list[SessionLogs],
               how: tuple[int, bool, dict[str, Any] | None], outcome: Outcome,
               progress: Callable[[int, int], None] | None) -> None:
    """Stream the new sessions' rows into one new part per table (memory stays flat)."""
    name = _part_name([(s.table, s.fingerprint) for s in todo])
    tmp = f".{name}.{os.getpid()}.tmp"
    writers = {t: _Batched(pq.ParquetWriter(out / t / tmp, schema))
               for t, schema in SESSION_TABLES.items()}
    versions: dict[str, tuple[str, str, str]] = {}
    done = 0
    try:
        for tables, modules, damaged in _results(todo, *how):
            for table, data in tables.items():
                writers[table].add(data)
            versions.update(modules)
            outcome.damaged.extend(damaged)
            done += tables["sessions"].num_rows
            if progress is not None:
                progress(min(done, len(todo)), len(todo))
    finally:
        for writer in writers.values():
            writer.close()
    for table in SESSION_TABLES:
        os.replace(out / table / tmp, out / table / name)
    # the cards only once the sessions that use them are in place: another shard pruning the
    # folder meanwhile then either sees those sessions or has not seen these cards
    for digest, (game, version, folder) in versions.items():
        write_cards(out, digest, game, version, folder)


class _Batched:
    """A part file's writer that gathers the chunks' tables into row groups of ROW_GROUP rows
    (the last one smaller): memory stays bounded by one row group per table."""

    def __init__(self, writer: pq.ParquetWriter) -> None:
        self.writer, self.pending, self.rows = writer, list[pa.Table](), 0

    def add(self, data: pa.Table) -> None:
        if data.num_rows:
            self.pending.append(data)
            self.rows += data.num_rows
            if self.rows >= ROW_GROUP:
                self.flush()

    def flush(self) -> None:
        if self.pending:
            self.writer.write_table(pa.concat_tables(self.pending), row_group_size=ROW_GROUP)
        self.pending, self.rows = [], 0

    def close(self) -> None:
        try:
            self.flush()
        finally:
            self.writer.close()


def write_cards(out: Path, digest: str, game: str, version: str, folder: str) -> None:
    """The `cards` rows of one module version: every column of its cards.csv, as text."""
    path = out / "cards" / f"module-{digest[:32]}.parquet"
    source = Path(folder) / "cards.csv"
    if path.exists() or not source.is_file():
        return
    with open(source, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    columns: dict[str, list[Any]] = {k: [] for k in CARDS_KEYS}
    names = [c for c in (rows[0].keys() if rows else ()) if c and c not in CARDS_KEYS]
    columns.update({c: [] for c in names})
    for row in rows:
        columns["module_hash"].append(digest)
        columns["game"].append(game)
        columns["module_version"].append(version)
        for c in names:
            columns[c].append((row.get(c) or "").strip())
    _write_atomic(pa.table({k: pa.array(v, pa.string()) for k, v in columns.items()}), path)


def _prune_cards(out: Path) -> None:
    """Drop module versions no session of the dataset was played under any more."""
    # the cards are listed before the sessions are read (see _write_new: shards at once)
    cards = list((out / "cards").glob("module-*.parquet"))
    used: set[str] = set()
    for part in (out / "sessions").glob("part-*.parquet"):
        used.update(str(h)[:32] for h in
                    read_part(part, ["module_hash"]).column(0).to_pylist())
    for path in cards:
        if path.stem.removeprefix("module-") not in used:
            path.unlink(missing_ok=True)
