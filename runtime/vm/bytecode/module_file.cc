#include "runtime/vm/bytecode/module_file.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "runtime/base/endian.h"
#include "runtime/base/printable.h"
#include "runtime/vm/bytecode/compiler_family.h"

namespace ember::vm::bytecode {
namespace {

constexpr uint32_t kZipLocalHeaderSignature = 0x04034B50u;
constexpr size_t kZipLocalHeaderSize = 30;
constexpr size_t kArchiveSegmentAlignment = 64;

// Whether `name` is spelled as a type-table entry can be: a value type
// ("i32"), or "!" and a dotted name of at least two identifiers with an
// optional bracketed parameter ("!hal.buffer", "!vm.list<!vm.list<?>>").
// Only the spelling is checked here. Which names exist is the business of the
// Instance's TypeRegistry, where native modules register the types they own;
// a well-formed name nobody registered fails when the module is created
// against an instance (BytecodeModule::Create), naming the type.
bool IsWellFormedTypeName(std::string_view name) {
  static constexpr std::string_view kValueTypes[] = {"i8",  "i16", "i32",
                                                     "i64", "f32", "f64"};
  for (std::string_view value_type : kValueTypes) {
    if (name == value_type) return true;
  }
  if (name.empty() || name[0] != '!') return false;
  name.remove_prefix(1);
  auto is_alpha = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  };
  auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
  size_t at = 0;
  int identifiers = 0;
  while (true) {
    if (at >= name.size() || !is_alpha(name[at])) return false;
    while (at < name.size() && (is_alpha(name[at]) || is_digit(name[at]))) {
      ++at;
    }
    ++identifiers;
    if (at < name.size() && name[at] == '.') {
      ++at;
      continue;
    }
    break;
  }
  if (identifiers < 2) return false;
  if (at == name.size()) return true;
  // A parameter: printable, with balanced angle brackets closing at the end.
  if (name[at] != '<' || name.back() != '>' || name.size() - at < 3) {
    return false;
  }
  int depth = 0;
  for (size_t i = at; i < name.size(); ++i) {
    const char c = name[i];
    if (c < 0x20 || c > 0x7E) return false;
    if (c == '<') ++depth;
    if (c == '>' && --depth == 0 && i + 1 != name.size()) return false;
  }
  return depth == 0;
}

// Strings up to this many bytes are examined again on every reference. That
// work is bounded by this length times the number of references, and every
// reference is an offset the FlatBuffer reader has charged to its object
// budget (flatbuffer_reader.h), so it stays linear in the file size. Only
// longer strings, where sharing could make per-reference work quadratic, are
// tracked by identity; iree-compile's names and cconvs are almost all short,
// so loading a module allocates little or nothing for this.
constexpr size_t kUntrackedStringBytes = 64;

// A flat open-addressing map from a string's identity (where it lies, not what
// it says) to a small value; one allocation for the slots, none per entry.
template <typename Value>
class IdentityTable {
 public:
  // The value slot for `text` and whether it was just inserted (with
  // `initial`).
  std::pair<Value*, bool> FindOrInsert(std::string_view text, Value initial) {
    if (2 * (count_ + 1) > slots_.size()) Grow();
    const size_t mask = slots_.size() - 1;
    for (size_t at = Hash(text) & mask;; at = (at + 1) & mask) {
      Slot& slot = slots_[at];
      if (slot.data == nullptr) {
        slot = Slot{text.data(), text.size(), initial};
        ++count_;
        return {&slot.value, true};
      }
      if (slot.data == text.data() && slot.size == text.size()) {
        return {&slot.value, false};
      }
    }
  }

 private:
  struct Slot {
    const char* data = nullptr;  // null: empty (strings here are non-empty)
    size_t size = 0;
    Value value{};
  };
  static size_t Hash(std::string_view text) {
    uint64_t h = reinterpret_cast<uintptr_t>(text.data()) ^
                 (uint64_t{text.size()} << 40);
    h ^= h >> 33;
    h *= uint64_t{0xFF51AFD7ED558CCD};
    h ^= h >> 33;
    return static_cast<size_t>(h);
  }
  void Grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 16 : 2 * old.size(), Slot{});
    count_ = 0;
    for (const Slot& slot : old) {
      if (slot.data) {
        *FindOrInsert({slot.data, slot.size}, slot.value).first = slot.value;
      }
    }
  }

  std::vector<Slot> slots_;
  size_t count_ = 0;
};

