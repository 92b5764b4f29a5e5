// The native call path of ember.runtime: the base classes of
// `FunctionInvoker` and `DeviceArray` (python/ember/runtime/function.py and
// array_interop.py add the rest of their Python API).
//
// Calling `module.main(x)` is a call of a `NativeInvoker` instance (its
// type's tp_call), and everything from there to the returned DeviceArray
// happens here without creating a Python object of our own besides the
// results:
//
// 1. Arguments are converted by the plan made once per function (the
//    export's cconv): ints and floats become VM values of the cconv's type
//    (i64/f64 first, then converted as a VM list would: IREE's rules);
//    `HalBufferView`s and `DeviceArray`s pass their buffer view. A host
//    array with the buffer protocol (numpy, or anything else that exports
//    one) becomes a buffer view:
//    copied once, always (as iree.runtime does): compiled code may update an
//    argument's buffer in place (IREE elides the copy before an in-place
//    update of a value with one use, e.g. a tensor.insert_slice into an
//    argument; docs/serving.md "Inputs from Ray's object store"), so an
//    imported array could come back changed. Zero-copy inputs are explicit:
//    DeviceArrays, HalBufferViews, DLPack imports and
//    HalAllocator.import_host_allocation, whose memory the program may
//    write as IREE's own tools allow.
//    Everything else (lists, tuples, dicts, objects with only `__array__`
//    or `__dlpack__`, dtypes without a buffer format such as bfloat16) goes
//    through the Python helpers the runtime package registers, so both
//    paths accept exactly the same arguments.
// 2. The GIL is released and the context's mutex taken (see
//    vm_context_bindings.cc); the export runs. Functions of the
//    coarse-fences model get a wait fence (empty) and a signal fence, and
//    the call waits for the signal, still without the GIL.
// 3. Results: values become ints and floats, buffer views new DeviceArrays
//    (made directly, not through Python's `__init__`), other refs VmRefs. A
//    result never aliases the caller's host arrays, since they were copied.
//
// `DeviceArray.__array__` / `to_host()` map a host-visible result once and
// return a numpy array over the mapping (no copy) that keeps the buffer
// alive through a small exporter object; the DeviceArray keeps that array.
//
// Functions with `iree.abi` reflection, and invokers made over stand-in
// contexts (IREE's tests use Python mocks), use the Python implementation
// (`FunctionInvoker._call_python`), to which tp_call forwards.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "python/bindings/hal_bindings.h"
#include "python/bindings/python_owner.h"
#include "python/bindings/status_utils.h"
#include "python/bindings/vm_bindings.h"
#include "python/bindings/vm_context_bindings.h"
#include "python/bindings/vm_value_bindings.h"
#include "runtime/base/small_vector.h"
#include "runtime/hal/allocator.h"
#include "runtime/hal/element_type.h"
#include "runtime/modules/hal/hal_module.h"
#include "runtime/vm/calling_convention.h"
#include "runtime/vm/list.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace ember::python {
namespace {

// -- errors ------------------------------------------------------------------

[[noreturn]] void Raise(PyObject* type, const std::string& message) {
  PyErr_SetString(type, message.c_str());
  throw nb::python_error();
}

// -- what the runtime package registers --------------------------------------

struct Hooks {
  // ember.runtime.DeviceArray: the native class, or a Python subclass.
  PyTypeObject* device_array_type = nullptr;
  nb::object numpy_asarray;   // numpy.asarray
  nb::dict element_to_dtype;  // int(element type) -> dtype
  // Called with int(element type) on a miss in element_to_dtype (the
  // ml_dtypes types are added on first need); None: no fallback.
  nb::object dtype_fallback;
  nb::object array_argument;     // (device, value, name, path) -> HalBufferView
  nb::object sequence_argument;  // (device, value, name, path) -> VmVariantList
};

// Set once on import of ember.runtime, dropped at exit (atexit), so that no
// reference to a Python type outlives the interpreter.
Hooks* hooks = nullptr;

Hooks& GetHooks() {
  if (hooks == nullptr) {
    Raise(PyExc_RuntimeError,
          "ember.runtime is not initialised (import ember.runtime first)");
  }
  return *hooks;
}

// -- element types and buffer formats ----------------------------------------

// The element type of a PEP 3118 format numpy exports for a native-order
// scalar, or kNone.
h::ElementType ElementTypeOfFormat(const char* format) {
  if (format == nullptr) return h::ElementType::kUint8;  // plain bytes
  if (*format == '@' || *format == '=' || *format == '<') ++format;
  if (format[0] == '\0') return h::ElementType::kNone;
  if (format[1] == '\0') {
    switch (format[0]) {
      case 'f': return h::ElementType::kFloat32;
      case 'd': return h::ElementType::kFloat64;
      case 'e': return h::ElementType::kFloat16;
      case 'b': return h::ElementType::kSint8;
      case 'B': return h::ElementType::kUint8;
      case 'h': return h::ElementType::kSint16;
      case 'H': return h::ElementType::kUint16;
      case 'i': return h::ElementType::kSint32;
      case 'I': return h::ElementType::kUint32;
      case 'l':
        return sizeof(long) == 8 ? h::ElementType::kSint64
                                 : h::ElementType::kSint32;
      case 'L':
        return sizeof(long) == 8 ? h::ElementType::kUint64
                                 : h::ElementType::kUint32;
      case 'q': return h::ElementType::kSint64;
      case 'Q': return h::ElementType::kUint64;
      case '?': return h::ElementType::kBool8;
      default: return h::ElementType::kNone;
    }
  }
  if (format[0] == 'Z' && format[2] == '\0') {
    if (format[1] == 'f') return h::ElementType::kComplexFloat64;
    if (format[1] == 'd') return h::ElementType::kComplexFloat128;
  }
  return h::ElementType::kNone;
}

// The buffer format numpy reads back as the dtype ember.runtime maps the
// element type to (array_interop.py), or null for types without one.
const char* FormatOfElementType(h::ElementType type) {
  switch (type) {
    case h::ElementType::kFloat32: return "f";
    case h::ElementType::kFloat64: return "d";
    case h::ElementType::kFloat16: return "e";
    case h::ElementType::kSint8:
    case h::ElementType::kInt8:
    case h::ElementType::kOpaque8: return "b";
    case h::ElementType::kUint8: return "B";
    case h::ElementType::kSint16:
    case h::ElementType::kInt16:
    case h::ElementType::kOpaque16: return "h";
    case h::ElementType::kUint16: return "H";
    case h::ElementType::kSint32:
    case h::ElementType::kInt32:
    case h::ElementType::kOpaque32: return "i";
    case h::ElementType::kUint32: return "I";
    case h::ElementType::kSint64:
    case h::ElementType::kInt64:
    case h::ElementType::kOpaque64: return "q";
    case h::ElementType::kUint64: return "Q";
    case h::ElementType::kBool8: return "?";
    case h::ElementType::kComplexFloat64: return "Zf";
    case h::ElementType::kComplexFloat128: return "Zd";
    default: return nullptr;
  }
}

// The raw numpy dtype of an element type (ValueError if it has none).
nb::object DtypeOfElementType(h::ElementType type) {
  nb::int_ key(static_cast<uint32_t>(type));
  PyObject* dtype =
      PyDict_GetItem(GetHooks().element_to_dtype.ptr(), key.ptr());
  if (dtype == nullptr && GetHooks().dtype_fallback.is_valid() &&
      !GetHooks().dtype_fallback.is_none()) {
    nb::object found = GetHooks().dtype_fallback(key);
    if (!found.is_none()) return found;
  }
  if (dtype == nullptr) {
    char text[64];
    std::snprintf(text, sizeof(text),
                  "HAL element type 0x%08x has no numpy dtype",
                  static_cast<uint32_t>(type));
    Raise(PyExc_ValueError, text);
  }
  return nb::borrow(dtype);
}

// -- host views of buffers ----------------------------------------------------

// Exports a mapped buffer through the buffer protocol with the shape and
// format of its buffer view, so that numpy.asarray makes the array in one
// step. Kept alive by the arrays made from it.
struct HostView {
  Ref<h::Buffer> buffer;
  h::BufferMapping mapping;
  // Inline up to rank 8: one of these is made per result read.
  SmallVector<Py_ssize_t, 8> shape;
  SmallVector<Py_ssize_t, 8> strides;
  const char* format = "B";
  Py_ssize_t itemsize = 1;
};

int HostViewGetBuffer(PyObject* exporter, Py_buffer* view, int flags) {
  if (!nb::inst_ready(exporter)) {
    view->obj = nullptr;
    PyErr_SetString(PyExc_BufferError, "host view is not initialized");
    return -1;
  }
  HostView& self = *nb::inst_ptr<HostView>(exporter);
  const auto length = static_cast<Py_ssize_t>(self.mapping.size());
  if ((flags & PyBUF_ND) != PyBUF_ND) {
    // A consumer that wants plain bytes gets them.
    return PyBuffer_FillInfo(view, exporter, self.mapping.data(), length,
                             /*readonly=*/0, flags);
  }
  view->buf = self.mapping.data();
  view->obj = Py_NewRef(exporter);
  view->len = length;
  view->readonly = 0;
  view->itemsize = self.itemsize;
  view->format =
      (flags & PyBUF_FORMAT) ? const_cast<char*>(self.format) : nullptr;
  view->ndim = static_cast<int>(self.shape.size());
  view->shape = self.shape.data();
  view->strides =
      (flags & PyBUF_STRIDES) == PyBUF_STRIDES ? self.strides.data() : nullptr;
  view->suboffsets = nullptr;
  view->internal = nullptr;
  return 0;
}

PyType_Slot host_view_slots[] = {
    {Py_bf_getbuffer, reinterpret_cast<void*>(&HostViewGetBuffer)},
    {0, nullptr},
};

// -- DeviceArray --------------------------------------------------------------

struct DeviceArray {
  nb::object device;  // the HalDevice it lives on
  Ref<h::BufferView> view;
  bool implicit_host_transfer = false;
  nb::object override_dtype;  // None, or the dtype the data is read as
  nb::object host_array;      // None until mapped, then the kept ndarray
};

bool IsMappable(const h::Buffer& buffer) {
  return buffer.host_mappable() &&
         h::HasAll(buffer.memory_type(), h::MemoryType::kHostVisible) &&
         h::HasAll(buffer.allowed_usage(), h::BufferUsage::kMappingScoped);
}

// numpy.asarray over a new mapping of `view` as its element type's format.
// Null when the element type has no buffer format.
nb::object MapAsArray(const Ref<h::BufferView>& view) {
  const char* format = FormatOfElementType(view->element_type());
  if (format == nullptr) return nb::object();
  const size_t itemsize = h::DenseByteCount(view->element_type());
  auto shape = view->shape();
  uint64_t length = itemsize;
  for (int64_t dim : shape) length *= static_cast<uint64_t>(dim);
  HostView host;
  host.buffer = view->buffer();
  host.mapping =
      Unwrap(host.buffer->Map(h::MappingMode::kScoped,
                              h::MemoryAccess::kRead | h::MemoryAccess::kWrite,
                              0, length),
             "could not map the buffer");
  host.format = format;
  host.itemsize = static_cast<Py_ssize_t>(itemsize);
  for (int64_t dim : shape) {
    host.shape.push_back(static_cast<Py_ssize_t>(dim));
    host.strides.push_back(0);
  }
  Py_ssize_t stride = host.itemsize;
  for (size_t i = shape.size(); i-- > 0;) {
    host.strides[i] = stride;
    stride *= static_cast<Py_ssize_t>(shape[i]);
  }
  nb::object exporter = nb::cast(std::move(host), nb::rv_policy::move);
  PyObject* array =
      PyObject_CallOneArg(GetHooks().numpy_asarray.ptr(), exporter.ptr());
  if (array == nullptr) throw nb::python_error();
  return nb::steal(array);
}

DeviceArray& DeviceArrayOf(nb::handle self) {
  return *nb::inst_ptr<DeviceArray>(self);
}

// The contents as an ndarray: the kept mapping when the buffer is mappable,
// else a fresh copy (the Python `_copy_to_host`). Dtypes without a buffer
// format and dtype overrides take the Python route (`_map_to_host`).
nb::object HostArray(nb::handle self_handle, bool implicit) {
  DeviceArray& self = DeviceArrayOf(self_handle);
  if (implicit && !self.implicit_host_transfer) {
    Raise(PyExc_ValueError,
          "DeviceArray cannot be implicitly transferred to the host: if "
          "necessary, do an explicit transfer via .to_host()");
  }
  if (self.host_array.is_valid() && !self.host_array.is_none()) {
    return self.host_array;
  }
  if (!IsMappable(*self.view->buffer())) {
    return self_handle.attr("_copy_to_host")();
  }
  nb::object array;
  if (self.override_dtype.is_none()) array = MapAsArray(self.view);
  if (!array.is_valid()) array = self_handle.attr("_map_to_host")();
  self.host_array = array;
  return array;
}

nb::object DtypeOf(const DeviceArray& self) {
  if (!self.override_dtype.is_none()) {
    int truthy = PyObject_IsTrue(self.override_dtype.ptr());
    if (truthy < 0) throw nb::python_error();
    if (truthy) return self.override_dtype;
  }
  return DtypeOfElementType(self.view->element_type());
}

// A new DeviceArray (the registered Python subclass) without running
// Python code.
nb::object NewDeviceArray(const nb::object& device, Ref<h::BufferView> view) {
  nb::handle type(reinterpret_cast<PyObject*>(GetHooks().device_array_type));
  nb::object instance = nb::inst_alloc(type);
  new (nb::inst_ptr<DeviceArray>(instance))
      DeviceArray{device, std::move(view), true, nb::none(), nb::none()};
  nb::inst_mark_ready(instance);
  return instance;
}

void InitDeviceArray(DeviceArray* self, nb::object device,
                     const HalBufferView& buffer_view,
                     bool implicit_host_transfer, nb::object override_dtype) {
  new (self)
      DeviceArray{std::move(device), buffer_view.view, implicit_host_transfer,
                  std::move(override_dtype), nb::none()};
}

std::string DeviceArrayRepr(nb::handle self_handle) {
  const DeviceArray& self = DeviceArrayOf(self_handle);
  std::string text = "<IREE DeviceArray: shape=[";
  auto shape = self.view->shape();
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(shape[i]);
  }
  text += "], dtype=";
  text += nb::str(DtypeOf(self)).c_str();
  text += ">";
  return text;
}

