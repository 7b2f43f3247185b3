#!/usr/bin/env bash
# Runs libFuzzer campaigns on the fuzz preset's targets, JOBS at a time
# (nice -n 19), SECONDS each: working corpora in build/fuzz/corpus/<target>
# (seeded from tests/fuzz/corpus/<target>), crashes in
# build/fuzz/artifacts/<target>/, logs and final stats in build/fuzz/logs/
# (<target>.log; <target>.cpu: CPU seconds, user and system).
# Usage: tests/fuzz/campaign.sh [SECONDS] [JOBS] [TARGET ...]
#   (build first: cmake --preset fuzz && cmake --build --preset fuzz)
# Environment:
#   RUNS=N            also stop each target after N executions (-runs=N)
#   PROTO_MAX_LEN=N   longest proto input (default 4096: short sessions run
#                     fast; 1100000 lets a request line reach 1 MB)
set -euo pipefail
cd "$(dirname "$0")/../.."
SECS=${1:-600}
JOBS=${2:-1}
shift $(( $# >= 2 ? 2 : $# )) || true
B=build/fuzz
TARGETS=("$@")
if [ ${#TARGETS[@]} -eq 0 ]; then
  TARGETS=(proto record options action position play hub)
fi
mkdir -p $B/logs
run_one() {
  local t=$1 extra="" rc=0
  mkdir -p $B/corpus/$t $B/artifacts/$t
  [ "$t" = proto ] && extra="-max_len=${PROTO_MAX_LEN:-4096}"
  [ -n "${RUNS:-}" ] && extra="$extra -runs=$RUNS"
  # A 64 MiB quarantine (ASan's default is 256): freed memory still waits
  # behind hundreds of inputs before reuse, and the players run about twice
  # as fast (less memory touched for the first time).
  local TIMEFORMAT='%U %S' # CPU seconds of the run, user and system
  { time ASAN_OPTIONS=detect_leaks=1:quarantine_size_mb=64 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    nice -n 19 $B/tests/fuzz/fuzz_$t -max_total_time="$SECS" -timeout=20 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix=$B/artifacts/$t/ $extra \
      $B/corpus/$t tests/fuzz/corpus/$t > $B/logs/$t.log 2>&1 || rc=$?; } 2> $B/logs/$t.cpu
  echo "$t: exit $rc $(grep -E '^stat::(number_of_executed_units|average_exec_per_sec)' $B/logs/$t.log |
    tr '\n' ' ')cpu_s: $(awk '{print $1 + $2}' $B/logs/$t.cpu)"
}
for t in "${TARGETS[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n || true; done
  run_one "$t" &
done
wait
