"""Rules assist for Gauntlet (Official Rulebook v0.6.0)."""
from .plugin import GauntletPlugin

plugin = GauntletPlugin()

__all__ = ["GauntletPlugin", "plugin"]