// -- the invoker --------------------------------------------------------------

// What the function's `iree.abi.declaration` says an argument is.
struct DeclaredArgument {
  std::string text;  // e.g. "tensor<4xf32>"
  bool tensor = false;
  std::vector<int64_t> dims;  // for a tensor; -1 is dynamic
  // For a tensor whose element type is checked before the call (function.py
  // picks them: floats and integers of whole bytes).
  std::optional<h::ElementType> element_type;
};

struct NativeInvoker {
  // The vectorcall entry (InvokerVectorcall) once initialized; CPython
  // reads it at the type's tp_vectorcall_offset.
  vectorcallfunc vectorcall = nullptr;
  // False: calls go to the Python implementation.
  bool native = false;
  nb::object context_object;  // keeps the VmContext alive
  VmContext* context = nullptr;
  std::shared_ptr<vm::Module> module;
  uint32_t ordinal = 0;
  nb::object device_object;
  Ref<h::Device> device;
  std::string name;
  std::vector<vm::CconvType> argument_types;  // without the two fences
  size_t result_count = 0;
  bool coarse_fences = false;
  // One per argument, or empty (no declaration: nothing checked here).
  std::vector<DeclaredArgument> declared;
};

// How an argument array becomes a device buffer.
constexpr h::MemoryType kArgumentMemoryType = h::MemoryType::kDeviceLocal;
constexpr h::BufferUsage kArgumentUsage =
    h::BufferUsage::kDefault | h::BufferUsage::kMapping;