// Bounds the work on strings that take time proportional to their length
// (cconv parsing, name scans, hashing). A hostile file can point thousands of
// offsets at one long string, or nest strings inside one another (a string's
// bytes may hold another string's length prefix), so per-reference work would
// be quadratic in the file size. Each distinct long string (over
// kUntrackedStringBytes) is examined at most once per kind of check, and the
// total length of the distinct long strings seen is capped by the archive
// size: distinct strings in a well-formed FlatBuffer are disjoint, so only
// overlapping ones can exceed it.
class StringWork {
 public:
  enum Check : uint32_t {
    kCallingConvention = 1u << 0,
    kQualifiedName = 1u << 1,
  };

  explicit StringWork(uint64_t budget) : budget_(budget), limit_(budget) {}

  // Charges `text`'s length the first time this string is seen. `what` and
  // `index` name the referring entry in the error.
  Status Charge(std::string_view text, const char* what, size_t index) {
    if (text.size() <= kUntrackedStringBytes) return Status();
    return Find(text, what, index).status();
  }
  // Whether `text` still needs `check` (false once it has passed it), after
  // charging it as Charge does.
  Result<bool> Needs(std::string_view text, Check check, const char* what,
                     size_t index) {
    if (text.size() <= kUntrackedStringBytes) return true;
    EMBER_ASSIGN_OR_RETURN(uint32_t * done, Find(text, what, index));
    if (*done & check) return false;
    *done |= check;  // if the check fails, the load fails anyway
    return true;
  }

  // The calling convention CheckCallingConvention accepted last.
  std::string_view last_valid_cconv() const { return last_valid_cconv_; }
  void set_last_valid_cconv(std::string_view cconv) {
    last_valid_cconv_ = cconv;
  }

 private:
  // The checks `text` has passed, charging it if it is new.
  Result<uint32_t*> Find(std::string_view text, const char* what,
                         size_t index) {
    auto [done, inserted] = done_.FindOrInsert(text, 0u);
    if (inserted) {
      if (text.size() > budget_) {
        return InvalidArgumentError(StringPrintf(
            "%s[%zu] names a string of %zu bytes that overlaps other strings "
            "(more distinct string bytes than the %llu-byte archive holds; a "
            "valid module never does this)",
            what, index, text.size(), static_cast<unsigned long long>(limit_)));
      }
      budget_ -= text.size();
    }
    return done;
  }

  uint64_t budget_;
  const uint64_t limit_;
  IdentityTable<uint32_t> done_;
  std::string_view last_valid_cconv_;
};

Status CheckCallingConvention(StringWork& work, std::string_view cconv,
                              const char* what, size_t index) {
  if (cconv.empty()) return Status();  // absent: nothing to check
  EMBER_ASSIGN_OR_RETURN(
      bool needed,
      work.Needs(cconv, StringWork::kCallingConvention, what, index));
  if (!needed) return Status();  // the same string passed before
  // Most functions of a module share a handful of signatures, each spelled
  // out again in its own string; one that reads like the last valid one is
  // valid too. The compare costs no more than the parse it saves.
  if (cconv == work.last_valid_cconv()) return Status();
  const CconvSyntax syntax = CheckCallingConventionSyntax(cconv);
  if (!syntax.ok()) {
    return MakeStatus(StatusCode::kInvalidArgument,
                      "%s[%zu] has an invalid calling convention '%s': %s",
                      what, index, Printable(cconv).c_str(),
                      std::string(CconvSyntaxStatus(syntax).message()).c_str());
  }
  work.set_last_valid_cconv(cconv);
  return Status();
}

}  // namespace

