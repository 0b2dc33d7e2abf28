"""The Gauntlet rules assist: flags moves that look illegal under the v0.6.0 rulebook."""
from __future__ import annotations

from assist.api import (
    CARD_EFFECT_SPEC,
    AssistView,
    DeclarationSpec,
    Flag,
    OpContext,
    Plugin,
    RuleInfo,
    Verdict,
)
from table.core import opkinds

from . import battle_close, declares, marks, moves, order_costs, state_ops
from .facts import Facts
from .marks import check_mark
from .rules import RULES
from .setup_checks import check_setup

DECLARATIONS = (
    DeclarationSpec("battle-open", "Battle begins",
                    ("attacker", "defender", "position", "last_stand")),
    DeclarationSpec("battle-step", "Battle step (1-9)", ("step",)),
    DeclarationSpec("net-advantage", "Net advantage (negative: disadvantage)", ("seat", "net")),
    DeclarationSpec("battle-winner", "Battle winner and totals",
                    ("winner", "attacker_total", "defender_total", "attacker_die",
                     "defender_die")),
    DeclarationSpec("battle-close", "Battle over (cleanup done)"),
    DeclarationSpec("withdraw", "Withdraw from the battle", ("seat",)),
    # a choice that leaves no op behind (§6: "commits ... or declines")
    DeclarationSpec("commit-declined", "Declines to commit a card (hand or Battle Hand)",
                    ("seat", "from")),
    DeclarationSpec("forced-beyond", "Forced beyond the Gauntlet", ("seat",)),
    DeclarationSpec("action-card", "Card played for its Action effect", ("card",)),
    DeclarationSpec("asset-discard", "Discard an Asset (uses the AO)", ("card",)),
    DeclarationSpec("treasury", "Treasury: card from hand (uses the AO)", ("card",)),
    DeclarationSpec("deed-buy", "Buy or buy out a Deed (uses the AO)",
                    ("position", "buyout", "paid", "collateral")),
    DeclarationSpec("hostile-takeover", "Hostile Takeover (Executive)",
                    ("position", "buyout", "paid")),
    DeclarationSpec("market", "Play the Market (uses the AO)", ("card",)),
    DeclarationSpec("mission-start", "Start a Mission (uses the AO)"),
    DeclarationSpec("mission-complete", "Complete the Mission (uses the AO)"),
    DeclarationSpec("mission-abort", "Abort the Mission (uses the AO)"),
    DeclarationSpec("mission-fail", "The Mission failed"),
    DeclarationSpec("mission-control", "Mission Control (Spymaster)"),
    DeclarationSpec("special-op-start", "Begin a Special Operation (uses the AO)"),
    DeclarationSpec("special-op-complete", "Complete the Special Operation", ("paid",)),
    DeclarationSpec("surveillance", "Surveillance (1 Intel)"),
    DeclarationSpec("interference", "Interference (2 Intel)"),
    DeclarationSpec("fieldcraft", "Fieldcraft (Ranger, 1 Intel)"),
    DeclarationSpec("rite-begin", "Begin a Rite (uses the AO)", ("rite",)),
    DeclarationSpec("rite-complete", "Complete a Rite", ("rite",)),
    DeclarationSpec("invocation", "Invocation"),
    DeclarationSpec("transmutation", "Transmutation (before dice)", ("card",)),
    DeclarationSpec("guardians", "Guardians of the Circle (Spirit Walker)"),
    DeclarationSpec("order", "Order (spend Command)", ("order",)),
    DeclarationSpec("leverage", "Leverage (before dice)", ("amount",)),
    DeclarationSpec("subsidize", "Subsidize (before dice)", ("bonus", "spent")),
    DeclarationSpec("terms-offered", "Terms offered", ("proposal",)),
    DeclarationSpec("terms-accepted", "Terms accepted"),
    DeclarationSpec("terms-refused", "Terms refused"),
    DeclarationSpec("cordiality", "Cordiality (Ambassador)"),
    DeclarationSpec("political-capital", "Political Capital (Senator)", ("cards",)),
    DeclarationSpec("purge", "Purge", ("tier", "final_judgment")),
    DeclarationSpec("blasphemy", "Blasphemy (+1 Conviction)"),
    DeclarationSpec("relentless-pursuit", "Relentless Pursuit (Witch Hunter)"),
    CARD_EFFECT_SPEC,
)


class GauntletPlugin(Plugin):
    game_id = "gauntlet"
    # `check` returns nothing for these (and for a void op): the runner need not ask
    ignores = opkinds.QUIET
    ignores_void = True
    # verdicts given when a payment, a step, a turn or a refill is over
    waits = frozenset({
        "GAU-MIL-ONWARD", "GAU-MIL-RALLY", "GAU-MIL-ROUT", "GAU-MIL-ENTRENCH", "GAU-MIL-REPEL",
        "GAU-MIL-FORTIFY", "GAU-CAPTURE-MANDATORY", "GAU-FIN-INCOME",
        "GAU-DRAW-ONE", "GAU-HAND-LIMIT", "GAU-FIN-CAPITAL-LIMIT", "GAU-OVERLAY-FACING",
        "GAU-BATTLE-ON-ENTRY", "GAU-MYS-LOSS-INTERRUPTS", "GAU-RESHUFFLE-TRIGGER"})

    def rules(self) -> list[RuleInfo]:
        return RULES.infos()

    def declarations(self) -> list[DeclarationSpec]:
        return list(DECLARATIONS)

    def idle(self, view: AssistView) -> bool:
        return view.turn[1] == 0  # before the first turn is setup (check_setup judges it)

    def check(self, ctx: OpContext) -> list[Verdict]:
        if ctx.record.void is not None or ctx.view.turn[1] == 0:
            return []  # void ops change nothing; before the first turn is setup
        setup = ctx.history.setup_end()
        if setup is None or setup >= ctx.index or ctx.history.starts_play():
            return []  # the module's setup (judged at the setup-complete marker), or the
            #            first-turn marker, which opens play (it passes no turn)
        kind = ctx.op.kind
        out: list[Flag] = []
        if kind in opkinds.QUIET:
            return []
        f = Facts(ctx)
        moves.check_refill_end(f, out)
        verdicts = order_costs.check_order_costs(f)
        if kind == "mark":
            if ctx.op.args.get("what") != "declare":
                check_mark(f, out)
            elif ctx.op.args.get("value") == "battle-close":
                b = f.battles[-1] if f.battles else None
                if b is not None and b.close_i == ctx.history.index:
                    battle_close.check_close(f, out, b)
            else:
                declares.check_declare(f, out)
        elif kind in ("move", "consume", "create", "delete"):
            moves.check_moves(f, out)
        elif kind == "set":
            state_ops.check_set(f, out)
        elif kind == "counter":
            state_ops.check_counter(f, out)
        elif kind == "roll":
            state_ops.check_roll(f, out)
        elif kind == "end":
            marks.check_game_end(f, out)
        state_ops.check_asset_excess(f, out)
        return verdicts + list(out)

    def settle(self, ctx: OpContext) -> list[Verdict]:
        setup = ctx.history.setup_end()
        if ctx.view.turn[1] == 0 or setup is None or setup >= ctx.index:
            return []
        f = Facts(ctx, at_end=True)
        out: list[Flag] = []
        moves.check_refill_end(f, out, at_end=True)
        marks.settle(f, out)
        return order_costs.settle_order_costs(f) + list(out)

    def check_setup(self, ctx: OpContext) -> list[Flag]:
        return check_setup(Facts(ctx))
