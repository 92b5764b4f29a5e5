#include "runtime/hal/file.h"

#include <string>
#include <utility>

namespace ember::hal {

Ref<File> File::FromMemory(std::span<uint8_t> bytes, bool writable,
                           Ref<RefCounted> owner) {
  Ref<File> file = Ref<File>::Adopt(new File());
  file->bytes_ = bytes;
  file->writable_ = writable;
  file->owner_ = std::move(owner);
  return file;
}

Result<std::span<uint8_t>> File::Range(uint64_t offset, uint64_t length) const {
  if (offset > bytes_.size() || length > bytes_.size() - offset) {
    return OutOfRangeError("file range [" + std::to_string(offset) + ", +" +
                           std::to_string(length) + ") is outside a file of " +
                           std::to_string(bytes_.size()) + " bytes");
  }
  return bytes_.subspan(static_cast<size_t>(offset),
                        static_cast<size_t>(length));
}

}  // namespace ember::hal
