// Python bindings of the HAL, the low-level half of iree.runtime's API:
// drivers and devices, allocators, buffers and buffer views, element types,
// semaphores and fences, command buffers, queue operations, mapped memory,
// and `create_hal_module`.
//
// Names and signatures follow iree.runtime 3.11 (runtime/bindings/python/
// hal.cc) and its 3.13 changes (hal_external_bindings.cc adds 3.12's new
// names) for what is bound here: get_driver, query_available_drivers,
// HalDriver (query, create_default_device, create_device by id or by the
// dict query_available_devices returns, create_device_by_uri,
// dump_device_info), HalDevice (allocator, create_semaphore, the queue
// operations queue_alloca / queue_dealloca / queue_copy / queue_execute, and
// the profiling calls), HalAllocator.allocate_buffer / allocate_buffer_copy,
// HalBuffer, HalBufferView (constructor, shape, element_type, byte_length,
// map), HalCommandBuffer (begin / copy / fill / end), MappedMemory.asarray,
// HalElementType, MemoryType, BufferUsage, create_hal_module (one device or
// several) and HalModuleDebugSink. Buffer views travel in VmVariantLists
// through the ref protocol (vm_value_bindings.h).
//
// Queue operations take their wait and signal semaphores as iree.runtime
// does: a HalFence, or a sequence of (HalSemaphore, value) pairs, and run as
// the device runs queue operations (hal/cpu/local_device.h): a device that
// runs them on the caller (local-sync) blocks in the call until the wait
// semaphores are reached -- with the GIL released, so that another Python
// thread can signal them (iree.runtime 3.11 keeps the GIL there) -- and a
// device that defers submissions returns at once.
//
// Arguments are checked before anything reaches the core: a wrong type is a
// TypeError, a negative or too large number a ValueError (nanobind's own
// conversions, as in iree.runtime, raise TypeError for negative sizes), and
// core failures map through status_utils.h.
//
// Copies: allocate_buffer_copy copies once from any C-contiguous buffer
// (numpy included); MappedMemory exports the buffer's own bytes through the
// buffer protocol, so `asarray` is a view that keeps the mapping -- and the
// buffer -- alive.
//
// Thread safety: the native objects are thread-safe; blocking work (device
// creation, copies, queue operations, waits) runs with the GIL released.
// Command buffers are recorded with the GIL held, so recording from several
// threads is serialised.
#include "python/bindings/hal_bindings.h"

