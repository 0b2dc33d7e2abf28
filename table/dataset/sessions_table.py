"""A session's own row (who, what module and draft, how long, how it ended, what was damaged,
what the report must say of it) and its seats' rows (deck, declared header fields, turn order,
result, score)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .collected import Rows, Walk
    from .fold import Folded, Module
    from .sources import SessionLogs


def draft_label(version: str, digest: str) -> str:
    """A draft as every table and page names it: its version and the first 12 hex digits of
    its content hash (one label everywhere, so the dataset, the report and its CSVs join)."""
    return f"v{version} · {digest[:12] if digest else '?'}"


def session_tags(state: Any) -> dict[str, Any]:
    """The session's group, event, free tags and players (seat -> name), from its tag ops."""
    tags = getattr(state, "tags", None) or {}
    players = {int(k): str(v) for k, v in (tags.get("players") or {}).items()}
    return {"group": str(tags.get("group") or ""), "event": str(tags.get("event") or ""),
            "tags": list(tags.get("tags") or []), "players": players}


@dataclass(frozen=True, slots=True)
class SeatNames:
    """What a legacy `winner` mark may name a seat by."""
    number: int
    name: str
    deck: str = ""
    fields: tuple[str, ...] = ()  # its deck's declared header values


def result_of(state: Any, legacy_winner: Any, seats: list[SeatNames]
              ) -> tuple[set[int], str, str, dict[int, float]]:
    """(winners, how it ended, the victory condition, scores): the end-of-game op in effect,
    else a legacy `winner` mark (a seat number, or a seat's name, deck or deck field)."""
    result = getattr(state, "result", None)
    if result is not None:
        winners = {s for s in result["winners"] if isinstance(s, int)}
        scores = {int(k): float(v) for k, v in (result.get("scores") or {}).items()}
        return winners, str(result["how"]), str(result.get("condition") or ""), scores
    value = legacy_winner
    if isinstance(value, int) and not isinstance(value, bool):
        return {value}, "victory", "", {}
    if value:
        folded = str(value).casefold()
        for seat in seats:
            names = (seat.name.casefold(), f"seat {seat.number}", str(seat.number),
                     seat.deck.casefold())
            if folded in names or folded in {v.casefold() for v in seat.fields}:
                return {seat.number}, "victory", "", {}
    return set(), "", "", {}


def recorded_as(replica: Any, logs: int) -> str:
    if logs > 1 or replica.peer_id == "merged":
        return "merged"
    mine, seats = replica.my_seats, set(replica.state.seats)
    return "hot-seat" if len(mine) > 1 or (mine and mine == seats) else "one peer"


def _hidden(replica: Any, records: list[Any]) -> tuple[int, int]:
    """(committed (hidden) cards, those whose identity this session's logs never learned)."""
    handles: set[str] = set()
    for record in records:
        a = record.op.args
        if record.op.kind == "consume" and record.void is None:
            for handle, _commitment in a["out"]:
                handles.add(handle)
        elif record.op.kind == "create" and a.get("commitment"):
            handles.add(a["id"])
    known, objs = replica.knowledge.cards, replica.state.objs
    return len(handles), sum(1 for h in handles if h not in known and (
        objs.get(h) is None or objs[h].card is None))


def _unusable(folded: Folded, found: Module, records: list[Any]) -> str:
    """Why the report cannot count this session ("" when it can)."""
    source = folded.source
    if not source.header.get("game"):
        return "the log does not say which game it is"
    if found.missing:
        return found.missing
    if folded.fold_error:
        return f"cannot be replayed: {folded.fold_error}"
    if not records:
        return "the log holds no ops" + (f" ({source.problems[0]})" if source.problems else "")
    return ""


def _report_columns(folded: Folded, found: Module, walk: Walk) -> dict[str, Any]:
    """The columns the report reads beyond the play: damage, draft, module changes."""
    replica, source = folded.replica, folded.source
    records = replica.records() if replica is not None else []
    module = found.module
    game_hash = str(found.recorded.get("hash") or source.header.get("game_hash") or "")
    installed = str(getattr(module, "content_hash", "") or "")
    hidden_total, hidden_unknown = _hidden(replica, records) if replica is not None else (0, 0)
    path = str(source.path)
    return dict(
        named_after=path, created=str(source.header.get("created", "")),
        problems=([found.note] if found.note else []) + [
            p.replace(f"{path}: ", "") for p in (replica.reports if replica else [])],
        lost=[seq for _a, seq in replica.lost] if replica is not None else [],
        judged_by=found.judged_by, module_note=found.note,
        installed_hash=installed if game_hash and game_hash != installed else "",
        module_changes=[{"op": n, "version": str(r.op.args.get("version", "?")),
                         "hash": str(r.op.args["hash"])} for n, r in enumerate(records, 1)
                        if r.op.kind == "module" and r.void is None and r.op.args.get("changes")],
        plays_declared=_plays_declared(module), header_recovered=list(source.recovered),
        hidden_total=hidden_total, hidden_unknown=hidden_unknown,
        turn_seconds=walk.turn_seconds,
        disagree=[{"log": p.name, "missing": n} for p, n in source.missing.items()],
        unreadable=[{"log": str(p), "why": why} for p, why in source.unreadable],
        unusable=_unusable(folded, found, records))


