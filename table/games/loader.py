"""``load_module``: read ``assets/<id>/`` (game.toml, cards.csv, decks/) into a GameModule,
reporting every problem at once with its file and line."""
from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from .archive import folder_hash as content_hash
from .card_faces import read_card_size
from .cards import read_cards
from .decks import deck_problems, parse_deck
from .declarations import (
    read_boards,
    read_components,
    read_counters,
    read_dice,
    read_tiles,
    read_tokens,
    read_zones,
)
from .model import CardType, Column, HeaderSpec, PlayerRange, Seat
from .module import GameModule
from .module_refs import check_module_refs
from .problems import ModuleError, Problem, ProblemSink
from .rules_reader import counter_maxima, read_rules
from .setup_reader import check_setup_refs, read_setup
from .template_reader import read_templates
from .toml_reader import LineIndex, Table, parse_toml

TOP_KEYS = ("game", "seats", "cards", "card_types", "decks", "boards", "tiles", "zones",
            "counters", "tokens", "dice", "components", "card_counters", "templates", "setup",
            "rules")
COLUMN_TYPES = ("int", "str", "bool", "list")
SLUG = re.compile(r"^[a-z0-9][a-z0-9-]*$")


# (folder, content hash) -> the module read from exactly those bytes. Tables, the assist,
# the report and the designer tools load the same modules again and again; reading the files
# and hashing them is a tenth of parsing them. A draft edited on disk has a new hash.
_LOADED: dict[tuple[Path, str], GameModule] = {}
_LOADED_MAX = 32


def load_module(path: str | Path) -> GameModule:
    """Load the module in folder ``path``; raise ModuleError listing every problem."""
    root = Path(path)
    try:
        key: tuple[Path, str] | None = (root.resolve(), content_hash(root))
    except (OSError, ValueError):  # read_module names what is wrong
        key = None
    if key is not None and key in _LOADED:
        return _LOADED[key]
    problems: list[Problem] = []
    module = read_module(root, problems)
    if problems or module is None:
        raise ModuleError(problems or [Problem(str(path), 0, "not a game module")])
    if key is not None and module.content_hash == key[1]:  # (no file changed while read)
        if len(_LOADED) >= _LOADED_MAX:
            _LOADED.pop(next(iter(_LOADED)))
        _LOADED[key] = module
    return module


def read_module(root: Path, problems: list[Problem], with_decks: bool = True
                ) -> GameModule | None:
    """Read a module, appending problems; returns what could be built (None if nothing).

    ``with_decks=False`` skips the deck lists in ``decks/`` (to check one deck on its own).
    """
    sink = ProblemSink(f"{root.name}/game.toml", problems)
    root_t = _open_game_toml(root, sink)
    if root_t is None:
        return None
    gid, name, version, rulebook, (pmin, pmax) = _read_game(root_t, root)
    seats = _read_seats(root_t, pmax)
    columns, group_column, groups, neutral, cards_file = _read_cards_config(root_t)
    card_types = _read_card_types(root_t)
    sections, headers, group_header = _read_deck_config(root_t, set(card_types))
    _check_type_sections(root_t, card_types, sections)
    header_names = list(headers)
    boards = read_boards(root_t, pmax, header_names)
    tiles = read_tiles(root_t)
    zones = read_zones(root_t, header_names)
    counters = read_counters(root_t, (pmin, pmax), header_names)
    tokens = read_tokens(root_t, header_names)
    dice = read_dice(root_t)
    components = read_components(root_t)
    card_counters = _read_card_counters(root_t)
    col_names = {"id", "name", "type", "text", "side_b", "text_b", "image", "sample", "group",
                 group_column, *(c.name for c in columns)}
    back, front = read_templates(root_t, col_names, {*groups, *([neutral] if neutral else [])},
                                 set(card_types), group_column)
    card_size = read_card_size(t) if (t := root_t.table("templates")) is not None else None
    rules, deck_rules = read_rules(root_t, sections, columns)
    counters = counter_maxima(root_t, counters, rules)
    setup = read_setup(root_t, (pmin, pmax), header_names)

    cards: dict[str, Any] = {}
    csv_path, csv_sink = root / cards_file, sink.for_file(f"{root.name}/{cards_file}")
    if not csv_path.is_file():
        csv_sink.add(0, f"missing {cards_file}")
    else:
        cards = read_cards(csv_path.read_text(encoding="utf-8"), csv_sink, tuple(columns),
                           group_column, tuple(groups), neutral, card_types)
    if gid is None or name is None or version is None:
        return None
    module = GameModule(
        id=gid, name=name, version=version, path=root, content_hash=content_hash(root),
        players=PlayerRange(pmin, pmax), seats=tuple(seats), rulebook=rulebook or "",
        boards=tuple(boards), zones=tuple(zones), counters=tuple(counters),
        tokens=tuple(tokens), dice=tuple(dice), tiles=tuple(tiles), components=tuple(components),
        card_types=card_types, columns=tuple(columns), group_column=group_column,
        groups=tuple(groups), neutral=neutral, cards=cards, card_counters=tuple(card_counters),
        back=back, front=front, card_size=card_size, deck_sections=tuple(sections),
        deck_headers=headers,
        group_header=group_header, deck_rules=deck_rules, setup=tuple(setup), rules=rules)
    check_module_refs(module, root_t)
    check_setup_refs(module, root_t)
    if not with_decks:
        return module
    decks = _read_decks(module, root, sink)
    return replace(module, starter_decks=decks)


