// File: a byte range the queue reads from and writes to
// (`hal.device.queue.read` / `write`), as parameter loading uses.
//
// The CPU devices only need host memory files: bytes owned elsewhere (a
// module's rodata, a mapped parameter archive) that the file keeps alive
// through an owner reference. Reads and writes are range-checked against
// the file and the buffer; a read-only file refuses writes.
//
// Thread safety: immutable description; contents ordered by the queue.
#pragma once

#include <cstdint>
#include <span>

#include "runtime/base/ref_counted.h"
#include "runtime/base/status.h"

namespace ember::hal {

class File final : public RefCounted {
 public:
  // `owner` keeps `bytes` alive (may be null when the caller guarantees it).
  static Ref<File> FromMemory(std::span<uint8_t> bytes, bool writable,
                              Ref<RefCounted> owner);

  uint64_t length() const { return bytes_.size(); }
  bool writable() const { return writable_; }
  // The range [offset, offset + length), checked.
  Result<std::span<uint8_t>> Range(uint64_t offset, uint64_t length) const;

 private:
  File() = default;
  std::span<uint8_t> bytes_;
  bool writable_ = false;
  Ref<RefCounted> owner_;
};

}  // namespace ember::hal
