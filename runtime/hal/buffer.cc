#include "runtime/hal/buffer.h"

#include <cstdio>
#include <initializer_list>
#include <utility>

namespace ember::hal {
namespace {

struct BitName {
  uint32_t bits;
  const char* name;
};

// Names the largest groups first so that e.g. HOST_LOCAL prints as one word.
std::string BitsToString(uint32_t value, std::initializer_list<BitName> names) {
  if (value == 0) return "NONE";
  std::string text;
  for (const BitName& entry : names) {
    if (entry.bits != 0 && (value & entry.bits) == entry.bits) {
      if (!text.empty()) text += '|';
      text += entry.name;
      value &= ~entry.bits;
    }
  }
  if (value != 0) {
    if (!text.empty()) text += '|';
    char hex[16];
    std::snprintf(hex, sizeof(hex), "0x%x", value);
    text += hex;
  }
  return text;
}

}  // namespace

const char kHostMemoryDomain[] = "host";

Status RangeError(uint64_t max_length, uint64_t offset, uint64_t length) {
  if (offset > max_length) {
    return OutOfRangeError("offset " + std::to_string(offset) +
                           " is past the end of a buffer of " +
                           std::to_string(max_length) + " bytes");
  }
  return OutOfRangeError(
      "range [" + std::to_string(offset) + ", " + std::to_string(offset) +
      " + " + std::to_string(length) + ") runs past the end of a buffer of " +
      std::to_string(max_length) + " bytes");
}

std::string MemoryTypeToString(MemoryType type) {
  return BitsToString(
      static_cast<uint32_t>(type),
      {{static_cast<uint32_t>(MemoryType::kHostLocal), "HOST_LOCAL"},
       {static_cast<uint32_t>(MemoryType::kDeviceLocal), "DEVICE_LOCAL"},
       {1u << 0, "OPTIMAL"},
       {1u << 1, "HOST_VISIBLE"},
       {1u << 2, "HOST_COHERENT"},
       {1u << 3, "HOST_CACHED"},
       {1u << 4, "DEVICE_VISIBLE"}});
}

std::string MemoryAccessToString(MemoryAccess access) {
  return BitsToString(
      static_cast<uint32_t>(access),
      {{static_cast<uint32_t>(MemoryAccess::kAll), "ALL"},
       {static_cast<uint32_t>(MemoryAccess::kDiscardWrite), "DISCARD_WRITE"},
       {1u << 0, "READ"},
       {1u << 1, "WRITE"},
       {1u << 2, "DISCARD"},
       {1u << 3, "MAY_ALIAS"},
       {1u << 4, "UNALIGNED"},
       {1u << 5, "ANY"}});
}

std::string BufferUsageToString(BufferUsage usage) {
  return BitsToString(
      static_cast<uint32_t>(usage),
      {{static_cast<uint32_t>(BufferUsage::kTransfer), "TRANSFER"},
       {1u << 0, "TRANSFER_SOURCE"},
       {1u << 1, "TRANSFER_TARGET"},
       {static_cast<uint32_t>(BufferUsage::kDispatchStorage),
        "DISPATCH_STORAGE"},
       {1u << 8, "DISPATCH_INDIRECT_PARAMS"},
       {1u << 9, "DISPATCH_UNIFORM_READ"},
       {1u << 10, "DISPATCH_STORAGE_READ"},
       {1u << 11, "DISPATCH_STORAGE_WRITE"},
       {1u << 12, "DISPATCH_IMAGE_READ"},
       {1u << 13, "DISPATCH_IMAGE_WRITE"},
       {1u << 16, "SHARING_EXPORT"},
       {1u << 17, "SHARING_REPLICATE"},
       {1u << 18, "SHARING_CONCURRENT"},
       {1u << 19, "SHARING_IMMUTABLE"},
       {static_cast<uint32_t>(BufferUsage::kMapping), "MAPPING"},
       {1u << 24, "MAPPING_SCOPED"},
       {1u << 25, "MAPPING_PERSISTENT"},
       {1u << 26, "MAPPING_OPTIONAL"},
       {1u << 27, "MAPPING_ACCESS_RANDOM"},
       {1u << 28, "MAPPING_ACCESS_SEQUENTIAL_WRITE"}});
}

Ref<Buffer> Buffer::NewAllocation(uint8_t* data, uint64_t size,
                                  const BufferParams& params) {
  Ref<Buffer> buffer = Ref<Buffer>::Adopt(new Buffer);
  buffer->memory_type_ = params.type;
  buffer->allowed_access_ = params.access;
  buffer->allowed_usage_ = params.usage;
  buffer->byte_length_ = size;
  buffer->host_data_ = data;
  return buffer;
}

Ref<Buffer> Buffer::WrapAllocation(uint8_t* data, uint64_t size,
                                   const BufferParams& params,
                                   std::function<void()> release) {
  Ref<Buffer> buffer = NewAllocation(data, size, params);
  buffer->release_ = std::move(release);
  return buffer;
}

Ref<Buffer> Buffer::WrapAllocation(uint8_t* data, uint64_t size,
                                   const BufferParams& params,
                                   Ref<RefCounted> owner, ReleaseFn release) {
  Ref<Buffer> buffer = NewAllocation(data, size, params);
  buffer->owner_ = std::move(owner);
  buffer->release_fn_ = release;
  return buffer;
}

Buffer::Buffer(const BufferParams& params, uint64_t size, uint8_t* host_data,
               const void* memory_domain)
    : memory_type_(params.type),
      allowed_access_(params.access),
      allowed_usage_(params.usage),
      byte_length_(size),
      host_data_(host_data),
      memory_domain_(memory_domain) {}

Buffer::~Buffer() {
  if (release_fn_ != nullptr) {
    release_fn_(owner_.get(), host_data_, byte_length_);
  } else if (release_) {
    release_();
  }
}

Result<Ref<Buffer>> Buffer::Subspan(const Ref<Buffer>& buffer, uint64_t offset,
                                    uint64_t length) {
  EMBER_ASSIGN_OR_RETURN(uint64_t resolved,
                         CalculateRange(buffer->byte_length_, offset, length),
                         "while making a subspan");
  if (offset == 0 && resolved == buffer->byte_length_) return buffer;
  const Buffer& root = buffer->allocated_buffer();
  Ref<Buffer> subspan = Ref<Buffer>::Adopt(new Buffer);
  subspan->memory_type_ = buffer->memory_type_;
  subspan->allowed_access_ = buffer->allowed_access_;
  subspan->allowed_usage_ = buffer->allowed_usage_;
  subspan->byte_offset_ = buffer->byte_offset_ + offset;
  subspan->byte_length_ = resolved;
  subspan->host_data_ = root.host_data_;
  subspan->memory_domain_ = root.memory_domain_;
  subspan->parent_ = Ref<Buffer>::Retain(const_cast<Buffer*>(&root));
  return subspan;
}

Status Buffer::ValidateMemoryType(MemoryType required) const {
  if (HasAll(memory_type_, required)) return Status::Ok();
  return Status(StatusCode::kPermissionDenied,
                "buffer memory type is not compatible with the requested "
                "operation; buffer has " +
                    MemoryTypeToString(memory_type_) + ", operation requires " +
                    MemoryTypeToString(required));
}

Status Buffer::ValidateAccess(MemoryAccess required) const {
  if (HasAll(required, MemoryAccess::kAny)) return Status::Ok();
  if (!HasAny(required, MemoryAccess::kRead | MemoryAccess::kWrite)) {
    return InvalidArgumentError(
        "memory access must specify one or more of READ or WRITE");
  }
  if (HasAll(allowed_access_, required)) return Status::Ok();
  return Status(StatusCode::kPermissionDenied,
                "buffer does not support the requested access type; buffer "
                "allows " +
                    MemoryAccessToString(allowed_access_) +
                    ", operation requires " + MemoryAccessToString(required));
}

Status Buffer::ValidateUsage(BufferUsage required) const {
  if (HasAll(allowed_usage_, required)) return Status::Ok();
  return Status(StatusCode::kPermissionDenied,
                "requested usage was not specified when the buffer was "
                "allocated; buffer allows " +
                    BufferUsageToString(allowed_usage_) +
                    ", operation requires " + BufferUsageToString(required));
}

Result<BufferMapping> Buffer::Map(MappingMode mode, MemoryAccess access,
                                  uint64_t offset, uint64_t length) {
  EMBER_RETURN_IF_ERROR(ValidateAccess(access));
  const bool persistent = mode == MappingMode::kPersistent;
  if (persistent || host_data_ == nullptr) {
    EMBER_RETURN_IF_ERROR(ValidateMemoryType(MemoryType::kHostVisible));
  }
  if (persistent) {
    EMBER_RETURN_IF_ERROR(ValidateUsage(BufferUsage::kMappingPersistent));
  }
  if (host_data_ == nullptr) [[unlikely]] {
    return FailedPreconditionError(
        "buffer memory (" + MemoryTypeToString(memory_type_) +
        ") cannot be mapped by the host; transfer it through its device");
  }
  EMBER_ASSIGN_OR_RETURN(std::span<uint8_t> range, HostRange(offset, length),
                         "while mapping a buffer");
  BufferMapping mapping;
  mapping.contents_ = range;
  if (!persistent) mapping.buffer_ = Ref<Buffer>::Retain(this);
  return mapping;
}

Status Buffer::Flush(uint64_t offset, uint64_t length) {
  EMBER_ASSIGN_OR_RETURN(uint64_t resolved,
                         CalculateRange(byte_length_, offset, length));
  if (resolved == 0 || HasAll(memory_type_, MemoryType::kHostCoherent)) {
    return Status::Ok();
  }
  return const_cast<Buffer&>(allocated_buffer())
      .FlushAllocation(byte_offset_ + offset, resolved);
}

Status Buffer::Invalidate(uint64_t offset, uint64_t length) {
  EMBER_ASSIGN_OR_RETURN(uint64_t resolved,
                         CalculateRange(byte_length_, offset, length));
  if (resolved == 0 || HasAll(memory_type_, MemoryType::kHostCoherent)) {
    return Status::Ok();
  }
  return const_cast<Buffer&>(allocated_buffer())
      .InvalidateAllocation(byte_offset_ + offset, resolved);
}

Status Buffer::FlushAllocation(uint64_t, uint64_t) { return Status::Ok(); }
Status Buffer::InvalidateAllocation(uint64_t, uint64_t) { return Status::Ok(); }

Result<std::span<uint8_t>> Buffer::HostRange(uint64_t offset, uint64_t length) {
  EMBER_ASSIGN_OR_RETURN(uint64_t resolved,
                         CalculateRange(byte_length_, offset, length));
  if (host_data_ == nullptr) [[unlikely]] {
    return FailedPreconditionError(
        "buffer memory is not host memory; a host-memory device cannot use "
        "it");
  }
  if (resolved == 0) return std::span<uint8_t>();
  return std::span<uint8_t>(host_data_ + byte_offset_ + offset,
                            static_cast<size_t>(resolved));
}

void Buffer::AllocationPreserve() {
  allocated_buffer().preserve_count_.fetch_add(1, std::memory_order_acquire);
}

bool Buffer::AllocationDiscard() {
  return allocated_buffer().preserve_count_.fetch_sub(
             1, std::memory_order_release) == 1;
}

bool Buffer::AllocationIsTerminal() const {
  return allocated_buffer().preserve_count_.load(std::memory_order_acquire) ==
         1;
}

bool Buffer::Overlaps(const Buffer& other, uint64_t offset, uint64_t length,
                      uint64_t other_offset, uint64_t other_length) const {
  if (&allocated_buffer() != &other.allocated_buffer()) return false;
  if (length == 0 || other_length == 0) return false;
  uint64_t start = byte_offset_ + offset;
  uint64_t other_start = other.byte_offset_ + other_offset;
  return start < other_start + other_length && other_start < start + length;
}

}  // namespace ember::hal
