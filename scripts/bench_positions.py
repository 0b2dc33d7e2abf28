"""Benchmark: starting a table from a position with ~200 named cards, and running the shipped
rule scenarios (`check --scenarios`). Prints figures; the last line is one JSON object.

    .venv/bin/python scripts/bench_positions.py
"""
from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from assist.scenarios import ScenarioRunner, scenario_files  # noqa: E402
from table.games import find_module  # noqa: E402
from table.games.position import read_position  # noqa: E402
from table.games.position_table import start_position  # noqa: E402


def big_position(folder: Path) -> tuple[Path, int]:
    """A Dead to Rites position naming every card of four decks (hand, deck order, Rites,
    a discard pile)."""
    module = find_module("dead-to-rites")
    names = sorted(module.starter_decks)[:4]
    lines = ['[position]', 'game = "dead-to-rites"', 'seats = 4', 'seed = 1', '',
             '[turn]', 'seat = 1', 'number = 7', 'phase = "Main"']
    zones, count = ["", "[zones]"], 0
    for seat, deck_name in enumerate(names, start=1):
        deck = module.starter_decks[deck_name]
        lines += ["", f"[seats.{seat}]", f'deck = "{deck_name}"']
        cards = [module.cards[c].name for c, n in deck.cards for _ in range(n)]
        rites = [module.cards[c].name for c, n in deck.sections["rites"] for _ in range(n)]
        hand, pile = cards[:6], cards[6:]
        zones.append(f'"p{seat}.hand" = {json.dumps(hand)}')
        zones.append(f'"p{seat}.deck" = {json.dumps(pile)}')
        zones.append(f'"p{seat}.rites" = {json.dumps(rites)}')
        zones.append(f'"p{seat}.discard" = {json.dumps(cards[-6:])}')  # public, face up
        count += len(cards) + len(rites) + 6
    path = folder / "big.toml"
    path.write_text("\n".join(lines + zones) + "\n", encoding="utf-8")
    return path, count


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        path, cards = big_position(folder)
        find_module("dead-to-rites")  # warm the module files' cache, as a running table has
        runs = []
        for i in range(7):
            started = time.perf_counter()
            replica = start_position(read_position(path), log_path=folder / f"b{i}.sandlog")
            replica.close()
            runs.append(time.perf_counter() - started)
        start_s = statistics.median(runs)
        print(f"start from a position with {cards} named cards (read, check, lay out, place, "
              f"write the log): median {start_s * 1000:.1f} ms of {len(runs)}")
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "table.app.cli", "new", "--position", str(path),
                        "--out", str(folder / "cli.sandlog")], check=True, cwd=ROOT,
                       stdout=subprocess.DEVNULL)
        cli_s = time.perf_counter() - started
        print(f"`sandtable new --position` as a command (with Python start-up): {cli_s:.2f} s")
    files = scenario_files(ROOT / "assets")
    started = time.perf_counter()
    results = ScenarioRunner().run_all(files)
    scen_s = time.perf_counter() - started
    passed = sum(r.passed for r in results)
    print(f"check --scenarios: {len(files)} scenarios ({passed} passed) in {scen_s:.2f} s")
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "table.app.cli", "check", "--scenarios",
                    str(ROOT / "assets")], cwd=ROOT, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    scen_cli = time.perf_counter() - started
    print(f"`sandtable check --scenarios assets` as a command: {scen_cli:.2f} s")
    print(json.dumps({"position_cards": cards, "position_start_s": round(start_s, 4),
                      "position_start_cli_s": round(cli_s, 3), "scenarios": len(files),
                      "scenarios_s": round(scen_s, 3), "scenarios_cli_s": round(scen_cli, 3),
                      "targets": {"position_start_s": 0.3, "scenarios_s": 5.0}}))


if __name__ == "__main__":
    main()
