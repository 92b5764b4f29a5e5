// The struct behind VmContext, shared with function_bindings.cc (whose
// invokers call the context directly). The class is bound in
// vm_context_bindings.cc, which also says how the mutex is used.
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "python/bindings/vm_bindings.h"
#include "runtime/base/status.h"
#include "runtime/vm/calling_convention.h"
#include "runtime/vm/context.h"
#include "runtime/vm/list.h"

namespace ember::python {

struct VmContext {
  std::unique_ptr<vm::Context> context;
  // Held (without the GIL) around every call into `context`.
  std::mutex mutex;
  bool is_static = false;
  int id = 0;
};

// The parsed cconv of export `function`; INVALID_ARGUMENT for another
// linkage ("only exported functions can be <verb>").
Result<vm::CallingConvention> ExportCallingConvention(
    const VmFunction& function, const char* verb);

// Reads a value argument of `type` at `index` of `inputs`.
using ScalarReader = Result<vm::Value> (*)(const vm::List& inputs, size_t index,
                                           vm::ValueType type);

// Reads a call's arguments out of `inputs` as the function's cconv `types`
// says (see vm_context_bindings.cc): refs as they are, values through
// `read_scalar` (null: the list's own conversion, as IREE's invocation).
// `verb` completes messages ("invoked", "benchmarked").
Status MarshalArguments(const vm::CconvSide& types, const vm::List& inputs,
                        std::vector<vm::Variant>& arguments, const char* verb,
                        ScalarReader read_scalar = nullptr);

}  // namespace ember::python
