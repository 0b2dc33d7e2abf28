"""What a session's rows were made by: a stamp of the code that reads logs into rows (the
dataset's pass, the core's fold, the game modules, the rules assist) and of whether the assist
ran. A session's stored fingerprint joins its logs' content with this stamp, so a dataset run
after an update of that code (a new assist rule, a fixed fold) reads every session again, and a
run with `--no-flags` over a dataset with flags (or the other way round) does too: a row is kept
only when the same logs were read by the same code the same way.

By content, not file times: the machines writing the shards of one dataset have the same code
at different times, and must agree on which rows are current."""
from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

import assist as assist_package
import table

_TABLE_PARTS = ("dataset", "core", "games")


def _sources() -> list[Path]:
    roots = [Path(table.__file__).parent / part for part in _TABLE_PARTS]
    roots.append(Path(assist_package.__file__).parent)
    return sorted(path for root in roots for path in root.rglob("*.py"))


@cache
def code_stamp() -> str:
    """A digest of every source file that makes the rows (names relative to the package)."""
    digest = hashlib.blake2b(digest_size=12)
    base = Path(table.__file__).parent.parent
    for path in _sources():
        try:
            name = path.relative_to(base).as_posix()
        except ValueError:  # the assist installed apart from the table
            name = f"assist/{path.relative_to(Path(assist_package.__file__).parent).as_posix()}"
        digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def reader_stamp(assist: bool, plugins: dict[str, object] | None = None) -> str:
    """The stamp a session's rows carry: the code, whether the assist ran, and a caller's own
    plugins (a test's) by class name."""
    mode = "assist" if assist else "no-assist"
    if plugins:
        mode += ":" + ",".join(f"{game}={type(p).__module__}.{type(p).__qualname__}"
                               for game, p in sorted(plugins.items()))
    return f"{code_stamp()}/{mode}"
