// Shared body of the parameter file fuzz targets (irpa, gguf, safetensors
// _parser_fuzzer.cc): parse the input as one format and demand a clean
// outcome -- an explained error that left the index empty, or entries that
// all lie inside the input. IRPA inputs that parse are also written back
// with the IRPA writer (to an in-memory file) and read again: the same
// entries and the same bytes must come back.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/io/file_handle.h"
#include "runtime/io/irpa_writer.h"
#include "runtime/io/parameter_index.h"

namespace ember_fuzz {

namespace io = ember::io;

inline const std::string& ScratchPath() {
  static const std::string path = [] {
    int fd = memfd_create("parameter_fuzzer", 0);
    if (fd < 0) {
      std::perror("memfd_create");
      std::abort();
    }
    return "/proc/self/fd/" + std::to_string(fd);
  }();
  return path;
}

inline void CheckRewrite(const io::ParameterIndex& index) {
  ember::Ref<io::ParameterIndex> target = io::ParameterIndex::Create();
  ember::Status status = io::WriteIrpaArchive(index, ScratchPath(), 0, *target);
  if (!status.ok()) {
    // Only splat patterns the archive format cannot hold are refused.
    if (status.code() != ember::StatusCode::kInvalidArgument) __builtin_trap();
    return;
  }
  auto file = io::FileHandle::Open(ScratchPath(), false);
  if (!file.ok()) __builtin_trap();
  ember::Ref<io::ParameterIndex> again = io::ParameterIndex::Create();
  if (!io::ParseParameterFile("irpa", *file, *again).ok()) __builtin_trap();
  if (again->size() != index.size()) __builtin_trap();
  for (size_t i = 0; i < index.size(); ++i) {
    const io::ParameterEntry& a = index.entry(i);
    const io::ParameterEntry& b = again->entry(i);
    if (a.key != b.key || a.metadata != b.metadata || a.kind != b.kind ||
        a.length != b.length || a.pattern != b.pattern ||
        a.pattern_length != b.pattern_length) {
      __builtin_trap();
    }
    if (a.kind == io::ParameterEntry::Kind::kFile && a.length != 0 &&
        std::memcmp(a.file->bytes().data() + a.offset,
                    b.file->bytes().data() + b.offset, a.length) != 0) {
      __builtin_trap();
    }
  }
}

inline int FuzzParameterFile(std::string_view format, const uint8_t* data,
                             size_t size) {
  std::vector<uint8_t> bytes(data, data + size);
  ember::Ref<io::FileHandle> file =
      io::FileHandle::WrapMemory(bytes, true, false, nullptr);
  ember::Ref<io::ParameterIndex> index = io::ParameterIndex::Create();
  ember::Status status = io::ParseParameterFile(format, file, *index);
  if (!status.ok()) {
    if (status.message().empty() || index->size() != 0) __builtin_trap();
    return 0;
  }
  for (size_t i = 0; i < index->size(); ++i) {
    const io::ParameterEntry& e = index->entry(i);
    if (e.kind == io::ParameterEntry::Kind::kFile) {
      if (e.file.get() != file.get() || e.offset > size ||
          e.length > size - e.offset) {
        __builtin_trap();
      }
    } else if (e.pattern_length > io::kMaxSplatPatternLength) {
      __builtin_trap();
    }
    if (index->Lookup(e.key) == nullptr) __builtin_trap();
  }
  (void)index->Dump();
  if (format == "irpa") CheckRewrite(*index);
  return 0;
}

}  // namespace ember_fuzz
