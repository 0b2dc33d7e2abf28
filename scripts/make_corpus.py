"""Write a corpus of legal playtest sessions with planted effects (see table/bench/legal_corpus.py).

    python scripts/make_corpus.py FOLDER [--count 1000] [--seed 1] [--plain]

By default it plants the designer's questions too (table.bench.corpus_plan.DESIGNER: two drafts
of Gauntlet, Military stronger in the first only; three playtest groups, the loaded die at one
group's tables; Dawn slips at 5% per Dawn; dead cards); `--plain` leaves them out. Then
`sandtable report FOLDER --out report.html --by group`. The last line is JSON (what was planted).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from dataclasses import asdict

from table.bench.corpus_plan import DESIGNER
from table.bench.legal_corpus import Plan, generate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="make_corpus.py")
    parser.add_argument("folder")
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plain", action="store_true",
                        help="leave out the designer's questions (one draft, no groups)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    plan = Plan() if args.plain else DESIGNER
    truths = generate(args.folder, args.count, seed=args.seed, plan=plan)
    print(f"wrote {len(truths)} sessions to {args.folder} in {time.perf_counter() - start:.1f} s")
    print(json.dumps({"sessions": len(truths), "games": Counter(t.game for t in truths),
                      "slipped": sum(t.slipped for t in truths),
                      "unfinished": sum(t.how == "unfinished" for t in truths),
                      "drafts": Counter(t.draft for t in truths if t.draft),
                      "groups": Counter(t.group for t in truths if t.group),
                      "occasions": sum((Counter(t.occasions) for t in truths), Counter()),
                      "planted": sum((Counter(t.planted) for t in truths), Counter()),
                      "plan": asdict(plan)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
