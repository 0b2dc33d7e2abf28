"""Reading ``cards.csv``: one row per card, columns checked against the module's declaration."""
from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping

from .model import Card, CardType, CardValue, Column
from .problems import ProblemSink

SLUG = re.compile(r"^[a-z0-9][a-z0-9-]*$")
CORE_COLUMNS = ("id", "name", "type", "text", "side_b", "text_b", "image", "sample")
REQUIRED_CORE = ("id", "name", "type")
_TRUE = {"true", "yes", "y", "1", "x"}
_FALSE = {"false", "no", "n", "0", ""}


def parse_bool(text: str) -> bool | None:
    t = text.strip().casefold()
    if t in _TRUE:
        return True
    if t in _FALSE:
        return False
    return None


def read_cards(text: str, sink: ProblemSink, columns: tuple[Column, ...], group_column: str,
               groups: tuple[str, ...], neutral: str | None,
               card_types: Mapping[str, CardType]) -> dict[str, Card]:
    """Parse cards.csv text; every problem goes to ``sink`` with its line."""
    if text.startswith("\ufeff"):
        text = text[1:]
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader)
    except StopIteration:
        sink.add(0, "cards.csv is empty (it needs a header row)")
        return {}
    except csv.Error as exc:
        sink.add(1, f"malformed CSV: {exc}")
        return {}
    header = [h.strip() for h in header]
    extra = {c.name: c for c in columns}
    if not _header_ok(header, sink, columns, group_column):
        return {}
    group_names = {g.casefold(): g for g in groups}
    if neutral:
        group_names[neutral.casefold()] = neutral
    cards: dict[str, Card] = {}
    first_line: dict[str, int] = {}
    line = reader.line_num + 1
    while True:
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            sink.add(line, f"malformed CSV row: {exc}")
            break
        this_line, line = line, reader.line_num + 1
        if not row or all(not c.strip() for c in row):
            continue
        if row[0].lstrip().startswith("#"):
            continue
        if len(row) != len(header):
            sink.add(this_line, f"row has {len(row)} fields but the header has {len(header)}")
            continue
        values = {h: v.strip() for h, v in zip(header, row, strict=True)}
        card = _card(values, this_line, sink, extra, group_column, group_names, neutral,
                     card_types)
        if card is None:
            continue
        if card.id in cards:
            sink.add(this_line, f"duplicate card id '{card.id}' (first on line "
                     f"{first_line[card.id]})")
            continue
        cards[card.id] = card
        first_line[card.id] = this_line
    return cards


def _header_ok(header: list[str], sink: ProblemSink, columns: tuple[Column, ...],
               group_column: str) -> bool:
    """Report unknown, doubled and missing columns; False if no card can be read at all."""
    known = set(CORE_COLUMNS) | {group_column} | {c.name for c in columns}
    seen_cols: set[str] = set()
    for h in header:
        if h in seen_cols:
            sink.add(1, f"column '{h}' appears twice")
        seen_cols.add(h)
        if h not in known:
            sink.add(1, f"unknown column '{h}' (declare it in [cards.columns] of game.toml)")
    for required in (*REQUIRED_CORE, group_column, *(c.name for c in columns if c.required)):
        if required not in seen_cols:
            sink.add(1, f"missing required column '{required}'")
    return {"id", "name", "type"} <= seen_cols


def _card(values: dict[str, str], line: int, sink: ProblemSink, extra: Mapping[str, Column],
          group_column: str, group_names: Mapping[str, str], neutral: str | None,
          card_types: Mapping[str, CardType]) -> Card | None:
    ok = True
    cid = values.get("id", "")
    if not SLUG.match(cid):
        sink.add(line, f"card id '{cid}' must be a slug: lower-case letters, digits and '-'")
        ok = False
    name = values.get("name", "")
    if not name:
        sink.add(line, f"card '{cid}' has no name")
        ok = False
    ctype = values.get("type", "")
    if ctype not in card_types:
        sink.add(line, f"card '{cid}': unknown type '{ctype}' (declare it in [card_types])")
        ok = False
    raw_group = values.get(group_column, "")
    group = group_names.get(raw_group.casefold())
    if group is None:
        if raw_group == "" and neutral:
            group = neutral
        else:
            sink.add(line, f"card '{cid}': unknown {group_column} '{raw_group}'")
            ok = False
    sample = parse_bool(values.get("sample", ""))
    if sample is None:
        sink.add(line, f"card '{cid}': 'sample' must be true or false, "
                 f"not '{values.get('sample')}'")
        ok = False
    fields, fields_ok = _fields(values, line, sink, extra, cid)
    ok = ok and fields_ok
    side_b = values.get("side_b", "")
    if ok and card_types[ctype].sides and not side_b:
        sink.add(line, f"card '{cid}': type {ctype} is double-sided; fill in 'side_b'")
        ok = False
    if not ok:
        return None
    return Card(id=cid, name=name, type=ctype, group=group or "", text=values.get("text", ""),
                side_b=side_b, text_b=values.get("text_b", ""), image=values.get("image", ""),
                sample=bool(sample), fields=fields, line=line)


def _fields(values: dict[str, str], line: int, sink: ProblemSink, extra: Mapping[str, Column],
            cid: str) -> tuple[dict[str, CardValue], bool]:
    """The declared columns' values of one card, typed; False if any is missing or malformed."""
    ok = True
    fields: dict[str, CardValue] = {}
    for col in extra.values():
        raw = values.get(col.name, "")
        if raw == "":
            if col.required:
                sink.add(line, f"card '{cid}': column '{col.name}' is required")
                ok = False
            fields[col.name] = False if col.type == "bool" else None
            continue
        if col.type == "int":
            try:
                fields[col.name] = int(raw)
            except ValueError:
                sink.add(line, f"card '{cid}': '{col.name}' must be a whole number, not '{raw}'")
                ok = False
        elif col.type == "bool":
            b = parse_bool(raw)
            if b is None:
                sink.add(line, f"card '{cid}': '{col.name}' must be true or false, not '{raw}'")
                ok = False
            fields[col.name] = bool(b)
        elif col.type == "list":
            fields[col.name] = tuple(p.strip() for p in raw.split(";") if p.strip())
        else:
            fields[col.name] = raw
    return fields, ok
