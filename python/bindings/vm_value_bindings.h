// The wrapper structs behind VmRef, VmVariantList and VmBuffer, shared by the
// binding files that pass them across the host/VM boundary (the context's
// invoke reads and fills VmVariantLists). The classes themselves are bound
// in vm_value_bindings.cc, whose header comment explains the ref protocol and
// the ownership rules.
//
// Each struct holds exactly one owning reference on its native object and
// nothing Python-side, so a wrapper can be copied, moved and destroyed
// without the GIL.
#pragma once

#include "runtime/base/ref_counted.h"
#include "runtime/vm/buffer.h"
#include "runtime/vm/list.h"
#include "runtime/vm/ref.h"

namespace ember::python {

// VmRef: an owning handle to a ref object of any registered type.
struct PyVmRef {
  vm::VmRef ref;
};

// VmVariantList: a vm.list (usually of element type Any).
struct PyVmVariantList {
  Ref<vm::List> list;
};

// VmBuffer: a vm.buffer with the Python buffer protocol.
struct PyVmBuffer {
  Ref<vm::Buffer> buffer;
};

}  // namespace ember::python
