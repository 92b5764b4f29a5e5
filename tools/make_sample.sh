#!/usr/bin/env bash
# Regenerates the bundled samples (python/ember/samples/*.vmfb) from their MLIR with
# the current compiler (iree-base-compiler==3.13.0), using the corpus'
# "embedded" flags. Run from anywhere.
set -euo pipefail
cd "$(dirname "$0")/../python/ember/samples"
iree-compile --iree-hal-target-device=local --iree-hal-local-target-device-backends=llvm-cpu --iree-llvmcpu-target-cpu=generic simple_mul.mlir -o simple_mul.vmfb
iree-compile --compile-mode=vm fib.mlir -o fib.vmfb
