"""The log panel's lines: the core's renderer, with the table window's card and seat names.

One renderer serves the command line, the log panel and the replay view, so every place reads
the same words and redacts through `table.core.views` alone.
"""
from __future__ import annotations

from typing import Any

from table.core.knowledge import Knowledge
from table.core.render import Renderer
from table.core.state import State

from .catalog import Catalog


class LogRenderer(Renderer):
    def __init__(self, state: State, knowledge: Knowledge, catalog: Catalog,
                 seat_name: Any) -> None:
        super().__init__(state, knowledge, seat=0, card_name=catalog.name_of,
                         seat_name=lambda n: str(seat_name(n)))
