"""``validate_path``: check a module folder, or one deck list against its module."""
from __future__ import annotations

from pathlib import Path

from .decks import deck_problems, parse_deck
from .loader import read_module
from .module import GameModule
from .problems import Problem, ProblemSink
from .rule_sources import warning_problems


def find_module_dir(path: Path) -> Path | None:
    """The module folder enclosing ``path`` (the nearest parent holding game.toml)."""
    for parent in [path, *path.parents]:
        if (parent / "game.toml").is_file():
            return parent
    return None


def validate_path(path: str | Path, module: GameModule | str | Path | None = None
                  ) -> list[Problem]:
    """Every problem in a module folder, or in a deck list file.

    For a deck list, the module is ``module`` (a GameModule or a module folder) if given, else
    the module folder enclosing the file. The deck is checked for both format and the game's
    construction rules.
    """
    p = Path(path)
    if p.is_dir():
        problems: list[Problem] = []
        read_module(p, problems)
        return problems
    if not p.is_file():
        return [Problem(str(p), 0, "no such file or folder")]
    if isinstance(module, GameModule):
        mod = module
    else:
        mdir = Path(module) if module is not None else find_module_dir(p.resolve().parent)
        if mdir is None:
            return [Problem(str(p), 0, "cannot tell which game this deck list is for: put it "
                            "in assets/<game>/decks/ or name the module")]
        problems = []
        loaded = read_module(mdir, problems, with_decks=False)
        if problems or loaded is None:
            return problems
        mod = loaded
    try:
        file = p.resolve().relative_to(mod.path.resolve().parent).as_posix()
    except ValueError:
        file = str(p)
    sink = ProblemSink(file)
    deck = parse_deck(mod, p.read_text(encoding="utf-8-sig"), file, sink)
    if sink.problems:
        return sink.problems
    return deck_problems(mod, deck)


def validate_warnings(path: str | Path) -> list[Problem]:
    """What a module folder states twice though it loads: a rule value every card's column
    shadows, a card repeating the rule's value (rule_sources.py). Empty for a deck list, or a
    folder that does not load (its problems say why)."""
    p = Path(path)
    if not p.is_dir():
        return []
    problems: list[Problem] = []
    module = read_module(p, problems, with_decks=False)
    if problems or module is None:
        return []
    text = (p / "game.toml").read_text(encoding="utf-8-sig").replace("\r\n", "\n")
    cards = p / "cards.csv"
    rows = cards.read_text(encoding="utf-8").replace("\r\n", "\n") if cards.is_file() else ""
    return warning_problems(module, p.name, text, rows)