std::string FeatureBitsToString(uint32_t bits) {
  if (bits == 0) return "none";
  static constexpr struct {
    uint32_t bit;
    const char* name;
  } kNames[] = {{kFeatureExtF32, "EXT_F32"},
                {kFeatureExtF64, "EXT_F64"},
                {kFeatureYield, "YIELD"},
                {kFeatureUnwind, "UNWIND"}};
  std::string text;
  for (const auto& entry : kNames) {
    if (bits & entry.bit) {
      if (!text.empty()) text += '|';
      text += entry.name;
      bits &= ~entry.bit;
    }
  }
  if (bits) {
    if (!text.empty()) text += '|';
    text += StringPrintf("0x%x", bits);
  }
  return text;
}

namespace {

// Whether `archive` carries a module's marks: after the optional ZIP local
// header, a size-prefixed FlatBuffer whose file identifier is "IREE".
bool HasModuleIdentifier(std::span<const uint8_t> archive) {
  size_t start = 0;
  if (archive.size() >= kZipLocalHeaderSize &&
      LoadLE<uint32_t>(archive.data()) == kZipLocalHeaderSignature) {
    start = kZipLocalHeaderSize + LoadLE<uint16_t>(archive.data() + 26) +
            LoadLE<uint16_t>(archive.data() + 28);
  }
  // size prefix (4), root offset (4), identifier (4)
  return start <= archive.size() && archive.size() - start >= 12 &&
         std::memcmp(archive.data() + start + 8, "IREE", 4) == 0;
}

}  // namespace

Result<ArchiveLayout> ParseArchiveLayout(std::span<const uint8_t> archive) {
  ArchiveLayout layout;
  size_t start = 0;
  if (archive.size() >= kZipLocalHeaderSize &&
      LoadLE<uint32_t>(archive.data()) == kZipLocalHeaderSignature) {
    layout.zip_wrapped = true;
    size_t name_length = LoadLE<uint16_t>(archive.data() + 26);
    size_t extra_length = LoadLE<uint16_t>(archive.data() + 28);
    start = kZipLocalHeaderSize + name_length + extra_length;
    if (start > archive.size()) {
      return InvalidArgumentError(StringPrintf(
          "module archive has a ZIP header claiming %zu header bytes but the "
          "file has only %zu bytes",
          start, archive.size()));
    }
  }
  size_t remaining = archive.size() - start;
  if (remaining < 16) {
    return InvalidArgumentError(StringPrintf(
        "module FlatBuffer missing or truncated: %zu bytes at offset %zu "
        "(need at least 16)",
        remaining, start));
  }
  uint32_t length = LoadLE<uint32_t>(archive.data() + start);
  if (length > remaining - 4) {
    return InvalidArgumentError(StringPrintf(
        "module FlatBuffer size prefix at offset %zu says %u bytes but only "
        "%zu remain",
        start, length, remaining - 4));
  }
  layout.flatbuffer_offset = start + 4;
  layout.flatbuffer_size = length;
  size_t end = layout.flatbuffer_offset + length;
  layout.rodata_base = (end + kArchiveSegmentAlignment - 1) /
                       kArchiveSegmentAlignment * kArchiveSegmentAlignment;
  return layout;
}