// What one call accumulates besides its arguments: nothing today (host
// arrays are copied, so no result can alias them); the synchronous and the
// asynchronous paths pass it through for state a call must hold until its
// results are unpacked.
struct CallState {};

// Where an argument is, for messages: "argument 0 of 'main'" ("0[1]" for
// an element of a list argument).
std::string ArgumentPlace(const NativeInvoker& self, const std::string& path) {
  return "argument " + path + " of '" + self.name + "'";
}

// Unwrap with the message built only on failure.
template <typename T>
T UnwrapFor(Result<T> result, const char* what, const NativeInvoker& self,
            size_t index) {
  if (!result.ok()) {
    ThrowStatus(result.status(), (std::string(what) + " " +
                                  ArgumentPlace(self, std::to_string(index)))
                                     .c_str());
  }
  return std::move(result).value();
}

// A buffer view over `object`'s buffer-protocol data, or null when the
// object has none or its format has no element type (the Python helper
// then decides).
Ref<h::BufferView> ImportHostArray(NativeInvoker& self, nb::handle object,
                                   CallState& state, size_t index) {
  if (!PyObject_CheckBuffer(object.ptr())) return nullptr;
  auto view = std::make_unique<Py_buffer>();
  if (PyObject_GetBuffer(object.ptr(), view.get(), PyBUF_RECORDS_RO) != 0) {
    PyErr_Clear();
    return nullptr;
  }
  struct Releaser {
    std::unique_ptr<Py_buffer>& view;
    ~Releaser() {
      if (view) PyBuffer_Release(view.get());
    }
  } releaser{view};
  const h::ElementType type = ElementTypeOfFormat(view->format);
  if (type == h::ElementType::kNone ||
      static_cast<Py_ssize_t>(h::DenseByteCount(type)) != view->itemsize) {
    return nullptr;
  }
  SmallVector<int64_t, 8> shape;
  for (int i = 0; i < view->ndim; ++i) shape.push_back(view->shape[i]);

  h::BufferParams params;
  params.type = kArgumentMemoryType;
  params.usage = kArgumentUsage;
  h::Allocator& allocator = self.device->allocator();
  const bool contiguous = PyBuffer_IsContiguous(view.get(), 'C') != 0;
  Ref<h::Buffer> buffer;
  const auto length = static_cast<uint64_t>(view->len);
  if (contiguous) {
    // Copied as it is allocated: each page is touched once.
    buffer = UnwrapFor(
        allocator.AllocateCopy(
            params, std::span<const uint8_t>(
                        static_cast<const uint8_t*>(view->buf), length)),
        "could not allocate", self, index);
  } else {
    std::vector<uint8_t> packed(static_cast<size_t>(length));
    if (length > 0 &&
        PyBuffer_ToContiguous(packed.data(), view.get(), view->len, 'C') != 0) {
      throw nb::python_error();
    }
    buffer = UnwrapFor(allocator.AllocateCopy(params, packed),
                       "could not allocate", self, index);
  }
  Result<Ref<h::BufferView>> buffer_view = h::BufferView::Create(
      std::move(buffer), std::span<const int64_t>(shape.data(), shape.size()),
      type, h::EncodingType::kDenseRowMajor);
  return UnwrapFor(std::move(buffer_view), "could not make a buffer view of",
                   self, index);
}

