#!/usr/bin/env bash
# The bots' figures (docs/bots.md, "Figures"): 1,000 games per shipped game, the heuristic bot
# against random ones with seats rotated, and two drafts that change one number against their
# base (Dead to Rites' favor_cap 6 -> 7, Gauntlet's hand_limit 3 -> 5), each A/B over GAMES_AB
# games. Usage: scripts/simulate_figures.sh OUT [GAMES] [GAMES_AB] [JOBS]
set -euo pipefail
out=${1:?usage: simulate_figures.sh OUT [GAMES] [GAMES_AB] [JOBS]}
games=${2:-1000}
games_ab=${3:-400}
jobs=${4:-2}
here=$(cd "$(dirname "$0")/.." && pwd)
st="$here/.venv/bin/sandtable"
mkdir -p "$out"
run() {  # game, out dir, extra args...
  local game=$1 dir=$2; shift 2
  local bots="heuristic,random"
  [ "$game" != gauntlet ] && bots="heuristic,random,random,random"
  "$st" simulate --game "$game" --bots "$bots" --seed 1 --out "$dir" --jobs "$jobs" --quiet "$@"
}
for game in gauntlet dead-to-rites mantle-of-the-keeper; do
  [ -f "$out/$game/summary.json" ] || run "$game" "$out/$game" --games "$games" > "$out/$game.txt"
done
draft() {  # game, rule line as it stands, as the draft has it
  local dir="$out/drafts/$1"
  rm -rf "$dir" && mkdir -p "$out/drafts" && cp -r "$here/assets/$1" "$dir"
  sed -i "s/^$2\$/$3/" "$dir/game.toml"
  grep -q "^$3\$" "$dir/game.toml"
}
draft dead-to-rites "favor_cap = 6              # every Crown's, except where its favor_cap column says (Hollow Market 7)" "favor_cap = 7"
draft gauntlet "hand_limit = 3" "hand_limit = 5"
for game in dead-to-rites gauntlet; do
  run "$game" "$out/ab-$game-base" --games "$games_ab" --no-check > "$out/ab-$game-base.txt"
  run "$game" "$out/ab-$game-draft" --games "$games_ab" --no-check --module "$out/drafts/$game" \
      --against "$out/ab-$game-base" > "$out/ab-$game-draft.txt"
done
tail -n +1 "$out"/*.txt
