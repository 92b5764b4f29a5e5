// Python bindings of the VM's values: VmVariantList, VmRef and VmBuffer.
//
// These are the containers that cross the host/VM boundary: a VmVariantList
// carries a call's arguments and results, a VmRef is an owning handle to any
// ref-typed VM object, and a VmBuffer is a vm.buffer whose bytes Python can
// read and write through the buffer protocol. Names, signatures, reprs and
// exception types follow iree.runtime 3.11 (runtime/bindings/python/vm.cc);
// where upstream binds no argument names, arguments are positional only.
//
// The ref protocol. Every Python type that wraps a VM ref object offers
//   obj.ref / obj.__iree_vm_ref__   a new VmRef retaining the object;
//   Cls.__iree_vm_cast__(vm_ref)    a new wrapper, or None for another type;
//   Cls.__iree_vm_type__()          the type as an int: the address of the
//                                   RefType descriptor (IREE returns its
//                                   registered type pointer, so both print
//                                   the same kind of number);
//   obj == other                    same native object (False for others).
// push_ref, get_as_object and VmRef.deref work through this protocol alone,
// so a wrapper defined elsewhere (the HAL's) plugs in without this file
// knowing it.
//
// Ownership: a wrapper holds one reference on its native object, and a list
// holds references on its elements -- never on Python objects -- so pushing
// and reading back create no Python-side cycles. Every wrapper read out of a
// list is a new Python object (as in IREE; `is` does not hold, `==` does).
//
// Thread safety: as in IREE, nothing here releases the GIL and a list has no
// lock of its own. Separate lists may be used from separate threads; one list
// shared between threads needs the caller's synchronisation on free-threaded
// Python.
#include "python/bindings/vm_value_bindings.h"

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <unordered_set>

#include "python/bindings/status_utils.h"
#include "runtime/base/ref_counted.h"
#include "runtime/hal/buffer_view.h"
#include "runtime/hal/semaphore.h"
#include "runtime/modules/hal/hal_module.h"
#include "runtime/vm/buffer.h"
#include "runtime/vm/list.h"
#include "runtime/vm/ref.h"
#include "runtime/vm/value.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace ember::python {
namespace {

// Lists nested deeper than this print as "List[...]" in a repr, so a hostile
// chain of lists cannot overflow the stack of the printer.
constexpr int kMaxReprDepth = 256;

std::string HexAddress(const void* pointer) {
  char text[32];
  std::snprintf(text, sizeof(text), "0x%" PRIxPTR,
                reinterpret_cast<uintptr_t>(pointer));
  return text;
}

// Upstream takes list indices as a C `int` and converts them to the list's
// unsigned size type, so a negative index is simply out of range.
size_t ListIndex(int index) {
  return static_cast<size_t>(static_cast<int64_t>(index));
}

// The VmRef behind any object with the ref protocol. The AttributeError of
// an object without one propagates unchanged, as in IREE; an attribute that
// is not a VmRef is a RuntimeError there too (a failed cast), but with a
// message that says what went wrong.
vm::VmRef RefOf(nb::handle object) {
  nb::object ref_object = object.attr(kRefAttr);
  PyVmRef* ref = nullptr;
  if (!nb::try_cast<PyVmRef*>(ref_object, ref) || !ref) {
    std::string message = "__iree_vm_ref__ of a ";
    message += nb::type_name(object.type()).c_str();
    message += " object is a ";
    message += nb::type_name(ref_object.type()).c_str();
    message += ", not a VmRef";
    throw std::runtime_error(message);
  }
  return ref->ref;
}

// IREE prints values with std::to_string, so floats print as "%f".
std::string ValueToString(const vm::Value& value) {
  switch (value.type()) {
    case vm::ValueType::kI8: return std::to_string(value.i8());
    case vm::ValueType::kI16: return std::to_string(value.i16());
    case vm::ValueType::kI32: return std::to_string(value.i32());
    case vm::ValueType::kI64: return std::to_string(value.i64());
    case vm::ValueType::kF32: return std::to_string(value.f32());
    case vm::ValueType::kF64: return std::to_string(value.f64());
    case vm::ValueType::kNone: break;
  }
  throw nb::value_error("Unsupported VM value type to string");
}

// IREE's list printer, quirks included: `visited` only ever grows, so a
// sub-list met a second time prints as circular even when it is merely
// shared; an element that cannot be read prints "Error" with no separator.
void AppendListContents(std::string& out, const vm::List& list,
                        std::unordered_set<const vm::List*>& visited,
                        int depth) {
  for (size_t i = 0, e = list.size(); i < e; ++i) {
    Result<vm::Variant> element = list.GetVariant(i);
    if (!element.ok()) {
      out += "Error";
      continue;
    }
    if (i > 0) out += ", ";
    const vm::Variant& variant = element.value();
    if (variant.is_value()) {
      out += ValueToString(variant.value());
    } else if (variant.is_ref()) {
      const vm::VmRef& ref = variant.ref();
      if (const vm::List* sub_list = ref.As<vm::List>()) {
        out += "List[";
        if (depth >= kMaxReprDepth) {
          out += "...";
        } else if (visited.insert(sub_list).second) {
          AppendListContents(out, *sub_list, visited, depth + 1);
        } else {
          out += "...circular...";
        }
        out += "]";
      } else if (const hal::Buffer* buffer = ref.As<hal::Buffer>()) {
        out += "HalBuffer(" + std::to_string(buffer->byte_length()) + ")";
      } else if (const hal::BufferView* view = ref.As<hal::BufferView>()) {
        out += "HalBufferView(";
        for (size_t d = 0; d < view->shape().size(); ++d) {
          if (d > 0) out += 'x';
          out += std::to_string(view->shape()[d]);
        }
        out +=
            ":0x" + ReprHex(static_cast<uint32_t>(view->element_type())) + ")";
      } else if (const hal::Fence* fence = ref.As<hal::Fence>()) {
        out += "fence(" + std::to_string(fence->size()) + ")";
      } else {
        out += "Unknown(" + std::to_string(TypeKey(ref.type())) + ")";
      }
    } else {
      out += "None";
    }
  }
}

}  // namespace

