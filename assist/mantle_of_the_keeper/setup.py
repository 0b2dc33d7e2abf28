"""Setup checks: at the setup-complete marker (mats, decks, cubes, hands) and at the start of
play, the first turn or phase marker after it (tiles, Hazards, standees, Overhauls)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .board import chosen_card
from .common import Out, param, seat_name
from .facts import Facts, drawn, moved, what

if TYPE_CHECKING:
    from assist.api import OpContext
    from table.games.model import Card


def _by_count(ctx: OpContext, name: str, seats: int, seat: int, default: int) -> int:
    table = ctx.game.param(name, {}) or {}
    row = table.get(str(seats)) if isinstance(table, dict) else None
    if isinstance(row, list) and len(row) >= seat and isinstance(row[seat - 1], int):
        count: int = row[seat - 1]
        return count
    return default


def at_setup_complete(ctx: OpContext, f: Facts, out: Out) -> None:
    view, game = ctx.view, ctx.game
    seats = sorted(view.seats)
    n = len(seats)
    most = param(game, "standard_max_players", 4)
    if n > most:
        out.add("MAN-SETUP-PLAYER-COUNT", f"{n} players: the standard game is for up to {most} "
                f"(more is the 'Push the Limits!' house rule).")
    shuffled = _check_history(ctx, f, out)
    taken: dict[str, int] = {}
    for seat in seats:
        card = chosen_card(view, game, seat)
        if card is None:
            continue
        if card.id in taken:
            out.add("MAN-SETUP-CHOSEN-PICK", f"{card.name} was taken by both "
                    f"{seat_name(ctx, taken[card.id])} and {seat_name(ctx, seat)}.")
        taken[card.id] = seat
        _check_kit(ctx, f, out, seat, card, shuffled)
        _check_mat(ctx, out, seat, n)


def _check_history(ctx: OpContext, f: Facts, out: Out) -> set[str]:
    """The first-player roll obeyed; the piles shuffled during setup (returned)."""
    records = f.h.records
    rolls: dict[int, int] = {}
    first_turn = None
    shuffled: set[str] = set()
    for i in range(ctx.index):
        rec = records[i]
        op = rec.op
        if rec.void is not None:
            continue
        if op.kind == "roll" and "first" in str(op.args.get("why", "")):
            seat = f.seat_of(rec)
            if seat is not None:
                rolls[seat] = sum(op.args.get("values") or [0])
        elif op.kind == "consume" and op.args.get("why") == "shuffle":
            shuffled.add(op.args.get("to", ""))
        elif what(rec) == "turn" and rolls:
            first_turn = op.args.get("seat")
            if rolls and first_turn is not None and rolls.get(first_turn, -1) < max(rolls.values()):
                out.add("MAN-SETUP-FIRST-ROLL", f"{seat_name(ctx, first_turn)} went first but "
                        f"rolled {rolls.get(first_turn)}; the highest roll was "
                        f"{max(rolls.values())}.")
            rolls = {}
    return shuffled


def _check_kit(ctx: OpContext, f: Facts, out: Out, seat: int, card: Card,
               shuffled: set[str]) -> None:
    """A seat's cards, turrets, mat side and deck belong to its Chosen and are set up so."""
    view, game = ctx.view, ctx.game
    deck_size = param(game, "deck.main.cards", 20)
    artificer = str(game.param("turret_chosen", "Khaya the Artificer"))
    zones = (f"p{seat}.deck", f"p{seat}.hand", f"p{seat}.discard")
    total = 0
    for zone in zones:
        for obj in view.child_ids(zone, "card"):
            total += 1
            known = game.card(view.card_of(obj))
            if known is not None and known.group != card.group:
                out.add("MAN-SETUP-KIT", f"{seat_name(ctx, seat)} plays {card.name} but has "
                        f"{known.name} ({known.group}) in their cards.", [obj])
                break
    turrets = [t for t in view.child_ids(f"p{seat}.accessories") if ".turret" in t]
    if turrets and card.group != artificer:
        out.add("MAN-SETUP-KIT", f"{seat_name(ctx, seat)} has Arcane Turrets but plays "
                f"{card.name}: turrets belong to {artificer}.", turrets)
    if view.prop(f"p{seat}.mat", "side") != str(game.param("mat_play_side", "Tracker")):
        out.add("MAN-SETUP-MAT-SIDE", f"{seat_name(ctx, seat)}'s Player Mat is not Tracker "
                f"side up.", [f"p{seat}.mat"])
    deck = f"p{seat}.deck"
    face_up = [o for o in view.child_ids(deck, "card") if view.is_up(o)]
    if total != deck_size or face_up or deck not in shuffled:
        out.add("MAN-SETUP-DECK", f"{seat_name(ctx, seat)}'s Chosen deck: {total} cards, "
                f"{len(face_up)} face up, {'shuffled' if deck in shuffled else 'not shuffled'}"
                f"; it is {deck_size} cards, shuffled, face down.", [deck])


def _check_mat(ctx: OpContext, out: Out, seat: int, n: int) -> None:
    """A seat's starting Health, Favor, cubes and opening hand for this many players."""
    view, game = ctx.view, ctx.game
    health = view.counter(f"p{seat}.health")
    favor = view.counter(f"p{seat}.favor")
    want_favor = _by_count(ctx, "start_favor_by_seat_count", n, seat, 0)
    spare = len(view.child_ids(f"p{seat}.cubes"))
    cubes = param(game, "cubes_per_player", 5)
    if health != param(game, "health_start", 20) or favor != want_favor or \
            not view.child_ids(f"p{seat}.mat.ability-1") or spare != cubes - 3:
        out.add("MAN-SETUP-CUBES", f"{seat_name(ctx, seat)}'s mat: Health {health}, Favor "
                f"{favor}, {spare} spare cubes; it starts at Health 20, Favor {want_favor}, a "
                f"cube on the bottom-left ability and {cubes - 3} spare cubes.",
                [f"p{seat}.mat"])
    hand = view.count(f"p{seat}.hand")
    want = _by_count(ctx, "opening_hand_by_seat_count", n, seat,
                     param(game, "opening_hand", 5))
    if hand != want:
        out.add("MAN-SETUP-DRAW", f"{seat_name(ctx, seat)} has {hand} cards in their opening "
                f"hand; with {n} players it is {want}.", [f"p{seat}.hand"])


