"""Checks on ops that move objects: cards between zones, Player Tokens on the Gauntlet."""
from __future__ import annotations

from typing import Any

from assist.api import Flag, journal_moves
from table.core import opkinds
from table.core.timeline import Record

from .facts import Facts
from .marks import AO_AFTER, AO_BEFORE, AO_USES, CLEANUP
from .printed import battle_hand_extra, commits_discarded
from .rules import add
from .token_moves import check_token_move
from .wording import whose

SUPPLEMENTAL = ("Leader", "Proposal", "Rite", "Deed", "Reference")
CARD_ZONES = ("deck", "hand", "discard", "graveyard", "assets", "commit", "battle-choice",
              "battle-hand")


def zone(z: str | None) -> tuple[int | None, str]:
    """'p2.discard' -> (2, 'discard'); 'gauntlet.P3' -> (None, 'gauntlet.P3')."""
    if z and z.startswith("p") and "." in z:
        head, _, kind = z.partition(".")
        if head[1:].isdigit():
            return int(head[1:]), kind
    return None, z or ""


def check_moves(f: Facts, out: list[Flag]) -> None:
    moves = f.ctx.moves()
    if not moves:
        return
    seen: set[str] = set()
    for _, obj, frm, to in [(0, *m) for m in moves]:
        tok = f.is_token(obj)
        if tok is not None:
            check_token_move(f, out, tok, frm, to)
            continue
        if to is None and frm is not None and not f.v.exists(obj):
            _left(f, out, obj, frm, seen)  # a re-handled card: its old handle
            continue
        _card(f, out, obj, frm, to, seen)


def _left(f: Facts, out: list[Flag], obj: str, frm: str, seen: set[str]) -> None:
    """A card consumed out of `frm` (its identity continues under a new handle)."""
    op = f.ctx.op
    dest = op.args.get("to") if op.kind == "consume" else None
    if dest is None or dest == frm:
        return
    _card(f, out, obj, frm, str(dest), seen)


def _card(f: Facts, out: list[Flag], obj: str, frm: str | None, to: str | None,
          seen: set[str]) -> None:
    if to is None:
        return
    if f.ctx.op.kind == "consume" and frm is None and to == f.ctx.op.args.get("to"):
        _entered(f, out, obj, to, seen)
        return
    card = f.card(obj)
    fs, fk = zone(frm)
    ts, tk = zone(to)
    key = f"{fk}>{tk}"
    _component_dest(f, out, obj, card, fk, tk, to)
    owner = f.v.owner_of(obj)
    _battle_dest(f, out, obj, card, (fs, fk), (ts, tk), owner)
    _faction_dest(f, out, obj, (fs, fk), (ts, tk), owner, key)


def _component_dest(f: Facts, out: list[Flag], obj: str, card: Any, fk: str, tk: str,
                    to: str) -> None:
    """Territories, Leaders, supplemental components and Deeds stay out of the card zones;
    the discard and graveyard take cards face up."""
    if card is not None and tk in CARD_ZONES:
        if card.type == "Territory":
            add(out, f, "GAU-TERR-NOT-IN-DECK", f"{card.name} is a Territory and never goes "
                f"to a {tk}.", [obj])
        elif card.type in SUPPLEMENTAL:
            rule = "GAU-LEADER-FACEUP" if card.type == "Leader" else "GAU-SUPP-NOT-CARDS"
            add(out, f, rule, f"{card.name} is a supplemental component and never goes to a "
                f"{tk}.", [obj])
    elif card is not None and card.type == "Leader" and fk == "leader":
        add(out, f, "GAU-LEADER-FACEUP", f"{card.name} stays in its Leader area all game.", [obj])
    if card is not None and card.type == "Deed" and to != "deed-supply" and tk != "deeds":
        add(out, f, "GAU-FIN-DEED-INTEGRITY", "Deeds stay in the shared supply or a "
            "Financier's Owned Deeds.", [obj])
    if tk in ("discard", "graveyard") and not f.v.is_up(obj):
        add(out, f, "GAU-ZONE-VISIBILITY", f"The {tk} is face up; this card went in face down.",
            [obj])


