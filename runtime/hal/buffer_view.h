// BufferView: a buffer seen as a tensor -- shape, element type, encoding.
//
// Programs receive and return tensors as buffer views; the shape and type
// travel with the bytes so that a callee can check what it was given
// (`hal.buffer_view.assert`). Creating a view checks that the buffer holds
// at least shape x element size bytes, with overflow-checked products, so a
// hostile shape cannot describe more memory than exists.
//
// Thread safety: immutable after creation.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "runtime/base/object_cache.h"
#include "runtime/base/ref_counted.h"
#include "runtime/base/small_vector.h"
#include "runtime/base/status.h"
#include "runtime/hal/buffer.h"
#include "runtime/hal/element_type.h"

namespace ember::hal {

// The most dimensions a view may have (programs are checked against it
// before any shape-sized allocation).
inline constexpr size_t kMaxRank = 64;

// Bytes a dense tensor of `shape` with `type` takes; INVALID_ARGUMENT for
// opaque or sub-byte element types, OUT_OF_RANGE on overflow.
Result<uint64_t> DenseByteLength(std::span<const int64_t> shape,
                                 ElementType type);

class BufferView final : public RefCounted,
                         public CachedAllocation<BufferView> {
 public:
  // A view of `buffer`; its byte length must cover the shape (dense,
  // byte-aligned types) -- OUT_OF_RANGE otherwise.
  static Result<Ref<BufferView>> Create(Ref<Buffer> buffer,
                                        std::span<const int64_t> shape,
                                        ElementType element_type,
                                        EncodingType encoding_type);

  const Ref<Buffer>& buffer() const { return buffer_; }
  std::span<const int64_t> shape() const {
    return {shape_.data(), shape_.size()};
  }
  size_t rank() const { return shape_.size(); }
  ElementType element_type() const { return element_type_; }
  EncodingType encoding_type() const { return encoding_type_; }
  uint64_t element_count() const;  // product of the shape
  uint64_t byte_length() const { return buffer_->byte_length(); }

  // "2x3xf32", as IREE prints shapes and types.
  std::string ShapeAndTypeString() const;

 private:
  BufferView() = default;
  Ref<Buffer> buffer_;
  // Ranks up to 6 (nearly every tensor) need no allocation of their own.
  SmallVector<int64_t, 6> shape_;
  ElementType element_type_ = ElementType::kNone;
  EncodingType encoding_type_ = EncodingType::kDenseRowMajor;
};

}  // namespace ember::hal
