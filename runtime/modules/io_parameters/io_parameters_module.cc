#include "runtime/modules/io_parameters/io_parameters_module.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "runtime/base/byte_storage.h"
#include "runtime/base/small_vector.h"
#include "runtime/hal/allocator.h"
#include "runtime/hal/buffer.h"
#include "runtime/hal/device.h"
#include "runtime/hal/semaphore.h"
#include "runtime/io/file_handle.h"
#include "runtime/modules/hal/hal_module.h"
#include "runtime/vm/buffer.h"
#include "runtime/vm/list.h"
#include "runtime/vm/native_module.h"

namespace ember::modules::io_parameters {
namespace {

namespace h = ember::hal;

struct IoParametersState : vm::ModuleState {
  std::shared_ptr<const std::vector<Ref<ParameterProvider>>> providers;
};

template <typename T>
Result<T*> Require(const Ref<T>& ref, const char* what) {
  if (!ref) return InvalidArgumentError(std::string(what) + " is null");
  return ref.get();
}

std::string_view AsString(const Ref<vm::Buffer>& buffer) {
  if (!buffer) return {};
  std::span<const uint8_t> bytes = buffer->bytes();
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

// ---- the indirect argument tables ------------------------------------------

// One key and its byte ranges, as a program passes them.
struct Span {
  std::string_view key;
  uint64_t parameter_offset = 0;
  uint64_t buffer_offset = 0;
  uint64_t length = 0;
};

// The three tables of a call: key_table {u32 offset, u32 length}[], key_data
// (the key bytes) and spans {u64 parameter_offset, buffer_offset, length}[].
// The span table fixes the count; the others must cover it. Entries are read
// with memcpy (the tables are byte buffers of any alignment).
class IndirectArgs {
 public:
  static constexpr size_t kKeyEntrySize = 2 * sizeof(uint32_t);
  static constexpr size_t kSpanEntrySize = 3 * sizeof(uint64_t);

  static Result<IndirectArgs> Parse(const Ref<vm::Buffer>& key_table,
                                    const Ref<vm::Buffer>& key_data,
                                    const Ref<vm::Buffer>& spans) {
    EMBER_ASSIGN_OR_RETURN(vm::Buffer * table, Require(key_table, "key table"));
    EMBER_ASSIGN_OR_RETURN(vm::Buffer * data, Require(key_data, "key data"));
    EMBER_ASSIGN_OR_RETURN(vm::Buffer * span_list, Require(spans, "spans"));
    IndirectArgs args;
    args.key_table_ = table->bytes();
    args.key_data_ = data->bytes();
    args.spans_ = span_list->bytes();
    if (args.spans_.size() % kSpanEntrySize != 0) {
      return InvalidArgumentError(
          "parameter span table length " + std::to_string(args.spans_.size()) +
          " is not a multiple of the 24-byte span entry");
    }
    args.count_ = args.spans_.size() / kSpanEntrySize;
    if (args.key_table_.size() / kKeyEntrySize < args.count_) {
      return InvalidArgumentError(
          "parameter key table (" + std::to_string(args.key_table_.size()) +
          " bytes) is too short for " + std::to_string(args.count_) + " spans");
    }
    return args;
  }

  size_t count() const { return count_; }

  Result<Span> Get(size_t i) const {
    if (i >= count_) {
      return OutOfRangeError("parameter " + std::to_string(i) +
                             " out of bounds");
    }
    uint32_t key[2];
    std::memcpy(key, key_table_.data() + i * kKeyEntrySize, sizeof(key));
    const uint64_t offset = key[0], length = key[1];
    if (offset > key_data_.size() || length > key_data_.size() - offset) {
      return OutOfRangeError("parameter key " + std::to_string(i) +
                             " (offset=" + std::to_string(offset) +
                             ", length=" + std::to_string(length) +
                             ") is outside the key data of " +
                             std::to_string(key_data_.size()) + " bytes");
    }
    uint64_t span[3];
    std::memcpy(span, spans_.data() + i * kSpanEntrySize, sizeof(span));
    Span out;
    out.key = std::string_view(
        reinterpret_cast<const char*>(key_data_.data()) + offset, length);
    out.parameter_offset = span[0];
    out.buffer_offset = span[1];
    out.length = span[2];
    return out;
  }

 private:
  std::span<const uint8_t> key_table_;
  std::span<const uint8_t> key_data_;
  std::span<const uint8_t> spans_;
  size_t count_ = 0;
};

// ---- providers and entries
// ---------------------------------------------------

Result<ParameterProvider*> ResolveProvider(const IoParametersState& state,
                                           std::string_view scope) {
  for (const Ref<ParameterProvider>& provider : *state.providers) {
    if (provider->scope() == scope) return provider.get();
  }
  return NotFoundError("no provider registered that handles scopes like '" +
                       std::string(scope) + "'");
}

enum class Access { kRead, kWrite };

// The entry `span.key` names, checked for `access` and for the span's range.
Result<const io::ParameterEntry*> ResolveEntry(
    const ParameterProvider& provider, const Span& span, Access access) {
  const io::ParameterEntry* entry = provider.index().Lookup(span.key);
  // Made only for a message.
  auto name = [&] { return provider.scope() + "::" + std::string(span.key); };
  if (entry == nullptr) {
    return NotFoundError("parameter '" + name() + "' not found");
  }
  if (entry->kind == io::ParameterEntry::Kind::kSplat &&
      access == Access::kWrite) {
    return Status(
        StatusCode::kFailedPrecondition,
        "scatter not supported with splat parameter '" + name() + "'");
  }
  bool allowed = false;
  if (entry->kind == io::ParameterEntry::Kind::kSplat) {
    allowed = access == Access::kRead;  // synthetic entries are read-only
  } else if (entry->file) {
    allowed = access == Access::kRead ? entry->file->readable()
                                      : entry->file->writable();
  }
  if (!allowed) {
    return Status(StatusCode::kPermissionDenied,
                  "parameter '" + name() + "' storage does not allow " +
                      (access == Access::kRead ? "reading" : "writing"));
  }
  if (span.parameter_offset > entry->length ||
      span.length > entry->length - span.parameter_offset) {
    return OutOfRangeError("parameter '" + name() +
                           "' range out of bounds (offset=" +
                           std::to_string(span.parameter_offset) +
                           ", length=" + std::to_string(span.length) +
                           ", size=" + std::to_string(entry->length) + ")");
  }
  return entry;
}

// The file bytes of `span` within a file entry (checked against the file).
Result<std::span<uint8_t>> FileBytes(const io::ParameterEntry& entry,
                                     const Span& span) {
  if (span.parameter_offset > UINT64_MAX - entry.offset) {
    return OutOfRangeError("parameter '" + entry.key + "' offset overflows");
  }
  return entry.file->Range(entry.offset + span.parameter_offset, span.length);
}

// The file bytes of `span` as a HAL buffer of `device` that queue copies
// read from (gather): the file's own bytes where the device can import them
// (the buffer keeps the file open), else a copy.
Result<Ref<h::Buffer>> ImportFileRange(h::Device& device,
                                       const io::ParameterEntry& entry,
                                       const Span& span) {
  EMBER_ASSIGN_OR_RETURN(std::span<uint8_t> bytes, FileBytes(entry, span));
  h::BufferParams params;
  params.type = h::MemoryType::kHostLocal;
  params.usage = h::BufferUsage::kTransfer | h::BufferUsage::kMapping;
  params.access = h::MemoryAccess::kRead;
  if (!device.allocator().CanImport(params, bytes)) {
    return device.allocator().AllocateCopy(params, bytes);
  }
  Ref<io::FileHandle> file = entry.file;
  return device.allocator().Import(params, bytes,
                                   [file]() mutable { file = nullptr; });
}

// Fills `bytes` with the splat pattern of `entry` starting at pattern phase
// `phase` (the byte offset into the parameter).
void FillPattern(const io::ParameterEntry& entry, uint64_t phase,
                 std::span<uint8_t> bytes) {
  const size_t n = entry.pattern_length;
  if (n == 0) {
    std::memset(bytes.data(), 0, bytes.size());
    return;
  }
  size_t at = static_cast<size_t>(phase % n);
  for (uint8_t& byte : bytes) {
    byte = entry.pattern[at];
    if (++at == n) at = 0;
  }
}

// Writes the bytes of `span` of `entry` (file bytes or the splat pattern)
// into the new `buffer`: in place where the host can map it, else through
// the device's transfers (a splat a chunk at a time, so a large one needs no
// large host copy).
Status WriteEntry(h::Device& device, const Ref<h::Buffer>& buffer,
                  const io::ParameterEntry& entry, const Span& span) {
  if (entry.kind != io::ParameterEntry::Kind::kSplat) {
    EMBER_ASSIGN_OR_RETURN(std::span<uint8_t> source, FileBytes(entry, span));
    return device.WriteBuffer(buffer, 0, source);
  }
  if (buffer->host_mappable()) {
    EMBER_ASSIGN_OR_RETURN(
        h::BufferMapping target,
        buffer->Map(h::MappingMode::kScoped, h::MemoryAccess::kWrite, 0,
                    span.length));
    FillPattern(entry, span.parameter_offset, target.contents());
    return buffer->Flush(0, span.length);
  }
  constexpr uint64_t kChunk = uint64_t{1} << 20;
  std::vector<uint8_t> chunk(
      static_cast<size_t>(std::min(kChunk, span.length)));
  for (uint64_t done = 0; done < span.length; done += chunk.size()) {
    const size_t n = static_cast<size_t>(
        std::min<uint64_t>(chunk.size(), span.length - done));
    std::span<uint8_t> part(chunk.data(), n);
    FillPattern(entry, span.parameter_offset + done, part);
    EMBER_RETURN_IF_ERROR(device.WriteBuffer(buffer, done, part));
  }
  return Status::Ok();
}

// Runs queue operations one after another: the first waits on `wait`, each
// next one on the previous, the last signals `signal`. A failure fails
// `signal` so that waiters see it.
class QueueChain {
 public:
  QueueChain(Ref<h::Fence> wait, Ref<h::Fence> signal)
      : previous_(std::move(wait)), signal_(std::move(signal)) {}

  // `op(wait, signal)` enqueues one operation.
  template <typename Op>
  Status Then(Op&& op) {
    Ref<h::Fence> next = h::Fence::CreateWithNewSemaphore();
    Status status = op(previous_, next);
    if (!status.ok()) return Fail(std::move(status));
    previous_ = std::move(next);
    ++count_;
    return Status::Ok();
  }

  // Signals `signal` once everything enqueued is done.
  Status Finish(h::Device& device) {
    if (!signal_) return Status::Ok();
    return device.QueueBarrier(previous_, signal_);
  }

  Status Fail(Status status) {
    if (signal_) signal_->Fail(status);
    return status;
  }

 private:
  Ref<h::Fence> previous_;
  Ref<h::Fence> signal_;
  size_t count_ = 0;
};

bool Aligned(const void* data) {
  return reinterpret_cast<uintptr_t>(data) % h::kBufferAlignment == 0;
}

// Tries to make the load of a file entry a buffer over the file's own bytes
// (no copy). Null (no error) when it cannot: the caller then copies.
Result<Ref<h::Buffer>> TryImportForLoad(h::Device& device,
                                        const io::ParameterEntry& entry,
                                        const Span& span,
                                        h::BufferParams params) {
  // Every FileHandle is host memory (a mapping or wrapped memory), so any
  // file entry can be aliased on Ember's CPU devices.
  if (span.buffer_offset != 0 || span.length == 0) {
    return Ref<h::Buffer>();
  }
  EMBER_ASSIGN_OR_RETURN(std::span<uint8_t> bytes, FileBytes(entry, span));
  if (!Aligned(bytes.data())) return Ref<h::Buffer>();
  const bool immutable_use =
      h::HasAll(params.usage, h::BufferUsage::kSharingImmutable);
  Ref<io::FileHandle> file = entry.file;
  if (immutable_use || entry.file->writable()) {
    // Constant use, or storage the program may write through (as IREE).
    params.access =
        immutable_use ? h::MemoryAccess::kRead : h::MemoryAccess::kAll;
    Result<Ref<h::Buffer>> imported = device.allocator().Import(
        params, bytes, [file]() mutable { file = nullptr; });
    if (!imported.ok()) return Ref<h::Buffer>();
    return imported;
  }
  // The program may write into a read-only file: a private copy-on-write
  // view of the same pages (nothing is copied until a page is written), when
  // the bytes are a file mapping.
  EMBER_ASSIGN_OR_RETURN(ByteStorage::PrivateView view,
                         ByteStorage::MapPrivateView(bytes));
  if (view.data == nullptr || !Aligned(view.data)) {
    if (view.data != nullptr) ByteStorage::UnmapPrivateView(view);
    return Ref<h::Buffer>();
  }
  params.access = h::MemoryAccess::kAll;
  Result<Ref<h::Buffer>> imported = device.allocator().Import(
      params, std::span<uint8_t>(view.data, bytes.size()),
      [view] { ByteStorage::UnmapPrivateView(view); });
  if (!imported.ok()) return Ref<h::Buffer>();
  return imported;
}

// ---- exports
// -------------------------------------------------------------------

Result<Ref<vm::List>> Load(IoParametersState& state, Ref<h::Device> device,
                           int64_t /*queue_affinity*/, Ref<h::Fence> wait,
                           Ref<h::Fence> signal, Ref<vm::Buffer> source_scope,
                           int64_t /*target_queue_affinity*/,
                           int32_t memory_types, int32_t buffer_usage,
                           Ref<vm::Buffer> key_table, Ref<vm::Buffer> key_data,
                           Ref<vm::Buffer> spans) {
  EMBER_ASSIGN_OR_RETURN(h::Device * d, Require(device, "device"));
  const std::string_view scope = AsString(source_scope);
  EMBER_ASSIGN_OR_RETURN(ParameterProvider * provider,
                         ResolveProvider(state, scope));
  EMBER_ASSIGN_OR_RETURN(IndirectArgs args,
                         IndirectArgs::Parse(key_table, key_data, spans));
  h::BufferParams params;
  params.type = static_cast<h::MemoryType>(memory_types);
  params.usage = static_cast<h::BufferUsage>(buffer_usage);
  params.access = h::MemoryAccess::kAll;

  EMBER_ASSIGN_OR_RETURN(
      Ref<vm::List> list,
      vm::List::Create(vm::TypeDef::OfRef(modules::hal::BufferType()),
                       args.count()));
  EMBER_RETURN_IF_ERROR(list->Resize(args.count()));
  // The buffers are new: nobody sees them before this call returns, so they
  // are filled now, on this thread, and only the signal is ordered after
  // `wait`.
  for (size_t i = 0; i < args.count(); ++i) {
    EMBER_ASSIGN_OR_RETURN(Span span, args.Get(i));
    EMBER_ASSIGN_OR_RETURN(const io::ParameterEntry* entry,
                           ResolveEntry(*provider, span, Access::kRead));
    Ref<h::Buffer> buffer;
    if (entry->kind == io::ParameterEntry::Kind::kFile) {
      EMBER_ASSIGN_OR_RETURN(buffer,
                             TryImportForLoad(*d, *entry, span, params));
    }
    if (!buffer) {
      if (span.buffer_offset != 0 && span.length != 0) {
        return OutOfRangeError(
            "parameter '" + provider->scope() + "::" + std::string(span.key) +
            "' load at buffer offset " + std::to_string(span.buffer_offset) +
            " of a buffer of " + std::to_string(span.length) + " bytes");
      }
      EMBER_ASSIGN_OR_RETURN(buffer,
                             d->allocator().Allocate(params, span.length));
      if (span.length != 0) {
        EMBER_RETURN_IF_ERROR(WriteEntry(*d, buffer, *entry, span));
      }
    }
    EMBER_RETURN_IF_ERROR(
        list->SetRef(i, vm::VmRef::Of<h::Buffer>(std::move(buffer))));
  }
  EMBER_RETURN_IF_ERROR(d->QueueBarrier(wait, signal));
  return list;
}

// The spans of a gather or scatter with the entry each names in the
// provider of `scope`, every one checked for `access` before anything is
// enqueued.
using SpanEntries = SmallVector<std::pair<Span, const io::ParameterEntry*>, 8>;
Result<SpanEntries> ResolveSpans(IoParametersState& state,
                                 const Ref<vm::Buffer>& scope,
                                 const Ref<vm::Buffer>& key_table,
                                 const Ref<vm::Buffer>& key_data,
                                 const Ref<vm::Buffer>& spans, Access access) {
  EMBER_ASSIGN_OR_RETURN(ParameterProvider * provider,
                         ResolveProvider(state, AsString(scope)));
  EMBER_ASSIGN_OR_RETURN(IndirectArgs args,
                         IndirectArgs::Parse(key_table, key_data, spans));
  SpanEntries resolved;
  for (size_t i = 0; i < args.count(); ++i) {
    EMBER_ASSIGN_OR_RETURN(Span span, args.Get(i));
    EMBER_ASSIGN_OR_RETURN(const io::ParameterEntry* entry,
                           ResolveEntry(*provider, span, access));
    resolved.push_back({span, entry});
  }
  return resolved;
}

Status Gather(IoParametersState& state, Ref<h::Device> device,
              int64_t /*queue_affinity*/, Ref<h::Fence> wait,
              Ref<h::Fence> signal, Ref<vm::Buffer> source_scope,
              Ref<h::Buffer> target_buffer, Ref<vm::Buffer> key_table,
              Ref<vm::Buffer> key_data, Ref<vm::Buffer> spans) {
  EMBER_ASSIGN_OR_RETURN(h::Device * d, Require(device, "device"));
  EMBER_RETURN_IF_ERROR(Require(target_buffer, "gather target buffer"));
  EMBER_ASSIGN_OR_RETURN(SpanEntries work,
                         ResolveSpans(state, source_scope, key_table, key_data,
                                      spans, Access::kRead));
  QueueChain chain(wait, signal);
  // Named references, not structured bindings: C++20 lets a lambda capture
  // a structured binding, but Clang before 16 refuses it.
  for (const auto& item : work) {
    const auto& span = item.first;
    const auto& entry = item.second;
    if (span.length == 0) continue;
    if (entry->kind == io::ParameterEntry::Kind::kSplat &&
        (entry->pattern_length == 1 || entry->pattern_length == 2 ||
         entry->pattern_length == 4) &&
        span.parameter_offset % entry->pattern_length == 0) {
      uint32_t pattern = 0;
      std::memcpy(&pattern, entry->pattern.data(), entry->pattern_length);
      EMBER_RETURN_IF_ERROR(
          chain.Then([&](const Ref<h::Fence>& w, const Ref<h::Fence>& s) {
            return d->QueueFill(w, s, target_buffer, span.buffer_offset,
                                span.length, pattern, entry->pattern_length);
          }));
      continue;
    }
    Ref<h::Buffer> source;
    if (entry->kind == io::ParameterEntry::Kind::kSplat) {
      // Other pattern lengths: staged in host memory.
      h::BufferParams staging;
      staging.type = h::MemoryType::kHostLocal;
      Result<Ref<h::Buffer>> made =
          d->allocator().Allocate(staging, span.length);
      if (!made.ok()) return chain.Fail(made.status());
      source = *std::move(made);
      Result<h::BufferMapping> bytes = source->Map(
          h::MappingMode::kScoped, h::MemoryAccess::kWrite, 0, span.length);
      if (!bytes.ok()) return chain.Fail(bytes.status());
      FillPattern(*entry, span.parameter_offset, bytes->contents());
    } else {
      Result<Ref<h::Buffer>> imported = ImportFileRange(*d, *entry, span);
      if (!imported.ok()) return chain.Fail(imported.status());
      source = *std::move(imported);
    }
    EMBER_RETURN_IF_ERROR(
        chain.Then([&](const Ref<h::Fence>& w, const Ref<h::Fence>& s) {
          return d->QueueCopy(w, s, source, 0, target_buffer,
                              span.buffer_offset, span.length);
        }));
  }
  return chain.Finish(*d);
}

Status Scatter(IoParametersState& state, Ref<h::Device> device,
               int64_t /*queue_affinity*/, Ref<h::Fence> wait,
               Ref<h::Fence> signal, Ref<h::Buffer> source_buffer,
               Ref<vm::Buffer> target_scope, Ref<vm::Buffer> key_table,
               Ref<vm::Buffer> key_data, Ref<vm::Buffer> spans) {
  EMBER_ASSIGN_OR_RETURN(h::Device * d, Require(device, "device"));
  EMBER_RETURN_IF_ERROR(Require(source_buffer, "scatter source buffer"));
  EMBER_ASSIGN_OR_RETURN(SpanEntries work,
                         ResolveSpans(state, target_scope, key_table, key_data,
                                      spans, Access::kWrite));
  QueueChain chain(wait, signal);
  for (const auto& item : work) {  // not a structured binding: see Gather
    const auto& span = item.first;
    const auto& entry = item.second;
    if (span.length == 0) continue;
    // Straight into the file's bytes once the queue gets there, on any
    // device (memory the host cannot map is staged by the device).
    Result<std::span<uint8_t>> target = FileBytes(*entry, span);
    if (!target.ok()) return chain.Fail(target.status());
    EMBER_RETURN_IF_ERROR(
        chain.Then([&](const Ref<h::Fence>& w, const Ref<h::Fence>& s) {
          return d->QueueReadToHost(w, s, source_buffer, span.buffer_offset,
                                    *target, Ref<RefCounted>(entry->file));
        }));
  }
  return chain.Finish(*d);
}

}  // namespace

Ref<ParameterProvider> ParameterProvider::Create(
    std::string scope, Ref<io::ParameterIndex> index) {
  return Ref<ParameterProvider>::Adopt(
      new ParameterProvider(std::move(scope), std::move(index)));
}

Result<std::shared_ptr<vm::Module>> CreateIoParametersModule(
    std::vector<Ref<ParameterProvider>> providers) {
  for (const Ref<ParameterProvider>& provider : providers) {
    if (!provider || !provider->index_ref()) {
      return InvalidArgumentError("a parameter provider is null");
    }
  }
  using vm::Export;
  // Sorted by name, as IREE's exports.inl.
  std::vector<vm::NativeExport<IoParametersState>> exports = {
      Export<"gather", "0rIrrrrrrr_v", &Gather>(),
      Export<"load", "0rIrrrIiirrr_r", &Load>(),
      Export<"scatter", "0rIrrrrrrr_v", &Scatter>(),
  };
  auto shared = std::make_shared<const std::vector<Ref<ParameterProvider>>>(
      std::move(providers));
  return std::shared_ptr<vm::Module>(
      std::make_shared<vm::NativeModule<IoParametersState>>(
          "io_parameters", kIoParametersModuleVersion, std::move(exports),
          [shared](vm::Context&) -> Result<std::unique_ptr<IoParametersState>> {
            auto state = std::make_unique<IoParametersState>();
            state->providers = shared;
            return state;
          }));
}

}  // namespace ember::modules::io_parameters