// One argument as a VM value or ref, dynamic mode (iree.runtime 3.11's
// rules; see function.py).
vm::Variant PackDynamic(NativeInvoker& self, nb::handle value, CallState& state,
                        size_t index) {
  PyObject* object = value.ptr();
  PyTypeObject* type = Py_TYPE(object);
  if (type == &PyLong_Type) {
    int overflow = 0;
    long long integer = PyLong_AsLongLongAndOverflow(object, &overflow);
    if (overflow != 0) {
      Raise(PyExc_OverflowError,
            "int does not fit in 64 bits (" +
                ArgumentPlace(self, std::to_string(index)) + ")");
    }
    return vm::Value::I64(integer);
  }
  if (type == &PyFloat_Type) {
    return vm::Value::F64(PyFloat_AS_DOUBLE(object));
  }
  Hooks& hooks_ref = GetHooks();
  if (nb::isinstance<DeviceArray>(value)) {
    return vm::VmRef::Of(DeviceArrayOf(value).view);
  }
  HalBufferView* buffer_view = nullptr;
  if (nb::try_cast<HalBufferView*>(value, buffer_view) && buffer_view) {
    return vm::VmRef::Of(buffer_view->view);
  }
  if (type == &PyList_Type || type == &PyTuple_Type || type == &PyDict_Type) {
    nb::object list = hooks_ref.sequence_argument(
        self.device_object, value, self.name, std::to_string(index));
    return vm::VmRef::Of(nb::cast<PyVmVariantList&>(list).list);
  }
  if (Ref<h::BufferView> imported =
          ImportHostArray(self, value, state, index)) {
    return vm::VmRef::Of(std::move(imported));
  }
  nb::object converted = hooks_ref.array_argument(
      self.device_object, value, self.name, std::to_string(index));
  HalBufferView* converted_view = nullptr;
  if (nb::try_cast<HalBufferView*>(converted, converted_view) &&
      converted_view) {
    return vm::VmRef::Of(converted_view->view);
  }
  // An ndarray (of an object with __array__ or __dlpack__) the hook found
  // importable.
  if (Ref<h::BufferView> imported =
          ImportHostArray(self, converted, state, index)) {
    return vm::VmRef::Of(std::move(imported));
  }
  Raise(PyExc_TypeError, "could not convert " +
                             ArgumentPlace(self, std::to_string(index)) +
                             " to a buffer view");
}

// A packed argument in the type the cconv gives its position. A number where
// a ref is expected, or the reverse, is a RuntimeError, as reading the
// wrong kind from a VM list is in iree.runtime.
vm::Variant ToCconvType(const NativeInvoker& self, vm::Variant value,
                        vm::CconvType type, size_t index, nb::handle object) {
  // Built only for a message.
  auto place = [&] {
    return "argument " + std::to_string(index) + " of '" + self.name + "'";
  };
  if (type == vm::CconvType::kRef) {
    if (value.is_value()) {
      Raise(PyExc_RuntimeError,
            place() + " must be a ref (an array, buffer view or list), not " +
                Py_TYPE(object.ptr())->tp_name);
    }
    return value;
  }
  if (!value.is_value()) {
    Raise(PyExc_RuntimeError, place() + " must be a number (" +
                                  vm::CconvTypeName(type) + "), not " +
                                  Py_TYPE(object.ptr())->tp_name);
  }
  return vm::Variant(value.value().ConvertTo(vm::ValueTypeOfCconv(type)));
}

std::string ShapeText(std::span<const int64_t> dims) {
  if (dims.empty()) return "a scalar";
  std::string text;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i > 0) text += 'x';
    text += dims[i] < 0 ? std::string("?") : std::to_string(dims[i]);
  }
  return text;
}

// The element type and shape checks of CheckDeclared, for an argument known
// to be a view. The element type rule is the one the program's own
// hal.buffer_view.assert applies (runtime/modules/hal/hal_module.cc): an
// opaque view passes, integers of the same width pass whatever their
// signedness, anything else must be equal.
void CheckDeclaredShape(const NativeInvoker& self, const h::BufferView& view,
                        size_t index) {
  if (self.declared.empty()) return;
  const DeclaredArgument& declared = self.declared[index];
  if (!declared.tensor) return;
  auto shape = view.shape();
  auto place = [&] {
    return "argument " + std::to_string(index) + " of '" + self.name + "'";
  };
  if (declared.element_type) {
    const h::ElementType expected = *declared.element_type;
    const h::ElementType actual = view.element_type();
    const bool compatible = h::IsOpaque(actual) || actual == expected ||
                            (h::IsInteger(actual) && h::IsInteger(expected) &&
                             h::BitCount(actual) == h::BitCount(expected));
    if (!compatible) {
      Raise(PyExc_ValueError, place() + " must be a " + declared.text +
                                  ": expected " +
                                  h::FormatElementType(expected) + ", got " +
                                  h::FormatElementType(actual));
    }
  }
  bool matches = shape.size() == declared.dims.size();
  for (size_t d = 0; matches && d < shape.size(); ++d) {
    matches = declared.dims[d] < 0 || declared.dims[d] == shape[d];
  }
  if (!matches) {
    Raise(PyExc_ValueError, place() + " must be a " + declared.text +
                                ": expected shape " + ShapeText(declared.dims) +
                                ", actual shape " + ShapeText(shape));
  }
}

// Checks a ref argument against the declaration before the call, so that a
// wrong shape or a list where a tensor goes is reported as the caller's
// argument with both shapes (inside the program it is an assertion on an
// import's operand). ValueError, as the program's own check raises.
void CheckDeclared(const NativeInvoker& self, const vm::Variant& packed,
                   nb::handle object, size_t index) {
  if (self.declared.empty() || !packed.is_ref()) return;
  const DeclaredArgument& declared = self.declared[index];
  if (!declared.tensor) return;
  // Built only for a message.
  auto place = [&] {
    return "argument " + std::to_string(index) + " of '" + self.name + "'";
  };
  const h::BufferView* view = packed.ref().As<h::BufferView>();
  if (view == nullptr) {
    Raise(PyExc_ValueError, place() + " must be a " + declared.text +
                                " (an array), not a " +
                                Py_TYPE(object.ptr())->tp_name);
  }
  CheckDeclaredShape(self, *view, index);
}

