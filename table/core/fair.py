"""Jointly drawn randomness: commitments to shares, the seed of all shares, dice and shuffles.

Every peer of a table commits to a random 32-byte share, then reveals it; the seed is the hash
of every share, so no single peer chooses a die face or a deck order. Everything here is pure
and byte-exact (SHA-256 over length-prefixed fields, no `random`), so any implementation in any
language derives the same faces and permutations; docs/protocol.md ("Fair randomness") states
the derivation and docs/fairness-vectors.json holds test vectors.
"""
from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

T = TypeVar("T")

SHARE_BYTES = 32
MAX_ID = 64  # round ids and peer ids are short strings
_COMMIT = b"sandtable/fair/v1/commit"
_SEED = b"sandtable/fair/v1/seed"
_STREAM = b"sandtable/fair/v1/stream"
_HEX = re.compile("[0-9a-f]*")


def _lp(raw: bytes) -> bytes:
    """A field prefixed with its 4-byte big-endian length, so no two inputs hash alike."""
    return len(raw).to_bytes(4, "big") + raw


def new_share() -> str:
    """A fresh share from the system's cryptographic source (64 hex digits)."""
    return secrets.token_hex(SHARE_BYTES)


def is_hex(text: Any, length: int = 2 * SHARE_BYTES) -> bool:
    """Lowercase hex of the given length (shares and commitments are 64 digits)."""
    return isinstance(text, str) and len(text) == length and _HEX.fullmatch(text) is not None


def share_commit(round_id: str, peer: str, share: str) -> str:
    """The commitment a peer publishes before it reveals its share (bound to round and peer,
    so a commitment cannot be copied into another round or claimed by another peer)."""
    return hashlib.sha256(_lp(_COMMIT) + _lp(round_id.encode()) + _lp(peer.encode())
                          + _lp(bytes.fromhex(share))).hexdigest()


def share_matches(round_id: str, peer: str, share: Any, digest: Any) -> bool:
    if not is_hex(share) or not is_hex(digest):
        return False
    return hmac.compare_digest(share_commit(round_id, peer, share), digest)


def seed(round_id: str, shares: dict[str, str]) -> bytes:
    """The joint seed: every (peer, share) in peer id order, with the round id and count."""
    h = hashlib.sha256(_lp(_SEED) + _lp(round_id.encode()) + len(shares).to_bytes(4, "big"))
    for peer in sorted(shares):
        h.update(_lp(peer.encode()) + _lp(bytes.fromhex(shares[peer])))
    return h.digest()


class Stream:
    """A deterministic byte stream from a seed: SHA-256 blocks over a counter, per label."""

    def __init__(self, seed_bytes: bytes, label: str) -> None:
        self._prefix = _lp(_STREAM) + _lp(seed_bytes) + _lp(label.encode())
        self._counter = 0
        self._buffer = b""

    def take(self, n: int) -> bytes:
        while len(self._buffer) < n:
            block = hashlib.sha256(self._prefix + self._counter.to_bytes(8, "big")).digest()
            self._buffer += block
            self._counter += 1
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out

    def below(self, n: int) -> int:
        """An unbiased integer in [0, n) for 1 <= n <= 2**32 (rejection sampling on u32s)."""
        if not 1 <= n <= 1 << 32:
            raise ValueError(f"cannot draw below {n}")
        limit = (1 << 32) - ((1 << 32) % n)
        while True:
            x = int.from_bytes(self.take(4), "big")
            if x < limit:
                return x % n


def dice(seed_bytes: bytes, sides: int, count: int) -> list[int]:
    """`count` faces of a `sides`-sided die, each 1..sides."""
    stream = Stream(seed_bytes, "dice")
    return [1 + stream.below(sides) for _ in range(count)]


def permutation(seed_bytes: bytes, n: int) -> list[int]:
    """Fisher-Yates from the top down: position k of the result holds item number perm[k]."""
    stream = Stream(seed_bytes, "shuffle")
    perm = list(range(n))
    for i in range(n - 1, 0, -1):
        j = stream.below(i + 1)
        perm[i], perm[j] = perm[j], perm[i]
    return perm


