#include "runtime/hal/command_buffer.h"

#include <algorithm>
#include <utility>

namespace ember::hal {
namespace {

// Checks a directly named buffer's usage, access and range; slots are
// checked when the table arrives.
Status CheckDirect(const BufferRef& ref, BufferUsage usage, MemoryAccess access,
                   const char* what) {
  if (!ref.buffer) return Status::Ok();
  EMBER_RETURN_IF_ERROR(ref.buffer->ValidateUsage(usage), "%s buffer", what);
  EMBER_RETURN_IF_ERROR(ref.buffer->ValidateAccess(access), "%s buffer", what);
  EMBER_RETURN_IF_ERROR(
      CalculateRange(ref.buffer->byte_length(), ref.offset, ref.length),
      "%s buffer", what);
  return Status::Ok();
}

}  // namespace

Result<uint32_t> Executable::LookupFunction(std::string_view name) const {
  std::call_once(function_index_once_, [this] {
    const size_t count = export_count();
    function_index_.reserve(count);
    for (size_t i = 0; i < count; ++i) {
      std::string export_name = export_info(i).name;
      if (export_name.empty()) continue;
      function_index_.emplace_back(std::move(export_name),
                                   static_cast<uint32_t>(i));
    }
    // By name, then ordinal: of equal names the lower ordinal comes first.
    // (Pairs compare that way; std::sort rather than std::stable_sort,
    // whose libstdc++ 12 implementation newer clangs reject as deprecated.)
    std::sort(function_index_.begin(), function_index_.end());
  });
  auto found =
      std::lower_bound(function_index_.begin(), function_index_.end(), name,
                       [](const auto& entry, std::string_view key) {
                         return entry.first < key;
                       });
  if (found != function_index_.end() && found->first == name) {
    return found->second;
  }
  std::string executable_name(debug_name());
  return NotFoundError(
      "executable '" +
      (executable_name.empty() ? "(unnamed)" : executable_name) +
      "' has no export named '" + std::string(name) + "'" +
      (function_index_.empty() && export_count() > 0
           ? " (its exports carry no names: the library was built without "
             "them)"
           : ""));
}

Result<ResolvedBuffer> ResolveBufferRef(const BufferRef& ref,
                                        std::span<const Binding> table) {
  ResolvedBuffer resolved;
  if (ref.buffer) {
    EMBER_ASSIGN_OR_RETURN(
        resolved.length,
        CalculateRange(ref.buffer->byte_length(), ref.offset, ref.length));
    resolved.buffer = ref.buffer.get();
    resolved.offset = ref.offset;
    return resolved;
  }
  if (table.empty()) return resolved;  // no buffer, not an error (as IREE)
  if (ref.slot >= table.size()) {
    return OutOfRangeError("binding slot " + std::to_string(ref.slot) +
                           " is beyond the binding table of " +
                           std::to_string(table.size()) + " entries");
  }
  const Binding& entry = table[ref.slot];
  if (!entry.buffer) {
    return resolved;
  }
  // The entry's own range inside its buffer, then the reference's range
  // inside the entry.
  EMBER_ASSIGN_OR_RETURN(
      uint64_t entry_length,
      CalculateRange(entry.buffer->byte_length(), entry.offset, entry.length),
      "binding table slot %u", ref.slot);
  EMBER_ASSIGN_OR_RETURN(resolved.length,
                         CalculateRange(entry_length, ref.offset, ref.length),
                         "binding table slot %u", ref.slot);
  resolved.buffer = entry.buffer.get();
  resolved.offset = entry.offset + ref.offset;
  return resolved;
}

Result<Ref<CommandBuffer>> CommandBuffer::Create(CommandBufferMode mode,
                                                 CommandCategory categories,
                                                 uint32_t binding_capacity) {
  if (binding_capacity > kMaxBindingCapacity) {
    return OutOfRangeError(
        "binding capacity " + std::to_string(binding_capacity) +
        " exceeds the maximum of " + std::to_string(kMaxBindingCapacity));
  }
  Ref<CommandBuffer> buffer = Ref<CommandBuffer>::Adopt(new CommandBuffer());
  buffer->mode_ = mode;
  buffer->categories_ = categories;
  buffer->binding_capacity_ = binding_capacity;
  return buffer;
}

Status CommandBuffer::BeginRecord(CommandCategory category) {
  if (finalized_) {
    return FailedPreconditionError(
        "command buffer is not in a recording state (already finalized)");
  }
  if (!HasAll(categories_, category)) {
    return FailedPreconditionError(
        "operation requires a command category the command buffer was not "
        "created with");
  }
  if (commands_.size() >= kMaxCommands) {
    return ResourceExhaustedError("command buffer exceeds " +
                                  std::to_string(kMaxCommands) + " commands");
  }
  return Status::Ok();
}

Status CommandBuffer::NoteRef(const BufferRef& ref) {
  if (ref.buffer) return Status::Ok();
  if (ref.slot >= binding_capacity_) {
    return OutOfRangeError(
        "indirect buffer reference slot " + std::to_string(ref.slot) +
        " is out of range of the command buffer's binding capacity " +
        std::to_string(binding_capacity_));
  }
  binding_count_ = std::max(binding_count_, ref.slot + 1);
  return Status::Ok();
}

Status CommandBuffer::Dispatch(DispatchCommand command) {
  EMBER_RETURN_IF_ERROR(BeginRecord(CommandCategory::kDispatch));
  if (!command.executable) return InvalidArgumentError("null executable");
  if (command.export_ordinal >= command.executable->export_count()) {
    return InvalidArgumentError(
        "export ordinal " + std::to_string(command.export_ordinal) +
        " out of range; executable has " +
        std::to_string(command.executable->export_count()) + " exports");
  }
  if (command.indirect) {
    const BufferRef& counts = command.workgroups_ref;
    if (counts.offset % 4 != 0) {
      return InvalidArgumentError("workgroup count offset " +
                                  std::to_string(counts.offset) +
                                  " is not 4-byte aligned");
    }
    if (counts.length < 12) {
      return OutOfRangeError(
          "workgroup count buffer does not have room for 3 uint32 values "
          "(length " +
          std::to_string(counts.length) + ")");
    }
    EMBER_RETURN_IF_ERROR(CheckDirect(counts,
                                      BufferUsage::kDispatchIndirectParameters,
                                      MemoryAccess::kRead, "workgroup count"));
    EMBER_RETURN_IF_ERROR(NoteRef(counts));
  }
  for (const BufferRef& binding : command.bindings) {
    EMBER_RETURN_IF_ERROR(CheckDirect(binding, BufferUsage::kNone,
                                      MemoryAccess::kAny, "dispatch binding"));
    EMBER_RETURN_IF_ERROR(NoteRef(binding));
  }
  commands_.push_back(std::move(command));
  return Status::Ok();
}

Status CommandBuffer::Fill(FillCommand command) {
  EMBER_RETURN_IF_ERROR(BeginRecord(CommandCategory::kTransfer));
  const uint32_t n = command.pattern_length;
  if (n != 1 && n != 2 && n != 4) {
    return InvalidArgumentError(
        "fill patterns may only be 1, 2, or 4 bytes (pattern_length=" +
        std::to_string(n) + ")");
  }
  if (command.target.offset % n != 0 ||
      (command.target.length != kWholeBuffer && command.target.length % n)) {
    return InvalidArgumentError(
        "fill offset and length must be multiples of the pattern length");
  }
  EMBER_RETURN_IF_ERROR(CheckDirect(command.target,
                                    BufferUsage::kTransferTarget,
                                    MemoryAccess::kWrite, "fill target"));
  EMBER_RETURN_IF_ERROR(NoteRef(command.target));
  commands_.push_back(std::move(command));
  return Status::Ok();
}

Status CommandBuffer::SynchronizeRange(const BufferRef& range) {
  EMBER_RETURN_IF_ERROR(BeginRecord(CommandCategory::kNone));
  // Only the range: a flush or invalidate neither reads nor writes the
  // contents, so no usage or access bit is asked of the buffer.
  if (range.buffer) {
    EMBER_RETURN_IF_ERROR(
        CalculateRange(range.buffer->byte_length(), range.offset, range.length),
        "synchronized buffer");
  }
  return NoteRef(range);
}

Status CommandBuffer::Copy(CopyCommand command) {
  EMBER_RETURN_IF_ERROR(BeginRecord(CommandCategory::kTransfer));
  command.source.length = command.length;
  command.target.length = command.length;
  EMBER_RETURN_IF_ERROR(CheckDirect(command.source,
                                    BufferUsage::kTransferSource,
                                    MemoryAccess::kRead, "copy source"));
  EMBER_RETURN_IF_ERROR(CheckDirect(command.target,
                                    BufferUsage::kTransferTarget,
                                    MemoryAccess::kWrite, "copy target"));
  if (command.source.buffer && command.target.buffer &&
      command.source.buffer->Overlaps(*command.target.buffer,
                                      command.source.offset, command.length,
                                      command.target.offset, command.length)) {
    return InvalidArgumentError(
        "source and target ranges overlap within the same buffer");
  }
  EMBER_RETURN_IF_ERROR(NoteRef(command.source));
  EMBER_RETURN_IF_ERROR(NoteRef(command.target));
  commands_.push_back(std::move(command));
  return Status::Ok();
}

Status CommandBuffer::Update(UpdateCommand command) {
  EMBER_RETURN_IF_ERROR(BeginRecord(CommandCategory::kTransfer));
  if (command.data.size() > kMaxUpdateBytes) {
    return InvalidArgumentError(
        "update of " + std::to_string(command.data.size()) +
        " bytes exceeds the maximum of " + std::to_string(kMaxUpdateBytes));
  }
  command.target.length = command.data.size();
  EMBER_RETURN_IF_ERROR(CheckDirect(command.target,
                                    BufferUsage::kTransferTarget,
                                    MemoryAccess::kWrite, "update target"));
  EMBER_RETURN_IF_ERROR(NoteRef(command.target));
  commands_.push_back(std::move(command));
  return Status::Ok();
}

Status CommandBuffer::ExecutionBarrier() {
  EMBER_RETURN_IF_ERROR(BeginRecord(CommandCategory::kNone));
  commands_.push_back(BarrierCommand{});
  return Status::Ok();
}

Status CommandBuffer::BeginDebugGroup(std::string label) {
  EMBER_RETURN_IF_ERROR(BeginRecord(CommandCategory::kNone));
  ++debug_depth_;
  commands_.push_back(DebugGroupCommand{std::move(label), true});
  return Status::Ok();
}

Status CommandBuffer::EndDebugGroup() {
  EMBER_RETURN_IF_ERROR(BeginRecord(CommandCategory::kNone));
  if (debug_depth_ == 0) {
    return FailedPreconditionError("no debug group is open");
  }
  --debug_depth_;
  commands_.push_back(DebugGroupCommand{std::string(), false});
  return Status::Ok();
}

Status CommandBuffer::Finalize() {
  if (finalized_) {
    return FailedPreconditionError("command buffer is already finalized");
  }
  if (debug_depth_ != 0) {
    return FailedPreconditionError("a debug group is still open at finalize");
  }
  finalized_ = true;
  return Status::Ok();
}

Status CommandBuffer::ValidateBindingTable(
    std::span<const Binding> table) const {
  if (binding_count_ == 0) return Status::Ok();
  if (table.empty()) {
    return InvalidArgumentError(
        "command buffer uses binding slots but no binding table was given");
  }
  if (table.size() < binding_count_) {
    return OutOfRangeError("binding table has " + std::to_string(table.size()) +
                           " entries; the command buffer uses " +
                           std::to_string(binding_count_));
  }
  return Status::Ok();
}

}  // namespace ember::hal
