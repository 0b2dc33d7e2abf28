"""What a designer wants to know about each op beyond the op itself.

The turn and phase it happened in, whose turn it was, the seat that acted, the cards involved
(by name, where the viewing seat may know them), and the flags the rules assist raised on it.
`sandtable log export` and `sandtable report` both read the log through this.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from table.core.knowledge import Knowledge
from table.core.state import State
from table.core.timeline import Record
from table.dataset.known import op_cards


@dataclass(slots=True)
class OpInfo:
    n: int  # 1-based, as `sandtable log show` numbers ops
    turn: int  # how many turns had begun (0 before the first turn marker)
    active_seat: int | None  # whose turn it was
    phase: str | None
    seat: int | None  # the seat that acted
    kind: str
    cards: list[str] = field(default_factory=list)  # card ids this seat may know
    flags: list[Any] = field(default_factory=list)  # assist flags raised on this op


def derive(records: Sequence[Record], state: State, knowledge: Knowledge | None, seat: int,
           flags: Mapping[int, Sequence[Any]] | None = None) -> list[OpInfo]:
    """One OpInfo per record, in canonical order."""
    out: list[OpInfo] = []
    turn, active, phase = 0, None, None
    flags = flags or {}
    for index, record in enumerate(records):
        op = record.op
        if op.kind == "mark" and record.void is None:
            what = op.args["what"]
            if what == "turn":
                turn, active, phase = turn + 1, op.args.get("seat"), None
            elif what in ("phase", "step"):
                phase = op.args.get("value")
        info = OpInfo(index + 1, turn, active, phase, op.seat, op.kind,
                      op_cards(record, state, knowledge, seat) if op.kind in
                      ("move", "set", "delete", "create", "reveal", "show", "consume") else [],
                      list(flags.get(index, ())))
        out.append(info)
    return out


def card_namer(module: Any) -> Callable[[str], str]:
    cards = getattr(module, "cards", None) or {}

    def name(card_id: str) -> str:
        card = cards.get(card_id)
        return card.name if card is not None else card_id
    return name


def export_columns(replica: Any, seat: int) -> tuple[list[dict[str, Any]], str]:
    """Per op: card names (as `seat` may know them) and assist flags; plus why flags are
    missing ("" when the assist ran). For `sandtable log export`."""
    from table.games.registry import ModuleNotFound
    from table.games.store import module_for

    from .flags import run_assist

    try:
        module = module_for(replica).module if replica.game else None
    except (ModuleNotFound, ValueError):
        module = None
    run = run_assist(replica, module)
    name = card_namer(module)
    records = replica.records()
    infos = derive(records, replica.state, replica.knowledge, seat, run.by_index)
    rows = [{"cards": [name(c) for c in info.cards],
             "flags": [f.rule for f in info.flags],
             "flag_messages": [f.message for f in info.flags]} for info in infos]
    return rows, ("" if run.available else run.why)
