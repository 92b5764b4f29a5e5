#include "runtime/io/file_handle.h"

namespace ember::io {

FileHandle::~FileHandle() {
  if (release_) release_();
}

Result<Ref<FileHandle>> FileHandle::Open(const std::string& path,
                                         bool writable) {
  return UnimplementedError("io::FileHandle::Open is not implemented yet");
}

Ref<FileHandle> FileHandle::WrapMemory(std::span<uint8_t> bytes, bool readable,
                                       bool writable,
                                       std::function<void()> release) {
  Ref<FileHandle> handle = MakeRef<FileHandle>();
  handle->data_ = bytes.data();
  handle->size_ = bytes.size();
  handle->readable_ = readable;
  handle->writable_ = writable;
  handle->release_ = std::move(release);
  return handle;
}

Result<Ref<FileHandle>> FileHandle::WrapFd(int fd, bool readable,
                                           bool writable) {
  return UnimplementedError("io::FileHandle::WrapFd is not implemented yet");
}

Result<std::span<uint8_t>> FileHandle::Range(uint64_t offset,
                                             uint64_t length) const {
  if (offset > size_ || length > size_ - offset) {
    return OutOfRangeError("range outside the file");
  }
  return std::span<uint8_t>(data_ + offset, length);
}

}  // namespace ember::io
