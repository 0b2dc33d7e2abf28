"""Rules assist for Dead to Rites (playtest edition, rules v0.2). See docs/assist/dead-to-rites.md."""
from .plugin import DeadToRites

plugin = DeadToRites()

__all__ = ["DeadToRites", "plugin"]
