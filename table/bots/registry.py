"""Bots are plugins: each is found through the entry-point group `sandtable.bots` (the shipped
ones too), by name ("gauntlet-heuristic"), and made for one seat of one game."""
from __future__ import annotations

from functools import cache
from importlib.metadata import entry_points

from .api import Bot

GROUP = "sandtable.bots"
BOT_SUFFIX = " (bot)"  # a log's players tag names a bot's seat "<bot name> (bot)"


def player_tag(name: str) -> str:
    """How a log's tags name the player of a bot's seat."""
    return f"{name}{BOT_SUFFIX}"


def tagged_bot(player: str) -> str:
    """The bot a players tag names ("" when it names a person)."""
    return player.removesuffix(BOT_SUFFIX) if player.endswith(BOT_SUFFIX) else ""


class UnknownBot(LookupError):
    """No bot of that name is installed (or it plays another game)."""


@cache
def installed() -> dict[str, type[Bot]]:
    """Every installed bot class by name; a plugin that fails to load is left out."""
    out: dict[str, type[Bot]] = {}
    for ep in entry_points(group=GROUP):
        try:
            cls = ep.load()
        except Exception:
            continue
        if isinstance(cls, type) and issubclass(cls, Bot):
            out[ep.name] = cls
    return out


def for_game(game: str) -> dict[str, type[Bot]]:
    return {n: c for n, c in sorted(installed().items()) if c.game in ("", game)}


def find(name: str, game: str) -> type[Bot]:
    bots = for_game(game)
    if name in bots:
        return bots[name]
    short = f"{game}-{name}"  # "heuristic" for the game's own heuristic bot
    if short in bots:
        return bots[short]
    known = ", ".join(bots) or "none"
    raise UnknownBot(f"no bot {name!r} for {game} (installed: {known})")


def strongest(game: str) -> str:
    """The game's shipped bot that plays to win (its heuristic one), else any of its bots."""
    bots = for_game(game)
    for name, cls in bots.items():
        if cls.strength == "heuristic":
            return name
    if not bots:
        raise UnknownBot(f"no bot plays {game}")
    return next(iter(bots))


__all__ = ["GROUP", "UnknownBot", "find", "for_game", "installed", "strongest"]