Result<std::shared_ptr<const ModuleFile>> ModuleFile::Load(
    std::shared_ptr<const ByteStorage> storage) {
  if (!storage) return InvalidArgumentError("no module storage");
  if (reinterpret_cast<uintptr_t>(storage->data()) % kStorageAlignment != 0) {
    return InvalidArgumentError(StringPrintf(
        "module buffer at %p is not %zu-byte aligned; copy it instead",
        static_cast<const void*>(storage->data()), kStorageAlignment));
  }
  std::shared_ptr<ModuleFile> file(new ModuleFile());
  file->storage_ = std::move(storage);
  // A file without a module's marks (an npy, a text file, an ELF given by
  // mistake) says so first; the parser's detail follows.
  auto not_a_module = [&file](Status status, const char* step) {
    if (!HasModuleIdentifier(file->archive())) {
      status = InvalidArgumentError("not an IREE module (.vmfb): " +
                                    std::string(status.message()));
    }
    return std::move(status).Annotate(step);
  };
  Result<ArchiveLayout> layout = ParseArchiveLayout(file->archive());
  if (!layout.ok()) {
    return not_a_module(layout.status(), "reading the module archive header");
  }
  file->layout_ = *layout;
  Result<ModuleDef> def = ParseModuleDef(file->flatbuffer());
  if (!def.ok()) {
    return not_a_module(def.status(), "verifying the module FlatBuffer");
  }
  file->def_ = std::move(*def);
  EMBER_RETURN_IF_ERROR(
      VerifyModuleDef(file->def_, file->archive(), file->layout_),
      "verifying module '%s'", Printable(file->def_.name).c_str());
  file->ResolveRodata();
  file->IndexExports();
  file->MapSourceMaps();
  return std::shared_ptr<const ModuleFile>(std::move(file));
}

Result<std::shared_ptr<const ModuleFile>> ModuleFile::LoadCopy(
    std::span<const uint8_t> bytes) {
  EMBER_ASSIGN_OR_RETURN(auto storage, ByteStorage::CopyOf(bytes));
  return Load(std::move(storage));
}

Result<std::shared_ptr<const ModuleFile>> ModuleFile::LoadFile(
    const std::string& path) {
  EMBER_ASSIGN_OR_RETURN(auto storage, ByteStorage::MapFile(path));
  return Load(std::move(storage));
}

