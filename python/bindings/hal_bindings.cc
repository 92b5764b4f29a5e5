// Python bindings of the HAL, the low-level half of iree.runtime's API:
// drivers and devices, allocators, buffers and buffer views, element types,
// mapped memory, and `create_hal_module`.
//
// Names and signatures follow iree.runtime 3.11 (runtime/bindings/python/
// hal.cc) for what is bound here: get_driver, query_available_drivers,
// HalDriver.create_default_device / create_device, HalDevice.allocator,
// HalAllocator.allocate_buffer / allocate_buffer_copy, HalBuffer,
// HalBufferView (shape, element_type, map), MappedMemory.asarray,
// HalElementType, MemoryType, BufferUsage, create_hal_module. Buffer views
// travel in VmVariantLists through the ref protocol (vm_value_bindings.h).
//
// Copies: allocate_buffer_copy copies once from any C-contiguous buffer
// (numpy included); MappedMemory exports the buffer's own bytes through the
// buffer protocol, so `asarray` is a view that keeps the mapping -- and the
// buffer -- alive.
//
// Thread safety: the native objects are thread-safe; blocking work (device
// creation, copies) runs with the GIL released.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <chrono>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "python/bindings/status_utils.h"
#include "python/bindings/vm_bindings.h"
#include "python/bindings/vm_value_bindings.h"
#include "runtime/hal/buffer_view.h"
#include "runtime/hal/cpu/local_device.h"
#include "runtime/hal/driver.h"
#include "runtime/hal/semaphore.h"
#include "runtime/modules/hal/hal_module.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace ember::python {
namespace {

namespace h = ember::hal;

struct HalDriver {
  std::string name;
};
struct HalDevice {
  Ref<h::Device> device;
};
struct HalAllocator {
  Ref<h::Allocator> allocator;
};
struct HalBuffer {
  Ref<h::Buffer> buffer;
};
struct HalBufferView {
  Ref<h::BufferView> view;
};
struct HalSemaphore {
  Ref<h::Semaphore> semaphore;
};
struct HalFence {
  Ref<h::Fence> fence;
};
struct MappedMemory {
  h::BufferMapping mapping;
  Ref<h::Buffer> buffer;  // keeps the bytes alive with the mapping
};

// iree.runtime's timeout (relative nanoseconds) or deadline (absolute
// nanoseconds of the monotonic clock); neither is infinite, both an error.
h::Timeout MakeTimeout(std::optional<int64_t> timeout,
                       std::optional<int64_t> deadline) {
  if (timeout && deadline) {
    throw nb::value_error("timeout and deadline cannot both be set");
  }
  if (timeout) return h::Timeout::After(std::chrono::nanoseconds(*timeout));
  if (deadline) {
    auto now = std::chrono::steady_clock::now().time_since_epoch();
    return h::Timeout::After(std::chrono::nanoseconds(*deadline) - now);
  }
  return h::Timeout::Infinite();
}

// Waits with the GIL released: true when reached, false on timeout, the
// failure as an exception.
bool WaitReleased(const std::function<Status()>& wait) {
  Status status = [&] {
    nb::gil_scoped_release release;
    return wait();
  }();
  if (status.code() == StatusCode::kDeadlineExceeded) return false;
  CheckStatus(status, "wait failed");
  return true;
}

// A Python buffer held for a HAL buffer that aliases it; released (with the
// GIL) when the HAL buffer dies.
struct HeldPythonBuffer {
  Py_buffer view{};
};

h::DriverRegistry& Drivers() {
  static h::DriverRegistry* registry = [] {
    auto* r = new h::DriverRegistry();
    CheckStatus(h::cpu::RegisterLocalDrivers(*r), "registering drivers");
    return r;
  }();
  return *registry;
}

// An int, an IntFlag/IntEnum member (MemoryType, BufferUsage,
// HalElementType) or anything else with __index__/__int__.
int64_t AsInt(nb::handle value) { return nb::cast<int64_t>(nb::int_(value)); }

HalDevice CreateDevice(const std::string& uri) {
  Result<Ref<h::Device>> device = [&] {
    nb::gil_scoped_release release;
    return Drivers().CreateDevice(uri);
  }();
  return HalDevice{Unwrap(std::move(device), "Error creating device")};
}

// A C-contiguous Python buffer, read-only view.
struct PythonBuffer {
  Py_buffer view{};
  explicit PythonBuffer(nb::handle object) {
    if (PyObject_GetBuffer(object.ptr(), &view,
                           PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_ND) != 0) {
      throw nb::python_error();
    }
  }
  ~PythonBuffer() { PyBuffer_Release(&view); }
  PythonBuffer(const PythonBuffer&) = delete;
  PythonBuffer& operator=(const PythonBuffer&) = delete;
};

Ref<h::Buffer> CopyIntoBuffer(h::Allocator& allocator, int memory_type,
                              int allowed_usage, const PythonBuffer& source) {
  h::BufferParams params;
  params.type = static_cast<h::MemoryType>(memory_type);
  params.usage = static_cast<h::BufferUsage>(allowed_usage);
  std::span<const uint8_t> bytes(static_cast<const uint8_t*>(source.view.buf),
                                 static_cast<size_t>(source.view.len));
  Result<Ref<h::Buffer>> buffer = [&] {
    nb::gil_scoped_release release;
    return allocator.AllocateCopy(params, bytes);
  }();
  return Unwrap(std::move(buffer), "Error allocating buffer");
}

int MappedMemoryGetBuffer(PyObject* exporter, Py_buffer* view, int flags) {
  if (!nb::inst_ready(exporter)) {
    view->obj = nullptr;
    PyErr_SetString(PyExc_BufferError, "MappedMemory is not initialized");
    return -1;
  }
  MappedMemory& memory = *nb::inst_ptr<MappedMemory>(exporter);
  return PyBuffer_FillInfo(view, exporter, memory.mapping.data(),
                           static_cast<Py_ssize_t>(memory.mapping.size()),
                           /*readonly=*/0, flags);
}

PyType_Slot mapped_memory_slots[] = {
    {Py_bf_getbuffer, reinterpret_cast<void*>(&MappedMemoryGetBuffer)},
    {0, nullptr},
};

}  // namespace

