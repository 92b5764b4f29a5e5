// Private to the bytecode module: its per-context state and the interpreter
// entry point. Not part of the public API.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/vm/bytecode/bytecode_module.h"
#include "runtime/vm/context.h"

namespace ember::vm::bytecode {

struct BytecodeModuleState final : ModuleState {
  // rwdata: the primitive globals, zero-initialised, addressed by byte.
  std::vector<uint8_t> rwdata;
  // The ref globals, addressed by ordinal.
  std::vector<VmRef> ref_globals;
  // Import targets by import ordinal; a null Function when unresolved.
  std::vector<Function> imports;
};

// Runs internal function `ordinal` of `module` with boxed arguments and
// results (layout in module.h). Implemented in interpreter.cc.
Status Execute(Context& context, const BytecodeModule& module,
               BytecodeModuleState& state, uint32_t ordinal,
               std::span<const Variant> arguments, std::span<Variant> results);

}  // namespace ember::vm::bytecode