nb::object WrapRef(vm::VmRef ref) {
  return nb::cast(PyVmRef{std::move(ref)}, nb::rv_policy::move);
}

nb::object ValueToPython(const vm::Value& value) {
  switch (value.type()) {
    case vm::ValueType::kI8: return nb::int_(value.i8());
    case vm::ValueType::kI16: return nb::int_(value.i16());
    case vm::ValueType::kI32: return nb::int_(value.i32());
    case vm::ValueType::kI64: return nb::int_(value.i64());
    case vm::ValueType::kF32:
      return nb::float_(static_cast<double>(value.f32()));
    case vm::ValueType::kF64: return nb::float_(value.f64());
    case vm::ValueType::kNone: break;
  }
  throw nb::value_error("Unsupported VM value type conversion");
}

std::string ReprHex(uint32_t value) {
  char hex[9];
  std::snprintf(hex, sizeof(hex), "%02x%02x%02x%02x", value & 0xFF,
                (value >> 8) & 0xFF, (value >> 16) & 0xFF, value >> 24);
  return hex;
}

namespace {

std::string ListRepr(const PyVmVariantList& self) {
  std::string repr =
      "<VmVariantList(" + std::to_string(self.list->size()) + "): [";
  std::unordered_set<const vm::List*> visited;
  visited.insert(self.list.get());
  AppendListContents(repr, *self.list, visited, 0);
  repr += "]>";
  return repr;
}

vm::Variant GetVariantOrThrow(const PyVmVariantList& self, int index) {
  return Unwrap(self.list->GetVariant(ListIndex(index)),
                "Could not access list element");
}

nb::object GetVariant(const PyVmVariantList& self, int index) {
  vm::Variant variant = GetVariantOrThrow(self, index);
  if (variant.is_value()) return ValueToPython(variant.value());
  if (variant.is_ref()) return WrapRef(variant.TakeRef());
  return nb::none();
}

nb::object GetAsRef(const PyVmVariantList& self, int index) {
  vm::Variant variant = GetVariantOrThrow(self, index);
  if (!variant.is_ref()) throw nb::value_error("list element is not a ref");
  return WrapRef(variant.TakeRef());
}

nb::object GetAsList(const PyVmVariantList& self, int index) {
  vm::VmRef ref = Unwrap(self.list->GetRef(ListIndex(index)),
                         "Could not access list element");
  Ref<vm::List> sub_list = ref.RetainAs<vm::List>();
  if (!sub_list) {
    throw nb::value_error(
        "Could not deref list (wrong type?): element is not a vm.list");
  }
  return nb::cast(PyVmVariantList{std::move(sub_list)}, nb::rv_policy::move);
}

nb::object SerializedTraceValue(const vm::List& list, size_t index, int depth) {
  vm::Variant variant =
      Unwrap(list.GetVariant(index), "Could not access list element");
  nb::dict record;
  if (variant.is_empty()) {
    record["type"] = "null";
    return record;
  }
  if (variant.is_value()) {
    const vm::Value& value = variant.value();
    record[nb::str(std::string(vm::ValueTypeName(value.type())).c_str())] =
        ValueToPython(value);
    record["type"] = "value";
    return record;
  }
  if (const vm::List* sub_list = variant.ref().As<vm::List>()) {
    if (depth >= kMaxReprDepth) {
      throw nb::value_error("list nesting too deep to serialize");
    }
    record["type"] = "vm.list";
    nb::list items;
    for (size_t i = 0, e = sub_list->size(); i < e; ++i) {
      items.append(SerializedTraceValue(*sub_list, i, depth + 1));
    }
    record["items"] = std::move(items);
    return record;
  }
  throw nb::value_error("Unsupported VM to Python Type Conversion");
}

// Binds the ref protocol (see the top of this file) on a wrapper class whose
// struct holds its object as `Ref<T> member`.

// Py_bf_getbuffer of VmBuffer: one-dimensional unsigned bytes over the
// buffer's own storage, read-only unless the buffer is mutable. The view
// holds the VmBuffer object (and so the buffer) until it is released.
int VmBufferGetBuffer(PyObject* exporter, Py_buffer* view, int flags) {
  if (!nb::inst_ready(exporter)) {
    view->obj = nullptr;
    PyErr_SetString(PyExc_BufferError, "VmBuffer is not initialized");
    return -1;
  }
  vm::Buffer& buffer = *nb::inst_ptr<PyVmBuffer>(exporter)->buffer;
  void* data;
  bool readonly = !buffer.is_mutable();
  if (readonly) {
    data = const_cast<uint8_t*>(buffer.bytes().data());
  } else {
    Result<std::span<uint8_t>> bytes = buffer.MapMutable(0, buffer.length());
    if (!bytes.ok()) {
      view->obj = nullptr;
      PyErr_SetString(PyExc_BufferError, bytes.status().ToString().c_str());
      return -1;
    }
    data = bytes.value().data();
  }
  // Allocation limits keep every length far below PY_SSIZE_T_MAX.
  return PyBuffer_FillInfo(view, exporter, data,
                           static_cast<Py_ssize_t>(buffer.length()),
                           readonly ? 1 : 0, flags);
}

PyType_Slot vm_buffer_slots[] = {
    {Py_bf_getbuffer, reinterpret_cast<void*>(&VmBufferGetBuffer)},
    {0, nullptr},
};

}  // namespace