Status VerifyModuleDef(const ModuleDef& def, std::span<const uint8_t> archive,
                       const ArchiveLayout& layout) {
  uint32_t major = def.bytecode_version >> 16;
  uint32_t minor = def.bytecode_version & 0xFFFF;
  if (major != kBytecodeVersionMajor || minor > kBytecodeVersionMinor) {
    // Say which compiler wrote it: the version number alone means nothing
    // to a user holding a file from some other release.
    return InvalidArgumentError(
        StringPrintf("module %s; Ember runs modules from %.*s (bytecode %u.%u)",
                     DescribeCompilerFamily(InferCompilerFamily(def)).c_str(),
                     static_cast<int>(kSupportedCompilers.size()),
                     kSupportedCompilers.data(), kBytecodeVersionMajor,
                     kBytecodeVersionMinor));
  }
  if (def.requirements & ~kAllFeatures) {
    return UnimplementedError(StringPrintf(
        "module requires unknown features %s",
        FeatureBitsToString(def.requirements & ~kAllFeatures).c_str()));
  }
  if (def.name.empty()) return InvalidArgumentError("module has an empty name");
  StringWork strings(archive.size());

  for (size_t i = 0; i < def.types.size(); ++i) {
    if (!IsWellFormedTypeName(def.types[i])) {
      return InvalidArgumentError(
          StringPrintf("types[%zu] '%s' is not a well-formed type name", i,
                       Printable(def.types[i]).c_str()));
    }
  }
  for (size_t i = 0; i < def.dependencies.size(); ++i) {
    const ModuleDependencyDef& dependency = def.dependencies[i];
    if (dependency.name.empty()) {
      return InvalidArgumentError(
          StringPrintf("dependencies[%zu] has no module name", i));
    }
    if ((dependency.flags & ~(kLinkRequired | kLinkOptional)) != 0) {
      return InvalidArgumentError(StringPrintf(
          "dependencies[%zu] has unknown flags 0x%x", i, dependency.flags));
    }
  }
  for (size_t i = 0; i < def.imported_functions.size(); ++i) {
    const ImportFunctionDef& import = def.imported_functions[i];
    if (import.full_name.empty()) {
      return InvalidArgumentError(
          StringPrintf("imported_functions[%zu] has no full_name", i));
    }
    EMBER_ASSIGN_OR_RETURN(
        bool check_name,
        strings.Needs(import.full_name, StringWork::kQualifiedName,
                      "imported_functions", i));
    if (check_name && import.full_name.find('.') == std::string_view::npos) {
      return InvalidArgumentError(
          StringPrintf("imported_functions[%zu] '%s' is not 'module.function'",
                       i, Printable(import.full_name).c_str()));
    }
    if ((import.flags & ~(kLinkRequired | kLinkOptional)) != 0) {
      return InvalidArgumentError(StringPrintf(
          "imported_functions[%zu] has unknown flags 0x%x", i, import.flags));
    }
    EMBER_RETURN_IF_ERROR(CheckCallingConvention(
        strings, import.signature.calling_convention, "imported_functions", i));
  }
  if (def.function_signatures.size() != def.function_descriptors.size()) {
    return InvalidArgumentError(StringPrintf(
        "function_signatures has %zu entries but function_descriptors has %zu",
        def.function_signatures.size(), def.function_descriptors.size()));
  }
  for (size_t i = 0; i < def.function_signatures.size(); ++i) {
    EMBER_RETURN_IF_ERROR(CheckCallingConvention(
        strings, def.function_signatures[i].calling_convention,
        "function_signatures", i));
  }
  for (size_t i = 0; i < def.exported_functions.size(); ++i) {
    const ExportFunctionDef& export_def = def.exported_functions[i];
    if (export_def.local_name.empty()) {
      return InvalidArgumentError(
          StringPrintf("exported_functions[%zu] has no local_name", i));
    }
    if (export_def.internal_ordinal < 0 ||
        static_cast<size_t>(export_def.internal_ordinal) >=
            def.function_descriptors.size()) {
      return InvalidArgumentError(StringPrintf(
          "exported_functions[%zu] '%s' has internal_ordinal %d outside "
          "[0, %zu)",
          i, Printable(export_def.local_name).c_str(),
          export_def.internal_ordinal, def.function_descriptors.size()));
    }
    // ModuleFile hashes export names to index them.
    EMBER_RETURN_IF_ERROR(
        strings.Charge(export_def.local_name, "exported_functions", i));
  }
  for (size_t i = 0; i < def.function_descriptors.size(); ++i) {
    const FunctionDescriptor& d = def.function_descriptors[i];
    if (d.requirements & ~kAllFeatures) {
      return UnimplementedError(StringPrintf(
          "function_descriptors[%zu] requires unknown features %s", i,
          FeatureBitsToString(d.requirements & ~kAllFeatures).c_str()));
    }
    if (d.block_count <= 0) {
      return InvalidArgumentError(StringPrintf(
          "function_descriptors[%zu] has block_count %d; a function needs at "
          "least one block",
          i, d.block_count));
    }
    if (d.bytecode_length <= 0 || d.bytecode_offset < 0 ||
        int64_t{d.bytecode_offset} + d.bytecode_length >
            static_cast<int64_t>(def.bytecode_data.size())) {
      return InvalidArgumentError(StringPrintf(
          "function_descriptors[%zu] bytecode span [%d, +%d) is outside the "
          "%zu bytes of bytecode_data",
          i, d.bytecode_offset, d.bytecode_length, def.bytecode_data.size()));
    }
    if (d.i32_register_count < 0 || d.i32_register_count > kMaxI32Registers ||
        d.ref_register_count < 0 || d.ref_register_count > kMaxRefRegisters) {
      return InvalidArgumentError(StringPrintf(
          "function_descriptors[%zu] register counts (i32 %d, ref %d) exceed "
          "the limits (%d, %d)",
          i, d.i32_register_count, d.ref_register_count, kMaxI32Registers,
          kMaxRefRegisters));
    }
  }
  // The compiler gives every function its own bytecode. Overlapping spans
  // would let a small file make the bytecode verifier and the quickened copy
  // do the same body over and over (N descriptors x one M-byte body), so they
  // are rejected: sorted by offset, each span must end before the next begins.
  // iree-compile lays the bodies out in function order, so the descriptors
  // are normally sorted already and the O(n log n) sort is skipped.
  {
    const auto& descriptors = def.function_descriptors;
    bool sorted = true;
    for (size_t i = 1; i < descriptors.size() && sorted; ++i) {
      sorted =
          descriptors[i - 1].bytecode_offset <= descriptors[i].bytecode_offset;
    }
    std::vector<size_t> by_offset;
    if (!sorted) {
      by_offset.resize(descriptors.size());
      for (size_t i = 0; i < by_offset.size(); ++i) by_offset[i] = i;
      std::sort(by_offset.begin(), by_offset.end(), [&](size_t a, size_t b) {
        int32_t offset_a = descriptors[a].bytecode_offset;
        int32_t offset_b = descriptors[b].bytecode_offset;
        return offset_a != offset_b ? offset_a < offset_b : a < b;
      });
    }
    // The k-th descriptor in offset order (ties in ordinal order).
    auto nth = [&](size_t k) { return sorted ? k : by_offset[k]; };
    for (size_t k = 1; k < descriptors.size(); ++k) {
      const FunctionDescriptor& previous = descriptors[nth(k - 1)];
      const FunctionDescriptor& next = descriptors[nth(k)];
      if (next.bytecode_offset <
          int64_t{previous.bytecode_offset} + previous.bytecode_length) {
        return InvalidArgumentError(StringPrintf(
            "function_descriptors[%zu] bytecode span [%d, +%d) overlaps "
            "function_descriptors[%zu] bytecode span [%d, +%d); every function "
            "must have its own bytecode",
            nth(k), next.bytecode_offset, next.bytecode_length, nth(k - 1),
            previous.bytecode_offset, previous.bytecode_length));
      }
    }
  }
  const ModuleStateDef& state = def.module_state;
  if (state.global_bytes_capacity < 0 ||
      state.global_bytes_capacity > kMaxGlobalBytes ||
      state.global_ref_count < 0 || state.global_ref_count > kMaxGlobalRefs) {
    return InvalidArgumentError(StringPrintf(
        "module_state asks for %d global bytes and %d global refs; limits are "
        "%lld and %lld",
        state.global_bytes_capacity, state.global_ref_count,
        static_cast<long long>(kMaxGlobalBytes),
        static_cast<long long>(kMaxGlobalRefs)));
  }

  for (size_t i = 0; i < def.rodata_segments.size(); ++i) {
    const RodataSegmentDef& segment = def.rodata_segments[i];
    if (segment.embedded) continue;
    uint64_t base = layout.rodata_base;
    uint64_t offset = segment.external_data_offset;
    uint64_t length = segment.external_data_length;
    if (base > archive.size() || offset > archive.size() - base ||
        length > archive.size() - base - offset) {
      return InvalidArgumentError(StringPrintf(
          "rodata_segments[%zu] external data [%llu, +%llu) from base %llu "
          "lies outside the %zu-byte archive",
          i, static_cast<unsigned long long>(offset),
          static_cast<unsigned long long>(length),
          static_cast<unsigned long long>(base), archive.size()));
    }
  }

  if (def.debug_database) {
    const DebugDatabaseDef& database = *def.debug_database;
    const int64_t count = static_cast<int64_t>(database.location_table.size());
    auto check = [&](int64_t index, bool allow_none, size_t entry) -> Status {
      if ((allow_none && index == -1) || (index >= 0 && index < count)) {
        return Status();
      }
      return InvalidArgumentError(StringPrintf(
          "debug_database location reference %lld (in entry %zu) is outside "
          "the %lld-entry location table",
          static_cast<long long>(index), entry, static_cast<long long>(count)));
    };
    for (size_t i = 0; i < database.location_table.size(); ++i) {
      const LocationDef& location = database.location_table[i];
      if (const auto* call = std::get_if<CallSiteLoc>(&location)) {
        EMBER_RETURN_IF_ERROR(check(call->callee, false, i));
        EMBER_RETURN_IF_ERROR(check(call->caller, false, i));
      } else if (const auto* fused = std::get_if<FusedLoc>(&location)) {
        for (int32_t child : fused->locations) {
          EMBER_RETURN_IF_ERROR(check(child, false, i));
        }
      } else if (const auto* name = std::get_if<NameLoc>(&location)) {
        EMBER_RETURN_IF_ERROR(check(name->child_location, true, i));
      }
    }
    for (size_t i = 0; i < database.functions.size(); ++i) {
      // ModuleFile hashes source map names to match them with exports.
      EMBER_RETURN_IF_ERROR(strings.Charge(database.functions[i].local_name,
                                           "debug_database.functions", i));
      for (const BytecodeLocation& location : database.functions[i].locations) {
        EMBER_RETURN_IF_ERROR(check(location.location, false, i),
                              "reading debug_database.functions[%zu]", i);
      }
    }
  }
  return Status();
}

