// LocalExecutable and ExecutableLoader: what the CPU devices run, and the
// hook through which formats they do not know themselves are loaded.
//
// A CPU device replays a dispatch the same way whatever made the
// executable: check the arguments once, then hand ranges of workgroups to
// workers, each with its own workgroup-local memory. LocalExecutable is that
// contract. Two kinds implement it: CpuExecutable (an embedded or system
// ELF library whose entry points are native code) and, one layer up, the
// VMVX executable (a bytecode module whose entry points the VM interprets,
// runtime/modules/vmvx). hal/cpu knows nothing of the VM, so the second kind
// reaches a LocalDevice through an ExecutableLoader given to the device when
// it is made: the device asks each loader in turn whether it takes a format
// (`hal.executable.format` queries and CreateExecutable), after the ELF
// formats it loads itself.
//
// Thread safety: RunWorkgroups is called from several workers at once, on
// disjoint ranges of one dispatch and on several dispatches; everything else
// is immutable after loading. Loaders are shared by devices and threads.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "runtime/base/ref_counted.h"
#include "runtime/base/status.h"
#include "runtime/hal/command_buffer.h"

namespace ember::hal::cpu {

// The arguments of one dispatch, resolved to host memory.
struct DispatchArguments {
  uint32_t export_ordinal = 0;
  uint32_t workgroup_count[3] = {0, 0, 0};
  std::span<const uint32_t> constants;
  std::span<void* const> binding_pointers;  // null entries are errors
  std::span<const size_t> binding_lengths;
};

// A range of workgroups (linearised x fastest, then y, then z) and the
// worker that runs it.
struct WorkgroupRange {
  uint64_t begin = 0;
  uint64_t end = 0;
  uint32_t worker_id = 0;
};

class LocalExecutable : public Executable {
 public:
  // Checks `arguments` against the export (ordinal, constant and binding
  // counts, null bindings, limits of the export's ABI). Runs once per
  // dispatch, before any workgroup.
  virtual Status ValidateDispatch(const DispatchArguments& arguments) const = 0;
  // Bytes of workgroup-local memory one worker needs for the export.
  virtual size_t LocalMemorySize(uint32_t export_ordinal) const = 0;
  // Whether the export's workgroups must run one after another.
  virtual bool IsSequential(uint32_t export_ordinal) const = 0;
  // Runs the workgroups of `range` on the calling thread, with
  // `local_memory` (LocalMemorySize bytes, zeroed) and `max_concurrency`
  // (the workers the dispatch may use). ValidateDispatch must have passed.
  virtual Status RunWorkgroups(const DispatchArguments& arguments,
                               const WorkgroupRange& range,
                               std::span<uint8_t> local_memory,
                               uint32_t max_concurrency) const = 0;
};

// Loads executables of formats the device does not know itself.
class ExecutableLoader : public RefCounted {
 public:
  // Whether Load takes `format` (e.g. "vmvx-bytecode-fb").
  virtual bool SupportsFormat(std::string_view format) const = 0;
  // Loads `data` (hostile: verified before anything runs) with the
  // executable-level `constants`. The loader copies what it keeps.
  virtual Result<Ref<LocalExecutable>> Load(
      std::string_view format, std::span<const uint8_t> data,
      std::span<const uint32_t> constants) const = 0;
};

}  // namespace ember::hal::cpu
