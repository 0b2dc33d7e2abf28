"""Reading and checking the ``[[setup]]`` steps of ``game.toml``."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .declarations import read_when
from .model import SEAT
from .steps import COMMON_KEYS, STEP_FIELDS, StepTemplate
from .toml_reader import Table

if TYPE_CHECKING:
    from .module import GameModule

_SCALAR_KINDS = {"zone", "counter", "token", "board", "tile", "tileslot", "die", "str",
                 "section", "zone_or_board", "board_or_zone", "method", "face"}


def _type_ok(kind: str, value: Any) -> str | None:
    """None if ``value`` has the right TOML type for ``kind``, else what it should be."""
    if kind in _SCALAR_KINDS:
        return None if isinstance(value, str) else "a string"
    if kind == "int":
        return None if isinstance(value, int) and not isinstance(value, bool) else "an integer"
    if kind == "bool":
        return None if isinstance(value, bool) else "true or false"
    if kind in ("zone_list", "counter_list", "die_list"):
        ok = isinstance(value, list) and all(isinstance(v, str) for v in value)
        return None if ok else "an array of strings"
    if kind == "cell":
        ok = (isinstance(value, list) and len(value) == 2
              and all(isinstance(v, int) and not isinstance(v, bool) for v in value))
        return None if ok else "an array [x, y]"
    if kind == "cards":
        ok = (isinstance(value, dict) and all(isinstance(v, int) and not isinstance(v, bool)
                                              and v > 0 for v in value.values())) or \
             (isinstance(value, list) and all(isinstance(v, str) for v in value))
        return None if ok else "a table { card-id = count } or an array of card ids"
    return None


def _has_seat(value: Any) -> bool:
    if isinstance(value, str):
        return SEAT in value
    if isinstance(value, list):
        return any(_has_seat(v) for v in value)
    if isinstance(value, dict):
        return any(_has_seat(k) or _has_seat(v) for k, v in value.items())
    return False


def read_setup(root: Table, players: tuple[int, int], headers: list[str]) -> list[StepTemplate]:
    out: list[StepTemplate] = []
    for i, t in enumerate(root.tables("setup", "[[setup]]"), start=1):
        t.label = f"[[setup]] step {i}"
        kind = t.str("do", required=True, choices=list(STEP_FIELDS))
        if kind is None:
            continue
        fields = STEP_FIELDS[kind]
        allowed = [*COMMON_KEYS, *fields, *(f + "_by_seat" for f in fields),
                   *(f + "_by_seat_count" for f in fields)]
        t.check_keys(allowed)
        t.str("note")
        each = t.bool("each_seat")
        values: dict[str, Any] = {}
        by_seat: dict[str, tuple[Any, ...]] = {}
        by_count: dict[str, dict[int, tuple[Any, ...]]] = {}
        ok = True
        for name, (fkind, required) in fields.items():
            given = [k for k in (name, name + "_by_seat", name + "_by_seat_count") if k in t.data]
            if not given:
                if required:
                    t.problem(None, f"{t.label} ({kind}) is missing '{name}'")
                    ok = False
                continue
            if name + "_by_seat" in given and name + "_by_seat_count" in given:
                t.problem(name + "_by_seat_count", f"{t.label}: give '{name}_by_seat' or "
                          f"'{name}_by_seat_count', not both")
                ok = False
                continue
            for key in given:
                ok = _read_given(t, key, name, fkind, players, values, by_seat, by_count) and ok
        per_seat = each or bool(by_seat) or bool(by_count) or _has_seat(list(values.values()))
        if ok:
            out.append(StepTemplate(index=i, kind=kind, per_seat=per_seat, values=values,
                                    by_seat=by_seat, by_seat_count=by_count,
                                    when=read_when(t, headers), line=t.line()))
    return out


def _read_given(t: Table, key: str, name: str, fkind: str, players: tuple[int, int],
                values: dict[str, Any], by_seat: dict[str, tuple[Any, ...]],
                by_count: dict[str, dict[int, tuple[Any, ...]]]) -> bool:
    """One key of a step's field (`name`, `name_by_seat` or `name_by_seat_count`) into its
    table; False if it is malformed."""
    raw = t.data[key]
    if key == name:
        want = _type_ok(fkind, raw)
        if want:
            t.problem(key, f"'{key}' in {t.label} must be {want}")
        values[name] = raw
        return not want
    if key.endswith("_by_seat"):
        if not isinstance(raw, list) or len(raw) < players[1]:
            t.problem(key, f"'{key}' in {t.label} must be an array with one value "
                      f"per seat ({players[1]})")
            return False
        ok = True
        for j, item in enumerate(raw):
            want = _type_ok(fkind, item)
            if want:
                t.sink.add(t.index.line_of((*t.path, key, j)),
                           f"'{key}' in {t.label}: item {j + 1} must be {want}")
                ok = False
        by_seat[name] = tuple(raw)
        return ok
    sub = t.table(key)
    if sub is None:
        return False
    ok = True
    table: dict[int, tuple[Any, ...]] = {}
    for n, seq in sub.data.items():
        if not n.isdigit() or not players[0] <= int(n) <= players[1]:
            sub.problem(n, f"'{key}': '{n}' is not a player count of this game")
            ok = False
        elif not isinstance(seq, list) or len(seq) != int(n) or \
                any(_type_ok(fkind, v) for v in seq):
            sub.problem(n, f"'{key}.{n}' must be an array of {n} values")
            ok = False
        else:
            table[int(n)] = tuple(seq)
    by_count[name] = table
    return ok


def check_setup_refs(module: GameModule, root: Table) -> None:
    """Check every id a step names exists, for every legal seat count."""
    reported: set[tuple[int, str]] = set()
    sides_of_cards = {s for ct in module.card_types.values() for s in ct.sides}

    def bad(t: StepTemplate, key: str, message: str) -> None:
        line = root.index.line_of(("setup", t.index - 1, key))
        if (line, message) not in reported:
            reported.add((line, message))
            root.sink.add(line, message)

    for n in range(module.players.min, module.players.max + 1):
        zones = {z.id for z in module.zones_for(n)}
        counters = {c.id for c in module.counters_for(n)}
        tokens = {tk.id for tk in module.tokens_for(n)} | {d.id for d in module.dice_for(n)}
        boards = {b.id: b for b in module.boards_for(n)}
        tile_slots = {ts.id: b for b in boards.values() if b.grid for ts in b.grid.tile_slots}
        dice = {d.id for d in module.dice_for(n)}
        tiles = {tl.id: tl for tl in module.tiles}
        for t in module.setup:
            label = f"setup step {t.index} ({t.kind})"
            for seat in (range(1, n + 1) if t.per_seat else [None]):
                for name, (fkind, _) in STEP_FIELDS[t.kind].items():
                    key = name if name in t.values else (
                        name + "_by_seat" if name in t.by_seat else name + "_by_seat_count")
                    value = t.value(name, n, seat)
                    if value is None:
                        continue
                    if t.kind == "place" and name == "at" and t.value("cell", n, seat):
                        fkind = "grid_board"
                    _check_ref(module, bad, t, key, label, fkind, value, zones, counters,
                               tokens, boards, tile_slots, dice, tiles, sides_of_cards, n, seat)


def _check_ref(module: GameModule, bad: Any, t: StepTemplate, key: str, label: str,
               fkind: str, value: Any, zones: set[str], counters: set[str], tokens: set[str],
               boards: dict[str, Any], tile_slots: dict[str, Any], dice: set[str],
               tiles: dict[str, Any], sides_of_cards: set[str], n: int,
               seat: int | None) -> None:
    where = f" ({n} players)" if module.players.min != module.players.max else ""
    if fkind in ("grid_board", "board_or_zone"):
        _check_board_ref(bad, t, key, label, fkind, value, zones, boards, sides_of_cards, n,
                         seat, where)
    elif fkind == "zone" and value not in zones:
        bad(t, key, f"{label}: no zone '{value}'{where}")
    elif fkind == "zone_list":
        for z in value:
            if z not in zones:
                bad(t, key, f"{label}: no zone '{z}'{where}")
    elif fkind == "counter" and value not in counters:
        bad(t, key, f"{label}: no counter '{value}'{where}")
    elif fkind == "counter_list":
        for c in value:
            if c not in counters:
                bad(t, key, f"{label}: no counter '{c}'{where}")
    elif fkind == "token" and value not in tokens:
        bad(t, key, f"{label}: no token or die '{value}'{where}")
    elif fkind == "die_list":
        for d in value:
            if d not in dice:
                bad(t, key, f"{label}: no die '{d}'")
    elif fkind == "zone_or_board" and value not in zones and value not in boards:
        bad(t, key, f"{label}: no zone, slot or board '{value}'{where}")
    elif fkind == "tile" and value not in tiles:
        bad(t, key, f"{label}: no tile '{value}'")
    elif fkind == "tileslot" and value not in tile_slots:
        bad(t, key, f"{label}: no tile slot '{value}'")
    elif fkind == "section":
        spec = module.deck_headers.get(value)
        if value not in module.deck_sections and not (spec and spec.card_type):
            bad(t, key, f"{label}: '{value}' is neither a deck-list section nor a deck header "
                f"that names a card")
    elif fkind == "cards":
        pairs = value.items() if isinstance(value, dict) else ((v, 1) for v in value)
        for cid, _ in pairs:
            if cid not in module.cards:
                bad(t, key, f"{label}: no card with id '{cid}'")
    elif fkind == "method" and value not in ("roll", "random"):
        bad(t, key, f"{label}: method must be \"roll\" or \"random\", not '{value}'")
    elif fkind == "face" and value not in ("up", "down"):
        bad(t, key, f"{label}: face must be \"up\" or \"down\", not '{value}'")
    else:
        _check_step_value(bad, t, key, label, value, tiles, sides_of_cards, n, seat)


def _check_board_ref(bad: Any, t: StepTemplate, key: str, label: str, fkind: str, value: Any,
                     zones: set[str], boards: dict[str, Any], sides_of_cards: set[str], n: int,
                     seat: int | None, where: str) -> None:
    """A grid cell on its board; a board's side, or a zone's card side."""
    if fkind == "grid_board":
        b = boards.get(value)
        if b is None or b.grid is None:
            bad(t, key, f"{label}: '{value}' is not a grid board")
        else:
            x, y = t.value("cell", n, seat)
            if not (0 <= x < b.grid.cols and 0 <= y < b.grid.rows):
                bad(t, key, f"{label}: cell [{x}, {y}] is off the {b.grid.cols}x{b.grid.rows} "
                    f"grid of '{value}'")
    elif fkind == "board_or_zone":
        if value in boards:
            side = t.value("side", n, seat)
            if side is not None and side not in boards[value].sides:
                bad(t, "side", f"{label}: board '{value}' has no side '{side}' (sides: "
                    f"{', '.join(boards[value].sides) or 'none'})")
        elif value not in zones:
            bad(t, key, f"{label}: no board or zone '{value}'{where}")
        elif t.value("side", n, seat) not in sides_of_cards:
            bad(t, "side", f"{label}: no double-sided card type has a side "
                f"'{t.value('side', n, seat)}'")


def _check_step_value(bad: Any, t: StepTemplate, key: str, label: str, value: Any,
                      tiles: dict[str, Any], sides_of_cards: set[str], n: int,
                      seat: int | None) -> None:
    """Values whose meaning depends on the step: a tile's side and rotation, a card side, a
    draw count, a card owner."""
    if t.kind == "place_tile" and key == "side" and t.value("tile", n, seat) in tiles:
        tile = tiles[t.value("tile", n, seat)]
        if value not in tile.sides:
            bad(t, key, f"{label}: tile '{tile.id}' has no side '{value}'")
    elif t.kind == "place_tile" and key == "rotation" and value % 90:
        bad(t, key, f"{label}: rotation must be a multiple of 90, not {value}")
    elif t.kind in ("create_deck", "create_cards") and key == "side" \
            and value not in sides_of_cards:
        bad(t, key, f"{label}: no double-sided card type has a side '{value}'")
    elif t.kind == "draw" and key == "count" and value < 0:
        bad(t, key, f"{label}: count must be 0 or more, not {value}")
    elif t.kind == "create_cards" and key == "owner" and not 1 <= value <= n:
        bad(t, key, f"{label}: owner {value} is not a seat")