def _open_game_toml(root: Path, sink: ProblemSink) -> Table | None:
    """game.toml parsed, its top-level keys checked (None: missing or not TOML)."""
    toml_file = root / "game.toml"
    if not toml_file.is_file():
        sink.add(0, "missing game.toml")
        return None
    text = toml_file.read_text(encoding="utf-8-sig").replace("\r\n", "\n")
    data = parse_toml(text, sink)
    if data is None:
        return None
    root_t = Table(sink, LineIndex(text), (), data, "game.toml")
    root_t.check_keys(TOP_KEYS)
    return root_t


def _read_game(root_t: Table, root: Path
               ) -> tuple[str | None, str | None, str | None, str | None, tuple[int, int]]:
    """[game]: id (the folder's name, a slug), name, version, rulebook, players (min, max)."""
    g = root_t.table("game", required=True, label="[game]")
    gid = name = version = rulebook = None
    pmin, pmax = 1, 1
    if g is not None:
        g.check_keys(("id", "name", "version", "rulebook", "players", "description"))
        gid = g.str("id", required=True)
        if gid is not None and not SLUG.match(gid):
            g.problem("id", f"game id '{gid}' must be a slug (lower-case letters, digits, '-')")
        elif gid is not None and gid != root.name:
            g.problem("id", f"game id '{gid}' does not match its folder name '{root.name}'")
        name, version = g.str("name", required=True), g.str("version", required=True)
        rulebook = g.str("rulebook", default="")
        g.str("description")
        p = g.table("players", required=True, label="[game.players]")
        if p is not None:
            p.check_keys(("min", "max"))
            pmin, pmax = p.int("min", required=True) or 1, p.int("max", required=True) or 1
            if pmin < 1 or pmin > pmax:
                p.problem("min", f"players: min {pmin} must be between 1 and max {pmax}")
                pmin, pmax = 1, max(pmax, 1)
    return gid, name, version, rulebook, (pmin, pmax)


def _read_cards_config(root_t: Table
                       ) -> tuple[list[Column], str, list[str], str | None, str]:
    """[cards]: the card columns, the group column, the groups, the neutral group, the file."""
    cards_t = root_t.table("cards", required=True, label="[cards]")
    columns: list[Column] = []
    group_column, groups, neutral, cards_file = "group", [], None, "cards.csv"
    if cards_t is not None:
        cards_t.check_keys(("file", "group", "groups", "neutral", "columns"))
        cards_file = cards_t.str("file", default="cards.csv") or "cards.csv"
        group_column = cards_t.str("group", required=True) or "group"
        groups = cards_t.str_list("groups", required=True) or []
        neutral = cards_t.str("neutral")
        cols = cards_t.table("columns")
        for cname, spec in (cols.data.items() if cols else []):
            assert cols is not None
            columns.extend(_read_column(cols, cname, spec))
    return columns, group_column, groups, neutral, cards_file


def _check_type_sections(root_t: Table, card_types: dict[str, CardType],
                         sections: list[str]) -> None:
    for ct in card_types.values():
        for s in ct.sections:
            if s not in sections and s != "none":
                root_t.sink.add(root_t.index.line_of(("card_types", ct.name, "sections")),
                                f"card type {ct.name}: '{s}' is not a deck-list section "
                                f"([decks] sections = {sections})")


