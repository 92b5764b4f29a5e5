#include "runtime/base/byte_storage.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace ember {

ByteStorage::~ByteStorage() {
  if (release_) release_();
}

Result<std::shared_ptr<const ByteStorage>> ByteStorage::CopyOf(
    std::span<const uint8_t> bytes) {
  // Round the allocation up so aligned_alloc's contract holds; keep at least
  // one block so data() is never null.
  size_t padded = (bytes.size() + kStorageAlignment - 1) / kStorageAlignment *
                  kStorageAlignment;
  if (padded < bytes.size()) {
    return ResourceExhaustedError("module buffer too large to copy");
  }
  if (padded == 0) padded = kStorageAlignment;
  void* memory = std::aligned_alloc(kStorageAlignment, padded);
  if (!memory) {
    return MakeStatus(StatusCode::kResourceExhausted,
                      "out of memory copying a %zu-byte module", bytes.size());
  }
  if (!bytes.empty()) std::memcpy(memory, bytes.data(), bytes.size());
  std::memset(static_cast<uint8_t*>(memory) + bytes.size(), 0,
              padded - bytes.size());
  return std::shared_ptr<const ByteStorage>(
      new ByteStorage(Kind::kHeapCopy, static_cast<const uint8_t*>(memory),
                      bytes.size(), [memory] { std::free(memory); }));
}

Result<std::shared_ptr<const ByteStorage>> ByteStorage::MapFile(
    const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    int error = errno;
    return MakeStatus(
        error == ENOENT ? StatusCode::kNotFound : StatusCode::kPermissionDenied,
        "cannot open '%s': %s", path.c_str(), std::strerror(error));
  }
  struct stat info;
  if (::fstat(fd, &info) != 0) {
    int error = errno;
    ::close(fd);
    return MakeStatus(StatusCode::kInternal, "cannot stat '%s': %s",
                      path.c_str(), std::strerror(error));
  }
  if (!S_ISREG(info.st_mode)) {
    ::close(fd);
    return MakeStatus(StatusCode::kInvalidArgument,
                      "'%s' is not a regular file", path.c_str());
  }
  size_t size = static_cast<size_t>(info.st_size);
  if (size == 0) {
    ::close(fd);
    return CopyOf({});
  }
  void* mapping = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  int error = errno;
  ::close(fd);
  if (mapping == MAP_FAILED) {
    return MakeStatus(StatusCode::kResourceExhausted, "cannot map '%s': %s",
                      path.c_str(), std::strerror(error));
  }
  return std::shared_ptr<const ByteStorage>(
      new ByteStorage(Kind::kFileMapping, static_cast<const uint8_t*>(mapping),
                      size, [mapping, size] { ::munmap(mapping, size); }));
}

Result<std::shared_ptr<const ByteStorage>> ByteStorage::WrapExternal(
    std::span<const uint8_t> bytes, std::function<void()> release) {
  return std::shared_ptr<const ByteStorage>(new ByteStorage(
      Kind::kExternal, bytes.data(), bytes.size(), std::move(release)));
}

}  // namespace ember
