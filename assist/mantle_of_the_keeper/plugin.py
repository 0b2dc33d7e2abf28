"""The Mantle of the Keeper rules assist: dispatches each op to the checks that concern it."""
from __future__ import annotations

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

from . import combat, moves, resolution, setup, turn
from .board import ARENA, read_board, seat_of_id
from .common import Out
from .facts import Facts, declared, what
from .rules import RULES

DECLARATIONS = [
    DeclarationSpec("attack", "Attack: attacker -> target, with a card",
                    ("attacker", "target", "card", "value", "deal")),
    DeclarationSpec("defense", "Defend against the current attack", ("card", "value")),
    DeclarationSpec("no-defense", "Does not defend against the current attack", ()),
    DeclarationSpec("move-favor", "Favor spent for extra movement", ("amount", "target")),
    DeclarationSpec("exchange", "Favor Exchange (discard 1 for 1 Favor / 2 Favor for 1 card)",
                    ("kind",)),
    DeclarationSpec("ability-unlock", "Unlock a Favor Ability", ("ability",)),
    DeclarationSpec("ability-use", "Use a Favor Ability", ("ability",)),
    DeclarationSpec("turret-activate", "Activate an Arcane Turret", ("turret",)),
    DeclarationSpec("forced-move", "A card effect moves another Chosen", ("target", "spaces")),
    DeclarationSpec("elimination", "A Chosen is eliminated", ("seat",)),
    DeclarationSpec("overhaul", "Overhaul (setup only)", ()),
]
# Declarations that open a new timing window (and so close the previous one).
OPENERS = frozenset({"attack", "move-favor", "exchange", "ability-unlock", "ability-use",
                     "turret-activate", "forced-move", "elimination", "overhaul"})


