"""The randomness audit: did every joint roll, shuffle and draw follow the jointly drawn seeds?

Over a log holding the end-of-game publication (a merged log, or any peer's log once every peer
has published), it replays the ops in canonical order and checks, at each op's place:

* a joint roll: its shares match their commitments and its faces derive from them;
* a joint shuffle: the owner's shares match the round's commitments, its pre-shuffle order is
  the identities of the cards the op consumed, and each fresh handle commits to the card the
  seed puts at its position;
* a draw from a hidden pile took the pile's top cards, and a re-handle of a hidden pile kept
  its order (so a deck cannot be restacked between shuffles), an undo putting a card back
  into one included;
* each published deck order is the pile's order at the end.

Rolls and shuffles made with one peer's randomness (hot-seat, a lone peer, older logs, a
"joint" record of its author alone) are counted as local; a joint one that names peers left
out (a participant that left, or did not reveal in time) is *degraded*, said as such ("joint
except seat 3, who left") and never counted as verified joint. Every draw the log's peer
flagged (``table.core.private_draws``: drawn without a player the author could reach, or with
a commitment forged in another's name) fails, named.
`sandtable check --audit` prints the result; the report marks sessions with `audit_summary`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import commit, fair
from .objects import PUBLIC, Obj
from .ops import Op
from .replica import Replica
from .state import State
from .timeline import Timeline
from .undo_crossing import rehidden_pile


@dataclass(frozen=True)
class Finding:
    number: int  # 1-based op number, as `sandtable log show` numbers ops (0: not an op)
    author: str
    seat: int | None
    message: str

    def line(self) -> str:
        seat = f", seat {self.seat}" if self.seat is not None else ""
        where = f"op {self.number}" if self.number else "end of game"
        return f"{where} (author {self.author}{seat}): {self.message}"


@dataclass
class Audit:
    rolls: int = 0  # joint rolls verified
    shuffles: int = 0  # joint shuffles verified
    degraded: list[Finding] = field(default_factory=list)  # joint, but some peer left out
    draws: int = 0  # draws and pile re-handles whose order was checked
    local: int = 0  # rolls and shuffles from one peer's randomness, once play began
    setup_local: int = 0  # the same during the setup (each seat's peer deals its own cards)
    failures: list[Finding] = field(default_factory=list)
    unverifiable: list[Finding] = field(default_factory=list)

    @property
    def status(self) -> str:
        """`failed`, `unverifiable`, `local`, `degraded` (joint, but some draws left a peer
        out), `play audited` (every roll and shuffle of the play was joint with everyone and
        verified; some of the setup's were one peer's own: a hot-seat setup, a position start,
        a shared setup step), `audited` or `none` (no randomness)."""
        if self.failures:
            return "failed"
        if self.unverifiable:
            return "unverifiable"
        if self.local:
            return "local"
        if self.degraded:
            return "degraded"
        if not (self.rolls or self.shuffles):
            return "local" if self.setup_local else "none"
        return "play audited" if self.setup_local else "audited"

    def summary(self) -> str:
        text = (f"audit: {self.rolls} rolls, {self.shuffles} shuffles verified; "
                f"{self.local} local")
        if self.setup_local:
            text += f" (and {self.setup_local} local during the setup)"
        if self.degraded:
            text += f"; {len(self.degraded)} degraded (joint, a peer left out)"
        if self.draws:
            text += f"; {self.draws} draws and re-handles kept the order"
        if self.unverifiable:
            text += f"; {len(self.unverifiable)} could not be verified"
        if self.failures:
            text += f"; {len(self.failures)} FAILED"
        return text


def _is_hidden_pile(obj: Obj | None) -> bool:
    return obj is not None and obj.visibility != PUBLIC and (
        obj.kind == "pile" or obj.props.get("kind") == "pile")


class _Auditor:
    def __init__(self, replica: Replica) -> None:
        self.knowledge = replica.knowledge
        self.rounds: dict[str, Any] = replica.knowledge.fair.get("rounds") or {}
        self.result = Audit()
        self.flags = replica.flags  # private dice, as the peers that saw them arrive flagged
        # until the setup is complete, one peer's own randomness is the setup's (see Audit)
        self.in_setup = any(r.op.kind == "mark" and r.void is None
                            and r.op.args.get("what") == "setup"
                            and r.op.args.get("value") == "complete" for r in replica.records())

    def identity(self, state: State, handle: str) -> str | None:
        obj = state.objs.get(handle)
        if obj is not None and obj.card is not None:
            return obj.card
        secret = self.knowledge.cards.get(handle)
        if secret is None or obj is None or not obj.commitment:
            return None
        return secret[0] if commit.verify(handle, secret[0], secret[1], obj.commitment) else None

    def fail(self, number: int, op: Op, message: str) -> None:
        self.result.failures.append(Finding(number, op.author, op.seat, message))

    def unknown(self, number: int, op: Op, message: str) -> None:
        self.result.unverifiable.append(Finding(number, op.author, op.seat, message))

    # --- per op ----------------------------------------------------------------------------
    def _local(self, number: int, op: Op) -> None:
        flagged = self.flags.get(op.ref)
        if flagged is not None:  # drawn alone while another player was linked
            self.fail(number, op, flagged)
        elif self.in_setup:
            self.result.setup_local += 1
        else:
            self.result.local += 1

    def _joint(self, number: int, op: Op, state: State) -> bool:
        """A joint draw's standing before its shares are checked: False when it is settled
        here (flagged, or one peer's own), True to go on; a degraded one is noted."""
        flagged = self.flags.get(op.ref)
        if flagged is not None:  # a forged or one-sided "joint" draw, as its receiver saw it
            self.fail(number, op, flagged)
            return False
        record = op.args["fair"]
        out = fair.left_out(record)
        commits = record.get("commits") if isinstance(record, dict) else None
        if isinstance(commits, dict) and set(commits) - set(out) == {op.author} and not out:
            self._local(number, op)  # a "joint" record of its author alone
            return False
        if out:
            text = fair.degraded_text(record, lambda peer: sorted(state.seats_of(peer)))
            self.result.degraded.append(Finding(number, op.author, op.seat, text))
        return True

    def check(self, number: int, op: Op, state: State, void: bool = False,
              timeline: Timeline | None = None) -> None:
        if op.kind == "mark" and not void and op.args.get("what") == "setup" \
                and op.args.get("value") == "complete":
            self.in_setup = False
        if op.kind == "roll":
            if op.args.get("fair") is None:
                self._local(number, op)
                return
            if not self._joint(number, op, state):
                return
            problem = fair.roll_problem(op.args, op.author)
            if problem is None:
                if not fair.left_out(op.args["fair"]):  # a degraded one is counted apart
                    self.result.rolls += 1
            else:
                self.fail(number, op, f"joint roll {op.args['values']}: {problem}")
        elif op.kind == "consume" and not void:  # a void consume changed nothing
            if op.args.get("why") == "shuffle":
                if op.args.get("fair") is None:
                    self._local(number, op)
                elif self._joint(number, op, state):
                    self.shuffle(number, op, state)
            else:
                self.kept_order(number, op, state)
        elif op.kind in ("undo", "redo") and not void and op.args.get("out") \
                and timeline is not None:
            self.put_back(number, op, state, timeline)

    def put_back(self, number: int, op: Op, state: State, timeline: Timeline) -> None:
        """An undo that re-hides a card in a hidden pile puts it back where it was and keeps
        the pile's order (a hand's new order is its owner's business, as in any re-handle)."""
        if op.args.get("in") is not None:  # by the cards as they are now (table.core.undo_crossing)
            return self.crossed_back(number, op, state, timeline)
        target = timeline.record_of((str(op.args["target"][0]), int(op.args["target"][1])))
        back = None if target is None else next(
            ((e[1].id, e[2], e[3]) for e in target.journal.entries
             if e[0] == "rm" and _is_hidden_pile(state.objs.get(e[1].id))), None)
        if back is None:
            return
        pile, index, card = back
        kept = [self.identity(state, c) for c in state.cards_in(pile) if c != card]
        expected = [*kept[:index], self.identity(state, card), *kept[index:]]
        outs = [self.knowledge.cards.get(h) for h, _ in op.args["out"]]
        if None in expected or not all(o is not None and commit.verify(h, o[0], o[1], d)
                                       for o, (h, d) in zip(outs, op.args["out"], strict=True)):
            return  # secrets this log never learned: nothing to check
        if [o[0] for o in outs if o is not None] != expected:
            return self.fail(number, op, f"an undo re-hiding a card in {pile} changed the "
                                         f"order of its cards")
        self.result.draws += 1

    def crossed_back(self, number: int, op: Op, state: State, timeline: Timeline) -> None:
        """The undo of a draw (of a card taken from a deck) puts the cards back at their places;
        a redo puts them in again as one block; the rest of the pile keeps its order."""
        found = rehidden_pile(state, op, timeline.lookup, lambda h: self.identity(state, h))
        if found is None:
            return
        pile, kept, new, expected = found
        outs = [self.knowledge.cards.get(h) for h, _ in op.args["out"]]
        if None in kept or None in new or not all(
                o is not None and commit.verify(h, o[0], o[1], d)
                for o, (h, d) in zip(outs, op.args["out"], strict=True)):
            return  # secrets this log never learned: nothing to check
        names = [o[0] for o in outs if o is not None]
        if (names != expected) if expected is not None else not _block_inserted(
                names, [k for k in kept if k], [n for n in new if n]):
            return self.fail(number, op, f"an {op.kind} re-hiding cards in {pile} changed the "
                                         f"order of its cards")
        self.result.draws += 1

    def shuffle(self, number: int, op: Op, state: State) -> None:
        record = op.args["fair"]
        wrong = fair.check_round(record, with_shares=False)
        if wrong is not None:
            return self.fail(number, op, f"joint shuffle: {wrong}")
        rid, commits = record["round"], record["commits"]
        owned = self.rounds.get(rid)
        if owned is None or "order" not in owned:
            return self.unknown(number, op, f"joint shuffle {rid}: the owner's record (shares "
                                            f"and order) was never published")
        used = sorted(commits.keys() - set(record.get("missing", [])))
        lacking = [p for p in used if p not in owned["shares"]]
        if lacking:
            return self.fail(number, op, f"joint shuffle {rid}: no share of peer(s) "
                                         f"{', '.join(lacking)} in the owner's record")
        shares = {p: owned["shares"][p] for p in used}
        wrong = fair.shares_problem(rid, commits, shares)
        if wrong is not None:
            return self.fail(number, op, f"joint shuffle {rid}: {wrong}")
        order, inputs = owned["order"], op.args["in"]
        if len(order) != len(inputs) or len(op.args["out"]) != len(inputs):
            return self.fail(number, op, f"joint shuffle {rid}: {len(inputs)} cards in, "
                                         f"{len(op.args['out'])} out, {len(order)} in the order")
        for index, handle in enumerate(inputs):
            card = self.identity(state, handle)
            if card is None:
                return self.unknown(number, op, f"joint shuffle {rid}: card {handle} was never "
                                                f"published")
            if card != order[index]:
                return self.fail(number, op, f"joint shuffle {rid}: the owner's pre-shuffle "
                                             f"order says {order[index]} where {handle} was "
                                             f"{card}")
        expected = fair.permuted(fair.seed(rid, shares), order)
        for position, (handle, digest) in enumerate(op.args["out"]):
            secret = self.knowledge.cards.get(handle)
            if secret is None:
                return self.unknown(number, op, f"joint shuffle {rid}: card {handle} was never "
                                                f"published")
            if not commit.verify(handle, expected[position], secret[1], digest):
                got = secret[0] if commit.verify(handle, secret[0], secret[1], digest) else "?"
                return self.fail(number, op, f"joint shuffle {rid}: position {position} holds "
                                             f"{got}, the joint seed puts {expected[position]} "
                                             f"there")
        if not fair.left_out(record):  # a degraded one is counted apart
            self.result.shuffles += 1

    def kept_order(self, number: int, op: Op, state: State) -> None:
        """A draw takes a hidden pile's top cards; a re-handle of a hidden pile keeps its order
        (newcomers go in as one block)."""
        a = op.args
        dest = state.objs.get(a["to"])
        by_source: dict[str, list[str]] = {}
        for handle in a["in"]:
            obj = state.objs.get(handle)
            if obj is not None and obj.container is not None:
                by_source.setdefault(obj.container, []).append(handle)
        checked = False
        if a.get("why") == "draw":
            for source_id, taken in by_source.items():
                source = state.objs.get(source_id)
                if source_id == a["to"] or not _is_hidden_pile(source):
                    continue
                assert source is not None
                cards = state.cards_in(source)
                if sorted(taken) != sorted(cards[len(cards) - len(taken):]):
                    return self.fail(number, op, f"a draw from {source_id} took cards that "
                                                 f"were not on top")
                checked = True
        if _is_hidden_pile(dest) and by_source.get(a["to"]):
            assert dest is not None
            kept = [c for c in dest.children if c in set(by_source[a["to"]])]
            newcomers = [h for h in a["in"] if h not in set(kept)]
            names = [self.identity(state, h) for h in kept + newcomers]
            outs = [self.knowledge.cards.get(h) for h, _ in a["out"]]
            if all(names) and all(o is not None and commit.verify(h, o[0], o[1], d)
                                  for o, (h, d) in zip(outs, a["out"], strict=True)):
                out_names = [o[0] for o in outs if o is not None]
                if not _block_inserted(out_names, [n for n in names[:len(kept)] if n],
                                       [n for n in names[len(kept):] if n]):
                    return self.fail(number, op, f"a re-handle of {a['to']} changed the order "
                                                 f"of its cards")
                checked = True
        if checked:
            self.result.draws += 1

    def published_piles(self, state: State, replica: Replica) -> None:
        for pile_id, cards in (self.knowledge.fair.get("piles") or {}).items():
            pile = state.objs.get(pile_id)
            if pile is None:
                continue
            now = [self.identity(state, c) for c in pile.children
                   if state.objs[c].kind == "card"]
            if None in now:
                continue  # cards this log never learned: the shuffles' checks say so
            if now != cards:
                holder = state.seats.get(pile.owner) if pile.owner is not None else None
                self.result.failures.append(Finding(
                    0, holder.peer or "?" if holder else "?", pile.owner,
                    f"the published order of {pile_id} is not the pile's order at the end"))


def _block_inserted(out: list[str], kept: list[str], new: list[str]) -> bool:
    """`out` is `kept` with the `new` cards (any order) inserted as one block somewhere."""
    if len(out) != len(kept) + len(new):
        return False
    for i in range(len(kept) + 1):
        if out[:i] == kept[:i] and out[i + len(new):] == kept[i:] and \
                sorted(out[i:i + len(new)]) == sorted(new):
            return True
    return False


def audit_replica(replica: Replica) -> Audit:
    """Audit every op of a replica (read from a log, with whatever secrets it holds)."""
    auditor = _Auditor(replica)
    timeline = Timeline()
    for number, record in enumerate(replica.records(), start=1):
        auditor.check(number, record.op, timeline.state, record.void is not None, timeline)
        timeline.insert(record.op)
    auditor.published_piles(timeline.state, replica)
    return auditor.result


def audit_log(path: str | Path) -> Audit:
    return audit_replica(Replica.from_log(path))


def audit_summary(log: str | Path | Replica) -> str:
    """How far a session's randomness can be trusted, for the report: "audited" (every roll
    and shuffle was joint and verified, a LAN table's setup shuffles included), "play audited"
    (so were all those of the play; some of the setup's were one peer's own), "local" (some of
    the play's were one peer's own randomness),
    "unverifiable" (joint, but the secrets to check them were never published), "failed"
    (the audit caught a roll, shuffle or draw that did not follow its seed), "none"."""
    replica = log if isinstance(log, Replica) else Replica.from_log(log)
    ops = [record.op for record in replica.records()]
    if not replica.flags and not any(op.kind in ("roll", "consume")
                                     and op.args.get("fair") is not None for op in ops):
        # nothing joint (hot-seat, older logs): no need to replay the log
        local = any(op.kind == "roll" or (op.kind == "consume" and op.args.get("why") == "shuffle")
                    for op in ops)
        return "local" if local else "none"
    return audit_replica(replica).status
