"""The Dead to Rites plugin: dispatch by op kind, setup checks, counters and card moves."""
from __future__ import annotations

from collections import Counter as Tally

from assist.api import (
    AssistView,
    DeclarationSpec,
    Flag,
    GameInfo,
    OpContext,
    Plugin,
    RuleInfo,
    Verdict,
)
from table.core import opkinds
from table.core.timeline import Record
from table.games.model import Card

from . import combat, costs, ritual, windows
from .reader import ALTAR, POOL, Dtr, z, zone_kind, zone_seat
from .rules import RULES, flag

DECLARATIONS = [
    DeclarationSpec("attack", "Attack (attacker -> target)", ("attacker", "target")),
    DeclarationSpec("strike-back", "Strike back (target -> attacker)", ("target", "attacker")),
    DeclarationSpec("engage", "Engage: ability", ("card",)),
    DeclarationSpec("ward", "Ward of the Rite on the Altar", ("ward",)),
    DeclarationSpec("pass", "Pass (no commit to the Defense Pool)"),
    DeclarationSpec("mulligan", "Mulligan"),
    DeclarationSpec("keep-hand", "Keep the opening hand (no mulligan)"),
    DeclarationSpec("pact-offer", "Offer a Pact", ("pact", "to")),
    DeclarationSpec("pact-accept", "Accept a Pact", ("pact",)),
    DeclarationSpec("pact-decline", "Decline a Pact", ("pact",)),
    DeclarationSpec("pact-break", "Break a Pact", ("pact", "breaker")),
    DeclarationSpec("counter", "Counter a card", ("card",)),
    DeclarationSpec("expel", "Expel X", ("count",)),
]


class DeadToRites(Plugin):
    game_id = "dead-to-rites"
    # a Favor count out of bounds: the flag leaves once the tracker is back within them
    conditions = frozenset({"DTR-FAVOR-CAP", "DTR-FAVOR-NONNEG"})
    # `check` returns nothing for these (and for a void op): the runner need not ask
    ignores = opkinds.QUIET | {opkinds.ROLL, opkinds.REVEAL, opkinds.UNDO}
    ignores_void = True

    def still_shows(self, flag: Flag, view: AssistView, game: GameInfo) -> bool:
        favor, seat = view.counter(flag.objects[0]) or 0, view.owner_of(flag.objects[0])
        if flag.rule == "DTR-FAVOR-NONNEG":
            return favor < 0
        return seat is None or favor > Dtr.of_table(view, game).favor_cap(seat)

    def rules(self) -> list[RuleInfo]:
        return RULES.infos()

    def declarations(self) -> list[DeclarationSpec]:
        return list(DECLARATIONS)

    # verdicts given when a payment or a timing window closes (laid at the op they judge)
    waits = costs.COST_RULES | windows.WINDOW_RULES

    def check(self, ctx: OpContext) -> list[Verdict]:
        if ctx.record.void is not None:
            return []
        kind = ctx.op.kind
        if kind in opkinds.QUIET or kind in (opkinds.ROLL, opkinds.REVEAL, opkinds.UNDO):
            return []
        setup = ctx.history.setup_end()
        if setup is None or setup >= ctx.index or ctx.history.starts_play():
            return []  # the module's setup (judged by check_setup), or the first-turn marker
        d = Dtr(ctx)
        return costs.check_payments(d) + list(_check_op(d, kind))

    def settle(self, ctx: OpContext) -> list[Verdict]:
        setup = ctx.history.setup_end()
        if setup is None or setup >= ctx.index:
            return []
        d = Dtr(ctx, at_end=True)
        return costs.settle_payments(d) + list(windows.close_window(d))

    def check_setup(self, ctx: OpContext) -> list[Flag]:
        return check_setup(Dtr(ctx))


