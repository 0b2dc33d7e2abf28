"""Records too big for one message are split within the limits the receiver decodes with,
and merge back into the same record (netplay.splitting)."""
from __future__ import annotations

from netplay.splitting import PUBLICATION_MAPS, RECORD_MAPS, split_maps
from netplay.wire import DEFAULT_LIMITS, WireLimits, pack, unpack
from table.core.fair import absorb_secrets
from table.core.knowledge import Knowledge


def _publication(cards: int, rounds: int) -> dict:
    return {"cards": {f"h{i:05d}": [f"card-{i % 60}", f"{i:032x}"] for i in range(cards)},
            "fair": {"rounds": {f"r{i}": {"pile": "p1.deck", "shares": {"a": "ab" * 16},
                                          "order": [f"card-{j}" for j in range(60)]}
                                for i in range(rounds)},
                     "piles": {"p1.deck": [f"card-{j}" for j in range(60)]}},
            "by": "a" * 16}


def test_a_long_games_publication_is_split_within_the_limits_and_merges_back():
    body = _publication(cards=1770, rounds=41)  # the size a 40-shuffle session reaches
    parts = split_maps(body, PUBLICATION_MAPS)
    assert len(parts) > 1
    merged = Knowledge()
    for part in parts:
        raw = pack({"t": "fair_pub", "body": part})
        assert len(raw) <= DEFAULT_LIMITS.max_frame // 4
        decoded = unpack(raw, DEFAULT_LIMITS)  # the receiver's own limits: no ValueError
        merged.absorb({"cards": decoded["body"]["cards"], "fair": decoded["body"]["fair"]})
        assert decoded["body"]["by"] == body["by"]
    assert {h: list(v) for h, v in merged.cards.items()} == body["cards"]
    fair: dict = {}
    absorb_secrets(fair, body["fair"])
    assert merged.fair == fair


def test_bytes_split_too_and_a_small_record_goes_whole():
    small = _publication(cards=10, rounds=2)
    assert split_maps(small, PUBLICATION_MAPS) == [small]
    tight = WireLimits(max_frame=64 * 1024)
    parts = split_maps(_publication(cards=900, rounds=200), RECORD_MAPS, tight)
    assert all(len(pack(p)) <= tight.max_frame // 4 for p in parts)
    assert sum(len(p["fair"]["rounds"]) for p in parts) == 200
    assert sum(len(p["cards"]) for p in parts) == 900
