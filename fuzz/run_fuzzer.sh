#!/usr/bin/env bash
# Builds a fuzz target with clang's libFuzzer (+ASan/UBSan, the core
# instrumented for coverage) and runs it from its seeds
# (fuzz/make_seed_corpus.sh: the compiled corpora, or small files of the
# format for the npy/irpa/gguf/safetensors targets).
#   fuzz/run_fuzzer.sh [SECONDS] [TARGET]   (defaults: 60, module_loader_fuzzer)
# The build is build/fuzz (ccache when installed; $CC/$CXX override clang).
# Inputs libFuzzer finds new coverage with accumulate in
# build/fuzz/corpus-TARGET (kept between runs); crashes, leaks and timeouts
# are written to build/fuzz/findings-TARGET/, and the script then exits
# non-zero. Replay one with `build/fuzz/TARGET FILE`. docs/fuzzing.md has the
# campaign and how to rerun it.
# An input that takes longer than EMBER_FUZZ_TIMEOUT seconds (default 10,
# under the sanitizers) is reported like a crash: hostile modules must not
# make loading hang.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
seconds="${1:-60}"
target="${2:-module_loader_fuzzer}"
build="${EMBER_FUZZ_BUILD:-$root/build/fuzz}"
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
# EMBER_FUZZ_NO_BUILD=1: the target is built already (fuzz/campaign.sh
# builds every target once, then runs several of this script at a time).
if [ -z "${EMBER_FUZZ_NO_BUILD:-}" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER="${CC:-clang}" -DCMAKE_CXX_COMPILER="${CXX:-clang++}" \
    "${launcher[@]}" -DEMBER_SANITIZE=ON \
    -DEMBER_BUILD_TESTS=OFF -DEMBER_BUILD_TOOLS=OFF -DEMBER_BUILD_FUZZERS=ON \
    -DEMBER_FUZZ_INSTRUMENT_CORE=ON >/dev/null
  ninja -C "$build" "$target" >/dev/null
fi
[ -z "${EMBER_FUZZ_BUILD_ONLY:-}" ] || exit 0
rm -rf "$build/seeds-$target"
"$root/fuzz/make_seed_corpus.sh" "$build/seeds-$target" "$target"
mkdir -p "$build/corpus-$target" "$build/findings-$target"
# libFuzzer adds what it finds to the first directory and only reads the
# others: the fresh seeds, and the committed regressions of past findings.
dirs=("$build/corpus-$target" "$build/seeds-$target")
[ -d "$root/fuzz/seeds/$target" ] && dirs+=("$root/fuzz/seeds/$target")
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
"$build/$target" -max_total_time="$seconds" -max_len=1048576 \
  -timeout="${EMBER_FUZZ_TIMEOUT:-10}" -rss_limit_mb=2048 -print_final_stats=1 \
  -artifact_prefix="$build/findings-$target/" \
  "${dirs[@]}"