def _battle_dest(f: Facts, out: list[Flag], obj: str, card: Any, frm: tuple[int | None, str],
                 to: tuple[int | None, str], owner: int | None) -> None:
    """Where battle, graveyard, asset and overlay cards may go."""
    (fs, fk), (ts, tk) = frm, to
    if fk == "graveyard" and tk == "deck":
        add(out, f, "GAU-GRAVEYARD-NO-RESHUFFLE", "Graveyard cards are never shuffled back into "
            "the Draw Pile.", [obj])
    if fk == "battle-hand" and tk == "hand":
        add(out, f, "GAU-BATTLEHAND-SEPARATE", "Battle Hand cards stay separate from the hand.",
            [obj])
    elif fk == "commit":
        _commit_dest(f, out, obj, ts, tk, owner)
    elif fk == "battle-choice" and tk not in ("battle-hand",):
        _choice_dest(f, out, obj, fs, ts, tk)
    elif fk == "battle-hand" and tk not in ("battle-choice", "commit") and (
            tk != "discard" or ts != fs):
        add(out, f, "GAU-CLEANUP-DEST", "Unchosen Battle Hand cards go to their owner's Discard "
            "Pile.", [obj])
    if tk == "assets":
        _asset_in(f, out, obj, fk, ts, card)
    if fk == "assets" and tk == "discard" and fs == ts:
        _asset_discard(f, out, obj, fs)
    if fk.startswith("gauntlet.") and card is not None and card.type != "Territory" and (
            tk != "discard" or ts != owner):
        add(out, f, "GAU-OVERLAY-DEST", "A removed Overlay goes to its owner's Discard Pile "
            "unless its effect says otherwise.", [obj])


def _faction_dest(f: Facts, out: list[Flag], obj: str, frm: tuple[int | None, str],
                  to: tuple[int | None, str], owner: int | None, key: str) -> None:
    """The Treasury, Bound cards, Invocation, Cleanup discards and failed Missions."""
    (fs, fk), (ts, tk) = frm, to
    if fk == "treasury" and not f.decl("deed-buy", "hostile-takeover", since=f.step_start()):
        add(out, f, "GAU-FIN-TREASURY-STICKY", "Cards leave the Treasury only as Line of "
            "Credit collateral.", [obj])
    if tk == "treasury":
        _treasury(f, out, obj, fk, ts)
    if fk == "bound" and (tk != "graveyard" or ts != owner):
        add(out, f, "GAU-MYS-BOUND", "Bound cards leave only to their owner's Graveyard.", [obj])
    if fk == "graveyard" and tk == "discard" and f.faction(fs or 0) == "Mystics":
        inv = f.decl("invocation", seat=fs)
        moved = _count_moves(f, f"p{fs}.graveyard", f"p{fs}.discard", inv[-1].index) if inv \
            else 0
        if not inv or moved > 1:
            add(out, f, "GAU-MYS-INVOCATION", "Invocation moves exactly one card from the "
                "Graveyard to the Discard Pile, once per turn.", [obj])
    if fk == "hand" and f.step == CLEANUP and key in ("hand>discard", "hand>graveyard"):
        _cleanup_discard(f, out, obj, fs, tk)
    if fk == "mission" and tk == "discard" and f.decl("mission-fail", seat=fs):
        add(out, f, "GAU-INT-FAIL-DEST", "A failed Mission is revealed and goes to the "
            "Graveyard.", [obj])


def _entered(f: Facts, out: list[Flag], obj: str, to: str, seen: set[str]) -> None:
    """A fresh handle in a hidden zone (consume): check where its inputs came from."""
    ts, tk = zone(to)
    if to in seen:
        return
    seen.add(to)
    sources = [zone(frm) for _, frm, dest in f.ctx.moves() if dest is None and frm != to
               and frm is not None]
    kinds = {k for _, k in sources}
    if tk in ("commit", "battle-hand", "battle-choice"):
        _entered_battle(f, out, to, ts, tk, sources, kinds)
    elif tk == "deck" and "discard" in kinds:
        # A refill may be one gesture or card by card (then shuffled): what counts is that
        # the Draw Pile was empty when it began; that all of the Discard Pile went is judged
        # when the refill is over (check_refill_end).
        refilled = sum(1 for _, k in sources if k == "discard") + sum(
            _refilled(rec, to) for rec in _refill_run(f, to))
        if f.v.count(to) - refilled > 0:
            add(out, f, "GAU-RESHUFFLE-TRIGGER", "The whole Discard Pile becomes the new Draw "
                "Pile only when the Draw Pile cannot complete a draw.", [to])
    elif tk == "mission":
        untimely = kinds - {"hand"} or f.v.count(to) > 1 or f.step != AO_AFTER
        if untimely and (not f.decl("mission-control", seat=ts) or f.v.count(to) > 1):
            add(out, f, "GAU-INT-MISSION-START", "A Mission is started from hand in "
                "AO-after, one at a time.", [to])
        for cid in f.v.child_ids(to, "card"):
            card = f.card(cid)
            if card is not None and (card.group != "Intelligence" or not card.flag("mission")):
                add(out, f, "GAU-INT-MISSION-ELIGIBLE", f"{card.name} has no printed Mission "
                    f"requirement and cannot be a Mission.", [cid])
    elif tk == "special-operation":
        for cid in f.v.child_ids(to, "card"):
            card = f.card(cid)
            if card is not None and (card.group != "Intelligence" or not card.flag("mission")):
                add(out, f, "GAU-INT-MISSION-ELIGIBLE", f"{card.name} has no printed Mission "
                    f"requirement and cannot be a Special Operation.", [cid])