nb::object Unpack(NativeInvoker& self, vm::Variant& result,
                  const CallState& state) {
  if (result.is_value()) return ValueToPython(result.value());
  if (!result.is_ref()) return nb::none();
  vm::VmRef ref = result.TakeRef();
  if (Ref<h::BufferView> view = ref.RetainAs<h::BufferView>()) {
    return NewDeviceArray(self.device_object, std::move(view));
  }
  return WrapRef(std::move(ref));
}

// Runs the export; without the GIL, under the context's mutex.
// The arguments' refs are moved into the call (the callers drop them
// after it).
Status RunLocked(NativeInvoker& self, std::span<vm::Variant> arguments,
                 std::span<vm::Variant> results) {
  std::lock_guard<std::mutex> lock(self.context->mutex);
  vm::Context& context = *self.context->context;
  if (context.FindState(self.module.get()) == nullptr) {
    std::string_view name = self.module->name();
    return MakeStatus(StatusCode::kNotFound,
                      "the function's module '%.*s' is not registered in this "
                      "context",
                      static_cast<int>(name.size()), name.data());
  }
  vm::Function target{self.module.get(), self.ordinal,
                      vm::FunctionLinkage::kExport};
  return context.InvokeConsuming(target, arguments, results);
}

// Converts and checks the positional `args` into `arguments` (the fences
// of the coarse-fences model appended: an empty wait fence and a signal
// fence on a new semaphore, returned).
// `args` is the array of `count` positional arguments (a tuple's items or
// a vectorcall's); `has_keywords` refuses the call.
Ref<h::Fence> PackArguments(NativeInvoker& self, PyObject* const* args,
                            Py_ssize_t count, bool has_keywords,
                            CallState& state,
                            SmallVector<vm::Variant, 8>& arguments) {
  if (has_keywords) {
    Raise(PyExc_ValueError,
          "kwargs not supported for dynamic dispatch functions");
  }
  if (static_cast<size_t>(count) != self.argument_types.size()) {
    Raise(PyExc_ValueError,
          "Error invoking function '" + self.name + "': expected " +
              std::to_string(self.argument_types.size()) +
              " arguments but passed " + std::to_string(count));
  }
  PyTypeObject* device_array_type = GetHooks().device_array_type;
  for (Py_ssize_t i = 0; i < count; ++i) {
    PyObject* object = args[i];
    // The common case first: a DeviceArray (exactly; subclasses take the
    // general route) where the function takes a ref.
    if (Py_TYPE(object) == device_array_type &&
        self.argument_types[i] == vm::CconvType::kRef) {
      const Ref<h::BufferView>& view = DeviceArrayOf(object).view;
      if (view) {
        CheckDeclaredShape(self, *view, static_cast<size_t>(i));
        arguments.push_back(vm::Variant(vm::VmRef::Of(view)));
        continue;
      }
    }
    vm::Variant packed =
        PackDynamic(self, args[i], state, static_cast<size_t>(i));
    vm::Variant typed = ToCconvType(self, std::move(packed),
                                    self.argument_types[i], i, args[i]);
    CheckDeclared(self, typed, args[i], i);
    arguments.push_back(std::move(typed));
  }
  Ref<h::Fence> signal;
  if (self.coarse_fences) {
    arguments.push_back(vm::VmRef::Of(h::Fence::Create()));
    signal = h::Fence::CreateWithNewSemaphore();
    arguments.push_back(vm::VmRef::Of(signal));
  }
  return signal;
}

// The Python value of a call's results: None, one value, or a tuple.
nb::object UnpackResults(NativeInvoker& self, std::span<vm::Variant> results,
                         const CallState& state) {
  if (results.size() == 0) return nb::none();
  if (results.size() == 1) return Unpack(self, results[0], state);
  nb::object tuple = nb::steal(PyTuple_New(results.size()));
  for (size_t i = 0; i < results.size(); ++i) {
    PyTuple_SET_ITEM(tuple.ptr(), i,
                     Unpack(self, results[i], state).release().ptr());
  }
  return tuple;
}

nb::object CallNative(NativeInvoker& self, PyObject* const* args,
                      Py_ssize_t count, bool has_keywords) {
  DrainPythonReleases();
  CallState state;
  SmallVector<vm::Variant, 8> arguments;
  Ref<h::Fence> signal =
      PackArguments(self, args, count, has_keywords, state, arguments);
  SmallVector<vm::Variant, 4> results;
  for (size_t i = 0; i < self.result_count; ++i)
    results.push_back(vm::Variant());
  Status status;
  {
    nb::gil_scoped_release release;
    status = RunLocked(
        self, std::span<vm::Variant>(arguments.data(), arguments.size()),
        std::span<vm::Variant>(results.data(), results.size()));
    if (status.ok() && signal) status = signal->Wait(h::Timeout::Infinite());
    // Dropped here, without the GIL.
    arguments.clear();
  }
  if (!status.ok()) {
    ThrowStatus(status,
                ("Error invoking function '" + self.name + "'").c_str());
  }
  DrainPythonReleases();
  return UnpackResults(
      self, std::span<vm::Variant>(results.data(), results.size()), state);
}

// -- asynchronous calls
// --------------------------------------------------------
//
// `FunctionInvoker.async_call` of a coarse-fences function on a device with
// queue threads (local-task): the arguments are converted on the caller's
// thread (the event loop's), and the function runs with submissions
// deferred (device.h's ScopedDeferSubmissions), so it returns as soon as
// its work is queued. The signal fence's semaphore then tells the loop
// directly: its NotifyAt listener, run by the device thread that signals
// it, puts the call on the loop's CompletionPort and writes the port's
// eventfd, which the loop watches (`loop.add_reader`); the loop, woken,
// drains the port and completes each call's future. No thread takes the
// GIL but the loop's, and no thread sits between the device and the loop.
// Many calls issued this way are in flight at once, and the device's queue
// threads run them side by side.

