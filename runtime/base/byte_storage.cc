#include "runtime/base/byte_storage.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

namespace ember {
namespace {

// The live file mappings made by MapFile, by start address, with a
// descriptor of the file kept open for private views. A mapping leaves the
// registry before it is unmapped.
struct MappedFile {
  size_t size = 0;
  int fd = -1;
};

struct FileMappings {
  std::mutex mutex;
  std::map<uintptr_t, MappedFile> by_start;
};

FileMappings& Mappings() {
  static FileMappings* mappings = new FileMappings();
  return *mappings;
}

}  // namespace

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
  if (mapping == MAP_FAILED) {
    ::close(fd);
    return MakeStatus(StatusCode::kResourceExhausted, "cannot map '%s': %s",
                      path.c_str(), std::strerror(error));
  }
  const auto start = reinterpret_cast<uintptr_t>(mapping);
  {
    FileMappings& mappings = Mappings();
    std::lock_guard<std::mutex> lock(mappings.mutex);
    mappings.by_start[start] = MappedFile{size, fd};
  }
  return std::shared_ptr<const ByteStorage>(
      new ByteStorage(Kind::kFileMapping, static_cast<const uint8_t*>(mapping),
                      size, [mapping, size, start, fd] {
                        {
                          FileMappings& mappings = Mappings();
                          std::lock_guard<std::mutex> lock(mappings.mutex);
                          mappings.by_start.erase(start);
                        }
                        ::munmap(mapping, size);
                        ::close(fd);
                      }));
}

Result<ByteStorage::PrivateView> ByteStorage::MapPrivateView(
    std::span<const uint8_t> bytes) {
  if (bytes.empty()) return PrivateView{};
  const auto begin = reinterpret_cast<uintptr_t>(bytes.data());
  uintptr_t start = 0;
  MappedFile file;
  {
    FileMappings& mappings = Mappings();
    std::lock_guard<std::mutex> lock(mappings.mutex);
    auto it = mappings.by_start.upper_bound(begin);
    if (it == mappings.by_start.begin()) return PrivateView{};
    --it;
    start = it->first;
    file = it->second;
    if (begin - start > file.size ||
        bytes.size() > file.size - (begin - start)) {
      return PrivateView{};
    }
    // The descriptor stays valid while the mapping lives, which it does
    // while the caller holds `bytes`; dup it so that does not matter.
    file.fd = ::fcntl(file.fd, F_DUPFD_CLOEXEC, 0);
    if (file.fd < 0) {
      return MakeStatus(StatusCode::kResourceExhausted,
                        "cannot duplicate a file descriptor: %s",
                        std::strerror(errno));
    }
  }
  const uint64_t offset = begin - start;
  const auto page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  const uint64_t page_offset = offset / page * page;
  const size_t mapping_size =
      static_cast<size_t>(offset - page_offset) + bytes.size();
  void* mapping = ::mmap(nullptr, mapping_size, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE, file.fd, static_cast<off_t>(page_offset));
  const int error = errno;
  ::close(file.fd);
  if (mapping == MAP_FAILED) {
    return MakeStatus(StatusCode::kResourceExhausted,
                      "cannot map %zu bytes privately: %s", bytes.size(),
                      std::strerror(error));
  }
  return PrivateView{static_cast<uint8_t*>(mapping) + (offset - page_offset),
                     mapping, mapping_size};
}

void ByteStorage::UnmapPrivateView(const PrivateView& view) {
  if (view.mapping != nullptr) ::munmap(view.mapping, view.mapping_size);
}

Result<std::shared_ptr<const ByteStorage>> ByteStorage::WrapExternal(
    std::span<const uint8_t> bytes, std::function<void()> release) {
  return std::shared_ptr<const ByteStorage>(new ByteStorage(
      Kind::kExternal, bytes.data(), bytes.size(), std::move(release)));
}

}  // namespace ember