def at_start_of_play(ctx: OpContext, f: Facts, out: Out) -> None:
    view, game = ctx.view, ctx.game
    board = f.board()
    if board is None:
        return
    want_tiles = param(game, "tiles", 4)
    if len(board.tiles) != want_tiles:
        out.add("MAN-SETUP-TILE-COUNT", f"The arena has {len(board.tiles)} Rym tiles: it is "
                f"always {want_tiles}.", ["arena"])
    slots = [t[0] for t in board.tiles]
    if len(set(slots)) != len(slots) or len(set(slots)) != want_tiles:
        out.add("MAN-SETUP-TILE-SHAPE", "The Rym tiles do not fill the 2x2 square: one tile in "
                "each quarter of the arena, without gaps.", ["arena"])
    kinds = list(board.kinds.values())
    rifts = kinds.count("rift")
    count = len(kinds) - rifts + rifts // 2
    want = param(game, "hazards_at_setup", 5)
    if count != want:
        out.add("MAN-SETUP-HAZARD-COUNT", f"{count} Hazards are on the arena (a Rift pair counts "
                f"as one): setup places {want}.", ["arena"])
    if rifts % 2:
        out.add("MAN-SETUP-RIFT-PAIRS", f"{rifts} Rift tokens: Rifts are always placed in pairs.")
    supply = game.param("hazard_supply", {}) or {}
    for kind, most in supply.items():
        if kinds.count(kind) > int(most):
            out.add("MAN-SETUP-HAZARD-SUPPLY", f"{kinds.count(kind)} {kind} tokens: the game has "
                    f"{most}.")
    seen: dict[tuple[int, int], str] = {}
    for token, hcell in board.hazards.items():
        if hcell in board.obstructions or hcell in seen:
            out.add("MAN-SETUP-HAZARD-SPACE", f"{token} at {hcell} is on an Obstruction or "
                    f"another Hazard.", [token])
        seen[hcell] = token
    tiles: dict[int, int] = {}
    for seat in sorted(view.seats):
        cell = board.standees.get(seat)
        standee = f"p{seat}.standee"
        if cell is None:
            out.add("MAN-SETUP-CHOSEN-SPACE", f"{seat_name(ctx, seat)}'s Chosen is not on the "
                    f"arena.", [standee])
            continue
        shared = [s for s, c in board.standees.items() if c == cell and s != seat]
        if cell in board.obstacles or (shared and seat > shared[0]):
            out.add("MAN-SETUP-CHOSEN-SPACE", f"{seat_name(ctx, seat)}'s Chosen starts at {cell}, "
                    f"an Obstruction, a Breach or an occupied space.", [standee])
        tile = board.tile_of(cell)
        if tile in tiles:
            out.add("MAN-SETUP-ONE-PER-TILE", f"{seat_name(ctx, seat)} and "
                    f"{seat_name(ctx, tiles[tile])} start on the same Rym tile.", [standee])
        tiles.setdefault(tile, seat)
    records = f.h.records
    first = next((records[i].op.args.get("seat") for i in range(ctx.index)
                  if what(records[i]) == "turn"), None)
    active = f.active
    if first is not None and active is not None and active != first:
        out.add("MAN-SETUP-START-PLAYER", f"{seat_name(ctx, active)} starts, but the Current "
                f"Player Token is with {seat_name(ctx, first)}.")
    _overhauls(ctx, f, out)


def _overhauls(ctx: OpContext, f: Facts, out: Out) -> None:
    """Between the setup-complete marker and the start of play: whole hands, one card fewer."""
    records = f.h.records
    start = next((i for i in f.h.mark_indices() if i < ctx.index and what(records[i]) == "setup"
                  and records[i].op.args.get("value") == "complete"), None)
    if start is None:
        return
    for seat in sorted(ctx.view.seats):
        hand = f"p{seat}.hand"
        events: list[tuple[str, int]] = []
        for i in range(start, ctx.index):
            rec = records[i]
            n = drawn(rec, seat)
            if n:
                events.append(("draw", n))
            m = moved(rec)
            if m is not None and m[1] == hand:
                events.append(("out", 1))
        if not events:
            continue
        size = ctx.view.count(hand) - sum(n for k, n in events if k == "draw") + \
            sum(n for k, n in events if k == "out")
        previous = size
        drawing: int | None = None
        bad = False
        for kind, n in events:
            if kind == "out":
                if drawing is not None:  # a new Overhaul: the previous one is complete
                    if drawing != previous - 1:
                        bad = True
                        break
                    previous, drawing = drawing, None
                size -= n
            else:
                if size != 0 and drawing is None:
                    bad = True
                    break
                drawing = (drawing or 0) + n
                size += n
        if not bad and (drawing is None or drawing == previous - 1):
            continue
        out.add("MAN-SETUP-OVERHAUL", f"{seat_name(ctx, seat)}'s Overhaul: discard the whole hand "
                f"and draw one card fewer than the previous hand ({previous - 1}).", [hand])
