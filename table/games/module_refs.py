"""A game module's cross-references, once all of game.toml is read: ids unique across zones,
counters, tokens, dice and boards, and every board, zone, card counter and card column a
declaration names declared. Checked for the largest seat count; a problem in an id expanded
from a per-seat template points at the declaring line."""
from __future__ import annotations

from typing import Any

from .model import SEAT
from .module import GameModule
from .toml_reader import Table


def check_module_refs(module: GameModule, root_t: Table) -> None:
    _check_unique_ids(module, root_t)
    _check_places(module, root_t)
    _check_card_refs(module, root_t)


def _line(root_t: Table, section: str, i: int, key: str = "id") -> int:
    return root_t.index.line_of((section, i, key))


def _origins(module: GameModule, root_t: Table) -> dict[str, int]:
    """Each expanded id's declaring line (template positions)."""
    n = module.players.max
    origin: dict[str, int] = {}
    declared: list[tuple[str, tuple[Any, ...]]] = [
        ("zones", module.zones), ("counters", module.counters), ("dice", module.dice),
        ("boards", module.boards)]
    for section, items in declared:
        for i, item in enumerate(items):
            for s in range(1, n + 1):
                origin.setdefault(item.id.replace(SEAT, str(s)), _line(root_t, section, i))
    for i, (tk, _count) in enumerate(module.tokens):
        for s in range(1, n + 1):
            origin.setdefault(tk.id.replace(SEAT, str(s)), _line(root_t, "tokens", i))
    for i, b in enumerate(module.boards):
        for j, sl in enumerate(b.slots):
            for s in range(1, n + 1):
                origin.setdefault(sl.id.replace(SEAT, str(s)),
                                  root_t.index.line_of(("boards", i, "slots", j)))
    return origin


def _check_unique_ids(module: GameModule, root_t: Table) -> None:
    n = module.players.max
    origin = _origins(module, root_t)
    seen: dict[str, str] = {}
    objs: list[tuple[str, str]] = [
        *((z.id, "zone") for z in module.zones_for(n)),
        *((c.id, "counter") for c in module.counters_for(n)),
        *((t.id, "token") for t in module.tokens_for(n)),
        *((d.id, "die") for d in module.dice_for(n)),
        *((b.id, "board") for b in module.boards_for(n))]
    for oid, kind in objs:
        if oid in seen:
            root_t.sink.add(origin.get(oid, 0), f"duplicate id '{oid}' (a {seen[oid]} and a "
                            f"{kind})")
        seen.setdefault(oid, kind)


def _check_places(module: GameModule, root_t: Table) -> None:
    """The boards zones and counters lie on; the zones tokens and dice start in; keepers."""
    n = module.players.max
    sink = root_t.sink
    zones = {z.id for z in module.zones_for(n)}
    boards = {b.id for b in module.boards_for(n)}
    any_board = {b.replace(SEAT, "1") for b in boards} | {b.id.replace(SEAT, "1")
                                                          for b in module.boards}
    for i, z in enumerate(module.zones):
        if z.board is not None and z.board.replace(SEAT, "1") not in any_board:
            sink.add(_line(root_t, "zones", i, "board"), f"zone '{z.id}': no board '{z.board}'")
        if z.keeper is not None and not 1 <= z.keeper <= module.players.min:
            sink.add(_line(root_t, "zones", i, "keeper"), f"zone '{z.id}': keeper {z.keeper} "
                     f"is not a seat in every game")
    board_templates = {b.id for b in module.boards}
    for i, c in enumerate(module.counters):
        if c.board is not None and c.board not in board_templates and c.board not in boards:
            sink.add(_line(root_t, "counters", i, "board"), f"counter '{c.id}': no board "
                     f"'{c.board}'")
    for i, (tk, _) in enumerate(module.tokens):
        for s in range(1, n + 1):
            home = tk.home.replace(SEAT, str(s)) if tk.home else None
            if home is not None and home not in zones:
                sink.add(_line(root_t, "tokens", i, "home"),
                         f"token '{tk.id}': no zone '{tk.home}'")
                break
    for i, d in enumerate(module.dice):
        if d.home is not None and d.home.replace(SEAT, "1") not in zones:
            sink.add(_line(root_t, "dice", i, "home"), f"die '{d.id}': no zone '{d.home}'")


def _check_card_refs(module: GameModule, root_t: Table) -> None:
    """Card types name declared card counters; counters' max_from names a card column."""
    idx = root_t.index
    counter_ids = {cc for cc, _ in module.card_counters}
    for ct in module.card_types.values():
        for cc in ct.counters:
            if cc not in counter_ids:
                root_t.sink.add(idx.line_of(("card_types", ct.name, "counters")),
                                f"card type {ct.name}: no card counter '{cc}' "
                                f"(declare it in [[card_counters]])")
    for i, c in enumerate(module.counters):
        if c.max_from is not None and c.max_from[1] not in {col.name for col in module.columns}:
            root_t.sink.add(idx.line_of(("counters", i, "max_from", "column")),
                            f"counter '{c.id}': max_from column '{c.max_from[1]}' is not a "
                            f"card column")
