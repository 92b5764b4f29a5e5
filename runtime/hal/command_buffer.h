// CommandBuffer: a recorded list of device work, replayed by a queue.
//
// IREE programs record command buffers in two ways (docs/hal-module.md, "How
// programs use the module"): once in `__init`, with buffers named by *binding
// slots* that each submission fills from a binding table
// (`queue.execute.indirect`), and per call, with the buffers named directly
// (`queue.execute`). So every buffer operand here is a BufferRef -- a buffer,
// or a slot -- plus an offset and a length, and the references are resolved
// only at execution (ResolveBufferRef), with IREE's rules: a slot beyond the
// table, or a range beyond its entry, is OUT_OF_RANGE, never a clamp.
//
// Recording checks what can be checked without the table (operand shapes,
// counts, alignment of fills and updates); execution checks the rest before
// any byte is touched. A command buffer is immutable once finalized and may be
// submitted many times, from any thread, with different tables.
//
// Dispatch payloads stay opaque here: an Executable is whatever the device
// made from the program's executable data, and the device that executes the
// command buffer interprets it.
#pragma once

#include <cstdint>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "runtime/base/ref_counted.h"
#include "runtime/base/status.h"
#include "runtime/hal/buffer.h"

namespace ember::hal {

// An executable made by a device from a program's executable data (for the
// CPU devices, a loaded ELF library or a VMVX bytecode module). Its exports
// are entry points the command buffer names by ordinal.
//
// Programs name an export in one of two ways, by the compiler that built
// them (docs/compiler-versions.md): iree-compile 3.11 passes the export's
// ordinal to `hal.command_buffer.dispatch` as an i32 constant; 3.12 and
// later first ask `hal.executable.lookup.function` for the export's
// *function id* by name and pass that i64. Ember's function id of an export
// is its ordinal, so both paths end at the same DispatchCommand.
class Executable : public RefCounted {
 public:
  struct ExportInfo {
    std::string name;  // may be empty (3.11 libraries without debug names)
    uint32_t constant_count = 0;
    uint32_t binding_count = 0;
  };
  virtual size_t export_count() const = 0;
  virtual ExportInfo export_info(size_t ordinal) const = 0;
  // A name for messages ("" when the executable has none).
  virtual std::string_view debug_name() const { return {}; }

  // The ordinal of the export named `name`: NOT_FOUND naming the executable
  // and the name when there is none. O(log n): the names are indexed once,
  // on the first lookup, so a program that looks names up in a loop pays
  // for the index only once. Thread-safe.
  Result<uint32_t> LookupFunction(std::string_view name) const;