void BindHal(nb::module_& m) {
  // Element types, memory types and usages as the ints IREE uses, with the
  // names of iree.runtime's enums.
  auto element_type =
      nb::enum_<h::ElementType>(m, "HalElementType", nb::is_arithmetic());
  const std::pair<const char*, h::ElementType> element_types[] = {
      {"NONE", h::ElementType::kNone},
      {"OPAQUE_8", h::ElementType::kOpaque8},
      {"OPAQUE_16", h::ElementType::kOpaque16},
      {"OPAQUE_32", h::ElementType::kOpaque32},
      {"OPAQUE_64", h::ElementType::kOpaque64},
      {"BOOL_8", h::ElementType::kBool8},
      {"INT_4", h::ElementType::kInt4},
      {"SINT_4", h::ElementType::kSint4},
      {"UINT_4", h::ElementType::kUint4},
      {"INT_8", h::ElementType::kInt8},
      {"SINT_8", h::ElementType::kSint8},
      {"UINT_8", h::ElementType::kUint8},
      {"INT_16", h::ElementType::kInt16},
      {"SINT_16", h::ElementType::kSint16},
      {"UINT_16", h::ElementType::kUint16},
      {"INT_32", h::ElementType::kInt32},
      {"SINT_32", h::ElementType::kSint32},
      {"UINT_32", h::ElementType::kUint32},
      {"INT_64", h::ElementType::kInt64},
      {"SINT_64", h::ElementType::kSint64},
      {"UINT_64", h::ElementType::kUint64},
      {"FLOAT_16", h::ElementType::kFloat16},
      {"FLOAT_32", h::ElementType::kFloat32},
      {"FLOAT_64", h::ElementType::kFloat64},
      {"BFLOAT_16", h::ElementType::kBfloat16},
      {"COMPLEX_64", h::ElementType::kComplexFloat64},
      {"COMPLEX_128", h::ElementType::kComplexFloat128},
      {"FLOAT_8_E5M2", h::ElementType::kFloat8E5M2},
      {"FLOAT_8_E4M3_FN", h::ElementType::kFloat8E4M3FN},
      {"FLOAT_8_E5M2_FNUZ", h::ElementType::kFloat8E5M2FNUZ},
      {"FLOAT_8_E4M3_FNUZ", h::ElementType::kFloat8E4M3FNUZ},
      {"FLOAT_8_E8M0_FNU", h::ElementType::kFloat8E8M0FNU},
  };
  for (const auto& [name, value] : element_types)
    element_type.value(name, value);

  auto memory_type = nb::enum_<h::MemoryType>(m, "MemoryType", nb::is_flag(),
                                              nb::is_arithmetic());
  memory_type.value("NONE", h::MemoryType::kNone)
      .value("OPTIMAL", h::MemoryType::kOptimal)
      .value("HOST_VISIBLE", h::MemoryType::kHostVisible)
      .value("HOST_COHERENT", h::MemoryType::kHostCoherent)
      .value("HOST_CACHED", h::MemoryType::kHostCached)
      .value("HOST_LOCAL", h::MemoryType::kHostLocal)
      .value("DEVICE_VISIBLE", h::MemoryType::kDeviceVisible)
      .value("DEVICE_LOCAL", h::MemoryType::kDeviceLocal);
  auto usage = nb::enum_<h::BufferUsage>(m, "BufferUsage", nb::is_flag(),
                                         nb::is_arithmetic());
  usage.value("NONE", h::BufferUsage::kNone)
      .value("TRANSFER_SOURCE", h::BufferUsage::kTransferSource)
      .value("TRANSFER_TARGET", h::BufferUsage::kTransferTarget)
      .value("TRANSFER", h::BufferUsage::kTransfer)
      .value("DISPATCH_INDIRECT_PARAMS",
             h::BufferUsage::kDispatchIndirectParameters)
      .value("DISPATCH_UNIFORM_READ", h::BufferUsage::kDispatchUniformRead)
      .value("DISPATCH_STORAGE_READ", h::BufferUsage::kDispatchStorageRead)
      .value("DISPATCH_STORAGE_WRITE", h::BufferUsage::kDispatchStorageWrite)
      .value("DISPATCH_STORAGE", h::BufferUsage::kDispatchStorage)
      .value("SHARING_IMMUTABLE", h::BufferUsage::kSharingImmutable)
      .value("MAPPING_SCOPED", h::BufferUsage::kMappingScoped)
      .value("MAPPING_PERSISTENT", h::BufferUsage::kMappingPersistent)
      .value("MAPPING", h::BufferUsage::kMapping)
      .value("DEFAULT", h::BufferUsage::kDefault);

  m.def("query_available_drivers", [] {
    std::vector<std::string> names;
    for (const h::DriverInfo& info : Drivers().drivers()) {
      names.push_back(info.name);
    }
    return names;
  });
  m.def(
      "get_driver",
      [](const std::string& name) {
        std::string driver = name.substr(0, name.find(':'));
        if (!Drivers().Has(driver)) {
          throw nb::value_error(
              ("Could not create driver '" + name + "': no such driver")
                  .c_str());
        }
        return HalDriver{driver};
      },
      "device_uri"_a);

  nb::class_<HalDriver>(m, "HalDriver")
      .def("create_default_device",
           [](const HalDriver& self) { return CreateDevice(self.name); })
      .def(
          "create_device_by_uri",
          [](const HalDriver&, const std::string& uri) {
            return CreateDevice(uri);
          },
          "device_uri"_a)
      .def("query_available_devices",
           [](const HalDriver& self) {
             nb::list devices;
             nb::dict info;
             info["device_id"] = 0;
             info["path"] = "";
             info["name"] = self.name;
             devices.append(info);
             return devices;
           })
      .def("__repr__", [](const HalDriver& self) {
        return "<HalDriver " + self.name + ">";
      });

  auto device = nb::class_<HalDevice>(m, "HalDevice");
  BindRefProtocol(device, &HalDevice::device);
  device
      .def_prop_ro("allocator",
                   [](const HalDevice& self) {
                     return HalAllocator{
                         Ref<h::Allocator>::Retain(&self.device->allocator())};
                   })
      .def(
          "create_semaphore",
          [](const HalDevice&, uint64_t initial_value) {
            return HalSemaphore{h::Semaphore::Create(initial_value)};
          },
          "initial_value"_a)
      .def("__repr__", [](const HalDevice& self) {
        return "<HalDevice " + std::string(self.device->id()) + ">";
      });

  nb::class_<HalSemaphore>(m, "HalSemaphore")
      .def("query",
           [](const HalSemaphore& self) {
             return Unwrap(self.semaphore->Query(), "semaphore failed");
           })
      .def(
          "signal",
          [](HalSemaphore& self, uint64_t new_value) {
            CheckStatus(self.semaphore->Signal(new_value), "signal failed");
          },
          "new_value"_a)
      .def(
          "wait",
          [](HalSemaphore& self, uint64_t payload,
             std::optional<int64_t> timeout, std::optional<int64_t> deadline) {
            h::Timeout until = MakeTimeout(timeout, deadline);
            Ref<h::Semaphore> semaphore = self.semaphore;
            return WaitReleased(
                [&] { return semaphore->Wait(payload, until); });
          },
          "payload"_a, "timeout"_a = nb::none(), "deadline"_a = nb::none())
      .def(
          "fail",
          [](HalSemaphore& self, const std::string& message) {
            self.semaphore->Fail(Status(StatusCode::kAborted, message));
          },
          "message"_a);

  auto fence = nb::class_<HalFence>(m, "HalFence");
  BindRefProtocol(fence, &HalFence::fence);
  fence
      .def(
          "__init__",
          [](HalFence* self, size_t /*capacity*/) {
            new (self) HalFence{h::Fence::Create()};
          },
          "capacity"_a)
      .def_static(
          "create_at",
          [](const HalSemaphore& semaphore, uint64_t value) {
            Ref<h::Fence> fence = h::Fence::Create();
            fence->Insert(semaphore.semaphore, value);
            return HalFence{std::move(fence)};
          },
          "sem"_a, "value"_a)
      .def_static(
          "join",
          [](const std::vector<HalFence*>& fences) {
            std::vector<Ref<h::Fence>> list;
            for (HalFence* fence : fences) {
              if (fence) list.push_back(fence->fence);
            }
            Ref<h::Fence> joined = h::Fence::Join(list);
            return HalFence{joined ? joined : h::Fence::Create()};
          },
          "fences"_a)
      .def(
          "insert",
          [](HalFence& self, const HalSemaphore& semaphore, uint64_t value) {
            self.fence->Insert(semaphore.semaphore, value);
          },
          "sem"_a, "value"_a)
      .def(
          "extend",
          [](HalFence& self, const HalFence& from) {
            for (const h::Fence::Timepoint& point : from.fence->timepoints()) {
              self.fence->Insert(point.semaphore, point.value);
            }
          },
          "from_fence"_a)
      .def_prop_ro("timepoint_count",
                   [](const HalFence& self) { return self.fence->size(); })
      .def(
          "wait",
          [](HalFence& self, std::optional<int64_t> timeout,
             std::optional<int64_t> deadline) {
            h::Timeout until = MakeTimeout(timeout, deadline);
            Ref<h::Fence> fence = self.fence;
            return WaitReleased([&] { return fence->Wait(until); });
          },
          "timeout"_a = nb::none(), "deadline"_a = nb::none())
      .def("signal",
           [](HalFence& self) {
             CheckStatus(self.fence->Signal(), "signal failed");
           })
      .def(
          "fail",
          [](HalFence& self, const std::string& message) {
            self.fence->Fail(Status(StatusCode::kAborted, message));
          },
          "message"_a);

  nb::class_<HalAllocator>(m, "HalAllocator")
      .def(
          "allocate_buffer",
          [](HalAllocator& self, nb::handle memory_type,
             nb::handle allowed_usage, uint64_t allocation_size) {
            h::BufferParams params;
            params.type = static_cast<h::MemoryType>(AsInt(memory_type));
            params.usage = static_cast<h::BufferUsage>(AsInt(allowed_usage));
            return HalBuffer{
                Unwrap(self.allocator->Allocate(params, allocation_size),
                       "could not allocate buffer")};
          },
          "memory_type"_a, "allowed_usage"_a, "allocation_size"_a)
      .def(
          "allocate_buffer_copy",
          [](HalAllocator& self, nb::handle memory_type,
             nb::handle allowed_usage, nb::handle /*device*/, nb::handle buffer,
             nb::object element_type) -> nb::object {
            PythonBuffer source(buffer);
            Ref<h::Buffer> copy = CopyIntoBuffer(
                *self.allocator, static_cast<int>(AsInt(memory_type)),
                static_cast<int>(AsInt(allowed_usage)), source);
            if (element_type.is_none()) {
              return nb::cast(HalBuffer{std::move(copy)});
            }
            std::vector<int64_t> shape(source.view.ndim);
            for (int i = 0; i < source.view.ndim; ++i) {
              shape[i] = source.view.shape[i];
            }
            auto type = static_cast<h::ElementType>(
                static_cast<uint32_t>(AsInt(element_type)));
            return nb::cast(HalBufferView{
                Unwrap(h::BufferView::Create(std::move(copy), shape, type,
                                             h::EncodingType::kDenseRowMajor),
                       "could not create a buffer view")});
          },
          "memory_type"_a, "allowed_usage"_a, "device"_a, "buffer"_a,
          "element_type"_a = nb::none())
      .def(
          "import_host_allocation",
          [](HalAllocator& self, nb::handle buffer, nb::handle memory_type,
             nb::handle allowed_usage) {
            // Zero copy: the HAL buffer aliases the object's memory and holds
            // the object (through its buffer view) until it dies.
            auto held = std::make_unique<HeldPythonBuffer>();
            if (PyObject_GetBuffer(buffer.ptr(), &held->view,
                                   PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE) != 0) {
              throw nb::python_error();
            }
            h::BufferParams params;
            params.type = static_cast<h::MemoryType>(AsInt(memory_type));
            params.usage = static_cast<h::BufferUsage>(AsInt(allowed_usage));
            std::span<uint8_t> bytes(static_cast<uint8_t*>(held->view.buf),
                                     static_cast<size_t>(held->view.len));
            HeldPythonBuffer* raw = held.release();
            auto release = [raw] {
              // The last reference may go on any thread, with or without the
              // GIL; after interpreter shutdown the view is left alone.
              if (Py_IsInitialized()) {
                nb::gil_scoped_acquire acquire;
                PyBuffer_Release(&raw->view);
              }
              delete raw;
            };
            return HalBuffer{Unwrap(
                self.allocator->Import(params, bytes, std::move(release)),
                "could not import host allocation")};
          },
          "buffer"_a, "memory_type"_a, "allowed_usage"_a)
      .def_prop_ro("statistics", [](const HalAllocator& self) {
        h::AllocatorStatistics stats = self.allocator->statistics();
        nb::dict out;
        out["bytes_allocated"] = stats.bytes_allocated;
        out["bytes_peak"] = stats.bytes_peak;
        out["allocation_count"] = stats.allocation_count;
        out["bytes_imported"] = stats.bytes_imported;
        return out;
      });

  auto buffer = nb::class_<HalBuffer>(m, "HalBuffer");
  BindRefProtocol(buffer, &HalBuffer::buffer);
  buffer
      .def("byte_length",
           [](const HalBuffer& self) { return self.buffer->byte_length(); })
      .def(
          "create_view",
          [](const HalBuffer& self, std::vector<int64_t> shape,
             h::ElementType element_type) {
            return HalBufferView{
                Unwrap(h::BufferView::Create(self.buffer, shape, element_type,
                                             h::EncodingType::kDenseRowMajor),
                       "could not create a buffer view")};
          },
          "shape"_a, "element_size"_a);

  auto view = nb::class_<HalBufferView>(m, "HalBufferView");
  BindRefProtocol(view, &HalBufferView::view);
  view.def_prop_ro("shape",
                   [](const HalBufferView& self) {
                     return std::vector<int64_t>(self.view->shape().begin(),
                                                 self.view->shape().end());
                   })
      .def_prop_ro(
          "element_type",
          [](const HalBufferView& self) { return self.view->element_type(); })
      .def("get_buffer",
           [](const HalBufferView& self) {
             return HalBuffer{self.view->buffer()};
           })
      .def("map",
           [](const HalBufferView& self) {
             Ref<h::Buffer> buffer = self.view->buffer();
             h::BufferMapping mapping = Unwrap(
                 buffer->Map(h::MappingMode::kScoped,
                             h::MemoryAccess::kRead | h::MemoryAccess::kWrite,
                             0, h::kWholeBuffer),
                 "could not map the buffer");
             return MappedMemory{std::move(mapping), std::move(buffer)};
           })
      .def("__repr__", [](const HalBufferView& self) {
        return "<HalBufferView (" + self.view->ShapeAndTypeString() + ")>";
      });

  nb::class_<MappedMemory>(m, "MappedMemory",
                           nb::type_slots(mapped_memory_slots))
      .def(
          "asarray",
          [](nb::handle self, std::vector<int64_t> shape, nb::handle dtype) {
            // A numpy view over the mapped bytes; it holds this object (and
            // so the mapping and the buffer) alive.
            nb::module_ numpy = nb::module_::import_("numpy");
            nb::object flat = numpy.attr("frombuffer")(self, dtype);
            return flat.attr("reshape")(nb::cast(shape));
          },
          "shape"_a, "numpy_dtype"_a);

  m.def(
      "create_hal_module",
      [](const VmInstance& instance, const HalDevice& device) {
        (void)instance;
        std::shared_ptr<vm::Module> module =
            Unwrap(modules::hal::CreateHalModule({device.device}),
                   "could not create the hal module");
        return VmModule{std::move(module), nb::none()};
      },
      "instance"_a, "device"_a);
}

}  // namespace ember::python
