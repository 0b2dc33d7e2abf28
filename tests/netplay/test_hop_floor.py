"""`sandtable bench net`'s hop figures: ours and the floor run (a few ops each, paced and
burst, and ours on qasync) and end in the ratios of its last JSON line. No time is asserted."""
from __future__ import annotations

import pytest

from table.bench.net_hop import hop_figures

pytestmark = pytest.mark.socket


def test_the_hop_figures_and_their_ratios_to_the_floor() -> None:
    figures = hop_figures(count=30, runs=1)
    for key in ("hop_us_paced", "hop_us_burst", "floor_hop_us_paced", "floor_hop_us_burst",
                "qasync_hop_us_paced", "hop_floor_ratio_paced", "hop_floor_ratio_burst",
                "qasync_hop_floor_ratio"):
        assert figures[key] > 0, key
    assert figures["hop_floor_ratio_paced"] == round(
        figures["hop_us_paced"] / figures["floor_hop_us_paced"], 2)


def test_bench_net_hop_runs_the_hop_figures_alone() -> None:
    from table.app.cli import build_parser
    from table.app.commands.bench import bench_net

    args = build_parser().parse_args(["bench", "net", "--hop"])
    assert args.hop and args.handler is bench_net
