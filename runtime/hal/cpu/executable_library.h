// The CPU executable library ABI, version 6 (IREE 3.11): the structs that
// compiled kernels and the runtime exchange through
// `iree_hal_executable_library_query`, and the checks Ember makes on the
// library a query returns before trusting any of it.
//
// The layouts are fixed by the compiler (LP64); the static_asserts below pin
// every offset the runtime reads. Names are Ember's; the field order, types
// and sizes are the ABI's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/hal/cpu/elf_module.h"

namespace ember::hal::cpu {

inline constexpr uint32_t kExecutableLibraryVersion6 = 6;
inline constexpr const char kExecutableLibraryQueryName[] =
    "iree_hal_executable_library_query";

// The compiler's limits per export, and a bound on the export count that no
// real executable approaches.
inline constexpr uint32_t kMaxDispatchConstants = 64;
inline constexpr uint32_t kMaxDispatchBindings = 64;
inline constexpr uint32_t kMaxLibraryExports = 65536;
inline constexpr uint32_t kWorkgroupLocalMemoryPageSize = 4096;

struct LibraryHeader {
  uint32_t version;
  const char* name;
  uint32_t features;
  int32_t sanitizer;  // 0: built without a sanitizer
};

// Executable-level imports resolved through the environment's thunk.
struct LibraryImportTable {
  uint32_t count;
  const char* const* symbols;  // a leading '?' marks an optional import
};

struct ProcessorInfo {
  uint64_t data[8];
};

using ImportFunction = int (*)(void* params, void* context, void* reserved);
using ImportThunk = int (*)(ImportFunction function, void* params,
                            void* context, void* reserved);

// What the host hands the library at query time and every dispatch.
struct ExecutableEnvironment {
  const uint32_t* constants;  // the executable-level constants
  ImportThunk import_thunk;
  const ImportFunction* import_functions;
  const void** import_contexts;
  ProcessorInfo processor;
};

struct DispatchState {
  uint32_t workgroup_size_x;
  uint32_t workgroup_size_y;
  uint16_t workgroup_size_z;
  uint16_t constant_count;
  uint32_t workgroup_count_x;
  uint32_t workgroup_count_y;
  uint16_t workgroup_count_z;
  uint8_t max_concurrency;
  uint8_t binding_count;
  const uint32_t* constants;
  void* const* binding_ptrs;
  const size_t* binding_lengths;
};

struct WorkgroupState {
  uint32_t workgroup_id_x;
  uint32_t workgroup_id_y;
  uint16_t workgroup_id_z;
  uint16_t reserved;
  uint32_t processor_id;
  void* local_memory;
  uint32_t local_memory_size;
};

// A kernel entry point; 0 means success.
using DispatchFunction = int (*)(const ExecutableEnvironment* environment,
                                 const DispatchState* dispatch_state,
                                 const WorkgroupState* workgroup_state);

inline constexpr uint64_t kDispatchFlagSequential = 1u << 0;
inline constexpr uint64_t kDispatchFlagWorkgroupSizeDynamic = 1u << 1;

struct DispatchAttrs {
  uint64_t flags;
  uint16_t local_memory_pages;
  uint8_t constant_count;
  uint8_t binding_count;
  uint32_t workgroup_size_x;
  uint32_t workgroup_size_y;
  uint16_t workgroup_size_z;
  uint16_t parameter_count;
  uint64_t reserved[5];
};

enum class DispatchParameterType : uint8_t {
  kConstant = 0,
  kBinding = 1,
  kBufferPointer = 2,
};

struct DispatchParameter {
  DispatchParameterType type;
  uint8_t size;
  uint16_t flags;
  uint16_t name;
  uint16_t offset;
};

struct DispatchOccupancy {
  int reserved;
};

struct SourceLocation {
  uint32_t line;
  uint32_t path_length;
  const char* path;
};

struct StageLocationTable {
  uint32_t count;
  const char* const* names;
  const SourceLocation* locations;
};

struct LibraryExportTable {
  uint32_t count;
  const DispatchFunction* ptrs;
  const DispatchAttrs* attrs;  // required by Ember, as by IREE's loaders
  const DispatchParameter* const* params;
  const DispatchOccupancy* occupancy;
  const char* const* names;  // optional (debug symbols)
  const char* const* tags;
  const char* const* parameter_names;
  const SourceLocation* source_locations;
  const StageLocationTable* stage_locations;
};

struct LibraryConstantTable {
  uint32_t count;
};

struct SourceFile {
  uint32_t path_length;
  const char* path;
  uint32_t content_length;
  const uint8_t* content;
};

struct SourceFileTable {
  uint32_t count;
  const SourceFile* files;
};

// Version 6 of the library; `header` first, so the query's result (a pointer
// to the header pointer) is a pointer to this struct.
struct LibraryV6 {
  const LibraryHeader* header;
  LibraryImportTable imports;
  LibraryExportTable exports;
  LibraryConstantTable constants;
  SourceFileTable sources;
};

using LibraryQueryFunction =
    const LibraryHeader** (*)(uint32_t max_version,
                              const ExecutableEnvironment* environment);

static_assert(sizeof(void*) == 8, "the library ABI layouts here are LP64");
static_assert(sizeof(LibraryHeader) == 24);
static_assert(offsetof(LibraryHeader, name) == 8);
static_assert(offsetof(LibraryHeader, features) == 16);
static_assert(offsetof(LibraryHeader, sanitizer) == 20);
static_assert(sizeof(LibraryV6) == 128);
static_assert(offsetof(LibraryV6, imports) +
                  offsetof(LibraryImportTable, symbols) ==
              16);
static_assert(offsetof(LibraryV6, exports) == 24);
static_assert(offsetof(LibraryV6, exports) +
                  offsetof(LibraryExportTable, ptrs) ==
              32);
static_assert(offsetof(LibraryV6, exports) +
                  offsetof(LibraryExportTable, attrs) ==
              40);
static_assert(offsetof(LibraryV6, exports) +
                  offsetof(LibraryExportTable, params) ==
              48);
static_assert(offsetof(LibraryV6, exports) +
                  offsetof(LibraryExportTable, occupancy) ==
              56);
static_assert(offsetof(LibraryV6, exports) +
                  offsetof(LibraryExportTable, names) ==
              64);
static_assert(offsetof(LibraryV6, exports) +
                  offsetof(LibraryExportTable, tags) ==
              72);
static_assert(offsetof(LibraryV6, exports) +
                  offsetof(LibraryExportTable, parameter_names) ==
              80);
static_assert(offsetof(LibraryV6, exports) +
                  offsetof(LibraryExportTable, source_locations) ==
              88);
static_assert(offsetof(LibraryV6, exports) +
                  offsetof(LibraryExportTable, stage_locations) ==
              96);
static_assert(offsetof(LibraryV6, constants) == 104);
static_assert(offsetof(LibraryV6, sources) == 112);
static_assert(offsetof(LibraryV6, sources) + offsetof(SourceFileTable, files) ==
              120);
static_assert(sizeof(DispatchAttrs) == 64);
static_assert(offsetof(DispatchAttrs, local_memory_pages) == 8);
static_assert(offsetof(DispatchAttrs, constant_count) == 10);
static_assert(offsetof(DispatchAttrs, binding_count) == 11);
static_assert(offsetof(DispatchAttrs, workgroup_size_x) == 12);
static_assert(offsetof(DispatchAttrs, workgroup_size_y) == 16);
static_assert(offsetof(DispatchAttrs, workgroup_size_z) == 20);
static_assert(offsetof(DispatchAttrs, parameter_count) == 22);
static_assert(sizeof(DispatchParameter) == 8);
static_assert(offsetof(DispatchParameter, size) == 1);
static_assert(offsetof(DispatchParameter, flags) == 2);
static_assert(offsetof(DispatchParameter, name) == 4);
static_assert(offsetof(DispatchParameter, offset) == 6);
static_assert(sizeof(ExecutableEnvironment) == 96);
static_assert(offsetof(ExecutableEnvironment, import_thunk) == 8);
static_assert(offsetof(ExecutableEnvironment, import_functions) == 16);
static_assert(offsetof(ExecutableEnvironment, import_contexts) == 24);
static_assert(offsetof(ExecutableEnvironment, processor) == 32);
static_assert(sizeof(DispatchState) == 48);
static_assert(offsetof(DispatchState, constant_count) == 10);
static_assert(offsetof(DispatchState, workgroup_count_x) == 12);
static_assert(offsetof(DispatchState, workgroup_count_y) == 16);
static_assert(offsetof(DispatchState, workgroup_count_z) == 20);
static_assert(offsetof(DispatchState, max_concurrency) == 22);
static_assert(offsetof(DispatchState, binding_count) == 23);
static_assert(offsetof(DispatchState, constants) == 24);
static_assert(offsetof(DispatchState, binding_ptrs) == 32);
static_assert(offsetof(DispatchState, binding_lengths) == 40);
static_assert(sizeof(WorkgroupState) == 32);
static_assert(offsetof(WorkgroupState, workgroup_id_z) == 8);
static_assert(offsetof(WorkgroupState, reserved) == 10);
static_assert(offsetof(WorkgroupState, processor_id) == 12);
static_assert(offsetof(WorkgroupState, local_memory) == 16);
static_assert(offsetof(WorkgroupState, local_memory_size) == 24);
static_assert(std::is_standard_layout_v<LibraryV6> &&
              std::is_standard_layout_v<DispatchAttrs> &&
              std::is_standard_layout_v<ExecutableEnvironment> &&
              std::is_standard_layout_v<DispatchState> &&
              std::is_standard_layout_v<WorkgroupState>);

// Checks the library a query returned (`query_result`, possibly null) before
// anything else reads it: version 6, no sanitizer, a bounded export count,
// non-null entry points and attrs, per-export counts within the ABI limits
// and `constants.count` equal to `executable_constant_count`. With `image`,
// every table and string the checks read must also lie in the image's
// readable segments and every entry point in its code, so a corrupt library
// is rejected instead of dereferenced.
Status ValidateLibraryV6(const LibraryHeader* const* query_result,
                         uint32_t executable_constant_count,
                         const ElfModule* image = nullptr);

// An embedded ELF executable, loaded, initialized and queried: the object a
// CPU executable holds.
class LoadedLibrary {
 public:
  // Loads `elf`, runs its initializers (this executes the input's code),
  // queries version 6 with an environment that carries `constants` and
  // validates the result. The library must import nothing: Ember has no
  // import provider.
  static Result<std::unique_ptr<LoadedLibrary>> Load(
      std::span<const uint8_t> elf, std::span<const uint32_t> constants = {});
  // Loads a system shared object (`system-elf-*` executables) through the
  // platform's dynamic loader, from a private in-memory file, then queries
  // and validates it like Load. The loader trusts the object's structure;
  // the library tables are still validated before use.
  static Result<std::unique_ptr<LoadedLibrary>> LoadSystem(
      std::span<const uint8_t> shared_object,
      std::span<const uint32_t> constants = {});

  ~LoadedLibrary();
  LoadedLibrary(const LoadedLibrary&) = delete;
  LoadedLibrary& operator=(const LoadedLibrary&) = delete;

  const LibraryV6& library() const { return *library_; }
  const ExecutableEnvironment& environment() const { return environment_; }
  uint32_t export_count() const { return library_->exports.count; }
  // The export's name, or "" when the library was built without names.
  std::string_view export_name(uint32_t ordinal) const;
  const DispatchAttrs& export_attrs(uint32_t ordinal) const {
    return library_->exports.attrs[ordinal];
  }
  DispatchFunction export_function(uint32_t ordinal) const {
    return library_->exports.ptrs[ordinal];
  }
  // The embedded image (Load only; null for LoadSystem).
  const ElfModule& module() const { return *module_; }

 private:
  LoadedLibrary() = default;

  Status QueryAndValidate(void* query_address, uint32_t constant_count);

  std::unique_ptr<ElfModule> module_;
  void* system_handle_ = nullptr;  // dlopen handle (LoadSystem)
  std::vector<uint32_t> constants_;
  ExecutableEnvironment environment_ = {};
  const LibraryV6* library_ = nullptr;
};

}  // namespace ember::hal::cpu