#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "python/bindings/python_owner.h"
#include "python/bindings/status_utils.h"
#include "python/bindings/vm_bindings.h"
#include "python/bindings/vm_value_bindings.h"
#include "runtime/drivers/drivers.h"
#include "runtime/hal/buffer_view.h"
#include "runtime/hal/command_buffer.h"
#include "runtime/hal/cpu/local_device.h"
#include "runtime/hal/driver.h"
#include "runtime/hal/semaphore.h"
#include "runtime/modules/hal/hal_module.h"
#include "runtime/modules/vmvx/vmvx_executable.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace ember::python {
namespace {

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
bool WaitReleased(const char* what, const std::function<Status()>& wait) {
  Status status = [&] {
    nb::gil_scoped_release release;
    return wait();
  }();
  if (status.code() == StatusCode::kDeadlineExceeded) return false;
  CheckStatus(status, what);
  return true;
}

const h::DriverRegistry& Drivers() { return ember::drivers::SharedDrivers(); }

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

std::string TypeName(nb::handle value) { return Py_TYPE(value.ptr())->tp_name; }

// A non-negative Python int (or anything with __index__) that fits 64 bits:
// TypeError for other types, ValueError for negative or too large values.
uint64_t ToUint64(nb::handle value, const std::string& what) {
  nb::object index = nb::steal(PyNumber_Index(value.ptr()));
  if (!index.is_valid()) {
    PyErr_Clear();
    throw nb::type_error(
        (what + " must be an int, not " + TypeName(value)).c_str());
  }
  unsigned long long result = PyLong_AsUnsignedLongLong(index.ptr());
  if (result == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
    PyErr_Clear();
    std::string text = nb::str(index).c_str();
    throw nb::value_error(
        (what + " must be in [0, 2**64), not " + text).c_str());
  }
  return result;
}

// Strings are sequences to Python but never what a caller means by a list
// of numbers or pairs.
bool IsTextLike(nb::handle value) {
  return PyUnicode_Check(value.ptr()) || PyBytes_Check(value.ptr()) ||
         PyByteArray_Check(value.ptr());
}

// A tuple copy of a sequence, so that Python code run while the items are
// converted (__index__) cannot change what is being read.
nb::tuple SequenceAsTuple(nb::handle value, const std::string& what,
                          const char* expected) {
  if (value.is_none() || IsTextLike(value) || !PySequence_Check(value.ptr())) {
    throw nb::type_error(
        (what + " must be " + expected + ", not " + TypeName(value)).c_str());
  }
  PyObject* tuple = PySequence_Tuple(value.ptr());
  if (!tuple) throw nb::python_error();
  return nb::steal<nb::tuple>(tuple);
}

// A semaphore value a queue operation may wait for or signal. Ember bounds
// timelines at kSemaphoreMaxValue (semaphore.h): a larger wait could never
// be reached and a larger signal would fail after the work ran, so both are
// refused up front.
void CheckSemaphoreValue(uint64_t value, const std::string& what) {
  if (value > h::kSemaphoreMaxValue) {
    ThrowStatus(OutOfRangeError(
        what + ": semaphore value " + std::to_string(value) +
        " is above the maximum " + std::to_string(h::kSemaphoreMaxValue)));
  }
}

// A timepoint a queue operation is asked to signal must be above the
// semaphore's current value, as IREE requires; Ember's fences treat a
// reached timepoint as done, so it is refused here, before any work runs
// (OUT_OF_RANGE, IREE's code). A failed semaphore is left to the operation,
// which reports it.
void CheckSignalValue(const h::Semaphore& semaphore, uint64_t value,
                      const std::string& what) {
  Result<uint64_t> current = semaphore.Query();
  if (current.ok() && value <= current.value()) {
    // ValueError, as iree.runtime 3.13 (INVALID_ARGUMENT "semaphore already
    // signaled past"); 3.11 raised IndexError.
    ThrowStatus(InvalidArgumentError(
        what + ": semaphore values must increase monotonically; current " +
        std::to_string(current.value()) + ", new " + std::to_string(value)));
  }
}

// iree.runtime's semaphore-list argument: a HalFence, or a sequence of
// (HalSemaphore, value) pairs (tuples or lists). Null for an empty list.
Ref<h::Fence> ToFence(nb::handle list, const std::string& what, bool signal) {
  if (nb::isinstance<HalFence>(list)) {
    Ref<h::Fence> fence = nb::cast<HalFence&>(list).fence;
    for (const h::Fence::Timepoint& point : fence->timepoints()) {
      CheckSemaphoreValue(point.value, what);
      if (signal) CheckSignalValue(*point.semaphore, point.value, what);
    }
    return fence;
  }
  const char* expected =
      "a HalFence or a sequence of (HalSemaphore, int) pairs";
  nb::tuple items = SequenceAsTuple(list, what, expected);
  if (items.size() == 0) return Ref<h::Fence>();
  Ref<h::Fence> fence = h::Fence::Create();
  for (size_t i = 0; i < items.size(); ++i) {
    std::string entry = what + "[" + std::to_string(i) + "]";
    nb::handle item = items[i];
    if (!PyTuple_Check(item.ptr()) && !PyList_Check(item.ptr())) {
      throw nb::type_error(
          (entry + " must be a (HalSemaphore, int) pair, not " + TypeName(item))
              .c_str());
    }
    nb::tuple pair = nb::steal<nb::tuple>(PySequence_Tuple(item.ptr()));
    if (!pair.is_valid()) throw nb::python_error();
    if (pair.size() != 2) {
      throw nb::type_error((entry +
                            " must be a (HalSemaphore, int) pair, not " +
                            std::to_string(pair.size()) + " items")
                               .c_str());
    }
    if (!nb::isinstance<HalSemaphore>(pair[0])) {
      throw nb::type_error(
          (entry + "[0] must be a HalSemaphore, not " + TypeName(pair[0]))
              .c_str());
    }
    Ref<h::Semaphore> semaphore = nb::cast<HalSemaphore&>(pair[0]).semaphore;
    uint64_t value = ToUint64(pair[1], entry + "[1]");
    CheckSemaphoreValue(value, entry);
    if (signal) CheckSignalValue(*semaphore, value, entry);
    fence->Insert(semaphore, value);
  }
  return fence;
}

// The wait and signal lists of one queue operation.
struct QueueFences {
  Ref<h::Fence> wait;
  Ref<h::Fence> signal;
};
QueueFences ToQueueFences(nb::handle wait_semaphores,
                          nb::handle signal_semaphores) {
  return {ToFence(wait_semaphores, "wait_semaphores", /*signal=*/false),
          ToFence(signal_semaphores, "signal_semaphores", /*signal=*/true)};
}

// A buffer view shape: a sequence of non-negative ints, at most kMaxRank of
// them (checked before the sequence is copied).
std::vector<int64_t> ToShape(nb::handle shape) {
  if (!shape.is_none() && !IsTextLike(shape) && PySequence_Check(shape.ptr())) {
    Py_ssize_t rank = PySequence_Size(shape.ptr());
    if (rank < 0) throw nb::python_error();
    if (static_cast<size_t>(rank) > h::kMaxRank) {
      throw nb::value_error(("shape rank " + std::to_string(rank) +
                             " exceeds the maximum of " +
                             std::to_string(h::kMaxRank))
                                .c_str());
    }
  }
  nb::tuple dims = SequenceAsTuple(shape, "shape", "a sequence of ints");
  std::vector<int64_t> result;
  result.reserve(dims.size());
  for (size_t i = 0; i < dims.size(); ++i) {
    std::string what = "shape[" + std::to_string(i) + "]";
    uint64_t dim = ToUint64(dims[i], what);
    if (dim > static_cast<uint64_t>(INT64_MAX)) {
      throw nb::value_error(
          (what + " " + std::to_string(dim) + " is larger than 2**63 - 1")
              .c_str());
    }
    result.push_back(static_cast<int64_t>(dim));
  }
  return result;
}

h::ElementType ToElementType(nb::handle value) {
  uint64_t raw = ToUint64(value, "element_type");
  if (raw > UINT32_MAX) {
    throw nb::value_error(
        ("element_type " + std::to_string(raw) + " does not fit 32 bits")
            .c_str());
  }
  return static_cast<h::ElementType>(static_cast<uint32_t>(raw));
}

// The allocator specs of iree.runtime's `allocators=` argument. IREE wraps
// the device allocator in "caching" or "debug" allocators; Ember's heap
// allocator already reuses blocks and checks every range, so both names are
// accepted and change nothing. Any other name is refused as IREE does.
void CheckAllocatorSpecs(const std::optional<nb::list>& allocators) {
  if (!allocators) return;
  for (nb::handle item : *allocators) {
    if (!PyUnicode_Check(item.ptr())) {
      throw nb::type_error(
          ("allocators entries must be str, not " + TypeName(item)).c_str());
    }
    std::string spec = nb::cast<std::string>(item);
    std::string name = spec.substr(0, spec.find(':'));
    if (name != "caching" && name != "debug") {
      ThrowStatus(InvalidArgumentError("unrecognized allocator '" + name + "'"),
                  "Error configuring the device");
    }
  }
}

// The devices of `driver`, as query_available_devices lists them (the
// local drivers have one: id 0, no path, "default").
std::vector<h::DeviceInfo> DriverDevices(const std::string& driver) {
  Result<std::vector<h::DeviceInfo>> devices = [&] {
    nb::gil_scoped_release release;
    return Drivers().EnumerateDevices(driver);
  }();
  return Unwrap(std::move(devices), "Error enumerating devices");
}

nb::list AvailableDevices(const std::string& driver) {
  nb::list devices;
  for (const h::DeviceInfo& device : DriverDevices(driver)) {
    nb::dict info;
    info["device_id"] = device.device_id;
    info["path"] = device.path;
    info["name"] = device.name;
    devices.append(info);
  }
  return devices;
}

// Makes a device of `driver` from the rest of a URI after its driver name
// ("", "://path", "?key=value&..."), as iree_hal_driver_create_device_by_uri
// does: the driver named in the URI is the driver's own business, so only
// the path and the parameters count. Local drivers have no device paths.
// `shown` is the URI as the caller wrote it, for messages.
HalDevice CreateDriverDevice(const std::string& driver, const std::string& rest,
                             const std::string& shown) {
  const std::string uri = driver + rest;
  const std::string context = "Error creating device '" + shown + "'";
  h::DeviceUri parsed = Unwrap(h::ParseDeviceUri(uri), context.c_str());
  if (!parsed.path.empty()) {
    // A path the driver lists, or the index of one of its devices
    // (`vulkan://0`); drivers whose devices have no paths (the CPU ones)
    // take neither.
    const std::vector<h::DeviceInfo> devices = DriverDevices(driver);
    bool known = false;
    for (const h::DeviceInfo& device : devices) {
      known |= !device.path.empty() && device.path == parsed.path;
    }
    const bool has_paths = !devices.empty() && !devices.front().path.empty();
    const bool index =
        parsed.path.size() <= 9 &&
        parsed.path.find_first_not_of("0123456789") == std::string::npos;
    if (!known &&
        !(has_paths && index && std::stoul(parsed.path) < devices.size())) {
      ThrowStatus(NotFoundError("the " + driver + " driver has no device '" +
                                parsed.path + "'"),
                  context.c_str());
    }
  }
  return CreateDevice(uri);
}

// HalDriver.create_device: the id must be one query_available_devices
// lists; `params` (str -> str) become the device URI's parameters.
HalDevice CreateDeviceById(const HalDriver& self, uint64_t device_id,
                           const std::optional<nb::dict>& params,
                           const std::optional<nb::list>& allocators) {
  std::string path;
  bool found = false;
  for (const h::DeviceInfo& device : DriverDevices(self.name)) {
    if (device.device_id == device_id) {
      found = true;
      path = device.path;
    }
  }
  if (!found) {
    std::string available = nb::repr(AvailableDevices(self.name)).c_str();
    throw nb::value_error(("Device id " + std::to_string(device_id) +
                           " not found. Available devices: " + available)
                              .c_str());
  }
  std::string query;
  if (params) {
    for (auto [key, value] : *params) {
      if (!PyUnicode_Check(key.ptr()) || !PyUnicode_Check(value.ptr())) {
        throw nb::type_error(("device params must map str to str, not " +
                              TypeName(key) + " to " + TypeName(value))
                                 .c_str());
      }
      std::string k = nb::cast<std::string>(key);
      std::string v = nb::cast<std::string>(value);
      if (k.empty() || k.find_first_of("&=") != std::string::npos ||
          v.find('&') != std::string::npos) {
        throw nb::value_error(("device param '" + k + "'='" + v +
                               "' cannot be passed to the driver (keys must "
                               "be non-empty without '&' or '=', values "
                               "without '&')")
                                  .c_str());
      }
      query += (query.empty() ? "?" : "&") + k + "=" + v;
    }
  }
  CheckAllocatorSpecs(allocators);
  const std::string rest = (path.empty() ? "" : "://" + path) + query;
  return CreateDriverDevice(self.name, rest, self.name + rest);
}

// The command buffers of queue_execute: one, None (a barrier), or a
// sequence of them, run in order.
std::vector<Ref<h::CommandBuffer>> ToCommandBuffers(nb::handle value) {
  std::vector<Ref<h::CommandBuffer>> result;
  if (value.is_none()) return result;
  auto add = [&](nb::handle item, const std::string& what) {
    if (!nb::isinstance<HalCommandBuffer>(item)) {
      throw nb::type_error(
          (what + " must be a HalCommandBuffer, not " + TypeName(item))
              .c_str());
    }
    const HalCommandBuffer& buffer = nb::cast<const HalCommandBuffer&>(item);
    // Checked here, with the GIL, so that the check does not race with a
    // thread that is still recording.
    if (!buffer.command_buffer->finalized()) {
      ThrowStatus(FailedPreconditionError(
                      "command buffer recording has not been ended (call "
                      "end() before submitting it)"),
                  "executing command buffers");
    }
    result.push_back(buffer.command_buffer);
  };
  if (nb::isinstance<HalCommandBuffer>(value)) {
    add(value, "command_buffers");
    return result;
  }
  nb::tuple items = SequenceAsTuple(
      value, "command_buffers",
      "a HalCommandBuffer, None or a sequence of HalCommandBuffers");
  for (size_t i = 0; i < items.size(); ++i) {
    add(items[i], "command_buffers[" + std::to_string(i) + "]");
  }
  return result;
}

// Recording state of a Python-made command buffer (IREE's begin/end rules).
void CheckRecording(const HalCommandBuffer& self, const char* context) {
  if (!self.begun || self.command_buffer->finalized()) {
    ThrowStatus(FailedPreconditionError(
                    "command buffer is not in a recording state; all "
                    "recording must happen between begin() and end()"),
                context);
  }
}

void EndRecording(HalCommandBuffer& self) {
  CheckRecording(self, "command buffer end");
  CheckStatus(self.command_buffer->Finalize(), "command buffer end");
}

// Runs a queue operation with the GIL released and raises its failure.
void RunQueued(const std::function<Status()>& operation, const char* context) {
  Status status = [&] {
    nb::gil_scoped_release release;
    return operation();
  }();
  CheckStatus(status, context);
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

// "N bytes (at offset O into A), memory_type=..., allowed_access=...,
// allowed_usage=..." as iree.runtime writes a buffer in reprs.
std::string BufferReprBody(const h::Buffer& buffer) {
  return std::to_string(buffer.byte_length()) + " bytes (at offset " +
         std::to_string(buffer.byte_offset()) + " into " +
         std::to_string(buffer.allocation_size()) +
         "), memory_type=" + h::MemoryTypeToString(buffer.memory_type()) +
         ", allowed_access=" +
         h::MemoryAccessToString(buffer.allowed_access()) +
         ", allowed_usage=" + h::BufferUsageToString(buffer.allowed_usage());
}

// ---- DLPack ----
// Both DLPack ABIs: the unversioned one (a "dltensor" capsule holding a
// DLManagedTensor), which iree.runtime 3.11's create/from_dlpack_capsule
// speak, and the versioned one of DLPack >= 1.0 (a "dltensor_versioned"
// capsule holding a DLManagedTensorVersioned, whose flags can say
// read-only), which numpy >= 2 asks for. The layouts are DLPack's published
// C ABI. A consumer renames the capsule it takes ("used_" + its name) and
// from then on owns the managed tensor, which it gives back by calling the
// tensor's deleter once.
//
// Export: the managed tensor holds a reference on the buffer, so the memory
// lives until the consumer calls the deleter -- or, for a capsule nobody
// consumed, until the capsule dies -- whatever happens to the view.
//
// Import: every field is the producer's and is checked before the capsule
// is consumed, so a refused capsule is left for its producer to free. The
// producer's memory is aliased when it is dense row-major and 64-byte
// aligned (the alignment compiled kernels assume for bindings) and
// writable; a read-only tensor is always copied, since the buffers Ember
// hands out are writable.
namespace dlpack {
struct Device {
  int32_t device_type;
  int32_t device_id;
};
struct DataType {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
};
struct Tensor {
  void* data;
  Device device;
  int32_t ndim;
  DataType dtype;
  int64_t* shape;
  int64_t* strides;  // in elements; null means dense row-major
  uint64_t byte_offset;
};
struct ManagedTensor {
  Tensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(ManagedTensor* self);
};
struct Version {
  uint32_t major;
  uint32_t minor;
};
struct ManagedTensorVersioned {
  Version version;
  void* manager_ctx;
  void (*deleter)(ManagedTensorVersioned* self);
  uint64_t flags;
  Tensor dl_tensor;
};
static_assert(sizeof(void*) != 8 ||
                  (sizeof(Tensor) == 48 && sizeof(ManagedTensor) == 64 &&
                   offsetof(ManagedTensorVersioned, dl_tensor) == 32),
              "DLPack's C ABI on 64-bit targets");
constexpr uint8_t kInt = 0, kUInt = 1, kFloat = 2, kBfloat = 4, kComplex = 5,
                  kBool = 6;
constexpr int32_t kCpu = 1;
constexpr uint64_t kFlagReadOnly = uint64_t{1} << 0;
constexpr uint64_t kFlagIsCopied = uint64_t{1} << 1;
// What Ember produces: DLPack 1.0's dtypes and flags are all it uses. Any
// 1.x tensor is understood on import (minor versions keep the layout).
constexpr Version kVersion = {1, 0};
constexpr const char* kCapsuleName = "dltensor";
constexpr const char* kUsedCapsuleName = "used_dltensor";
constexpr const char* kVersionedCapsuleName = "dltensor_versioned";
constexpr const char* kUsedVersionedCapsuleName = "used_dltensor_versioned";
}  // namespace dlpack

// Zero-length tensors still point somewhere (consumers may check for null).
alignas(64) uint8_t dlpack_empty[64];

struct AlignedFree {
  void operator()(uint8_t* bytes) const {
    ::operator delete[](bytes, std::align_val_t{h::kBufferAlignment});
  }
};
using AlignedBytes = std::unique_ptr<uint8_t[], AlignedFree>;

// What an exported capsule owns: the buffer it aliases (or the copy it
// made), shape and strides, and the managed tensor of one of the two ABIs.
struct ExportedTensor {
  dlpack::ManagedTensor legacy{};
  dlpack::ManagedTensorVersioned versioned{};
  Ref<h::Buffer> buffer;  // null when the tensor is a copy
  AlignedBytes copy;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;
};

// The deleters may run on any thread, with or without the GIL: they only
// drop a buffer reference (python_owner.h gives back Python memory).
void DeleteExportedLegacy(dlpack::ManagedTensor* managed) {
  delete static_cast<ExportedTensor*>(managed->manager_ctx);
}
void DeleteExportedVersioned(dlpack::ManagedTensorVersioned* managed) {
  delete static_cast<ExportedTensor*>(managed->manager_ctx);
}

// A capsule nobody consumed still owns its tensor; a renamed (consumed)
// one does not.
void DestroyLegacyCapsule(PyObject* capsule) {
  if (!PyCapsule_IsValid(capsule, dlpack::kCapsuleName)) return;
  auto* managed = static_cast<dlpack::ManagedTensor*>(
      PyCapsule_GetPointer(capsule, dlpack::kCapsuleName));
  if (managed != nullptr && managed->deleter != nullptr) {
    managed->deleter(managed);
  }
}
void DestroyVersionedCapsule(PyObject* capsule) {
  if (!PyCapsule_IsValid(capsule, dlpack::kVersionedCapsuleName)) return;
  auto* managed = static_cast<dlpack::ManagedTensorVersioned*>(
      PyCapsule_GetPointer(capsule, dlpack::kVersionedCapsuleName));
  if (managed != nullptr && managed->deleter != nullptr) {
    managed->deleter(managed);
  }
}

[[noreturn]] void RefuseDLPack(bool buffer_error, const std::string& message) {
  if (buffer_error) throw nb::buffer_error(message.c_str());
  throw nb::value_error(message.c_str());
}

// The DLPack dtype of an element type; the error is a BufferError for the
// protocol (the standard's) and a ValueError for create_dlpack_capsule.
dlpack::DataType DLPackTypeOf(h::ElementType element_type, bool protocol) {
  const uint32_t type = static_cast<uint32_t>(element_type);
  const auto numerical = static_cast<h::NumericalType>(type >> 24);
  const uint32_t bits = type & 0xFFu;
  uint8_t code = 0;
  bool known = true;
  switch (numerical) {
    case h::NumericalType::kFloatIeee: code = dlpack::kFloat; break;
    case h::NumericalType::kIntegerUnsigned: code = dlpack::kUInt; break;
    case h::NumericalType::kInteger:
    case h::NumericalType::kIntegerSigned: code = dlpack::kInt; break;
    case h::NumericalType::kFloatBrain: code = dlpack::kBfloat; break;
    case h::NumericalType::kFloatComplex: code = dlpack::kComplex; break;
    case h::NumericalType::kBoolean: code = dlpack::kBool; break;
    default: known = false; break;
  }
  if (!known) {
    RefuseDLPack(protocol, "dlpack has no type for buffer view element type " +
                               h::FormatElementType(element_type));
  }
  if (bits == 0 || bits % 8 != 0) {
    RefuseDLPack(protocol, "dlpack needs whole-byte elements, not " +
                               h::FormatElementType(element_type));
  }
  return {code, static_cast<uint8_t>(bits), 1};
}

struct ExportOptions {
  int32_t device_type = dlpack::kCpu;
  int32_t device_id = 0;
  bool versioned = false;
  // The protocol's `copy`: always (true), never (false), when needed
  // (unset).
  std::optional<bool> copy;
  bool protocol = false;  // __dlpack__ (errors are BufferErrors)
};

// A capsule over `view`'s memory (or over a copy when asked, or when an
// unversioned consumer would otherwise get read-only memory as writable).
nb::object ExportDLPack(const h::BufferView& view,
                        const ExportOptions& options) {
  const dlpack::DataType dtype =
      DLPackTypeOf(view.element_type(), options.protocol);
  Ref<h::Buffer> buffer = view.buffer();
  const bool read_only =
      !h::HasAll(buffer->allowed_access(), h::MemoryAccess::kWrite);
  const bool needs_copy = read_only && !options.versioned;
  if (needs_copy && options.copy == false) {
    throw nb::buffer_error(
        "a read-only buffer is exported to an unversioned DLPack consumer "
        "(which has no read-only flag) only as a copy; pass "
        "max_version=(1, 0) or copy=None");
  }
  const bool copy = options.copy.value_or(false) || needs_copy;
  uint64_t length = 0;
  if (__builtin_mul_overflow(view.element_count(), uint64_t{dtype.bits} / 8,
                             &length)) {
    throw nb::buffer_error("dlpack export: the view's size overflows");
  }
  if (!buffer->host_mappable()) {
    throw nb::buffer_error(
        "dlpack export: the buffer is in device memory the host cannot map; "
        "copy it to the host first (to_host())");
  }
  h::BufferMapping mapping = Unwrap(
      buffer->Map(h::MappingMode::kScoped, h::MemoryAccess::kRead, 0, length),
      "exporting a buffer view");
  std::span<uint8_t> bytes = mapping.contents();

  auto exported = std::make_unique<ExportedTensor>();
  exported->shape.assign(view.shape().begin(), view.shape().end());
  exported->strides.resize(exported->shape.size());
  int64_t stride = 1;
  for (size_t i = exported->shape.size(); i-- > 0;) {
    exported->strides[i] = stride;
    stride *= exported->shape[i];
  }
  uint8_t* data = dlpack_empty;
  if (length > 0) {
    if (copy) {
      exported->copy.reset(new (std::align_val_t{h::kBufferAlignment})
                               uint8_t[length]);
      std::memcpy(exported->copy.get(), bytes.data(), length);
      data = exported->copy.get();
    } else {
      data = bytes.data();
    }
  }
  if (!copy) exported->buffer = std::move(buffer);

  dlpack::Tensor tensor;
  tensor.data = data;
  tensor.device = {options.device_type, options.device_id};
  tensor.ndim = static_cast<int32_t>(exported->shape.size());
  tensor.dtype = dtype;
  tensor.shape = exported->shape.data();
  tensor.strides = exported->strides.data();
  tensor.byte_offset = 0;
  PyObject* capsule = nullptr;
  if (options.versioned) {
    dlpack::ManagedTensorVersioned& managed = exported->versioned;
    managed.version = dlpack::kVersion;
    managed.manager_ctx = exported.get();
    managed.deleter = &DeleteExportedVersioned;
    managed.flags = copy        ? dlpack::kFlagIsCopied
                    : read_only ? dlpack::kFlagReadOnly
                                : 0;
    managed.dl_tensor = tensor;
    capsule = PyCapsule_New(&managed, dlpack::kVersionedCapsuleName,
                            &DestroyVersionedCapsule);
  } else {
    dlpack::ManagedTensor& managed = exported->legacy;
    managed.dl_tensor = tensor;
    managed.manager_ctx = exported.get();
    managed.deleter = &DeleteExportedLegacy;
    capsule =
        PyCapsule_New(&managed, dlpack::kCapsuleName, &DestroyLegacyCapsule);
  }
  if (capsule == nullptr) throw nb::python_error();
  exported.release();  // owned by the capsule (or by its consumer)
  return nb::steal(capsule);
}

// `__dlpack__(stream=None, max_version=None, dl_device=None, copy=None)` of
// the Python array API standard (2023.12) for a buffer view in CPU memory.
nb::object ExportDLPackProtocol(const h::BufferView& view, nb::handle stream,
                                nb::handle max_version, nb::handle dl_device,
                                nb::handle copy) {
  if (!stream.is_none()) {
    throw nb::buffer_error(
        "CPU memory has no streams: __dlpack__ takes stream=None only");
  }
  ExportOptions options;
  options.protocol = true;
  if (!max_version.is_none()) {
    std::pair<int64_t, int64_t> version;
    if (!nb::try_cast(max_version, version)) {
      throw nb::type_error("max_version must be a (major, minor) tuple");
    }
    // Older consumers cannot read a versioned capsule (the standard).
    options.versioned = version.first >= 1;
  }
  if (!dl_device.is_none()) {
    std::pair<int64_t, int64_t> device;
    if (!nb::try_cast(dl_device, device)) {
      throw nb::type_error(
          "dl_device must be a (device_type, device_id) tuple");
    }
    if (device.first != dlpack::kCpu || device.second != 0) {
      throw nb::buffer_error(("cannot export to dlpack device (" +
                              std::to_string(device.first) + ", " +
                              std::to_string(device.second) +
                              "): the buffer is CPU memory, device (1, 0)")
                                 .c_str());
    }
  }
  if (!copy.is_none()) {
    const int truthy = PyObject_IsTrue(copy.ptr());
    if (truthy < 0) throw nb::python_error();
    options.copy = truthy != 0;
  }
  return ExportDLPack(view, options);
}

// The element type of a DLPack dtype, or a ValueError saying why not.
h::ElementType ElementTypeOfDLPack(const dlpack::DataType& dtype) {
  if (dtype.lanes != 1) throw nb::value_error("Unsupported dtype lanes != 1");
  h::NumericalType numerical;
  switch (dtype.code) {
    case dlpack::kInt: numerical = h::NumericalType::kIntegerSigned; break;
    case dlpack::kUInt: numerical = h::NumericalType::kIntegerUnsigned; break;
    case dlpack::kFloat: numerical = h::NumericalType::kFloatIeee; break;
    case dlpack::kBfloat: numerical = h::NumericalType::kFloatBrain; break;
    case dlpack::kComplex: numerical = h::NumericalType::kFloatComplex; break;
    case dlpack::kBool: numerical = h::NumericalType::kBoolean; break;
    default:
      throw nb::value_error(
          ("Unsupported dlpack dtype code " + std::to_string(dtype.code))
              .c_str());
  }
  if (dtype.bits == 0 || dtype.bits % 8 != 0) {
    throw nb::value_error("dlpack tensor does not have a byte aligned size");
  }
  // Only the widths the HAL has element types for (no f24, no i256).
  const uint32_t bits = dtype.bits;
  bool known = false;
  switch (dtype.code) {
    case dlpack::kInt:
    case dlpack::kUInt:
      known = bits == 8 || bits == 16 || bits == 32 || bits == 64;
      break;
    case dlpack::kFloat: known = bits == 16 || bits == 32 || bits == 64; break;
    case dlpack::kBfloat: known = bits == 16; break;
    case dlpack::kComplex: known = bits == 64 || bits == 128; break;
    case dlpack::kBool: known = bits == 8; break;
    default: break;
  }
  if (!known) {
    throw nb::value_error(("Unsupported dlpack dtype: code " +
                           std::to_string(dtype.code) + " with " +
                           std::to_string(bits) + " bits")
                              .c_str());
  }
  return static_cast<h::ElementType>(h::MakeElementTypeValue(numerical, bits));
}

// How an import may copy: `from_dlpack_capsule` aliases or refuses (only a
// read-only tensor is copied); the protocol's `copy` is the rest.
enum class ImportCopy { kStrict, kIfNeeded, kAlways, kNever };

// Gives a consumed tensor back to its producer (ReleasePythonOwned's
// signature: the producer's deleter may take the GIL).
void ReleaseLegacy(void* owner) {
  auto* managed = static_cast<dlpack::ManagedTensor*>(owner);
  if (managed->deleter != nullptr) managed->deleter(managed);
}
void ReleaseVersioned(void* owner) {
  auto* managed = static_cast<dlpack::ManagedTensorVersioned*>(owner);
  if (managed->deleter != nullptr) managed->deleter(managed);
}

// Copies a strided tensor into dense row-major order; `byte_strides` (0 for
// dimensions of 1) were checked to keep every element inside the address
// range the caller validated, and `shape` has no zero.
void GatherStrided(uint8_t* target, uintptr_t source,
                   const std::vector<int64_t>& shape,
                   const std::vector<int64_t>& byte_strides, size_t itemsize) {
  const size_t rank = shape.size();
  if (rank == 0) {
    std::memcpy(target, reinterpret_cast<const void*>(source), itemsize);
    return;
  }
  std::vector<int64_t> index(rank, 0);
  const int64_t inner = shape[rank - 1];
  const auto inner_stride = static_cast<uintptr_t>(byte_strides[rank - 1]);
  uintptr_t row = source;  // the element whose last index is 0
  for (;;) {
    uintptr_t element = row;
    for (int64_t i = 0; i < inner; ++i) {
      std::memcpy(target, reinterpret_cast<const void*>(element), itemsize);
      target += itemsize;
      element += inner_stride;  // unsigned wrap-around is the signed step
    }
    size_t dim = rank - 1;
    for (;;) {
      if (dim == 0) return;
      --dim;
      if (++index[dim] < shape[dim]) {
        row += static_cast<uintptr_t>(byte_strides[dim]);
        break;
      }
      row -= static_cast<uintptr_t>(byte_strides[dim] * (shape[dim] - 1));
      index[dim] = 0;
    }
  }
}

// Imports a "dltensor" or "dltensor_versioned" capsule: aliased when its
// memory can be bound as it is, else copied as `mode` allows.
HalBufferView ImportDLPack(const Ref<h::Device>& device, nb::handle capsule,
                           ImportCopy mode) {
  PyObject* object = capsule.ptr();
  const bool versioned =
      PyCapsule_IsValid(object, dlpack::kVersionedCapsuleName) != 0;
  if (!versioned && !PyCapsule_IsValid(object, dlpack::kCapsuleName)) {
    const bool used =
        PyCapsule_IsValid(object, dlpack::kUsedCapsuleName) ||
        PyCapsule_IsValid(object, dlpack::kUsedVersionedCapsuleName);
    throw nb::value_error(
        used ? "expected an unconsumed DLPack capsule; this one was already "
               "consumed"
             : "expected an unconsumed DLPack capsule (named 'dltensor' or "
               "'dltensor_versioned')");
  }
  void* managed = PyCapsule_GetPointer(
      object, versioned ? dlpack::kVersionedCapsuleName : dlpack::kCapsuleName);
  if (managed == nullptr) throw nb::python_error();
  const dlpack::Tensor* tensor = nullptr;
  uint64_t flags = 0;
  if (versioned) {
    auto* holder = static_cast<dlpack::ManagedTensorVersioned*>(managed);
    // Past `flags` the layout of another major version is unknown.
    if (holder->version.major != dlpack::kVersion.major) {
      throw nb::buffer_error(("dlpack tensor of version " +
                              std::to_string(holder->version.major) + "." +
                              std::to_string(holder->version.minor) +
                              "; only major version 1 can be imported")
                                 .c_str());
    }
    tensor = &holder->dl_tensor;
    flags = holder->flags;
  } else {
    tensor = &static_cast<dlpack::ManagedTensor*>(managed)->dl_tensor;
  }

  if (tensor->device.device_type != dlpack::kCpu) {
    throw nb::value_error(("dlpack tensor is on device type " +
                           std::to_string(tensor->device.device_type) +
                           "; only CPU memory (type 1) can be imported")
                              .c_str());
  }
  const h::ElementType element_type = ElementTypeOfDLPack(tensor->dtype);
  const size_t itemsize = tensor->dtype.bits / 8;
  const int32_t ndim = tensor->ndim;
  if (ndim < 0 || static_cast<size_t>(ndim) > h::kMaxRank) {
    throw nb::value_error(("dlpack tensor rank " + std::to_string(ndim) +
                           " is out of range [0, " +
                           std::to_string(h::kMaxRank) + "]")
                              .c_str());
  }
  if (ndim > 0 && tensor->shape == nullptr) {
    throw nb::value_error("dlpack tensor has no shape");
  }
  std::vector<int64_t> shape(tensor->shape, tensor->shape + ndim);
  uint64_t count = 1;
  for (int64_t dim : shape) {
    if (dim < 0) {
      throw nb::value_error("dlpack tensor has a negative dimension");
    }
    if (__builtin_mul_overflow(count, static_cast<uint64_t>(dim), &count)) {
      throw nb::value_error("dlpack tensor size overflows");
    }
  }
  uint64_t byte_length = 0;
  if (__builtin_mul_overflow(count, uint64_t{itemsize}, &byte_length) ||
      byte_length > h::Allocator::kMaxAllocationSize) {
    throw nb::value_error("dlpack tensor size overflows");
  }

  // The bytes the elements span, relative to the first element: [low,
  // high). Strides of dimensions of 1 are never used (and may be anything).
  bool compact = true;
  std::vector<int64_t> byte_strides(shape.size(), 0);
  int64_t low = 0;
  auto high = static_cast<int64_t>(byte_length);
  if (count > 0 && ndim > 0 && tensor->strides != nullptr) {
    high = static_cast<int64_t>(itemsize);
    int64_t expected = 1;  // at most count, which is bounded above
    for (int32_t i = ndim - 1; i >= 0; --i) {
      if (shape[i] == 1) continue;
      const int64_t stride = tensor->strides[i];
      if (stride != expected) compact = false;
      expected *= shape[i];
      int64_t step = 0;
      int64_t extent = 0;
      if (__builtin_mul_overflow(stride, static_cast<int64_t>(itemsize),
                                 &step) ||
          __builtin_mul_overflow(step, shape[i] - 1, &extent) ||
          __builtin_add_overflow(extent < 0 ? low : high, extent,
                                 extent < 0 ? &low : &high)) {
        throw nb::value_error("dlpack tensor strides overflow");
      }
      byte_strides[i] = step;
    }
  }
  uintptr_t start = reinterpret_cast<uintptr_t>(tensor->data);
  if (count > 0) {
    if (tensor->data == nullptr) {
      throw nb::value_error(("dlpack tensor has no data (a null pointer) for " +
                             std::to_string(count) + " elements")
                                .c_str());
    }
    uintptr_t end = 0;
    if (__builtin_add_overflow(start, tensor->byte_offset, &start) ||
        (low < 0 && start < static_cast<uintptr_t>(-low)) ||
        __builtin_add_overflow(start, static_cast<uintptr_t>(high), &end)) {
      throw nb::value_error(
          "dlpack tensor data, byte_offset and strides leave the address "
          "space");
    }
  }
  const bool aligned = count == 0 || start % h::kBufferAlignment == 0;
  const bool read_only = (flags & dlpack::kFlagReadOnly) != 0;

  bool copy = false;
  switch (mode) {
    case ImportCopy::kStrict:
      if (!compact) {
        throw nb::value_error(
            "Unsupported strided tensor: from_dlpack_capsule imports dense "
            "row-major tensors only (ember.runtime.from_dlpack copies them)");
      }
      if (!aligned) {
        throw nb::value_error(
            "dlpack tensor data is not 64-byte aligned (kernels need it); "
            "copy it into an allocated buffer instead (ember.runtime."
            "from_dlpack does)");
      }
      copy = read_only;
      break;
    case ImportCopy::kNever:
      if (!compact || !aligned || read_only) {
        RefuseDLPack(true, std::string("dlpack tensor is ") +
                               (!compact   ? "strided"
                                : !aligned ? "not 64-byte aligned"
                                           : "read-only") +
                               ", so it cannot be imported without a copy "
                               "(copy=False)");
      }
      break;
    case ImportCopy::kAlways: copy = true; break;
    case ImportCopy::kIfNeeded: copy = !compact || !aligned || read_only; break;
  }
  // An empty tensor has nothing to alias: give it back at once.
  if (count == 0) copy = true;

  h::BufferParams params;
  params.type = h::MemoryType::kDeviceLocal;
  params.access = h::MemoryAccess::kRead | h::MemoryAccess::kWrite;
  params.usage = h::BufferUsage::kDefault;
  if (!copy && !device->allocator().CanImport(
                   params, std::span<const uint8_t>(
                               reinterpret_cast<const uint8_t*>(start),
                               static_cast<size_t>(byte_length)))) {
    // The device cannot use this memory in place (another device's
    // allocator): one copy, unless the caller forbade it.
    if (mode == ImportCopy::kNever) {
      RefuseDLPack(true, "dlpack tensor memory cannot be used by device '" +
                             std::string(device->id()) +
                             "' without a copy (copy=False)");
    }
    copy = true;
  }
  void (*release)(void*) = versioned ? &ReleaseVersioned : &ReleaseLegacy;
  const char* used_name =
      versioned ? dlpack::kUsedVersionedCapsuleName : dlpack::kUsedCapsuleName;
  Ref<h::Buffer> buffer;
  if (copy && compact) {
    // One pass: the new block is filled as it is allocated (not zeroed
    // first), without the GIL.
    std::span<const uint8_t> source(reinterpret_cast<const uint8_t*>(start),
                                    static_cast<size_t>(byte_length));
    std::optional<Result<Ref<h::Buffer>>> copied;
    {
      nb::gil_scoped_release unlocked;
      copied.emplace(device->allocator().AllocateCopy(params, source));
    }
    buffer = Unwrap(std::move(*copied), "copying a dlpack tensor");
    // Consume: the managed tensor is ours to give back.
    if (PyCapsule_SetName(object, used_name) != 0) throw nb::python_error();
    release(managed);
  } else if (copy) {
    buffer = Unwrap(device->allocator().Allocate(params, byte_length),
                    "copying a dlpack tensor");
    h::BufferMapping mapping =
        Unwrap(buffer->Map(h::MappingMode::kScoped, h::MemoryAccess::kWrite, 0,
                           byte_length),
               "copying a dlpack tensor");
    std::span<uint8_t> target = mapping.contents();
    // Consume: from here the managed tensor is ours to give back.
    if (PyCapsule_SetName(object, used_name) != 0) throw nb::python_error();
    if (count > 0) {
      nb::gil_scoped_release unlocked;
      if (compact) {
        std::memcpy(target.data(), reinterpret_cast<const void*>(start),
                    byte_length);
      } else {
        GatherStrided(target.data(), start, shape, byte_strides, itemsize);
      }
    }
    release(managed);
  } else {
    if (PyCapsule_SetName(object, used_name) != 0) throw nb::python_error();
    std::span<uint8_t> bytes(reinterpret_cast<uint8_t*>(start),
                             static_cast<size_t>(byte_length));
    buffer = Unwrap(
        device->allocator().Import(
            params, bytes,
            [release, managed] { ReleasePythonOwned(release, managed); }),
        "importing a dlpack tensor");
  }
  return HalBufferView{
      Unwrap(h::BufferView::Create(std::move(buffer), shape, element_type,
                                   h::EncodingType::kDenseRowMajor),
             "importing a dlpack tensor")};
}

// ---- HalModuleDebugSink ----------------------------------------------------
//
// `HalModuleDebugSink(buffer_view_trace_callback)` holds a Python callable
// that a hal module made with `create_hal_module(..., debug_sink=sink)`
// calls for every `hal.buffer_view.trace` of a program, as
// `callback(key: str, buffer_views: list[HalBufferView])`, during the
// program's call: the views are the program's own (no copies) and may be
// kept. An exception raised by the callback fails the call with an UNKNOWN
// status carrying its text (so `invoke` raises RuntimeError). The callback
// runs on the calling thread with the GIL taken again: `invoke` holds its
// context's lock but not the GIL while it runs, and nothing waits for that
// lock with the GIL held, so the two cannot deadlock; the callback must
// not call into the same context.
//
// Lifetimes, as in iree.runtime: the hal module keeps the sink (and so the
// callback) alive for as long as the module or a context using it lives,
// whether or not Python still holds the module. The sink takes part in
// Python's cycle collection, so a callback that refers to its own sink is
// collected; a callback that refers to the module or a context that uses
// it is a cycle through native code that is never collected.
struct HalModuleDebugSink {
  nb::object callback;  // null once the cycle collector cleared it
};

int DebugSinkTraverse(PyObject* self, visitproc visit, void* arg) {
  Py_VISIT(Py_TYPE(self));  // instances of heap types refer to their type
  if (!nb::inst_ready(self)) return 0;  // __init__ has not run yet
  Py_VISIT(nb::inst_ptr<HalModuleDebugSink>(self)->callback.ptr());
  return 0;
}

int DebugSinkClear(PyObject* self) {
  nb::inst_ptr<HalModuleDebugSink>(self)->callback.reset();
  return 0;
}

PyType_Slot debug_sink_slots[] = {
    {Py_tp_traverse, reinterpret_cast<void*>(&DebugSinkTraverse)},
    {Py_tp_clear, reinterpret_cast<void*>(&DebugSinkClear)},
    {0, nullptr},
};

// A strong reference to a Python object that native code owns and may drop
// on any thread, with or without the GIL (the hal module goes with the last
// context that uses it). After interpreter shutdown the object is left.
class NativeOwnedObject {
 public:
  explicit NativeOwnedObject(nb::handle object) : object_(object.ptr()) {
    Py_INCREF(object_);
  }
  ~NativeOwnedObject() {
    if (!Py_IsInitialized()) return;
    nb::gil_scoped_acquire acquire;
    Py_DECREF(object_);
  }
  NativeOwnedObject(const NativeOwnedObject&) = delete;
  NativeOwnedObject& operator=(const NativeOwnedObject&) = delete;
  PyObject* get() const { return object_; }

 private:
  PyObject* object_;
};

// The hal module's sink over a HalModuleDebugSink Python object.
modules::hal::DebugSink NativeDebugSink(nb::handle python_sink) {
  auto owned = std::make_shared<NativeOwnedObject>(python_sink);
  modules::hal::DebugSink sink;
  sink.buffer_view_trace =
      [owned](std::string_view key,
              std::span<const Ref<h::BufferView>> views) -> Status {
    if (!Py_IsInitialized()) return Status::Ok();
    nb::gil_scoped_acquire acquire;
    nb::handle self(owned->get());
    const nb::object& callback =
        nb::inst_ptr<HalModuleDebugSink>(self)->callback;
    if (!callback.is_valid() || callback.is_none()) return Status::Ok();
    try {
      // Keys come from the program: bytes that are not UTF-8 are replaced
      // rather than failing the trace.
      nb::object text = nb::steal(PyUnicode_DecodeUTF8(
          key.data(), static_cast<Py_ssize_t>(key.size()), "replace"));
      if (!text.is_valid()) throw nb::python_error();
      nb::list list;
      for (const Ref<h::BufferView>& view : views) {
        list.append(nb::cast(HalBufferView{view}, nb::rv_policy::move));
      }
      // Held over the call: the callback may drop the sink's last other
      // reference to itself.
      nb::object keep = callback;
      keep(text, list);
    } catch (nb::python_error& error) {
      return MakeStatus(StatusCode::kUnknown,
                        "the debug sink's buffer view trace callback raised "
                        "%s",
                        error.what());
    }
    return Status::Ok();
  };
  return sink;
}

// ---- create_hal_module ------------------------------------------------------

// `create_hal_module(instance, device=None, devices=None, debug_sink=None)`:
// one device, or a sequence of them (devices.get(i) is devices[i]); exactly
// one of the two must be given. Without a sink, traces are written to the
// process's stderr, as iree.runtime's stdio sink writes them.
VmModule CreateHalModuleBinding(
    const VmInstance& instance, const HalDevice* device,
    std::optional<std::vector<const HalDevice*>> devices,
    const HalModuleDebugSink* debug_sink) {
  (void)instance;
  if (device != nullptr && devices) {
    throw nb::value_error(
        "\"device\" and \"devices\" are mutually exclusive arguments");
  }
  std::vector<Ref<h::Device>> list;
  if (device != nullptr) {
    list.push_back(device->device);
  } else if (devices) {
    for (const HalDevice* one : *devices) {
      if (one == nullptr) {
        throw nb::type_error("devices must be a sequence of HalDevices");
      }
      list.push_back(one->device);
    }
    if (list.empty()) {
      throw nb::value_error("create_hal_module: devices is empty");
    }
  } else {
    throw nb::value_error(
        "create_hal_module needs a device (device=) or devices (devices=)");
  }
  modules::hal::DebugSink sink = debug_sink != nullptr
                                     ? NativeDebugSink(nb::find(debug_sink))
                                     : modules::hal::StdioDebugSink(stderr);
  std::shared_ptr<vm::Module> module =
      Unwrap(modules::hal::CreateHalModule(std::move(list), std::move(sink)),
             "could not create the hal module");
  return VmModule{std::move(module), nb::none()};
}

}  // namespace

void BindHal(nb::module_& m) {
  // Element types, memory types and usages as the ints IREE uses, with the
  // names of iree.runtime's enums.
  auto element_type =
      nb::enum_<h::ElementType>(m, "HalElementType", nb::is_arithmetic(),
                                "The element type of a buffer view, as "
                                "iree.runtime's HalElementType: members are "
                                "the HAL's 32-bit type codes (ints).");
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
  element_type
      .def_static(
          "is_byte_aligned",
          [](h::ElementType type) { return h::IsByteAligned(type); },
          "element_type"_a,
          "Whether an element of `element_type` takes a whole number of "
          "bytes.")
      .def_static(
          "dense_byte_count",
          [](h::ElementType type) { return h::DenseByteCount(type); },
          "element_type"_a,
          "The bytes an element of `element_type` takes when stored densely "
          "(a sub-byte type rounds up to whole bytes).");

  // What an allocator can do with buffers of given parameters, as IREE's
  // iree_hal_buffer_compatibility_t.
  nb::enum_<h::BufferCompatibility>(
      m, "BufferCompatibility", nb::is_flag(), nb::is_arithmetic(),
      "Flags HalAllocator.query_buffer_compatibility returns: whether buffers "
      "of given parameters can be allocated, imported, exported, and used by "
      "queue transfers and dispatches.")
      .value("NONE", h::BufferCompatibility::kNone)
      .value("ALLOCATABLE", h::BufferCompatibility::kAllocatable)
      .value("IMPORTABLE", h::BufferCompatibility::kImportable)
      .value("EXPORTABLE", h::BufferCompatibility::kExportable)
      .value("QUEUE_TRANSFER", h::BufferCompatibility::kQueueTransfer)
      .value("QUEUE_DISPATCH", h::BufferCompatibility::kQueueDispatch)
      .value("LOW_PERFORMANCE", h::BufferCompatibility::kLowPerformance);

  auto memory_type = nb::enum_<h::MemoryType>(
      m, "MemoryType", nb::is_flag(), nb::is_arithmetic(),
      "Memory type flags of a buffer (where its memory lives and who sees "
      "it), as iree.runtime's MemoryType; they combine with |.");
  memory_type.value("NONE", h::MemoryType::kNone)
      .value("OPTIMAL", h::MemoryType::kOptimal)
      .value("HOST_VISIBLE", h::MemoryType::kHostVisible)
      .value("HOST_COHERENT", h::MemoryType::kHostCoherent)
      .value("HOST_CACHED", h::MemoryType::kHostCached)
      .value("HOST_LOCAL", h::MemoryType::kHostLocal)
      .value("DEVICE_VISIBLE", h::MemoryType::kDeviceVisible)
      .value("DEVICE_LOCAL", h::MemoryType::kDeviceLocal);
  nb::enum_<h::MemoryAccess>(m, "MemoryAccess", nb::is_flag(),
                             nb::is_arithmetic(),
                             "Access flags of a buffer (read, write, "
                             "discard...), as iree.runtime's MemoryAccess; "
                             "they combine with |.")
      .value("NONE", h::MemoryAccess::kNone)
      .value("READ", h::MemoryAccess::kRead)
      .value("WRITE", h::MemoryAccess::kWrite)
      .value("DISCARD", h::MemoryAccess::kDiscard)
      .value("DISCARD_WRITE", h::MemoryAccess::kDiscardWrite)
      .value("MAY_ALIAS", h::MemoryAccess::kMayAlias)
      .value("UNALIGNED", h::MemoryAccess::kUnaligned)
      .value("ANY", h::MemoryAccess::kAny)
      .value("ALL", h::MemoryAccess::kAll);
  auto usage = nb::enum_<h::BufferUsage>(
      m, "BufferUsage", nb::is_flag(), nb::is_arithmetic(),
      "Usage flags of a buffer (transfers, dispatches, mapping), as "
      "iree.runtime's BufferUsage; they combine with |.");
  usage.value("NONE", h::BufferUsage::kNone)
      .value("TRANSFER_SOURCE", h::BufferUsage::kTransferSource)
      .value("TRANSFER_TARGET", h::BufferUsage::kTransferTarget)
      .value("TRANSFER", h::BufferUsage::kTransfer)
      .value("DISPATCH_INDIRECT_PARAMETERS",
             h::BufferUsage::kDispatchIndirectParameters)
      .value("DISPATCH_UNIFORM_READ", h::BufferUsage::kDispatchUniformRead)
      .value("DISPATCH_STORAGE_READ", h::BufferUsage::kDispatchStorageRead)
      .value("DISPATCH_STORAGE_WRITE", h::BufferUsage::kDispatchStorageWrite)
      .value("DISPATCH_STORAGE", h::BufferUsage::kDispatchStorage)
      .value("DISPATCH_IMAGE_READ", h::BufferUsage::kDispatchImageRead)
      .value("DISPATCH_IMAGE_WRITE", h::BufferUsage::kDispatchImageWrite)
      .value("DISPATCH_IMAGE", h::BufferUsage::kDispatchImageRead |
                                   h::BufferUsage::kDispatchImageWrite)
      .value("SHARING_EXPORT", h::BufferUsage::kSharingExport)
      .value("SHARING_REPLICATE", h::BufferUsage::kSharingReplicate)
      .value("SHARING_CONCURRENT", h::BufferUsage::kSharingConcurrent)
      .value("SHARING_IMMUTABLE", h::BufferUsage::kSharingImmutable)
      .value("MAPPING_SCOPED", h::BufferUsage::kMappingScoped)
      .value("MAPPING_PERSISTENT", h::BufferUsage::kMappingPersistent)
      .value("MAPPING_OPTIONAL", h::BufferUsage::kMappingOptional)
      .value("MAPPING_ACCESS_RANDOM", h::BufferUsage::kMappingAccessRandom)
      .value("MAPPING_ACCESS_SEQUENTIAL_WRITE",
             h::BufferUsage::kMappingAccessSequentialWrite)
      .value("MAPPING", h::BufferUsage::kMapping)
      .value("DEFAULT", h::BufferUsage::kDefault)
      // Ember's earlier name of DISPATCH_INDIRECT_PARAMETERS (an alias).
      .value("DISPATCH_INDIRECT_PARAMS",
             h::BufferUsage::kDispatchIndirectParameters);

  m.def(
      "query_available_drivers",
      [] {
        std::vector<std::string> names;
        for (const h::DriverInfo& info : Drivers().drivers()) {
          names.push_back(info.name);
        }
        return names;
      },
      "The names of the HAL drivers Ember provides (the CPU drivers "
      "local-sync and local-task).");
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
      "device_uri"_a,
      "The HalDriver named by `device_uri`: a driver name, or a device URI "
      "whose part before ':' is one; ValueError for an unknown driver.");

