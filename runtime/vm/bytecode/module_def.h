// Typed, verified views of a `BytecodeModuleDef` (IREE's module FlatBuffer,
// schema `iree.vm` at bytecode version 17).
//
// ParseModuleDef walks the whole FlatBuffer once through the bounds-checked
// reader and returns plain structs whose string_views and spans point into
// the caller's buffer, which must outlive them. Nothing is read lazily, so
// once parsing succeeds no later code can trip over a bad offset. Checks that
// need more than one field (version, ordinals, function spans, rodata ranges)
// are VerifyModuleDef's, in module_file.h; the bytecode itself is checked by
// verifier.h.
//
// Slot numbers follow declaration order in the schema; a union takes two
// slots (type byte, then value), which is the classic trap for hand-written
// readers.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <variant>
#include <vector>

#include "runtime/base/status.h"

namespace ember::vm::bytecode {

// FeatureBits of the schema.
enum FeatureBits : uint32_t {
  kFeatureExtF32 = 1u << 0,
  kFeatureExtF64 = 1u << 1,
  kFeatureYield = 1u << 2,
  kFeatureUnwind = 1u << 3,
};
inline constexpr uint32_t kAllFeatures =
    kFeatureExtF32 | kFeatureExtF64 | kFeatureYield | kFeatureUnwind;

// Dependency and import flags (the schema's two bit-flag enums agree).
enum LinkFlags : uint32_t {
  kLinkRequired = 1u << 0,
  kLinkOptional = 1u << 1,
};

struct AttrDef {
  std::string_view key;
  std::string_view value;
};

struct FunctionSignatureDef {
  bool present = false;
  std::string_view calling_convention;
  std::vector<AttrDef> attrs;
};

struct ModuleDependencyDef {
  std::string_view name;
  uint32_t minimum_version = 0;
  uint32_t flags = kLinkRequired;
};

struct ImportFunctionDef {
  std::string_view full_name;
  FunctionSignatureDef signature;
  uint32_t flags = kLinkRequired;
};

struct ExportFunctionDef {
  std::string_view local_name;
  int32_t internal_ordinal = 0;
};

struct RodataSegmentDef {
  // Embedded data lives inside the FlatBuffer; otherwise the segment is
  // external and its offset counts from the archive's rodata base.
  bool embedded = false;
  std::span<const uint8_t> embedded_data;
  uint64_t external_data_offset = 0;
  uint64_t external_data_length = 0;
  uint8_t compression_type = 0;  // 0 = none, 1 = UncompressedDataDef
};

struct ModuleStateDef {
  int32_t global_bytes_capacity = 0;
  int32_t global_ref_count = 0;
};

// The 20-byte FunctionDescriptor struct, decoded.
struct FunctionDescriptor {
  int32_t bytecode_offset = 0;
  int32_t bytecode_length = 0;
  uint32_t requirements = 0;
  int16_t reserved = 0;
  int16_t block_count = 0;
  int16_t i32_register_count = 0;
  int16_t ref_register_count = 0;
};

// Debug locations (LocationTypeDef union members).
struct CallSiteLoc {
  int32_t callee = 0;
  int32_t caller = 0;
};
struct FileLineColLoc {
  std::string_view filename;
  int32_t line = 0;
  int32_t column = 0;
};
struct FusedLoc {
  std::string_view metadata;
  std::vector<int32_t> locations;
};
struct NameLoc {
  std::string_view name;
  int32_t child_location = -1;
};
using LocationDef = std::variant<std::monostate, CallSiteLoc, FileLineColLoc,
                                 FusedLoc, NameLoc>;

struct BytecodeLocation {
  int32_t bytecode_offset = 0;
  int32_t location = 0;
};

struct FunctionSourceMapDef {
  std::string_view local_name;
  std::vector<BytecodeLocation> locations;
};

struct DebugDatabaseDef {
  std::vector<LocationDef> location_table;
  std::vector<FunctionSourceMapDef> functions;
};

struct ModuleDef {
  std::string_view name;
  uint32_t version = 0;
  uint32_t requirements = 0;
  std::vector<AttrDef> attrs;
  std::vector<std::string_view> types;
  std::vector<ModuleDependencyDef> dependencies;
  std::vector<ImportFunctionDef> imported_functions;
  std::vector<ExportFunctionDef> exported_functions;
  std::vector<FunctionSignatureDef> function_signatures;
  std::vector<RodataSegmentDef> rodata_segments;
  uint32_t rwdata_segment_count = 0;
  ModuleStateDef module_state;
  std::vector<FunctionDescriptor> function_descriptors;
  uint32_t bytecode_version = 0;  // major << 16 | minor
  std::span<const uint8_t> bytecode_data;
  std::optional<DebugDatabaseDef> debug_database;
};

// Parses and bounds-checks the FlatBuffer `buffer` (without its size prefix).
Result<ModuleDef> ParseModuleDef(std::span<const uint8_t> buffer);

}  // namespace ember::vm::bytecode
