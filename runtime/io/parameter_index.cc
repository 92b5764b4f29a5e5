#include "runtime/io/parameter_index.h"

#include <algorithm>
#include <atomic>
#include <cinttypes>
#include <mutex>
#include <unordered_map>

#include "runtime/io/parsers_internal.h"

namespace ember::io {

// Entries live in chunks that never move: chunk k holds 16 << k entries, so
// 40 chunks cover more entries than memory could hold, and entry(i) finds
// its chunk with one bit scan and no lock.
namespace {
constexpr size_t kFirstChunkBits = 4;
constexpr size_t kChunkCount = 40;

struct Position {
  size_t chunk;
  size_t slot;
};
Position PositionOf(size_t i) {
  size_t biased = i + (size_t{1} << kFirstChunkBits);
  size_t top = 63 - static_cast<size_t>(__builtin_clzll(biased));
  size_t chunk = top - kFirstChunkBits;
  return {chunk, biased - (size_t{1} << top)};
}
size_t ChunkCapacity(size_t chunk) {
  return size_t{1} << (chunk + kFirstChunkBits);
}
}  // namespace

struct ParameterIndex::State {
  std::mutex mutex;  // guards adding and the key table
  std::atomic<size_t> count{0};
  std::atomic<ParameterEntry*> chunks[kChunkCount] = {};
  // First entry of each key (IREE's lookup scans in order and stops at the
  // first match). Keys view the entries' own strings, which never move.
  std::unordered_map<std::string_view, size_t> by_key;

