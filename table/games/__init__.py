"""Game modules: read ``assets/<game>/`` (game.toml, cards.csv, decks/) into data.

Qt-free and I/O only at load time. The public API::

    load_module(path) -> GameModule            # raises ModuleError(problems)
    validate_path(path, module=None) -> list[Problem]
    builtin_modules() -> list[GameModule]
    find_module(id) -> GameModule              # raises ModuleNotFound (a LookupError)
    load_deck(module, path_or_text) -> Deck
    deck_problems(module, deck) -> list[Problem]

See docs/game-module.md for the format.
"""
from .decks import deck_problems, load_deck
from .loader import load_module
from .model import (
    BackTemplate,
    Board,
    BoardSlot,
    Card,
    CardType,
    Column,
    Condition,
    Counter,
    Deck,
    DeckRules,
    Die,
    FrontTemplate,
    Grid,
    HeaderSpec,
    PlayerRange,
    Seat,
    Tile,
    TileSlot,
    Token,
    Zone,
)
from .module import GameModule, rotate_cell
from .problems import ModuleError, Problem
from .registry import ModuleNotFound, asset_dirs, builtin_modules, find_module
from .steps import (
    CreateCards,
    CreateDeck,
    Draw,
    FirstPlayer,
    Place,
    PlaceTile,
    Prompt,
    Rotate,
    SetCounter,
    SetFace,
    SetSide,
    SetupStep,
    Shuffle,
    Step,
)
from .validate import validate_path

__all__ = [
    "BackTemplate", "Board", "BoardSlot", "Card", "CardType", "Column", "Condition", "Counter",
    "CreateCards", "CreateDeck", "Deck", "DeckRules", "Die", "Draw", "FirstPlayer",
    "FrontTemplate", "GameModule", "Grid", "HeaderSpec", "ModuleError", "ModuleNotFound",
    "Place", "PlaceTile", "PlayerRange", "Problem", "Prompt", "Rotate", "Seat", "SetCounter",
    "SetFace", "SetSide",
    "SetupStep", "Shuffle", "Step", "Tile", "TileSlot", "Token", "Zone", "asset_dirs",
    "builtin_modules", "deck_problems", "find_module", "load_deck", "load_module",
    "rotate_cell", "validate_path",
]
