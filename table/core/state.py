"""The table state, changed only through journaled primitives.

Every primitive records what it replaced in the current Journal, so any applied op can be taken
back exactly (rollback when an op arrives late) without snapshots. The journals also tell undo
which fields an op wrote (`written_keys`), so it restores only writes that are still current.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .journal import Journal
from .objects import ROOT, Obj

MISSING = object()  # marks 'there was no value' in a journal entry
OpRef = tuple[str, int]


@dataclass(slots=True)
class Seat:
    peer: str | None = None  # author id of the peer that plays this seat
    name: str = ""
    colour: str = ""


class State:
    def __init__(self) -> None:
        self.objs: dict[str, Obj] = {ROOT: Obj(ROOT, "zone", props={"name": "Table"})}
        self.seats: dict[int, Seat] = {}
        self.peers: dict[str, dict[str, Any]] = {}  # author -> {"key": hex, "name": str}
        self.turn: dict[str, Any] = {"seat": None, "number": 0}
        self.phase: str | None = None
        self.acks: dict[str, str] = {}  # flag id -> reason
        self.module: dict[str, Any] | None = None  # the module op in effect: hash, game, version
        self.decks: dict[int, dict[str, Any]] = {}  # seat -> its deck op's args (replaced whole)
        self.result: dict[str, Any] | None = None  # the latest `end` op's result, if any
        # the session's tags (`tag` ops): playtest group, event, players, free tags
        self.tags: dict[str, Any] = {}
        self.journal: Journal = Journal()

    # --- reading -------------------------------------------------------------------------
    def get(self, obj_id: str) -> Obj | None:
        return self.objs.get(obj_id)

    def live(self, obj_id: str) -> Obj | None:
        obj = self.objs.get(obj_id)
        return obj if obj is not None and obj.alive else None

    def cards_in(self, zone: Obj | str | None) -> list[str]:
        """The ids of the cards directly in ``zone`` (a pile, a hand, an area), in its order;
        empty for a zone that does not exist."""
        holder = self.objs.get(zone) if isinstance(zone, str) else zone
        if holder is None:
            return []
        objs = self.objs
        return [c for c in holder.children if objs[c].kind == "card"]

    def seats_of(self, author: str) -> set[int]:
        return {n for n, s in self.seats.items() if s.peer == author}

    def ancestors(self, obj: Obj) -> list[str]:
        chain, cur = [], obj.container
        while cur is not None:
            chain.append(cur)
            parent = self.objs.get(cur)
            cur = parent.container if parent is not None else None
        return chain

    # --- journaled primitives ------------------------------------------------------------
    def add_obj(self, obj: Obj) -> None:
        self.objs[obj.id] = obj
        self.journal.append(("new", obj.id))

    def set_field(self, obj: Obj, name: str, value: Any) -> None:
        old = getattr(obj, name)
        if old == value and type(old) is type(value):
            return
        self.journal.append(("f", obj, name, old))
        setattr(obj, name, value)

    def set_counter(self, obj: Obj, key: str, value: int) -> None:
        self.journal.append(("c", obj, key, obj.counters.get(key, MISSING)))
        obj.counters[key] = value

    def set_prop(self, obj: Obj, key: str, value: Any) -> None:
        self.journal.append(("p", obj, key, obj.props.get(key, MISSING)))
        obj.props[key] = value

    def remove_child(self, obj: Obj) -> None:
        if obj.container is None:
            return
        parent = self.objs[obj.container]
        try:
            index = parent.children.index(obj.id)
        except ValueError:
            return  # already out of the list (a deleted object being restored)
        del parent.children[index]
        self.journal.append(("rm", parent, index, obj.id))

    def move_child(self, obj: Obj, parent: Obj, index: int | None) -> None:
        """`remove_child`, then the container field, then `insert_child` at `index` (None: the
        top) in one call, as a move does: the same journal entries as the three would write."""
        journal, oid = self.journal, obj.id
        old = obj.container
        if old is not None:
            holder = self.objs[old]
            children = holder.children
            try:
                at = children.index(oid)
            except ValueError:
                pass  # already out of the list (a deleted object being restored)
            else:
                del children[at]
                journal.append(("rm", holder, at, oid))
        if old != parent.id:  # as set_field: str or None, so equal means the same
            journal.append(("f", obj, "container", old))
            obj.container = parent.id
        children = parent.children
        if index is None:
            index = len(children)
        children.insert(index, oid)
        journal.append(("ins", parent, index, oid))

    def insert_child(self, parent: Obj, obj: Obj, index: int) -> None:
        parent.children.insert(index, obj.id)
        self.journal.append(("ins", parent, index, obj.id))

    def set_global(self, name: str, value: Any) -> None:
        self.journal.append(("g", name, getattr(self, name)))
        setattr(self, name, value)

    def set_seat(self, number: int, seat: Seat | None) -> None:
        self.journal.append(("seat", number, self.seats.get(number)))
        if seat is None:
            self.seats.pop(number, None)
        else:
            self.seats[number] = seat

    def set_peer(self, author: str, info: dict[str, Any]) -> None:
        self.journal.append(("peer", author, self.peers.get(author)))
        self.peers[author] = info

    def set_ack(self, flag: str, reason: str) -> None:
        self.journal.append(("ack", flag, self.acks.get(flag)))
        self.acks[flag] = reason

    # --- rollback ------------------------------------------------------------------------
    def begin(self) -> Journal:
        self.journal = Journal()
        return self.journal

    def revert(self, journal: Journal) -> None:
        """Take back everything `journal` recorded, newest first."""
        entries: list[tuple[Any, ...]] = journal
        for i in range(len(entries) - 1, -1, -1):  # (mypyc cannot compile reversed() of it)
            entry = entries[i]
            tag = entry[0]
            if tag == "f":
                setattr(entry[1], entry[2], entry[3])
            elif tag == "c":
                if entry[3] is MISSING:
                    entry[1].counters.pop(entry[2], None)
                else:
                    entry[1].counters[entry[2]] = entry[3]
            elif tag == "p":
                if entry[3] is MISSING:
                    entry[1].props.pop(entry[2], None)
                else:
                    entry[1].props[entry[2]] = entry[3]
            elif tag == "rm":
                entry[1].children.insert(entry[2], entry[3])
            elif tag == "ins":
                del entry[1].children[entry[2]]
            elif tag == "new":
                del self.objs[entry[1]]
            elif tag == "g":
                setattr(self, entry[1], entry[2])
            elif tag == "seat":
                if entry[2] is None:
                    self.seats.pop(entry[1], None)
                else:
                    self.seats[entry[1]] = entry[2]
            elif tag == "peer":
                if entry[2] is None:
                    self.peers.pop(entry[1], None)
                else:
                    self.peers[entry[1]] = entry[2]
            elif tag == "ack":
                if entry[2] is None:
                    self.acks.pop(entry[1], None)
                else:
                    self.acks[entry[1]] = entry[2]


def written_keys(journal: Journal) -> set[tuple[str, str]]:
    """The (object, field) pairs an op wrote; 'loc' stands for container, position and order."""
    keys: set[tuple[str, str]] = set()
    for entry in journal.entries:
        tag = entry[0]
        if tag == "f":
            name = entry[2]
            keys.add((entry[1].id, "loc" if name in ("container", "pos") else name))
        elif tag == "c":
            keys.add((entry[1].id, "c:" + entry[2]))
        elif tag == "p":
            keys.add((entry[1].id, "p:" + entry[2]))
        elif tag in ("rm", "ins"):
            keys.add((entry[3], "loc"))
        elif tag == "new":
            keys.add((entry[1], "alive"))
            keys.add((entry[1], "loc"))
        elif tag == "g":
            keys.add(("#", entry[1]))
    return keys
