"""Write a corpus of legal playtest sessions with planted effects (see table/bench/legal_corpus.py).

    python scripts/make_corpus.py FOLDER [--count 1000] [--seed 1]

Then `sandtable report FOLDER --out report.html`. The last line is JSON (what was planted).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from dataclasses import asdict

from table.bench.legal_corpus import Plan, generate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="make_corpus.py")
    parser.add_argument("folder")
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    plan = Plan()
    truths = generate(args.folder, args.count, seed=args.seed, plan=plan)
    print(f"wrote {len(truths)} sessions to {args.folder} in {time.perf_counter() - start:.1f} s")
    print(json.dumps({"sessions": len(truths), "games": Counter(t.game for t in truths),
                      "slipped": sum(t.slipped for t in truths),
                      "unfinished": sum(t.how == "unfinished" for t in truths),
                      "plan": asdict(plan)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
