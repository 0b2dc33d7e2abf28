"""A log whose header frame is damaged: its fields rebuilt from the records after it.

A log written since the header has a copy (`{"header": {...}}`, the record after it) is read
back whole from that copy: the table id included, so the session keeps its place among its
peers' logs. In an older log every field but the table id has a second source: the module op
(and the module's archive record) names the game and its content hash, and the records that
carry this peer's secrets (`{"op": ..., "private": ...}`) are this peer's own ops, so their
author is the log's peer. There the table id was written only in the header; it is taken from
the damaged bytes when they still decode (a flipped byte usually leaves the map readable), and
said to be unverified.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

import msgpack


def recover_header(records: list[Any], damaged: bytes) -> tuple[dict[str, Any], list[str]]:
    """(header, what was recovered from where) for a log whose header frame is `damaged`."""
    copy = _copy(records)
    if copy is not None:
        return ({**copy, "format": "sandtable-log", "recovered": True},
                ["every field (the table id too) read back from the header's copy record"])
    old = _decode(damaged)
    header: dict[str, Any] = {"format": "sandtable-log", "recovered": True}
    notes: list[str] = []
    game, digest, version = _module(records)
    own, authors = _authors(records)
    if game:
        header.update(game=game, game_hash=digest)
        if version:
            header["module_version"] = version
        notes.append(f"game {game} ({digest[:12]}) recovered from the module op")
    elif isinstance(old.get("game"), str):
        header.update(game=old["game"], game_hash=str(old.get("game_hash", "")))
        notes.append(f"game {old['game']} read from the damaged header (no module op to confirm)")
    if own:
        header["peer"] = own
        notes.append("peer recovered from its private records")
    elif len(authors) == 1:  # one author wrote every op: a hot-seat log
        header["peer"] = next(iter(authors))
        notes.append("peer recovered: the one author of every op")
    elif isinstance(old.get("peer"), str):
        header["peer"] = old["peer"]
        notes.append("peer read from the damaged header (unverified)")
    else:
        header["peer"] = authors.most_common(1)[0][0] if authors else ""
        notes.append("peer unknown (taken as the most frequent author)")
    table = old.get("table")
    if isinstance(table, str) and table:
        header["table"] = table
        notes.append("table id read from the damaged header (unverified)")
    else:
        header["table"] = ""
        notes.append("table id lost")
    for key in ("created", "seats", "decks"):  # extras only the header had
        if key in old:
            header[key] = old[key]
    return header, notes


def _copy(records: list[Any]) -> dict[str, Any] | None:
    """The header's copy record, when the log has one (near its start)."""
    for record in records[:8]:
        if type(record) is dict and isinstance(record.get("header"), dict) \
                and record["header"].get("table"):
            return dict(record["header"])
    return None


def _decode(damaged: bytes) -> dict[str, Any]:
    """The damaged header's map, if its bytes still decode as one (else empty)."""
    if len(damaged) < 9:
        return {}
    unpacker = msgpack.Unpacker(strict_map_key=True)
    unpacker.feed(damaged[8:])  # the stretch may run past the header's own frame
    try:
        value = next(unpacker)
    except Exception:
        return {}
    return value if isinstance(value, dict) else {}


def _module(records: list[Any]) -> tuple[str, str, str]:
    """(game, hash, version) from the first module op, else empty strings."""
    for record in records:
        wire = record.get("op") if type(record) is dict else record
        if type(wire) is list and len(wire) == 9 and wire[3] == "module" \
                and isinstance(wire[4], dict):
            args = wire[4]
            return str(args.get("game") or ""), str(args.get("hash") or ""), \
                str(args.get("version") or "")
    return "", "", ""


def _authors(records: list[Any]) -> tuple[str, Counter[str]]:
    """(the author of this peer's private records or "", ops per author)."""
    own: Counter[str] = Counter()
    authors: Counter[str] = Counter()
    for record in records:
        if type(record) is dict:
            wire = record.get("op")
            if type(wire) is list and wire and isinstance(wire[0], str) \
                    and isinstance(record.get("private"), dict):
                own[wire[0]] += 1
        else:
            wire = record
        if type(wire) is list and wire and isinstance(wire[0], str):
            authors[wire[0]] += 1
    return (own.most_common(1)[0][0] if own else ""), authors