class MantlePlugin(Plugin):
    game_id = "mantle-of-the-keeper"
    # flags about where a piece is: they clear once the piece is where the rule wants it
    conditions = frozenset({"MAN-SETUP-CHOSEN-SPACE", "MAN-ELIMINATION", "MAN-TURRET-REMOVE"})
    # what `check` looks at: every other kind (and a void op) gets nothing from it
    ignores = frozenset(opkinds.KINDS) - {"counter", "move", "consume", "mark", "end", "delete"}
    ignores_void = True
    # verdicts given when the window an attack or an ability opened closes, when a span of
    # movement or a phase ends, or at the end of a turn
    waits = frozenset({
        "MAN-ABILITY-LOCKED", "MAN-ABILITY-UNLOCK", "MAN-ATTACKER-UNHARMED", "MAN-DAMAGE",
        "MAN-DEFENSE-ONLY-TARGET", "MAN-EXCHANGE-DISCARD", "MAN-EXCHANGE-DRAW",
        "MAN-FAVOR-FOR-DAMAGE", "MAN-FULL-DEFENSE", "MAN-MODIFIER-ONE", "MAN-MODIFIER-TIMING",
        "MAN-ONE-CARD-PER-ATTACK", "MAN-TURRET-ATTACK", "MAN-TURRET-DESTROY", "MAN-TURRET-FAVOR",
        "MAN-TURRET-NO-FDB", "MAN-MOVE-END-OBSTRUCTION", "MAN-TREMOR-ENTER", "MAN-ONE-PER-SPACE",
        "MAN-INCOME", "MAN-HAND-LIMIT", "MAN-HAND-LIMIT-FAVOR", "MAN-RESHUFFLE",
        "MAN-TREMOR-STAY"})

    def still_shows(self, flag: Flag, view: AssistView, game: GameInfo) -> bool:
        piece = view.obj(flag.objects[0])
        if flag.rule != "MAN-SETUP-CHOSEN-SPACE":  # an eliminated Chosen's standee, a turret
            return piece is not None and piece.container == ARENA
        board = read_board(view, game)
        seat = seat_of_id(flag.objects[0])
        if board is None or seat is None:
            return True
        cell = board.standees.get(seat)
        shared = [s for s, c in board.standees.items() if c == cell and s != seat]
        return cell is None or cell in board.obstacles or bool(shared and seat > shared[0])

    def rules(self) -> list[RuleInfo]:
        return RULES.infos()

    def declarations(self) -> list[DeclarationSpec]:
        return list(DECLARATIONS)

    def check(self, ctx: OpContext) -> list[Flag]:
        record = ctx.record
        if record.void is not None:
            return []
        op = ctx.op
        kind = op.kind
        out = Out(ctx)
        if kind == "counter":
            turn.on_counter(ctx, Facts(ctx), out)
        elif kind == "move":
            self._move(ctx, Facts(ctx), out)
        elif kind == "consume":
            turn.on_consume(ctx, Facts(ctx), out)
        elif kind == "mark":
            self._mark(ctx, Facts(ctx), out)
        elif kind == "end":
            self._close_all(ctx, Facts(ctx), out)
        elif kind in ("set", "undo", "delete"):
            target = op.args.get("id") or ""
            if kind == "delete" and target.startswith("breach"):
                f = Facts(ctx)
                if f.in_play:
                    moves.on_breach_removed(ctx, f, out, target)
        return out

    def settle(self, ctx: OpContext) -> list[Verdict]:
        if ctx.op.kind == "end":
            return []  # the game's result already closed every window
        out = Out(ctx)
        self._close_all(ctx, Facts(ctx, at_end=True), out)
        return list(out)

    @staticmethod
    def _close_all(ctx: OpContext, f: Facts, out: Out) -> None:
        """The `end` op or the end of the input (`f.now`): the window, the span and the
        phase in force close as a marker would close them, and the turn ends there."""
        if not f.in_play:
            return
        resolution.close_window(ctx, f, out)
        start = f.previous_phase_mark()
        if start is not None:
            moves.close_span(ctx, f, out, start)
        turn.close_turn(ctx, f, out)

    def check_setup(self, ctx: OpContext) -> list[Flag]:
        out = Out(ctx)
        setup.at_setup_complete(ctx, Facts(ctx), out)
        return out

    # -- dispatch ---------------------------------------------------------------------------
    def _move(self, ctx: OpContext, f: Facts, out: Out) -> None:
        obj = ctx.op.args.get("id", "")
        dest = ctx.op.args.get("to", "")
        if obj.endswith(".standee"):
            moves.on_standee(ctx, f, out, obj)
        elif ".turret" in obj:
            if f.in_play:
                moves.on_turret(ctx, f, out, obj)
        elif obj.startswith("breach"):
            if dest != "arena" and f.in_play and any(
                    m[1] == "arena" for m in ctx.moves()):
                moves.on_breach_removed(ctx, f, out, obj)
        elif ".cube" in obj:
            if ".mat.ability-" in dest:
                combat.on_cube(ctx, f, out, dest)
        else:
            turn.on_card_move(ctx, f, out)

    def _mark(self, ctx: OpContext, f: Facts, out: Out) -> None:
        w = what(ctx.record)
        if w in ("turn", "phase", "step"):
            if not f.in_play:
                return
            resolution.close_window(ctx, f, out)
            if f.play_start == ctx.index:  # the first marker of play
                setup.at_start_of_play(ctx, f, out)
                return
            if w == "turn":
                closed = f.closed_turn()
                if closed is not None:
                    moves.close_span(ctx, f, out, self._span_start(f, closed[0]))
                    if closed[2] is not None:
                        moves.tremor_stay(ctx, f, out, closed[0], closed[1], closed[2])
                turn.on_turn(ctx, f, out)
            else:
                start = f.previous_phase_mark()
                if start is not None:
                    moves.close_span(ctx, f, out, start)
                turn.on_phase(ctx, f, out)
        elif w == "declare":
            name = declared(ctx.record)
            if name in OPENERS:
                if f.in_play:
                    resolution.close_window(ctx, f, out)
                if name == "attack":
                    combat.on_attack(ctx, f, out)
                elif name == "ability-use" and f.in_play:
                    combat.on_ability_use(ctx, f, out)
                elif name == "overhaul" and f.in_play:
                    out.add("MAN-SETUP-OVERHAUL", "Overhaul is allowed only during setup, "
                            "before the game begins.")
            elif name == "defense":
                combat.on_defense(ctx, f, out)
        elif w == "winner":
            turn.on_winner(ctx, f, out)

    @staticmethod
    def _span_start(f: Facts, turn_start: int) -> int:
        """The start of the last phase of the closed turn."""
        for i in f.h.mark_indices():
            if i >= f.h.index:
                continue
            if i < turn_start:
                break
            if what(f.h.records[i]) in ("turn", "phase", "step"):
                return i
        return turn_start
