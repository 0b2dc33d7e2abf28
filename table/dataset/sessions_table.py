"""A session's own row (who, what module and draft, how long, how it ended, what was damaged)
and its seats' rows (deck, declared header fields, turn order, result, score)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .rows import Rows, Walk
    from .sources import Folded, SessionLogs


def result_of(state: Any, legacy_winner: Any, seats: dict[int, str]
              ) -> tuple[set[int], str, str, dict[int, float]]:
    """(winners, how it ended, the victory condition, scores): the end-of-game op in effect,
    else a legacy `winner` mark (a seat number, or a seat's name)."""
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
        for number, name in seats.items():
            if folded in (name.casefold(), f"seat {number}", str(number)):
                return {number}, "victory", "", {}
    return set(), "", "", {}


def _kind(replica: Any, logs: int) -> str:
    if logs > 1 or replica.peer_id == "merged":
        return "merged"
    mine, seats = replica.my_seats, set(replica.state.seats)
    return "hot-seat" if len(mine) > 1 or (mine and mine == seats) else "one peer"


def _hidden_unknown(replica: Any, records: list[Any]) -> int:
    """Committed (hidden) cards whose identity this session's logs never learned."""
    handles: set[str] = set()
    for record in records:
        a = record.op.args
        if record.op.kind == "consume" and record.void is None:
            handles.update(h for h, _c in a["out"])
        elif record.op.kind == "create" and a.get("commitment"):
            handles.add(a["id"])
    known, objs = replica.knowledge.cards, replica.state.objs
    return sum(1 for h in handles if h not in known and (objs.get(h) is None
                                                          or objs[h].card is None))


def session_row(session: SessionLogs, folded: Folded, module: Any, recorded: dict[str, Any],
                walk: Walk, flags_why: str, rows: Rows) -> None:
    replica = folded.replica
    header = folded.header
    state = replica.state if replica is not None else None
    records = replica.records() if replica is not None else []
    names = {n: s.name or f"Seat {n}" for n, s in sorted(state.seats.items())} if state else {}
    winners, how, condition, _scores = result_of(state, walk.legacy_winner, names)
    version = str(recorded.get("version") or (replica.header_extra.get("module_version")
                                              if replica is not None else None) or "?")
    digest = str(recorded.get("hash") or header.get("game_hash") or "")
    damage = [p for p in folded.problems]
    if folded.fold_error:
        damage.append(f"cannot be replayed: {folded.fold_error}")
    salvaged = len(replica.salvaged) if replica is not None else 0
    started = walk.play_start if walk.play_start is not None else (
        records[0].op.time if records else 0.0)
    rows.add("sessions", session=session.table, game=str(header.get("game", "")),
             module_name=str(getattr(module, "name", header.get("game", ""))),
             module_version=version, module_hash=digest, draft=f"v{version} · {digest[:12]}",
             players=len(names), seats=list(names.values()),
             recorded_as=_kind(replica, len(session.logs)) if replica is not None
             else "unreadable",
             started=int(round(started * 1000)),
             duration_s=max(0.0, walk.last_time - walk.play_start)
             if walk.play_start is not None else 0.0,
             turns=len(walk.turn_times), ops=len(records), how=how, condition=condition,
             winners=sorted(winners), unfinished=not how, damaged=bool(damage or salvaged),
             damage=damage, salvaged=salvaged,
             audited=walk.audited, flags_checked=not flags_why,
             flags_why=flags_why,
             hidden_unknown=_hidden_unknown(replica, records) if replica is not None else 0,
             sources=[str(p) for p in session.paths],
             source_hashes=[log.digest for log in session.logs],
             fingerprint=session.fingerprint)


def _deck_of(module: Any, recorded: str) -> Any:
    decks = getattr(module, "starter_decks", {}) or {}
    if recorded in decks:
        return decks[recorded]
    return next((d for d in decks.values() if d.name == recorded), None)


def seat_rows(table: str, replica: Any, module: Any, walk: Walk, rows: Rows) -> None:
    """Each seat with its deck (from its deck op, or in a log from before deck ops, the
    header's deck name looked up among the module's starters), group, order and result."""
    state = replica.state
    extra = replica.header_extra
    recorded = {int(k): str(v) for k, v in (extra.get("decks") or {}).items()
                if str(k).isdigit()}
    group_header = getattr(module, "group_header", None)
    names = {n: s.name or f"Seat {n}" for n, s in sorted(state.seats.items())}
    winners, how, _condition, scores = result_of(state, walk.legacy_winner, names)
    for number in sorted(state.seats):
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
        group = (fields.get(group_header) if group_header else None) or (
            module.deck_group(deck) if deck is not None and module is not None else None)
        won = number in winners
        result = ("won" if won else "lost") if winners else (how or "unfinished")
        rows.add("seats", session=table, seat=number, name=names[number], deck=name,
                 deck_hash=digest, group=group, fields=list(fields.items()),
                 turn_order=walk.order.index(number) + 1 if number in walk.order else None,
                 result=result, won=won, score=scores.get(number))
