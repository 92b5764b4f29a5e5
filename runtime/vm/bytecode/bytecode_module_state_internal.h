// Private to the bytecode module: its per-context state and the interpreter
// entry point. Not part of the public API.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/vm/bytecode/bytecode_module.h"
#include "runtime/vm/context.h"

namespace ember::vm::bytecode {

// The interpreter's frames and boxing space, kept between invocations so
// that a call does not allocate its register files again (the layout is
// interpreter.cc's).
struct InterpreterStack;
struct InterpreterStackDeleter {
  void operator()(InterpreterStack* stack) const;
};

struct BytecodeModuleState final : ModuleState {
  // rwdata: the primitive globals, zero-initialised, addressed by byte.
  std::vector<uint8_t> rwdata;
  // The ref globals, addressed by ordinal.
  std::vector<VmRef> ref_globals;
  // Import targets by import ordinal; a null Function when unresolved.
  std::vector<Function> imports;
  // Per import, found on its first register call: the callee's state and
  // the function that serves the call (none: through CallWithRegisters).
  struct ImportTarget {
    ModuleState* state = nullptr;
    Module::RegisterCallTarget direct;
  };
  std::vector<ImportTarget> import_targets;
  // The stack of the last invocation, for the next; null while one runs (a
  // nested invocation then makes its own).
  std::unique_ptr<InterpreterStack, InterpreterStackDeleter> spare_stack;
};

// Runs internal function `ordinal` of `module` with boxed arguments and
// results (layout in module.h). `movable`, when not null, is `arguments`
// itself, whose refs may be moved into the entry frame. Implemented in
// interpreter.cc.
Status Execute(Context& context, const BytecodeModule& module,
               BytecodeModuleState& state, uint32_t ordinal,
               std::span<const Variant> arguments, std::span<Variant> results,
               Variant* movable = nullptr);

}  // namespace ember::vm::bytecode