def permuted(seed_bytes: bytes, items: list[T]) -> list[T]:
    return [items[k] for k in permutation(seed_bytes, len(items))]


@dataclass(frozen=True)
class JointDraw:
    """The outcome of one commit-reveal round: who committed, whose shares are used, who
    committed but did not reveal (or revealed a share that does not match; their share is left
    out, so they are named rather than able to stall the table), who was asked but never
    committed (``absent``), and which of those two kinds left the table during the round
    (``left``). A draw with anyone missing or absent is *degraded*: joint, but not with every
    peer that was there when it began (:func:`left_out`)."""

    round: str
    commits: dict[str, str]
    shares: dict[str, str]
    missing: list[str] = field(default_factory=list)
    absent: list[str] = field(default_factory=list)
    left: list[str] = field(default_factory=list)

    def seed(self) -> bytes:
        return seed(self.round, self.shares)

    def _out(self) -> dict[str, Any]:
        """The record's account of who is left out (only what there is to say)."""
        out: dict[str, Any] = {"missing": sorted(self.missing)}
        if self.absent:
            out["absent"] = sorted(self.absent)
        if self.left:
            out["left"] = sorted(self.left)
        return out

    def roll_record(self) -> dict[str, Any]:
        """What a fair roll op carries: everything needed to check it."""
        return {"round": self.round, "commits": dict(self.commits), "shares": dict(self.shares),
                **self._out()}

    def shuffle_record(self) -> dict[str, Any]:
        """What a fair shuffle op carries publicly: the shares stay with the pile's owner."""
        return {"round": self.round, "commits": dict(self.commits), **self._out()}


def left_out(record: Any) -> dict[str, str]:
    """Who a joint draw's record says was left out, and why: ``left`` (left the table during
    the round), ``late`` (committed, no valid share in time) or ``absent`` (asked, never
    committed). Empty: every peer asked took part. A malformed record gives {}."""
    if not isinstance(record, dict):
        return {}
    left = {p for p in record.get("left") or [] if isinstance(p, str)}
    out: dict[str, str] = {}
    for key, why in (("missing", "late"), ("absent", "absent")):
        for peer in record.get(key) or []:
            if isinstance(peer, str):
                out[peer] = "left" if peer in left else why
    return out


WHY_OUT = {"left": "who left", "late": "who did not reveal in time",
           "absent": "who did not commit in time"}


def degraded_text(record: Any, seats_of: Callable[[str], list[int]]) -> str:
    """How a degraded joint draw reads ("joint except seat 3, who left"; "joint except seats 1
    and 2, who did not commit in time"); empty when nobody was left out. ``seats_of`` gives a
    peer's seats (none: it is named by its peer id)."""
    by_why: dict[str, list[int]] = {}
    named: dict[str, list[str]] = {}
    for peer, why in left_out(record).items():
        seats = seats_of(peer)
        if seats:
            by_why.setdefault(why, []).extend(seats)
        else:
            named.setdefault(why, []).append(f"peer {peer}")
    parts = []
    for why in WHY_OUT:
        seats = sorted(set(by_why.get(why, [])))
        who = ([f"seat {seats[0]}"] if len(seats) == 1 else
               [f"seats {', '.join(map(str, seats[:-1]))} and {seats[-1]}"] if seats else [])
        who += sorted(named.get(why, []))
        if who:
            parts.append(f"{', '.join(who)}, {WHY_OUT[why]}")
    return "joint except " + "; and ".join(parts) if parts else ""


