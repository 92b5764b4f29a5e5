// The structs behind VmInstance, VmModule and VmFunction, shared by the
// binding files that need them (the context links VmModules and invokes
// VmFunctions). The classes are bound in vm_bindings.cc.
//
// A VmModule is loaded in two steps. Loading (copy_buffer, mmap, ...) parses
// and verifies the file, which is all that the descriptive API (name,
// function_names, lookup_function, reflection) needs. The executable
// vm::bytecode::BytecodeModule -- the type table resolved against the
// instance's registry, every function's bytecode verified -- is made the first
// time a context links the module, and then shared by every context and every
// VmFunction of that module. Deferring it keeps loading a module whose
// types the instance does not know (a HAL program before the HAL layer
// exists) a success, as before; the error comes where the module is used.
#pragma once

#include <nanobind/nanobind.h>

#include <cstdint>
#include <memory>
#include <mutex>

#include "runtime/base/status.h"
#include "runtime/vm/bytecode/bytecode_module.h"
#include "runtime/vm/bytecode/module_file.h"
#include "runtime/vm/instance.h"

namespace ember::python {

// Function linkage, numbered as iree.runtime's Linkage.
enum class Linkage : int {
  kInternal = 0,
  kImport = 1,
  kExport = 2,
  kImportOptional = 3,
  kExportOptional = 4,
};

// VmInstance: owns the vm::Instance (frozen at creation: Ember has no ref
// types beyond the builtin ones to register yet).
struct VmInstance {
  std::shared_ptr<vm::Instance> instance;
};

// What every copy of one loaded module shares: the verified file, the
// instance it was loaded with, and the executable module once made.
//
// Thread safety: `file` and `instance` are immutable; `executable` is
// guarded by `mutex` (taken without the GIL, see Executable()).
class LoadedModule {
 public:
  LoadedModule(std::shared_ptr<const vm::Instance> instance,
               std::shared_ptr<const bytecode::ModuleFile> file)
      : instance_(std::move(instance)), file_(std::move(file)) {}

  const std::shared_ptr<const bytecode::ModuleFile>& file() const {
    return file_;
  }

  // The executable module, made on the first call. Must be called WITHOUT
  // the GIL: making it verifies every function, which may take a while. A
  // failure is not cached; the next call tries again.
  Result<std::shared_ptr<vm::bytecode::BytecodeModule>> Executable();

  // The executable module if one was made, else null (no locking order
  // issues: takes only the mutex, briefly).
  std::shared_ptr<vm::bytecode::BytecodeModule> ExecutableIfMade();

 private:
  std::shared_ptr<const vm::Instance> instance_;
  std::shared_ptr<const bytecode::ModuleFile> file_;
  std::mutex mutex_;
  std::shared_ptr<vm::bytecode::BytecodeModule> executable_;
};

struct VmModule {
  std::shared_ptr<LoadedModule> loaded;
  // What stashed_flatbuffer_blob returns: the caller's object for wrapped
  // buffers, or a read-only view of Ember's own copy or mapping.
  nanobind::object blob;

  const bytecode::ModuleFile& file() const { return *loaded->file(); }
};

struct VmFunction {
  std::shared_ptr<LoadedModule> loaded;
  Linkage linkage;
  uint32_t ordinal;

  const bytecode::ModuleFile& file() const { return *loaded->file(); }
};

}  // namespace ember::python
