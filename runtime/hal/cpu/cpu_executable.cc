#include "runtime/hal/cpu/cpu_executable.h"

#include <utility>

#if defined(__x86_64__)
#include <xmmintrin.h>
#endif

namespace ember::hal::cpu {
namespace {

#if defined(__x86_64__)
constexpr std::string_view kHostArch = "x86_64";
#elif defined(__aarch64__)
constexpr std::string_view kHostArch = "arm_64";
#else
constexpr std::string_view kHostArch = "unknown";
#endif

}  // namespace

ScopedDenormalsFlushed::ScopedDenormalsFlushed() {
#if defined(__x86_64__)
  saved_ = _mm_getcsr();
  _mm_setcsr(saved_ | 0x8040u);  // FTZ (bit 15) | DAZ (bit 6)
#endif
}

ScopedDenormalsFlushed::~ScopedDenormalsFlushed() {
#if defined(__x86_64__)
  _mm_setcsr(saved_);
#endif
}

namespace {
bool IsEmbeddedFormat(std::string_view format) {
  // IREE's embedded loader accepts any format that starts with
  // "embedded-elf-<host arch>".
  return format.starts_with("embedded-elf-" + std::string(kHostArch));
}
}  // namespace

bool CpuExecutable::SupportsFormat(std::string_view format) {
  return IsEmbeddedFormat(format) ||
         format == "system-elf-" + std::string(kHostArch);
}

Result<Ref<CpuExecutable>> CpuExecutable::Load(
    std::string_view format, std::span<const uint8_t> data,
    std::span<const uint32_t> constants) {
  const bool system = format == "system-elf-" + std::string(kHostArch);
  if (!IsEmbeddedFormat(format) && !system) {
    return Status(StatusCode::kIncompatible,
                  "executable format '" + std::string(format) +
                      "' cannot run on this host (embedded-elf-" +
                      std::string(kHostArch) + ", system-elf-" +
                      std::string(kHostArch) + ")");
  }
  Ref<CpuExecutable> executable =
      Ref<CpuExecutable>::Adopt(new CpuExecutable());
  if (system) {
    EMBER_ASSIGN_OR_RETURN(executable->library_,
                           LoadedLibrary::LoadSystem(data, constants),
                           "while loading a %.*s executable",
                           static_cast<int>(format.size()), format.data());
  } else {
    EMBER_ASSIGN_OR_RETURN(executable->library_,
                           LoadedLibrary::Load(data, constants),
                           "while loading a %.*s executable",
                           static_cast<int>(format.size()), format.data());
  }
  const LibraryHeader* header = executable->library_->library().header;
  executable->name_ = header && header->name ? header->name : "";
  return executable;
}

size_t CpuExecutable::export_count() const { return library_->export_count(); }

Executable::ExportInfo CpuExecutable::export_info(size_t ordinal) const {
  ExportInfo info;
  if (ordinal >= export_count()) return info;
  const auto index = static_cast<uint32_t>(ordinal);
  info.name = std::string(library_->export_name(index));
  info.constant_count = library_->export_attrs(index).constant_count;
  info.binding_count = library_->export_attrs(index).binding_count;
  return info;
}

size_t CpuExecutable::LocalMemorySize(uint32_t export_ordinal) const {
  return size_t{library_->export_attrs(export_ordinal).local_memory_pages} *
         kWorkgroupLocalMemoryPageSize;
}

bool CpuExecutable::IsSequential(uint32_t export_ordinal) const {
  return library_->export_attrs(export_ordinal).flags & kDispatchFlagSequential;
}

Status CpuExecutable::ValidateDispatch(
    const DispatchArguments& arguments) const {
  const uint32_t ordinal = arguments.export_ordinal;
  if (ordinal >= export_count()) {
    return InvalidArgumentError("export ordinal " + std::to_string(ordinal) +
                                " out of range; executable '" + name_ +
                                "' has " + std::to_string(export_count()) +
                                " exports");
  }
  const DispatchAttrs& attrs = library_->export_attrs(ordinal);
  // Messages are built only on failure: this runs for every dispatch.
  auto where = [&] {
    std::string text =
        "dispatch of '" + name_ + "' export " + std::to_string(ordinal);
    if (!library_->export_name(ordinal).empty()) {
      text += " (" + std::string(library_->export_name(ordinal)) + ")";
    }
    return text;
  };
  if (arguments.constants.size() != attrs.constant_count) {
    return InvalidArgumentError(
        where() + " passes " + std::to_string(arguments.constants.size()) +
        " constants; the export takes " + std::to_string(attrs.constant_count));
  }
  if (arguments.binding_pointers.size() != attrs.binding_count ||
      arguments.binding_lengths.size() != attrs.binding_count) {
    return InvalidArgumentError(
        where() + " passes " +
        std::to_string(arguments.binding_pointers.size()) +
        " bindings; the export takes " + std::to_string(attrs.binding_count));
  }
  for (size_t i = 0; i < arguments.binding_pointers.size(); ++i) {
    if (!arguments.binding_pointers[i]) {
      return FailedPreconditionError(where() + ": required binding " +
                                     std::to_string(i) + " is NULL");
    }
  }
  if (arguments.workgroup_count[2] > 0xFFFFu) {
    return OutOfRangeError(where() + ": workgroup count z " +
                           std::to_string(arguments.workgroup_count[2]) +
                           " exceeds the ABI's 16 bits");
  }
  return Status::Ok();
}

Status CpuExecutable::RunWorkgroups(const DispatchArguments& arguments,
                                    const WorkgroupRange& range,
                                    std::span<uint8_t> local_memory,
                                    uint32_t max_concurrency) const {
  const uint32_t ordinal = arguments.export_ordinal;
  const DispatchAttrs& attrs = library_->export_attrs(ordinal);
  const DispatchFunction function = library_->export_function(ordinal);
  DispatchState state = {};
  // The VM's dispatches carry no workgroup size; IREE reports 1 (kernels
  // do not read it).
  state.workgroup_size_x = 1;
  state.workgroup_size_y = 1;
  state.workgroup_size_z = 1;
  state.constant_count = attrs.constant_count;
  state.workgroup_count_x = arguments.workgroup_count[0];
  state.workgroup_count_y = arguments.workgroup_count[1];
  state.workgroup_count_z = static_cast<uint16_t>(arguments.workgroup_count[2]);
  state.max_concurrency =
      static_cast<uint8_t>(max_concurrency > 255 ? 255 : max_concurrency);
  state.binding_count = attrs.binding_count;
  state.constants = arguments.constants.data();
  state.binding_ptrs = arguments.binding_pointers.data();
  state.binding_lengths = arguments.binding_lengths.data();

  WorkgroupState workgroup = {};
  workgroup.processor_id = range.worker_id;
  workgroup.local_memory = local_memory.empty() ? nullptr : local_memory.data();
  workgroup.local_memory_size = static_cast<uint32_t>(local_memory.size());

  const uint64_t count_x = arguments.workgroup_count[0];
  const uint64_t count_xy = count_x * arguments.workgroup_count[1];
  ScopedDenormalsFlushed denormals;
  for (uint64_t linear = range.begin; linear < range.end; ++linear) {
    workgroup.workgroup_id_x = static_cast<uint32_t>(linear % count_x);
    workgroup.workgroup_id_y = static_cast<uint32_t>(
        (linear / count_x) % arguments.workgroup_count[1]);
    workgroup.workgroup_id_z = static_cast<uint16_t>(linear / count_xy);
    int result = function(&library_->environment(), &state, &workgroup);
    if (result != 0) {
      return InternalError(
          "executable '" + name_ + "' export " + std::to_string(ordinal) +
          (library_->export_name(ordinal).empty()
               ? std::string()
               : " (" + std::string(library_->export_name(ordinal)) + ")") +
          " failed with code " + std::to_string(result) + " in workgroup (" +
          std::to_string(workgroup.workgroup_id_x) + ", " +
          std::to_string(workgroup.workgroup_id_y) + ", " +
          std::to_string(workgroup.workgroup_id_z) + ")");
    }
  }
  return Status::Ok();
}

}  // namespace ember::hal::cpu
