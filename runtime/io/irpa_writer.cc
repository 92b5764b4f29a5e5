// The IRPA writer. The layout (what iree.runtime's create_archive_file, i.e.
// IREE's archive builder, writes) is, from the archive start:
//   v0 header (88 bytes)
//   entry table at 96 (the header rounded up to 16): one splat (85 bytes) or
//     data (76 bytes) entry per source entry, each starting 16-aligned
//   metadata segment right after the last entry: name then metadata of each
//     entry, in order
//   storage segment at the next multiple of 64 (when any data entry exists):
//     each data entry's bytes at the next multiple of 64
// and the file is sized to the archive start rounded up to 16 plus the
// archive rounded up to 4096, as IREE creates it.
#include "runtime/io/irpa_writer.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cinttypes>
#include <cstring>
#include <vector>

#include "runtime/base/endian.h"
#include "runtime/io/parsers_internal.h"

namespace ember::io {
namespace {

bool AlignUp(uint64_t value, uint64_t alignment, uint64_t* out) {
  if (__builtin_add_overflow(value, alignment - 1, out)) return false;
  *out &= ~(alignment - 1);
  return true;
}

class FileWriter {
 public:
  explicit FileWriter(int fd) : fd_(fd) {}
  Status WriteAt(uint64_t offset, const void* bytes, size_t length) {
    const uint8_t* p = static_cast<const uint8_t*>(bytes);
    while (length > 0) {
      ssize_t n = ::pwrite(fd_, p, length, static_cast<off_t>(offset));
      if (n < 0) {
        if (errno == EINTR) continue;
        return InternalError(StringPrintf("write failed at offset %" PRIu64
                                          ": %s",
                                          offset, std::strerror(errno)));
      }
      p += n;
      offset += static_cast<uint64_t>(n);
      length -= static_cast<size_t>(n);
    }
    return Status();
  }

 private:
  int fd_;
};

void PutRange(uint8_t* p, uint64_t offset, uint64_t length) {
  StoreLE<uint64_t>(p, offset);
  StoreLE<uint64_t>(p + 8, length);
}

}  // namespace

Status WriteIrpaArchive(const ParameterIndex& source, const std::string& path,
                        uint64_t file_offset, ParameterIndex& target) {
  size_t count = source.size();
  // Plan: sizes and relative offsets, as the builder computes them.
  struct Planned {
    uint64_t entry_offset;     // in the entry table
    uint64_t name_offset;      // in the metadata segment
    uint64_t metadata_offset;  // in the metadata segment (0 when empty)
    uint64_t storage_offset;   // in the storage segment (data entries)
  };
  std::vector<Planned> plan(count);
  uint64_t entry_segment_size = 0, metadata_size = 0, storage_size = 0;
  bool any_data = false;
  for (size_t i = 0; i < count; ++i) {
    const ParameterEntry& e = source.entry(i);
    Planned& p = plan[i];
    p.entry_offset = (entry_segment_size + irpa::kEntryAlignment - 1) &
                     ~(irpa::kEntryAlignment - 1);
    if (e.kind == ParameterEntry::Kind::kSplat) {
      uint8_t n = e.pattern_length;
      if (n == 0 || n > kMaxSplatPatternLength || (n & (n - 1)) != 0) {
        return InvalidArgumentError(StringPrintf(
            "parameter '%s': splat pattern length %u invalid; must be 1, 2, "
            "4, 8, or 16 bytes",
            e.key.c_str(), n));
      }
      entry_segment_size = p.entry_offset + irpa::kSplatEntrySize;
    } else {
      if (!e.file) {
        return InvalidArgumentError(
            StringPrintf("parameter '%s' has no file", e.key.c_str()));
      }
      EMBER_RETURN_IF_ERROR(e.file->Range(e.offset, e.length).status(),
                            "reading parameter '%s'", e.key.c_str());
      entry_segment_size = p.entry_offset + irpa::kDataEntrySize;
      if (!AlignUp(storage_size, irpa::kDataAlignment, &p.storage_offset) ||
          __builtin_add_overflow(p.storage_offset, e.length, &storage_size)) {
        return OutOfRangeError("archive storage size overflows 64 bits");
      }
      any_data = true;
    }
    p.name_offset = metadata_size;
    metadata_size += e.key.size();
    p.metadata_offset = e.metadata.empty() ? 0 : metadata_size;
    metadata_size += e.metadata.size();
  }
  const uint64_t entry_segment_offset =
      (irpa::kHeaderV0Size + irpa::kEntryAlignment - 1) &
      ~(irpa::kEntryAlignment - 1);
  const uint64_t metadata_segment_offset =
      entry_segment_offset + entry_segment_size;
  uint64_t storage_segment_offset = metadata_segment_offset + metadata_size;
  if (any_data) {
    storage_segment_offset =
        (storage_segment_offset + irpa::kDataAlignment - 1) &
        ~(irpa::kDataAlignment - 1);
  }
  uint64_t total = 0, archive_offset = 0, file_size = 0;
  if (__builtin_add_overflow(storage_segment_offset, storage_size, &total) ||
      !AlignUp(total, irpa::kFileAlignment, &total) ||
      !AlignUp(file_offset, irpa::kHeaderAlignment, &archive_offset) ||
      __builtin_add_overflow(archive_offset, total, &file_size) ||
      file_size > static_cast<uint64_t>(INT64_MAX)) {
    return OutOfRangeError("archive size overflows");
  }

  // Truncating a file that a source entry maps would pull its pages away
  // (SIGBUS on the copy below), so writing over a source is refused.
  struct stat existing;
  if (::stat(path.c_str(), &existing) == 0) {
    for (size_t i = 0; i < count; ++i) {
      const ParameterEntry& e = source.entry(i);
      struct stat st;
      if (e.kind == ParameterEntry::Kind::kFile && e.file->fd() >= 0 &&
          ::fstat(e.file->fd(), &st) == 0 && st.st_dev == existing.st_dev &&
          st.st_ino == existing.st_ino) {
        return InvalidArgumentError(StringPrintf(
            "cannot write the archive over '%s': parameter '%s' is read from "
            "it",
            path.c_str(), e.key.c_str()));
      }
    }
  }
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    return InvalidArgumentError(StringPrintf(
        "cannot create '%s': %s", path.c_str(), std::strerror(errno)));
  }
  struct CloseOnExit {
    int fd;
    ~CloseOnExit() { ::close(fd); }
  } closer{fd};
  if (::ftruncate(fd, static_cast<off_t>(file_size)) != 0) {
    return InternalError(StringPrintf("cannot size '%s' to %" PRIu64 ": %s",
                                      path.c_str(), file_size,
                                      std::strerror(errno)));
  }
  FileWriter out(fd);