def _entered_battle(f: Facts, out: list[Flag], to: str, ts: int | None, tk: str,
                    sources: list[tuple[int | None, str]], kinds: set[str]) -> None:
    """A commitment, a Battle Hand or a Battle Hand's choice: from where, how many, in which
    order between attacker and defender."""
    b = f.battle
    if tk == "commit":
        if kinds - {"hand"} or f.v.count(to) > 1:
            add(out, f, "GAU-COMMIT-MAX-ONE", "Commit at most one card, from your hand.", [to])
        if b is not None:
            if any(f.v.count(f"p{s}.battle-hand") or f.v.count(f"p{s}.battle-choice")
                   for s in (1, 2)):
                add(out, f, "GAU-NO-LATE-COMMIT", "No card is committed from hand once Battle "
                    "Hands are drawn.", [to])
            elif ts == b.attacker and f.v.count(f"p{b.defender}.commit"):
                add(out, f, "GAU-COMMIT-ORDER", "The attacker commits (or declines) before the "
                    "defender.", [to])
    elif tk == "battle-hand":
        if kinds - {"deck"} or any(s != ts for s, _ in sources):
            add(out, f, "GAU-BATTLEHAND-DRAW", "A Battle Hand is drawn from your own Draw "
                "Pile.", [to])
        elif b is not None and ts == b.defender and not (
                f.v.count(f"p{b.attacker}.battle-hand") or
                f.v.count(f"p{b.attacker}.battle-choice")) and (
                f.v.count(f"p{b.attacker}.deck") or f.v.count(f"p{b.attacker}.discard")):
            # an attacker with nothing left to draw has no Battle Hand to form first
            add(out, f, "GAU-BATTLEHAND-ORDER", "The attacker forms its Battle Hand and chooses "
                "before the defender draws.", [to])
    elif tk == "battle-choice":
        if kinds - {"battle-hand"} or f.v.count(to) > 1:
            add(out, f, "GAU-BATTLEHAND-CHOOSE-ONE", "Choose at most one card, from your Battle "
                "Hand.", [to])
        else:
            drawn = f.v.count(f"p{ts}.battle-hand") + f.v.count(to)
            want = int(f.p("battle_hand", 3)) + battle_hand_extra(f, b)
            empty = not f.v.count(f"p{ts}.deck") and not f.v.count(f"p{ts}.discard")
            if drawn != want and not (drawn < want and empty):
                add(out, f, "GAU-BATTLEHAND-DRAW", f"{f.who(ts)}'s Battle Hand had {drawn} "
                    f"cards; it is {want} cards from the Draw Pile.", [to])


def _count_moves(f: Facts, frm: str, to: str, since: int) -> int:
    return sum(1 for _, _, a, b in f.moves_between(since) if a == frm and b == to)


def _commit_dest(f: Facts, out: list[Flag], obj: str, ts: int | None, tk: str,
                 owner: int | None) -> None:
    """A hand commitment goes to its owner's Graveyard, or to their Discard Pile where the
    contested Territory says so (Sunken Quarry)."""
    pile = "discard" if commits_discarded(f, f.battle_at(f.h.index), owner) else "graveyard"
    if tk != "hand" and (tk != pile or ts != owner):
        where = "Discard Pile (the Territory's text)" if pile == "discard" else "Graveyard"
        add(out, f, "GAU-CLEANUP-DEST", f"A hand commitment goes to its owner's {where}.",
            [obj])


def _choice_dest(f: Facts, out: list[Flag], obj: str, fs: int | None, ts: int | None,
                 tk: str) -> None:
    b = f.battle
    opp = f.other(fs)
    condemn = b is not None and opp in (b.attacker, b.defender) and \
        f.faction(opp or 0) == "Inquisition"
    if condemn and (tk != "graveyard" or ts != fs):
        add(out, f, "GAU-INQ-CONDEMNATION", "Against the Inquisition, a card used from a "
            "Battle Hand goes to its owner's Graveyard.", [obj])
    elif not condemn and (tk != "discard" or ts != fs):
        add(out, f, "GAU-CLEANUP-DEST", "The chosen Battle Hand card goes to its owner's "
            "Discard Pile.", [obj])