void BindVmValues(nb::module_& m) {
  nb::class_<PyVmRef>(
      m, "VmRef",
      "An owning handle to any ref-typed VM object (a list, a buffer, a "
      "buffer view, a fence...), as VmVariantList.get_as_ref returns it; "
      "deref turns it into the object's own class. Equal to another VmRef "
      "to the same object.")
      .def(
          "isinstance",
          [](const PyVmRef& self, nb::handle ref_type) {
            uint64_t key = nb::cast<uint64_t>(ref_type.attr(kTypeAttr)());
            return key == TypeKey(self.ref.type());
          },
          "Whether the object is of the type of `ref_type`, a class with "
          "the ref protocol (e.g. HalBufferView).")
      .def(
          "deref",
          [](nb::handle self, nb::handle value, bool optional) {
            nb::object cast = value.attr(kCastAttr)(self);
            if (!optional && cast.is_none()) {
              throw nb::type_error("Cannot dereference to specific type");
            }
            return cast;
          },
          "value"_a, "optional"_a = false,
          "The object as an instance of the class `value` (e.g. "
          "HalBufferView); for an object of another type, None when "
          "`optional`, else TypeError.")
      .def("__repr__",
           [](const PyVmRef& self) {
             if (self.ref.is_null()) return std::string("<VmRef NULL>");
             return "<VmRef " + std::string(self.ref.type()->name()) + " at " +
                    HexAddress(self.ref.get()) + ">";
           })
      .def_prop_ro(kRefAttr, [](nb::handle self) { return self; })
      .def("__eq__", [](const PyVmRef& self,
                        const PyVmRef& other) { return self.ref == other.ref; })
      .def("__eq__", [](const PyVmRef&, nb::handle) { return false; });

  auto vm_buffer =
      nb::class_<PyVmBuffer>(m, "VmBuffer", nb::type_slots(vm_buffer_slots),
                             "A VM byte buffer (vm.buffer) that Python reads "
                             "and writes through the buffer protocol "
                             "(memoryview, numpy.frombuffer): "
                             "VmBuffer(length, alignment=0, mutable=True) "
                             "allocates one; an immutable one exports "
                             "read-only.");
  BindRefProtocol(vm_buffer, &PyVmBuffer::buffer);
  vm_buffer
      .def(
          "__init__",
          [](PyVmBuffer* self, size_t length, size_t alignment,
             bool is_mutable) {
            vm::BufferAccess access = vm::BufferAccess::kOriginHost;
            if (is_mutable) access = access | vm::BufferAccess::kMutable;
            Ref<vm::Buffer> buffer =
                Unwrap(vm::Buffer::Allocate(length, alignment, access),
                       "Error creating buffer");
            new (self) PyVmBuffer{std::move(buffer)};
          },
          "length"_a, "alignment"_a = 0, "mutable"_a = true)
      .def("__repr__", [](const PyVmBuffer& self) {
        return "<VmBuffer size " + std::to_string(self.buffer->length()) +
               " at " + HexAddress(self.buffer->bytes().data()) + ">";
      });

  auto vm_list = nb::class_<PyVmVariantList>(
      m, "VmVariantList",
      "A list of VM values (ints, floats) and refs: the arguments and results "
      "of VmContext.invoke. VmVariantList(capacity) makes an empty list that "
      "grows as needed. Indices out of range raise IndexError.");
  BindRefProtocol(vm_list, &PyVmVariantList::list);
  vm_list
      .def(
          "__init__",
          [](PyVmVariantList* self, size_t capacity) {
            Ref<vm::List> list =
                Unwrap(vm::List::Create(vm::TypeDef::Any(), capacity),
                       "Error allocating variant list");
            new (self) PyVmVariantList{std::move(list)};
          },
          "capacity"_a)
      .def_prop_ro(
          "size", [](const PyVmVariantList& self) { return self.list->size(); },
          "The number of elements (as len()).")
      .def("__len__",
           [](const PyVmVariantList& self) { return self.list->size(); })
      .def("get_as_ref", &GetAsRef,
           "The ref at `index` as a VmRef; ValueError when the element is not "
           "a ref.")
      .def(
          "get_as_object",
          [](const PyVmVariantList& self, int index, nb::handle clazz) {
            nb::object ref = GetAsRef(self, index);
            return clazz.attr(kCastAttr)(ref);
          },
          "The ref at `index` as an instance of the class `clazz` (e.g. "
          "HalBufferView), or None when it is of another type; ValueError "
          "when the element is not a ref.")
      .def("get_as_list", &GetAsList,
           "The list at `index` as a VmVariantList sharing it (not a copy); "
           "ValueError when the element is not a list.")
      .def("get_variant", &GetVariant,
           "The element at `index`: an int or a float for a value, a VmRef "
           "for a ref, None for an empty element.")
      .def(
          "get_serialized_trace_value",
          [](const PyVmVariantList& self, int index) {
            return SerializedTraceValue(*self.list, ListIndex(index), 0);
          },
          "The element at `index` as a dict for trace output: {'type': "
          "'value', 'i32': 1} for a value, {'type': 'vm.list', 'items': "
          "[...]} for a list, {'type': 'null'} for an empty element; "
          "ValueError for other refs.")
      .def(
          "push_float",
          [](PyVmVariantList& self, double value) {
            // Python floats are f64.
            CheckStatus(self.list->PushValue(vm::Value::F64(value)),
                        "Could not push float");
          },
          "Appends `value` as an f64.")
      .def(
          "push_int",
          [](PyVmVariantList& self, int64_t value) {
            // Python ints are unbounded; i64 is the widest VM integer.
            CheckStatus(self.list->PushValue(vm::Value::I64(value)),
                        "Could not push int");
          },
          "Appends `value` as an i64 (an i32 argument of invoke takes its "
          "low 32 bits).")
      .def(
          "push_list",
          [](PyVmVariantList& self, const PyVmVariantList& other) {
            CheckStatus(self.list->PushRef(vm::VmRef::Of(other.list)),
                        "Error appending to list");
          },
          "Appends a ref to the list `other`, which is shared, not copied.")
      .def(
          "push_ref",
          [](PyVmVariantList& self, nb::handle ref_or_object) {
            vm::VmRef ref = RefOf(ref_or_object);
            CheckStatus(self.list->PushRef(std::move(ref)),
                        "Failed to push ref");
          },
          "Appends a VmRef, or the ref of an object with the ref protocol "
          "(HalBufferView, HalFence, VmBuffer...), retaining the object.")
      .def("__repr__", &ListRepr);
}

}  // namespace ember::python
