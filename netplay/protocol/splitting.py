"""Every message within the limits, by construction: a record too big for one message is sent
as several, each within the limits every receiver decodes with (``netplay.protocol.wire.DEFAULT_LIMITS``,
the one place both sides read), and the receiver applies them one by one.

The records that grow with a session are maps (a peer's published card secrets and joint-draw
records after many shuffles: over a thousand entries in a long game). :func:`split_maps`
splits the maps at the given paths: every entry is in exactly one part, everything else of the
record is in every part, and each part holds at most ``max_map_len`` entries per map and at
most a quarter of a frame's bytes. The records split here are merged entry by entry on
arrival (``Knowledge.absorb``, ``fair.absorb_secrets``), so parts need no reassembly and may
arrive in any order.
"""
from __future__ import annotations

import copy
from typing import Any

from netplay.protocol.wire import DEFAULT_LIMITS, WireLimits, pack

Path = tuple[str, ...]
# the maps of a peer's publication (``fair_pub``'s body) and of its record to the watchers
PUBLICATION_MAPS: tuple[Path, ...] = (("cards",), ("fair", "rounds"), ("fair", "piles"))
RECORD_MAPS: tuple[Path, ...] = (("cards",), ("shown",), ("decks",), ("fair", "rounds"),
                                 ("fair", "piles"))


def _get(record: dict[str, Any], path: Path) -> Any:
    node: Any = record
    for key in path:
        node = node.get(key) if isinstance(node, dict) else None
    return node


def _set(record: dict[str, Any], path: Path, value: dict[Any, Any]) -> None:
    node = record
    for key in path[:-1]:
        node = node.setdefault(key, {})
    node[path[-1]] = value


def split_maps(record: dict[str, Any], paths: tuple[Path, ...],
               limits: WireLimits = DEFAULT_LIMITS) -> list[dict[str, Any]]:
    """``record`` as one or more parts, each within ``limits`` (see the module's docstring)."""
    budget = limits.max_frame // 4
    maps = {path: m for path in paths if isinstance(m := _get(record, path), dict)}
    if all(len(m) <= limits.max_map_len for m in maps.values()) and \
            len(pack(record)) <= budget:
        return [record]
    base = copy.deepcopy({k: v for k, v in record.items()})
    for path in maps:
        _set(base, path, {})
    parts: list[dict[Path, dict[Any, Any]]] = []
    current: dict[Path, dict[Any, Any]] = {path: {} for path in maps}
    size = len(pack(base))
    for path, entries in maps.items():
        for key, value in entries.items():
            cost = len(pack(key)) + len(pack(value))
            if (len(current[path]) >= limits.max_map_len or size + cost > budget) and \
                    any(current.values()):
                parts.append(current)
                current, size = {p: {} for p in maps}, len(pack(base))
            current[path][key] = value
            size += cost
    parts.append(current)
    out = []
    for chosen in parts:
        part = copy.deepcopy(base)
        for path, subset in chosen.items():
            _set(part, path, subset)
        out.append(part)
    return out
