#include "runtime/hal/buffer_view.h"

#include <utility>

namespace ember::hal {

Result<uint64_t> DenseByteLength(std::span<const int64_t> shape,
                                 ElementType type) {
  if (BitCount(type) == 0 || !IsByteAligned(type)) {
    return InvalidArgumentError("opaque and sub-byte element types (" +
                                FormatElementType(type) +
                                ") have no dense byte length");
  }
  uint64_t length = DenseByteCount(type);
  for (int64_t dim : shape) {
    if (dim < 0) {
      return InvalidArgumentError("negative dimension " + std::to_string(dim));
    }
    if (__builtin_mul_overflow(length, static_cast<uint64_t>(dim), &length)) {
      return OutOfRangeError("tensor byte length overflows 64 bits");
    }
  }
  return length;
}

Result<Ref<BufferView>> BufferView::Create(Ref<Buffer> buffer,
                                           std::span<const int64_t> shape,
                                           ElementType element_type,
                                           EncodingType encoding_type) {
  if (!buffer) return InvalidArgumentError("buffer view of a null buffer");
  if (shape.size() > kMaxRank) {
    return InvalidArgumentError("rank " + std::to_string(shape.size()) +
                                " exceeds the maximum of " +
                                std::to_string(kMaxRank));
  }
  uint64_t count = 1;
  for (int64_t dim : shape) {
    if (dim < 0) {
      return InvalidArgumentError("negative dimension " + std::to_string(dim));
    }
    if (__builtin_mul_overflow(count, static_cast<uint64_t>(dim), &count)) {
      return OutOfRangeError("tensor element count overflows 64 bits");
    }
  }
  if (encoding_type == EncodingType::kDenseRowMajor &&
      BitCount(element_type) != 0 && IsByteAligned(element_type)) {
    EMBER_ASSIGN_OR_RETURN(uint64_t needed,
                           DenseByteLength(shape, element_type));
    if (needed > buffer->byte_length()) {
      return OutOfRangeError("a " + std::to_string(needed) +
                             "-byte tensor does not fit in a buffer of " +
                             std::to_string(buffer->byte_length()) + " bytes");
    }
  }
  Ref<BufferView> view = Ref<BufferView>::Adopt(new BufferView);
  view->buffer_ = std::move(buffer);
  for (int64_t dim : shape) view->shape_.push_back(dim);
  view->element_type_ = element_type;
  view->encoding_type_ = encoding_type;
  return view;
}

uint64_t BufferView::element_count() const {
  uint64_t count = 1;
  for (int64_t dim : shape_) count *= static_cast<uint64_t>(dim);
  return count;
}

std::string BufferView::ShapeAndTypeString() const {
  std::string text;
  for (int64_t dim : shape_) text += std::to_string(dim) + "x";
  return text + FormatElementType(element_type_);
}

}  // namespace ember::hal
