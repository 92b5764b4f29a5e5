// The three parameter file readers behind ParseParameterFile, and the bits of
// the IRPA layout the reader and the writer share.
//
// Each reader checks the whole file before it adds anything, so a failed
// parse leaves the index as it was, and adds entries that reference ranges
// of `file` (never copies of its bytes).
#pragma once

#include <cstdint>

#include "runtime/base/status.h"
#include "runtime/io/file_handle.h"
#include "runtime/io/parameter_index.h"

namespace ember::io {

Status ParseIrpa(const Ref<FileHandle>& file, ParameterIndex& index);
Status ParseGguf(const Ref<FileHandle>& file, ParameterIndex& index);
Status ParseSafetensors(const Ref<FileHandle>& file, ParameterIndex& index);

// IRPA (IREE parameter archive) layout, all little-endian and packed.
namespace irpa {
inline constexpr uint32_t kMagic = 0x41505249u;  // "IRPA"
inline constexpr uint64_t kHeaderAlignment = 16;
inline constexpr uint64_t kEntryAlignment = 16;
inline constexpr uint64_t kDataAlignment = 64;
inline constexpr uint64_t kFileAlignment = 4096;
// header prefix: magic u32, version_major u16, version_minor u16,
// header_size u64, next_header_offset u64, flags u64.
inline constexpr uint64_t kPrefixSize = 32;
// v0 header: prefix, entry_count u64, then three (offset u64, length u64)
// segments: entries, metadata, storage.
inline constexpr uint64_t kHeaderV0Size = 88;
// entry header: entry_size u64, type u32, flags u64, name (offset, length),
// metadata (offset, length), minimum_alignment u64.
inline constexpr uint64_t kEntryHeaderSize = 60;
// splat entry: entry header, length u64, pattern[16], pattern_length u8.
inline constexpr uint64_t kSplatEntrySize = 85;
// data entry: entry header, storage (offset, length).
inline constexpr uint64_t kDataEntrySize = 76;
enum EntryType : uint32_t { kSkip = 0, kSplat = 1, kData = 2, kExternal = 3 };
}  // namespace irpa

}  // namespace ember::io
