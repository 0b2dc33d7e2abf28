"""Reading the component declarations of ``game.toml``: boards, tiles, zones, counters,
tokens, dice, the inventory list, and the card templates."""
from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from .model import (
    SEAT,
    Board,
    BoardSlot,
    Condition,
    Counter,
    Die,
    Grid,
    Tile,
    TileSlot,
    Token,
    Zone,
)
from .toml_reader import Table

ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@-]*$")
COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
VISIBILITIES = ("public", "owner", "hidden")
ZONE_KINDS = ("pile", "zone", "slot")
BOARD_KINDS = ("slots", "grid", "mat")


def check_id(t: Table, key: str, value: str | None) -> str | None:
    if value is None:
        return None
    if SEAT in value and not value.replace(SEAT, "1"):
        return value
    if not ID.match(value.replace(SEAT, "1")):
        t.problem(key, f"'{value}' is not a valid id: use letters, digits, '-', "
                  f"'.', and {SEAT} for per-seat ids")
        return None
    return value


def check_colour(t: Table, key: str, value: str | None) -> str | None:
    if value is not None and not COLOUR.match(value):
        t.problem(key, f"'{key}' must be a colour like \"#a83232\", not '{value}'")
        return None
    return value


def read_when(t: Table, headers: Iterable[str]) -> Condition | None:
    w = t.table("when")
    if w is None:
        return None
    known = list(headers)
    if len(w.data) != 1:
        t.problem("when", "'when' must have exactly one deck header, e.g. "
                  "when = { faction = \"Diplomats\" }")
        return None
    (key, value), = w.data.items()
    if key not in known:
        w.problem(key, f"'when' uses '{key}', which is not a deck header "
                  f"(declared: {', '.join(known) or 'none'})")
        return None
    values = [value] if isinstance(value, str) else value
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        w.problem(key, f"'when.{key}' must be a string or an array of strings")
        return None
    return Condition(key, tuple(values))


