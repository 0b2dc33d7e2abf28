"""Which cards a print or an export holds, in what counts: a deck list, the whole module, or
only the cards a draft changed since an earlier version (the reprint a designer needs).

Bad input is a ModuleError naming the file and line: a deck list naming unknown cards, a module
with no true card size, an earlier version that cannot be found.
"""
from __future__ import annotations

from pathlib import Path

from table.core.errors import LogError
from table.core.logfile import read_log

from .archive import unpack
from .card_faces import PRESETS, CardSize
from .decks import load_deck
from .loader import load_module
from .module import GameModule
from .problems import ModuleError, Problem
from .reload import _card_key
from .store import ModuleStore, default_store, module_for_recorded, recorded_module


def card_size(module: GameModule, override: str | None = None) -> CardSize:
    """The module's true card size, or a preset / "WxH" (mm) given on the command line."""
    if override:
        found = PRESETS.get(override.lower())
        if found is not None:
            return CardSize(*found)
        try:
            w, h = (float(v) for v in override.lower().split("x"))
        except ValueError:
            raise ModuleError([Problem("--size", 0, f"'{override}' is not a card size: give "
                                       f"{', '.join(PRESETS)} or WIDTHxHEIGHT in mm")]) from None
        if not (20 <= w <= 300 and 20 <= h <= 300):
            raise ModuleError([Problem("--size", 0, f"{w:g} x {h:g} mm is not a card size "
                                       f"(20 to 300 mm each way)")])
        return CardSize(w, h)
    if module.card_size is None:
        raise ModuleError([Problem(f"{module.path.name}/game.toml", _templates_line(module),
                                   "no card size to print at: add [templates.card] with "
                                   "size = \"poker\" (or bridge, tarot, mini) or width_mm and "
                                   "height_mm, or pass --size")])
    return module.card_size


def deck_cards(module: GameModule, deck_path: str) -> list[tuple[str, int]]:
    """Every card of a deck list (all sections), in its counts, in list order."""
    if not Path(deck_path).is_file() and deck_path in module.starter_decks:
        deck = module.starter_decks[deck_path]
    else:
        deck = load_deck(module, Path(deck_path))
    out: dict[str, int] = {}
    for section in deck.sections.values():
        for cid, n in section:
            out[cid] = out.get(cid, 0) + n
    return list(out.items())


def all_cards(module: GameModule) -> list[tuple[str, int]]:
    return [(cid, 1) for cid in module.cards]


def changed_cards(before: GameModule, after: GameModule) -> list[str]:
    """Cards of `after` that are new or differ from `before` (in cards.csv order)."""
    return [cid for cid, card in after.cards.items()
            if cid not in before.cards or _card_key(before.cards[cid]) != _card_key(card)]


def earlier_version(module: GameModule, spec: str, store: ModuleStore | None = None
                    ) -> GameModule:
    """The module a draft is compared with: a log (the module it was played under), a module
    folder, or a version or hash of this game in the module cache."""
    path = Path(spec)
    if path.is_dir():
        return load_module(path)
    if path.is_file():
        try:
            contents = read_log(path)
        except (LogError, OSError) as err:
            raise ModuleError([Problem(str(path), 0, f"cannot read this log: {err}")]) from err
        args, blobs = recorded_module(contents.records)
        game = str(contents.header.get("game") or module.id)
        return module_for_recorded(game, args, blobs, store).module
    store = store or default_store()
    for folder in sorted(store.root.glob("*/archive")) if store.root.is_dir() else []:
        digest = folder.parent.name
        try:
            archive = unpack(folder.read_bytes(), digest)
        except ValueError:
            continue
        if archive.game == module.id and (archive.version == spec or digest.startswith(spec)):
            return store.load(digest)
    raise ModuleError([Problem("--changed-since", 0, f"'{spec}' is no log, module folder, nor "
                               f"a version or hash of {module.id} in the module cache "
                               f"({store.root})")])


def _templates_line(module: GameModule) -> int:
    """Where [templates] starts (the card size belongs under it), or 0 when it has none."""
    try:
        lines = (Path(module.path) / "game.toml").read_text(encoding="utf-8").splitlines()
    except OSError:
        return 0
    return next((n for n, line in enumerate(lines, 1) if line.startswith("[templates")), 0)
