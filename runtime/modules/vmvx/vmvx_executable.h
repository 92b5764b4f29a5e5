// VMVX executables: dispatches as VM bytecode, run on the CPU devices.
//
// iree-compile's VMVX backend (`--iree-hal-local-target-device-backends=
// vmvx`) emits each executable as a bytecode module in the format
// "vmvx-bytecode-fb": one exported function per dispatch entry point, in
// the executable's export order, which may import the `vmvx` kernels
// (vmvx_module.h). The loader verifies that module like any other (the
// bytecode verifier of runtime/vm/bytecode: the data is hostile) and checks
// IREE's entry-point ABI (docs/executable-library.md, "VMVX executables"):
// every export has the calling convention "0rrriiiiiiiii_v" and is called,
// once per workgroup, with
//   (local_memory: vm.buffer (mutable), constants: vm.buffer (read-only,
//    the dispatch's i32 push constants), bindings: vm.list<vm.buffer> (one
//    mutable buffer per binding, exactly its bound range),
//    workgroup_id x, y, z, workgroup_size x, y, z (1, as the VM's
//    dispatches carry none), workgroup_count x, y, z).
// Each export's reflection attributes give its `binding_count`,
// `constant_count` and `local_memory` (bytes), absent meaning 0, which
// every dispatch is checked against; export_info(i).name is the export's
// function name, what `hal.executable.lookup.function` looks up.
// Executable-level constants are refused, as IREE's loader refuses them
// for modules without `__set_constants` (whose cconv cannot pass the
// entry-point check, so no VMVX module has one).
//
// Threads. A vm::Context is used by one thread at a time and holds the
// module's mutable state, so each worker running workgroups takes a
// context of its own from the executable's pool (made on first need,
// returned after its range of workgroups: one lock per range, not per
// workgroup). The bindings are wrapped as vm.buffers once per range; they
// and the bindings list are refilled before every workgroup, so a
// workgroup that rewrote the list cannot affect the next. A module that
// keeps a dispatch buffer after its range (in a global) would later reach
// memory the dispatch no longer owns: the wrappers report their release,
// and a context that still holds one when the range ends is destroyed and
// the dispatch fails.
//
// Thread safety: as LocalExecutable (local_executable.h).
#pragma once

#include <memory>
#include <span>
#include <string_view>

#include "runtime/base/ref_counted.h"
#include "runtime/base/status.h"
#include "runtime/hal/cpu/local_executable.h"

namespace ember::modules::vmvx {

// The executable format VMVX executables carry.
inline constexpr std::string_view kVmvxFormat = "vmvx-bytecode-fb";

// Loads "vmvx-bytecode-fb" executables; owns a VM instance and the `vmvx`
// module that all of its executables share.
Ref<ember::hal::cpu::ExecutableLoader> CreateVmvxExecutableLoader();

// One loader for the whole process (made on first use): what the tools and
// the Python bindings hand to their CPU devices.
const Ref<ember::hal::cpu::ExecutableLoader>& SharedVmvxExecutableLoader();

}  // namespace ember::modules::vmvx
