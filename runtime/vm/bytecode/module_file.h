// ModuleFile: a verified `.vmfb` held in memory, ready to be inspected or
// instantiated.
//
// Loading is the only place where the file's bytes are judged. It peels the
// optional polyglot-ZIP local header, reads the size prefix, parses the whole
// FlatBuffer (module_def.h) and then checks every cross-field fact the rest
// of Ember relies on: bytecode version, feature requirements, ordinals,
// function spans, register limits, rodata ranges, type names, calling
// convention strings and debug-location indices. Anything wrong is an
// INVALID_ARGUMENT naming the field and offset. Afterwards a ModuleFile is
// immutable and can be shared freely between threads and contexts.
//
// The bytes are used in place and must stay at 64-byte alignment (the
// archive format pads every segment to 64 so constants and executables can
// be used without copies); ByteStorage guarantees that for copies and
// mappings, and Load rejects wrapped memory that is not aligned.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "runtime/base/byte_storage.h"
#include "runtime/base/status.h"
#include "runtime/vm/bytecode/module_def.h"
#include "runtime/vm/calling_convention.h"

namespace ember::vm::bytecode {

inline constexpr uint32_t kBytecodeVersionMajor = 17;
inline constexpr uint32_t kBytecodeVersionMinor = 0;
inline constexpr int kMaxI32Registers = 0x7FFF;
inline constexpr int kMaxRefRegisters = 0x3FFF;
// Module state is allocated per context; cap what a file may ask for.
inline constexpr int64_t kMaxGlobalBytes = int64_t{256} << 20;
inline constexpr int64_t kMaxGlobalRefs = int64_t{1} << 20;

// Where the FlatBuffer and external rodata sit inside the archive.
struct ArchiveLayout {
  bool zip_wrapped = false;
  size_t flatbuffer_offset = 0;  // first byte after the u32 size prefix
  size_t flatbuffer_size = 0;
  size_t rodata_base = 0;  // align_up(end of FlatBuffer, 64)
};

// Splits a raw archive into its parts. Exposed for tests and tools.
Result<ArchiveLayout> ParseArchiveLayout(std::span<const uint8_t> archive);

// Checks the cross-field facts of a parsed module against its archive:
// version, features, ordinals, function spans, register limits, module
// state, type names, cconvs, rodata ranges and debug-location indices.
Status VerifyModuleDef(const ModuleDef& def, std::span<const uint8_t> archive,
                       const ArchiveLayout& layout);

class ModuleFile {
 public:
  // Verifies `storage` and keeps it alive for the life of the ModuleFile.
  static Result<std::shared_ptr<const ModuleFile>> Load(
      std::shared_ptr<const ByteStorage> storage);
  // Convenience: copies `bytes` into aligned storage first.
  static Result<std::shared_ptr<const ModuleFile>> LoadCopy(
      std::span<const uint8_t> bytes);
  static Result<std::shared_ptr<const ModuleFile>> LoadFile(
      const std::string& path);

  const ModuleDef& def() const { return def_; }
  const ArchiveLayout& layout() const { return layout_; }
  const std::shared_ptr<const ByteStorage>& storage() const { return storage_; }
  std::span<const uint8_t> archive() const { return storage_->span(); }
  std::span<const uint8_t> flatbuffer() const {
    return archive().subspan(layout_.flatbuffer_offset,
                             layout_.flatbuffer_size);
  }

  std::string_view name() const { return def_.name; }
  uint32_t version() const { return def_.version; }
  uint32_t bytecode_version_major() const {
    return def_.bytecode_version >> 16;
  }
  uint32_t bytecode_version_minor() const {
    return def_.bytecode_version & 0xFFFF;
  }

  // The bytes of rodata segment `ordinal` (embedded or external), resolved
  // and range-checked at load.
  std::span<const uint8_t> rodata(size_t ordinal) const {
    return rodata_[ordinal];
  }
  size_t rodata_count() const { return rodata_.size(); }

  // Export lookup by name (hashed, built at load); -1 if absent. With
  // duplicate names, the first export wins.
  int FindExport(std::string_view name) const;
  // The signature of the internal function behind export `export_ordinal`.
  const FunctionSignatureDef& ExportSignature(size_t export_ordinal) const;
  // The bytecode of internal function `ordinal`.
  std::span<const uint8_t> FunctionBytecode(size_t ordinal) const;
  // The debug name of internal function `ordinal`, if the module has one.
  std::string_view FunctionDebugName(size_t ordinal) const;
  // "file:line:col" (or a name) for `pc` in internal function `ordinal`, from
  // the debug database; empty when unknown.
  std::string SourceLocation(size_t ordinal, int32_t pc) const;
  // Text for entry `index` of the debug location table. At most
  // kMaxLocationVisits entries are followed; a cut description ends in "...".
  std::string DescribeLocation(int32_t index) const {
    return FormatLocation(index);
  }
  static constexpr int kMaxLocationVisits = 64;

 private:
  ModuleFile() = default;
  void ResolveRodata();
  void IndexExports();
  void MapSourceMaps();
  std::string FormatLocation(int32_t index) const;
  std::string FormatLocation(int32_t index, int depth, int& visits_left) const;

  std::shared_ptr<const ByteStorage> storage_;
  ArchiveLayout layout_;
  ModuleDef def_;
  std::vector<std::span<const uint8_t>> rodata_;
  // Export ordinals by local_name (the first, for duplicates): an
  // open-addressing table, -1 where empty, its size a power of two.
  std::vector<int32_t> export_slots_;
  // The export hash's seed, which varies from load to load (it is where the
  // slots were first allocated: ASLR, the heap).
  uint64_t export_seed_ = 0;
  // Index into debug_database.functions for each internal function, or -1.
  std::vector<int> source_map_of_function_;
};

// The human names of FeatureBits, e.g. "EXT_F32|YIELD", or "none".
std::string FeatureBitsToString(uint32_t bits);

}  // namespace ember::vm::bytecode
