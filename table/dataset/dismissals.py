"""Rules and single flags a designer dismissed as false alarms (the assist's mistakes, or a
house rule the table plays by): they leave the report's ranking of confusing rules and are
counted apart, never deleted (the flags stay in `flags`).

A dismissal is a line of a `dismissals.toml` beside the logs (in a folder given to `sandtable
report` or `sandtable dataset`, or in any folder under it) or in a game module's folder, or a
`--dismiss` on the command line:

    [[dismiss]]
    rule = "DTR-CROWNING"                       # every flag of this rule
    why = "the assist misreads a Crowning after a Pact"

    [[dismiss]]
    flag = "GAU-HAND-LIMIT@5f3a9c0d12ab34cd#123"   # one flag: RULE@SESSION#OP
    why = "Hoarder's Satchel raised the limit"

`--dismiss` takes the same two forms (`RULE` or `RULE@SESSION#OP`).
"""
from __future__ import annotations

import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

FILE = "dismissals.toml"


class DismissalError(ValueError):
    """A dismissal that cannot be read: the message names the file (and entry) or option."""


@dataclass(frozen=True, slots=True)
class Dismissal:
    rule: str
    session: str = ""  # with `op`: one flag; empty: every flag of the rule
    op: int | None = None
    why: str = ""
    source: str = ""  # the file (and entry) or `--dismiss`

    def row(self) -> dict[str, object]:
        return {"rule": self.rule, "session": self.session or None, "op": self.op,
                "why": self.why, "source": self.source}


def parse(text: str, source: str, why: str = "") -> Dismissal:
    """`RULE` or `RULE@SESSION#OP` (one flag, as the report names it)."""
    rule, at, where = text.strip().partition("@")
    if not rule or any(c.isspace() for c in rule):
        raise DismissalError(f"{source}: {text!r} is not a rule id (RULE or RULE@SESSION#OP)")
    if not at:
        return Dismissal(rule, why=why, source=source)
    session, hash_, op = where.partition("#")
    if not session or not hash_ or not op.isdigit():
        raise DismissalError(f"{source}: {text!r}: one flag is written RULE@SESSION#OP "
                             f"(the report names each flag so)")
    return Dismissal(rule, session, int(op), why, source)


def read_file(path: Path) -> list[Dismissal]:
    """The dismissals of one file; DismissalError naming the file and entry when malformed."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as err:
        raise DismissalError(f"{path}: cannot read: {err}") from None
    except tomllib.TOMLDecodeError as err:
        raise DismissalError(f"{path}: {err}") from None
    entries = data.get("dismiss", [])
    if not isinstance(entries, list):
        raise DismissalError(f"{path}: `dismiss` is a list of [[dismiss]] entries")
    out = []
    for number, entry in enumerate(entries, start=1):
        where = f"{path}: [[dismiss]] {number}"
        if not isinstance(entry, dict):
            raise DismissalError(f"{where}: not a table")
        why = str(entry.get("why", ""))
        if "flag" in entry:
            out.append(parse(str(entry["flag"]), where, why))
        elif "rule" in entry:
            out.append(parse(str(entry["rule"]), where, why))
        else:
            raise DismissalError(f"{where}: names neither a rule nor a flag")
    return out


def find_files(inputs: Iterable[str | Path], module_folders: Iterable[str | Path] = ()
               ) -> list[Path]:
    """The dismissals files beside the logs (in the folders given, or under them, or beside
    a log given) and in the game modules' folders, each once."""
    found: list[Path] = []
    for item in inputs:
        path = Path(item)
        if path.is_dir():
            found.extend(sorted(path.rglob(FILE)))
        elif path.is_file() and (path.parent / FILE).is_file():
            found.append(path.parent / FILE)
    found.extend(Path(folder) / FILE for folder in module_folders
                 if (Path(folder) / FILE).is_file())
    seen: set[Path] = set()
    unique = []
    for path in found:
        if path.resolve() not in seen:
            seen.add(path.resolve())
            unique.append(path)
    return unique


def gather(inputs: Sequence[str | Path], module_folders: Iterable[str | Path] = (),
           given: Sequence[str] = ()) -> list[Dismissal]:
    """Every dismissal: the files found, then the command line's."""
    out = [d for path in find_files(inputs, module_folders) for d in read_file(path)]
    out += [parse(text, "--dismiss") for text in given]
    return out


def module_folders(games: Iterable[str]) -> list[Path]:
    """The folders of the installed modules of these games (where a designer keeps a game's
    dismissals beside its rules)."""
    from table.games import ModuleError, find_module
    from table.games.registry import ModuleNotFound

    out = []
    for game in sorted(set(games)):
        try:
            out.append(Path(find_module(game).path))
        except (ModuleNotFound, ModuleError, LookupError):
            continue
    return out


def write(out: Path, dismissals: Sequence[Dismissal]) -> Path:
    """The dataset's `dismissals` table, rewritten whole (what this run's inputs say)."""
    import os

    import pyarrow as pa
    import pyarrow.parquet as pq

    from .schema import DISMISSALS

    folder = out / "dismissals"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "dismissals.parquet"
    rows = [d.row() for d in dismissals]
    data = pa.Table.from_pylist(rows, schema=DISMISSALS)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    pq.write_table(data, tmp)
    os.replace(tmp, path)
    return path
