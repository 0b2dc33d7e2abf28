#!/usr/bin/env bash
# The bots' figures (docs/bots.md, "Figures"): 1,000 games per shipped game, the heuristic bot
# against random ones with seats rotated; two heuristic Gauntlet bots; and drafts that change
# one number against their base (Dead to Rites' favor_cap 6 -> 7, heuristic against three
# random; Gauntlet's hand_limit 3 -> 1 and 3 -> 5 and last_stand_bonus 1 -> 0, two heuristic
# bots), each A/B over GAMES_AB games. Usage: scripts/simulate_figures.sh OUT [GAMES] [GAMES_AB] [JOBS]
set -euo pipefail
out=${1:?usage: simulate_figures.sh OUT [GAMES] [GAMES_AB] [JOBS]}
games=${2:-1000}
games_ab=${3:-1000}
jobs=${4:-2}
here=$(cd "$(dirname "$0")/.." && pwd)
st="$here/.venv/bin/sandtable"
mkdir -p "$out"
run() {  # game, bots, out dir, extra args...
  local game=$1 bots=$2 dir=$3; shift 3
  "$st" simulate --game "$game" --bots "$bots" --seed 1 --out "$dir" --jobs "$jobs" --quiet "$@"
}
for game in gauntlet dead-to-rites mantle-of-the-keeper; do
  bots="heuristic,random"
  [ "$game" != gauntlet ] && bots="heuristic,random,random,random"
  [ -f "$out/$game/summary.json" ] || run "$game" "$bots" "$out/$game" --games "$games" > "$out/$game.txt"
done
[ -f "$out/gauntlet-hh/summary.json" ] ||
  run gauntlet heuristic,heuristic "$out/gauntlet-hh" --games "$games" > "$out/gauntlet-hh.txt"
draft() {  # name, game, rule line as it stands, as the draft has it
  local dir="$out/drafts/$1/$2"
  rm -rf "$dir" && mkdir -p "$(dirname "$dir")" && cp -r "$here/assets/$2" "$dir"
  sed -i "s/^$3\$/$4/" "$dir/game.toml"
  grep -q "^$4\$" "$dir/game.toml"
}
ab() {  # name, game, bots, base dir (a batch of GAMES_AB games)
  run "$2" "$3" "$out/ab-$1" --games "$games_ab" --no-check --module "$out/drafts/$1/$2" \
      --against "$4" > "$out/ab-$1.txt"
}
draft favor-cap-7 dead-to-rites \
  "favor_cap = 6              # every Crown's, except where its favor_cap column says (Hollow Market 7)" \
  "favor_cap = 7"
draft hand-limit-1 gauntlet "hand_limit = 3" "hand_limit = 1"
draft hand-limit-5 gauntlet "hand_limit = 3" "hand_limit = 5"
draft last-stand-0 gauntlet "last_stand_bonus = 1" "last_stand_bonus = 0"
[ "$games_ab" = "$games" ] || { echo "GAMES_AB must equal GAMES (the base batches are reused)"; exit 2; }
ab favor-cap-7 dead-to-rites heuristic,random,random,random "$out/dead-to-rites"
for name in hand-limit-1 hand-limit-5 last-stand-0; do
  ab "$name" gauntlet heuristic,heuristic "$out/gauntlet-hh"
done
tail -n +1 "$out"/*.txt
