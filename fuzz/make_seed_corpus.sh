#!/usr/bin/env bash
# Builds the loader fuzzer's seed corpus from the compiled test corpus.
#   fuzz/make_seed_corpus.sh [OUT_DIR]   (default: build/fuzz-seeds)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root/build/fuzz-seeds}"
python3 "$root/tools/ember_corpus.py" build --out "$root/build/corpus" >/dev/null
mkdir -p "$out"
cp "$root"/build/corpus/*.vmfb "$out"/
echo "$(ls "$out" | wc -l) seeds in $out"