def read_boards(root: Table, max_seats: int, headers: Iterable[str]) -> list[Board]:
    boards: list[Board] = []
    for t in root.tables("boards", "[[boards]]"):
        t.check_keys(("id", "name", "kind", "sides", "slots", "grid", "when"))
        bid = check_id(t, "id", t.str("id", required=True))
        name = t.str("name", default=bid or "") or ""
        kind = t.str("kind", required=True, choices=BOARD_KINDS)
        sides = tuple(t.str_list("sides") or ())
        when = read_when(t, headers)
        slots: list[BoardSlot] = []
        raw_slots = t.data.get("slots", [])
        if not isinstance(raw_slots, list):
            t.problem("slots", "'slots' must be an array of tables")
            raw_slots = []
        for i, item in enumerate(raw_slots):
            if not isinstance(item, dict):
                t.sink.add(t.index.line_of((*t.path, "slots", i)),
                           f"slot {i + 1} of board '{bid}' must be a table like {{ id = \"P0\" }}")
                continue
            s = t.sub("slots", {}, "").sub(i, item, f"slot {i + 1} of board '{bid}'")
            s.check_keys(("id", "name", "seat", "tags"))
            local = check_id(s, "id", s.str("id", required=True))
            seat = s.int("seat")
            if seat is not None and not 1 <= seat <= max_seats:
                s.problem("seat", f"seat {seat} does not exist (seats are 1-{max_seats})")
            if local and bid:
                slots.append(BoardSlot(id=f"{bid}.{local}", name=s.str("name", default=local)
                                       or local, seat=seat, tags=tuple(s.str_list("tags") or ()),
                                       index=i))
        grid = None
        g = t.table("grid")
        if g is not None:
            g.check_keys(("cols", "rows", "tile_size"))
            cols, rows = g.int("cols", required=True), g.int("rows", required=True)
            size = g.int("tile_size")
            tile_slots: list[TileSlot] = []
            if cols and rows and size:
                if cols % size or rows % size:
                    g.problem("tile_size", f"tile_size {size} must divide cols {cols} and "
                              f"rows {rows}")
                else:
                    for i in range((cols // size) * (rows // size)):
                        x, y = (i % (cols // size)) * size, (i // (cols // size)) * size
                        tile_slots.append(TileSlot(id=f"{bid}.t{i + 1}", x=x, y=y))
            if cols and rows:
                if cols < 1 or rows < 1:
                    g.problem("cols", "a grid needs at least one column and one row")
                grid = Grid(cols=cols, rows=rows, tile_size=size, tile_slots=tuple(tile_slots))
        if kind == "grid" and grid is None and not g:
            t.problem(None, f"board '{bid}' is a grid: give grid = {{ cols = .., rows = .. }}")
        if bid and kind:
            # kind is one of BOARD_KINDS: t.str(choices=...) reported any other
            boards.append(Board(id=bid, name=name, kind=kind,  # type: ignore[arg-type]
                                sides=sides, slots=tuple(slots), grid=grid, when=when))
    return boards


def read_tiles(root: Table) -> list[Tile]:
    tiles: list[Tile] = []
    for t in root.tables("tiles", "[[tiles]]"):
        t.check_keys(("id", "name", "size", "sides", "sample"))
        tid = check_id(t, "id", t.str("id", required=True))
        size = t.int("size", required=True)
        sides_t = t.table("sides", required=True)
        sides: dict[str, frozenset[tuple[int, int]]] = {}
        if sides_t is not None and size:
            for side, rows in sides_t.data.items():
                if not isinstance(rows, list) or not all(isinstance(r, str) for r in rows):
                    sides_t.problem(side, f"side '{side}' of tile '{tid}' must be an array of "
                                    f"{size} strings of '.' and '#'")
                    continue
                cells: set[tuple[int, int]] = set()
                if len(rows) != size:
                    sides_t.problem(side, f"side '{side}' of tile '{tid}' has {len(rows)} rows, "
                                    f"not {size}")
                for y, row in enumerate(rows):
                    where = t.index.line_of((*sides_t.path, side, y))
                    if len(row) != size or set(row) - {".", "#"}:
                        t.sink.add(where, f"row {y + 1} of side '{side}' of tile '{tid}' must "
                                   f"be {size} characters of '.' (open) and '#' (obstruction)")
                    cells.update((x, y) for x, c in enumerate(row) if c == "#")
                sides[side] = frozenset(cells)
        if tid and size:
            tiles.append(Tile(id=tid, name=t.str("name", default=tid) or tid, size=size,
                              sides=sides, sample=t.bool("sample")))
    return tiles


def read_zones(root: Table, headers: Iterable[str]) -> list[Zone]:
    zones: list[Zone] = []
    headers = list(headers)
    for t in root.tables("zones", "[[zones]]"):
        t.check_keys(("id", "name", "kind", "visibility", "face", "board", "when", "tags",
                      "keeper"))
        zid = check_id(t, "id", t.str("id", required=True))
        kind = t.str("kind", required=True, choices=ZONE_KINDS)
        vis = t.str("visibility", required=True, choices=VISIBILITIES)
        face = t.str("face", choices=("up", "down"),
                     default="down" if vis == "hidden" else "up")
        if zid and kind and vis:  # of ZONE_KINDS and VISIBILITIES: t.str(choices=...) checked
            zones.append(Zone(id=zid, name=t.str("name", default=zid) or zid,
                              kind=kind,  # type: ignore[arg-type]
                              visibility=vis,  # type: ignore[arg-type]
                              face_up=face == "up", board=t.str("board"),
                              when=read_when(t, headers), tags=tuple(t.str_list("tags") or ()),
                              keeper=t.int("keeper")))
    return zones


def _by_seat_count(t: Table, key: str, players: tuple[int, int]) -> dict[int, tuple[int, ...]]:
    sub = t.table(key)
    out: dict[int, tuple[int, ...]] = {}
    if sub is None:
        return out
    for k in sub.data:
        if not k.isdigit() or not players[0] <= int(k) <= players[1]:
            sub.problem(k, f"'{key}': '{k}' is not a player count of this game "
                        f"({players[0]}-{players[1]})")
            continue
        values = sub.int_list(k)
        if values is None:
            continue
        if len(values) != int(k):
            sub.problem(k, f"'{key}.{k}' must give {k} values, one per seat, not {len(values)}")
            continue
        out[int(k)] = tuple(values)
    return out


def read_counters(root: Table, players: tuple[int, int], headers: Iterable[str]) -> list[Counter]:
    counters: list[Counter] = []
    headers = list(headers)
    for t in root.tables("counters", "[[counters]]"):
        t.check_keys(("id", "name", "min", "max", "start", "start_by_seat",
                      "start_by_seat_count", "board", "when", "max_from"))
        cid = check_id(t, "id", t.str("id", required=True))
        lo, hi = t.int("min", default=0), t.int("max")
        start = t.int("start", default=lo if lo is not None else 0)
        crossed = lo is not None and hi is not None and lo > hi
        if crossed:
            t.problem("min", f"counter '{cid}': min {lo} is greater than max {hi}")
        by_seat = tuple(t.int_list("start_by_seat") or ())
        if by_seat and len(by_seat) < players[1]:
            t.problem("start_by_seat", f"'start_by_seat' needs {players[1]} values (one per "
                      f"seat), not {len(by_seat)}")
            by_seat = ()
        by_count = _by_seat_count(t, "start_by_seat_count", players)
        if (by_seat or by_count) and cid and SEAT not in cid:
            t.problem("id", f"counter '{cid}' has starts by seat, so its id needs {SEAT}")
        for value in (start, *by_seat, *(v for vs in by_count.values() for v in vs)):
            if value is None or crossed:
                continue
            if (lo is not None and value < lo) or (hi is not None and value > hi):
                t.problem("start", f"counter '{cid}': start {value} is outside {lo}..{hi}")
                break
        max_from, max_rule = None, None
        mf = t.table("max_from")
        if mf is not None:
            mf.check_keys(("header", "column", "rule"))
            max_rule = mf.str("rule")
            if max_rule is not None and hi is not None:
                t.problem("max", f"counter '{cid}': max {hi} and max_from.rule '{max_rule}' "
                          "both give its maximum; state it once (the rule)")
            alone = max_rule is not None and "header" not in mf.data and "column" not in mf.data
            header = mf.str("header", required=not alone)
            column = mf.str("column", required=not alone)
            if header and header not in headers:
                mf.problem("header", f"'max_from.header': '{header}' is not a deck header")
            if header and column:
                max_from = (header, column)
        if cid:
            counters.append(Counter(id=cid, name=t.str("name", default=cid) or cid,
                                    start=start or 0, min=lo, max=hi, board=t.str("board"),
                                    when=read_when(t, headers), start_by_seat=by_seat,
                                    start_by_seat_count=by_count, max_from=max_from,
                                    max_rule=max_rule))
    return counters


def read_tokens(root: Table, headers: Iterable[str]) -> list[tuple[Token, int]]:
    tokens: list[tuple[Token, int]] = []
    headers = list(headers)
    for t in root.tables("tokens", "[[tokens]]"):
        t.check_keys(("id", "name", "kind", "count", "home", "colour", "shape", "label", "when"))
        tid = check_id(t, "id", t.str("id", required=True))
        count = t.int("count", default=1) or 0
        if count < 1:
            t.problem("count", f"token '{tid}': count must be 1 or more, not {count}")
        kind = t.str("kind", required=True)
        if tid and kind and count >= 1:
            tokens.append((Token(id=tid, name=t.str("name", default=tid) or tid, kind=kind,
                                 home=t.str("home"),
                                 colour=check_colour(t, "colour", t.str("colour")),
                                 shape=t.str("shape", default="disc") or "disc",
                                 label=t.str("label", default="") or "",
                                 when=read_when(t, headers)), count))
    return tokens


def read_dice(root: Table) -> list[Die]:
    dice: list[Die] = []
    for t in root.tables("dice", "[[dice]]"):
        t.check_keys(("id", "name", "sides", "home"))
        did = check_id(t, "id", t.str("id", required=True))
        sides = t.int("sides", default=6) or 0
        if sides < 2:
            t.problem("sides", f"die '{did}' needs at least 2 sides, not {sides}")
        if did:
            dice.append(Die(id=did, name=t.str("name", default=did) or did, sides=sides,
                            home=t.str("home")))
    return dice


def read_components(root: Table) -> list[tuple[str, str, int]]:
    out: list[tuple[str, str, int]] = []
    for t in root.tables("components", "[[components]]"):
        t.check_keys(("id", "name", "count", "note"))
        cid = check_id(t, "id", t.str("id", required=True))
        t.str("note")
        if cid:
            out.append((cid, t.str("name", default=cid) or cid, t.int("count", default=1) or 1))
    return out


def all_values(value: Any) -> list[Any]:
    if isinstance(value, list | tuple):
        return [x for v in value for x in all_values(v)]
    return [value]
