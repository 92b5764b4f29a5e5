#!/usr/bin/env bash
# Installs everything the tests need and runs every test: C++ (GoogleTest,
# under AddressSanitizer + UBSan, warnings as errors) and Python (pytest,
# comparing Ember with the official iree-base-runtime 3.11.0).
#
#   bash scripts/run_tests.sh
#
# Compiled test modules are cached by compiler version + source hash in
# ~/.cache/ember/corpus (override with EMBER_CORPUS_CACHE).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
jobs="$(nproc 2>/dev/null || echo 2)"
python="${PYTHON:-python3}"

step() { printf '\n==> %s\n' "$*"; }

step "Checking the build tools"
missing=()
command -v cmake >/dev/null || missing+=(cmake)
command -v ninja >/dev/null || missing+=(ninja-build)
[ -e /usr/include/gtest/gtest.h ] || missing+=(libgtest-dev)
if [ ${#missing[@]} -gt 0 ]; then
  apt-get update -qq && apt-get install -y -qq "${missing[@]}"
fi

step "Installing Ember and the test dependencies"
"$python" -m pip install --quiet --upgrade pip >/dev/null 2>&1 || true
"$python" -m pip install --quiet ".[test]"

step "Compiling the test corpus with the pinned compiler (cached)"
"$python" tools/ember_corpus.py build --out build/corpus
export EMBER_CORPUS_DIR="$root/build/corpus"

step "Building the C++ tests with ASan + UBSan"
cmake -S . -B build/asan -G Ninja -DCMAKE_BUILD_TYPE=Debug \
  -DEMBER_SANITIZE=ON -DEMBER_WERROR=ON -DEMBER_BUILD_TOOLS=ON \
  -DEMBER_BUILD_FUZZERS=ON -DEMBER_BUILD_PYTHON=OFF >/dev/null
cmake --build build/asan -j "$jobs"

step "Running the C++ tests"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
ctest --test-dir build/asan --output-on-failure -j "$jobs"

step "Replaying the fuzz seed corpus under the sanitizers"
build/asan/module_loader_fuzzer build/corpus

step "Running the Python tests"
"$python" -m pytest -q tests/python
