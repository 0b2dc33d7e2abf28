"""What a player does, turned into ops.

The UI, game setup, scripts and the JSON importer call these; each picks the right op for the
situation, as a person at a table would expect: a card put into a hand or a deck re-handles that
zone (so nobody can follow it), a hidden card turned face up carries its reveal, a draw takes the
top card. They raise ActionError, with a message a player understands, when this peer cannot do
the action itself (it does not know a hidden card: only its owner's peer can move it).
"""
from __future__ import annotations

from typing import Any

from . import commit, opkinds
from .errors import CoreError
from .objects import PUBLIC, ROOT, Obj
from .ops import END_HOWS, Op
from .replica import Replica


class ActionError(CoreError):
    """The local peer cannot perform this action (a message for the player)."""


def _obj(r: Replica, obj_id: str) -> Obj:
    obj = r.state.live(obj_id)
    if obj is None:
        raise ActionError(f"there is no {obj_id!r} on the table")
    return obj


def _identity(r: Replica, obj: Obj) -> str:
    card = obj.card or r.knowledge.card_of(obj.id)
    if card is None:
        raise ActionError(f"only its owner's software knows card {obj.id}; ask them")
    return card


def _commit_outputs(r: Replica, cards: list[str]) -> tuple[list[list[str]], dict[str, Any]]:
    out: list[list[str]] = []
    secrets: dict[str, list[str]] = {}
    for card in cards:
        handle, salt = "h" + r.rng.token(8), r.rng.token(16)
        out.append([handle, commit.commitment(handle, card, salt)])
        secrets[handle] = [card, salt]
    return out, {"cards": secrets}


def new_cards(r: Replica, pile_id: str, cards: list[str], *, owner: int | None = None,
              seat: int | None = None, face_up: bool = False) -> Op:
    """Put new cards into a zone. In a hidden zone they are committed handles from the start."""
    pile = _obj(r, pile_id)
    owner = pile.owner if owner is None else owner
    if pile.visibility == PUBLIC and face_up:
        ops = [r.issue("create", {"id": "c" + r.rng.token(8), "kind": "card", "to": pile_id,
                                  "owner": owner, "card": card}, seat=seat) for card in cards]
        return ops[-1]
    out, private = _commit_outputs(r, cards)
    return r.issue("consume", {"in": [], "to": pile_id, "out": out, "owner": owner,
                               "why": "create"}, seat=seat, private=private)


def foreign_owner(r: Replica, obj: Obj | None, *, secret: bool = False) -> int | None:
    """The seat whose peer alone may handle `obj`, when another peer plays it: a hidden zone's
    owner, or for a card in a hidden zone, that zone's owner. With `secret`, also the owner of
    a face-down card this peer does not know (to turn it up, or put it into a hidden zone).
    None when this peer may handle it itself."""
    if obj is None:
        return None
    seat: int | None = None
    if obj.kind == "card":
        holder = r.state.objs.get(obj.container or ROOT)
        if holder is not None and holder.visibility != PUBLIC:
            seat = holder.owner
        elif secret and obj.is_secret and r.knowledge.card_of(obj.id) is None:
            seat = obj.owner
    elif obj.visibility != PUBLIC:
        seat = obj.owner
    if seat is None:
        return None
    held = r.state.seats.get(seat)
    return seat if held is not None and held.peer != r.peer_id else None


def give(r: Replica, zone: Obj, incoming: list[Obj], *, at: Any = "top",
         seat: int | None = None) -> Op:
    """Cards going into a hidden zone of a seat another peer plays: a gift.

    Only the zone's owner may re-handle the zone, so this consumes the given cards alone and
    commits fresh handles owned by the receiving seat, placed on top (or at the bottom); their
    card and salt go privately to the receiving seat (``private_out``). Its peer then re-handles
    the zone (:func:`settle_gifts`), so the giver can no longer follow the card by its handle.
    """
    receiver = zone.owner
    assert receiver is not None
    if r.private_out is None:
        raise ActionError(f"cannot hand a card to seat {receiver}: no private link to its player")
    names = [_identity(r, o) for o in incoming]
    out, private = _commit_outputs(r, names)
    op = r.issue("consume", {"in": [o.id for o in incoming],
                             "expect": [o.container for o in incoming], "to": zone.id,
                             "at": "bottom" if at == "bottom" else "top", "out": out,
                             "owner": receiver, "why": "gift"}, seat=seat, private=private)
    record = r.timeline.record_of(op.ref)
    if record is None or record.void is None:
        r.private_out(receiver, {**private, "gift": {"to": zone.id, "op": list(op.ref),
                                                     "handles": [h for h, _ in out]}})
    return op