void ModuleFile::ResolveRodata() {
  rodata_.reserve(def_.rodata_segments.size());
  for (const RodataSegmentDef& segment : def_.rodata_segments) {
    rodata_.push_back(segment.embedded
                          ? segment.embedded_data
                          : archive().subspan(layout_.rodata_base +
                                                  segment.external_data_offset,
                                              segment.external_data_length));
  }
}

void ModuleFile::MapSourceMaps() {
  source_map_of_function_.assign(def_.function_descriptors.size(), -1);
  if (!def_.debug_database) return;
  const auto& maps = def_.debug_database->functions;
  // IREE indexes source maps by internal function ordinal, but iree-compile
  // 3.11 emits maps for only some functions (e.g. just `__init`), so the index
  // is only trustworthy when there is one map per function. Otherwise a map
  // is attached to the exported function of the same name.
  if (maps.size() == def_.function_descriptors.size()) {
    for (size_t i = 0; i < maps.size(); ++i) {
      source_map_of_function_[i] = static_cast<int>(i);
    }
    return;
  }
  // Maps often share one name string; a long one is looked up once.
  IdentityTable<int> found;
  for (size_t i = 0; i < maps.size(); ++i) {
    std::string_view name = maps[i].local_name;
    int match;
    if (name.size() <= kUntrackedStringBytes) {
      match = FindExport(name);
    } else {
      auto [cached, inserted] = found.FindOrInsert(name, -1);
      if (inserted) *cached = FindExport(name);
      match = *cached;
    }
    if (match >= 0) {
      source_map_of_function_[def_.exported_functions[match].internal_ordinal] =
          static_cast<int>(i);
    }
  }
}