struct PendingCall {
  nb::object invoker;  // keeps the NativeInvoker (and its context) alive
  nb::object future;
  SmallVector<vm::Variant, 4> results;
  CallState state;
  Status status;  // the signal's outcome (written before the port's lock)

  PendingCall() = default;
  PendingCall(const PendingCall&) = delete;
  PendingCall& operator=(const PendingCall&) = delete;
  ~PendingCall() {
    // Normally dropped on the loop, with the GIL. A call whose port or
    // semaphore went away first can be dropped on a device thread: its
    // Python references then go back through the release queue.
    if (PyGILState_Check()) return;
    struct Held {
      nb::object invoker, future;
    };
    auto* held = new Held{std::move(invoker), std::move(future)};
    ReleasePythonOwned([](void* owner) { delete static_cast<Held*>(owner); },
                       held);
  }
};

// What device threads and the loop share: the finished calls and the
// eventfd that says there are some.
struct PortState {
  int fd = -1;
  std::mutex mutex;
  std::vector<std::shared_ptr<PendingCall>> done;  // under mutex

  ~PortState() {
    if (fd >= 0) close(fd);
  }
  // On any thread, without the GIL; never blocks for long.
  void Post(std::shared_ptr<PendingCall> call) {
    bool was_empty = false;
    {
      std::lock_guard lock(mutex);
      was_empty = done.empty();
      done.push_back(std::move(call));
    }
    if (was_empty) {
      const uint64_t one = 1;
      // Only fails if the counter would overflow: then it is set anyway.
      [[maybe_unused]] ssize_t written = write(fd, &one, sizeof(one));
    }
  }
};

struct CompletionPort {
  std::shared_ptr<PortState> state;
};

// The port takes part in cycle collection: a finished call it holds refers
// to its future, the future to its loop, and the loop to its port
// (function.py keeps the port on the loop), so a loop closed or dropped
// with finished calls undelivered is a cycle the collector must see.
int PortTraverse(PyObject* self, visitproc visit, void* arg) {
  Py_VISIT(Py_TYPE(self));  // instances of heap types refer to their type
  if (!nb::inst_ready(self)) return 0;
  PortState& state = *nb::inst_ptr<CompletionPort>(self)->state;
  std::lock_guard lock(state.mutex);
  for (const std::shared_ptr<PendingCall>& call : state.done) {
    Py_VISIT(call->invoker.ptr());
    Py_VISIT(call->future.ptr());
  }
  return 0;
}

int PortClear(PyObject* self) {
  if (!nb::inst_ready(self)) return 0;
  std::vector<std::shared_ptr<PendingCall>> done;
  PortState& state = *nb::inst_ptr<CompletionPort>(self)->state;
  {
    std::lock_guard lock(state.mutex);
    done.swap(state.done);
  }
  return 0;  // `done` goes here, with the GIL
}

PyType_Slot port_slots[] = {
    {Py_tp_traverse, reinterpret_cast<void*>(&PortTraverse)},
    {Py_tp_clear, reinterpret_cast<void*>(&PortClear)},
    {0, nullptr},
};

// On the loop, with the GIL: the results, or the error, into the future.
void CompleteCall(PendingCall& call) {
  if (nb::cast<bool>(call.future.attr("done")())) return;  // cancelled
  NativeInvoker& self = *nb::inst_ptr<NativeInvoker>(call.invoker);
  if (!call.status.ok()) {
    std::string message = "Error invoking function '" + self.name +
                          "': " + call.status.ToString();
    call.future.attr("set_exception")(nb::handle(PyExc_RuntimeError)(message));
    return;
  }
  try {
    nb::object value = UnpackResults(
        self, std::span<vm::Variant>(call.results.data(), call.results.size()),
        call.state);
    call.future.attr("set_result")(value);
  } catch (nb::python_error& error) {
    call.future.attr("set_exception")(error.value());
  }
}

// The loop's reader callback: completes every finished call.
void DrainPort(CompletionPort& port) {
  uint64_t count = 0;
  [[maybe_unused]] ssize_t read_bytes =
      read(port.state->fd, &count, sizeof(count));
  std::vector<std::shared_ptr<PendingCall>> done;
  {
    std::lock_guard lock(port.state->mutex);
    done.swap(port.state->done);
  }
  DrainPythonReleases();
  for (const std::shared_ptr<PendingCall>& call : done) {
    try {
      CompleteCall(*call);
    } catch (nb::python_error& error) {
      error.discard_as_unraisable("completing an async_call");
    }
  }
}

// Starts the call; returns its future, or None when the call cannot be
// made asynchronously (the caller then runs it on an executor thread).
nb::object StartAsyncCall(nb::handle invoker, CompletionPort& port,
                          nb::object loop, nb::args args) {
  if (!nb::inst_ready(invoker) || !nb::isinstance<NativeInvoker>(invoker)) {
    throw nb::type_error("_start_async_call: not a FunctionInvoker");
  }
  NativeInvoker& self = *nb::inst_ptr<NativeInvoker>(invoker);
  if (!self.native || !self.coarse_fences ||
      !self.device->queues_asynchronously()) {
    return nb::none();
  }
  DrainPythonReleases();
  auto call = std::make_shared<PendingCall>();
  call->invoker = nb::borrow(invoker);
  SmallVector<vm::Variant, 8> arguments;
  Ref<h::Fence> signal = PackArguments(self, &PyTuple_GET_ITEM(args.ptr(), 0),
                                       PyTuple_GET_SIZE(args.ptr()), false,
                                       call->state, arguments);
  for (size_t i = 0; i < self.result_count; ++i)
    call->results.push_back(vm::Variant());
  call->future = loop.attr("create_future")();
  nb::object future = call->future;
  Status status;
  {
    nb::gil_scoped_release release;
    h::ScopedDeferSubmissions defer;
    status = RunLocked(
        self, std::span<vm::Variant>(arguments.data(), arguments.size()),
        std::span<vm::Variant>(call->results.data(), call->results.size()));
    arguments.clear();
  }
  if (!status.ok()) {
    ThrowStatus(status,
                ("Error invoking function '" + self.name + "'").c_str());
  }
  // One timepoint: the fresh semaphore at 1.
  h::Fence::Timepoints timepoints = signal->timepoints();
  std::shared_ptr<PortState> port_state = port.state;
  timepoints[0].semaphore->NotifyAt(
      timepoints[0].value, [call, port_state](const Status& outcome) mutable {
        call->status = outcome;
        port_state->Post(std::move(call));
      });
  return future;
}

