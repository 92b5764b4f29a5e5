#!/usr/bin/env bash
# Installs everything the tests need and runs every test:
#   - the layering and formatting checks;
#   - the C++ tests (GoogleTest) in every configuration Ember ships: Debug under
#     AddressSanitizer + UBSan, Release with warnings as errors, and Release
#     with the switch-dispatch interpreter (-DEMBER_VM_DISPATCH_SWITCH=ON);
#   - the fuzz targets' seed corpus, replayed under the sanitizers, through
#     the g++ build and through a clang libFuzzer build;
#   - the Python tests (pytest), comparing Ember with the official runtime of
#     the release that built each module: iree-base-runtime 3.13.0 (the
#     current release, installed with Ember in .venv, or $EMBER_VENV) for
#     3.13 modules, and 3.11.0 for 3.11 modules (in a second environment,
#     .venv-iree-3.11 or $EMBER_IREE311_VENV: one environment cannot hold
#     two versions of the iree packages).
#
#   bash scripts/run_tests.sh
#
# The C++ tests run on a corpus of modules compiled by iree-compile 3.13,
# and the Release build's tests again on one compiled by 3.11. Compiled
# test modules are cached by compiler version + source hash in
# ~/.cache/ember/corpus (override with EMBER_CORPUS_CACHE).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
jobs="$(nproc 2>/dev/null || echo 2)"
system_python="${PYTHON:-python3}"
venv="${EMBER_VENV:-$root/.venv}"
venv311="${EMBER_IREE311_VENV:-$root/.venv-iree-3.11}"

step() { printf '\n==> %s\n' "$*"; }

step "Checking the build tools"
missing=()
command -v cmake >/dev/null || missing+=(cmake)
command -v ninja >/dev/null || missing+=(ninja-build)
command -v clang-format >/dev/null || missing+=(clang-format)
[ -e /usr/include/gtest/gtest.h ] || missing+=(libgtest-dev)
# The Vulkan device: headers to build it; Mesa's software Vulkan (lavapipe),
# the loader and the Khronos validation layer to test it.
[ -e /usr/include/vulkan/vulkan.h ] || missing+=(libvulkan-dev)
[ -e /usr/share/vulkan/icd.d/lvp_icd.x86_64.json ] ||
  missing+=(mesa-vulkan-drivers)
[ -e /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json ] ||
  missing+=(vulkan-validationlayers)
# The tokenizer: PCRE2, utf8proc and simdjson (found with pkg-config).
command -v pkg-config >/dev/null || missing+=(pkg-config)
[ -e /usr/include/pcre2.h ] || missing+=(libpcre2-dev)
[ -e /usr/include/utf8proc.h ] || missing+=(libutf8proc-dev)
[ -e /usr/include/simdjson.h ] || missing+=(libsimdjson-dev)
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

# make_venv DIR: a virtual environment at DIR, made once.
make_venv() {
  if [ ! -x "$1/bin/python" ]; then
    if ! "$system_python" -m venv "$1" 2>/dev/null; then
      # Debian's Python ships venv's pip bootstrap separately.
      rm -rf "$1"
      apt-get update -qq && apt-get install -y -qq python3-venv
      "$system_python" -m venv "$1"
    fi
  fi
}

step "Making the virtual environments $venv and $venv311"
make_venv "$venv"
make_venv "$venv311"
python="$venv/bin/python"
# As if the environment were activated: its tools (iree-compile,
# iree-run-module, ember-*) come before any others on PATH.
export PATH="$venv/bin:$PATH"

step "Installing Ember and the test dependencies"
"$python" -m pip install --quiet --upgrade pip >/dev/null 2>&1 || true
"$python" -m pip install --quiet ".[test]"
# The oracle of 3.11 modules, and the compiler that makes them.
"$venv311/bin/python" -m pip install --quiet --upgrade pip >/dev/null 2>&1 || true
"$venv311/bin/python" -m pip install --quiet numpy ml_dtypes \
  iree-base-compiler==3.11.0 iree-base-runtime==3.11.0