  nb::class_<HalDriver>(m, "HalDriver",
                        "A HAL driver, as get_driver returns it: it creates "
                        "HalDevices.")
      .def_static(
          "query",
          [] {
            std::vector<std::string> names;
            for (const h::DriverInfo& info : Drivers().drivers()) {
              names.push_back(info.name);
            }
            return names;
          },
          "The names of the available drivers (as query_available_drivers).")
      .def(
          "create_default_device",
          [](const HalDriver& self, std::optional<nb::list> allocators) {
            CheckAllocatorSpecs(allocators);
            return CreateDevice(self.name);
          },
          "allocators"_a = nb::none(),
          "Creates the driver's default device, with the GIL released. "
          "`allocators` takes iree.runtime's \"caching\" and \"debug\" "
          "specs, which change nothing here; another name raises "
          "ValueError.")
      .def(
          "create_device",
          [](const HalDriver& self, uint64_t device_id,
             std::optional<nb::dict> params,
             std::optional<nb::list> allocators) {
            return CreateDeviceById(self, device_id, params, allocators);
          },
          "device_id"_a, "params"_a = nb::none(), "allocators"_a = nb::none(),
          "Creates the device with `device_id` (local drivers have one, id "
          "0; ValueError for another); `params` (str to str) become the "
          "device URI's parameters, e.g. {\"worker_count\": \"4\"} for "
          "local-task.")
      .def(
          "create_device",
          [](const HalDriver& self, nb::dict device_info,
             std::optional<nb::dict> params,
             std::optional<nb::list> allocators) {
            // The dict query_available_devices returns; a missing id is a
            // KeyError, as in iree.runtime.
            nb::object id = device_info["device_id"];
            return CreateDeviceById(self,
                                    ToUint64(id, "device_info['device_id']"),
                                    params, allocators);
          },
          "device_info"_a, "params"_a = nb::none(), "allocators"_a = nb::none(),
          "Creates the device a dict from query_available_devices describes "
          "(its \"device_id\"; KeyError without one).")
      .def(
          "create_device_by_uri",
          [](const HalDriver& self, const std::string& uri,
             std::optional<nb::list> allocators) {
            CheckAllocatorSpecs(allocators);
            // Whatever driver the URI names, this driver makes the device.
            size_t driver_end = std::min(uri.find("://"), uri.find('?'));
            std::string rest =
                driver_end == std::string::npos ? "" : uri.substr(driver_end);
            return CreateDriverDevice(self.name, rest, uri);
          },
          "device_uri"_a, "allocators"_a = nb::none(),
          "Creates a device from a URI such as "
          "\"local-task?worker_count=4\", with the GIL released; this "
          "driver makes it whatever driver the URI names. Local drivers have "
          "no device paths (ValueError).")
      .def(
          "query_available_devices",
          [](const HalDriver& self) { return AvailableDevices(self.name); },
          "The devices this driver can create, as dicts with \"device_id\", "
          "\"path\" and \"name\" (local drivers have one, id 0).")
      .def(
          "dump_device_info",
          // IREE's local drivers have nothing to say about any device id.
          [](const HalDriver&, uint64_t) { return std::string(); },
          "device_id"_a,
          "A description of a device as text; empty for the local drivers, "
          "as in IREE.")
      .def("__repr__", [](const HalDriver& self) {
        return "<HalDriver " + self.name + ">";
      });

