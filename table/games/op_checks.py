"""An honest JSON-op importer: every name a JSON op uses is checked before it is performed, and
an op that would do nothing (void) is an error, so a typo never silently changes a scenario.

Checked: phase and step names (the module's `[rules] phases`), declaration names (the game's
assist declarations, when known), marker kinds, a turn marker's seat, object ids (with a "did
you mean"), and card names in selectors (against the module's cards). Card selectors
("ZONE:Card Name") are resolved to handles wherever an op names an object (`counter`, `set`,
`delete`...), not only where the JSON form's card ops take them.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from table.core.jsonform import CardNamer, JsonOpError, perform, resolve_card
from table.core.replica import Replica
from table.core.timeline import Record

from .module import GameModule
from .spelling import suggest

MARKS = ("turn", "phase", "step", "declare", "setup", "winner")
# ops whose `id` the JSON form passes on as is: a selector there is resolved here
RAW_ID_OPS = ("counter", "set", "delete")
OBJECT_FIELDS = ("from", "to", "pile")


class OpChecker:
    """Checks JSON ops against a module (and the declarations its assist knows)."""

    def __init__(self, module: GameModule | None, declarations: Iterable[str] | None = None,
                 *, allow_void: bool = False) -> None:
        self.module = module
        self.phases = [str(p) for p in (module.rules.get("phases") or [])] if module else []
        self.declarations = sorted(set(declarations)) if declarations is not None else None
        self.allow_void = allow_void
        self.card_names = sorted({c.name for c in module.cards.values()} | set(module.cards)) \
            if module else []

    def namer(self) -> CardNamer | None:
        module = self.module
        if module is None:
            return None
        cards = module.cards
        return lambda c: cards[c].name if c in cards else c

    def perform(self, r: Replica, entry: Any) -> list[Record]:
        """Check `entry`, perform it, and return the records it added. Raises JsonOpError."""
        if isinstance(entry, dict):
            entry = self._checked(r, dict(entry))
        before = len(r.records())
        perform(r, entry, self.namer())
        added = r.records()[before:]
        if not self.allow_void:
            for rec in added:
                if rec.void is not None:
                    raise JsonOpError(f"this {rec.op.kind} would do nothing (void: {rec.void}); "
                                      "fix it, or import with --allow-void to keep it")
        return added

    # -- names -----------------------------------------------------------------------------
    def _checked(self, r: Replica, entry: dict[str, Any]) -> dict[str, Any]:
        kind = entry.get("op")
        if kind == "mark":
            self._mark(entry)
            if isinstance(entry.get("fields"), dict):
                entry["fields"] = self._fields(r, entry["fields"], entry.get("seat"))
        for field in OBJECT_FIELDS:
            if isinstance(entry.get(field), str):
                self._object(r, entry[field], field)
        for field in ("card", "id"):
            value = entry.get(field)
            if isinstance(value, dict) or (isinstance(value, str) and ":" in value):
                self._card_name(value)
                if kind in RAW_ID_OPS:  # the JSON form's card ops resolve their own
                    entry[field] = resolve_card(r, value, entry.get("seat"), self.namer())
            elif isinstance(value, str) and kind != "create":
                self._object(r, value, field)
        if kind == "counter":
            self._card_counter(r, entry)
        if kind == "end_turn":
            if entry.get("for_seat") is None:
                raise JsonOpError('end_turn names the seat whose turn begins: "for_seat": N')
            first = entry.get("first_phase")
            if first is not None and self.phases and first not in self.phases:
                raise JsonOpError(f"end_turn: {self._game()} has no phase {first!r}"
                                  f"{suggest(str(first), self.phases)} "
                                  f"({', '.join(self.phases)})")
        return entry

    def _mark(self, entry: dict[str, Any]) -> None:
        what, value = entry.get("what"), entry.get("value")
        if what not in MARKS:
            raise JsonOpError(f"mark: no marker kind {what!r}{suggest(str(what), MARKS)} "
                              f"({', '.join(MARKS)})")
        if what == "turn" and entry.get("for_seat") is None:
            raise JsonOpError('a turn marker names the new active seat: "for_seat": N')
        if what in ("phase", "step") and self.phases and value not in self.phases:
            raise JsonOpError(f"mark: {self._game()} has no {what} {value!r}"
                              f"{suggest(str(value), self.phases)} "
                              f"({', '.join(self.phases)})")
        if what == "declare" and self.declarations is not None \
                and value not in self.declarations:
            raise JsonOpError(f"mark: {self._game()}'s assist knows no declaration {value!r}"
                              f"{suggest(str(value), self.declarations)}")

    def _fields(self, r: Replica, fields: dict[str, Any], seat: Any) -> dict[str, Any]:
        """A declaration's card fields ("attacker": "p1.play:Brand Guard") name card ids."""
        out = dict(fields)
        for key, value in fields.items():
            if isinstance(value, str) and ":" in value \
                    and r.state.live(value.partition(":")[0]) is not None:
                self._card_name(value)
                out[key] = resolve_card(r, value, seat if type(seat) is int else None,
                                        self.namer())
        return out

    def _card_counter(self, r: Replica, entry: dict[str, Any]) -> None:
        """A counter on a card must be one the module declares ([[card_counters]])."""
        obj = r.state.live(str(entry.get("id", "")))
        key = entry.get("key", "value")
        if self.module is None or obj is None or obj.kind != "card":
            return
        known = [cid for cid, _ in self.module.card_counters]
        if key not in known:
            raise JsonOpError(f"counter: {self._game()} declares no card counter {key!r}"
                              f"{suggest(str(key), known)} ({', '.join(known) or 'none'})")

    def _object(self, r: Replica, obj_id: str, field: str) -> None:
        if ":" in obj_id or r.state.live(obj_id) is not None:
            return
        ids = [o for o, obj in r.state.objs.items() if obj.alive and obj.kind != "card"]
        raise JsonOpError(f"'{field}': no object {obj_id!r} on the table{suggest(obj_id, ids)}")

    def _card_name(self, selector: Any) -> None:
        if self.module is None:
            return
        name = selector.get("name") if isinstance(selector, dict) else None
        if isinstance(selector, str):
            what = selector.partition(":")[2]
            if what in ("top", "bottom") or what.startswith("#"):
                return
            name = what
        if isinstance(name, str) and not self.module.find_cards(name):
            raise JsonOpError(f"no card {name!r} in {self._game()}"
                              f"{suggest(name, self.card_names)}")

    def _game(self) -> str:
        return self.module.name if self.module is not None else "this game"
