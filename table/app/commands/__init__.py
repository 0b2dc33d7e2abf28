"""The CLI's subcommands, one module per area; each module's register(sub) adds its own."""
from __future__ import annotations

import argparse
from typing import Any, Protocol


class Subcommands(Protocol):
    """What a register(sub) uses of argparse's subparsers object (add_subparsers' result)."""

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser: ...


def os_error_line(err: OSError) -> str:
    """An OS error in one line, with the path it met (which may be a parent of the one asked)."""
    import errno

    if err.filename and err.errno in (errno.EEXIST, errno.ENOTDIR):
        return f"{err.filename}: a file is where a folder is needed"
    why = str(err.strerror or err)
    return f"{err.filename}: {why}" if err.filename else why
