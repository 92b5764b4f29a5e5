#!/usr/bin/env bash
# Installs everything the tests need and runs every test:
#   - the layering and formatting checks;
#   - the C++ tests (GoogleTest) in every configuration Ember ships: Debug under
#     AddressSanitizer + UBSan, Release with warnings as errors, and Release
#     with the switch-dispatch interpreter (-DEMBER_VM_DISPATCH_SWITCH=ON);
#   - the fuzz targets' seed corpus, replayed under the sanitizers;
#   - the Python tests (pytest, comparing Ember with the official
#     iree-base-runtime 3.11.0), in a virtual environment (.venv, or
#     $EMBER_VENV) that the script makes.
#
#   bash scripts/run_tests.sh
#
# Compiled test modules are cached by compiler version + source hash in
# ~/.cache/ember/corpus (override with EMBER_CORPUS_CACHE).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
jobs="$(nproc 2>/dev/null || echo 2)"
system_python="${PYTHON:-python3}"
venv="${EMBER_VENV:-$root/.venv}"

step() { printf '\n==> %s\n' "$*"; }

step "Checking the build tools"
missing=()
command -v cmake >/dev/null || missing+=(cmake)
command -v ninja >/dev/null || missing+=(ninja-build)
command -v clang-format >/dev/null || missing+=(clang-format)
[ -e /usr/include/gtest/gtest.h ] || missing+=(libgtest-dev)
if [ ${#missing[@]} -gt 0 ]; then
  apt-get update -qq && apt-get install -y -qq "${missing[@]}"
fi
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi

step "Checking the layering of #includes"
"$system_python" scripts/check_layering.py

step "Checking the formatting of the C++ sources (clang-format)"
git ls-files -z '*.cc' '*.h' | xargs -0 clang-format --dry-run --Werror

step "Making the virtual environment $venv"
if [ ! -x "$venv/bin/python" ]; then
  if ! "$system_python" -m venv "$venv" 2>/dev/null; then
    # Debian's Python ships venv's pip bootstrap separately.
    rm -rf "$venv"
    apt-get update -qq && apt-get install -y -qq python3-venv
    "$system_python" -m venv "$venv"
  fi
fi
python="$venv/bin/python"
# As if the environment were activated: its tools (iree-compile,
# iree-run-module, ember-*) come before any others on PATH.
export PATH="$venv/bin:$PATH"

step "Installing Ember and the test dependencies"
"$python" -m pip install --quiet --upgrade pip >/dev/null 2>&1 || true
"$python" -m pip install --quiet ".[test]"

step "Compiling the test corpus with the pinned compiler (cached)"
"$python" tools/ember_corpus.py build --out build/corpus
export EMBER_CORPUS_DIR="$root/build/corpus"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"

# build_and_test NAME CMAKE_ARGS...: configures build/NAME, builds every
# target and runs its C++ tests.
build_and_test() {
  local name="$1"
  shift
  step "Building the C++ tests: $name"
  cmake -S . -B "build/$name" -G Ninja "${launcher[@]}" -DEMBER_WERROR=ON \
    -DEMBER_BUILD_TOOLS=ON -DEMBER_BUILD_PYTHON=OFF "$@" >/dev/null
  cmake --build "build/$name" -j "$jobs"
  step "Running the C++ tests: $name"
  ctest --test-dir "build/$name" --output-on-failure -j "$jobs"
}

build_and_test asan -DCMAKE_BUILD_TYPE=Debug -DEMBER_SANITIZE=ON \
  -DEMBER_BUILD_FUZZERS=ON

step "Replaying the fuzz seed corpus under the sanitizers"
build/asan/module_loader_fuzzer build/corpus
build/asan/bytecode_verifier_fuzzer build/corpus
fuzz/make_seed_corpus.sh build/npy-seeds npy_reader_fuzzer >/dev/null
build/asan/npy_reader_fuzzer build/npy-seeds
for format in irpa gguf safetensors; do
  fuzz/make_seed_corpus.sh "build/$format-seeds" "${format}_parser_fuzzer" \
    >/dev/null
  "build/asan/${format}_parser_fuzzer" "build/$format-seeds"
done

build_and_test release -DCMAKE_BUILD_TYPE=Release -DEMBER_BUILD_FUZZERS=OFF
build_and_test release-switch -DCMAKE_BUILD_TYPE=Release \
  -DEMBER_VM_DISPATCH_SWITCH=ON -DEMBER_BUILD_FUZZERS=OFF

step "Running the Python tests"
"$python" -m pytest -q tests/python