  auto device = nb::class_<HalDevice>(
      m, "HalDevice",
      "A device that runs programs and queue operations, made by a HalDriver; "
      "create_hal_module gives it to programs.");
  device.def(
      "create_dlpack_capsule",
      [](const HalDevice&, const HalBufferView& view, int32_t device_type_code,
         int32_t device_id) {
        ExportOptions options;
        options.device_type = device_type_code;
        options.device_id = device_id;
        return ExportDLPack(*view.view, options);
      },
      "buffer_view"_a, "device_type_code"_a, "device_id"_a,
      "An unversioned DLPack capsule ('dltensor') aliasing the view's "
      "buffer, labelled with the given device type and id (as "
      "iree.runtime's); the capsule, or its consumer, keeps the buffer "
      "alive.");
  device.def(
      "from_dlpack_capsule",
      [](const HalDevice& self, nb::handle capsule) {
        return ImportDLPack(self.device, capsule, ImportCopy::kStrict);
      },
      "capsule"_a,
      "Imports a DLPack capsule ('dltensor' or 'dltensor_versioned') "
      "without a copy: the view aliases the producer's memory and gives it "
      "back when the buffer dies. Strided or not 64-byte aligned tensors "
      "are refused (ValueError); a read-only tensor is copied.");
  device.def(
      "_import_dlpack",
      [](const HalDevice& self, nb::handle capsule, nb::handle copy) {
        ImportCopy mode = ImportCopy::kIfNeeded;
        if (!copy.is_none()) {
          const int truthy = PyObject_IsTrue(copy.ptr());
          if (truthy < 0) throw nb::python_error();
          mode = truthy != 0 ? ImportCopy::kAlways : ImportCopy::kNever;
        }
        return ImportDLPack(self.device, capsule, mode);
      },
      "capsule"_a, "copy"_a = nb::none(),
      "ember.runtime.from_dlpack's import: aliases the capsule's memory "
      "when it is dense, 64-byte aligned and writable, else copies it once; "
      "copy=True always copies, copy=False raises BufferError instead.");
  BindRefProtocol(device, &HalDevice::device);
  device
      .def_prop_ro(
          "allocator",
          [](const HalDevice& self) {
            return HalAllocator{
                Ref<h::Allocator>::Retain(&self.device->allocator())};
          },
          "The device's HalAllocator.")
      .def(
          "create_semaphore",
          [](const HalDevice&, uint64_t initial_value) {
            return HalSemaphore{h::Semaphore::Create(initial_value)};
          },
          "initial_value"_a,
          "A new timeline HalSemaphore whose value starts at "
          "`initial_value`.")
      .def(
          "begin_profiling",
          [](const HalDevice&, std::optional<std::string> mode,
             std::optional<std::string> file_path) {
            // IREE's local-sync and local-task devices accept profiling
            // requests and record nothing; so do Ember's CPU devices.
            // iree.runtime 3.13 takes only `mode` and raises ValueError for
            // any mode but None (its bindings have no profile sink to give);
            // a mode without `file_path` is that error here too. 3.11 took a
            // `file_path` beside the mode; that call form stays accepted
            // (it records nothing either way) with 3.11's modes, and other
            // modes are 3.11's ValueError.
            if (!mode) return;
            if (!file_path) {
              throw nb::value_error(
                  "profiling mode requires a profile sink, which Ember's "
                  "CPU devices do not have (as iree.runtime 3.13's Python "
                  "HAL); call begin_profiling() without a mode");
            }
            if (*mode != "queue" && *mode != "dispatch" &&
                *mode != "executable") {
              throw nb::value_error("unrecognized profiling mode");
            }
          },
          "mode"_a = nb::none(), "file_path"_a = nb::none(),
          "Accepted as iree.runtime accepts it; Ember's CPU devices record no "
          "profile (as IREE's local devices). A `mode` is a ValueError (no "
          "profile sink, as in iree.runtime 3.13) unless 3.11's `file_path` "
          "is given too, when it must be \"queue\", \"dispatch\" or "
          "\"executable\" (ValueError otherwise) and the path is unused.")
      .def(
          "flush_profiling", [](const HalDevice&) {},
          "Does nothing: CPU devices record no profile (see "
          "begin_profiling).")
      .def(
          "end_profiling", [](const HalDevice&) {},
          "Does nothing: CPU devices record no profile (see "
          "begin_profiling).")
      .def(
          "queue_alloca",
          [](const HalDevice& self, uint64_t allocation_size,
             nb::handle wait_semaphores, nb::handle signal_semaphores) {
            QueueFences fences =
                ToQueueFences(wait_semaphores, signal_semaphores);
            const Ref<h::Fence>& wait = fences.wait;
            const Ref<h::Fence>& signal = fences.signal;
            // The buffer IREE's queue_alloca makes: device-local and host
            // visible, for transfers, dispatches and mapping.
            h::BufferParams params;
            params.type =
                h::MemoryType::kDeviceLocal | h::MemoryType::kHostVisible;
            params.usage = h::BufferUsage::kDefault | h::BufferUsage::kMapping |
                           h::BufferUsage::kMappingAccessRandom;
            Ref<h::Device> device = self.device;
            Result<Ref<h::Buffer>> buffer = [&] {
              nb::gil_scoped_release release;
              return device->QueueAlloca(wait, signal, params, allocation_size);
            }();
            return HalBuffer{
                Unwrap(std::move(buffer), "allocating memory on queue")};
          },
          "allocation_size"_a, "wait_semaphores"_a, "signal_semaphores"_a,
          "Allocates a buffer of `allocation_size` bytes once the wait "
          "semaphores (a HalFence or [(HalSemaphore, value), ...]) are "
          "reached, then signals the signal semaphores. Returns the "
          "HalBuffer.")
      .def(
          "queue_dealloca",
          [](const HalDevice& self, const HalBuffer& buffer,
             nb::handle wait_semaphores, nb::handle signal_semaphores) {
            QueueFences fences =
                ToQueueFences(wait_semaphores, signal_semaphores);
            const Ref<h::Fence>& wait = fences.wait;
            const Ref<h::Fence>& signal = fences.signal;
            Ref<h::Device> device = self.device;
            Ref<h::Buffer> target = buffer.buffer;
            // The memory itself goes when the last reference does.
            RunQueued(
                [&] { return device->QueueDealloca(wait, signal, target); },
                "deallocating memory on queue");
          },
          "buffer"_a, "wait_semaphores"_a, "signal_semaphores"_a,
          "Releases a queue-ordered buffer after the wait semaphores are "
          "reached, then signals the signal semaphores.")
      .def(
          "queue_copy",
          [](const HalDevice& self, const HalBuffer& source_buffer,
             const HalBuffer& target_buffer, nb::handle wait_semaphores,
             nb::handle signal_semaphores) {
            QueueFences fences =
                ToQueueFences(wait_semaphores, signal_semaphores);
            const Ref<h::Fence>& wait = fences.wait;
            const Ref<h::Fence>& signal = fences.signal;
            Ref<h::Buffer> source = source_buffer.buffer;
            Ref<h::Buffer> target = target_buffer.buffer;
            // As iree.runtime: the whole source to the start of the target.
            const uint64_t length = source->byte_length();
            if (length > target->byte_length()) {
              // Worded so that iree.runtime's message matches too ("...
              // length must be less than ...").
              throw nb::value_error(
                  ("source buffer length must be less than or equal to the "
                   "target buffer length, and it is not (source " +
                   std::to_string(length) + " bytes, target " +
                   std::to_string(target->byte_length()) + " bytes)")
                      .c_str());
            }
            Ref<h::Device> device = self.device;
            RunQueued(
                [&] {
                  // A buffer copied onto itself is left as it is: only the
                  // ordering remains. iree.runtime 3.13 accepts it at the
                  // call (3.11 raised ValueError); its local-sync queue
                  // completes it, its local-task queue fails the signal
                  // semaphores (the overlap check moved to the copy), and
                  // Ember completes it on both.
                  if (source.get() == target.get()) {
                    return device->QueueBarrier(wait, signal);
                  }
                  return device->QueueCopy(wait, signal, source, 0, target, 0,
                                           length);
                },
                "Copying buffer on queue");
          },
          "source_buffer"_a, "target_buffer"_a, "wait_semaphores"_a,
          "signal_semaphores"_a,
          "Copies all of `source_buffer` to the start of `target_buffer` "
          "after the wait semaphores are reached, then signals the signal "
          "semaphores.")
      .def(
          "queue_execute",
          [](const HalDevice& self, nb::handle command_buffers,
             nb::handle wait_semaphores, nb::handle signal_semaphores) {
            std::vector<Ref<h::CommandBuffer>> buffers =
                ToCommandBuffers(command_buffers);
            QueueFences fences =
                ToQueueFences(wait_semaphores, signal_semaphores);
            const Ref<h::Fence>& wait = fences.wait;
            const Ref<h::Fence>& signal = fences.signal;
            Ref<h::Device> device = self.device;
            RunQueued(
                [&]() -> Status {
                  if (buffers.empty())
                    return device->QueueBarrier(wait, signal);
                  // One submission per command buffer, chained through a
                  // fresh semaphore each, so that the order holds on a
                  // device that defers submissions: the first waits for
                  // `wait`, the last signals `signal`, and a failure fails
                  // every later link (and so `signal`). A submission that
                  // fails at once ends the chain here and fails `signal`.
                  Ref<h::Fence> previous = wait;
                  for (size_t i = 0; i < buffers.size(); ++i) {
                    const bool last = i + 1 == buffers.size();
                    Ref<h::Fence> next =
                        last ? signal : h::Fence::CreateWithNewSemaphore();
                    Status status =
                        device->QueueExecute(previous, next, buffers[i], {});
                    if (!status.ok()) {
                      if (!last && signal) signal->Fail(status);
                      return status;
                    }
                    previous = std::move(next);
                  }
                  return Status::Ok();
                },
                "executing command buffers");
          },
          "command_buffers"_a.none(), "wait_semaphores"_a,
          "signal_semaphores"_a,
          "Executes a HalCommandBuffer (or a sequence of them, in order; "
          "None is a barrier) after the wait semaphores are reached, then "
          "signals the signal semaphores.")
      .def("__repr__", [](const HalDevice& self) {
        return "<HalDevice " + std::string(self.device->id()) + ">";
      });