  // Header and entry table, in one buffer.
  std::vector<uint8_t> head(
      static_cast<size_t>(metadata_segment_offset + metadata_size), 0);
  uint8_t* h = head.data();
  StoreLE<uint32_t>(h, irpa::kMagic);
  StoreLE<uint64_t>(h + 8, irpa::kHeaderV0Size);
  StoreLE<uint64_t>(h + 32, count);
  PutRange(h + 40, entry_segment_offset, entry_segment_size);
  PutRange(h + 56, metadata_segment_offset, metadata_size);
  PutRange(h + 72, storage_segment_offset, storage_size);
  for (size_t i = 0; i < count; ++i) {
    const ParameterEntry& e = source.entry(i);
    const Planned& p = plan[i];
    uint8_t* entry = h + entry_segment_offset + p.entry_offset;
    PutRange(entry + 20, p.name_offset, e.key.size());
    PutRange(entry + 36, p.metadata_offset, e.metadata.size());
    if (e.kind == ParameterEntry::Kind::kSplat) {
      StoreLE<uint64_t>(entry, irpa::kSplatEntrySize);
      StoreLE<uint32_t>(entry + 8, irpa::kSplat);
      StoreLE<uint64_t>(entry + 60, e.length);
      std::memcpy(entry + 68, e.pattern.data(), kMaxSplatPatternLength);
      entry[84] = e.pattern_length;
    } else {
      StoreLE<uint64_t>(entry, irpa::kDataEntrySize);
      StoreLE<uint32_t>(entry + 8, irpa::kData);
      StoreLE<uint64_t>(entry + 52, irpa::kDataAlignment);
      PutRange(entry + 60, p.storage_offset, e.length);
    }
    uint8_t* names = h + metadata_segment_offset;
    std::memcpy(names + p.name_offset, e.key.data(), e.key.size());
    if (!e.metadata.empty()) {
      std::memcpy(names + p.name_offset + e.key.size(), e.metadata.data(),
                  e.metadata.size());
    }
  }
  EMBER_RETURN_IF_ERROR(out.WriteAt(file_offset, head.data(), head.size()),
                        "writing '%s'", path.c_str());
  for (size_t i = 0; i < count; ++i) {
    const ParameterEntry& e = source.entry(i);
    if (e.kind != ParameterEntry::Kind::kFile || e.length == 0) continue;
    std::span<uint8_t> bytes = e.file->Range(e.offset, e.length).value();
    EMBER_RETURN_IF_ERROR(out.WriteAt(file_offset + storage_segment_offset +
                                          plan[i].storage_offset,
                                      bytes.data(), bytes.size()),
                          "writing parameter '%s' to '%s'", e.key.c_str(),
                          path.c_str());
  }
  if (::fsync(fd) != 0 && errno != EINVAL) {
    return InternalError(StringPrintf("cannot flush '%s': %s", path.c_str(),
                                      std::strerror(errno)));
  }

  EMBER_ASSIGN_OR_RETURN(Ref<FileHandle> written,
                         FileHandle::Open(path, /*writable=*/false));
  for (size_t i = 0; i < count; ++i) {
    const ParameterEntry& e = source.entry(i);
    ParameterEntry copy;
    copy.key = e.key;
    copy.metadata = e.metadata;
    copy.length = e.length;
    copy.kind = e.kind;
    if (e.kind == ParameterEntry::Kind::kSplat) {
      copy.pattern = e.pattern;
      copy.pattern_length = e.pattern_length;
    } else {
      copy.file = written;
      copy.offset =
          file_offset + storage_segment_offset + plan[i].storage_offset;
    }
    EMBER_RETURN_IF_ERROR(target.Add(std::move(copy)));
  }
  return Status();
}

}  // namespace ember::io
