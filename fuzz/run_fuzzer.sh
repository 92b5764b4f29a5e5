#!/usr/bin/env bash
# Builds the loader fuzzer with clang's libFuzzer (+ASan/UBSan) and runs it.
#   fuzz/run_fuzzer.sh [SECONDS]   (default 60)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
seconds="${1:-60}"
build="$root/build/fuzz"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DEMBER_SANITIZE=ON \
  -DEMBER_BUILD_TESTS=OFF -DEMBER_BUILD_TOOLS=OFF -DEMBER_BUILD_FUZZERS=ON >/dev/null
ninja -C "$build" module_loader_fuzzer >/dev/null
"$root/fuzz/make_seed_corpus.sh" "$build/seeds"
mkdir -p "$build/findings"
"$build/module_loader_fuzzer" -max_total_time="$seconds" -max_len=1048576 \
  -rss_limit_mb=2048 -artifact_prefix="$build/findings/" "$build/findings" "$build/seeds"