  nb::class_<HalSemaphore>(
      m, "HalSemaphore",
      "A timeline semaphore: a 64-bit value that only increases, until it "
      "fails. Queue operations and programs wait for and signal its values.")
      .def(
          "query",
          [](const HalSemaphore& self) {
            return Unwrap(self.semaphore->Query(), "semaphore failed");
          },
          "The current value; raises the failure of a failed semaphore.")
      .def(
          "signal",
          [](HalSemaphore& self, uint64_t new_value) {
            // Not above the current value: ValueError, as iree.runtime 3.13.
            CheckSignalValue(*self.semaphore, new_value, "signal failed");
            CheckStatus(self.semaphore->Signal(new_value), "signal failed");
          },
          "new_value"_a,
          "Raises the value to `new_value` and wakes the waiters it "
          "satisfies; ValueError unless `new_value` is above the current "
          "value (IndexError above the largest value, 2**31 - 2).")
      .def(
          "wait",
          [](HalSemaphore& self, uint64_t payload,
             std::optional<int64_t> timeout, std::optional<int64_t> deadline) {
            h::Timeout until = MakeTimeout(timeout, deadline);
            Ref<h::Semaphore> semaphore = self.semaphore;
            return WaitReleased("synchronous semaphore failure", [&] {
              return semaphore->Wait(payload, until);
            });
          },
          "payload"_a, "timeout"_a = nb::none(), "deadline"_a = nb::none(),
          "Blocks, with the GIL released, until the value reaches `payload`: "
          "True then, False when `timeout` (relative nanoseconds) or "
          "`deadline` (absolute nanoseconds of the monotonic clock) passes "
          "first, forever with neither. Raises the failure of a failed "
          "semaphore.")
      .def(
          "fail",
          [](HalSemaphore& self, const std::string& message) {
            self.semaphore->Fail(Status(StatusCode::kAborted, message));
          },
          "message"_a,
          "Fails the semaphore with `message` (ABORTED): waits on it raise "
          "from then on. A second failure keeps the first.");