namespace {

// The hash of an export name for ModuleFile's export table: FNV-1a over the
// bytes (names are short), seeded and then mixed so that the slot a name
// lands in cannot be worked out ahead of time -- names crafted to collide
// would make building the table quadratic.
uint64_t HashExportName(std::string_view name, uint64_t seed) {
  uint64_t h = 0xCBF29CE484222325u ^ seed;
  for (char c : name) {
    h = (h ^ static_cast<uint8_t>(c)) * 0x100000001B3u;
  }
  h ^= h >> 33;
  h *= uint64_t{0xFF51AFD7ED558CCD};
  h ^= h >> 33;
  return h;
}

}  // namespace

void ModuleFile::IndexExports() {
  // An open-addressing table of export ordinals, at most half full: one
  // allocation however many exports. The first of several exports with one
  // name wins, as in a linear search. An export whose long name string is
  // the very one an earlier export uses adds nothing, so it is skipped
  // without hashing its contents: a hostile file may share one long name
  // among thousands of exports. VerifyModuleDef has bounded the total length
  // of the distinct long names that are hashed.
  const auto& exports = def_.exported_functions;
  size_t capacity = 8;
  while (capacity < 2 * exports.size()) capacity *= 2;
  export_slots_.assign(capacity, -1);
  const size_t mask = capacity - 1;
  export_seed_ = reinterpret_cast<uintptr_t>(export_slots_.data());
  const uint64_t seed = export_seed_;
  IdentityTable<char> seen;
  for (size_t i = 0; i < exports.size(); ++i) {
    std::string_view name = exports[i].local_name;
    if (name.size() > kUntrackedStringBytes &&
        !seen.FindOrInsert(name, 0).second) {
      continue;
    }
    for (size_t at = HashExportName(name, seed) & mask;; at = (at + 1) & mask) {
      int32_t& slot = export_slots_[at];
      if (slot < 0) {
        slot = static_cast<int32_t>(i);
        break;
      }
      if (exports[slot].local_name == name) break;
    }
  }
}

