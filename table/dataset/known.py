"""The cards an op involved, as far as a seat may know them at the log's end (its own hand, what
was shown to it, what was public): `sandtable log export` and the dataset's hands read this."""
from __future__ import annotations

from table.core.knowledge import Knowledge
from table.core.objects import OWNER
from table.core.state import State
from table.core.timeline import Record
from table.core.views import ALL, known_card


def op_cards(record: Record, state: State, knowledge: Knowledge | None, seat: int) -> list[str]:
    """Card ids an op involved, as far as `seat` may know them (final state of the log)."""
    op, a = record.op, record.op.args
    kind = op.kind
    if kind in ("move", "set", "delete", "create"):
        if a.get("card"):
            return [str(a["card"])]
        obj = state.objs.get(a["id"])
        if obj is None or obj.kind != "card":
            return []
        card = known_card(state, knowledge, obj, seat)
        return [card] if card else []
    if kind == "reveal":
        return [str(a["card"])]
    if kind == "show":
        if knowledge is not None and seat in (ALL, a["to"], op.seat):
            card = knowledge.card_of(a["id"])
            return [card] if card else []
        return []
    if kind == "consume" and a.get("why") not in ("create", "shuffle"):
        dest = state.objs.get(a["to"])
        may_see = dest is not None and (seat == ALL or (dest.owner == seat
                                                        and dest.visibility == OWNER))
        expect = a.get("expect") or [None] * len(a["in"])
        out = []
        for handle, where in zip(a["in"], expect, strict=False):
            if where == a["to"]:
                continue  # a card already there, re-handled with the newcomers
            obj = state.objs.get(handle)
            card = obj.card if obj is not None else None
            if card is None and may_see and knowledge is not None:
                card = knowledge.card_of(handle)
            if card:
                out.append(card)
        return out
    return []
