"""What a draft changed: one module against another, as lines a designer reads
("rules hand_limit 3 -> 4", "card Ashen Colossus cost 4 -> 5", "deck Iron Host changed")."""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

_LIMIT = 40  # lines per draft; the rest is summed up


def module_of(game_hash: str) -> Any:
    """The module of this content hash from the module cache or the installed games."""
    if not game_hash:
        return None
    from table.games.store import default_store

    try:
        return default_store().find(game_hash)
    except Exception:  # a broken cached archive: no change list, not a crash
        return None


def changes(old: Any, new: Any) -> list[str]:
    """The differences from module `old` to module `new`, one line each."""
    if old is None or new is None:
        return ["(one of the two modules is not available here: no list of changes)"]
    lines: list[str] = []
    if old.version != new.version:
        lines.append(f"version {old.version} -> {new.version}")
    if (old.players.min, old.players.max) != (new.players.min, new.players.max):
        lines.append(f"players {old.players.min}-{old.players.max} -> "
                     f"{new.players.min}-{new.players.max}")
    lines += [f"rules {k} {_show(a)} -> {_show(b)}"
              for k, a, b in _diff(_flat(old.rules), _flat(new.rules))]
    lines += list(_card_changes(old.cards, new.cards))
    lines += list(_deck_changes(old.starter_decks, new.starter_decks))
    if old.rulebook != new.rulebook:
        lines.append("rulebook text changed")
    if len(lines) > _LIMIT:
        lines = [*lines[:_LIMIT], f"… and {len(lines) - _LIMIT} more changes"]
    return lines or ["nothing a report can name (art or layout only)"]


def _flat(value: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(value, Mapping):
        out: dict[str, Any] = {}
        for k, v in value.items():
            out.update(_flat(v, f"{prefix}.{k}" if prefix else str(k)))
        return out
    return {prefix: value}


def _diff(a: dict[str, Any], b: dict[str, Any]) -> Iterator[tuple[str, Any, Any]]:
    for key in sorted(set(a) | set(b)):
        if a.get(key, _MISSING) != b.get(key, _MISSING):
            yield key, a.get(key, _MISSING), b.get(key, _MISSING)


class _Missing:
    def __repr__(self) -> str:
        return "(none)"


_MISSING = _Missing()


def _show(value: Any) -> str:
    if isinstance(value, list | tuple):
        text = ", ".join(str(v) for v in value)
        return f"[{text[:60]}{'…' if len(text) > 60 else ''}]"
    return repr(value) if isinstance(value, _Missing) else str(value)


def _card_changes(old: Mapping[str, Any], new: Mapping[str, Any]) -> Iterator[str]:
    for card_id in sorted(set(old) - set(new)):
        yield f"card {old[card_id].name} removed"
    for card_id in sorted(set(new) - set(old)):
        yield f"card {new[card_id].name} added"
    for card_id in sorted(set(old) & set(new)):
        a, b = old[card_id], new[card_id]
        fields_a = {"name": a.name, "type": a.type, "group": a.group, "text": a.text,
                    **dict(a.fields)}
        fields_b = {"name": b.name, "type": b.type, "group": b.group, "text": b.text,
                    **dict(b.fields)}
        for key, x, y in _diff(fields_a, fields_b):
            shown = "text changed" if key == "text" else f"{key} {_show(x)} -> {_show(y)}"
            yield f"card {a.name} {shown}"


def _deck_changes(old: Mapping[str, Any], new: Mapping[str, Any]) -> Iterator[str]:
    for name in sorted(set(old) - set(new)):
        yield f"starter deck {name} removed"
    for name in sorted(set(new) - set(old)):
        yield f"starter deck {name} added"
    for name in sorted(set(old) & set(new)):
        if getattr(old[name], "text", None) != getattr(new[name], "text", None):
            yield f"starter deck {name} changed"