def _plays_declared(module: Any) -> bool:
    from .plays import Plays

    return Plays.of(module) is not None


def session_row(session: SessionLogs, folded: Folded, found: Module, walk: Walk,
                flags_why: str, rows: Rows) -> None:
    replica, header = folded.replica, folded.header
    module, recorded = found.module, found.recorded
    state = replica.state if replica is not None else None
    records = replica.records() if replica is not None else []
    names = {n: s.name or f"Seat {n}" for n, s in sorted(state.seats.items())} if state else {}
    version = str(recorded.get("version") or (replica.header_extra.get("module_version")
                                              if replica is not None else None) or "?")
    digest = str(recorded.get("hash") or header.get("game_hash") or "")
    damage = list(folded.source.damage)
    if folded.fold_error:
        damage.append(f"cannot be replayed: {folded.fold_error}")
    salvaged = len(replica.salvaged) if replica is not None else 0
    started = walk.play_start if walk.play_start is not None else (
        records[0].op.time if records else 0.0)
    tags = session_tags(state)
    rows.add("sessions", session=session.table, game=str(header.get("game", "")),
             module_name=str(getattr(module, "name", header.get("game", ""))),
             module_version=version, module_hash=digest, draft=draft_label(version, digest),
             players=len(names), seats=list(names.values()),
             recorded_as=recorded_as(replica, len(session.logs)) if replica is not None
             else "unreadable",
             started=round(started * 1000),
             duration_s=max(0.0, walk.last_time - walk.play_start)
             if walk.play_start is not None else 0.0,
             turns=len(walk.turn_times), ops=len(records), how=walk.how,
             condition=walk.condition, winners=sorted(walk.winners), unfinished=not walk.how,
             damaged=bool(damage or salvaged), damage=damage, salvaged=salvaged,
             audited=walk.audited, flags_checked=not flags_why, flags_why=flags_why,
             sources=[str(p) for p in session.paths],
             source_hashes=[log.digest for log in session.logs],
             fingerprint=session.fingerprint, playtest_group=tags["group"], event=tags["event"],
             tags=tags["tags"],
             player_names=[tags["players"].get(n, name) for n, name in names.items()],
             **_report_columns(folded, found, walk))


def _deck_of(module: Any, recorded: str) -> Any:
    decks = getattr(module, "starter_decks", {}) or {}
    if recorded in decks:
        return decks[recorded]
    return next((d for d in decks.values() if d.name == recorded), None)


def _deck(state: Any, module: Any, recorded: dict[int, str], number: int
          ) -> tuple[str, str, dict[str, str], str | None]:
    """(deck name, deck hash, declared header fields, group) of a seat: from its deck op, or
    in a log from before deck ops, the header's deck name looked up among the starters."""
    deck_op = state.decks.get(number)
    deck = None if deck_op is not None else _deck_of(module, recorded.get(number, ""))
    if deck_op is not None:
        name, digest = str(deck_op.get("name", "?")), str(deck_op.get("hash") or "")
        fields = {str(k): str(v) for k, v in (deck_op.get("fields") or {}).items()
                  if k != "name"}
    else:
        name = deck.name if deck is not None else recorded.get(number, "?")
        digest = ""
        fields = {str(k): str(v) for k, v in (deck.headers.items() if deck is not None
                                              else ()) if k != "name"}
    group_header = getattr(module, "group_header", None)
    group = (fields.get(group_header) if group_header else None) or (
        module.deck_group(deck) if deck is not None and module is not None else None)
    return name, digest, fields, group


def seat_decks(replica: Any, module: Any) -> list[tuple[int, str, str, str, dict[str, str],
                                                       str | None]]:
    """(seat, name, deck, deck hash, fields, group) of each seat."""
    state = replica.state
    recorded = {int(k): str(v) for k, v in (replica.header_extra.get("decks") or {}).items()
                if str(k).isdigit()}
    return [(n, state.seats[n].name or f"Seat {n}", *_deck(state, module, recorded, n))
            for n in sorted(state.seats)]


def settle(walk: Walk, replica: Any, module: Any) -> None:
    """The session's result and its seats' decks, onto `walk` (before any row is written)."""
    walk.seats = seat_decks(replica, module)
    walk.winners, walk.how, walk.condition, walk.scores = result_of(
        replica.state, walk.legacy_winner,
        [SeatNames(n, name, deck, tuple(fields.values()))
         for n, name, deck, _d, fields, _g in walk.seats])


def seat_rows(table: str, walk: Walk, rows: Rows, players: dict[int, str] | None = None
              ) -> None:
    """Each seat with its deck, group, order and result, and who played it (a tag op's
    name for the seat, else the seat's own)."""
    players = players or {}
    for number, name, deck, digest, fields, group in walk.seats:
        won = number in walk.winners
        result = ("won" if won else "lost") if walk.winners else (walk.how or "unfinished")
        rows.add("seats", session=table, seat=number, name=name, deck=deck,
                 deck_hash=digest, group=group, fields=list(fields.items()),
                 turn_order=walk.order.index(number) + 1 if number in walk.order else None,
                 result=result, won=won, score=walk.scores.get(number),
                 player=players.get(number, name))
