"""Small HTML pieces the report page is made of: numbers, tables, draft labels."""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape
from typing import Any


def _pct(x: float) -> str:
    return f"{x * 100:.0f}%"


def _num(x: float, digits: int = 1) -> str:
    return f"{x:.{digits}f}"


def _table(head: Sequence[str], rows: Iterable[Sequence[Any]], numeric: set[int] | None = None,
           cls: str = "") -> str:
    numeric = numeric or set()
    out = [f'<table class="{cls}"><thead><tr>']
    out += [f'<th class="{"n" if i in numeric else ""}">{escape(h)}</th>'
            for i, h in enumerate(head)]
    out.append("</tr></thead><tbody>")
    for row in rows:
        out.append("<tr>" + "".join(
            f'<td class="{"n" if i in numeric else ""}">{c if isinstance(c, _Raw) else escape(str(c))}</td>'
            for i, c in enumerate(row)) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


class _Raw(str):
    """Already-escaped HTML for a table cell."""


NOT_IN_LOG = "module not in the log"


def version_label(version: str, game_hash: str) -> str:
    """A draft's label: the dataset's (`sessions.draft`), so the page, its CSVs and the
    dataset name a draft alike."""
    from table.dataset.sessions_table import draft_label

    if version == NOT_IN_LOG:  # judged by another module: its draft is not known
        return NOT_IN_LOG
    return draft_label(version, game_hash)
