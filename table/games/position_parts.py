"""Reading the tables of a position that place things: zones, counters, tokens, dice, boards,
tiles and the turn. Every id and name is checked against the module for the seats and deck
lists the position uses."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from table.core.objects import ROOT

from .model import Deck
from .module import GameModule
from .position_model import (
    FACES,
    UNKNOWN,
    CardPlacement,
    TilePlacement,
    TokenPlacement,
    ZonePlacement,
)
from .position_source import PositionSource
from .spelling import suggest

CARD_KEYS = {"card", "face", "owner", "rotation", "side", "counters", "pos"}
ZONE_KEYS = {"cards", "rest", "shuffle"}


def _int(value: Any) -> bool:
    return type(value) is int


class _Names:
    """The ids a position may name, for the seat count and decks in play."""

    def __init__(self, module: GameModule, seats: int, decks: Mapping[int, Deck]) -> None:
        self.module = module
        self.zones = {z.id: z for z in module.zones_for(seats, decks)}
        self.counters = {c.id for c in module.counters_for(seats, decks)}
        self.tokens = {t.id for t in module.tokens_for(seats, decks)}
        self.dice = {d.id: d for d in module.dice_for(seats)}
        self.boards = {b.id: b for b in module.boards_for(seats, decks)}
        self.tile_slots = {ts.id for b in self.boards.values() if b.grid
                           for ts in b.grid.tile_slots}
        self.tiles = {t.id: t for t in module.tiles}
        self.card_counters = {cid for cid, _ in module.card_counters}
        self.sides = {s for ct in module.card_types.values() for s in ct.sides}
        self.card_names = sorted({c.name for c in module.cards.values()} | set(module.cards))
        self.phases = [str(p) for p in module.rules.get("phases", []) or []]
        self.seats = seats

    def card(self, ref: str) -> tuple[str | None, str]:
        """(card id, '') or (None, problem)."""
        if ref == UNKNOWN:
            return UNKNOWN, ""
        found = self.module.find_cards(ref)
        if len(found) == 1:
            return found[0].id, ""
        if found:
            return None, (f"card name '{ref}' is ambiguous: use its id "
                          f"({', '.join(c.id for c in found)})")
        return None, f"no card '{ref}' in {self.module.name}{suggest(ref, self.card_names)}"


def read_parts(r: PositionSource, module: GameModule, seats: int,
               decks: Mapping[int, Deck]) -> dict[str, Any]:
    names = _Names(module, seats, decks)
    turn = _read_turn(r, names)
    return {"zones": _read_zones(r, names), "counters": _read_counters(r, names),
            "tokens": _read_tokens(r, names), "dice": _read_dice(r, names),
            "boards": _read_boards(r, names), "tiles": _read_tiles(r, names), **turn}


def _id_ok(r: PositionSource, path: tuple[str | int, ...], ident: str, known: Any, what: str) -> bool:
    if ident in known:
        return True
    r.bad(path, f"no {what} '{ident}' at this table{suggest(ident, known)}")
    return False


def _read_zones(r: PositionSource, names: _Names) -> tuple[ZonePlacement, ...]:
    out: list[ZonePlacement] = []
    for zone_id, value in r.table("zones").items():
        path: tuple[str | int, ...] = ("zones", zone_id)
        if zone_id != ROOT and not _id_ok(r, path, zone_id, names.zones, "zone"):
            continue
        rest = shuffle = False
        if isinstance(value, dict):
            r.only(path, value, ZONE_KEYS)
            rest, shuffle = value.get("rest", False), value.get("shuffle", False)
            for key, flag in (("rest", rest), ("shuffle", shuffle)):
                if not isinstance(flag, bool):
                    r.bad((*path, key), f"'{key}' must be true or false")
            if rest and (zone_id == ROOT or names.zones[zone_id].owner is None):
                r.bad((*path, "rest"), f"'rest' needs a seat's zone; {zone_id} belongs to no "
                      "seat")
            value, path = value.get("cards", []), (*path, "cards")
        if not isinstance(value, list):
            r.bad(path, "a zone's cards are an array, bottom card first")
            continue
        cards = [c for i, item in enumerate(value)
                 if (c := _read_card(r, names, (*path, i), item)) is not None]
        out.append(ZonePlacement(zone_id, tuple(cards), r.line(*path), bool(rest), bool(shuffle)))
    return tuple(out)


def _read_card(r: PositionSource, names: _Names, path: tuple[str | int, ...],
               item: Any) -> CardPlacement | None:
    if isinstance(item, str):
        item = {"card": item}
    if not isinstance(item, dict) or not isinstance(item.get("card"), str):
        r.bad(path, "a card is its name (\"Iron Wall\") or { card = \"Iron Wall\", ... }")
        return None
    r.only(path, item, CARD_KEYS)
    card, problem = names.card(item["card"])
    if card is None:
        r.bad(path, problem)
        return None
    face = item.get("face")
    if face is not None and face not in FACES:
        r.bad((*path, "face"), f"face must be \"up\" or \"down\", not {face!r}")
    owner = item.get("owner")
    if owner is not None and not (_int(owner) and 1 <= owner <= names.seats):
        r.bad((*path, "owner"), f"owner must be a seat 1-{names.seats}")
    rotation = item.get("rotation", 0)
    if not _int(rotation) or rotation % 90:
        r.bad((*path, "rotation"), "rotation must be 0, 90, 180 or 270")
    side = item.get("side")
    if side is not None and side not in names.sides:
        r.bad((*path, "side"), f"no card has a side '{side}'{suggest(str(side), names.sides)}")
    counters = item.get("counters", {})
    if not isinstance(counters, dict):
        r.bad((*path, "counters"), "counters must be a table like { damage = 2 }")
        counters = {}
    for key, amount in counters.items():
        if key not in names.card_counters:
            r.bad((*path, "counters", key), f"no card counter '{key}'"
                  f"{suggest(key, names.card_counters)}")
        elif not _int(amount):
            r.bad((*path, "counters", key), f"counter '{key}' must be an integer")
    pos = item.get("pos")
    if pos is not None and not (isinstance(pos, list) and len(pos) == 2
                                and all(isinstance(v, int | float) for v in pos)):
        r.bad((*path, "pos"), "pos must be [x, y]")
        pos = None
    if card == UNKNOWN:
        r.bad(path, "an unknown card (\"?\": the peer that saved this position could not see "
              "it): name it to start from this position")
    return CardPlacement(card, r.line(*path), None if face is None else face == "up",
                         owner if _int(owner) else None, rotation if _int(rotation) else 0,
                         side if isinstance(side, str) else None, dict(counters),
                         (float(pos[0]), float(pos[1])) if pos else None)


def _read_counters(r: PositionSource, names: _Names) -> dict[str, int]:
    out: dict[str, int] = {}
    for cid, value in r.table("counters").items():
        if not _id_ok(r, ("counters", cid), cid, names.counters, "counter"):
            continue
        if not _int(value):
            r.bad(("counters", cid), f"counter '{cid}' must be an integer")
            continue
        out[cid] = value
    return out


def _read_tokens(r: PositionSource, names: _Names) -> dict[str, TokenPlacement]:
    out: dict[str, TokenPlacement] = {}
    places = set(names.zones) | set(names.boards) | {"table"}
    for tid, value in r.table("tokens").items():
        path: tuple[str | int, ...] = ("tokens", tid)
        if not _id_ok(r, path, tid, names.tokens | set(names.dice), "token"):
            continue
        if isinstance(value, str):
            value = {"at": value}
        if not isinstance(value, dict) or not isinstance(value.get("at"), str):
            r.bad(path, "a token's place is a zone id, or { at = \"arena\", cell = [x, y] }")
            continue
        r.only(path, value, {"at", "cell", "pos"})
        at, cell, pos = value["at"], value.get("cell"), value.get("pos")
        if pos is not None and not (isinstance(pos, list) and len(pos) == 2
                                    and all(isinstance(v, int | float) for v in pos)):
            r.bad((*path, "pos"), "pos must be [x, y]")
            continue
        if not _id_ok(r, (*path, "at"), at, places, "zone or board"):
            continue
        if cell is not None:
            board = names.boards.get(at)
            if board is None or board.grid is None:
                r.bad((*path, "cell"), f"'{at}' is not a grid board: a cell needs one")
                continue
            if not (isinstance(cell, list) and len(cell) == 2 and all(map(_int, cell))
                    and 0 <= cell[0] < board.grid.cols and 0 <= cell[1] < board.grid.rows):
                r.bad((*path, "cell"), f"cell must be [x, y] on the {board.grid.cols}x"
                      f"{board.grid.rows} grid of '{at}'")
                continue
        out[tid] = TokenPlacement(at, (cell[0], cell[1]) if cell else None,
                                  (float(pos[0]), float(pos[1])) if pos else None)
    return out


def _read_dice(r: PositionSource, names: _Names) -> dict[str, int]:
    out: dict[str, int] = {}
    for did, value in r.table("dice").items():
        if not _id_ok(r, ("dice", did), did, names.dice, "die"):
            continue
        sides = names.dice[did].sides
        if not _int(value) or not 1 <= value <= sides:
            r.bad(("dice", did), f"die '{did}' shows 1-{sides}, not {value!r}")
            continue
        out[did] = value
    return out


def _read_boards(r: PositionSource, names: _Names) -> dict[str, str]:
    out: dict[str, str] = {}
    for bid, value in r.table("boards").items():
        if not _id_ok(r, ("boards", bid), bid, names.boards, "board"):
            continue
        side = value.get("side") if isinstance(value, dict) else value
        sides = names.boards[bid].sides
        if side not in sides:
            r.bad(("boards", bid), f"board '{bid}' has no side {side!r}"
                  f"{suggest(str(side), sides)} (sides: {', '.join(sides) or 'none'})")
            continue
        out[bid] = side
    return out


def _read_tiles(r: PositionSource, names: _Names) -> dict[str, TilePlacement]:
    out: dict[str, TilePlacement] = {}
    for slot, value in r.table("tiles").items():
        path: tuple[str | int, ...] = ("tiles", slot)
        if not _id_ok(r, path, slot, names.tile_slots, "tile slot"):
            continue
        if not isinstance(value, dict):
            r.bad(path, "a tile is { tile = \"rym-1\", side = \"A\", rotation = 0 }")
            continue
        r.only(path, value, {"tile", "side", "rotation"})
        tile = names.tiles.get(str(value.get("tile")))
        if tile is None:
            r.bad((*path, "tile"), f"no tile {value.get('tile')!r}"
                  f"{suggest(str(value.get('tile')), names.tiles)}")
            continue
        side, rotation = value.get("side"), value.get("rotation", 0)
        if side not in tile.sides:
            r.bad((*path, "side"), f"tile '{tile.id}' has no side {side!r}"
                  f"{suggest(str(side), tile.sides)}")
            continue
        if not _int(rotation) or rotation % 90:
            r.bad((*path, "rotation"), "rotation must be 0, 90, 180 or 270")
            continue
        out[slot] = TilePlacement(tile.id, str(side), rotation % 360)
    return out


def _read_turn(r: PositionSource, names: _Names) -> dict[str, Any]:
    turn = r.table("turn")
    r.only(("turn",), turn, {"seat", "number", "phase", "step"})
    seat, number = turn.get("seat"), turn.get("number")
    if seat is not None and not (_int(seat) and 1 <= seat <= names.seats):
        r.bad(("turn", "seat"), f"the active seat must be 1-{names.seats}")
        seat = None
    if number is not None and not (_int(number) and number >= 1):
        r.bad(("turn", "number"), "the turn number must be 1 or more")
        number = None
    if number is not None and seat is None:
        r.bad(("turn", "number"), "a turn number needs the active seat (seat = N)")
    kind = "step" if "step" in turn else "phase"
    phase = turn.get(kind)
    if "step" in turn and "phase" in turn:
        r.bad(("turn", "step"), "give phase or step, not both")
    if phase is not None:
        if not isinstance(phase, str):
            r.bad(("turn", kind), f"the {kind} is a name")
            phase = None
        elif names.phases and phase not in names.phases:
            r.bad(("turn", kind), f"{names.module.name} has no {kind} '{phase}'"
                  f"{suggest(phase, names.phases)} ({', '.join(names.phases)})")
            phase = None
        elif seat is None:
            r.bad(("turn", kind), f"a {kind} needs the active seat (seat = N)")
    return {"turn_seat": seat, "turn_number": number if seat is not None else None,
            "phase": phase, "phase_kind": kind}
