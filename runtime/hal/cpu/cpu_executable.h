// CpuExecutable: a loaded CPU executable library and how its exports run.
//
// `hal.executable.create` hands the device the bytes of an embedded ELF (or
// a system shared object); the device loads it once, and every dispatch then
// calls one export's entry point once per workgroup. Everything the entry
// point reads comes from here, filled exactly as IREE fills it
// (docs/executable-library.md, "Running a dispatch"): the dispatch state
// (workgroup count, constants, binding pointers and lengths), the workgroup
// state (id, worker, local memory) and the environment (processor data,
// executable constants).
//
// Before a single workgroup runs, a dispatch is checked against the
// export's attributes: constant and binding counts must match, every binding
// must be present and in range, the workgroup count must fit the ABI's
// fields. Kernels run with flush-to-zero and denormals-are-zero set, as
// IREE's do, and a non-zero return becomes an error naming the executable
// and the export.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "runtime/base/ref_counted.h"
#include "runtime/base/status.h"
#include "runtime/hal/command_buffer.h"
#include "runtime/hal/cpu/executable_library.h"
#include "runtime/hal/cpu/local_executable.h"

namespace ember::hal::cpu {

class CpuExecutable final : public LocalExecutable {
 public:
  // Loads `data` in `format` ("embedded-elf-x86_64", or
  // "system-elf-x86_64" for a shared object) with the executable constants.
  static Result<Ref<CpuExecutable>> Load(std::string_view format,
                                         std::span<const uint8_t> data,
                                         std::span<const uint32_t> constants);
  // Whether Load accepts `format` on this host.
  static bool SupportsFormat(std::string_view format);

  size_t export_count() const override;
  ExportInfo export_info(size_t ordinal) const override;
  const LoadedLibrary& library() const { return *library_; }
  // The library's name ("" when it has none).
  std::string_view name() const { return name_; }
  std::string_view debug_name() const override { return name_; }

  // Checks `arguments` against the export (counts, null bindings, the
  // workgroup count's ABI limits).
  Status ValidateDispatch(const DispatchArguments& arguments) const override;
  // Bytes of workgroup-local memory one worker needs for the export.
  size_t LocalMemorySize(uint32_t export_ordinal) const override;
  // Whether the export's workgroups must run one after another.
  bool IsSequential(uint32_t export_ordinal) const override;

  // Runs the workgroups of `range` on the calling thread, with `local_memory`
  // (LocalMemorySize bytes) and `max_concurrency` as the dispatch state
  // reports it. ValidateDispatch must have passed.
  Status RunWorkgroups(const DispatchArguments& arguments,
                       const WorkgroupRange& range,
                       std::span<uint8_t> local_memory,
                       uint32_t max_concurrency) const override;

 private:
  CpuExecutable() = default;
  std::unique_ptr<LoadedLibrary> library_;
  std::string name_;
};

// Sets flush-to-zero and denormals-are-zero for its lifetime on this thread
// (x86 MXCSR; a no-op elsewhere), restoring the previous mode after.
class ScopedDenormalsFlushed {
 public:
  ScopedDenormalsFlushed();
  ~ScopedDenormalsFlushed();
  ScopedDenormalsFlushed(const ScopedDenormalsFlushed&) = delete;
  ScopedDenormalsFlushed& operator=(const ScopedDenormalsFlushed&) = delete;

 private:
  uint32_t saved_ = 0;
};

}  // namespace ember::hal::cpu