int ModuleFile::FindExport(std::string_view name) const {
  if (export_slots_.empty()) return -1;
  const size_t mask = export_slots_.size() - 1;
  const uint64_t seed = export_seed_;
  for (size_t at = HashExportName(name, seed) & mask;; at = (at + 1) & mask) {
    int32_t slot = export_slots_[at];
    if (slot < 0) return -1;
    if (def_.exported_functions[slot].local_name == name) return slot;
  }
}

const FunctionSignatureDef& ModuleFile::ExportSignature(
    size_t export_ordinal) const {
  return def_.function_signatures[def_.exported_functions[export_ordinal]
                                      .internal_ordinal];
}

std::span<const uint8_t> ModuleFile::FunctionBytecode(size_t ordinal) const {
  const FunctionDescriptor& d = def_.function_descriptors[ordinal];
  return def_.bytecode_data.subspan(d.bytecode_offset, d.bytecode_length);
}

std::string_view ModuleFile::FunctionDebugName(size_t ordinal) const {
  if (ordinal >= source_map_of_function_.size()) return {};
  int map = source_map_of_function_[ordinal];
  if (map < 0) return {};
  return def_.debug_database->functions[map].local_name;
}

std::string ModuleFile::FormatLocation(int32_t index) const {
  int visits_left = kMaxLocationVisits;
  return FormatLocation(index, 0, visits_left);
}

std::string ModuleFile::FormatLocation(int32_t index, int depth,
                                       int& visits_left) const {
  // Locations can nest (call sites, fused, names); cap the depth so a cycle
  // in a hostile file cannot recurse forever, and the total number of calls,
  // because a fused location whose children lead back to it would otherwise
  // branch at every level (K children -> K^depth calls). When the calls run
  // out the text ends in an ellipsis, which also stops the enclosing fused
  // location's search.
  if (visits_left <= 0) return "...";
  --visits_left;
  if (depth > 8 || !def_.debug_database) return std::string();
  const auto& table = def_.debug_database->location_table;
  if (index < 0 || static_cast<size_t>(index) >= table.size()) return {};
  const LocationDef& location = table[index];
  if (const auto* file = std::get_if<FileLineColLoc>(&location)) {
    return StringPrintf("%.*s:%d:%d", static_cast<int>(file->filename.size()),
                        file->filename.data(), file->line, file->column);
  }
  if (const auto* call = std::get_if<CallSiteLoc>(&location)) {
    return FormatLocation(call->callee, depth + 1, visits_left);
  }
  if (const auto* fused = std::get_if<FusedLoc>(&location)) {
    for (int32_t child : fused->locations) {
      std::string text = FormatLocation(child, depth + 1, visits_left);
      if (!text.empty()) return text;
    }
    return {};
  }
  if (const auto* name = std::get_if<NameLoc>(&location)) {
    std::string child =
        FormatLocation(name->child_location, depth + 1, visits_left);
    std::string text(name->name);
    if (!child.empty()) text += "(" + child + ")";
    return text;
  }
  return {};
}

std::string ModuleFile::SourceLocation(size_t ordinal, int32_t pc) const {
  if (ordinal >= source_map_of_function_.size()) return {};
  int map = source_map_of_function_[ordinal];
  if (map < 0) return {};
  // The entry with the greatest bytecode_offset <= pc describes pc.
  const BytecodeLocation* best = nullptr;
  for (const BytecodeLocation& location :
       def_.debug_database->functions[map].locations) {
    if (location.bytecode_offset <= pc &&
        (!best || location.bytecode_offset >= best->bytecode_offset)) {
      best = &location;
    }
  }
  return best ? FormatLocation(best->location) : std::string();
}

}  // namespace ember::vm::bytecode
