// The structs behind VmInstance, VmModule and VmFunction, shared by the
// binding files that need them (the context links VmModules and invokes
// VmFunctions). The classes are bound in vm_bindings.cc.
//
// A VmModule is a vm::Module: the compiled bytecode loaded from a file is one
// kind, a native module (the hal module, one defined in Python) another. The
// descriptive API (name, version, function_names, lookup_function,
// reflection) and linking in a VmContext use only the vm::Module interface.
// What only a bytecode module has -- its file, the buffer it was loaded from,
// its dump -- is reached by asking the module for that kind.
//
// Loading a bytecode module (copy_buffer, mmap, ...) parses and verifies the
// file and makes the vm::bytecode::BytecodeModule against the instance's type
// registry, all without the GIL, as iree.runtime does. A VmInstance has the
// `hal` module's ref types registered (runtime/modules/hal), so a program
// compiled for a device loads; linking it needs a `hal` module in the
// context.
#pragma once

#include <nanobind/nanobind.h>

#include <cstdint>
#include <memory>

#include "runtime/base/status.h"
#include "runtime/vm/bytecode/bytecode_module.h"
#include "runtime/vm/instance.h"
#include "runtime/vm/module.h"

namespace ember::python {

namespace bytecode = vm::bytecode;

// Function linkage, numbered as iree.runtime's Linkage.
enum class Linkage : int {
  kInternal = 0,
  kImport = 1,
  kExport = 2,
  kImportOptional = 3,
  kExportOptional = 4,
};

// VmInstance: owns the vm::Instance (frozen at creation, after the hal.*
// types are registered).
struct VmInstance {
  std::shared_ptr<vm::Instance> instance;
};

// Shared by every copy of one VmModule and by its VmFunctions. Immutable.
struct VmModule {
  std::shared_ptr<vm::Module> module;
  // What stashed_flatbuffer_blob returns: for a bytecode module, the caller's
  // object for wrapped buffers or a read-only view of Ember's own copy or
  // mapping; None for other kinds.
  nanobind::object blob;
  // What the VmFunctions looked up on this module hold, when that is not
  // `module` itself. A Python-defined module (py_module_bindings.cc) gives
  // its functions the module's core, so that they keep its names and
  // cconvs readable without keeping its Python objects alive: as in
  // iree.runtime, the module is destroyed -- its ctor and callables
  // released -- once no VmModule and no context holds it.
  std::shared_ptr<vm::Module> function_owner;

  const std::shared_ptr<vm::Module>& owner_for_functions() const {
    return function_owner ? function_owner : module;
  }

  // The module as a bytecode module, or null for another kind.
  const vm::bytecode::BytecodeModule* bytecode() const {
    return dynamic_cast<const vm::bytecode::BytecodeModule*>(module.get());
  }
};

// An export (linkage kExport / kExportOptional, ordinal into the module's
// exports) or an import (kImport / kImportOptional, ordinal into its
// imports) of a module.
struct VmFunction {
  std::shared_ptr<vm::Module> module;
  Linkage linkage;
  uint32_t ordinal;
};

}  // namespace ember::python