def _check_op(d: Dtr, kind: str) -> list[Flag]:
    ctx = d.ctx
    if kind == "counter":
        return check_counter(d)
    if kind == "mark":
        what = ctx.op.args.get("what")
        if what == "declare":
            return combat.check_declaration(d)
        if what in ("turn", "phase", "step", "winner"):
            return windows.check_window_end(d)
        return []
    if kind == "end":  # the recorded result closes the last timing window too
        return windows.check_game_end(d)
    out: list[Flag] = []
    if ctx.moves():
        out += check_moves(d)
    if kind in ("set", "move"):
        out += combat.check_rotation(d)
    return out


# -- setup ---------------------------------------------------------------------------------
def check_setup(d: Dtr) -> list[Flag]:
    ctx, module = d.ctx, d.game.module
    out: list[Flag] = []
    seats = d.seats()
    if not module.players.min <= len(seats) <= module.players.max:
        out.append(flag(ctx, "DTR-PLAYERS-4", f"{len(seats)} players are seated; Dead to Rites "
                        f"is for {module.players.min}."))
    for s in seats:
        crown = d.crown(s)
        cards = [c for zone in ("deck", "hand", "discard", "play")
                 for c in d.view.child_ids(z(s, zone), "card")]
        known = [card for c in cards if (card := d.card(c)) is not None]
        out += _deck_flags(d, s, crown, len(cards), known)
        out += _rite_stack_flags(d, s, crown, known)
        out += _start_flags(d, s, crown)
        out += _block_flags(d, s, known)
    return out


def _deck_flags(d: Dtr, s: int, crown: Card | None, size: int, known: list[Card]) -> list[Flag]:
    """The main deck's size, copies per title and Crown."""
    ctx, module = d.ctx, d.game.module
    out: list[Flag] = []
    main = module.deck_rules.get("main")
    if main is not None and main.min_cards is not None and not (
            main.min_cards <= size <= (main.max_cards or main.min_cards)):
        out.append(flag(ctx, "DTR-DECK-SIZE", f"{d.who(s)}'s main deck has {size} cards, "
                        f"not {main.min_cards}.", objects=(z(s, "deck"),)))
    names = Tally(card.name for card in known)
    limit = main.max_copies if main is not None else None
    over = sorted(n for n, k in names.items() if limit is not None and k > limit)
    if over:
        out.append(flag(ctx, "DTR-DECK-COPIES", f"{d.who(s)}'s deck has more than {limit} copies "
                        f"of {', '.join(over)}.", objects=(z(s, "deck"),)))
    if crown is not None:
        foreign = sorted({card.name for card in known
                          if card.group not in (crown.group, module.neutral)})
        if foreign:
            out.append(flag(ctx, "DTR-DECK-FACTION", f"{d.who(s)} ({crown.name}) has other "
                            f"Crowns' cards: {', '.join(foreign)}.", objects=(z(s, "deck"),)))
    return out


def _rite_stack_flags(d: Dtr, s: int, crown: Card | None, known: list[Card]) -> list[Flag]:
    """The Crown's Rites face up in their own stack, Step 1 on top; none in the main deck."""
    view = d.view
    bad_types = sorted({card.name for card in known if card.type in ("Rite", "Crown")})
    rites = [d.card(c) for c in view.child_ids(z(s, "rites"), "card")]
    steps = [r.number("step") if r is not None and r.type == "Rite" else None
             for r in reversed(rites)]  # top first
    n_rites = int(d.p("step_max", 5))
    own = crown is None or all(r is not None and r.group == crown.group for r in rites)
    if bad_types or steps != list(range(1, n_rites + 1)) or not own or not all(
            view.is_up(c) for c in view.child_ids(z(s, "rites"), "card")):
        what = (f"Rites or Crowns in the main deck ({', '.join(bad_types)})" if bad_types
                else f"the Rite stack is not the Crown's {n_rites} Rites face up, Step 1 on top")
        return [flag(d.ctx, "DTR-RITES-SEPARATE", f"{d.who(s)}: {what}.", objects=(z(s, "rites"),))]
    return []


