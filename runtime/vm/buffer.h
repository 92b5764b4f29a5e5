// Buffer: the VM's `vm.buffer`, a ref-counted span of bytes with access bits.
//
// Programs use vm.buffer for host-visible bytes that are not tensors: module
// constants (rodata segments), strings handed to the HAL (never
// NUL-terminated), scratch memory made with `vm.buffer.alloc`. A buffer is
// either allocated here (zeroed, aligned, owned) or wraps external memory --
// a module's rodata, a host's bytes -- while keeping that memory's owner
// alive.
//
// Access bits are IREE's (buffer.h): MUTABLE lets the program write; the
// ORIGIN bits only record where the bytes came from. Rodata is wrapped
// without MUTABLE; writing to it is PERMISSION_DENIED, as in IREE.
//
// Two ways of addressing, as the bytecode does (IREE ops.h, and
// docs/module-format.md, "Semantics"):
//   * byte-indexed: Clone, Copy, Compare, FillBytes, Hash, Map*;
//   * element-indexed: LoadElement, StoreElement, FillElements, whose offset
//     and count are in elements of the accessed type; byte offset = element
//     offset * sizeof(T). So element accesses are always aligned relative to
//     the start of the buffer, which is why IREE needs no alignment check.
//     Ember reads and writes elements with LoadLE/StoreLE (memcpy), so a
//     wrapped span need not be aligned either.
// Every offset and length comes from an untrusted program: each is checked
// for overflow and against the buffer's length, failing with OUT_OF_RANGE.
// A range ending exactly at the end (including an empty one there) is valid.
//
// Thread safety: the count is atomic; the bytes are not synchronised.
// Concurrent readers are fine; a writer needs exclusive use.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <span>
#include <type_traits>

#include "runtime/base/endian.h"
#include "runtime/base/ref_counted.h"
#include "runtime/base/status.h"
#include "runtime/vm/ref.h"

namespace ember::vm {

enum class BufferAccess : uint32_t {
  kNone = 0,
  kMutable = 1u << 0,       // the program may write
  kOriginModule = 1u << 1,  // module rodata/rwdata; lives as long as the module
  kOriginGuest = 1u << 2,   // made by the program (vm.buffer.alloc/clone)
  kOriginHost = 1u << 3,    // supplied by the host
};
constexpr BufferAccess operator|(BufferAccess a, BufferAccess b) {
  return static_cast<BufferAccess>(static_cast<uint32_t>(a) |
                                   static_cast<uint32_t>(b));
}
constexpr BufferAccess operator&(BufferAccess a, BufferAccess b) {
  return static_cast<BufferAccess>(static_cast<uint32_t>(a) &
                                   static_cast<uint32_t>(b));
}
// Whether every bit of `bits` is set in `access`.
constexpr bool AllBitsSet(BufferAccess access, BufferAccess bits) {
  return (access & bits) == bits;
}

// What keeps wrapped external memory alive: nothing (static memory), a
// ref-counted object, a shared_ptr (e.g. the module's ByteStorage), or a
// callback run once when the buffer is destroyed.
class ExternalMemoryOwner {
 public:
  ExternalMemoryOwner() = default;
  template <typename T>
  requires std::is_base_of_v<RefCounted, T> ExternalMemoryOwner(Ref<T> object)
      : object_(std::move(object)) {}
  template <typename T>
  ExternalMemoryOwner(std::shared_ptr<T> shared) : shared_(std::move(shared)) {}
  // Any callable, e.g. a lambda that releases a Python buffer.
  template <typename F>
  requires std::is_invocable_r_v<void, F&> && std::is_copy_constructible_v<F>
  ExternalMemoryOwner(F on_release) : on_release_(std::move(on_release)) {}
  ExternalMemoryOwner(ExternalMemoryOwner&& other) noexcept
      : object_(std::move(other.object_)),
        shared_(std::move(other.shared_)),
        on_release_(std::exchange(other.on_release_, nullptr)) {}
  ExternalMemoryOwner& operator=(ExternalMemoryOwner&&) = delete;
  ~ExternalMemoryOwner() {
    if (on_release_) on_release_();
  }

 private:
  Ref<const RefCounted> object_;
  std::shared_ptr<const void> shared_;
  std::function<void()> on_release_;
};

// The element types of the element-indexed operations.
template <typename T>
concept BufferElement = std::same_as<T, int8_t> || std::same_as<T, uint8_t> ||
    std::same_as<T, int16_t> || std::same_as<T, uint16_t> ||
    std::same_as<T, int32_t> || std::same_as<T, uint32_t> ||
    std::same_as<T, int64_t> || std::same_as<T, uint64_t> ||
    std::same_as<T, float> || std::same_as<T, double>;

class Buffer final : public RefCounted {
 public:
  // The `vm.buffer` descriptor.
  // Inline, so that a type check is a compare, not a call (every ref
  // argument of every native call is checked).
  static const RefType& Type() {
    static constexpr RefType type("vm.buffer");
    return type;
  }

  // The most bytes one Allocate or Clone may request (alignment included):
  // a hostile length fails with RESOURCE_EXHAUSTED instead of exhausting the
  // host. Large data reaches the VM as HAL buffers or wrapped rodata, never
  // through these.
  static constexpr uint64_t kMaxAllocationLength = uint64_t{1} << 30;