def _asset_in(f: Facts, out: list[Flag], obj: str, fk: str, ts: int | None, card: object) -> None:
    if ts is None:
        return
    if card is not None and getattr(card, "type", "") == "Overlay":
        add(out, f, "GAU-OVERLAY-ATTACHED", "An Overlay attaches to a Territory; it is not "
            "banked as an Asset.", [obj])
    limit = f.controlled(ts)
    count = f.v.count(f"p{ts}.assets")
    if count > limit:
        add(out, f, "GAU-ASSET-LIMIT", f"{f.who(ts)} now has {count} Assets but controls only "
            f"{limit} Territories.", [obj])
    if fk == "hand" and (f.step not in (AO_BEFORE, AO_AFTER) or ts != f.active):
        when = f"on {f.who(f.active)}'s turn" if ts != f.active else \
            f"in the {f.phases[f.step] if f.step is not None else 'no'} step"
        add(out, f, "GAU-ASSET-ENTRY", f"{f.who(f.seat)} banked {whose(f, obj)} from hand "
            f"{when}; a card is banked by its Action play, in its owner's Action Opportunity.",
            [obj])


def _asset_discard(f: Facts, out: list[Flag], obj: str, seat: int | None) -> None:
    if seat is None:
        return
    over = f.v.count(f"p{seat}.assets") + 1 > f.controlled(seat)
    if over or f.decl("purge") or f.ctx.excused:
        return
    used = [d for d in f.decl(*AO_USES, seat=seat) if d.name != "asset-discard"]
    if f.step not in (AO_BEFORE, AO_AFTER) or seat != f.active or used:
        add(out, f, "GAU-ASSET-DISCARD-USES-AO", "Discarding an Asset by choice uses your "
            "Action Opportunity.", [obj])


def _treasury(f: Facts, out: list[Flag], obj: str, fk: str, ts: int | None) -> None:
    used = [d for d in f.decl(*AO_USES, seat=ts) if d.name != "treasury"]
    if fk != "hand" or f.step != AO_AFTER or ts != f.active or used or not f.v.is_up(obj):
        add(out, f, "GAU-FIN-TREASURY", "One card from hand goes face up into the Treasury, in "
            "AO-after, instead of an Action play.", [obj])


def _cleanup_discard(f: Facts, out: list[Flag], obj: str, seat: int | None, tk: str) -> None:
    limit = int(f.p("hand_limit", 3))
    if seat != f.active:
        add(out, f, "GAU-HAND-LIMIT-DISCARD", "Only the active player discards down to the hand "
            "limit in Cleanup.", [obj])
    elif tk == "graveyard":
        add(out, f, "GAU-HAND-LIMIT-DISCARD", "Cleanup discards go to the Discard Pile, not "
            "the Graveyard.", [obj])
    elif f.v.count(f"p{seat}.hand") < limit:
        add(out, f, "GAU-HAND-LIMIT-DISCARD", f"Cleanup discards stop at {limit} cards in "
            f"hand.", [obj])


# -- refilling the Draw Pile -------------------------------------------------------------------
def _refilled(rec: Record, deck: str) -> int:
    """Cards an op moved from its seat's Discard Pile into `deck` (0 for any other op)."""
    op = rec.op
    if rec.void is not None or op.kind != "consume" or op.args.get("to") != deck:
        return 0
    discard = deck[:-len("deck")] + "discard"
    return sum(1 for _o, src, dst in journal_moves(rec) if src == discard and dst is None)


def _refill_run(f: Facts, deck: str) -> list[Record]:
    """The discard-to-deck moves into `deck` right before the current op (a card-by-card
    refill so far)."""
    run = []
    records = f.h.records
    for i in range(f.h.index - 1, -1, -1):
        rec = records[i]
        if rec.op.kind in opkinds.QUIET or rec.void is not None:
            continue
        if not _refilled(rec, deck):
            break
        run.append(rec)
    return run


def check_refill_end(f: Facts, out: list[Flag], *, at_end: bool = False) -> None:
    """The op after a refill (the shuffle, a draw...), or the end of the input after one: the
    Discard Pile must be empty by then."""
    records = f.h.records
    i = f.h.index if at_end else f.h.index - 1
    while i >= 0 and (records[i].op.kind in opkinds.QUIET or records[i].void is not None):
        i -= 1
    if i < 0:
        return
    prev = records[i]
    deck = prev.op.args.get("to") if prev.op.kind == "consume" else None
    if not isinstance(deck, str) or not deck.endswith(".deck") or not _refilled(prev, deck):
        return
    if not at_end and _refilled(f.ctx.record, deck):
        return  # the refill goes on
    discard = deck[:-len("deck")] + "discard"
    left = f.v.count(discard)
    if left:
        seat, _kind = zone(deck)
        add(out, f, "GAU-RESHUFFLE-TRIGGER", f"{f.who(seat)}'s Draw Pile was refilled with "
            f"{left} card(s) left in the Discard Pile: all of the Discard Pile forms the new "
            "Draw Pile.", [deck, discard])