def _start_flags(d: Dtr, s: int, crown: Card | None) -> list[Flag]:
    """The Crown and its tracker, Step 0, the opening hand, the starting Favor."""
    ctx, view, module = d.ctx, d.view, d.game.module
    out: list[Flag] = []
    if crown is None:
        out.append(flag(ctx, "DTR-CROWN-COMPONENTS", f"{d.who(s)} has no Crown card in the "
                        "Crown area.", objects=(z(s, "crown"),)))
    else:
        for comp in ("Secrets", "Bonds", "Requiem", "Wildfire"):
            has = view.exists(z(s, comp.lower()))
            wants = crown.get("component") == comp
            if has != wants:
                out.append(flag(ctx, "DTR-CROWN-COMPONENTS", f"{d.who(s)} ({crown.name}) "
                                f"{'has' if has else 'lacks'} a {comp} tracker.",
                                objects=(z(s, "crown"),)))
    if d.step(s) != 0 or d.completed(s) != 0:
        out.append(flag(ctx, "DTR-SETUP-STEP0", f"{d.who(s)} starts on Step {d.step(s)} with "
                        f"{d.completed(s)} completed Rites; everyone starts on Step 0.",
                        objects=(z(s, "step"),)))
    hand = view.count(z(s, "hand"))
    opening = int(d.p("opening_hand", 6))
    if hand != opening:
        out.append(flag(ctx, "DTR-SETUP-DRAW6", f"{d.who(s)} starts with {hand} cards in hand, "
                        f"not {opening}.", objects=(z(s, "hand"),)))
    starts = {c.id: c.start for c in module.counters_for(module.players.min)}
    start = starts.get(z(s, "favor"))
    if start is not None and d.favor(s) != start:
        out.append(flag(ctx, "DTR-START-FAVOR", f"{d.who(s)} starts with {d.favor(s)} Favor; "
                        f"{d.who(s)} starts with {start}.", objects=(z(s, "favor"),)))
    return out


def _block_flags(d: Dtr, s: int, known: list[Card]) -> list[Flag]:
    bmin, bmax = int(d.p("block_min", 0)), int(d.p("block_max", 3))
    bad_block = sorted({card.name for card in known if (
        not isinstance(card.get("block"), int) or not bmin <= card.number("block") <= bmax)})
    if bad_block:
        return [flag(d.ctx, "DTR-BLOCK-VALUES", f"{d.who(s)}'s deck has cards without a Block "
                     f"value {bmin}-{bmax}: {', '.join(bad_block)}.")]
    return []


# -- counters --------------------------------------------------------------------------------
def check_counter(d: Dtr) -> list[Flag]:
    ctx = d.ctx
    args = ctx.op.args
    obj_id, key = args["id"], args.get("key") or "value"
    out: list[Flag] = []
    actor = ctx.seat
    owner = zone_seat(obj_id)
    kind = d.view.kind_of(obj_id)  # no whole view built: the kind and maybe a name are read
    if kind is None:
        return out
    if kind == "card":
        return combat.check_damage_counter(d, obj_id, key)
    if owner is not None and actor is not None and actor != owner:
        out.append(flag(ctx, "DTR-OWN-COUNTERS", f"{d.who(actor)} changed {d.who(owner)}'s "
                        f"{d.view.prop(obj_id, 'name', obj_id)}; players adjust their own "
                        "counters.",
                        objects=(obj_id,)))
    if zone_kind(obj_id) != "favor" or owner is None or key != "value":
        return out
    new = d.view.counter(obj_id) or 0
    before = ctx.counter_before(obj_id) or 0
    cap = d.favor_cap(owner)
    if new < 0:
        out.append(flag(ctx, "DTR-FAVOR-NONNEG", f"{d.who(owner)}'s Favor is {new}; Favor is never "
                        "negative and you can't pay more than you have.", objects=(obj_id,)))
    if new > cap:
        if args.get("add") is not None and before <= cap:
            out.append(flag(ctx, "DTR-FAVOR-OVERCAP-LOST", f"{d.who(owner)} gained {args['add']} "
                            f"Favor from {before}: the gain stops at {cap} and the rest is lost.",
                            objects=(obj_id,)))
        else:
            out.append(flag(ctx, "DTR-FAVOR-CAP", f"{d.who(owner)} has {new} Favor; the cap is "
                            f"{cap}.", objects=(obj_id,)))
    if new > before and d.active is not None and d.active != owner and not ctx.excused \
            and not _starting_value(d):
        turn_start = ctx.history.current_turn_start()
        declined = any(d.seat_field(r, "offerer") in (None, owner) and _pact_owner(d, r) == owner
                       for _i, r in d.declarations("pact-decline", turn_start, ctx.index))
        if not declined:
            out.append(flag(ctx, "DTR-FAVOR-REFILL-OWN-TURN", f"{d.who(owner)} gained Favor on "
                            f"{d.who(d.active)}'s turn; Favor refills only on your own turn.",
                            objects=(obj_id,)))
    return out


