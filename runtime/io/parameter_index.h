// ParameterIndex: the table of named parameters a program's
// `io_parameters` imports resolve against, as IREE's iree_io_parameter_index.
//
// Each entry names either a byte range of a FileHandle (zero-copy: the entry
// holds a reference to the mapped file, never a copy of its bytes) or a splat
// (a repeating pattern of 1..16 bytes, as IREE's splat entries). Archives of
// the three formats IREE reads (irpa, gguf, safetensors) are parsed straight
// into an index by ParseParameterFile; every count, offset and length read
// from a file is checked against the file before it is used.
//
// Entries are stored in chunks that never move, so `entry(i)` references
// and `Lookup` pointers stay valid while more entries are added. Thread
// safety: Add and Lookup may be called from any thread at any time (they
// take the index's lock); entry(i) for any i < size() is lock-free and safe
// while other threads add.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/base/ref_counted.h"
#include "runtime/base/status.h"
#include "runtime/io/file_handle.h"

namespace ember::io {

// The longest splat pattern an entry may repeat (IREE's limit).
inline constexpr size_t kMaxSplatPatternLength = 16;

struct ParameterEntry {
  enum class Kind : uint8_t { kFile, kSplat };
  std::string key;
  std::string metadata;  // opaque bytes
  uint64_t length = 0;
  Kind kind = Kind::kFile;
  // kFile: the entry's bytes are file->bytes()[offset, offset + length).
  Ref<FileHandle> file;
  uint64_t offset = 0;
  // kSplat: `length` bytes of `pattern[0, pattern_length)` repeated.
  std::array<uint8_t, kMaxSplatPatternLength> pattern{};
  uint8_t pattern_length = 0;
};

class ParameterIndex final : public RefCounted {
 public:
  static Ref<ParameterIndex> Create();

  // Makes room for `capacity` entries in total (a hint).
  Status Reserve(size_t capacity);

  // Validates `entry` (a file range inside its file; a splat pattern of at
  // most 16 bytes, as IREE's index accepts) and appends it. Thread-safe.
  Status Add(ParameterEntry entry);
  // Adds every entry of `entries`, or none when one fails its checks (what
  // a parser uses: a malformed file leaves the index as it was).
  Status AddAll(std::vector<ParameterEntry> entries);

  size_t size() const;
  // Entries never move once added.
  const ParameterEntry& entry(size_t i) const;
  // The entry named `key`, or null; O(1) average. With duplicate keys the
  // first one added wins, as IREE's linear lookup.
  const ParameterEntry* Lookup(std::string_view key) const;

  // The text of iree_io_parameter_index_dump (Python's repr uses it).
  std::string Dump(std::string_view scope = {}) const;

  ~ParameterIndex() override;

 private:
  // Appends a checked entry; the state's mutex held.
  Status AppendLocked(ParameterEntry entry);
  ParameterIndex();
  struct State;
  std::unique_ptr<State> state_;

  template <typename T, typename... Args>
  friend Ref<T> ember::MakeRef(Args&&... args);
};

// Parses `file` as `format` ("irpa", "gguf", "safetensors", case-insensitive;
// IREE's names and aliases) adding its entries to `index`.
Status ParseParameterFile(std::string_view format, const Ref<FileHandle>& file,
                          ParameterIndex& index);

// The format of `path` by its extension, as IREE's parser registry picks it.
Result<std::string> FormatFromPath(std::string_view path);

}  // namespace ember::io
