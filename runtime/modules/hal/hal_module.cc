#include "runtime/modules/hal/hal_module.h"

#include <cstring>
#include <string>
#include <tuple>
#include <utility>

#include "runtime/base/byte_storage.h"
#include "runtime/hal/buffer_view_format.h"
#include "runtime/vm/buffer.h"
#include "runtime/vm/native_module.h"

namespace ember::modules::hal {
namespace {

namespace h = ember::hal;
using vm::VmRef;

struct HalState : vm::ModuleState {
  std::vector<Ref<h::Device>> devices;
  std::shared_ptr<const DebugSink> debug_sink;  // never null
};

// ---- argument helpers -------------------------------------------------------

[[gnu::cold, gnu::noinline]] Status NullError(const char* what) {
  return InvalidArgumentError(std::string(what) + " is null");
}

template <typename T>
Result<T*> Require(const Ref<T>& ref, const char* what) {
  if (!ref) [[unlikely]]
    return NullError(what);
  return ref.get();
}
template <typename T>
Result<T*> Require(const vm::Borrowed<T>& ref, const char* what) {
  if (!ref) [[unlikely]]
    return NullError(what);
  return ref.get();
}

std::string_view AsString(const vm::Buffer& buffer) {
  std::span<const uint8_t> bytes = buffer.bytes();
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

h::BufferParams ParamsOf(int32_t memory_types, int32_t usage) {
  h::BufferParams params;
  params.type = static_cast<h::MemoryType>(memory_types);
  params.usage = static_cast<h::BufferUsage>(usage);
  params.access = h::MemoryAccess::kAll;
  return params;
}

// i64 sizes from a program: -1 is "the whole buffer", other negatives are
// out of range by construction once cast (CalculateRange rejects them).
uint64_t DeviceSize(int64_t value) { return static_cast<uint64_t>(value); }

// ---- devices ----------------------------------------------------------------

Result<int32_t> DevicesCount(HalState& state) {
  return static_cast<int32_t>(state.devices.size());
}

Result<Ref<h::Device>> DevicesGet(HalState& state, int32_t index) {
  if (index < 0 || static_cast<size_t>(index) >= state.devices.size()) {
    return Ref<h::Device>();
  }
  return state.devices[static_cast<size_t>(index)];
}

Result<Ref<h::Allocator>> DeviceAllocator(
    HalState&, const vm::Borrowed<h::Device>& device) {
  EMBER_ASSIGN_OR_RETURN(h::Device * d, Require(device, "device"));
  return Ref<h::Allocator>::Retain(&d->allocator());
}

Result<std::tuple<int32_t, int64_t>> DeviceQueryI64(
    HalState&, const vm::Borrowed<h::Device>& device, Ref<vm::Buffer> category,
    Ref<vm::Buffer> key) {
  EMBER_ASSIGN_OR_RETURN(h::Device * d, Require(device, "device"));
  EMBER_ASSIGN_OR_RETURN(vm::Buffer * c, Require(category, "query category"));
  EMBER_ASSIGN_OR_RETURN(vm::Buffer * k, Require(key, "query key"));
  Result<int64_t> value = d->QueryI64(AsString(*c), AsString(*k));
  if (!value.ok()) return std::tuple<int32_t, int64_t>(0, 0);
  return std::tuple<int32_t, int64_t>(1, *value);
}

// ---- allocators and buffers
// ---------------------------------------------------

Result<Ref<h::Buffer>> AllocatorAllocate(HalState&, Ref<h::Allocator> allocator,
                                         int64_t /*queue_affinity*/,
                                         int32_t memory_types, int32_t usage,
                                         int64_t size) {
  EMBER_ASSIGN_OR_RETURN(h::Allocator * a, Require(allocator, "allocator"));
  if (size < 0) {
    return InvalidArgumentError("allocation size " + std::to_string(size) +
                                " is negative");
  }
  EMBER_ASSIGN_OR_RETURN(
      Ref<h::Buffer> buffer,
      a->Allocate(ParamsOf(memory_types, usage), DeviceSize(size)),
      "failed to allocate buffer of length %lld", static_cast<long long>(size));
  return buffer;
}

Result<Ref<h::Buffer>> AllocatorImport(HalState&, Ref<h::Allocator> allocator,
                                       int32_t is_try,
                                       int64_t /*queue_affinity*/,
                                       int32_t memory_types, int32_t usage,
                                       Ref<vm::Buffer> source, int64_t offset,
                                       int64_t length) {
  EMBER_ASSIGN_OR_RETURN(h::Allocator * a, Require(allocator, "allocator"));
  EMBER_ASSIGN_OR_RETURN(vm::Buffer * s, Require(source, "import source"));
  const uint64_t available = s->length();
  if (length == -1) length = static_cast<int64_t>(available);
  if (length < 0 || offset < 0 || static_cast<uint64_t>(offset) > available ||
      static_cast<uint64_t>(length) > available - offset) {
    return InvalidArgumentError("byte range out of bounds (requested " +
                                std::to_string(offset) + "+" +
                                std::to_string(length) + " of available " +
                                std::to_string(available) + ")");
  }
  h::BufferParams params = ParamsOf(memory_types, usage);
  const bool immutable_use =
      h::HasAll(params.usage, h::BufferUsage::kSharingImmutable);
  params.access = h::MemoryAccess::kRead;
  if (!s->is_mutable()) {
    if (!immutable_use) {
      if (is_try) return Ref<h::Buffer>();
      return Status(StatusCode::kPermissionDenied,
                    "source buffer is immutable and can only be imported for "
                    "constant usage");
    }
  } else if (!immutable_use) {
    params.access = params.access | h::MemoryAccess::kWrite;
  }
  if (!s->is_mutable()) {
    // Compiled programs import constants this way and then let kernels
    // write into them in place (IREE's e2e suites do: tensor.insert_slice
    // into an imported constant). Aliasing would write into the module's
    // rodata -- a read-only file mapping (a crash), memory the caller
    // lent with wrap_buffer (corrupting it), or bytes every other context
    // shares. So the program gets its own copy: for a module mapped from a
    // file, a private copy-on-write mapping of the same pages, which costs
    // neither time nor memory until a page is written (a 100 MB constant
    // loads as fast as a small one); otherwise a real copy.
    params.access = h::MemoryAccess::kAll;
    const std::span<const uint8_t> bytes = s->bytes().subspan(
        static_cast<size_t>(offset), static_cast<size_t>(length));
    // A device that cannot use host memory in place (a GPU's) gets a copy
    // in its own memory.
    if (!a->CanImport(params, bytes)) return a->AllocateCopy(params, bytes);
    EMBER_ASSIGN_OR_RETURN(ByteStorage::PrivateView view,
                           ByteStorage::MapPrivateView(bytes));
    if (view.data != nullptr &&
        reinterpret_cast<uintptr_t>(view.data) % h::kBufferAlignment == 0) {
      return a->Import(params, std::span<uint8_t>(view.data, bytes.size()),
                       [view] { ByteStorage::UnmapPrivateView(view); });
    }
    ByteStorage::UnmapPrivateView(view);
    return a->AllocateCopy(params, bytes);
  }
  // A mutable vm.buffer is the program's own memory: used in place, the HAL
  // buffer keeping the vm.buffer alive.
  auto* data = const_cast<uint8_t*>(s->bytes().data()) + offset;
  const std::span<uint8_t> range(data, static_cast<size_t>(length));
  if (!a->CanImport(params, range)) {
    // Aliasing is the point of an import of program memory: a try says
    // "no buffer" (the program then allocates and copies), else an error.
    if (is_try) return Ref<h::Buffer>();
    return UnavailableError(
        "the device cannot use this program memory in place (hal.allocator."
        "import of a mutable buffer)");
  }
  Ref<vm::Buffer> owner = source;
  return a->Import(params, range, [owner]() mutable { owner = nullptr; });
}

Result<std::tuple<Ref<h::Device>, int64_t>> AllocatorSelect(
    HalState&, int32_t /*memory_types*/, int32_t /*usage*/, int64_t /*flags*/,
    std::span<const std::tuple<Ref<h::Device>, int64_t>> pairs) {
  if (pairs.empty()) {
    return InvalidArgumentError(
        "at least one device/queue affinity pair must be provided");
  }
  // No selection policy: the first, as IREE without one.
  const auto& [device, affinity] = pairs.front();
  if (!device) return InvalidArgumentError("device is null");
  return std::tuple<Ref<h::Device>, int64_t>(device, affinity);
}

Status BufferAssert(HalState&, const vm::Borrowed<h::Buffer>& buffer,
                    const vm::Borrowed<vm::Buffer>& message,
                    const vm::Borrowed<h::Allocator>& allocator,
                    int64_t minimum_length, int32_t memory_types,
                    int32_t usage) {
  EMBER_ASSIGN_OR_RETURN(h::Buffer * b, Require(buffer, "buffer"));
  EMBER_ASSIGN_OR_RETURN(vm::Buffer * m, Require(message, "message"));
  EMBER_RETURN_IF_ERROR(Require(allocator, "allocator"));
  if (minimum_length < 0 ||
      b->byte_length() < static_cast<uint64_t>(minimum_length)) [[unlikely]] {
    return InvalidArgumentError(
        std::string(AsString(*m)) + " buffer byte length " +
        std::to_string(b->byte_length()) + " less than expected minimum " +
        std::to_string(minimum_length));
  }
  Status type_status =
      b->ValidateMemoryType(static_cast<h::MemoryType>(memory_types));
  if (!type_status.ok()) [[unlikely]] {
    return Status(type_status.code(),
                  std::string(AsString(*m)) + " " + type_status.ToString());
  }
  Status usage_status = b->ValidateUsage(static_cast<h::BufferUsage>(usage));
  if (!usage_status.ok()) [[unlikely]] {
    return Status(usage_status.code(),
                  std::string(AsString(*m)) + " " + usage_status.ToString());
  }
  return Status::Ok();
}

Status BufferAllocationPreserve(HalState&, Ref<h::Buffer> buffer) {
  EMBER_ASSIGN_OR_RETURN(h::Buffer * b, Require(buffer, "buffer"));
  b->AllocationPreserve();
  return Status::Ok();
}

Result<int32_t> BufferAllocationDiscard(HalState&, Ref<h::Buffer> buffer) {
  EMBER_ASSIGN_OR_RETURN(h::Buffer * b, Require(buffer, "buffer"));
  return b->AllocationDiscard() ? 1 : 0;
}

Result<int32_t> BufferAllocationIsTerminal(HalState&, Ref<h::Buffer> buffer) {
  EMBER_ASSIGN_OR_RETURN(h::Buffer * b, Require(buffer, "buffer"));
  return b->AllocationIsTerminal() ? 1 : 0;
}

Result<Ref<h::Buffer>> BufferSubspan(HalState&, Ref<h::Buffer> buffer,
                                     int64_t offset, int64_t length) {
  EMBER_RETURN_IF_ERROR(Require(buffer, "buffer"));
  EMBER_ASSIGN_OR_RETURN(
      Ref<h::Buffer> subspan,
      h::Buffer::Subspan(buffer, DeviceSize(offset), DeviceSize(length)),
      "invalid subspan of an existing buffer (source_offset=%lld, "
      "length=%lld)",
      static_cast<long long>(offset), static_cast<long long>(length));
  return subspan;
}

Result<int64_t> BufferLength(HalState&, Ref<h::Buffer> buffer) {
  EMBER_ASSIGN_OR_RETURN(h::Buffer * b, Require(buffer, "buffer"));
  return static_cast<int64_t>(b->byte_length());
}

Result<int32_t> BufferLoad(HalState&, Ref<h::Buffer> buffer, int64_t offset,
                           int32_t length) {
  EMBER_ASSIGN_OR_RETURN(h::Buffer * b, Require(buffer, "buffer"));
  if (length < 0 || length > 4) {
    return InvalidArgumentError("load length byte count " +
                                std::to_string(length) + " exceeds max");
  }
  EMBER_ASSIGN_OR_RETURN(
      h::BufferMapping mapping,
      b->Map(h::MappingMode::kScoped, h::MemoryAccess::kRead,
             DeviceSize(offset), static_cast<uint64_t>(length)));
  uint32_t value = 0;
  std::memcpy(&value, mapping.data(), mapping.size());
  return static_cast<int32_t>(value);
}

Status BufferStore(HalState&, int32_t value, Ref<h::Buffer> buffer,
                   int64_t offset, int32_t length) {
  EMBER_ASSIGN_OR_RETURN(h::Buffer * b, Require(buffer, "buffer"));
  if (length < 0 || length > 4) {
    return InvalidArgumentError("store length byte count " +
                                std::to_string(length) + " exceeds max");
  }
  EMBER_ASSIGN_OR_RETURN(
      h::BufferMapping mapping,
      b->Map(h::MappingMode::kScoped, h::MemoryAccess::kWrite,
             DeviceSize(offset), static_cast<uint64_t>(length)),
      "store out of bounds");
  std::memcpy(mapping.data(), &value, mapping.size());
  return Status::Ok();
}

// ---- buffer views
// -------------------------------------------------------------

Result<Ref<h::BufferView>> BufferViewCreate(
    HalState&, Ref<h::Buffer> buffer, int64_t offset, int64_t length,
    int32_t element_type, int32_t encoding_type,
    std::span<const std::tuple<int64_t>> shape) {
  EMBER_ASSIGN_OR_RETURN(h::Buffer * b, Require(buffer, "buffer"));
  if (shape.size() > h::kMaxRank) {
    return InvalidArgumentError("rank " + std::to_string(shape.size()) +
                                " exceeds the maximum of " +
                                std::to_string(h::kMaxRank));
  }
  Ref<h::Buffer> source = buffer;
  if (offset != 0 || DeviceSize(length) != b->byte_length()) {
    EMBER_ASSIGN_OR_RETURN(
        source,
        h::Buffer::Subspan(buffer, DeviceSize(offset), DeviceSize(length)),
        "invalid subspan of an existing buffer (source_offset=%lld, "
        "length=%lld)",
        static_cast<long long>(offset), static_cast<long long>(length));
  }
  int64_t dims[h::kMaxRank];
  for (size_t i = 0; i < shape.size(); ++i) dims[i] = std::get<0>(shape[i]);
  return h::BufferView::Create(
      std::move(source), std::span<const int64_t>(dims, shape.size()),
      static_cast<h::ElementType>(static_cast<uint32_t>(element_type)),
      static_cast<h::EncodingType>(static_cast<uint32_t>(encoding_type)));
}

bool ElementTypesCompatible(h::ElementType actual, h::ElementType expected) {
  if (h::IsOpaque(actual)) return true;
  if (h::IsInteger(actual) && h::IsInteger(expected) &&
      h::BitCount(actual) == h::BitCount(expected)) {
    return true;
  }
  return actual == expected;
}

std::string Hex8(uint32_t value) {
  char text[16];
  std::snprintf(text, sizeof(text), "%08X", value);
  return text;
}

Status BufferViewAssert(HalState&, const vm::Borrowed<h::BufferView>& view,
                        const vm::Borrowed<vm::Buffer>& message,
                        int32_t element_type, int32_t encoding_type,
                        std::span<const std::tuple<int64_t>> shape) {
  EMBER_ASSIGN_OR_RETURN(h::BufferView * v, Require(view, "buffer view"));
  EMBER_ASSIGN_OR_RETURN(vm::Buffer * m, Require(message, "message"));
  // The message is only made into a string on failure.
  auto what = [m] { return std::string(AsString(*m)); };
  const auto expected_encoding =
      static_cast<h::EncodingType>(static_cast<uint32_t>(encoding_type));
  if (v->encoding_type() != h::EncodingType::kOpaque &&
      v->encoding_type() != expected_encoding) {
    return InvalidArgumentError(
        what() + " encoding mismatch; expected " +
        Hex8(static_cast<uint32_t>(expected_encoding)) + " but have " +
        Hex8(static_cast<uint32_t>(v->encoding_type())));
  }
  const auto expected_type =
      static_cast<h::ElementType>(static_cast<uint32_t>(element_type));
  if (!ElementTypesCompatible(v->element_type(), expected_type)) {
    return InvalidArgumentError(
        what() + " element type mismatch; expected " +
        h::FormatElementType(expected_type) + " (" +
        Hex8(static_cast<uint32_t>(expected_type)) + ") but have " +
        h::FormatElementType(v->element_type()) + " (" +
        Hex8(static_cast<uint32_t>(v->element_type())) + ")");
  }
  if (v->rank() != shape.size()) {
    return InvalidArgumentError(what() + " shape rank mismatch; expected " +
                                std::to_string(shape.size()) +
                                (shape.empty() ? " (scalar)" : "") +
                                " but have " + std::to_string(v->rank()) +
                                (v->rank() == 0 ? " (scalar)" : ""));
  }
  for (size_t i = 0; i < shape.size(); ++i) {
    if (v->shape()[i] != std::get<0>(shape[i])) {
      return InvalidArgumentError(what() + " shape dimension " +
                                  std::to_string(i) + " mismatch; expected " +
                                  std::to_string(std::get<0>(shape[i])) +
                                  " but have " + std::to_string(v->shape()[i]));
    }
  }
  return Status::Ok();
}

Result<Ref<h::Buffer>> BufferViewBuffer(
    HalState&, const vm::Borrowed<h::BufferView>& view) {
  EMBER_ASSIGN_OR_RETURN(h::BufferView * v, Require(view, "buffer view"));
  return v->buffer();
}

Result<int64_t> BufferViewDim(HalState&,
                              const vm::Borrowed<h::BufferView>& view,
                              int32_t index) {
  EMBER_ASSIGN_OR_RETURN(h::BufferView * v, Require(view, "buffer view"));
  if (index < 0 || static_cast<size_t>(index) >= v->rank()) {
    return OutOfRangeError("dimension " + std::to_string(index) +
                           " of a rank-" + std::to_string(v->rank()) +
                           " buffer view");
  }
  return v->shape()[static_cast<size_t>(index)];
}

Result<int32_t> BufferViewElementType(HalState&,
                                      const vm::Borrowed<h::BufferView>& view) {
  EMBER_ASSIGN_OR_RETURN(h::BufferView * v, Require(view, "buffer view"));
  return static_cast<int32_t>(static_cast<uint32_t>(v->element_type()));
}

Result<int32_t> BufferViewEncodingType(
    HalState&, const vm::Borrowed<h::BufferView>& view) {
  EMBER_ASSIGN_OR_RETURN(h::BufferView * v, Require(view, "buffer view"));
  return static_cast<int32_t>(static_cast<uint32_t>(v->encoding_type()));
}

Result<int32_t> BufferViewRank(HalState&,
                               const vm::Borrowed<h::BufferView>& view) {
  EMBER_ASSIGN_OR_RETURN(h::BufferView * v, Require(view, "buffer view"));
  return static_cast<int32_t>(v->rank());
}

Status BufferViewTrace(HalState& state, Ref<vm::Buffer> key,
                       std::span<const std::tuple<Ref<h::BufferView>>> traced) {
  EMBER_ASSIGN_OR_RETURN(vm::Buffer * key_buffer, Require(key, "trace key"));
  std::vector<Ref<h::BufferView>> views;
  views.reserve(traced.size());
  for (const std::tuple<Ref<h::BufferView>>& entry : traced) {
    EMBER_RETURN_IF_ERROR(Require(std::get<0>(entry), "traced buffer view"));
    views.push_back(std::get<0>(entry));
  }
  const DebugSink::BufferViewTraceFn& trace =
      state.debug_sink->buffer_view_trace;
  if (!trace) return Status::Ok();
  return trace(AsString(*key_buffer), views);
}

// ---- channels (collectives)
// ---------------------------------------------------

Status Collectives(const char* what) {
  return UnimplementedError(std::string(what) +
                            ": collective operations (hal.channel) are not "
                            "supported by Ember's devices");
}

Result<VmRef> ChannelCreate(HalState&, Ref<h::Device>, int64_t, int64_t,
                            Ref<vm::Buffer>, Ref<vm::Buffer>, int32_t,
                            int32_t) {
  return Collectives("hal.channel.create");
}

Result<std::tuple<int32_t, int32_t>> ChannelRankAndCount(HalState&, VmRef) {
  return Collectives("hal.channel.rank_and_count");
}

Result<VmRef> ChannelSplit(HalState&, VmRef, int32_t, int32_t, int64_t) {
  return Collectives("hal.channel.split");
}

// ---- command buffers
// ------------------------------------------------------------

Result<h::CommandBuffer*> Recording(const Ref<h::CommandBuffer>& cmd) {
  return Require(cmd, "command buffer");
}

Status CommandBufferAdviseBuffer(HalState&, Ref<h::CommandBuffer> cmd,
                                 Ref<h::Buffer> buffer, int64_t, int64_t,
                                 int64_t, int32_t) {
  // A hint; the CPU devices have nothing to prefetch or evict.
  EMBER_RETURN_IF_ERROR(Recording(cmd));
  EMBER_RETURN_IF_ERROR(Require(buffer, "buffer"));
  return Status::Ok();
}

Status CommandBufferBeginDebugGroup(HalState&, Ref<h::CommandBuffer> cmd,
                                    Ref<vm::Buffer> label) {
  EMBER_ASSIGN_OR_RETURN(h::CommandBuffer * c, Recording(cmd));
  EMBER_ASSIGN_OR_RETURN(vm::Buffer * l, Require(label, "label"));
  return c->BeginDebugGroup(std::string(AsString(*l)));
}

Status CommandBufferEndDebugGroup(HalState&, Ref<h::CommandBuffer> cmd) {
  EMBER_ASSIGN_OR_RETURN(h::CommandBuffer * c, Recording(cmd));
  return c->EndDebugGroup();
}

Status CommandBufferCollective(HalState&, Ref<h::CommandBuffer>, VmRef, int32_t,
                               int32_t, int32_t, int32_t, Ref<h::Buffer>,
                               Ref<h::Buffer>, int64_t, int64_t, int64_t,
                               int64_t, int64_t) {
  return Collectives("hal.command_buffer.collective");
}

Status CommandBufferCopyBuffer(HalState&, Ref<h::CommandBuffer> cmd,
                               int32_t source_slot, int32_t target_slot,
                               Ref<h::Buffer> source, int64_t source_offset,
                               Ref<h::Buffer> target, int64_t target_offset,
                               int64_t length, int64_t /*flags*/) {
  EMBER_ASSIGN_OR_RETURN(h::CommandBuffer * c, Recording(cmd));
  return c->Copy({{std::move(source), static_cast<uint32_t>(source_slot),
                   DeviceSize(source_offset), DeviceSize(length)},
                  {std::move(target), static_cast<uint32_t>(target_slot),
                   DeviceSize(target_offset), DeviceSize(length)},
                  DeviceSize(length)});
}

Result<Ref<h::CommandBuffer>> CommandBufferCreate(
    HalState&, const vm::Borrowed<h::Device>& device, int32_t modes,
    int32_t categories, int64_t /*affinity*/, int32_t binding_capacity) {
  EMBER_RETURN_IF_ERROR(Require(device, "device"));
  if (binding_capacity < 0) {
    return InvalidArgumentError("negative binding capacity");
  }
  return h::CommandBuffer::Create(
      static_cast<h::CommandBufferMode>(static_cast<uint32_t>(modes)),
      static_cast<h::CommandCategory>(static_cast<uint32_t>(categories)),
      static_cast<uint32_t>(binding_capacity));
}

using BindingTuple =
    std::tuple<int32_t, int32_t, Ref<h::Buffer>, int64_t, int64_t>;

// IREE's limit on the bindings of one dispatch from the VM.
constexpr size_t kMaxDispatchBindings = 32;

Status RecordDispatch(h::CommandBuffer& cmd, h::DispatchCommand& dispatch,
                      std::span<const std::tuple<int32_t>> constants,
                      std::span<const BindingTuple> bindings) {
  if (bindings.size() > kMaxDispatchBindings) {
    return OutOfRangeError("dispatch of " + std::to_string(bindings.size()) +
                           " bindings exceeds the maximum of " +
                           std::to_string(kMaxDispatchBindings));
  }
  dispatch.constants.reserve(constants.size());
  for (const auto& [value] : constants) {
    dispatch.constants.push_back(static_cast<uint32_t>(value));
  }
  dispatch.bindings.reserve(bindings.size());
  for (const auto& [reserved, slot, buffer, offset, length] : bindings) {
    (void)reserved;
    dispatch.bindings.push_back({buffer, static_cast<uint32_t>(slot),
                                 DeviceSize(offset), DeviceSize(length)});
  }
  return cmd.Dispatch(std::move(dispatch));
}

// How a program names the export it dispatches. iree-compile 3.11 (hal
// module version 6) passes the export's ordinal as an i32; 3.12 and later
// (version 7) pass the i64 function id that `executable.lookup.function`
// returned, which in Ember is the same ordinal (runtime/hal/command_buffer.h).
// Either way the value is checked against the executable's exports when the
// dispatch is recorded; an id that does not fit 32 bits is refused here
// instead of being truncated into some other export's ordinal.
template <typename Id>
Result<uint32_t> ExportOrdinal(Id id) {
  if constexpr (sizeof(Id) > sizeof(uint32_t)) {
    if (id < 0 || id > static_cast<Id>(UINT32_MAX)) [[unlikely]] {
      return InvalidArgumentError("dispatch function id " + std::to_string(id) +
                                  " is not one that executable.lookup.function "
                                  "returns");
    }
  }
  return static_cast<uint32_t>(id);
}

template <typename Id>
Status CommandBufferDispatch(HalState&, Ref<h::CommandBuffer> cmd,
                             Ref<h::Executable> executable, Id function,
                             int32_t x, int32_t y, int32_t z, int64_t flags,
                             std::span<const std::tuple<int32_t>> constants,
                             std::span<const BindingTuple> bindings) {
  EMBER_ASSIGN_OR_RETURN(h::CommandBuffer * c, Recording(cmd));
  EMBER_RETURN_IF_ERROR(Require(executable, "executable"));
  h::DispatchCommand dispatch;
  EMBER_ASSIGN_OR_RETURN(dispatch.export_ordinal, ExportOrdinal(function));
  dispatch.executable = std::move(executable);
  dispatch.workgroup_count[0] = static_cast<uint32_t>(x);
  dispatch.workgroup_count[1] = static_cast<uint32_t>(y);
  dispatch.workgroup_count[2] = static_cast<uint32_t>(z);
  dispatch.flags = static_cast<uint64_t>(flags);
  return RecordDispatch(*c, dispatch, constants, bindings);
}

template <typename Id>
Status CommandBufferDispatchIndirect(
    HalState&, Ref<h::CommandBuffer> cmd, Ref<h::Executable> executable,
    Id function, int32_t workgroups_slot, Ref<h::Buffer> workgroups,
    int64_t workgroups_offset, int64_t flags,
    std::span<const std::tuple<int32_t>> constants,
    std::span<const BindingTuple> bindings) {
  EMBER_ASSIGN_OR_RETURN(h::CommandBuffer * c, Recording(cmd));
  EMBER_RETURN_IF_ERROR(Require(executable, "executable"));
  h::DispatchCommand dispatch;
  EMBER_ASSIGN_OR_RETURN(dispatch.export_ordinal, ExportOrdinal(function));
  dispatch.executable = std::move(executable);
  dispatch.indirect = true;
  dispatch.workgroups_ref = {std::move(workgroups),
                             static_cast<uint32_t>(workgroups_slot),
                             DeviceSize(workgroups_offset), 12};
  dispatch.flags = static_cast<uint64_t>(flags);
  return RecordDispatch(*c, dispatch, constants, bindings);
}

// `command_buffer.flush_buffer` / `invalidate_buffer` (iree-compile 3.13):
// make a range's writes visible to the host or to the device. The CPU
// devices' memory is host-coherent, so there is nothing to do beyond
// checking the operand as any other command's (a direct buffer's range, a
// slot against the binding capacity).
Status CommandBufferFlushBuffer(HalState&, Ref<h::CommandBuffer> cmd,
                                int32_t slot, Ref<h::Buffer> target,
                                int64_t offset, int64_t length) {
  EMBER_ASSIGN_OR_RETURN(h::CommandBuffer * c, Recording(cmd));
  return c->SynchronizeRange({std::move(target), static_cast<uint32_t>(slot),
                              DeviceSize(offset), DeviceSize(length)});
}

Status CommandBufferExecutionBarrier(HalState&, Ref<h::CommandBuffer> cmd,
                                     int32_t, int32_t, int64_t) {
  EMBER_ASSIGN_OR_RETURN(h::CommandBuffer * c, Recording(cmd));
  return c->ExecutionBarrier();
}

Status CommandBufferFillBuffer(HalState&, Ref<h::CommandBuffer> cmd,
                               Ref<h::Buffer> target, int64_t offset,
                               int64_t length, int32_t slot, int64_t pattern,
                               int32_t pattern_length, int64_t /*flags*/) {
  EMBER_ASSIGN_OR_RETURN(h::CommandBuffer * c, Recording(cmd));
  return c->Fill({{std::move(target), static_cast<uint32_t>(slot),
                   DeviceSize(offset), DeviceSize(length)},
                  static_cast<uint64_t>(pattern),
                  static_cast<uint32_t>(pattern_length)});
}

Status CommandBufferFinalize(HalState&, Ref<h::CommandBuffer> cmd) {
  EMBER_ASSIGN_OR_RETURN(h::CommandBuffer * c, Recording(cmd));
  return c->Finalize();
}

Status CommandBufferUpdateBuffer(HalState&, Ref<h::CommandBuffer> cmd,
                                 Ref<vm::Buffer> source, int64_t source_offset,
                                 Ref<h::Buffer> target, int64_t target_offset,
                                 int64_t length, int32_t slot,
                                 int64_t /*flags*/) {
  EMBER_ASSIGN_OR_RETURN(h::CommandBuffer * c, Recording(cmd));
  EMBER_ASSIGN_OR_RETURN(vm::Buffer * s, Require(source, "update source"));
  if (source_offset < 0 || length < 0) {
    return OutOfRangeError("negative update range");
  }
  EMBER_ASSIGN_OR_RETURN(std::span<const uint8_t> bytes,
                         s->MapReadOnly(static_cast<uint64_t>(source_offset),
                                        static_cast<uint64_t>(length)));
  if (bytes.size() > h::CommandBuffer::kMaxUpdateBytes) {
    return InvalidArgumentError(
        "update of " + std::to_string(bytes.size()) +
        " bytes exceeds the maximum of " +
        std::to_string(h::CommandBuffer::kMaxUpdateBytes));
  }
  h::UpdateCommand update;
  update.data.assign(bytes.begin(), bytes.end());
  update.target = {std::move(target), static_cast<uint32_t>(slot),
                   DeviceSize(target_offset), DeviceSize(length)};
  return c->Update(std::move(update));
}

// ---- device queues
// ----------------------------------------------------------------

Result<Ref<h::Buffer>> QueueAlloca(HalState&,
                                   const vm::Borrowed<h::Device>& device,
                                   int64_t /*affinity*/, Ref<h::Fence> wait,
                                   Ref<h::Fence> signal, int64_t pool,
                                   int32_t memory_types, int32_t usage,
                                   int64_t size, int64_t /*flags*/) {
  EMBER_ASSIGN_OR_RETURN(h::Device * d, Require(device, "device"));
  // Pool 0 is the device's default allocator; programs cannot name others
  // (iree.runtime 3.13 refuses them the same way; 3.11 ignored the value).
  if (pool != 0) [[unlikely]] {
    return UnimplementedError("hal.device.queue.alloca from pool " +
                              std::to_string(pool) +
                              ": VM queue allocation pools are not supported");
  }
  if (size < 0) {
    return InvalidArgumentError("allocation size " + std::to_string(size) +
                                " is negative");
  }
  return d->QueueAlloca(wait, signal, ParamsOf(memory_types, usage),
                        DeviceSize(size));
}

Status QueueBarrier(HalState&, const vm::Borrowed<h::Device>& device, int64_t,
                    Ref<h::Fence> wait, Ref<h::Fence> signal, int64_t) {
  EMBER_ASSIGN_OR_RETURN(h::Device * d, Require(device, "device"));
  return d->QueueBarrier(wait, signal);
}

Status QueueCopy(HalState&, const vm::Borrowed<h::Device>& device, int64_t,
                 Ref<h::Fence> wait, Ref<h::Fence> signal,
                 Ref<h::Buffer> source, int64_t source_offset,
                 Ref<h::Buffer> target, int64_t target_offset, int64_t length,
                 int64_t) {
  EMBER_ASSIGN_OR_RETURN(h::Device * d, Require(device, "device"));
  EMBER_RETURN_IF_ERROR(Require(source, "copy source"));
  EMBER_RETURN_IF_ERROR(Require(target, "copy target"));
  return d->QueueCopy(wait, signal, source, DeviceSize(source_offset), target,
                      DeviceSize(target_offset), DeviceSize(length));
}

Status QueueDealloca(HalState&, const vm::Borrowed<h::Device>& device, int64_t,
                     Ref<h::Fence> wait, Ref<h::Fence> signal,
                     Ref<h::Buffer> buffer, int64_t) {
  EMBER_ASSIGN_OR_RETURN(h::Device * d, Require(device, "device"));
  EMBER_RETURN_IF_ERROR(Require(buffer, "buffer"));
  return d->QueueDealloca(wait, signal, buffer);
}

Status QueueExecute(HalState&, const vm::Borrowed<h::Device>& device, int64_t,
                    Ref<h::Fence> wait, Ref<h::Fence> signal,
                    Ref<h::CommandBuffer> cmd, int64_t) {
  EMBER_ASSIGN_OR_RETURN(h::Device * d, Require(device, "device"));
  EMBER_RETURN_IF_ERROR(Require(cmd, "command buffer"));
  return d->QueueExecute(wait, signal, cmd, {});
}

Status QueueExecuteIndirect(
    HalState&, const vm::Borrowed<h::Device>& device, int64_t,
    Ref<h::Fence> wait, Ref<h::Fence> signal, Ref<h::CommandBuffer> cmd,
    int64_t,
    std::span<const std::tuple<vm::Borrowed<h::Buffer>, int64_t, int64_t>>
        bindings) {
  EMBER_ASSIGN_OR_RETURN(h::Device * d, Require(device, "device"));
  EMBER_RETURN_IF_ERROR(Require(cmd, "command buffer"));
  // Short tables (the usual case) need no allocation.
  SmallVector<h::Binding, 8> table;
  for (const auto& [buffer, offset, length] : bindings) {
    table.push_back({buffer.Retain(), DeviceSize(offset), DeviceSize(length)});
  }
  return d->QueueExecute(
      wait, signal, cmd,
      std::span<const h::Binding>(table.data(), table.size()));
}

Status QueueFill(HalState&, const vm::Borrowed<h::Device>& device, int64_t,
                 Ref<h::Fence> wait, Ref<h::Fence> signal,
                 Ref<h::Buffer> target, int64_t offset, int64_t length,
                 int64_t pattern, int32_t pattern_length, int64_t) {
  EMBER_ASSIGN_OR_RETURN(h::Device * d, Require(device, "device"));
  EMBER_RETURN_IF_ERROR(Require(target, "fill target"));
  return d->QueueFill(wait, signal, target, DeviceSize(offset),
                      DeviceSize(length), static_cast<uint64_t>(pattern),
                      static_cast<uint32_t>(pattern_length));
}

Status QueueFlush(HalState&, const vm::Borrowed<h::Device>& device, int64_t) {
  EMBER_ASSIGN_OR_RETURN(h::Device * d, Require(device, "device"));
  return d->QueueFlush();
}

Status QueueRead(HalState&, const vm::Borrowed<h::Device>& device, int64_t,
                 Ref<h::Fence> wait, Ref<h::Fence> signal, Ref<h::File> source,
                 int64_t source_offset, Ref<h::Buffer> target,
                 int64_t target_offset, int64_t length, int64_t) {
  EMBER_ASSIGN_OR_RETURN(h::Device * d, Require(device, "device"));
  EMBER_ASSIGN_OR_RETURN(h::File * f, Require(source, "source file"));
  EMBER_RETURN_IF_ERROR(Require(target, "target buffer"));
  EMBER_ASSIGN_OR_RETURN(
      std::span<uint8_t> bytes,
      f->Range(DeviceSize(source_offset), DeviceSize(length)));
  return d->QueueUpdate(wait, signal, bytes, target, DeviceSize(target_offset),
                        DeviceSize(length));
}

Status QueueUpdate(HalState&, const vm::Borrowed<h::Device>& device, int64_t,
                   Ref<h::Fence> wait, Ref<h::Fence> signal,
                   Ref<vm::Buffer> source, int64_t source_offset,
                   Ref<h::Buffer> target, int64_t target_offset, int64_t length,
                   int64_t) {
  EMBER_ASSIGN_OR_RETURN(h::Device * d, Require(device, "device"));
  EMBER_ASSIGN_OR_RETURN(vm::Buffer * s, Require(source, "update source"));
  EMBER_RETURN_IF_ERROR(Require(target, "update target"));
  if (source_offset < 0 || length < 0) {
    return OutOfRangeError("negative update range");
  }
  EMBER_ASSIGN_OR_RETURN(std::span<const uint8_t> bytes,
                         s->MapReadOnly(static_cast<uint64_t>(source_offset),
                                        static_cast<uint64_t>(length)));
  return d->QueueUpdate(wait, signal, bytes, target, DeviceSize(target_offset),
                        DeviceSize(length));
}

Status QueueWrite(HalState&, const vm::Borrowed<h::Device>& device, int64_t,
                  Ref<h::Fence> wait, Ref<h::Fence> signal,
                  Ref<h::Buffer> source, int64_t source_offset,
                  Ref<h::File> target, int64_t target_offset, int64_t length,
                  int64_t) {
  EMBER_ASSIGN_OR_RETURN(h::Device * d, Require(device, "device"));
  EMBER_RETURN_IF_ERROR(Require(source, "source buffer"));
  EMBER_ASSIGN_OR_RETURN(h::File * f, Require(target, "target file"));
  if (!f->writable()) {
    return Status(StatusCode::kPermissionDenied, "target file is read-only");
  }
  EMBER_ASSIGN_OR_RETURN(
      std::span<uint8_t> to,
      f->Range(DeviceSize(target_offset), DeviceSize(length)));
  // A queue operation like the others: the device copies once `wait` is
  // reached (not now), and the file stays alive until it has.
  return d->QueueReadToHost(wait, signal, source, DeviceSize(source_offset), to,
                            Ref<RefCounted>(std::move(target)));
}

Result<Ref<h::File>> FileFromMemory(HalState&,
                                    const vm::Borrowed<h::Device>& device,
                                    int64_t, int32_t access,
                                    Ref<vm::Buffer> buffer, int64_t offset,
                                    int64_t length, int32_t /*flags*/) {
  EMBER_RETURN_IF_ERROR(Require(device, "device"));
  EMBER_ASSIGN_OR_RETURN(vm::Buffer * b, Require(buffer, "file buffer"));
  if (offset < 0 || length < 0 || static_cast<uint64_t>(offset) > b->length() ||
      static_cast<uint64_t>(length) > b->length() - offset) {
    return OutOfRangeError("file range out of bounds of its buffer");
  }
  const bool writable = (access & 2) != 0;
  if (writable && !b->is_mutable()) {
    return Status(StatusCode::kPermissionDenied,
                  "a writable file over an immutable buffer");
  }
  auto* data = const_cast<uint8_t*>(b->bytes().data()) + offset;
  return h::File::FromMemory(
      std::span<uint8_t>(data, static_cast<size_t>(length)), writable,
      Ref<RefCounted>(buffer));
}

// ---- executables
// ---------------------------------------------------------------------

Result<Ref<h::Executable>> ExecutableCreate(
    HalState&, const vm::Borrowed<h::Device>& device, int64_t /*affinity*/,
    Ref<vm::Buffer> format, Ref<vm::Buffer> data, Ref<vm::Buffer> constants) {
  EMBER_ASSIGN_OR_RETURN(h::Device * d, Require(device, "device"));
  EMBER_ASSIGN_OR_RETURN(vm::Buffer * f, Require(format, "executable format"));
  EMBER_ASSIGN_OR_RETURN(vm::Buffer * bytes, Require(data, "executable data"));
  std::vector<uint32_t> values;
  if (constants) {
    if (constants->length() % 4 != 0) {
      return InvalidArgumentError(
          "constant buffer data must contain 4-byte elements but data length "
          "is " +
          std::to_string(constants->length()));
    }
    values.resize(constants->length() / 4);
    if (!values.empty()) {
      std::memcpy(values.data(), constants->bytes().data(),
                  constants->length());
    }
  }
  return d->CreateExecutable(AsString(*f), bytes->bytes(), values);
}

// `executable.lookup.function` (hal module version 7, iree-compile 3.12+):
// the function id that `command_buffer.dispatch` takes for the export named
// by the program's rodata string.
Result<int64_t> ExecutableLookupFunction(HalState&,
                                         Ref<h::Executable> executable,
                                         Ref<vm::Buffer> name) {
  EMBER_ASSIGN_OR_RETURN(h::Executable * e, Require(executable, "executable"));
  EMBER_ASSIGN_OR_RETURN(vm::Buffer * n, Require(name, "function name"));
  EMBER_ASSIGN_OR_RETURN(uint32_t ordinal, e->LookupFunction(AsString(*n)));
  return static_cast<int64_t>(ordinal);
}

// ---- fences
// ----------------------------------------------------------------------------

Result<Ref<h::Fence>> FenceCreate(HalState&,
                                  const vm::Borrowed<h::Device>& device,
                                  int64_t /*flags*/) {
  EMBER_RETURN_IF_ERROR(Require(device, "device"));
  return h::Fence::CreateWithNewSemaphore();
}

Status FenceFail(HalState&, Ref<h::Fence> fence, int32_t code) {
  EMBER_ASSIGN_OR_RETURN(h::Fence * f, Require(fence, "fence"));
  StatusCode status_code = static_cast<StatusCode>(code);
  if (code <= 0 || code > static_cast<int32_t>(StatusCode::kIncompatible)) {
    status_code = StatusCode::kUnknown;
  }
  f->Fail(Status(status_code, "fence failed by the program"));
  return Status::Ok();
}

Result<Ref<h::Fence>> FenceJoin(
    HalState&, int64_t /*flags*/,
    std::span<const std::tuple<Ref<h::Fence>>> list) {
  std::vector<Ref<h::Fence>> fences;
  fences.reserve(list.size());
  for (const auto& [fence] : list) fences.push_back(fence);
  return h::Fence::Join(fences);
}

Result<int32_t> FenceQuery(HalState&, Ref<h::Fence> fence) {
  EMBER_ASSIGN_OR_RETURN(h::Fence * f, Require(fence, "fence"));
  return static_cast<int32_t>(f->Query().code());
}

Status FenceSignal(HalState&, Ref<h::Fence> fence) {
  EMBER_ASSIGN_OR_RETURN(h::Fence * f, Require(fence, "fence"));
  return f->Signal();
}

Result<int32_t> FenceAwait(
    HalState&, int32_t timeout_ms, int64_t /*flags*/,
    std::span<const std::tuple<vm::Borrowed<h::Fence>>> list) {
  const h::Timeout timeout =
      h::Timeout::FromMilliseconds(static_cast<uint32_t>(timeout_ms));
  for (const auto& [fence] : list) {
    if (!fence) continue;
    Status status = fence->Wait(timeout);
    if (status.code() == StatusCode::kDeadlineExceeded) {
      return static_cast<int32_t>(StatusCode::kDeadlineExceeded);
    }
    EMBER_RETURN_IF_ERROR(std::move(status));
  }
  return 0;
}

}  // namespace

std::vector<const vm::RefType*> HalRefTypes() {
  return {&AllocatorType(), &BufferType(),        &BufferViewType(),
          &ChannelType(),   &CommandBufferType(), &DeviceType(),
          &EventType(),     &ExecutableType(),    &FenceType(),
          &FileType(),      &SemaphoreType()};
}

Status RegisterHalTypes(vm::Instance& instance) {
  for (const vm::RefType* type : HalRefTypes()) {
    EMBER_RETURN_IF_ERROR(instance.RegisterType(*type),
                          "registering the hal module's types");
  }
  return Status::Ok();
}

DebugSink StdioDebugSink(std::FILE* file) {
  DebugSink sink;
  sink.buffer_view_trace =
      [file](std::string_view key,
             std::span<const Ref<h::BufferView>> views) -> Status {
    // Formatted first, written at once: a view that cannot be formatted
    // fails the trace without leaving half of it in the file.
    std::string text = "=== " + std::string(key) + " ===\n";
    for (const Ref<h::BufferView>& view : views) {
      EMBER_ASSIGN_OR_RETURN(std::string line, h::FormatBufferView(*view),
                             "formatting a traced buffer view");
      text += line;
      text += '\n';
    }
    text += '\n';
    if (std::fwrite(text.data(), 1, text.size(), file) != text.size()) {
      return DataLossError("could not write a buffer view trace");
    }
    std::fflush(file);
    return Status::Ok();
  };
  return sink;
}

Result<std::shared_ptr<vm::Module>> CreateHalModule(
    std::vector<Ref<ember::hal::Device>> devices, DebugSink debug_sink) {
  using vm::Export;
  // Sorted by name, as IREE's table (exports.inl) is.
  std::vector<vm::NativeExport<HalState>> exports = {
      Export<"allocator.allocate", "0rIiiI_r", &AllocatorAllocate>(),
      Export<"allocator.import", "0riIiirII_r", &AllocatorImport>(),
      Export<"allocator.select", "0iiICrID_rI", &AllocatorSelect>(),
      Export<"buffer.allocation.discard", "0r_i", &BufferAllocationDiscard>(),
      Export<"buffer.allocation.is_terminal", "0r_i",
             &BufferAllocationIsTerminal>(),
      Export<"buffer.allocation.preserve", "0r_v", &BufferAllocationPreserve>(),
      Export<"buffer.assert", "0rrrIii_v", &BufferAssert>(),
      Export<"buffer.length", "0r_I", &BufferLength>(),
      Export<"buffer.load", "0rIi_i", &BufferLoad>(),
      Export<"buffer.store", "0irIi_v", &BufferStore>(),
      Export<"buffer.subspan", "0rII_r", &BufferSubspan>(),
      Export<"buffer_view.assert", "0rriiCID_v", &BufferViewAssert>(),
      Export<"buffer_view.buffer", "0r_r", &BufferViewBuffer>(),
      Export<"buffer_view.create", "0rIIiiCID_r", &BufferViewCreate>(),
      Export<"buffer_view.dim", "0ri_I", &BufferViewDim>(),
      Export<"buffer_view.element_type", "0r_i", &BufferViewElementType>(),
      Export<"buffer_view.encoding_type", "0r_i", &BufferViewEncodingType>(),
      Export<"buffer_view.rank", "0r_i", &BufferViewRank>(),
      Export<"buffer_view.trace", "0rCrD_v", &BufferViewTrace>(),
      Export<"channel.create", "0rIIrrii_r", &ChannelCreate>(),
      Export<"channel.rank_and_count", "0r_ii", &ChannelRankAndCount>(),
      Export<"channel.split", "0riiI_r", &ChannelSplit>(),
      Export<"command_buffer.advise_buffer", "0rrIIIi_v",
             &CommandBufferAdviseBuffer>(),
      Export<"command_buffer.begin_debug_group", "0rr_v",
             &CommandBufferBeginDebugGroup>(),
      Export<"command_buffer.collective", "0rriiiirrIIIII_v",
             &CommandBufferCollective>(),
      Export<"command_buffer.copy_buffer", "0riirIrIII_v",
             &CommandBufferCopyBuffer>(),
      Export<"command_buffer.create", "0riiIi_r", &CommandBufferCreate>(),
      // Two signatures of one export name: linking picks the one whose
      // cconv the importer declares (3.12+: i64 function id; 3.11: i32
      // ordinal). Version 7's comes first, so a lookup by name alone (the
      // Python API's lookup_function) finds what iree.runtime 3.13 has.
      Export<"command_buffer.dispatch", "0rrIiiiICiDCiirIID_v",
             &CommandBufferDispatch<int64_t>>(),
      Export<"command_buffer.dispatch", "0rriiiiICiDCiirIID_v",
             &CommandBufferDispatch<int32_t>>(),
      Export<"command_buffer.dispatch.indirect", "0rrIirIICiDCiirIID_v",
             &CommandBufferDispatchIndirect<int64_t>>(),
      Export<"command_buffer.dispatch.indirect", "0rriirIICiDCiirIID_v",
             &CommandBufferDispatchIndirect<int32_t>>(),
      Export<"command_buffer.end_debug_group", "0r_v",
             &CommandBufferEndDebugGroup>(),
      Export<"command_buffer.execution_barrier", "0riiI_v",
             &CommandBufferExecutionBarrier>(),
      Export<"command_buffer.fill_buffer", "0rrIIiIiI_v",
             &CommandBufferFillBuffer>(),
      Export<"command_buffer.finalize", "0r_v", &CommandBufferFinalize>(),
      Export<"command_buffer.flush_buffer", "0rirII_v",
             &CommandBufferFlushBuffer>(),
      Export<"command_buffer.invalidate_buffer", "0rirII_v",
             &CommandBufferFlushBuffer>(),
      Export<"command_buffer.update_buffer", "0rrIrIIiI_v",
             &CommandBufferUpdateBuffer>(),
      Export<"device.allocator", "0r_r", &DeviceAllocator>(),
      Export<"device.query.i64", "0rrr_iI", &DeviceQueryI64>(),
      Export<"device.queue.alloca", "0rIrrIiiII_r", &QueueAlloca>(),
      Export<"device.queue.barrier", "0rIrrI_v", &QueueBarrier>(),
      Export<"device.queue.copy", "0rIrrrIrIII_v", &QueueCopy>(),
      Export<"device.queue.dealloca", "0rIrrrI_v", &QueueDealloca>(),
      Export<"device.queue.execute", "0rIrrrI_v", &QueueExecute>(),
      Export<"device.queue.execute.indirect", "0rIrrrICrIID_v",
             &QueueExecuteIndirect>(),
      Export<"device.queue.fill", "0rIrrrIIIiI_v", &QueueFill>(),
      Export<"device.queue.flush", "0rI_v", &QueueFlush>(),
      Export<"device.queue.read", "0rIrrrIrIII_v", &QueueRead>(),
      Export<"device.queue.update", "0rIrrrIrIII_v", &QueueUpdate>(),
      Export<"device.queue.write", "0rIrrrIrIII_v", &QueueWrite>(),
      Export<"devices.count", "0v_i", &DevicesCount>(),
      Export<"devices.get", "0i_r", &DevicesGet>(),
      Export<"ex.file.from_memory", "0rIirIIi_r", &FileFromMemory>(),
      Export<"executable.create", "0rIrrr_r", &ExecutableCreate>(),
      Export<"executable.lookup.function", "0rr_I",
             &ExecutableLookupFunction>(),
      Export<"fence.await", "0iICrD_i", &FenceAwait>(),
      Export<"fence.create", "0rI_r", &FenceCreate>(),
      Export<"fence.fail", "0ri_v", &FenceFail>(),
      Export<"fence.join", "0ICrD_r", &FenceJoin>(),
      Export<"fence.query", "0r_i", &FenceQuery>(),
      Export<"fence.signal", "0r_v", &FenceSignal>(),
  };
  auto shared_devices = std::make_shared<std::vector<Ref<ember::hal::Device>>>(
      std::move(devices));
  auto shared_sink = std::make_shared<const DebugSink>(std::move(debug_sink));
  return std::shared_ptr<vm::Module>(
      std::make_shared<vm::NativeModule<HalState>>(
          "hal", kHalModuleVersion, std::move(exports),
          [shared_devices,
           shared_sink](vm::Context&) -> Result<std::unique_ptr<HalState>> {
            auto state = std::make_unique<HalState>();
            state->devices = *shared_devices;
            state->debug_sink = shared_sink;
            return state;
          },
          HalRefTypes()));
}

}  // namespace ember::modules::hal