 private:
  mutable std::once_flag function_index_once_;
  // (name, ordinal) sorted by name; unnamed exports are left out, and of
  // two exports with one name the lower ordinal wins.
  mutable std::vector<std::pair<std::string, uint32_t>> function_index_;
};

enum class CommandBufferMode : uint32_t {
  kNone = 0,
  kOneShot = 1u << 0,
  kAllowInlineExecution = 1u << 4,
  kUnvalidated = 1u << 5,
  kUnretained = 1u << 6,
};
EMBER_HAL_BITFIELD(CommandBufferMode)

enum class CommandCategory : uint32_t {
  kNone = 0,
  kTransfer = 1u << 0,
  kDispatch = 1u << 1,
  kAny = kTransfer | kDispatch,
};
EMBER_HAL_BITFIELD(CommandCategory)

// A buffer operand: a buffer, or (buffer null) binding table slot `slot`.
struct BufferRef {
  Ref<Buffer> buffer;
  uint32_t slot = 0;
  uint64_t offset = 0;
  uint64_t length = kWholeBuffer;
};

// One entry of a binding table.
struct Binding {
  Ref<Buffer> buffer;
  uint64_t offset = 0;
  uint64_t length = kWholeBuffer;
};

// A resolved operand: a buffer and an in-range offset and length. `buffer`
// is null when the reference named a slot and no table was given, which IREE
// treats as "no buffer" rather than an error.
struct ResolvedBuffer {
  // Borrowed from the reference or the table, which outlive the use.
  Buffer* buffer = nullptr;
  uint64_t offset = 0;
  uint64_t length = 0;
};

// Resolves `ref` against `table` (see the top of this file).
Result<ResolvedBuffer> ResolveBufferRef(const BufferRef& ref,
                                        std::span<const Binding> table);

enum class DispatchFlags : uint64_t {
  kNone = 0,
  // dispatch.indirect: the workgroup count may change between submissions.
  kDynamicIndirectParameters = 1u << 0,
  kStaticIndirectParameters = 1u << 1,
};

struct DispatchCommand {
  Ref<Executable> executable;
  uint32_t export_ordinal = 0;
  uint32_t workgroup_count[3] = {0, 0, 0};
  bool indirect = false;
  BufferRef workgroups_ref;  // indirect: 3 x u32 counts
  uint64_t flags = 0;
  std::vector<uint32_t> constants;
  std::vector<BufferRef> bindings;
};
struct FillCommand {
  BufferRef target;
  uint64_t pattern = 0;
  uint32_t pattern_length = 0;  // 1, 2 or 4 (8 for i64 patterns)
};
struct CopyCommand {
  BufferRef source;
  BufferRef target;
  uint64_t length = 0;
};
struct UpdateCommand {
  std::vector<uint8_t> data;  // copied at record time
  BufferRef target;
};
struct BarrierCommand {};
struct DebugGroupCommand {
  std::string label;  // empty for an end
  bool begin = true;
};
using Command = std::variant<DispatchCommand, FillCommand, CopyCommand,
                             UpdateCommand, BarrierCommand, DebugGroupCommand>;

class CommandBuffer final : public RefCounted {
 public:
  // The most commands one buffer may record (a program decides how many;
  // the cap keeps a hostile loop from recording without bound).
  static constexpr size_t kMaxCommands = size_t{1} << 20;
  static constexpr uint32_t kMaxBindingCapacity = 1u << 16;
  static constexpr size_t kMaxUpdateBytes = size_t{64} << 10;

  static Result<Ref<CommandBuffer>> Create(CommandBufferMode mode,
                                           CommandCategory categories,
                                           uint32_t binding_capacity);

  CommandBufferMode mode() const { return mode_; }
  CommandCategory categories() const { return categories_; }
  uint32_t binding_capacity() const { return binding_capacity_; }
  // One past the highest slot any command names (0 when none does).
  uint32_t binding_count() const { return binding_count_; }
  bool finalized() const { return finalized_; }
  std::span<const Command> commands() const { return commands_; }

  Status Dispatch(DispatchCommand command);
  Status Fill(FillCommand command);
  // A flush or invalidate of `range` (hal module 7's flush_buffer and
  // invalidate_buffer): checked like any operand, then dropped, since every
  // device Ember has today keeps its memory host-coherent. A device without
  // coherent memory must record it instead.
  Status SynchronizeRange(const BufferRef& range);
  Status Copy(CopyCommand command);
  Status Update(UpdateCommand command);
  Status ExecutionBarrier();
  Status BeginDebugGroup(std::string label);
  Status EndDebugGroup();
  Status Finalize();

  // Checks a submission's binding table against what the commands name:
  // a buffer that uses slots needs a table at least binding_count() long.
  Status ValidateBindingTable(std::span<const Binding> table) const;

 private:
  CommandBuffer() = default;
  Status BeginRecord(CommandCategory category);
  Status NoteRef(const BufferRef& ref);

  CommandBufferMode mode_ = CommandBufferMode::kNone;
  CommandCategory categories_ = CommandCategory::kNone;
  uint32_t binding_capacity_ = 0;
  uint32_t binding_count_ = 0;
  int debug_depth_ = 0;
  bool finalized_ = false;
  std::vector<Command> commands_;
};

}  // namespace ember::hal