export EMBER_IREE311_PYTHON="$venv311/bin/python"
export EMBER_IREE311_COMPILE="$venv311/bin/iree-compile"
# Tests that run an oracle in a subprocess name each by its release.
export EMBER_IREE313_PYTHON="$python"
export EMBER_IREE313_COMPILE="$venv/bin/iree-compile"
# Real tokenizer files shipped by packages whose other dependencies (torch)
# the tests do not need: fetched without dependencies and unpacked where
# tests/python/test_tokenizer_real_files.py looks (cached by name).
tokfiles="$root/build/tokenizer-files"
for spec in wordllama==0.4.0.post1 pix2tex==0.1.4 openai-whisper==20250625; do
  if [ ! -e "$tokfiles/.$spec" ]; then
    rm -rf "$tokfiles/dl"
    "$python" -m pip download --quiet --no-deps \
      -d "$tokfiles/dl" "$spec"
    for archive in "$tokfiles"/dl/*; do
      case "$archive" in
        *.whl) "$python" -m zipfile -e "$archive" "$tokfiles" ;;
        *.tar.gz) tar -xzf "$archive" -C "$tokfiles" --strip-components=1 ;;
      esac
    done
    rm -rf "$tokfiles/dl"
    touch "$tokfiles/.$spec"
  fi
done
export EMBER_TOKENIZER_FILES="$tokfiles"

step "Compiling the test corpus with iree-compile 3.13 and 3.11 (cached)"
"$python" tools/ember_corpus.py build --out build/corpus \
  --compiler "$venv/bin/iree-compile"
"$python" tools/ember_corpus.py build --out build/corpus-3.11 \
  --compiler "$venv311/bin/iree-compile"
export EMBER_CORPUS_DIR="$root/build/corpus"
export EMBER_CORPUS_311_DIR="$root/build/corpus-3.11"
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
build/asan/module_loader_fuzzer build/corpus build/corpus-3.11
build/asan/bytecode_verifier_fuzzer build/corpus build/corpus-3.11
fuzz/make_seed_corpus.sh build/npy-seeds npy_reader_fuzzer >/dev/null
build/asan/npy_reader_fuzzer build/npy-seeds
for format in irpa gguf safetensors; do
  fuzz/make_seed_corpus.sh "build/$format-seeds" "${format}_parser_fuzzer" \
    >/dev/null
  "build/asan/${format}_parser_fuzzer" "build/$format-seeds"
done

# The fuzz targets once more with clang and libFuzzer, as fuzz/run_fuzzer.sh
# builds them (the core instrumented for coverage, ASan + UBSan), so a build
# that only clang rejects or a seed only clang's sanitizers flag fails CI.
# -runs=0 replays the seeds (and the crash regressions under fuzz/seeds/)
# without fuzzing. Debug: the shortest compile.
step "Building the fuzz targets with clang (libFuzzer, ASan + UBSan)"
if ! command -v clang++ >/dev/null ||
  [ ! -e "$(clang++ -print-runtime-dir)/libclang_rt.fuzzer-x86_64.a" ]; then
  apt-get update -qq && apt-get install -y -qq clang libclang-rt-dev
fi
fuzz_targets=(module_loader_fuzzer bytecode_verifier_fuzzer elf_module_fuzzer
  npy_reader_fuzzer irpa_parser_fuzzer gguf_parser_fuzzer
  safetensors_parser_fuzzer vulkan_executable_fuzzer tokenizer_loader_fuzzer
  tokenizer_encode_fuzzer tokenizer_tiktoken_fuzzer)
cmake -S . -B build/clang-fuzz -G Ninja "${launcher[@]}" \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_BUILD_TYPE=Debug -DEMBER_SANITIZE=ON -DEMBER_WERROR=ON \
  -DEMBER_BUILD_TESTS=OFF -DEMBER_BUILD_TOOLS=OFF -DEMBER_BUILD_FUZZERS=ON \
  -DEMBER_FUZZ_INSTRUMENT_CORE=ON >/dev/null
cmake --build build/clang-fuzz -j "$jobs" --target "${fuzz_targets[@]}"
step "Replaying the fuzz seeds through the clang (libFuzzer) builds"
for target in "${fuzz_targets[@]}"; do
  rm -rf "build/clang-fuzz/seeds-$target"
  fuzz/make_seed_corpus.sh "build/clang-fuzz/seeds-$target" "$target" >/dev/null
  seeds=("build/clang-fuzz/seeds-$target")
  [ -d "fuzz/seeds/$target" ] && seeds+=("fuzz/seeds/$target")
  log="build/clang-fuzz/replay-$target.log"
  if ! "build/clang-fuzz/$target" -runs=0 -timeout=30 -rss_limit_mb=2048 \
    "${seeds[@]}" >"$log" 2>&1; then
    cat "$log"
    echo "error: $target failed on a seed (above)" >&2
    exit 1
  fi
  echo "$target: $(grep -m1 -o 'INITED.*' "$log" || tail -n 1 "$log")"
done

build_and_test release -DCMAKE_BUILD_TYPE=Release -DEMBER_BUILD_FUZZERS=OFF
step "Running the C++ tests: release, on the corpus of iree-compile 3.11"
EMBER_CORPUS_DIR="$EMBER_CORPUS_311_DIR" \
  ctest --test-dir build/release --output-on-failure -j "$jobs"
build_and_test release-switch -DCMAKE_BUILD_TYPE=Release \
  -DEMBER_VM_DISPATCH_SWITCH=ON -DEMBER_BUILD_FUZZERS=OFF

step "Running the Python tests"
"$python" -m pytest -q tests/python