def settle_gifts(r: Replica) -> list[Op]:
    """Re-handle each zone of this peer's into which a gift has arrived (``r.pending_gifts``,
    filled by ``receive_private``), once the gift op is here. A hand is re-handled in a random
    order; a pile keeps its order (the giver knows where they put the card, as at a real table,
    but no longer its handle). Gifts whose op was void, or whose cards have moved on, are
    dropped. Returns the ops issued."""
    issued: list[Op] = []
    for gift in list(r.pending_gifts):
        zone = r.state.live(gift["to"])
        if zone is None or zone.owner not in r.my_seats:
            r.pending_gifts.remove(gift)
            continue
        record = r.timeline.record_of((gift["op"][0], gift["op"][1]))
        if record is None:
            continue  # the gift's op has not arrived yet
        r.pending_gifts.remove(gift)
        if record.void is not None:
            continue
        if not any((o := r.state.objs.get(h)) is not None and o.alive and o.container == zone.id
                   for h in gift["handles"]):
            continue  # already re-handled (a draw into the zone, say) or moved on
        try:
            issued.append(rehandle_into(r, zone, [], seat=zone.owner, why="receive"))
        except CoreError as err:
            r.report(f"could not re-handle {zone.id} after a gift: {err}")
    return issued


def rehandle_into(r: Replica, zone: Obj, incoming: list[Obj], *, at: Any = "top",
                  seat: int | None = None, why: str = "move", shuffle: bool = False) -> Op:
    """Cards entering a hidden zone: consume the zone and the newcomers, commit afresh.
    Into a zone of a seat another peer plays, the newcomers are a gift (:func:`give`)."""
    if incoming and not shuffle and foreign_owner(r, zone) is not None:
        return give(r, zone, incoming, at=at, seat=seat)
    kept = [r.state.objs[c] for c in r.state.cards_in(zone)]
    kept_ids = {o.id for o in kept}
    incoming = [o for o in incoming if o.id not in kept_ids]
    names_in = [_identity(r, o) for o in incoming]
    names_kept = [_identity(r, o) for o in kept]
    if shuffle:
        order = r.rng.shuffled(names_kept + names_in)
    elif zone.visibility == PUBLIC or zone.props.get("kind") == "pile" or zone.kind == "pile":
        index = len(names_kept) if at in (None, "top") else 0 if at == "bottom" else \
            max(0, min(len(names_kept), int(at)))
        order = names_kept[:index] + names_in + names_kept[index:]
    else:  # a hand: its order is the owner's business, so publish none
        order = r.rng.shuffled(names_kept + names_in)
    out, private = _commit_outputs(r, order)
    inputs = incoming + kept
    return r.issue("consume", {"in": [o.id for o in inputs],
                               "expect": [o.container for o in inputs], "to": zone.id,
                               "at": "bottom", "out": out, "owner": zone.owner, "why": why},
                   seat=seat, private=private)


def shuffle(r: Replica, pile_id: str, *, seat: int | None = None, now: bool = False) -> Op | None:
    """Shuffle a pile. At a LAN table with other peers the seed is drawn jointly and the op
    comes a few ms later (None here); `now`: local randomness at once (setup steps)."""
    pile = _obj(r, pile_id)
    if not now and r.joint_draws is not None and pile.visibility != PUBLIC \
            and r.joint_draws.shuffle(pile_id, seat=seat):
        return None
    return rehandle_into(r, pile, [], seat=seat, why="shuffle", shuffle=True)


def draw(r: Replica, pile_id: str, to_id: str, count: int = 1, *, seat: int | None = None,
         face_up: bool | None = None) -> Op:
    """Take the top `count` cards of a pile into a zone (a hand, a Battle Hand, the table)."""
    pile, dest = _obj(r, pile_id), _obj(r, to_id)
    cards = [r.state.objs[c] for c in r.state.cards_in(pile)]
    if not cards:
        raise ActionError(f"{pile.props.get('name', pile_id)} is empty")
    taken = list(reversed(cards[-count:]))  # top first
    if dest.visibility != PUBLIC:
        return rehandle_into(r, dest, taken, seat=seat, why="draw")
    op = None
    for card in taken:
        op = move(r, card.id, to_id, seat=seat, face_up=face_up)
    assert op is not None
    return op


