"""`sandtable dataset LOGS_OR_FOLDERS... --out DIR`: the sessions as Parquet tables."""
from __future__ import annotations

import argparse
import sys
from typing import Any

from .data_tools import check_data_tools


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "dataset", help="write the sessions as a Parquet dataset (DuckDB, Polars, notebooks)",
        description="Read logs (files or folders, searched recursively) into Parquet tables "
                    "under DIR: sessions, seats, ops, flags, cards, draws, notes "
                    "(docs/dataset.md). Run it again over the same folders and it reads only "
                    "new or changed logs.")
    p.add_argument("inputs", nargs="*", metavar="LOG_OR_FOLDER",
                   help="logs, or folders searched recursively for .sandlog files")
    p.add_argument("--out", required=True, metavar="DIR", help="the dataset's folder")
    p.add_argument("--jobs", type=int, help="processes reading logs (default: every core)")
    p.add_argument("--shard", metavar="I/N",
                   help="take only the I-th of N slices of the tables (1-based), so N machines "
                        "or jobs can each write their part into one folder")
    p.add_argument("--cluster", metavar="ADDRESS",
                   help="read the logs on a Dask cluster (tcp://HOST:PORT): one shard per "
                        "worker, every part written into DIR (a folder the workers share)")
    p.add_argument("--no-flags", action="store_true", help="skip the rules assist (no flags)")
    p.add_argument("--dismiss", action="append", default=[], metavar="RULE[@SESSION#OP]",
                   help="a rule (or one flag) dismissed as a false alarm, written to the "
                        "dismissals table beside those of the dismissals.toml files found "
                        "(repeatable)")
    p.add_argument("--notebook", action="store_true",
                   help="also write DIR/explore.ipynb: the example queries and charts")
    p.add_argument("--quiet", action="store_true", help="no progress line")
    p.set_defaults(handler=cmd_dataset)


def parse_shard(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    try:
        i, n = (int(x) for x in text.split("/"))
    except ValueError:
        raise ValueError(f"--shard {text!r}: expected I/N, such as 1/3") from None
    if not 1 <= i <= n:
        raise ValueError(f"--shard {text!r}: I must be between 1 and N")
    return i, n


def _shard_job(job: tuple[list[str], str, int, int, bool]) -> list[str]:
    from table.dataset.build import build_dataset

    inputs, out, i, n, assist = job
    return build_dataset(inputs, out, jobs=1, shard=(i, n), assist=assist).lines()


def build_on(inputs: list[Any], out: Any, cluster: str | None, *, assist: bool = True
             ) -> list[str]:
    """The dataset of `inputs` in `out`: here, or on a Dask cluster as one shard per worker
    (each shard writes its own parts into the shared folder, so together they are the
    dataset)."""
    from pathlib import Path

    folders = [str(Path(i).resolve()) for i in inputs]
    target = str(Path(out).resolve())
    if cluster is None:
        from table.dataset.build import build_dataset

        return build_dataset(folders, target, assist=assist).lines()
    from table.bots.cluster import run, workers

    n = workers(cluster)
    lines: list[str] = []
    for part in run(cluster, _shard_job, [(folders, target, i, n, assist)
                                          for i in range(1, n + 1)]):
        lines += part
    return lines


def cmd_dataset(args: argparse.Namespace) -> int:
    from pathlib import Path

    try:
        shard = parse_shard(args.shard)
    except ValueError as err:
        print(f"sandtable: {err}", file=sys.stderr)
        return 2
    if not args.inputs and not args.notebook:
        print("sandtable: dataset needs at least one log or folder", file=sys.stderr)
        return 2
    if not check_data_tools("dataset"):
        return 2
    from table.dataset.sources import empty_inputs

    empty = empty_inputs(args.inputs)
    if empty:  # a mistyped folder must not empty the dataset of its sessions
        for path, why in empty:
            print(f"sandtable: {path}: {why}; the dataset at {args.out} is left as it is",
                  file=sys.stderr)
        return 1
    if args.inputs and args.cluster:
        from table.bots.cluster import ClusterError

        try:
            for line in build_on(args.inputs, args.out, args.cluster, assist=not args.no_flags):
                print(line)
        except ClusterError as err:
            print(f"sandtable: {err}", file=sys.stderr)
            return 2
    elif args.inputs:
        from table.dataset.build import build_dataset

        def progress(done: int, total: int) -> None:
            sys.stderr.write(f"\rreading sessions {done}/{total}")
            if done == total:
                sys.stderr.write("\n")
            sys.stderr.flush()

        from table.dataset.dismissals import DismissalError

        show = not args.quiet and sys.stderr.isatty()
        try:
            outcome = build_dataset(args.inputs, args.out, jobs=args.jobs, shard=shard,
                                    assist=not args.no_flags,
                                    progress=progress if show else None,
                                    dismiss=args.dismiss)
        except DismissalError as err:
            print(f"sandtable: {err}", file=sys.stderr)
            return 1
        for line in outcome.lines():
            print(line, file=sys.stderr if line.startswith("skipped ") else sys.stdout)
        for session in outcome.damaged:
            print(f"damaged session {session}: read as far as it goes (sessions.damage says "
                  f"what was lost)", file=sys.stderr)
    if args.notebook:
        from table.dataset.notebook import write_notebook

        print(f"wrote {write_notebook(Path(args.out))}")
    return 0
