"""Rules assist for Mantle of the Keeper (rules-catalogue.md Part B)."""
from .plugin import MantlePlugin

plugin = MantlePlugin()

__all__ = ["MantlePlugin", "plugin"]
