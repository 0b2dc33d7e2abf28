"""A new draft of a module, for the benchmarks and the corpus that compare drafts: a copy
with its version bumped and one rule number changed."""
from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any


def draft_of(module: Any, folder: Path) -> Any:
    """A copy of `module` with a bumped version and one rule number changed (a new draft)."""
    from table.games import load_module

    dest = folder / "draft" / module.id  # a module's folder is named after its id
    if dest.exists():
        shutil.rmtree(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copytree(module.path, dest)
    toml = dest / "game.toml"
    text = toml.read_text(encoding="utf-8")
    text = re.sub(r'(?m)^version = "([^"]+)"', lambda m: f'version = "{m.group(1)}-draft"', text,
                  count=1)
    text = re.sub(r"(?m)^(hand_limit|favor_cap) = (\d+)",
                  lambda m: f"{m.group(1)} = {int(m.group(2)) + 1}", text, count=1)
    toml.write_text(text, encoding="utf-8")
    return load_module(dest)
