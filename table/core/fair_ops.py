"""Rolls and shuffles from a jointly drawn seed, and the end-of-game publication of secrets.

A LAN session runs a commit-reveal round among the table's peers (netplay.draws.commit_reveal) and hands its
outcome, a `JointDraw`, to these functions, which issue the op:

* `fair_roll`: a roll whose `fair` argument carries the round's commitments and shares, so
  every peer checks on receipt that the faces derive from them (a forged roll is void and its
  author named).
* `fair_shuffle`: the pile's owner shuffles with the seed of every share it was sent privately;
  the consume op carries the round id and the commitments, the owner's private record keeps
  the shares and the pre-shuffle order of identities.
* `publication` / `receive_publication`: at the end of the game every peer publishes its
  shares, and each owner its salts, fair-shuffle records and deck orders, so any peer (and
  `sandtable check --audit`) can verify every shuffle.

Hot-seat play and a lone peer keep `actions.roll` / `actions.shuffle` (marked local).
"""
from __future__ import annotations

from typing import Any

from . import fair
from .actions import ActionError, _commit_outputs, _identity, _obj
from .objects import PUBLIC
from .ops import Op
from .replica import Replica


def fair_roll(r: Replica, draw: fair.JointDraw, *, sides: int = 6, count: int = 1,
              die_id: str | None = None, why: str | None = None,
              seat: int | None = None) -> Op:
    """Roll `count` d`sides` with the faces the round's seed gives."""
    if r.peer_id not in draw.shares:
        raise ActionError("this peer's own share is not in the joint draw")
    args: dict[str, Any] = {"sides": sides, "values": fair.dice(draw.seed(), sides, count),
                            "fair": draw.roll_record()}
    if die_id is not None:
        args["id"] = die_id
    if why:
        args["why"] = why
    return r.issue("roll", args, seat=seat)


def fair_shuffle(r: Replica, pile_id: str, draw: fair.JointDraw, *,
                 incoming: list[str] | None = None, seat: int | None = None) -> Op:
    """Shuffle a pile (with `incoming` cards added: "the discard forms a new deck") in the
    order the joint seed gives. Only the pile's owner's peer knows the identities to shuffle.

    The pre-shuffle order is the identities of the consumed cards in the op's `in` order: the
    newcomers first, then the pile bottom to top."""
    pile = _obj(r, pile_id)
    if pile.visibility == PUBLIC:
        raise ActionError(f"{pile.props.get('name', pile_id)} is not a hidden pile")
    newcomers = [_obj(r, c) for c in incoming or []]
    kept = [r.state.objs[c] for c in r.state.cards_in(pile)]
    inside = set(pile.children)
    inputs = [o for o in newcomers if o.id not in inside] + kept
    if not inputs:
        raise ActionError(f"{pile.props.get('name', pile_id)} is empty")
    before = [_identity(r, o) for o in inputs]
    out, private = _commit_outputs(r, fair.permuted(draw.seed(), before))
    private["fair"] = {"rounds": {draw.round: {"pile": pile_id, "shares": dict(draw.shares),
                                               "order": before}}}
    return r.issue("consume", {"in": [o.id for o in inputs],
                               "expect": [o.container for o in inputs], "to": pile_id,
                               "at": "bottom", "out": out, "owner": pile.owner,
                               "why": "shuffle", "fair": draw.shuffle_record()},
                   seat=seat, private=private)


def publication(r: Replica, my_shares: dict[str, str] | None = None) -> dict[str, Any]:
    """What this peer publishes at the end of the game: the identities and salts of every
    hidden card its software knows, the records of the fair shuffles it made, the shares it
    sent to other owners (`my_shares`: round id -> share, from netplay.draws.commit_reveal), and the order
    of each hidden pile its seats own. Publishing reveals every hidden card it holds: call it
    when the game is over for this peer."""
    rounds: dict[str, Any] = {rid: dict(entry) for rid, entry in
                              (r.knowledge.fair.get("rounds") or {}).items()}
    for rid, share in (my_shares or {}).items():
        entry = rounds.setdefault(rid, {"shares": {}})
        entry["shares"] = {**entry.get("shares", {}), r.peer_id: share}
    mine = r.my_seats
    piles = {}
    for obj in r.state.objs.values():
        if obj.alive and obj.kind in ("pile", "zone") and obj.owner in mine \
                and obj.visibility != PUBLIC:
            cards = [r.knowledge.card_of(c) or r.state.objs[c].card for c in obj.children
                     if r.state.objs[c].kind == "card"]
            if all(cards):
                piles[obj.id] = cards
    return {"cards": {h: [card, salt] for h, (card, salt) in r.knowledge.cards.items()},
            "fair": {"rounds": rounds, "piles": piles}, "by": r.peer_id}


def publish(r: Replica, my_shares: dict[str, str] | None = None) -> dict[str, Any]:
    """Build this peer's publication and keep it in its own log; returns it to send to every
    peer (netplay.draws.commit_reveal's `fair_pub` message)."""
    body = publication(r, my_shares)
    if r.log is not None:
        r.log.append({"secret": body})
    return body


def receive_publication(r: Replica, body: dict[str, Any], from_peer: str) -> list[str]:
    """Another peer's publication: kept in this peer's log (so its log can be audited) and
    absorbed. Card secrets that do not match their commitments are dropped and named."""
    from . import commit

    problems: list[str] = []
    cards: dict[Any, Any] = body["cards"] if isinstance(body.get("cards"), dict) else {}
    good: dict[str, list[str]] = {}
    for handle, pair in cards.items():
        obj = r.state.objs.get(handle) if isinstance(handle, str) else None
        if (obj is None or not obj.commitment or not isinstance(pair, (list, tuple))
                or len(pair) != 2 or not all(isinstance(x, str) for x in pair)):
            continue
        if commit.verify(handle, pair[0], pair[1], obj.commitment):
            good[handle] = [pair[0], pair[1]]
        else:
            problems.append(f"peer {from_peer}: published a secret for {handle} that does not "
                            f"match its commitment")
    record = {"cards": good, "fair": body.get("fair") or {}, "by": from_peer}
    r.receive_private(record)
    for problem in problems:
        r.report(problem)
    return problems