// What both call entries share: the ready check, the Python route for
// functions the native plan does not cover (`python_route()`), the native
// route (`native_route(self)`), and C++ exceptions turned into Python ones.
template <typename PythonRoute, typename NativeRoute>
PyObject* InvokerEntry(PyObject* self_object, PythonRoute&& python_route,
                       NativeRoute&& native_route) {
  try {
    if (!nb::inst_ready(self_object)) [[unlikely]] {
      PyErr_SetString(PyExc_TypeError, "FunctionInvoker is not initialized");
      return nullptr;
    }
    NativeInvoker& self = *nb::inst_ptr<NativeInvoker>(self_object);
    if (!self.native) {
      nb::object method = nb::getattr(nb::handle(self_object), "_call_python");
      return python_route(method.ptr());
    }
    return native_route(self).release().ptr();
  } catch (nb::python_error& error) {
    error.restore();
  } catch (const nb::cast_error&) {
    PyErr_SetString(PyExc_TypeError, "could not convert a call argument");
  } catch (const std::exception& error) {
    PyErr_SetString(PyExc_RuntimeError, error.what());
  }
  return nullptr;
}

PyObject* InvokerCall(PyObject* self_object, PyObject* args, PyObject* kwargs) {
  return InvokerEntry(
      self_object,
      [&](PyObject* method) { return PyObject_Call(method, args, kwargs); },
      [&](NativeInvoker& self) {
        return CallNative(self, &PyTuple_GET_ITEM(args, 0),
                          PyTuple_GET_SIZE(args),
                          kwargs != nullptr && PyDict_GET_SIZE(kwargs) != 0);
      });
}

// The vectorcall entry (PEP 590): `f(a, b)` reaches CallNative with the
// caller's argument array, no tuple built. An instance's `vectorcall`
// field is null until its __init__ ran (CPython then takes tp_call,
// InvokerCall, which reports it); the ready check covers memory that was
// not zeroed.
PyObject* InvokerVectorcall(PyObject* self_object, PyObject* const* args,
                            size_t nargsf, PyObject* kwnames) {
  return InvokerEntry(
      self_object,
      [&](PyObject* method) {
        return PyObject_Vectorcall(method, args, nargsf, kwnames);
      },
      [&](NativeInvoker& self) {
        return CallNative(self, args, PyVectorcall_NARGS(nargsf),
                          kwnames != nullptr && PyTuple_GET_SIZE(kwnames) != 0);
      });
}

// Lets CPython call instances of `type` through their `vectorcall` field
// at `offset` (the same in every instance of a type: nanobind stores the
// C++ object inline at a fixed offset). Only for types whose tp_call is
// still InvokerCall: a subclass that defines __call__ keeps it.
void EnableVectorcall(PyTypeObject* type, Py_ssize_t offset) {
  if (type->tp_call != &InvokerCall) return;
  if (PyType_HasFeature(type, Py_TPFLAGS_HAVE_VECTORCALL)) return;
  type->tp_vectorcall_offset = offset;
  type->tp_flags |= Py_TPFLAGS_HAVE_VECTORCALL;
}

PyType_Slot invoker_slots[] = {
    {Py_tp_call, reinterpret_cast<void*>(&InvokerCall)},
    {0, nullptr},
};

// `NativeInvoker.__init__`: native only when the context and function are
// Ember's own and the plan covers the function (dynamic mode, no variadic
// arguments); otherwise every call goes to `_call_python`.
void InitInvoker(nb::pointer_and_handle<NativeInvoker> instance,
                 nb::handle vm_context, nb::object device,
                 nb::handle vm_function, bool use_native, bool coarse_fences,
                 nb::handle declared) {
  NativeInvoker* self = instance.p;
  new (self) NativeInvoker();
  self->vectorcall = &InvokerVectorcall;
  EnableVectorcall(Py_TYPE(instance.h.ptr()),
                   reinterpret_cast<const char*>(&self->vectorcall) -
                       reinterpret_cast<const char*>(instance.h.ptr()));
  VmContext* context = nullptr;
  VmFunction* function = nullptr;
  HalDevice* hal_device = nullptr;
  if (!use_native || !nb::try_cast<VmContext*>(vm_context, context) ||
      !context || !nb::try_cast<VmFunction*>(vm_function, function) ||
      !function || !nb::try_cast<HalDevice*>(device, hal_device) ||
      !hal_device) {
    return;
  }
  if (function->linkage != Linkage::kExport &&
      function->linkage != Linkage::kExportOptional) {
    return;
  }
  const vm::ExportInfo info = function->module->export_info(function->ordinal);
  Result<vm::CallingConvention> cconv =
      vm::ParseCallingConvention(info.calling_convention);
  if (!cconv.ok() || cconv->arguments.has_span || cconv->results.has_span) {
    return;
  }
  size_t argument_count = cconv->arguments.size();
  if (coarse_fences) {
    if (argument_count < 2) return;
    argument_count -= 2;
  }
  for (size_t i = 0; i < argument_count; ++i) {
    self->argument_types.push_back(cconv->arguments[i].type);
  }
  self->result_count = cconv->results.size();
  self->coarse_fences = coarse_fences;
  self->context_object = nb::borrow(vm_context);
  self->context = context;
  self->module = function->module;
  self->ordinal = function->ordinal;
  self->device_object = device;
  self->device = hal_device->device;
  self->name = std::string(info.name);
  // (text, dims or None) per argument; ignored unless there is one per
  // argument.
  if (!declared.is_none() && nb::len(declared) == argument_count) {
    for (nb::handle entry : declared) {
      DeclaredArgument argument;
      argument.text = nb::cast<std::string>(entry[0]);
      nb::object dims = entry[1];
      if (!dims.is_none()) {
        argument.tensor = true;
        for (nb::handle dim : dims)
          argument.dims.push_back(nb::cast<int64_t>(dim));
      }
      if (nb::len(entry) > 2 && !entry[2].is_none()) {
        // Text the declaration spells (function.py keeps only types the
        // parser knows); one it does not know is left unchecked.
        Result<h::ElementType> type =
            h::ParseElementType(nb::cast<std::string>(entry[2]));
        if (type.ok()) argument.element_type = type.value();
      }
      self->declared.push_back(std::move(argument));
    }
  }
  self->native = true;
}

}  // namespace