def move_all(r: Replica, from_id: str, to_id: str, *, shuffle: bool = False,
             face_up: bool | None = None, seat: int | None = None) -> Op:
    """Every card of a zone into another, as one gesture: "shuffle the discard pile to form a
    new draw pile". Into a hidden pile it is one re-handling consume (shuffled if asked)."""
    source, dest = _obj(r, from_id), _obj(r, to_id)
    cards = [r.state.objs[c] for c in r.state.cards_in(source)]
    if not cards:
        raise ActionError(f"{source.props.get('name', from_id)} is empty")
    if dest.visibility != PUBLIC:
        return rehandle_into(r, dest, cards, seat=seat, shuffle=shuffle,
                             why="shuffle" if shuffle else "move")
    op = None
    for card in reversed(cards) if shuffle else cards:  # top first keeps the order on top
        op = move(r, card.id, to_id, seat=seat, face_up=face_up)
    assert op is not None
    return op


def move(r: Replica, obj_id: str, to_id: str, *, at: Any = None, pos: Any = None,
         face_up: bool | None = None, rot: int | None = None, seat: int | None = None) -> Op:
    obj, dest = _obj(r, obj_id), _obj(r, to_id)
    if obj.kind == "card" and dest.visibility != PUBLIC:
        if obj.container == dest.id:
            raise ActionError("the card is already there")
        return rehandle_into(r, dest, [obj], at=at if at is not None else "top", seat=seat)
    args: dict[str, Any] = {"id": obj_id, "to": to_id}
    if at is not None:
        args["at"] = at
    if pos is not None:
        args["pos"] = [float(v) for v in pos]
    if face_up is not None:
        args["face_up"] = face_up
    if rot is not None:
        args["rot"] = rot
    if face_up and obj.is_secret:
        args["card"], args["salt"] = _secret(r, obj)
    return r.issue("move", args, seat=seat)


def _secret(r: Replica, obj: Obj) -> tuple[str, str]:
    card, salt = r.knowledge.card_of(obj.id), r.knowledge.salt_of(obj.id)
    if card is None or salt is None:
        raise ActionError(f"only its owner's software can turn up card {obj.id}")
    return card, salt


def flip(r: Replica, obj_id: str, face_up: bool | None = None, *, seat: int | None = None) -> Op:
    """Turn an object over; `face_up` None means 'the other side' (stated as a result)."""
    obj = _obj(r, obj_id)
    target = (not obj.face_up) if face_up is None else face_up
    args: dict[str, Any] = {"id": obj_id, "field": "face_up", "value": target}
    if target and obj.is_secret:
        args["card"], args["salt"] = _secret(r, obj)
    return r.issue("set", args, seat=seat)


def reveal(r: Replica, obj_id: str, *, face_up: bool | None = None, seat: int | None = None) -> Op:
    obj = _obj(r, obj_id)
    card, salt = _secret(r, obj)
    args: dict[str, Any] = {"id": obj_id, "card": card, "salt": salt}
    if face_up is not None:
        args["face_up"] = face_up
    return r.issue("reveal", args, seat=seat)


def show(r: Replica, obj_id: str, to_seat: int, *, seat: int | None = None) -> Op:
    """Show a hidden card to one seat only (or peek at one's own pile card: to_seat = own)."""
    obj = _obj(r, obj_id)
    card, salt = _secret(r, obj) if obj.is_secret else (obj.card or "", "")
    private = {"cards": {obj_id: [card, salt]}, "shown": {obj_id: [to_seat]}}
    op = r.issue("show", {"id": obj_id, "to": to_seat}, seat=seat, private=private)
    if r.private_out is not None and to_seat not in r.my_seats:
        r.private_out(to_seat, private)
    return op


def set_field(r: Replica, obj_id: str, field: str, value: Any, *, seat: int | None = None) -> Op:
    return r.issue("set", {"id": obj_id, "field": field, "value": value}, seat=seat)


def rotate(r: Replica, obj_id: str, degrees: int, *, seat: int | None = None) -> Op:
    return set_field(r, obj_id, "rotation", degrees % 360, seat=seat)


def counter(r: Replica, obj_id: str, *, add: int | None = None, value: int | None = None,
            key: str = "value", seat: int | None = None) -> Op:
    args: dict[str, Any] = {"id": obj_id}
    if key != "value":
        args["key"] = key
    if add is not None:
        args["add"] = add
    if value is not None:
        args["value"] = value
    return r.issue("counter", args, seat=seat)