def _starting_value(d: Dtr) -> bool:
    """A Favor tracker set (not changed by an amount) before the first marker of play: the
    table's setup giving a starting value (a seat's own setup may land after the
    setup-complete marker), not a refill on another's turn."""
    start = d.history.play_start()
    return d.ctx.op.args.get("add") is None and (start is None or start > d.ctx.index)


def _pact_owner(d: Dtr, rec: Record) -> int | None:
    pact = d.field(rec, "pact")
    return d.view.owner_of(pact) if isinstance(pact, str) else None


# -- card moves ------------------------------------------------------------------------------
def check_moves(d: Dtr) -> list[Flag]:
    ctx = d.ctx
    out: list[Flag] = []
    actor = ctx.seat
    for obj_id, src, dst in ctx.moves():
        if dst is None:  # consumed by a re-handle into a hidden zone (a hand, a deck)
            if src == POOL:
                out.append(flag(ctx, "DTR-POOL-DISCARD", f"{d.whose(obj_id)}, committed to "
                                f"the Defense Pool, went to {d.place(ctx.op.args.get('to'))}; "
                                "committed cards go to their owner's discard pile.",
                                objects=(obj_id,)))
            continue
        card = d.card(obj_id)
        src_kind, dst_kind = zone_kind(src), zone_kind(dst)
        owner = d.view.owner_of(obj_id)
        if card is not None and card.type == "Rite":
            out += ritual.check_rite_move(d, obj_id, card, src, dst)
            continue
        if dst == POOL:
            out += ritual.check_commit(d, obj_id, src)
        if src == POOL and not (dst_kind == "discard" and zone_seat(dst) == owner):
            out.append(flag(ctx, "DTR-POOL-DISCARD", f"{d.whose(obj_id)}, committed to the "
                            f"Defense Pool, went to {d.place(dst)}; committed cards go to their "
                            "owner's discard pile.", objects=(obj_id,)))
        if card is None:
            continue
        if card.type == "Champion" and src_kind == "play" and dst_kind == "discard" \
                and zone_seat(dst) != owner:
            out.append(flag(ctx, "DTR-DESTROY-DEST", f"{d.whose(obj_id)} went to "
                            f"{d.place(dst)}; destroyed Champions go to their owner's "
                            f"({d.who(owner)}'s).", objects=(obj_id,)))
        if dst_kind == "play" and src_kind != "play":
            if card.type == "Champion":
                out += combat.check_enters_play(d, obj_id, card, dst)
            if (src_kind == "hand" and actor is not None and d.active is not None
                    and actor != d.active and card.type != "Interrupt"):
                out.append(flag(ctx, "DTR-OFFTURN-INTERRUPTS-ONLY", f"{d.who(actor)} played "
                                f"{card.name} ({card.type}) on {d.who(d.active)}'s turn; only "
                                "Interrupts can be played on another player's turn.",
                                objects=(obj_id,)))
    return out


__all__ = ["ALTAR", "DeadToRites", "flag"]