  ~State() {
    for (auto& chunk : chunks) delete[] chunk.load(std::memory_order_relaxed);
  }
  Status EnsureChunk(size_t chunk) {
    if (chunk >= kChunkCount) {
      return ResourceExhaustedError("parameter index is full");
    }
    if (chunks[chunk].load(std::memory_order_relaxed) == nullptr) {
      chunks[chunk].store(new ParameterEntry[ChunkCapacity(chunk)],
                          std::memory_order_release);
    }
    return Status();
  }
};

ParameterIndex::ParameterIndex() : state_(std::make_unique<State>()) {}
ParameterIndex::~ParameterIndex() = default;

Ref<ParameterIndex> ParameterIndex::Create() {
  return MakeRef<ParameterIndex>();
}

Status ParameterIndex::Reserve(size_t capacity) {
  std::lock_guard<std::mutex> lock(state_->mutex);
  // Only the key table is sized up front: chunks are made as entries arrive
  // (a hostile count must not allocate before the entries exist).
  if (capacity > (size_t{1} << 24)) capacity = size_t{1} << 24;
  state_->by_key.reserve(capacity);
  return Status();
}

namespace {

// Checks `entry` and clears the fields its kind does not use.
Status Normalize(ParameterEntry& entry) {
  switch (entry.kind) {
    case ParameterEntry::Kind::kFile: {
      if (!entry.file) {
        return InvalidArgumentError(
            StringPrintf("parameter '%s' has no file", entry.key.c_str()));
      }
      uint64_t size = entry.file->length();
      if (entry.offset > size || entry.length > size - entry.offset) {
        return OutOfRangeError(
            StringPrintf("parameter '%s' range [%" PRIu64 ", +%" PRIu64
                         ") lies outside its file of %" PRIu64 " bytes",
                         entry.key.c_str(), entry.offset, entry.length, size));
      }
      entry.pattern = {};
      entry.pattern_length = 0;
      break;
    }
    case ParameterEntry::Kind::kSplat:
      // IREE's index takes any pattern of at most 16 bytes (the archive
      // writer is the one that insists on 1, 2, 4, 8 or 16).
      if (entry.pattern_length > kMaxSplatPatternLength) {
        return InvalidArgumentError(StringPrintf(
            "parameter '%s' splat pattern length %u exceeds %zu",
            entry.key.c_str(), entry.pattern_length, kMaxSplatPatternLength));
      }
      // Bytes past the pattern are zero, as IREE's entries (the archive
      // writer copies all 16).
      std::fill(entry.pattern.begin() + entry.pattern_length,
                entry.pattern.end(), uint8_t{0});
      entry.file.reset();
      entry.offset = 0;
      break;
    default:
      return InvalidArgumentError(StringPrintf(
          "parameter '%s' has an unknown storage kind", entry.key.c_str()));
  }
  return Status();
}

}  // namespace

Status ParameterIndex::Add(ParameterEntry entry) {
  EMBER_RETURN_IF_ERROR(Normalize(entry));
  std::lock_guard<std::mutex> lock(state_->mutex);
  return AppendLocked(std::move(entry));
}

Status ParameterIndex::AddAll(std::vector<ParameterEntry> entries) {
  for (ParameterEntry& entry : entries) {
    EMBER_RETURN_IF_ERROR(Normalize(entry));
  }
  std::lock_guard<std::mutex> lock(state_->mutex);
  for (ParameterEntry& entry : entries) {
    EMBER_RETURN_IF_ERROR(AppendLocked(std::move(entry)));
  }
  return Status();
}

Status ParameterIndex::AppendLocked(ParameterEntry entry) {
  State& state = *state_;
  size_t i = state.count.load(std::memory_order_relaxed);
  Position position = PositionOf(i);
  EMBER_RETURN_IF_ERROR(state.EnsureChunk(position.chunk));
  ParameterEntry& slot = state.chunks[position.chunk].load(
      std::memory_order_relaxed)[position.slot];
  slot = std::move(entry);
  state.by_key.emplace(std::string_view(slot.key), i);  // first one wins
  state.count.store(i + 1, std::memory_order_release);
  return Status();
}

size_t ParameterIndex::size() const {
  return state_->count.load(std::memory_order_acquire);
}

const ParameterEntry& ParameterIndex::entry(size_t i) const {
  Position position = PositionOf(i);
  return state_->chunks[position.chunk].load(
      std::memory_order_acquire)[position.slot];
}

const ParameterEntry* ParameterIndex::Lookup(std::string_view key) const {
  std::lock_guard<std::mutex> lock(state_->mutex);
  auto it = state_->by_key.find(key);
  if (it == state_->by_key.end()) return nullptr;
  return &entry(it->second);
}

std::string ParameterIndex::Dump(std::string_view scope) const {
  size_t count = size();
  uint64_t total_bytes = 0;
  for (size_t i = 0; i < count; ++i) total_bytes += entry(i).length;
  std::string out;
  out +=
      "//===-----------------------------------------------------------------"
      "---------------------------------------------===//\n";
  out += "// Parameter scope ";
  if (scope.empty()) {
    out += "<global>";
  } else {
    out += "`";
    out += scope.substr(0, scope.find('\0'));
    out += "`";
  }
  out += StringPrintf(" (%zu entries, %" PRIu64 " total bytes)\n", count,
                      total_bytes);
  out +=
      "//===------------+------------------+------------------+------------"
      "-----------------------------------------------===//\n";
  out += "//         Start |              End |           Length | Key\n";
  out +=
      "//---------------+------------------+------------------+------------"
      "--------------------------------------------------//\n";
  for (size_t i = 0; i < count; ++i) {
    const ParameterEntry& e = entry(i);
    if (e.kind == ParameterEntry::Kind::kSplat) {
      out += StringPrintf(
          "               - |                - | %16" PRIu64 " | `", e.length);
    } else {
      out += StringPrintf("%16" PRIu64 " | %16" PRIu64 " | %16" PRIu64 " | `",
                          e.offset, e.offset + e.length, e.length);
    }
    // IREE prints keys with %.*s, which stops at a NUL byte.
    out += std::string_view(e.key).substr(0, e.key.find('\0'));
    out += "`\n";
  }
  out += "\n";
  return out;
}

// The extension of `path` (after the last '.' of its last component), or
// the whole name when it has none, as IREE's parser registry reads it.
static std::string_view FormatName(std::string_view path) {
  size_t slash = path.find_last_of('/');
  std::string_view base =
      slash == std::string_view::npos ? path : path.substr(slash + 1);
  size_t dot = base.find_last_of('.');
  std::string_view extension =
      dot == std::string_view::npos ? std::string_view() : base.substr(dot + 1);
  return extension.empty() ? base : extension;
}

static bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

static Status UnsupportedFormat(std::string_view name) {
  return UnimplementedError(StringPrintf(
      "unsupported file format `%.*s`; ensure the extension matches one of "
      "the supported formats: [.irpa, .gguf, .safetensors]",
      static_cast<int>(name.size()), name.data()));
}

Status ParseParameterFile(std::string_view format, const Ref<FileHandle>& file,
                          ParameterIndex& index) {
  if (!file) return InvalidArgumentError("no parameter file given");
  if (!file->readable()) {
    return MakeStatus(StatusCode::kPermissionDenied,
                      "the parameter file handle is not readable");
  }
  std::string_view name = FormatName(format);
  if (EqualsIgnoringCase(name, "irpa")) {
    EMBER_RETURN_IF_ERROR(ParseIrpa(file, index), "parsing an IRPA archive");
  } else if (EqualsIgnoringCase(name, "gguf")) {
    EMBER_RETURN_IF_ERROR(ParseGguf(file, index), "parsing a GGUF file");
  } else if (EqualsIgnoringCase(name, "safetensors")) {
    EMBER_RETURN_IF_ERROR(ParseSafetensors(file, index),
                          "parsing a safetensors file");
  } else {
    return UnsupportedFormat(name);
  }
  return Status();
}

Result<std::string> FormatFromPath(std::string_view path) {
  // Only the extension: a path without one has no format (IREE's Python
  // load passes the empty extension on, which no parser takes).
  size_t slash = path.find_last_of('/');
  std::string_view base =
      slash == std::string_view::npos ? path : path.substr(slash + 1);
  size_t dot = base.find_last_of('.');
  std::string_view name =
      dot == std::string_view::npos ? std::string_view() : base.substr(dot + 1);
  for (const char* known : {"irpa", "gguf", "safetensors"}) {
    if (EqualsIgnoringCase(name, known)) return std::string(known);
  }
  return UnsupportedFormat(name);
}

}  // namespace ember::io