def _read_seats(root_t: Table, pmax: int) -> list[Seat]:
    s = root_t.table("seats", required=True, label="[seats]")
    if s is None:
        return [Seat(i, f"Seat {i}", "#888888") for i in range(1, pmax + 1)]
    s.check_keys(("names", "colours"))
    names = s.str_list("names", required=True) or []
    colours = s.str_list("colours", required=True) or []
    for key, values in (("names", names), ("colours", colours)):
        if s.has(key) and len(values) < pmax:
            s.problem(key, f"[seats] {key}: {len(values)} given, but up to {pmax} players "
                      f"can play")
    for i, c in enumerate(colours):
        if not re.match(r"^#[0-9a-fA-F]{6}$", c):
            s.sink.add(s.index.line_of(("seats", "colours", i)),
                       f"[seats] colour {i + 1} must be like \"#a83232\", not '{c}'")
    return [Seat(i, names[i - 1] if i <= len(names) else f"Seat {i}",
                 colours[i - 1] if i <= len(colours) else "#888888") for i in range(1, pmax + 1)]


def _read_column(cols: Table, cname: str, spec: Any) -> list[Column]:
    if not re.match(r"^[a-z][a-z0-9_]*$", cname):
        cols.problem(cname, f"column name '{cname}' must be lower_case letters, digits and _")
        return []
    if isinstance(spec, str):
        spec = {"type": spec}
    if not isinstance(spec, dict):
        cols.problem(cname, f"column '{cname}' must be a type name (\"int\", \"str\", \"bool\", "
                     f"\"list\") or a table {{ type = .., required = .. }}")
        return []
    ct = cols.sub(cname, spec, f"column '{cname}'")
    ct.check_keys(("type", "required"))
    ctype = ct.str("type", required=True, choices=COLUMN_TYPES)
    if ctype is None:
        return []
    # ctype is one of COLUMN_TYPES: t.str(choices=...) reported any other
    return [Column(cname, ctype, ct.bool("required"))]  # type: ignore[arg-type]


def _read_card_types(root_t: Table) -> dict[str, CardType]:
    out: dict[str, CardType] = {}
    ct = root_t.table("card_types", required=True, label="[card_types]")
    for tname, spec in (ct.data.items() if ct else []):
        assert ct is not None
        if not isinstance(spec, dict):
            ct.problem(tname, f"card type '{tname}' must be a table, e.g. [card_types.{tname}]")
            continue
        t = ct.sub(tname, spec, f"[card_types.{tname}]")
        t.check_keys(("sides", "sections", "counters"))
        sides = tuple(t.str_list("sides") or ())
        if sides and len(sides) != 2:
            t.problem("sides", f"card type {tname}: 'sides' must name exactly 2 sides")
            sides = ()
        sections = tuple(t.str_list("sections") or ("main",))
        out[tname] = CardType(tname, sides, sections, tuple(t.str_list("counters") or ()))
    return out


def _read_deck_config(root_t: Table, types: set[str]
                      ) -> tuple[list[str], dict[str, HeaderSpec], str | None]:
    d = root_t.table("decks", label="[decks]")
    if d is None:
        return ["main"], {}, None
    d.check_keys(("sections", "headers", "group_header"))
    sections = d.str_list("sections") or ["main"]
    if "main" not in sections:
        d.problem("sections", "[decks] sections must include \"main\"")
    headers: dict[str, HeaderSpec] = {}
    ht = d.table("headers")
    for key, spec in (ht.data.items() if ht else []):
        assert ht is not None
        if not isinstance(spec, dict):
            ht.problem(key, f"deck header '{key}' must be a table, e.g. {{ required = true }}")
            continue
        h = ht.sub(key, spec, f"deck header '{key}'")
        h.check_keys(("required", "card_type", "group"))
        ctype = h.str("card_type")
        if ctype is not None and ctype not in types:
            h.problem("card_type", f"deck header '{key}': unknown card type '{ctype}'")
        headers[key] = HeaderSpec(key, h.bool("required"), ctype, h.bool("group"))
    group_header = d.str("group_header")
    if group_header is not None and group_header not in headers:
        d.problem("group_header", f"group_header '{group_header}' is not a declared header")
        group_header = None
    return sections, headers, group_header


def _read_card_counters(root_t: Table) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for t in root_t.tables("card_counters", "[[card_counters]]"):
        t.check_keys(("id", "name"))
        cid = t.str("id", required=True)
        if cid:
            out.append((cid, t.str("name", default=cid) or cid))
    return out


def _read_decks(module: GameModule, root: Path, sink: ProblemSink) -> dict[str, Any]:
    decks: dict[str, Any] = {}
    folder = root / "decks"
    if not folder.is_dir():
        return decks
    for path in sorted(folder.glob("*.txt")):
        file = f"{root.name}/decks/{path.name}"
        before = len(sink.problems)
        deck = parse_deck(module, path.read_text(encoding="utf-8-sig"), file, sink)
        if len(sink.problems) == before:
            sink.problems.extend(deck_problems(module, deck))
        decks[path.stem] = deck
    return decks

