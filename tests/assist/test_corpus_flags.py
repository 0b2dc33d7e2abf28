"""The rules assist over a small legal corpus (the 1,000-session figures come from
scripts/corpus_flags.py, the same code): where every seat plays by its rulebook, Defense Pool
commits and their reveals, Rites, battles and Last Stands included, no rule flags anything;
with slips planted, each rule flags exactly what was planted (GAU-LASTSTAND-BONUS too)."""
from __future__ import annotations

from dataclasses import replace

from table.bench.corpus_flags import check
from table.bench.legal_corpus import Plan

COUNT = 15  # five sessions of each game
# every slip planted as often as it can be, so that each rule is there in a small corpus
OFTEN = replace(Plan(), slip_rate=0.6, income_slip_rate=0.6, dusk_slip_rate=0.6,
                play_slip_rate=0.8, rite_slip_rate=0.4, last_stand_slip_rate=0.8,
                unfinished_rate=0.3)


def test_the_legal_corpus_raises_no_flag_and_the_planted_one_only_its_slips() -> None:
    legal = check(COUNT, legal=True, seed=3, plan=OFTEN)
    assert legal.sessions == COUNT and not legal.disabled
    assert not legal.flags, legal.mismatched
    assert min(legal.play[k] for k in ("defense_pool_commits", "rites_placed", "battles",
                                       "last_stands")) > 0, legal.play  # all of it judged
    planted = check(COUNT, legal=False, seed=3, plan=OFTEN)
    assert not planted.mismatched and not planted.disabled, planted.mismatched
    assert planted.flags == planted.planted
    assert {"GAU-LASTSTAND-BONUS", "DTR-PLAY-COST", "DTR-RITE-COST", "DTR-DAWN-INCOME",
            "DTR-DAMAGE-CLEAR-DUSK", "GAU-HAND-LIMIT", "MAN-HAND-LIMIT",
            "MAN-INCOME"} <= set(planted.planted), planted.planted