void BindFunctions(nb::module_& m) {
  nb::class_<HostView>(m, "_HostView", nb::type_slots(host_view_slots),
                       "A mapped buffer exported with its view's shape and "
                       "format (what numpy arrays of results are views of).");

  nb::class_<DeviceArray>(
      m, "DeviceArray",
      "A tensor in a device buffer (ember.runtime.DeviceArray, which adds "
      "its Python methods): a buffer view on a device, with numpy "
      "conversion.")
      .def("__init__", &InitDeviceArray, "device"_a, "buffer_view"_a,
           "implicit_host_transfer"_a = false, "override_dtype"_a = nb::none())
      .def_prop_ro("_device",
                   [](const DeviceArray& self) { return self.device; })
      .def_prop_ro(
          "_buffer_view",
          [](const DeviceArray& self) { return HalBufferView{self.view}; })
      .def_prop_ro("_override_dtype",
                   [](const DeviceArray& self) { return self.override_dtype; })
      .def_prop_rw(
          "_implicit_host_transfer",
          [](const DeviceArray& self) { return self.implicit_host_transfer; },
          [](DeviceArray& self, bool value) {
            self.implicit_host_transfer = value;
          })
      .def_prop_ro(
          "is_host_accessible",
          [](const DeviceArray& self) {
            return self.host_array.is_valid() && !self.host_array.is_none();
          },
          "True once the data has been mapped to the host (and kept).")
      .def_prop_ro(
          "dtype", [](const DeviceArray& self) { return DtypeOf(self); },
          "The numpy dtype (the override given at creation, if any).")
      .def_prop_ro(
          "shape",
          [](const DeviceArray& self) {
            auto shape = self.view->shape();
            nb::list out;
            for (int64_t dim : shape) out.append(dim);
            return out;
          },
          "The shape, as a list (as iree.runtime's).")
      .def_prop_ro(
          "ndim",
          [](const DeviceArray& self) { return self.view->shape().size(); },
          "The rank.")
      .def_prop_ro(
          "size",
          [](const DeviceArray& self) {
            int64_t size = 1;
            for (int64_t dim : self.view->shape()) size *= dim;
            return size;
          },
          "The number of elements.")
      .def(
          "__array__",
          [](nb::handle self, nb::handle dtype, nb::handle /*copy*/) {
            nb::object host = HostArray(self, /*implicit=*/true);
            if (dtype.is_none()) return host;
            return host.attr("__array__")(dtype);
          },
          "dtype"_a = nb::none(), "copy"_a = nb::none(),
          "The contents as an ndarray (allowed for results and arrays made "
          "with implicit_host_transfer=True).")
      .def(
          "to_host",
          [](nb::handle self) { return HostArray(self, /*implicit=*/false); },
          "The contents as an ndarray: a view of the device buffer, kept, "
          "when it is host-visible (CPU devices), else a copy.")
      .def("__repr__", &DeviceArrayRepr);

  nb::class_<NativeInvoker>(m, "NativeInvoker", nb::type_slots(invoker_slots),
                            "The native part of ember.runtime's "
                            "FunctionInvoker: calling it runs the function.")
      .def("__init__", &InitInvoker, "vm_context"_a, "device"_a,
           "vm_function"_a, "use_native"_a = true, "coarse_fences"_a = false,
           "declared"_a = nb::none())
      .def_prop_ro(
          "is_native", [](const NativeInvoker& self) { return self.native; },
          "Whether calls take the native path (else the Python one).");

  nb::class_<CompletionPort>(
      m, "_CompletionPort", nb::type_slots(port_slots),
      "Where finished async_calls wait for their event loop: an eventfd "
      "the loop watches (fileno) and the calls it completes (drain).")
      .def("__init__",
           [](CompletionPort* self) {
             int fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
             if (fd < 0) {
               throw std::runtime_error(std::string("eventfd failed: ") +
                                        std::strerror(errno));
             }
             new (self) CompletionPort{std::make_shared<PortState>()};
             self->state->fd = fd;
           })
      .def(
          "fileno", [](const CompletionPort& self) { return self.state->fd; },
          "The eventfd, readable when calls have finished.")
      .def("drain", &DrainPort,
           "Completes the futures of the calls that have finished.");
  m.def("_start_async_call", &StartAsyncCall, "invoker"_a, "port"_a, "loop"_a,
        "args"_a,
        "Starts an asynchronous call of a coarse-fences function on a "
        "device with queue threads; returns an asyncio future of `loop`, or "
        "None when the call cannot be made that way.");
  m.def(
      "_set_call_hooks",
      [](nb::handle device_array_type, nb::object numpy_asarray,
         nb::dict element_to_dtype, nb::object array_argument,
         nb::object sequence_argument, nb::object dtype_fallback) {
        if (!PyType_Check(device_array_type.ptr()) ||
            !PyType_IsSubtype(
                reinterpret_cast<PyTypeObject*>(device_array_type.ptr()),
                reinterpret_cast<PyTypeObject*>(
                    nb::type<DeviceArray>().ptr()))) {
          throw nb::type_error("device_array_type must be a DeviceArray type");
        }
        if (hooks == nullptr) hooks = new Hooks();
        Py_XDECREF(reinterpret_cast<PyObject*>(hooks->device_array_type));
        hooks->device_array_type =
            reinterpret_cast<PyTypeObject*>(device_array_type.inc_ref().ptr());
        hooks->numpy_asarray = std::move(numpy_asarray);
        hooks->element_to_dtype = std::move(element_to_dtype);
        hooks->array_argument = std::move(array_argument);
        hooks->sequence_argument = std::move(sequence_argument);
        hooks->dtype_fallback = std::move(dtype_fallback);
      },
      "device_array_type"_a, "numpy_asarray"_a, "element_to_dtype"_a,
      "array_argument"_a, "sequence_argument"_a,
      "dtype_fallback"_a = nb::none(),
      "Registers what the native call path needs from ember.runtime (done "
      "once on import).");
  m.def(
      "_clear_call_hooks",
      [] {
        DrainPythonReleases();
        if (hooks == nullptr) return;
        Py_XDECREF(reinterpret_cast<PyObject*>(hooks->device_array_type));
        delete hooks;
        hooks = nullptr;
      },
      "Drops the registered hooks (at exit).");
}

}  // namespace ember::python
