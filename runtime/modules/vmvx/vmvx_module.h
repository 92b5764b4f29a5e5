// The `vmvx` native module: the kernels VMVX executables call.
//
// iree-compile's VMVX backend turns each dispatch into a VM bytecode
// function. Plain loops stay bytecode; with --iree-vmvx-enable-microkernels
// (and --iree-opt-data-tiling for matmuls) the compiler replaces linalg ops
// with calls into this module: strided 2-D elementwise kernels
// (`add.2d.f32`, `exp.2d.f32`, ...), `copy.2d.x*`, `fill.2d.x32`, and the
// data-tiling ukernels `mmt4d`, `pack`, `unpack` and `query_tile_sizes.2d`.
// The exports, their names and their exact calling conventions are IREE's
// (module version 0; all 32 of IREE's exports are here; see
// docs/executable-library.md, "VMVX executables"); the kernels are Ember's
// own.
//
// Operands are (buffer, offset, stride0, stride1) in elements of the
// kernel's type, with i64 sizes. Every access is checked before the kernel
// touches memory: offsets, strides and sizes must be non-negative, the
// furthest element must lie inside the buffer (no overflow: the arithmetic
// is done in 128 bits), outputs must be mutable buffers. A bad operand is
// OUT_OF_RANGE / INVALID_ARGUMENT / PERMISSION_DENIED naming the export and
// the operand; nothing is read or written outside a binding. Integer
// division by zero is INVALID_ARGUMENT (as the VM's div.i32), INT32_MIN / -1
// is INT32_MIN, shift counts are taken modulo 32; C leaves all three
// undefined, so IREE's own kernels have no answer to match.
//
// Floating point: add/sub/mul/div/neg/abs/ceil/floor/rsqrt (1/sqrt) are
// correctly rounded IEEE operations and agree with IREE bit for bit; mmt4d
// accumulates each output element in k order, with one fused multiply-add
// per step for the tile shapes IREE's x86-64 AVX2/AVX-512 tile functions
// take and two roundings per step (IREE's generic tile) otherwise, so f32
// matmuls agree bit for bit; exp and log call the C library's expf/logf
// (IREE's do too, so the answer depends on the libm).
//
// Thread safety: the module is immutable; its state (the worker's processor
// id) belongs to one Context.
#pragma once

#include <memory>

#include "runtime/vm/module.h"

namespace ember::modules::vmvx {

// The `vmvx` module (stateless apart from the processor id).
std::shared_ptr<vm::Module> CreateVmvxModule();

}  // namespace ember::modules::vmvx
