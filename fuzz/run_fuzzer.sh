#!/usr/bin/env bash
# Builds a fuzz target with clang's libFuzzer (+ASan/UBSan, the core
# instrumented for coverage) and runs it from its seeds
# (fuzz/make_seed_corpus.sh: the compiled corpus, or .npy files for
# npy_reader_fuzzer).
#   fuzz/run_fuzzer.sh [SECONDS] [TARGET]   (defaults: 60, module_loader_fuzzer)
# An input that takes longer than EMBER_FUZZ_TIMEOUT seconds (default 10,
# under the sanitizers) is reported like a crash: hostile modules must not
# make loading hang.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
seconds="${1:-60}"
target="${2:-module_loader_fuzzer}"
build="$root/build/fuzz"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DEMBER_SANITIZE=ON \
  -DEMBER_BUILD_TESTS=OFF -DEMBER_BUILD_TOOLS=OFF -DEMBER_BUILD_FUZZERS=ON \
  -DEMBER_FUZZ_INSTRUMENT_CORE=ON >/dev/null
ninja -C "$build" "$target" >/dev/null
"$root/fuzz/make_seed_corpus.sh" "$build/seeds-$target" "$target"
mkdir -p "$build/findings-$target"
"$build/$target" -max_total_time="$seconds" -max_len=1048576 \
  -timeout="${EMBER_FUZZ_TIMEOUT:-10}" \
  -rss_limit_mb=2048 -artifact_prefix="$build/findings-$target/" \
  "$build/findings-$target" "$build/seeds-$target"
