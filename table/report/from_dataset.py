"""The report's sessions read out of the dataset: the queries of `queries.LOADS`, run by DuckDB
over a dataset folder (or over one session's rows in memory), made into `Session`s.

One path for the numbers: `sandtable report` and `sandtable dataset` fold each log once, in
the dataset's pass (table.dataset.rows); the report only reads what that pass wrote.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from .model import CardStory, Note, SeatInfo, Session
from .queries import LOADS

_SQL = {name: sql for name, _what, sql in LOADS}


def _rows(con: Any, name: str) -> list[dict[str, Any]]:
    cursor = con.execute(_SQL[name])
    columns = [d[0] for d in cursor.description]
    return [dict(zip(columns, row, strict=False)) for row in cursor.fetchall()]


def _by_session(con: Any, name: str) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in _rows(con, name):
        out[row["session"]].append(row)
    return out


def load_sessions(con: Any) -> tuple[list[Session], list[tuple[str, str]]]:
    """(the sessions the report counts, the logs and sessions it cannot, with why)."""
    seats, flags = _by_session(con, "seats"), _by_session(con, "flags")
    actions, turns = _by_session(con, "actions"), _by_session(con, "turns")
    notes, rolls = _by_session(con, "notes"), _by_session(con, "rolls")
    plays, hands = _by_session(con, "plays"), _by_session(con, "hands")
    occasions = _by_session(con, "occasions")
    sessions = []
    for row in _rows(con, "sessions"):
        key = row["session"]
        session = _session(row, seats.get(key, []))
        _flags(session, flags.get(key, []))
        session.actions = Counter({r["seat"]: r["actions"] for r in actions.get(key, [])})
        session.turns_by_seat = Counter({r["seat"]: r["turns"] for r in turns.get(key, [])})
        session.notes = [Note(r["op"], r["turn"], r["name"], r["text"], r["phase"] or "",
                              r["seat"], tuple(r["flags"] or ())) for r in notes.get(key, [])]
        session.occasions = Counter({r["rule"]: int(r["occasions"])
                                     for r in occasions.get(key, [])})
        session.rolls = [(r["sides"], r["value"], r["seat"]) for r in rolls.get(key, [])]
        for r in plays.get(key, []):
            session.played.setdefault(r["seat"], []).append(r["card"])
        for r in hands.get(key, []):
            if r["held"]:
                session.in_hand.setdefault(r["seat"], set()).add(r["card"])
            session.stories.append(CardStory(r["seat"], r["card"], bool(r["held"]),
                                             r["opening"], r["drawn"], r["held_end"],
                                             r["played"], tuple(_pairs(r["used"]))))
        sessions.append(session)
    skipped = [(r["log"], r["why"]) for r in _rows(con, "unusable")]
    return sessions, skipped


def _session(row: dict[str, Any], seats: list[dict[str, Any]]) -> Session:
    named = row["named_after"]
    infos = [SeatInfo(s["seat"], s["name"], s["deck"], dict(s["fields"] or {}),
                      order=s["turn_order"], group=s["group"]) for s in seats]
    session = Session(
        Path(named), row["game"], row["module_name"], row["module_version"],
        row["module_hash"], row["created"], row["recorded_as"], infos, ops=row["ops"],
        turns=row["turns"], minutes=row["duration_s"] / 60.0,
        turn_seconds=list(row["turn_seconds"] or []), flags_why=row["flags_why"] or "",
        winners=set(row["winners"] or []), how=row["how"] or "",
        condition=row["condition"] or "",
        scores={s["seat"]: s["score"] for s in seats if s["score"] is not None},
        plays_declared=bool(row["plays_declared"]), salvaged=row["salvaged"],
        lost=list(row["lost"] or []), damage=list(row["damage"] or []),
        started=float(row["started"]), hidden_total=row["hidden_total"],
        hidden_unknown=row["hidden_unknown"], problems=list(row["problems"] or []),
        installed_hash=row["installed_hash"] or "",
        module_changes=[(c["op"], c["version"], c["hash"]) for c in row["module_changes"] or []],
        randomness=row["audited"], judged_by=row["judged_by"] or "",
        logs=[named] + [p for p in row["sources"] if p != named],
        disagree=[(d["log"], d["missing"]) for d in row["disagree"] or []],
        header_recovered=list(row["header_recovered"] or []), table_id=row["session"],
        group=row["playtest_group"] or "", event=row["event"] or "",
        tags=list(row["tags"] or []), player_names=list(row["player_names"] or []))
    if session.winners:
        names = {s.seat: s.name for s in infos}
        session.winner = min(session.winners)
        session.winner_text = " and ".join(names.get(s, f"Seat {s}")
                                           for s in sorted(session.winners))
    return session


def _flags(session: Session, rows: list[dict[str, Any]]) -> None:
    """Flag counts per rule (those on salvaged ops and those dismissed apart) and the first
    message of each."""
    first: dict[str, tuple[bool, str]] = {}
    for r in rows:
        into = session.salvaged_flags if r["salvaged"] else \
            session.dismissed_flags if r["dismissed"] else session.flags
        into[r["rule"]] += r["flags"]
        first.setdefault(r["rule"], (r["salvaged"], r["message"]))
        if not r["salvaged"]:
            session.flag_first.setdefault(r["rule"], r["first_op"])
    session.flag_messages = {rule: message for rule, (_s, message) in first.items()}


def _pairs(value: Any) -> list[tuple[str, int]]:
    """A map column as DuckDB hands it back (a dict, or key and value lists)."""
    if not value:
        return []
    if isinstance(value, dict) and set(value) == {"key", "value"}:
        return list(zip(value["key"], value["value"], strict=False))
    return sorted(dict(value).items())


def memory_connection(tables: dict[str, Any]) -> Any:
    """A DuckDB connection whose views are one session's Arrow tables (`read_session`)."""
    import duckdb

    from table.dataset.schema import DISMISSALS

    con = duckdb.connect()
    for name, table in tables.items():
        con.register(name, table)
    if "dismissals" not in tables:
        con.register("dismissals", DISMISSALS.empty_table())
    return con
