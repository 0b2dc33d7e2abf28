"""The rules assist over the legal corpus (table/bench/corpus_flags.py): no flag where every seat
plays by its rulebook, exactly the planted slips where the corpus plants them.

    python scripts/corpus_flags.py [--count 1000] [--jobs N] [--seed 1]

Prints flags per rule in each corpus beside the slips planted; the last line is JSON. Exits 1
when a legal session is flagged or a planted corpus's flags differ from what it planted.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

from table.bench.corpus_flags import check, report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="corpus_flags.py")
    parser.add_argument("--count", type=int, default=1000, help="sessions in each corpus")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    legal = check(args.count, legal=True, seed=args.seed, jobs=args.jobs)
    planted = check(args.count, legal=False, seed=args.seed, jobs=args.jobs)
    result = report(legal, planted)
    result["seconds"] = round(time.perf_counter() - start, 1)
    print(json.dumps(result))
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
