"""The CLI's subcommands, one module per area; each module's register(sub) adds its own."""
from __future__ import annotations

import argparse
from typing import Any, Protocol


class Subcommands(Protocol):
    """What a register(sub) uses of argparse's subparsers object (add_subparsers' result)."""

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser: ...