def roll(r: Replica, *, die_id: str | None = None, sides: int = 6, count: int = 1,
         why: str | None = None, seat: int | None = None, now: bool = False) -> Op | None:
    """Roll. At a LAN table with other peers the value is drawn jointly and the op comes a
    few ms later (None here); `now`: local randomness at once (setup's first-player roll)."""
    if not now and r.joint_draws is not None and r.joint_draws.roll(
            sides=sides, count=count, die_id=die_id, why=why, seat=seat):
        return None
    # this peer's own randomness: hot-seat, a lone peer (table.core.fair_ops rolls jointly)
    args: dict[str, Any] = {"sides": sides, "values": r.rng.roll(sides, count), "local": True}
    if die_id is not None:
        args["id"] = die_id
    if why:
        args["why"] = why
    return r.issue("roll", args, seat=seat)


def mark(r: Replica, what: str, *, value: Any = None, for_seat: int | None = None,
         fields: dict[str, Any] | None = None, seat: int | None = None) -> Op:
    args: dict[str, Any] = {"what": what}
    if value is not None:
        args["value"] = value
    if for_seat is not None:
        args["seat"] = for_seat
    if fields:
        args["fields"] = fields
    return r.issue("mark", args, seat=seat)


def tag(r: Replica, *, group: str | None = None, event: str | None = None,
        add: list[str] | tuple[str, ...] = (), remove: list[str] | tuple[str, ...] = (),
        players: dict[int, str] | None = None, seat: int | None = None) -> Op:
    """Say what the session is (a `tag` op): its playtest group and event ("" clears one), the
    people at its seats, free tags added and removed. Only what is named changes."""
    args: dict[str, Any] = {}
    if group is not None:
        args["group"] = group
    if event is not None:
        args["event"] = event
    if add:
        args["add"] = [str(t) for t in add]
    if remove:
        args["remove"] = [str(t) for t in remove]
    if players:
        args["players"] = {str(k): str(v) for k, v in players.items()}
    if not args:
        raise ActionError("a tag op names a group, an event, players or tags")
    return r.issue("tag", args, seat=seat)


def pass_turn(r: Replica, to_seat: int, *, first_phase: str | None = None,
              seat: int | None = None) -> Op:
    """End the turn: it passes to `to_seat`, beginning in `first_phase`. The turn marker is
    the ender's op; the first phase is the new seat's own: issued here, in its name, when this
    peer plays that seat (hot-seat), else by that seat's peer when the marker reaches it
    (:func:`begin_turn`), so no op claims a move its seat did not make. Returns the last op."""
    op = mark(r, "turn", for_seat=to_seat, seat=seat,
              fields={"first_phase": first_phase} if first_phase else None)
    if first_phase and _plays(r, to_seat):
        return mark(r, "phase", value=first_phase, seat=to_seat)
    return op


def begin_turn(r: Replica) -> Op | None:
    """The turn of a seat this peer plays was passed to it by another peer: set the first phase
    the turn marker names, as that seat. None when there is nothing to begin (not our turn, a
    phase already set, a marker without a first phase, or our own marker)."""
    seat = r.state.turn.get("seat")
    if not isinstance(seat, int) or not _plays(r, seat) or r.state.phase is not None:
        return None
    for rec in reversed(r.records()):
        op = rec.op
        if op.kind != opkinds.MARK or rec.void is not None or \
                op.args.get("what") not in ("turn", "phase", "step"):
            continue
        first = (op.args.get("fields") or {}).get("first_phase")
        if op.args.get("what") != "turn" or op.author == r.peer_id or not isinstance(first, str):
            return None
        return mark(r, "phase", value=first, seat=seat)
    return None


def _plays(r: Replica, seat: int) -> bool:
    held = r.state.seats.get(seat)
    return held is not None and held.peer == r.peer_id


def end_game(r: Replica, winners: list[int], how: str, *, condition: str | None = None,
             scores: dict[int, int | float] | None = None, standings: list[int] | None = None,
             text: str | None = None, seat: int | None = None) -> Op:
    """Record the game's result (an `end` op): who won and how it ended."""
    if how not in END_HOWS:
        raise ActionError(f"how a game ends is one of {', '.join(END_HOWS)}, not {how!r}")
    args: dict[str, Any] = {"winners": [int(s) for s in winners], "how": how}
    if condition:
        args["condition"] = condition
    if scores:
        args["scores"] = {str(k): v for k, v in scores.items()}
    if standings:
        args["standings"] = [int(s) for s in standings]
    if text:
        args["text"] = text
    return r.issue("end", args, seat=seat)


def create(r: Replica, obj_id: str, kind: str, *, to: str = ROOT, seat: int | None = None,
           **fields: Any) -> Op:
    return r.issue("create", {"id": obj_id, "kind": kind, "to": to, **fields}, seat=seat)
