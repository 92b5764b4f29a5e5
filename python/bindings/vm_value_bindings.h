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

#include <nanobind/nanobind.h>

#include <cstdint>
#include <string>

#include "runtime/base/ref_counted.h"
#include "runtime/vm/buffer.h"
#include "runtime/vm/list.h"
#include "runtime/vm/ref.h"
#include "runtime/vm/value.h"

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

// The ref protocol (see vm_value_bindings.cc): every wrapper of a VM ref
// object gets it through BindRefProtocol.
inline constexpr const char* kRefAttr = "__iree_vm_ref__";
inline constexpr const char* kCastAttr = "__iree_vm_cast__";
inline constexpr const char* kTypeAttr = "__iree_vm_type__";

// The value of `__iree_vm_type__()` for a ref type.
inline uint64_t TypeKey(const vm::RefType* type) {
  return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(type));
}

// Gives `cls` (wrapping `Ref<T>` in `member`) the ref protocol. T's RefType
// comes from RefTypeTraits, so wrappers of types the VM does not own (the
// HAL's) work too.
template <typename Wrapper, typename T, typename Class>
void BindRefProtocol(Class& cls, Ref<T> Wrapper::*member) {
  cls.def_static(kTypeAttr,
                 []() { return TypeKey(&vm::RefTypeTraits<T>::type()); });
  auto make_ref = [member](const Wrapper& self) {
    return PyVmRef{vm::VmRef::Of(self.*member)};
  };
  cls.def_prop_ro(kRefAttr, make_ref);
  cls.def_prop_ro("ref", make_ref,
                  "A new VmRef retaining this object (what "
                  "VmVariantList.push_ref stores).");
  cls.def_static(kCastAttr, [](const PyVmRef& ref) -> nanobind::object {
    Ref<T> object = ref.ref.template RetainAs<T>();
    if (!object) return nanobind::none();
    return nanobind::cast(Wrapper{std::move(object)},
                          nanobind::rv_policy::move);
  });
  cls.def("__eq__", [member](const Wrapper& self, const Wrapper& other) {
    return (self.*member).get() == (other.*member).get();
  });
  cls.def("__eq__", [](const Wrapper&, nanobind::handle) { return false; });
}

// A ref as a Python VmRef (which owns it).
nanobind::object WrapRef(vm::VmRef ref);

// A VM value as a Python int or float (i32/i64 and f32/f64 alike).
nanobind::object ValueToPython(const vm::Value& value);

// A 32-bit value (an element type) as iree.runtime's reprs write it: its
// bytes in memory order, two lowercase hex digits each.
std::string ReprHex(uint32_t value);

}  // namespace ember::python