def check_round(record: Any, *, with_shares: bool) -> str | None:
    """The shape of a `fair` argument; returns what is wrong, or None."""
    if not isinstance(record, dict):
        return "its 'fair' record is not a map"
    rid, commits, missing = record.get("round"), record.get("commits"), record.get("missing", [])
    if not isinstance(rid, str) or not 1 <= len(rid) <= MAX_ID:
        return "its round id is not a short string"
    if not isinstance(commits, dict) or not commits or not all(
            isinstance(p, str) and len(p) <= MAX_ID and is_hex(c) for p, c in commits.items()):
        return "its commitments are not a map of peer ids to 64 hex digits"
    if not isinstance(missing, list) or not all(isinstance(p, str) for p in missing):
        return "its list of missing peers is malformed"
    if not set(missing) <= commits.keys():
        return "it names a missing peer that never committed"
    absent, left = record.get("absent", []), record.get("left", [])
    if not isinstance(absent, list) or not all(isinstance(p, str) for p in absent) \
            or set(absent) & commits.keys():
        return "its list of absent peers is malformed (or names one that committed)"
    if not isinstance(left, list) or not all(isinstance(p, str) for p in left) \
            or not set(left) <= set(missing) | set(absent):
        return "its list of peers that left names one neither missing nor absent"
    if with_shares:
        shares = record.get("shares")
        if not isinstance(shares, dict) or not all(isinstance(p, str) for p in shares):
            return "its shares are not a map of peer ids to shares"
        if set(shares) != commits.keys() - set(missing):
            return "its shares are not exactly those of the peers that committed and revealed"
    return None


def shares_problem(rid: str, commits: dict[str, str], shares: dict[str, str]) -> str | None:
    for peer in sorted(shares):
        if not share_matches(rid, peer, shares[peer], commits.get(peer)):
            return f"peer {peer}'s share does not match its commitment"
    return None


def roll_problem(args: dict[str, Any], author: str) -> str | None:
    """Why a roll op's `fair` record does not check out (None when it does): the shares must
    match the commitments, the author's own share must be among them, and the values must be
    the faces the seed of the shares derives."""
    record = args.get("fair")
    wrong = check_round(record, with_shares=True)
    if wrong is not None:
        return wrong
    assert isinstance(record, dict)
    if author not in record["shares"]:
        return "its author's own share is not among the shares"
    wrong = shares_problem(record["round"], record["commits"], record["shares"])
    if wrong is not None:
        return wrong
    values, sides = args["values"], args["sides"]
    if not 2 <= sides <= 1 << 32:
        return f"a joint roll needs 2 to 2**32 sides, not {sides}"
    expected = dice(seed(record["round"], record["shares"]), sides, len(values))
    if list(values) != expected:
        return f"its values {list(values)} are not the faces its shares give {expected}"
    return None


def absorb_secrets(store: dict[str, Any], record: Any) -> None:
    """Merge a `fair` secrets record into `store` (a Knowledge's): {"rounds": {round id:
    {"pile", "shares": {peer: share}, "order": [card ids]}}, "piles": {pile id: [card ids]}}.
    Malformed parts are ignored (the audit names what it then cannot check); the first share
    heard for a (round, peer) is kept, and the audit checks it against the commitment."""
    if not isinstance(record, dict):
        return
    rounds = store.setdefault("rounds", {})
    for rid, entry in (record.get("rounds") or {}).items():
        if not isinstance(rid, str) or not isinstance(entry, dict):
            continue
        kept = rounds.setdefault(rid, {"shares": {}})
        for peer, share in (entry.get("shares") or {}).items():
            if isinstance(peer, str) and is_hex(share):
                kept["shares"].setdefault(peer, share)
        order = entry.get("order")
        if "order" not in kept and isinstance(order, list) and all(
                isinstance(c, str) for c in order):
            kept["order"] = list(order)
        if "pile" not in kept and isinstance(entry.get("pile"), str):
            kept["pile"] = entry["pile"]
    piles = store.setdefault("piles", {})
    for pile, cards in (record.get("piles") or {}).items():
        if isinstance(pile, str) and isinstance(cards, list) and all(
                isinstance(c, str) for c in cards):
            piles[pile] = list(cards)
