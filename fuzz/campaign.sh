#!/usr/bin/env bash
# A fuzzing campaign: every fuzz target for the same time, JOBS at a time,
# through fuzz/run_fuzzer.sh (so with its seeds, corpus and findings
# directories under build/fuzz), then a Markdown table of the results.
#   fuzz/campaign.sh SECONDS_PER_TARGET [JOBS] [TARGET...]
#     (defaults: 600 s, 2 jobs, every fuzz/*_fuzzer.cc)
# Logs: build/fuzz/campaign/TARGET.log. A target stops at its first finding
# (libFuzzer's default), which the table reports with the artifact's name.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
seconds="${1:-600}"
jobs="${2:-2}"
shift $(($# < 2 ? $# : 2))
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for src in "$root"/fuzz/*_fuzzer.cc; do
    targets+=("$(basename "$src" .cc)")
  done
fi
build="${EMBER_FUZZ_BUILD:-$root/build/fuzz}"
logs="$build/campaign"
mkdir -p "$logs"

# Configure and build every target once, as run_fuzzer.sh does.
EMBER_FUZZ_BUILD_ONLY=1 "$root/fuzz/run_fuzzer.sh" 1 "${targets[0]}"
ninja -C "$build" "${targets[@]}" >/dev/null

running=0
for target in "${targets[@]}"; do
  if [ "$running" -ge "$jobs" ]; then
    wait -n || true
    running=$((running - 1))
  fi
  (
    start="$(date +%s)"
    rc=0
    EMBER_FUZZ_NO_BUILD=1 "$root/fuzz/run_fuzzer.sh" "$seconds" "$target" \
      >"$logs/$target.log" 2>&1 || rc=$?
    echo "campaign: exit $rc after $(($(date +%s) - start)) s" >>"$logs/$target.log"
  ) &
  running=$((running + 1))
done
wait || true

echo "| target | executions | time (s) | exec/s | corpus | findings |"
echo "|---|---:|---:|---:|---:|---|"
for target in "${targets[@]}"; do
  log="$logs/$target.log"
  execs="$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')"
  time="$(grep -o 'Done [0-9]* runs in [0-9]* second' "$log" | awk '{print $5}' || true)"
  [ -n "$time" ] || time="$(grep -o 'after [0-9]* s' "$log" | awk '{print $2}' || true)"
  rate="$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')"
  corpus="$(ls "$build/corpus-$target" | wc -l)"
  findings="$(grep -o 'Test unit written to .*' "$log" | sed 's|.*/||' | tr '\n' ' ' || true)"
  echo "| $target | ${execs:-?} | ${time:-?} | ${rate:-?} | $corpus | ${findings:-none} |"
done
