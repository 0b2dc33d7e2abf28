"""One logged session, summarised for the report: who played what, how long, who won, what
the assist flagged, the designers' notes, dice, cards played, and what the log could not know.

`read_session(path)` raises `Skip` with a reason when a log cannot be used (not a log, damaged
beyond reading, a game module that is not installed); the report lists those.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from table.core import opkinds
from table.core.audit import audit_summary
from table.core.errors import LogError
from table.core.replica import Replica
from table.core.objects import OWNER
from table.core.views import ALL

from table.games.registry import ModuleNotFound
from table.games.store import module_for_recorded, recorded_module

from .derive import derive
from .flags import Follower, FlagRun
from .model import SeatInfo, Session, Skip
from .plays import PlayRule, play_rule
from .sources import Source, one_log

__all__ = ["SeatInfo", "Session", "Skip", "Source", "installed_module", "read_session"]

_HEADER_KEYS = ("format", "version", "table", "peer", "game", "game_hash", "created")


_MODULES: dict[str, Any] = {}  # game id -> installed module (None: not installed)


def installed_module(game: str) -> Any:
    """The installed module of a game (cached), or None."""
    if game not in _MODULES:
        _MODULES[game] = _module_for(game)
    return _MODULES[game]


def _module_for(game: str) -> Any:
    from table.games import ModuleError, find_module

    try:
        return find_module(game)
    except (ModuleNotFound, ModuleError):  # not installed, or broken
        return None


def _deck_of(module: Any, recorded: str) -> Any:
    decks = getattr(module, "starter_decks", {}) or {}
    if recorded in decks:
        return decks[recorded]
    for deck in decks.values():
        if deck.name == recorded:
            return deck
    return None


def read_session(path: str | Path | Source, *, plugins: dict[str, Any] | None = None,
                 modules: dict[str, Any] | None = None, assist: bool = True) -> Session:
    """One session from a log (or from a `Source`: a table's logs merged); raises Skip."""
    if isinstance(path, Source):
        source = path
    else:
        try:
            source = one_log(Path(path))
        except LogError as err:
            raise Skip(str(err).removeprefix(f"{path}: ")) from None
    path, head, records_in = source.path, source.header, source.records
    game = str(head.get("game", ""))
    if not game:
        raise Skip("the log does not say which game it is")
    setup_module, blobs = recorded_module(records_in)  # the draft it was set up with
    judged_by = ""
    if modules is not None and game in modules:  # a caller's module (tests, benchmarks)
        module, module_note = modules[game], ""
    else:
        try:
            resolved = module_for_recorded(game, setup_module, blobs)
        except ModuleNotFound as err:
            raise Skip(str(err)) from None
        module, module_note = resolved.module, resolved.note
        if resolved.source == "installed (fallback)" and setup_module:
            judged_by = resolved.label
    replica = Replica(str(head.get("table", "")), str(head.get("peer", "")), game=game,
                      game_hash=str(head.get("game_hash", "")))
    replica.header_extra = {k: v for k, v in head.items() if k not in _HEADER_KEYS}
    seats_hint = replica.header_extra.get("seats")
    follower = Follower(module if assist else None, (plugins or {}).get(game),
                        seats=seats_hint if isinstance(seats_hint, int) else None,
                        knowledge=replica.knowledge)
    if not assist:
        follower.why = "the rules assist was not run (--no-flags)"
    follower.attach(replica.timeline)  # the assist checks each op as the log is folded
    try:
        replica.load_records(records_in, str(path), salvage=True)
    except Exception as err:  # noqa: BLE001 - a log that breaks the replay is skipped, not fatal
        raise Skip(f"cannot be replayed: {type(err).__name__}: {err}") from None
    for problem in source.problems:
        replica.reports.append(problem)
    records = replica.records()
    if not records:
        raise Skip("the log holds no ops" + (f" ({source.problems[0]})" if source.problems
                                             else ""))
    session = _session(source, replica, module, setup_module)
    session.judged_by = judged_by
    if module_note:
        session.problems.insert(0, module_note)
    flags = follower.result()
    seat_view = ALL if session.kind != "one peer" else (min(replica.my_seats)
                                                        if replica.my_seats else 0)
    infos = derive(records, replica.state, replica.knowledge, seat_view, flags.by_index)
    rule = play_rule(module)
    session.plays_declared = rule is not None
    _fold(session, records, infos, flags, replica, rule, module)
    _result(session, replica.state)
    _hidden(session, records, replica)
    return session


def _session(source: Source, replica: Replica, module: Any,
             setup_module: dict[str, Any] | None) -> Session:
    """The session's identity: its logs, kind, seats, draft, damage and audit."""
    path, records, state, extra = source.path, replica.records(), replica.state, \
        replica.header_extra
    mine = replica.my_seats
    kind = "merged" if replica.peer_id == "merged" else "hot-seat" if len(mine) > 1 or (
        mine and mine == set(state.seats)) else "one peer"
    recorded = setup_module or {}
    session = Session(path, replica.game, str(getattr(module, "name", replica.game)),
                      str(recorded.get("version") or extra.get("module_version") or "?"),
                      str(recorded.get("hash") or replica.game_hash),
                      str(source.header.get("created", "")), kind, _seats(module, state, extra),
                      ops=len(records))
    if session.game_hash and session.game_hash != getattr(module, "content_hash", ""):
        session.installed_hash = str(getattr(module, "content_hash", ""))
    session.problems = [p.replace(f"{path}: ", "") for p in replica.reports]
    session.randomness = audit_summary(replica)
    session.module_changes = [(n, str(r.op.args.get("version", "?")), str(r.op.args["hash"]))
                              for n, r in enumerate(records, start=1)
                              if r.op.kind == "module" and r.void is None
                              and r.op.args.get("changes")]
    session.started = records[0].op.time
    session.salvaged = len(replica.salvaged)
    session.lost = [seq for _a, seq in replica.lost]
    session.damage = list(source.damage)
    session.logs = [str(p) for p in source.logs]
    session.disagree = [(p.name, n) for p, n in source.missing.items()]
    session.header_recovered = list(source.recovered)
    return session


def _seats(module: Any, state: Any, extra: dict[str, Any]) -> list[SeatInfo]:
    """Each seat with its deck, deck headers and group: from its deck op (what was played), or
    in a log from before deck ops, by looking the header's deck name up among the starters."""
    recorded = {int(k): str(v) for k, v in (extra.get("decks") or {}).items()
                if str(k).isdigit()}
    group_header = getattr(module, "group_header", None)
    seats = []
    for number, seat in sorted(state.seats.items()):
        deck_op = state.decks.get(number)
        deck = None if deck_op is not None else _deck_of(module, recorded.get(number, ""))
        if deck_op is not None:
            name = str(deck_op.get("name", "?"))
            attrs = {k: str(v) for k, v in (deck_op.get("fields") or {}).items() if k != "name"}
        else:
            name = deck.name if deck is not None else recorded.get(number, "?")
            attrs = {k: str(v) for k, v in (deck.headers.items() if deck is not None else ())
                     if k != "name"}
        group = (attrs.get(group_header) if group_header else None) or \
            (module.deck_group(deck) if deck is not None else None)
        seats.append(SeatInfo(number, seat.name or f"Seat {number}", name, attrs, group=group))
    return seats


def _fold(session: Session, records: list[Any], infos: list[Any], flags: FlagRun,
          replica: Replica, rule: PlayRule | None, module: Any) -> None:
    if not flags.available:
        session.flags_why = flags.why
    seat_names = {s.seat: s.name for s in session.seats}
    order: list[int] = []
    turn_times: list[float] = []
    play_start: float | None = None
    last_time = 0.0
    setup_done = False
    declared: dict[int, str | None] = {}  # seat -> its last declaration, until its next move
    cards = getattr(module, "cards", None) or {}
    state, salvaged = replica.state, replica.salvaged
    for record, info in zip(records, infos):
        op, args = record.op, record.op.args
        if op.kind == "mark" and record.void is None:
            what = args["what"]
            if what == "declare" and op.seat is not None:
                declared[op.seat] = str(args.get("value"))
            if what == "setup" and args.get("value") == "complete":
                setup_done = True
            elif what == "turn":
                seat = args.get("seat")
                if isinstance(seat, int):
                    session.turns_by_seat[seat] += 1
                    if seat not in order:
                        order.append(seat)
                turn_times.append(op.time)
                if play_start is None:
                    play_start = op.time
            elif what == "winner":
                session.winner, session.winner_text = _winner(args, state, session)
        if setup_done and play_start is None and op.kind in opkinds.ACTIONS:
            play_start = op.time
        if play_start is not None:
            last_time = max(last_time, op.time)
        if info.flags:
            # an op read past a lost record may be flagged for what the lost one did
            into = session.salvaged_flags if op.ref in salvaged else session.flags
            for flag in info.flags:
                into[flag.rule] += 1
                session.flag_messages.setdefault(flag.rule, flag.message)
        if record.void is not None:
            continue
        if op.kind in opkinds.ACTIONS and op.seat is not None and info.turn > 0:
            session.actions[op.seat] += 1
        if op.kind == "note":
            session.notes.append((info.n, info.turn, seat_names.get(op.seat or 0, "?"),
                                  str(args["text"])))
        elif op.kind == "roll":
            sides = int(args["sides"])
            session.rolls.extend((sides, int(v), op.seat) for v in args["values"]
                                 if isinstance(v, int))
        if info.cards and op.kind in ("consume", "move"):
            _held(session, state, args, info.cards)
        if op.kind == "move" and op.seat is not None:
            last = declared.pop(op.seat, None)
            if rule is not None and setup_done and info.cards and \
                    _is_play(rule, record, cards.get(info.cards[0]), info.phase, last):
                session.played.setdefault(op.seat, []).append(info.cards[0])
    session.turns = len(turn_times)
    if play_start is not None:
        session.started = play_start
        session.minutes = max(0.0, (last_time - play_start) / 60.0)
    ends = turn_times[1:] + [last_time]
    session.turn_seconds = [max(0.0, b - a) for a, b in zip(turn_times, ends)]
    for position, seat in enumerate(order, start=1):
        for info in session.seats:
            if info.seat == seat:
                info.order = position


def _held(session: Session, state: Any, args: dict[str, Any], cards: list[str]) -> None:
    """Cards that entered a seat's hand (a zone only its owner sees), by a draw or a move."""
    dest = state.objs.get(args.get("to"))
    if dest is not None and dest.owner is not None and dest.visibility == OWNER:
        session.in_hand.setdefault(dest.owner, set()).update(cards)


def _is_play(rule: PlayRule, record: Any, card: Any, phase: str | None,
             declared: str | None) -> bool:
    """Whether this move of a known card is a play as the module declares plays."""
    source = _source(record)
    if card is None or source is None:
        return False
    args = record.op.args
    # face up as the move put it (a card committed face down and turned up later, as a
    # Defense Pool block, was not played face up)
    return rule.counts(card.type, source, str(args["to"]), record.op.seat,
                       args.get("face_up") is True, phase, declared)


def _source(record: Any) -> str | None:
    """Where a move took its object from (the journal keeps the old container)."""
    for entry in record.journal.entries:
        if entry[0] == "f" and entry[2] == "container":
            return str(entry[3])
    return None


def _result(session: Session, state: Any) -> None:
    """The end-of-game op's result (the latest one in effect), else a legacy winner mark."""
    result = state.result
    names = {s.seat: s.name for s in session.seats}
    if result is not None:
        session.winners = {s for s in result["winners"] if isinstance(s, int)}
        session.how = str(result["how"])
        session.condition = str(result.get("condition") or "")
        session.scores = {int(k): float(v) for k, v in (result.get("scores") or {}).items()}
    elif session.winner is not None:
        session.winners, session.how = {session.winner}, "victory"
    if session.winners:
        session.winner = min(session.winners)
        session.winner_text = " and ".join(names.get(s, f"Seat {s}")
                                           for s in sorted(session.winners))
    else:
        session.winner, session.winner_text = None, ""


def _winner(args: dict[str, Any], state: Any, session: Session) -> tuple[int | None, str]:
    value = args.get("value", args.get("seat"))
    if isinstance(value, int) and not isinstance(value, bool):
        seat = state.seats.get(value)
        return value, seat.name if seat is not None and seat.name else f"Seat {value}"
    text = str(value or "")
    folded = text.casefold()
    for info in session.seats:
        if folded in (info.name.casefold(), f"seat {info.seat}", str(info.seat),
                      info.deck.casefold()) or folded in {v.casefold() for v in info.attrs.values()}:
            return info.seat, info.name
    return None, text


def _hidden(session: Session, records: list[Any], replica: Replica) -> None:
    """How many committed (hidden) cards this log never learned the identity of."""
    handles: set[str] = set()
    for record in records:
        a = record.op.args
        if record.op.kind == "consume" and record.void is None:
            handles.update(h for h, _c in a["out"])
        elif record.op.kind == "create" and a.get("commitment"):
            handles.add(a["id"])
    known = replica.knowledge.cards
    objs = replica.state.objs
    session.hidden_total = len(handles)
    session.hidden_unknown = sum(1 for h in handles if h not in known and (
        objs.get(h) is None or objs[h].card is None))
