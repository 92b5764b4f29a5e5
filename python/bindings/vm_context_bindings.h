// The struct behind VmContext, shared with function_bindings.cc (whose
// invokers call the context directly). The class is bound in
// vm_context_bindings.cc, which also says how the mutex is used.
#pragma once

#include <memory>
#include <mutex>

#include "runtime/vm/context.h"

namespace ember::python {

struct VmContext {
  std::unique_ptr<vm::Context> context;
  // Held (without the GIL) around every call into `context`.
  std::mutex mutex;
  bool is_static = false;
  int id = 0;
};

}  // namespace ember::python
