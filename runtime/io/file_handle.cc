#include "runtime/io/file_handle.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace ember::io {

FileHandle::~FileHandle() {
  if (mapping_ != nullptr) ::munmap(mapping_, mapping_size_);
  storage_.reset();
  if (fd_ >= 0) ::close(fd_);
  if (release_) release_();
}

namespace {

Status ErrnoStatus(int error, const char* what, const std::string& name) {
  StatusCode code =
      error == ENOENT ? StatusCode::kNotFound : StatusCode::kInvalidArgument;
  return MakeStatus(code, "%s '%s': %s", what, name.c_str(),
                    std::strerror(error));
}

}  // namespace

// Maps the open descriptor `fd` (owned by the handle being made): a shared
// writable mapping, or a read-only ByteStorage mapping of the same file
// (reached through /proc/self/fd so that the mapping is MapFile's and
// MapPrivateView works on it).
static Status MapDescriptor(int fd, bool writable, const std::string& name,
                            void** mapping, size_t* mapping_size,
                            uint8_t** data, uint64_t* size,
                            std::shared_ptr<const ByteStorage>* storage) {
  struct stat st;
  if (::fstat(fd, &st) != 0) return ErrnoStatus(errno, "cannot stat", name);
  if (!S_ISREG(st.st_mode)) {
    return InvalidArgumentError(
        StringPrintf("'%s' is not a regular file", name.c_str()));
  }
  uint64_t file_size = static_cast<uint64_t>(st.st_size);
  if (file_size > SIZE_MAX) {
    return ResourceExhaustedError(
        StringPrintf("'%s' is too large to map", name.c_str()));
  }
  if (writable) {
    if (file_size == 0) {
      *data = nullptr;
      *size = 0;
      return Status();
    }
    void* p = ::mmap(nullptr, static_cast<size_t>(file_size),
                     PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) return ErrnoStatus(errno, "cannot map", name);
    *mapping = p;
    *mapping_size = static_cast<size_t>(file_size);
    *data = static_cast<uint8_t*>(p);
    *size = file_size;
    return Status();
  }
  EMBER_ASSIGN_OR_RETURN(
      *storage, ByteStorage::MapFile(StringPrintf("/proc/self/fd/%d", fd)),
      "mapping '%s'", name.c_str());
  *data = const_cast<uint8_t*>((*storage)->data());
  *size = (*storage)->size();
  return Status();
}

Result<Ref<FileHandle>> FileHandle::Open(const std::string& path,
                                         bool writable) {
  int fd = ::open(path.c_str(), (writable ? O_RDWR : O_RDONLY) | O_CLOEXEC);
  if (fd < 0) return ErrnoStatus(errno, "cannot open", path);
  Ref<FileHandle> handle = MakeRef<FileHandle>();
  handle->fd_ = fd;  // owned from here on
  handle->kind_ = writable ? Kind::kSharedMapping : Kind::kReadOnlyMapping;
  handle->readable_ = true;
  handle->writable_ = writable;
  EMBER_RETURN_IF_ERROR(MapDescriptor(fd, writable, path, &handle->mapping_,
                                      &handle->mapping_size_, &handle->data_,
                                      &handle->size_, &handle->storage_));
  return handle;
}

Ref<FileHandle> FileHandle::WrapMemory(std::span<uint8_t> bytes, bool readable,
                                       bool writable,
                                       std::function<void()> release) {
  Ref<FileHandle> handle = MakeRef<FileHandle>();
  handle->kind_ = Kind::kHostMemory;
  handle->data_ = bytes.data();
  handle->size_ = bytes.size();
  handle->readable_ = readable;
  handle->writable_ = writable;
  handle->release_ = std::move(release);
  return handle;
}

Result<Ref<FileHandle>> FileHandle::WrapFd(int fd, bool readable,
                                           bool writable) {
  std::string name = StringPrintf("fd %d", fd);
  int own_fd = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (own_fd < 0) return ErrnoStatus(errno, "cannot duplicate", name);
  Ref<FileHandle> handle = MakeRef<FileHandle>();
  handle->fd_ = own_fd;
  handle->kind_ = writable ? Kind::kSharedMapping : Kind::kReadOnlyMapping;
  handle->readable_ = readable;
  handle->writable_ = writable;
  EMBER_RETURN_IF_ERROR(MapDescriptor(own_fd, writable, name, &handle->mapping_,
                                      &handle->mapping_size_, &handle->data_,
                                      &handle->size_, &handle->storage_));
  return handle;
}

Result<std::span<uint8_t>> FileHandle::Range(uint64_t offset,
                                             uint64_t length) const {
  if (offset > size_ || length > size_ - offset) {
    return OutOfRangeError(StringPrintf(
        "byte range [%llu, +%llu) lies outside the file of %llu bytes",
        static_cast<unsigned long long>(offset),
        static_cast<unsigned long long>(length),
        static_cast<unsigned long long>(size_)));
  }
  return std::span<uint8_t>(data_ + offset, static_cast<size_t>(length));
}

}  // namespace ember::io