  // A zeroed buffer of `length` bytes whose start is aligned to `alignment`
  // (0 or a power of two, else INVALID_ARGUMENT; at least
  // alignof(max_align_t) is always provided, as IREE does).
  static Result<Ref<Buffer>> Allocate(uint64_t length, uint64_t alignment,
                                      BufferAccess access);

  // Wraps read-only memory, e.g. a module rodata segment. `access` may not
  // include kMutable (INVALID_ARGUMENT).
  static Result<Ref<Buffer>> WrapExternal(std::span<const uint8_t> bytes,
                                          BufferAccess access,
                                          ExternalMemoryOwner owner);
  // Wraps writable memory; the program may write to it if `access` includes
  // kMutable.
  static Result<Ref<Buffer>> WrapExternalMutable(std::span<uint8_t> bytes,
                                                 BufferAccess access,
                                                 ExternalMemoryOwner owner);

  // A new allocated buffer holding a copy of source[offset, offset + length)
  // (byte-indexed; readable whatever the source's access).
  static Result<Ref<Buffer>> Clone(const Buffer& source, uint64_t offset,
                                   uint64_t length, uint64_t alignment,
                                   BufferAccess access);

  BufferAccess access() const { return access_; }
  bool is_mutable() const {
    return AllBitsSet(access_, BufferAccess::kMutable);
  }
  uint64_t length() const { return length_; }
  // All bytes, for reading (always allowed).
  std::span<const uint8_t> bytes() const { return {data_, length_}; }

  // Checked byte ranges. MapMutable fails with PERMISSION_DENIED on a buffer
  // without kMutable (checked before the range, as IREE does).
  Result<std::span<const uint8_t>> MapReadOnly(uint64_t offset,
                                               uint64_t length) const;
  Result<std::span<uint8_t>> MapMutable(uint64_t offset, uint64_t length);

  // vm.buffer.copy: source and target may be the same buffer and the ranges
  // may overlap (memmove).
  static Status Copy(const Buffer& source, uint64_t source_offset,
                     Buffer& target, uint64_t target_offset, uint64_t length);
  // vm.buffer.compare: true when the two byte ranges are equal.
  static Result<bool> Compare(const Buffer& lhs, uint64_t lhs_offset,
                              const Buffer& rhs, uint64_t rhs_offset,
                              uint64_t length);
  // Byte-indexed fill (the same as FillElements<uint8_t>).
  Status FillBytes(uint64_t offset, uint64_t length, uint8_t value);
  // vm.buffer.hash: SipHash-2-4 with the key bytes 00 01 .. 0f over the byte
  // range, returned as i64 (IREE buffer.c, iree_vm_buffer_hash).
  Result<int64_t> Hash(uint64_t offset, uint64_t length) const;

  // Element-indexed access (see the top of this file).
  template <BufferElement T>
  Result<T> LoadElement(uint64_t element_offset) const;
  template <BufferElement T>
  Status StoreElement(uint64_t element_offset, T value);
  template <BufferElement T>
  Status FillElements(uint64_t element_offset, uint64_t element_count, T value);

  // Construction goes through the factories above; the key keeps the
  // constructor public for MakeRef yet unusable elsewhere.
  class ConstructionKey {
    friend class Buffer;
    ConstructionKey() = default;
  };
  Buffer(ConstructionKey, uint8_t* data, uint64_t length, BufferAccess access,
         uint64_t owned_alignment, ExternalMemoryOwner owner);

 private:
  // Only the last Ref may destroy a buffer.
  ~Buffer() override;

  // The bytes of an element range, or OUT_OF_RANGE (also on overflow).
  Result<const uint8_t*> ElementsForRead(uint64_t element_offset,
                                         uint64_t element_count,
                                         size_t element_size) const;
  Result<uint8_t*> ElementsForWrite(uint64_t element_offset,
                                    uint64_t element_count,
                                    size_t element_size);
  // Writes `count` copies of the `element_size` bytes at `element`.
  static void WritePattern(uint8_t* bytes, uint64_t count, const void* element,
                           size_t element_size);

  uint8_t* data_;
  uint64_t length_;
  BufferAccess access_;
  // Nonzero when data_ was allocated here (the alignment it was allocated
  // with, needed to free it).
  uint64_t owned_alignment_;
  ExternalMemoryOwner owner_;
};

template <BufferElement T>
Result<T> Buffer::LoadElement(uint64_t element_offset) const {
  EMBER_ASSIGN_OR_RETURN(const uint8_t* bytes,
                         ElementsForRead(element_offset, 1, sizeof(T)));
  return LoadLE<T>(bytes);
}

template <BufferElement T>
Status Buffer::StoreElement(uint64_t element_offset, T value) {
  EMBER_ASSIGN_OR_RETURN(uint8_t * bytes,
                         ElementsForWrite(element_offset, 1, sizeof(T)));
  StoreLE<T>(bytes, value);
  return Status::Ok();
}

template <BufferElement T>
Status Buffer::FillElements(uint64_t element_offset, uint64_t element_count,
                            T value) {
  EMBER_ASSIGN_OR_RETURN(
      uint8_t * bytes,
      ElementsForWrite(element_offset, element_count, sizeof(T)));
  WritePattern(bytes, element_count, &value, sizeof(T));
  return Status::Ok();
}

}  // namespace ember::vm
