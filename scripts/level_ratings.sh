#!/usr/bin/env bash
# level_ratings.sh — measures the computer levels' fixed ratings (issue 33 §2,
# docs/ratings.md): plays every pair of levels of each rating pool with
# `parlour arena`, writes the pairwise results to data/ratings/games.txt and
# fits the ratings (scripts/level_ratings.py) into data/ratings/levels.txt.
#
# usage: scripts/level_ratings.sh [--scale K] [--threads T] [--seed S]
#                                 [--perfect FINKEL_TABLE] [--only POOL]
#                                 [--bin PARLOUR] [--out DIR]
#   --scale K    K times the sample sizes below (default 1: the small run)
#   --perfect F  adds Ur's perfect player (perfect:F, a Finkel table written by
#                `parlour solve ur rules=finkel --out F`, docs/solver.md) to ur/finkel
#   --only POOL  plays the pairs of that pool only (e.g. ur/finkel); the other
#                pools' rows of the existing games.txt are kept as they are
# Results depend only on the seed, not on --threads.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
scale=1 threads=1 seed=1 perfect="" only="" bin="$root/build/release/parlour" out="$root/data/ratings"
while [ $# -gt 0 ]; do
    case "$1" in
    --scale) scale=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --perfect) perfect=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --bin) bin=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "usage: $0 [--scale K] [--threads T] [--seed S] [--perfect TABLE] [--only POOL] [--bin PARLOUR] [--out DIR]" >&2; exit 2 ;;
    esac
done
[ -x "$bin" ] || { echo "$0: no program at $bin (cmake --build build/release)" >&2; exit 1; }
mkdir -p "$out"
games="$out/games.txt"
if [ -n "$only" ]; then
    [ -f "$games" ] || { echo "$0: --only needs the other pools' rows in $games" >&2; exit 1; }
    # the header and the other pools' rows as they were
    awk -v pool="$only" '/^#/ || $1 != pool' "$games" > "$games.tmp"
    echo "# $only (written by scripts/level_ratings.sh --only $only, seed $seed, scale $scale)" >> "$games.tmp"
else
    echo "# pool A B games A-wins draws A-losses seconds  (written by scripts/level_ratings.sh, seed $seed, scale $scale)" > "$games.tmp"
fi

# pool | game and options | A | B | games at scale 1
pairs=$(cat <<'PAIRS'
ur/skiryuk|ur|easy|medium|40
ur/skiryuk|ur|medium|hard|40
ur/skiryuk|ur|easy|hard|200
ur/finkel|ur rules=finkel|easy|medium|60
ur/finkel|ur rules=finkel|medium|hard|60
ur/finkel|ur rules=finkel|easy|hard|200
cbw/2v2|cbw|easy|medium|30
cbw/2v2|cbw|medium|hard|30
cbw/2v2|cbw|easy|hard|30
cbw/3v3|cbw players=6|easy|medium|30
cbw/3v3|cbw players=6|medium|hard|30
cbw/3v3|cbw players=6|easy|hard|30
tamcuc/2|tamcuc players=2|easy|medium|200
tamcuc/2|tamcuc players=2|medium|hard|200
tamcuc/2|tamcuc players=2|easy|hard|200
tamcuc/3|tamcuc players=3|easy|medium|200
tamcuc/3|tamcuc players=3|medium|hard|200
tamcuc/3|tamcuc players=3|easy|hard|200
tamcuc/4|tamcuc|easy|medium|200
tamcuc/4|tamcuc|medium|hard|200
tamcuc/4|tamcuc|easy|hard|200
karuta/kyogi|karuta|easy|medium|20
karuta/kyogi|karuta|medium|hard|20
karuta/kyogi|karuta|hard|champion|20
karuta/kyogi|karuta|easy|hard|20
karuta/kyogi|karuta|medium|champion|20
karuta/kyogi|karuta|easy|champion|20
PAIRS
)
if [ -n "$perfect" ]; then
    pairs="$pairs
ur/finkel|ur rules=finkel|hard|perfect:$perfect|100
ur/finkel|ur rules=finkel|medium|perfect:$perfect|100
ur/finkel|ur rules=finkel|easy|perfect:$perfect|100"
fi

while IFS='|' read -r pool gameopts a b n; do
    [ -z "$only" ] || [ "$pool" = "$only" ] || continue
    n=$((n * scale))
    t0=$(date +%s.%N)
    # shellcheck disable=SC2086 # gameopts is the game and its option words
    res=$("$bin" arena $gameopts --players "$a,$b" --games "$n" --threads "$threads" --seed "$seed")
    t1=$(date +%s.%N)
    # the "A ..." row: name, wins, draws, losses
    row=$(printf '%s\n' "$res" | awk '$1 == "A" { print $3, $4, $5; exit }')
    [ -n "$row" ] || { echo "$0: no result for $pool $a $b:" >&2; printf '%s\n' "$res" >&2; exit 1; }
    line=$(printf '%s %s %s %s %s %.1f' "$pool" "$a" "${b%%:*}" "$n" "$row" "$(echo "$t1 - $t0" | bc)")
    echo "$line" | tee -a "$games.tmp"
done <<< "$pairs"
mv "$games.tmp" "$games"
python3 "$root/scripts/level_ratings.py" "$games" > "$out/levels.txt"
cat "$out/levels.txt"
