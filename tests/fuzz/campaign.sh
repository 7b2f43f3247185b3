#!/usr/bin/env bash
# Runs libFuzzer campaigns on the fuzz preset's targets, JOBS at a time
# (niced), SECONDS each: working corpora in build/fuzz/corpus/<target>
# (seeded from tests/fuzz/corpus/<target>), crashes in
# build/fuzz/artifacts/<target>/, logs and final stats in build/fuzz/logs/.
# Usage: tests/fuzz/campaign.sh [SECONDS] [JOBS] [TARGET ...]
#   (build first: cmake --preset fuzz && cmake --build --preset fuzz)
set -euo pipefail
cd "$(dirname "$0")/../.."
SECS=${1:-600}
JOBS=${2:-1}
shift $(( $# >= 2 ? 2 : $# )) || true
B=build/fuzz
TARGETS=("$@")
if [ ${#TARGETS[@]} -eq 0 ]; then
  TARGETS=(proto record options)
  for g in ur cbw tamcuc karuta; do TARGETS+=(action_$g position_$g play_$g); done
fi
mkdir -p $B/logs
run_one() {
  local t=$1 extra="" rc=0
  mkdir -p $B/corpus/$t $B/artifacts/$t
  [ "$t" = proto ] && extra="-max_len=65536"
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    nice -n 10 $B/tests/fuzz/fuzz_$t -max_total_time="$SECS" -timeout=20 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix=$B/artifacts/$t/ $extra \
      $B/corpus/$t tests/fuzz/corpus/$t > $B/logs/$t.log 2>&1 || rc=$?
  echo "$t: exit $rc $(grep -E '^stat::number_of_executed_units' $B/logs/$t.log)"
}
for t in "${TARGETS[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n || true; done
  run_one "$t" &
done
wait