  auto fence = nb::class_<HalFence>(
      m, "HalFence",
      "A set of timepoints (semaphore, value), reached when every semaphore "
      "reaches its value: the wait and signal lists of queue operations and "
      "asynchronous calls. HalFence(capacity) makes an empty one (the "
      "capacity is not needed).");
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
          "sem"_a, "value"_a,
          "A new fence with the one timepoint (`sem`, `value`).")
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
          "fences"_a,
          "A new fence with the timepoints of all `fences` (the higher value "
          "where two share a semaphore).")
      .def(
          "insert",
          [](HalFence& self, const HalSemaphore& semaphore, uint64_t value) {
            self.fence->Insert(semaphore.semaphore, value);
          },
          "sem"_a, "value"_a,
          "Adds the timepoint (`sem`, `value`); where the fence already has "
          "`sem`, the higher value is kept.")
      .def(
          "extend",
          [](HalFence& self, const HalFence& from) {
            for (const h::Fence::Timepoint& point : from.fence->timepoints()) {
              self.fence->Insert(point.semaphore, point.value);
            }
          },
          "from_fence"_a, "Adds every timepoint of `from_fence` (as insert).")
      .def_prop_ro(
          "timepoint_count",
          [](const HalFence& self) { return self.fence->size(); },
          "The number of timepoints (one per semaphore).")
      .def(
          "wait",
          [](HalFence& self, std::optional<int64_t> timeout,
             std::optional<int64_t> deadline) {
            h::Timeout until = MakeTimeout(timeout, deadline);
            Ref<h::Fence> fence = self.fence;
            return WaitReleased("synchronous fence failure",
                                [&] { return fence->Wait(until); });
          },
          "timeout"_a = nb::none(), "deadline"_a = nb::none(),
          "Blocks, with the GIL released, until every timepoint is reached: "
          "True then, False when `timeout` (relative nanoseconds) or "
          "`deadline` (absolute nanoseconds of the monotonic clock) passes "
          "first, forever with neither. Raises the failure of a failed "
          "semaphore.")
      .def(
          "signal",
          [](HalFence& self) {
            CheckStatus(self.fence->Signal(), "signal failed");
          },
          "Raises each semaphore to its timepoint's value (those already "
          "there are left); raises the failure of a failed semaphore.")
      .def(
          "fail",
          [](HalFence& self, const std::string& message) {
            self.fence->Fail(Status(StatusCode::kAborted, message));
          },
          "message"_a,
          "Fails every semaphore of the fence with `message` (ABORTED).");

  nb::class_<HalAllocator>(
      m, "HalAllocator",
      "The allocator of a HalDevice (HalDevice.allocator): "
      "it makes the device's buffers and keeps "
      "statistics. Memory types and usages are "
      "MemoryType and BufferUsage flags or ints.")
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
          "memory_type"_a, "allowed_usage"_a, "allocation_size"_a,
          "Allocates a HalBuffer of `allocation_size` bytes (not initialised "
          "with specific data).")
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
          "element_type"_a = nb::none(),
          "Allocates a HalBuffer holding a copy of `buffer` (a C-contiguous "
          "object with the buffer protocol, e.g. a numpy array), copied with "
          "the GIL released; with `element_type`, returns a HalBufferView of "
          "the buffer's shape instead. `device` is unused.")
      .def(
          "query_buffer_compatibility",
          [](HalAllocator& self, nb::handle memory_type,
             nb::handle allowed_usage, nb::handle intended_usage,
             int64_t allocation_size) {
            if (allocation_size < 0) {
              throw nb::value_error("allocation_size must not be negative");
            }
            h::BufferParams params;
            params.type = static_cast<h::MemoryType>(AsInt(memory_type));
            params.usage = static_cast<h::BufferUsage>(AsInt(allowed_usage));
            return static_cast<uint32_t>(self.allocator->QueryCompatibility(
                params, static_cast<h::BufferUsage>(AsInt(intended_usage)),
                static_cast<uint64_t>(allocation_size)));
          },
          "memory_type"_a, "allowed_usage"_a, "intended_usage"_a,
          "allocation_size"_a,
          "BufferCompatibility flags, as an int, for buffers of these "
          "parameters; ValueError for a negative size.")
      .def(
          "allocate_host_staging_buffer_copy",
          [](HalAllocator& self, nb::handle /*device*/, nb::handle buffer) {
            // A host-visible buffer for transfers holding a copy of
            // `buffer` (anything with the buffer protocol).
            PythonBuffer source(buffer);
            return HalBuffer{
                CopyIntoBuffer(*self.allocator,
                               static_cast<int>(h::MemoryType::kDeviceLocal |
                                                h::MemoryType::kHostVisible),
                               static_cast<int>(h::BufferUsage::kTransfer |
                                                h::BufferUsage::kMapping),
                               source)};
          },
          "device"_a, "initial_contents"_a,
          "A host-visible HalBuffer for transfers and mapping holding a copy "
          "of `initial_contents` (a C-contiguous object with the buffer "
          "protocol), copied with the GIL released. `device` is unused.")
      .def(
          "trim", [](HalAllocator& self) { self.allocator->Trim(); },
          "Frees the memory the allocator keeps for reuse.")
      .def(
          "import_host_allocation",
          [](HalAllocator& self, nb::handle buffer, nb::handle memory_type,
             nb::handle allowed_usage) {
            // Zero copy: the HAL buffer aliases the object's memory and holds
            // the object (through its buffer view) until it dies.
            auto held = std::make_unique<Py_buffer>();
            if (PyObject_GetBuffer(buffer.ptr(), held.get(),
                                   PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE) != 0) {
              throw nb::python_error();
            }
            h::BufferParams params;
            params.type = static_cast<h::MemoryType>(AsInt(memory_type));
            params.usage = static_cast<h::BufferUsage>(AsInt(allowed_usage));
            std::span<uint8_t> bytes(static_cast<uint8_t*>(held->buf),
                                     static_cast<size_t>(held->len));
            // The last reference may go on any thread, with or without the
            // GIL: the release waits for a thread that holds it
            // (python_owner.h).
            Py_buffer* raw = held.release();
            auto release = [raw] { ReleasePythonBuffer(raw); };
            return HalBuffer{Unwrap(
                self.allocator->Import(params, bytes, std::move(release)),
                "could not import host allocation")};
          },
          "buffer"_a, "memory_type"_a, "allowed_usage"_a,
          "Wraps the memory of a writable C-contiguous Python buffer as a "
          "HalBuffer without a copy; the object stays held until the "
          "HalBuffer is freed.")
      // iree.runtime's six per-heap keys (see AllocatorStatistics), then
      // Ember's own: live and peak bytes over both heaps, the number of
      // allocations, and live imported bytes.
      .def_prop_ro(
          "has_statistics", [](const HalAllocator&) { return true; },
          "Always True: Ember's allocators keep statistics.")
      .def_prop_ro(
          "statistics",
          [](const HalAllocator& self) {
            h::AllocatorStatistics stats = self.allocator->statistics();
            nb::dict out;
            out["host_bytes_peak"] = stats.host_bytes_peak;
            out["host_bytes_allocated"] = stats.host_bytes_allocated;
            out["host_bytes_freed"] = stats.host_bytes_freed;
            out["device_bytes_peak"] = stats.device_bytes_peak;
            out["device_bytes_allocated"] = stats.device_bytes_allocated;
            out["device_bytes_freed"] = stats.device_bytes_freed;
            out["bytes_allocated"] = stats.bytes_allocated;
            out["bytes_peak"] = stats.bytes_peak;
            out["allocation_count"] = stats.allocation_count;
            out["bytes_imported"] = stats.bytes_imported;
            return out;
          },
          "Allocation statistics as a dict of ints: iree.runtime's "
          "host_/device_bytes_peak, _allocated and _freed (bytes over the "
          "allocator's life), then Ember's bytes_allocated (live bytes), "
          "bytes_peak, allocation_count (allocations ever made) and "
          "bytes_imported (live imported bytes).")
      .def_prop_ro(
          "formatted_statistics",
          [](const HalAllocator& self) {
            // One line per heap, laid out as IREE's
            // iree_hal_allocator_statistics_format.
            h::AllocatorStatistics stats = self.allocator->statistics();
            std::string text;
            auto line = [&text](const char* heap, uint64_t peak,
                                uint64_t allocated, uint64_t freed) {
              char buffer[160];
              std::snprintf(buffer, sizeof(buffer),
                            "%12s: %12lluB peak / %12lluB allocated / %12lluB "
                            "freed / %12lluB live\n",
                            heap, static_cast<unsigned long long>(peak),
                            static_cast<unsigned long long>(allocated),
                            static_cast<unsigned long long>(freed),
                            static_cast<unsigned long long>(allocated - freed));
              text += buffer;
            };
            line("HOST_LOCAL", stats.host_bytes_peak,
                 stats.host_bytes_allocated, stats.host_bytes_freed);
            line("DEVICE_LOCAL", stats.device_bytes_peak,
                 stats.device_bytes_allocated, stats.device_bytes_freed);
            return text;
          },
          "The per-heap statistics as text, one line per heap (peak, "
          "allocated, "
          "freed and live bytes), laid out as IREE formats them.");

  auto buffer = nb::class_<HalBuffer>(
      m, "HalBuffer",
      "A range of device memory, as HalAllocator and queue_alloca make it and "
      "programs return it.");
  BindRefProtocol(buffer, &HalBuffer::buffer);
  buffer
      .def(
          "byte_length",
          [](const HalBuffer& self) { return self.buffer->byte_length(); },
          "The buffer's size in bytes.")
      .def("__repr__",
           [](const HalBuffer& self) {
             return "<HalBuffer " + BufferReprBody(*self.buffer) + ">";
           })
      .def(
          "memory_type",
          [](const HalBuffer& self) {
            return static_cast<uint32_t>(self.buffer->memory_type());
          },
          "The buffer's MemoryType flags, as an int.")
      .def(
          "allowed_usage",
          [](const HalBuffer& self) {
            return static_cast<uint32_t>(self.buffer->allowed_usage());
          },
          "The buffer's BufferUsage flags, as an int.")
      .def(
          "fill_zero",
          [](const HalBuffer& self, uint64_t byte_offset,
             uint64_t byte_length) {
            Ref<h::Buffer> buffer = self.buffer;
            h::BufferMapping mapping = Unwrap(
                buffer->Map(h::MappingMode::kScoped, h::MemoryAccess::kWrite,
                            byte_offset, byte_length),
                "Error zero filling buffer");
            nb::gil_scoped_release release;
            if (mapping.size() != 0)
              std::memset(mapping.data(), 0, mapping.size());
          },
          "byte_offset"_a, "byte_length"_a,
          "Zeroes `byte_length` bytes from `byte_offset`, with the GIL "
          "released; IndexError for a range outside the buffer.")
      .def(
          "map",
          [](const HalBuffer& self) {
            Ref<h::Buffer> buffer = self.buffer;
            h::BufferMapping mapping = Unwrap(
                buffer->Map(h::MappingMode::kScoped,
                            h::MemoryAccess::kRead | h::MemoryAccess::kWrite, 0,
                            h::kWholeBuffer),
                "could not map the buffer");
            return MappedMemory{std::move(mapping), std::move(buffer)};
          },
          "Maps the whole buffer for reading and writing, as MappedMemory.")
      .def(
          "create_view",
          [](const HalBuffer& self, std::vector<int64_t> shape,
             h::ElementType element_type) {
            return HalBufferView{
                Unwrap(h::BufferView::Create(self.buffer, shape, element_type,
                                             h::EncodingType::kDenseRowMajor),
                       "could not create a buffer view")};
          },
          "shape"_a, "element_size"_a,
          "A HalBufferView of the buffer with `shape` and the element type "
          "`element_size` (a HalElementType; the name is iree.runtime's).");

  auto view = nb::class_<HalBufferView>(
      m, "HalBufferView",
      "A HalBuffer seen as a dense row-major tensor of a shape and an element "
      "type, as programs take and return tensors. HalBufferView(buffer, "
      "shape, element_type) raises IndexError for a shape that needs more "
      "bytes than the buffer has.");
  BindRefProtocol(view, &HalBufferView::view);
  // The DLPack protocol: a zero-copy view for numpy.from_dlpack & co. The
  // capsule keeps the buffer alive; CPU memory needs no stream.
  view.def(
      "__dlpack__",
      [](const HalBufferView& self, nb::handle stream, nb::handle max_version,
         nb::handle dl_device, nb::handle copy) {
        return ExportDLPackProtocol(*self.view, stream, max_version, dl_device,
                                    copy);
      },
      nb::kw_only(), "stream"_a = nb::none(), "max_version"_a = nb::none(),
      "dl_device"_a = nb::none(), "copy"_a = nb::none(),
      "A DLPack capsule of the view (the Python array API's protocol): a "
      "versioned one ('dltensor_versioned', with the read-only flag of a "
      "read-only buffer) when max_version >= (1, 0), else an unversioned "
      "one. Zero-copy unless copy=True (or an unversioned consumer asks for "
      "a read-only buffer); the capsule and its consumer keep the buffer "
      "alive. CPU memory only: stream must be None, dl_device (1, 0); "
      "BufferError otherwise.");
  view.def(
      "__dlpack_device__",
      [](const HalBufferView&) { return std::make_pair(dlpack::kCpu, 0); },
      "(1, 0): DLPack's CPU device.");
  view.def(
          "__init__",
          [](HalBufferView* self, const HalBuffer& buffer, nb::handle shape,
             nb::handle element_type) {
            std::vector<int64_t> dims = ToShape(shape);
            h::ElementType type = ToElementType(element_type);
            // A type of no bits has no size to index by: ValueError, as
            // iree.runtime 3.13 ("opaque element types cannot be indexed";
            // 3.11 made a view of 0 bytes).
            if (h::BitCount(type) == 0) {
              throw nb::value_error(
                  "creating buffer view: opaque element types cannot be "
                  "indexed");
            }
            // Unlike iree.runtime, a shape that needs more bytes than the
            // buffer has is refused (OUT_OF_RANGE -> IndexError) rather than
            // mapped past the end.
            Ref<h::BufferView> created =
                Unwrap(h::BufferView::Create(buffer.buffer, dims, type,
                                             h::EncodingType::kDenseRowMajor),
                       "creating buffer view");
            new (self) HalBufferView{std::move(created)};
          },
          "buffer"_a, "shape"_a, "element_type"_a)
      .def_prop_ro(
          "byte_length",
          [](const HalBufferView& self) {
            // iree.runtime 3.13's definition: the elements' bits packed
            // into whole bytes, ceil(count * bits / 8), so 3 i4 take 2
            // bytes and 3 12-bit elements 5 (3.11 gave each element whole
            // bytes). The product is bounded by the buffer for
            // byte-aligned types and wraps at 64 bits like IREE's
            // otherwise.
            uint64_t count = 1;
            for (int64_t dim : self.view->shape()) {
              count *= static_cast<uint64_t>(dim);
            }
            return (count * h::BitCount(self.view->element_type()) + 7) / 8;
          },
          "The view's size in bytes: the element count times the element's "
          "bits, rounded up to whole bytes (sub-byte elements share bytes).")
      .def_prop_ro(
          "shape",
          [](const HalBufferView& self) {
            return std::vector<int64_t>(self.view->shape().begin(),
                                        self.view->shape().end());
          },
          "The view's dimensions, as a list of ints.")
      .def_prop_ro(
          "element_type",
          [](const HalBufferView& self) -> nb::object {
            // A HalElementType member, or the plain int for a type
            // the enum does not name (iree.runtime returns ints).
            const auto raw = static_cast<uint32_t>(self.view->element_type());
            nb::handle type = nb::type<h::ElementType>();
            PyObject* member =
                PyObject_CallOneArg(type.ptr(), nb::int_(raw).ptr());
            if (member) return nb::steal(member);
            PyErr_Clear();
            return nb::int_(raw);
          },
          "The element type: a HalElementType, or an int for a "
          "type the enum does not name.")
      .def(
          "get_buffer",
          [](const HalBufferView& self) {
            return HalBuffer{self.view->buffer()};
          },
          "The HalBuffer the view is over (the same memory).")
      .def(
          "map",
          [](const HalBufferView& self) {
            Ref<h::Buffer> buffer = self.view->buffer();
            h::BufferMapping mapping = Unwrap(
                buffer->Map(h::MappingMode::kScoped,
                            h::MemoryAccess::kRead | h::MemoryAccess::kWrite, 0,
                            h::kWholeBuffer),
                "could not map the buffer");
            return MappedMemory{std::move(mapping), std::move(buffer)};
          },
          "Maps the whole underlying buffer for reading and writing, as "
          "MappedMemory (asarray gives a numpy view).")
      .def("__repr__", [](const HalBufferView& self) {
        // As iree.runtime: the shape as a tuple, the element type's bytes in
        // memory order, then the buffer.
        std::string repr = "<HalBufferView (";
        const auto shape = self.view->shape();
        for (size_t i = 0; i < shape.size(); ++i) {
          if (i > 0) repr += ", ";
          repr += std::to_string(shape[i]);
        }
        repr += "), element_type=0x" +
                ReprHex(static_cast<uint32_t>(self.view->element_type())) +
                ", " + BufferReprBody(*self.view->buffer()) + ">";
        return repr;
      });

  auto command_buffer = nb::class_<HalCommandBuffer>(
      m, "HalCommandBuffer",
      "A one-shot recording of transfer commands (copy, fill) that "
      "HalDevice.queue_execute runs. HalCommandBuffer(device, "
      "binding_capacity=0, begin=True) starts recording unless begin=False; "
      "any device may execute it. Recording holds the GIL.");
  BindRefProtocol(command_buffer, &HalCommandBuffer::command_buffer);
  command_buffer
      .def(
          "__init__",
          [](HalCommandBuffer* self, const HalDevice& /*device*/,
             uint64_t binding_capacity, bool begin) {
            // Ember's command buffers belong to no device: any device of the
            // process executes them.
            if (binding_capacity > h::CommandBuffer::kMaxBindingCapacity) {
              ThrowStatus(
                  OutOfRangeError(
                      "binding capacity " + std::to_string(binding_capacity) +
                      " exceeds the maximum of " +
                      std::to_string(h::CommandBuffer::kMaxBindingCapacity)),
                  "creating command buffer");
            }
            const auto capacity = static_cast<uint32_t>(binding_capacity);
            Ref<h::CommandBuffer> created = Unwrap(
                h::CommandBuffer::Create(h::CommandBufferMode::kOneShot,
                                         h::CommandCategory::kAny, capacity),
                "creating command buffer");
            new (self) HalCommandBuffer{std::move(created), begin};
          },
          "device"_a, "binding_capacity"_a = 0, "begin"_a = true)
      .def(
          "begin",
          [](HalCommandBuffer& self) {
            if (self.command_buffer->finalized()) {
              ThrowStatus(FailedPreconditionError(
                              "command buffer has already been recorded; "
                              "re-recording command buffers is not allowed"),
                          "command buffer begin");
            }
            if (self.begun) {
              ThrowStatus(FailedPreconditionError(
                              "command buffer is already in a recording state"),
                          "command buffer begin");
            }
            self.begun = true;
          },
          "Starts recording a command buffer made with begin=False; "
          "RuntimeError when it is recording or was recorded already.")
      .def("end", &EndRecording,
           "Ends recording, so that queue_execute can run the command "
           "buffer; RuntimeError when it is not recording.")
      .def(
          "copy",
          [](HalCommandBuffer& self, const HalBuffer& source_buffer,
             const HalBuffer& target_buffer, uint64_t source_offset,
             uint64_t target_offset, std::optional<uint64_t> length, bool end) {
            CheckRecording(self, "copy command");
            uint64_t resolved = 0;
            if (length) {
              resolved = *length;
            } else {
              resolved = source_buffer.buffer->byte_length();
              if (resolved != target_buffer.buffer->byte_length()) {
                throw nb::value_error(
                    "If length is not provided, source and target buffer "
                    "lengths must match; provide an explicit length=");
              }
            }
            CheckStatus(self.command_buffer->Copy(
                            {{source_buffer.buffer, 0, source_offset, resolved},
                             {target_buffer.buffer, 0, target_offset, resolved},
                             resolved}),
                        "copy command");
            if (end) EndRecording(self);
          },
          "source_buffer"_a, "target_buffer"_a, "source_offset"_a = 0,
          "target_offset"_a = 0, "length"_a = nb::none(), "end"_a = false,
          "Records a copy of `length` bytes (default: the whole source, whose "
          "length must then equal the target's) between two buffers.")
      .def(
          "fill",
          [](HalCommandBuffer& self, const HalBuffer& target_buffer,
             nb::handle pattern, uint64_t target_offset,
             std::optional<uint64_t> length, bool end) {
            CheckRecording(self, "command buffer fill");
            uint64_t value = 0;
            uint32_t pattern_length = 0;
            {
              PythonBuffer bytes(pattern);
              const Py_ssize_t size = bytes.view.len;
              if (size != 1 && size != 2 && size != 4) {
                ThrowStatus(InvalidArgumentError(
                                "fill patterns must be 1, 2 or 4 bytes "
                                "(pattern_length=" +
                                std::to_string(size) + ")"),
                            "command buffer fill");
              }
              pattern_length = static_cast<uint32_t>(size);
              // The pattern's bytes in memory order, as a value of its width.
              if (size == 1) {
                uint8_t narrow;
                std::memcpy(&narrow, bytes.view.buf, 1);
                value = narrow;
              } else if (size == 2) {
                uint16_t narrow;
                std::memcpy(&narrow, bytes.view.buf, 2);
                value = narrow;
              } else {
                uint32_t narrow;
                std::memcpy(&narrow, bytes.view.buf, 4);
                value = narrow;
              }
            }
            // As iree.runtime: no length means the target's whole length
            // (from target_offset, so a non-zero offset needs a length).
            uint64_t resolved =
                length ? *length : target_buffer.buffer->byte_length();
            CheckStatus(self.command_buffer->Fill(
                            {{target_buffer.buffer, 0, target_offset, resolved},
                             value,
                             pattern_length}),
                        "command buffer fill");
            if (end) EndRecording(self);
          },
          "target_buffer"_a, "pattern"_a, "target_offset"_a = 0,
          "length"_a = nb::none(), "end"_a = false,
          "Records a fill of `length` bytes (default: the target's byte "
          "length) with `pattern`, a 1, 2 or 4-byte buffer (e.g. a numpy "
          "scalar array).");

  nb::class_<MappedMemory>(
      m, "MappedMemory", nb::type_slots(mapped_memory_slots),
      "The host-visible bytes of a mapped HalBuffer (HalBuffer.map, "
      "HalBufferView.map), writable through the buffer protocol; it keeps "
      "the buffer alive.")
      .def(
          "asarray",
          [](nb::handle self, std::vector<int64_t> shape, nb::handle dtype) {
            // A numpy view over the mapped bytes; it holds this object (and
            // so the mapping and the buffer) alive.
            nb::module_ numpy = nb::module_::import_("numpy");
            nb::object flat = numpy.attr("frombuffer")(self, dtype);
            return flat.attr("reshape")(nb::cast(shape));
          },
          "shape"_a, "numpy_dtype"_a,
          "A numpy array of `shape` and `numpy_dtype` over the mapped bytes, "
          "without a copy; it keeps the mapping and the buffer alive.");

  nb::class_<HalModuleDebugSink>(
      m, "HalModuleDebugSink", nb::type_slots(debug_sink_slots),
      "Receives the buffer views programs trace, for create_hal_module("
      "debug_sink=...): calls buffer_view_trace_callback(key, buffer_views) "
      "on the calling thread, with the GIL, during the program's call; an "
      "exception it raises fails the call.")
      .def(
          "__init__",
          [](HalModuleDebugSink* self, nb::callable callback) {
            // Called as callback(key: str, buffer_views: list[HalBufferView]).
            new (self) HalModuleDebugSink{std::move(callback)};
          },
          "buffer_view_trace_callback"_a,
          "Receives the buffer views that programs trace "
          "(`flow.tensor.trace`) through a hal module made with this sink.")
      .def_prop_ro(
          "buffer_view_trace_callback",
          [](const HalModuleDebugSink& self) -> nb::object {
            if (!self.callback.is_valid()) return nb::none();
            return self.callback;
          },
          "The callable the sink calls, or None once Python's "
          "cycle collector has cleared it.");

  m.def("create_hal_module", &CreateHalModuleBinding, "instance"_a,
        "device"_a.none() = nb::none(), "devices"_a.none() = nb::none(),
        "debug_sink"_a.none() = nb::none(),
        "A `hal` module over `device`, or over the sequence `devices`, "
        "tracing into `debug_sink` (stderr when None).");
}

}  // namespace ember::python
