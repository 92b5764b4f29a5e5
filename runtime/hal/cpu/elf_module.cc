#include "runtime/hal/cpu/elf_module.h"

#include <sys/mman.h>
#include <unistd.h>

#include <bit>
#include <cinttypes>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

namespace ember::hal::cpu {
namespace {

static_assert(std::endian::native == std::endian::little,
              "the loader reads and writes ELF fields in host byte order");

// The ELF64 file structures, read with memcpy because the input carries no
// alignment promise.
struct FileHeader {
  uint8_t ident[16];
  uint16_t type;
  uint16_t machine;
  uint32_t version;
  uint64_t entry;
  uint64_t phoff;
  uint64_t shoff;
  uint32_t flags;
  uint16_t ehsize;
  uint16_t phentsize;
  uint16_t phnum;
  uint16_t shentsize;
  uint16_t shnum;
  uint16_t shstrndx;
};
static_assert(sizeof(FileHeader) == 64);
static_assert(offsetof(FileHeader, phoff) == 32);
static_assert(offsetof(FileHeader, ehsize) == 52);

struct ProgramHeader {
  uint32_t type;
  uint32_t flags;
  uint64_t offset;
  uint64_t vaddr;
  uint64_t paddr;
  uint64_t filesz;
  uint64_t memsz;
  uint64_t align;
};
static_assert(sizeof(ProgramHeader) == 56);

constexpr uint64_t kSectionHeaderSize = 64;

struct DynamicEntry {
  int64_t tag;
  uint64_t value;
};
static_assert(sizeof(DynamicEntry) == 16);

constexpr char kElfMagic[4] = {0x7f, 'E', 'L', 'F'};
constexpr uint8_t kElfClass64 = 2;
constexpr uint8_t kElfDataLittle = 1;
constexpr uint16_t kElfTypeDyn = 3;

constexpr uint32_t kPtLoad = 1;
constexpr uint32_t kPtDynamic = 2;
constexpr uint32_t kPtGnuRelro = 0x6474e552;

constexpr uint32_t kPfX = 1;
constexpr uint32_t kPfW = 2;
constexpr uint32_t kPfR = 4;
constexpr uint32_t kPfMask = kPfX | kPfW | kPfR;

enum DynamicTag : int64_t {
  kDtNull = 0,
  kDtPltRelSz = 2,
  kDtHash = 4,
  kDtStrTab = 5,
  kDtSymTab = 6,
  kDtRela = 7,
  kDtRelaSz = 8,
  kDtRelaEnt = 9,
  kDtStrSz = 10,
  kDtSymEnt = 11,
  kDtInit = 12,
  kDtRel = 17,
  kDtRelSz = 18,
  kDtRelEnt = 19,
  kDtPltRel = 20,
  kDtJmpRel = 23,
  kDtInitArray = 25,
  kDtInitArraySz = 27,
};

constexpr uint8_t kStbGlobal = 1;
constexpr uint8_t kStbWeak = 2;
constexpr uint16_t kShnUndef = 0;

// Whether [offset, offset + size) fits in [0, limit), without overflow.
bool Fits(uint64_t offset, uint64_t size, uint64_t limit) {
  return offset <= limit && size <= limit - offset;
}

uint64_t HostPageSize() {
  long size = sysconf(_SC_PAGESIZE);
  return size > 0 ? static_cast<uint64_t>(size) : 4096;
}

uint64_t AlignDown(uint64_t value, uint64_t page) {
  return value & ~(page - 1);
}

int ProtectionOf(uint32_t flags) {
  int prot = PROT_NONE;
  if (flags & kPfMask) prot |= PROT_READ;  // W or X implies read
  if (flags & kPfW) prot |= PROT_WRITE;
  if (flags & kPfX) prot |= PROT_EXEC;
  return prot;
}

uint16_t HostMachine() {
#if defined(__x86_64__)
  return kElfMachineX86_64;
#elif defined(__aarch64__)
  return kElfMachineAArch64;
#else
  return 0;
#endif
}

// The parts of a relocation entry both architectures use, resolved against
// the target: S (symbol address) and the image offset of P.
struct ResolvedRela {
  ElfRela rela;
  uint32_t type;
  uint64_t bias;     // B
  uint64_t symbol;   // S (0 for symbol index 0)
  uint64_t place;    // P, a host address
  size_t image_pos;  // P's offset in target.image
};

Status ResolveRela(const RelocationTarget& target,
                   std::span<const uint8_t> relocations, size_t index,
                   ResolvedRela* out) {
  std::memcpy(&out->rela, relocations.data() + index * sizeof(ElfRela),
              sizeof(ElfRela));
  out->type = static_cast<uint32_t>(out->rela.info);
  out->bias = target.load_address - target.image_vaddr;
  uint64_t symbol_index = out->rela.info >> 32;
  out->symbol = 0;
  if (symbol_index != 0) {
    uint64_t symbol_count = target.symbols.size() / sizeof(ElfSymbol);
    if (symbol_index >= symbol_count) {
      return MakeStatus(StatusCode::kOutOfRange,
                        "relocation %zu names symbol %" PRIu64
                        " of a table of %" PRIu64,
                        index, symbol_index, symbol_count);
    }
    ElfSymbol symbol;
    std::memcpy(&symbol,
                target.symbols.data() + symbol_index * sizeof(ElfSymbol),
                sizeof(symbol));
    out->symbol = out->bias + symbol.value;
  }
  return Status::Ok();
}

// Checks that a `width`-byte write at the relocation's r_offset stays in the
// image and fills in P.
Status CheckPlace(const RelocationTarget& target, size_t index, size_t width,
                  ResolvedRela* resolved) {
  uint64_t offset = resolved->rela.offset;
  if (offset < target.image_vaddr ||
      !Fits(offset - target.image_vaddr, width, target.image.size())) {
    return MakeStatus(StatusCode::kOutOfRange,
                      "relocation %zu writes %zu bytes at 0x%" PRIx64
                      ", outside the image",
                      index, width, offset);
  }
  resolved->image_pos = static_cast<size_t>(offset - target.image_vaddr);
  resolved->place = target.load_address + resolved->image_pos;
  return Status::Ok();
}

Status CheckRelocationTable(std::span<const uint8_t> relocations) {
  if (relocations.size() % sizeof(ElfRela) != 0) {
    return MakeStatus(StatusCode::kInvalidArgument,
                      "relocation table of %zu bytes is not a whole number of "
                      "entries",
                      relocations.size());
  }
  return Status::Ok();
}

void Store64(const RelocationTarget& target, size_t pos, uint64_t value) {
  std::memcpy(target.image.data() + pos, &value, sizeof(value));
}
void Store32(const RelocationTarget& target, size_t pos, uint32_t value) {
  std::memcpy(target.image.data() + pos, &value, sizeof(value));
}

bool FitsSigned32(int64_t value) {
  return value >= std::numeric_limits<int32_t>::min() &&
         value <= std::numeric_limits<int32_t>::max();
}

}  // namespace

Status ApplyX86_64Relocations(const RelocationTarget& target,
                              std::span<const uint8_t> relocations) {
  enum : uint32_t {
    kNone = 0,
    k64 = 1,
    kPc32 = 2,
    kCopy = 5,
    kGlobDat = 6,
    kJumpSlot = 7,
    kRelative = 8,
    k32 = 10,
    k32S = 11,
  };
  EMBER_RETURN_IF_ERROR(CheckRelocationTable(relocations));
  size_t count = relocations.size() / sizeof(ElfRela);
  for (size_t i = 0; i < count; ++i) {
    ResolvedRela r;
    EMBER_RETURN_IF_ERROR(ResolveRela(target, relocations, i, &r));
    size_t width = 0;
    switch (r.type) {
      case kNone: continue;
      case k64:
      case kCopy:
      case kGlobDat:
      case kJumpSlot:
      case kRelative: width = 8; break;
      case kPc32:
      case k32:
      case k32S: width = 4; break;
      default:
        return MakeStatus(StatusCode::kUnimplemented,
                          "x86_64 relocation type %" PRIu32
                          " (entry %zu) is not supported",
                          r.type, i);
    }
    EMBER_RETURN_IF_ERROR(CheckPlace(target, i, width, &r));
    uint64_t addend = static_cast<uint64_t>(r.rela.addend);
    switch (r.type) {
      case kRelative: Store64(target, r.image_pos, r.bias + addend); break;
      case kCopy:
      case kGlobDat:
      case kJumpSlot: Store64(target, r.image_pos, r.symbol); break;
      case k64: Store64(target, r.image_pos, r.symbol + addend); break;
      case k32: {
        uint64_t value = r.symbol + addend;
        if (value > std::numeric_limits<uint32_t>::max()) {
          return MakeStatus(StatusCode::kOutOfRange,
                            "R_X86_64_32 value 0x%" PRIx64
                            " (entry %zu) does not fit 32 bits",
                            value, i);
        }
        Store32(target, r.image_pos, static_cast<uint32_t>(value));
        break;
      }
      case k32S:
      case kPc32: {
        uint64_t value = r.symbol + addend;
        if (r.type == kPc32) value -= r.place;
        int64_t signed_value = static_cast<int64_t>(value);
        if (!FitsSigned32(signed_value)) {
          return MakeStatus(StatusCode::kOutOfRange,
                            "x86_64 relocation type %" PRIu32 " value %" PRId64
                            " (entry %zu) does not fit 32 "
                            "signed bits",
                            r.type, signed_value, i);
        }
        Store32(target, r.image_pos, static_cast<uint32_t>(value));
        break;
      }
    }
  }
  return Status::Ok();
}

Status ApplyAArch64Relocations(const RelocationTarget& target,
                               std::span<const uint8_t> relocations) {
  enum : uint32_t {
    kNone = 0,
    kAbs64 = 257,
    kGlobDat = 1025,
    kJumpSlot = 1026,
    kRelative = 1027,
  };
  EMBER_RETURN_IF_ERROR(CheckRelocationTable(relocations));
  size_t count = relocations.size() / sizeof(ElfRela);
  for (size_t i = 0; i < count; ++i) {
    ResolvedRela r;
    EMBER_RETURN_IF_ERROR(ResolveRela(target, relocations, i, &r));
    if (r.type == kNone) continue;
    if (r.type != kAbs64 && r.type != kGlobDat && r.type != kJumpSlot &&
        r.type != kRelative) {
      return MakeStatus(StatusCode::kUnimplemented,
                        "aarch64 relocation type %" PRIu32
                        " (entry %zu) is not supported",
                        r.type, i);
    }
    EMBER_RETURN_IF_ERROR(CheckPlace(target, i, 8, &r));
    uint64_t addend = static_cast<uint64_t>(r.rela.addend);
    switch (r.type) {
      case kAbs64: {
        // ABS64 accumulates onto what the linker left in place.
        uint64_t existing;
        std::memcpy(&existing, target.image.data() + r.image_pos, 8);
        Store64(target, r.image_pos, existing + r.symbol + addend);
        break;
      }
      case kGlobDat:
      case kJumpSlot: Store64(target, r.image_pos, r.symbol + addend); break;
      case kRelative: Store64(target, r.image_pos, r.bias + addend); break;
    }
  }
  return Status::Ok();
}

Result<std::unique_ptr<ElfModule>> ElfModule::Load(
    std::span<const uint8_t> data) {
  std::unique_ptr<ElfModule> module(new ElfModule());
  EMBER_RETURN_IF_ERROR(module->ParseAndMap(data), "loading an embedded ELF");
  EMBER_RETURN_IF_ERROR(module->ParseDynamic(),
                        "reading the ELF dynamic section");
  EMBER_RETURN_IF_ERROR(module->CheckNoImports());
  EMBER_RETURN_IF_ERROR(module->Relocate(), "relocating the ELF");
  EMBER_RETURN_IF_ERROR(module->Protect(), "protecting the ELF segments");
  return module;
}

ElfModule::~ElfModule() {
  if (base_ != nullptr) munmap(base_, span_size_);
}

Status ElfModule::ParseAndMap(std::span<const uint8_t> data) {
  FileHeader header;
  if (data.size() < sizeof(header)) {
    return MakeStatus(StatusCode::kInvalidArgument,
                      "%zu bytes are too few for an ELF header", data.size());
  }
  std::memcpy(&header, data.data(), sizeof(header));
  if (std::memcmp(header.ident, kElfMagic, 4) != 0) {
    return InvalidArgumentError("data does not start with the ELF magic");
  }
  if (header.ident[4] != kElfClass64) {
    return FailedPreconditionError("ELF class is not 64-bit");
  }
  if (header.ident[5] != kElfDataLittle) {
    return FailedPreconditionError("ELF data is not little-endian");
  }
  if (header.version != 1) {
    return MakeStatus(StatusCode::kFailedPrecondition,
                      "ELF version %" PRIu32 " is not 1", header.version);
  }
  if (HostMachine() == 0 || header.machine != HostMachine()) {
    return MakeStatus(StatusCode::kFailedPrecondition,
                      "ELF machine %u is not the host's (%u)",
                      unsigned{header.machine}, unsigned{HostMachine()});
  }
  machine_ = header.machine;
  if (header.type != kElfTypeDyn) {
    return MakeStatus(StatusCode::kFailedPrecondition,
                      "ELF type %u is not a shared object (ET_DYN)",
                      unsigned{header.type});
  }
  if (header.ehsize != sizeof(FileHeader) ||
      header.phentsize != sizeof(ProgramHeader) ||
      header.shentsize != kSectionHeaderSize) {
    return MakeStatus(StatusCode::kInvalidArgument,
                      "ELF entry sizes (header %u, program header %u, section "
                      "header %u) are not the ELF64 ones",
                      unsigned{header.ehsize}, unsigned{header.phentsize},
                      unsigned{header.shentsize});
  }
  // phnum and shnum are 16-bit, so the products cannot overflow.
  if (header.phnum == 0 || header.phoff == 0 ||
      !Fits(header.phoff, uint64_t{header.phnum} * sizeof(ProgramHeader),
            data.size())) {
    return MakeStatus(StatusCode::kInvalidArgument,
                      "program header table (%u entries at %" PRIu64
                      ") is empty or outside the %zu-byte file",
                      unsigned{header.phnum}, header.phoff, data.size());
  }
  if (header.shnum == 0 || header.shoff == 0 ||
      !Fits(header.shoff, uint64_t{header.shnum} * kSectionHeaderSize,
            data.size())) {
    return MakeStatus(StatusCode::kInvalidArgument,
                      "section header table (%u entries at %" PRIu64
                      ") is empty or outside the %zu-byte file",
                      unsigned{header.shnum}, header.shoff, data.size());
  }

  const uint64_t page = HostPageSize();
  uint64_t vaddr_min = std::numeric_limits<uint64_t>::max();
  uint64_t vaddr_max = 0;
  size_t dynamic_count = 0;
  std::vector<std::pair<size_t, ProgramHeader>> loads;
  std::vector<ProgramHeader> others;
  for (uint16_t i = 0; i < header.phnum; ++i) {
    ProgramHeader ph;
    std::memcpy(&ph, data.data() + header.phoff + i * sizeof(ProgramHeader),
                sizeof(ph));
    if (ph.type == kPtDynamic || ph.type == kPtGnuRelro) {
      others.push_back(ph);
      continue;
    }
    if (ph.type != kPtLoad) continue;
    if (!Fits(ph.offset, ph.filesz, data.size())) {
      return MakeStatus(StatusCode::kInvalidArgument,
                        "PT_LOAD %u file range [%" PRIu64 ", +%" PRIu64
                        ") is outside the %zu-byte file",
                        unsigned{i}, ph.offset, ph.filesz, data.size());
    }
    if (ph.filesz > ph.memsz) {
      return MakeStatus(StatusCode::kInvalidArgument,
                        "PT_LOAD %u has p_filesz %" PRIu64
                        " > p_memsz %" PRIu64,
                        unsigned{i}, ph.filesz, ph.memsz);
    }
    if ((ph.flags & kPfW) && (ph.flags & kPfX)) {
      return MakeStatus(StatusCode::kPermissionDenied,
                        "PT_LOAD %u is writable and executable", unsigned{i});
    }
    if (ph.memsz == 0) continue;
    // The end, rounded up to a page, must not wrap.
    if (!Fits(ph.vaddr, ph.memsz,
              std::numeric_limits<uint64_t>::max() - page)) {
      return MakeStatus(StatusCode::kInvalidArgument,
                        "PT_LOAD %u address range wraps", unsigned{i});
    }
    if (segment_count_ == kMaxElfLoadSegments) {
      return MakeStatus(StatusCode::kResourceExhausted,
                        "more than %zu PT_LOAD segments", kMaxElfLoadSegments);
    }
    segments_[segment_count_++] = {ph.vaddr, ph.memsz, ph.flags & kPfMask};
    loads.push_back({i, ph});
    vaddr_min = std::min(vaddr_min, AlignDown(ph.vaddr, page));
    vaddr_max =
        std::max(vaddr_max, AlignDown(ph.vaddr + ph.memsz + page - 1, page));
  }
  if (segment_count_ == 0) {
    return InvalidArgumentError("the ELF has no non-empty PT_LOAD segment");
  }
  if (vaddr_max - vaddr_min > kMaxElfImageSpan) {
    return MakeStatus(StatusCode::kResourceExhausted,
                      "the ELF spans %" PRIu64
                      " bytes of address space; at "
                      "most %" PRIu64 " are allowed",
                      vaddr_max - vaddr_min, kMaxElfImageSpan);
  }
  // Protection is per page: two segments that share a page must agree on it.
  for (size_t a = 0; a < segment_count_; ++a) {
    for (size_t b = a + 1; b < segment_count_; ++b) {
      const Segment& x = segments_[a];
      const Segment& y = segments_[b];
      uint64_t x_begin = AlignDown(x.vaddr, page);
      uint64_t x_end = AlignDown(x.vaddr + x.memsz + page - 1, page);
      uint64_t y_begin = AlignDown(y.vaddr, page);
      uint64_t y_end = AlignDown(y.vaddr + y.memsz + page - 1, page);
      bool overlap = x_begin < y_end && y_begin < x_end;
      if (overlap && ProtectionOf(x.flags) != ProtectionOf(y.flags)) {
        return MakeStatus(StatusCode::kInvalidArgument,
                          "PT_LOAD segments at 0x%" PRIx64 " and 0x%" PRIx64
                          " share a page but not their protection",
                          x.vaddr, y.vaddr);
      }
    }
  }
  vaddr_min_ = vaddr_min;
  span_size_ = static_cast<size_t>(vaddr_max - vaddr_min);

  for (const ProgramHeader& ph : others) {
    if (ph.type == kPtDynamic) {
      if (++dynamic_count > 1) {
        return InvalidArgumentError("the ELF has more than one PT_DYNAMIC");
      }
      if (ph.filesz < sizeof(DynamicEntry) ||
          !RangeInSegment(ph.vaddr, ph.filesz, /*need_exec=*/false)) {
        return MakeStatus(StatusCode::kInvalidArgument,
                          "PT_DYNAMIC [0x%" PRIx64 ", +%" PRIu64
                          ") is not inside a readable loaded segment",
                          ph.vaddr, ph.filesz);
      }
      dynamic_ = {ph.vaddr, ph.filesz};
    } else if (ph.memsz != 0) {
      // RELRO only ever turns writable data read-only: it must not reach into
      // code or read-only segments (or their pages).
      uint64_t begin = AlignDown(ph.vaddr, page);
      bool inside_writable = false;
      for (size_t s = 0; s < segment_count_; ++s) {
        const Segment& seg = segments_[s];
        if (!(seg.flags & kPfW)) continue;
        if (ph.vaddr >= seg.vaddr &&
            Fits(ph.vaddr - seg.vaddr, ph.memsz, seg.memsz)) {
          inside_writable = true;
        }
      }
      if (!inside_writable || begin < vaddr_min_) {
        return MakeStatus(StatusCode::kInvalidArgument,
                          "PT_GNU_RELRO [0x%" PRIx64 ", +%" PRIu64
                          ") is not inside a writable segment",
                          ph.vaddr, ph.memsz);
      }
      if (relro_count_ == kMaxElfLoadSegments) {
        return InvalidArgumentError("too many PT_GNU_RELRO segments");
      }
      relro_[relro_count_++] = {ph.vaddr, ph.memsz};
    }
  }
  if (dynamic_count == 0) {
    return InvalidArgumentError("the ELF has no PT_DYNAMIC segment");
  }

  void* mapping =
      mmap(nullptr, span_size_, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping == MAP_FAILED) {
    return MakeStatus(StatusCode::kResourceExhausted,
                      "cannot reserve %zu bytes for the ELF image", span_size_);
  }
  base_ = static_cast<uint8_t*>(mapping);
  if (mprotect(base_, span_size_, PROT_READ | PROT_WRITE) != 0) {
    return InternalError("cannot make the ELF image writable");
  }
  // Fresh anonymous pages are zero, which is what BSS needs.
  for (const auto& [index, ph] : loads) {
    if (ph.filesz == 0) continue;
    std::memcpy(base_ + (ph.vaddr - vaddr_min_), data.data() + ph.offset,
                ph.filesz);
  }
  return Status::Ok();
}

bool ElfModule::RangeInSegment(uint64_t vaddr, uint64_t size,
                               bool need_exec) const {
  for (size_t i = 0; i < segment_count_; ++i) {
    const Segment& seg = segments_[i];
    uint32_t wanted = need_exec ? kPfX : kPfMask;
    if (!(seg.flags & wanted)) continue;
    if (vaddr >= seg.vaddr && Fits(vaddr - seg.vaddr, size, seg.memsz)) {
      return true;
    }
  }
  return false;
}

bool ElfModule::VaddrIsExecutable(uint64_t vaddr) const {
  // A function needs at least one byte of code.
  return RangeInSegment(vaddr, 1, /*need_exec=*/true);
}

bool ElfModule::ReadImage(uint64_t vaddr, void* out, size_t size) const {
  if (!RangeInSegment(vaddr, size, /*need_exec=*/false)) return false;
  std::memcpy(out, base_ + (vaddr - vaddr_min_), size);
  return true;
}

std::span<const uint8_t> ElfModule::ImageBytes(const Range& range) const {
  if (range.size == 0) return {};
  return {base_ + (range.vaddr - vaddr_min_), static_cast<size_t>(range.size)};
}

bool ElfModule::ReadString(uint32_t offset, std::string_view* out) const {
  if (offset >= strtab_.size) return false;
  std::span<const uint8_t> table = ImageBytes(strtab_);
  const uint8_t* begin = table.data() + offset;
  const void* end = std::memchr(begin, 0, table.size() - offset);
  if (end == nullptr) return false;
  *out = std::string_view(reinterpret_cast<const char*>(begin),
                          static_cast<const uint8_t*>(end) - begin);
  return true;
}

bool ElfModule::ReadSymbol(uint64_t index, ElfSymbol* out) const {
  if (index >= symbol_count_) return false;
  std::memcpy(out, ImageBytes(symtab_).data() + index * sizeof(ElfSymbol),
              sizeof(ElfSymbol));
  return true;
}

Status ElfModule::ParseDynamic() {
  bool has_strtab = false, has_strsz = false, has_symtab = false,
       has_hash = false, has_rela = false, has_relasz = false,
       has_jmprel = false, has_pltrelsz = false, has_init_array = false,
       has_init_arraysz = false;
  uint64_t symtab = 0, hash = 0;
  size_t entry_count = dynamic_.size / sizeof(DynamicEntry);
  for (size_t i = 0; i < entry_count; ++i) {
    DynamicEntry entry;
    if (!ReadImage(dynamic_.vaddr + i * sizeof(DynamicEntry), &entry,
                   sizeof(entry))) {
      return InternalError("dynamic entry outside the validated range");
    }
    if (entry.tag == kDtNull) break;
    switch (entry.tag) {
      case kDtStrTab:
        has_strtab = true;
        strtab_.vaddr = entry.value;
        break;
      case kDtStrSz:
        has_strsz = true;
        strtab_.size = entry.value;
        break;
      case kDtSymTab:
        has_symtab = true;
        symtab = entry.value;
        break;
      case kDtHash:
        has_hash = true;
        hash = entry.value;
        break;
      case kDtRela:
        has_rela = true;
        rela_.vaddr = entry.value;
        break;
      case kDtRelaSz:
        has_relasz = true;
        rela_.size = entry.value;
        break;
      case kDtJmpRel:
        has_jmprel = true;
        jmprel_.vaddr = entry.value;
        break;
      case kDtPltRelSz:
        has_pltrelsz = true;
        jmprel_.size = entry.value;
        break;
      case kDtInit: init_ = entry.value; break;
      case kDtInitArray:
        has_init_array = true;
        init_array_.vaddr = entry.value;
        break;
      case kDtInitArraySz:
        has_init_arraysz = true;
        init_array_.size = entry.value;
        break;
      case kDtSymEnt:
        if (entry.value != sizeof(ElfSymbol)) {
          return MakeStatus(StatusCode::kInvalidArgument,
                            "DT_SYMENT is %" PRIu64 ", not %zu", entry.value,
                            sizeof(ElfSymbol));
        }
        break;
      case kDtRelaEnt:
        if (entry.value != sizeof(ElfRela)) {
          return MakeStatus(StatusCode::kInvalidArgument,
                            "DT_RELAENT is %" PRIu64 ", not %zu", entry.value,
                            sizeof(ElfRela));
        }
        break;
      case kDtPltRel:
        if (entry.value != static_cast<uint64_t>(kDtRela)) {
          return FailedPreconditionError(
              "DT_PLTREL is not DT_RELA; only RELA relocations are supported");
        }
        break;
      case kDtRel:
      case kDtRelSz:
      case kDtRelEnt:
        return FailedPreconditionError(
            "the ELF uses DT_REL relocations; only RELA are supported");
      default: break;  // tags the loader has no use for
    }
  }

  if (!has_strtab || !has_strsz || !has_symtab || !has_hash) {
    return InvalidArgumentError(
        "the dynamic section lacks one of DT_STRTAB, DT_STRSZ, DT_SYMTAB, "
        "DT_HASH");
  }
  if (strtab_.size == 0 ||
      !RangeInSegment(strtab_.vaddr, strtab_.size, /*need_exec=*/false)) {
    return MakeStatus(StatusCode::kInvalidArgument,
                      "DT_STRTAB [0x%" PRIx64 ", +%" PRIu64
                      ") is empty or not inside a readable segment",
                      strtab_.vaddr, strtab_.size);
  }
  uint32_t hash_header[2];
  if (!ReadImage(hash, hash_header, sizeof(hash_header))) {
    return MakeStatus(StatusCode::kInvalidArgument,
                      "DT_HASH 0x%" PRIx64 " is not inside a readable segment",
                      hash);
  }
  bucket_count_ = hash_header[0];
  uint32_t chain_count = hash_header[1];
  // Both counts are 32-bit: the sizes below cannot overflow 64 bits.
  uint64_t hash_size =
      (2 + uint64_t{bucket_count_} + uint64_t{chain_count}) * 4;
  if (bucket_count_ == 0 || chain_count == 0 ||
      !RangeInSegment(hash, hash_size, /*need_exec=*/false)) {
    return MakeStatus(StatusCode::kInvalidArgument,
                      "DT_HASH table (%" PRIu32 " buckets, %" PRIu32
                      " chains) is empty or not inside a readable segment",
                      bucket_count_, chain_count);
  }
  hash_vaddr_ = hash;
  symtab_ = {symtab, uint64_t{chain_count} * sizeof(ElfSymbol)};
  if (!RangeInSegment(symtab_.vaddr, symtab_.size, /*need_exec=*/false)) {
    return MakeStatus(StatusCode::kInvalidArgument,
                      "DT_SYMTAB [0x%" PRIx64 ", %" PRIu32
                      " symbols) is not inside a readable segment",
                      symtab, chain_count);
  }
  symbol_count_ = chain_count;

  struct SizedTable {
    const char* name;
    bool has_table;
    bool has_size;
    uint64_t entry_size;
    Range* range;
  };
  SizedTable tables[] = {
      {"DT_RELA", has_rela, has_relasz, sizeof(ElfRela), &rela_},
      {"DT_JMPREL", has_jmprel, has_pltrelsz, sizeof(ElfRela), &jmprel_},
      {"DT_INIT_ARRAY", has_init_array, has_init_arraysz, sizeof(uint64_t),
       &init_array_},
  };
  for (SizedTable& table : tables) {
    if (!table.has_table) {
      if (table.has_size && table.range->size != 0) {
        return MakeStatus(StatusCode::kInvalidArgument,
                          "%s has a size but no address", table.name);
      }
      *table.range = {};
      continue;
    }
    if (!table.has_size) {
      return MakeStatus(StatusCode::kInvalidArgument,
                        "%s has an address but no size", table.name);
    }
    if (table.range->size % table.entry_size != 0 ||
        !RangeInSegment(table.range->vaddr, table.range->size,
                        /*need_exec=*/false)) {
      return MakeStatus(StatusCode::kInvalidArgument,
                        "%s [0x%" PRIx64 ", +%" PRIu64
                        ") is not whole entries inside a readable segment",
                        table.name, table.range->vaddr, table.range->size);
    }
  }
  if (init_ != 0 && !VaddrIsExecutable(init_)) {
    return MakeStatus(StatusCode::kInvalidArgument,
                      "DT_INIT 0x%" PRIx64 " is not in an executable segment",
                      init_);
  }
  return Status::Ok();
}

Status ElfModule::CheckNoImports() const {
  // Index 0 is the reserved null symbol, undefined by definition.
  for (size_t i = 1; i < symbol_count_; ++i) {
    ElfSymbol symbol;
    if (!ReadSymbol(i, &symbol)) return InternalError("symbol out of range");
    if (symbol.section_index != kShnUndef) continue;
    std::string_view name;
    if (!ReadString(symbol.name, &name)) name = "<unreadable name>";
    return MakeStatus(StatusCode::kUnavailable,
                      "the ELF imports symbol %zu '%.*s'; embedded ELFs "
                      "cannot import symbols",
                      i, static_cast<int>(std::min<size_t>(name.size(), 200)),
                      name.data());
  }
  return Status::Ok();
}

Status ElfModule::Relocate() {
  RelocationTarget target;
  target.image = {base_, span_size_};
  target.image_vaddr = vaddr_min_;
  target.load_address = reinterpret_cast<uintptr_t>(base_);
  target.symbols = ImageBytes(symtab_);
  auto apply = machine_ == kElfMachineX86_64 ? ApplyX86_64Relocations
                                             : ApplyAArch64Relocations;
  EMBER_RETURN_IF_ERROR(apply(target, ImageBytes(rela_)), "applying DT_RELA");
  EMBER_RETURN_IF_ERROR(apply(target, ImageBytes(jmprel_)),
                        "applying DT_JMPREL");
  return Status::Ok();
}

Status ElfModule::Protect() {
  const uint64_t page = HostPageSize();
  // Gaps between segments become inaccessible again.
  if (mprotect(base_, span_size_, PROT_NONE) != 0) {
    return InternalError("mprotect of the ELF image failed");
  }
  for (size_t i = 0; i < segment_count_; ++i) {
    const Segment& seg = segments_[i];
    uint64_t begin = AlignDown(seg.vaddr, page);
    uint64_t end = AlignDown(seg.vaddr + seg.memsz + page - 1, page);
    uint8_t* address = base_ + (begin - vaddr_min_);
    if (mprotect(address, end - begin, ProtectionOf(seg.flags)) != 0) {
      return MakeStatus(StatusCode::kInternal,
                        "mprotect of the segment at 0x%" PRIx64 " failed",
                        seg.vaddr);
    }
    if (seg.flags & kPfX) {
      __builtin___clear_cache(reinterpret_cast<char*>(address),
                              reinterpret_cast<char*>(address + (end - begin)));
    }
  }
  // Only whole pages inside the RELRO range turn read-only, so the writable
  // data sharing its last page stays writable.
  for (size_t i = 0; i < relro_count_; ++i) {
    uint64_t begin = AlignDown(relro_[i].vaddr, page);
    uint64_t end = AlignDown(relro_[i].vaddr + relro_[i].size, page);
    if (end <= begin) continue;
    if (mprotect(base_ + (begin - vaddr_min_), end - begin, PROT_READ) != 0) {
      return InternalError("mprotect of PT_GNU_RELRO failed");
    }
  }
  return Status::Ok();
}

Status ElfModule::RunInitializers() {
  if (initialized_) return Status::Ok();
  initialized_ = true;
  using InitFunction = void (*)();
  std::vector<InitFunction> functions;
  if (init_ != 0) {
    // DT_INIT is a virtual address; ParseDynamic checked it is code.
    functions.push_back(reinterpret_cast<InitFunction>(
        reinterpret_cast<uintptr_t>(base_) + (init_ - vaddr_min_)));
  }
  // DT_INIT_ARRAY entries are addresses the relocations already rebased.
  // All are checked before any runs, so a bad entry runs nothing.
  size_t count = init_array_.size / sizeof(uint64_t);
  for (size_t i = 0; i < count; ++i) {
    uint64_t entry;
    if (!ReadImage(init_array_.vaddr + i * sizeof(entry), &entry,
                   sizeof(entry))) {
      return InternalError("DT_INIT_ARRAY entry outside the validated range");
    }
    if (entry == 0 || entry == std::numeric_limits<uint64_t>::max()) continue;
    if (!IsExecutable(reinterpret_cast<const void*>(entry))) {
      return MakeStatus(StatusCode::kInvalidArgument,
                        "DT_INIT_ARRAY entry %zu (0x%" PRIx64
                        ") is not in an executable segment",
                        i, entry);
    }
    functions.push_back(reinterpret_cast<InitFunction>(entry));
  }
  for (InitFunction function : functions) function();
  return Status::Ok();
}

bool ElfModule::IsReadable(const void* address, size_t size) const {
  uintptr_t value = reinterpret_cast<uintptr_t>(address);
  uintptr_t base = reinterpret_cast<uintptr_t>(base_);
  if (value < base || value - base >= span_size_) return false;
  return RangeInSegment(vaddr_min_ + (value - base), size,
                        /*need_exec=*/false);
}

bool ElfModule::IsExecutable(const void* address) const {
  uintptr_t value = reinterpret_cast<uintptr_t>(address);
  uintptr_t base = reinterpret_cast<uintptr_t>(base_);
  if (value < base || value - base >= span_size_) return false;
  return VaddrIsExecutable(vaddr_min_ + (value - base));
}

Result<void*> ElfModule::LookupSymbol(std::string_view name) const {
  // The System V ELF hash.
  uint32_t hash = 0;
  for (char c : name) {
    hash = (hash << 4) + static_cast<uint8_t>(c);
    uint32_t high = hash & 0xf0000000u;
    if (high != 0) hash ^= high >> 24;
    hash &= ~high;
  }
  uint64_t buckets = hash_vaddr_ + 8;
  uint64_t chains = buckets + uint64_t{bucket_count_} * 4;
  uint32_t index;
  if (!ReadImage(buckets + uint64_t{hash % bucket_count_} * 4, &index, 4)) {
    return InternalError("hash bucket outside the validated table");
  }
  // A well-formed chain visits each symbol at most once; a longer walk means
  // the (hostile or relocated-over) chain has a cycle.
  for (size_t steps = 0; index != 0; ++steps) {
    if (index >= symbol_count_ || steps >= symbol_count_) {
      return MakeStatus(StatusCode::kInvalidArgument,
                        "the ELF hash chain for '%.*s' is corrupt",
                        static_cast<int>(name.size()), name.data());
    }
    ElfSymbol symbol;
    if (!ReadSymbol(index, &symbol)) return InternalError("symbol range");
    uint8_t bind = symbol.info >> 4;
    std::string_view symbol_name;
    if ((bind == kStbGlobal || bind == kStbWeak) &&
        symbol.section_index != kShnUndef &&
        ReadString(symbol.name, &symbol_name) && symbol_name == name) {
      if (symbol.value < vaddr_min_ ||
          symbol.value - vaddr_min_ >= span_size_) {
        return MakeStatus(
            StatusCode::kInvalidArgument,
            "symbol '%.*s' (0x%" PRIx64 ") lies outside the image",
            static_cast<int>(name.size()), name.data(), symbol.value);
      }
      return static_cast<void*>(base_ + (symbol.value - vaddr_min_));
    }
    if (!ReadImage(chains + uint64_t{index} * 4, &index, 4)) {
      return InternalError("hash chain outside the validated table");
    }
  }
  return MakeStatus(StatusCode::kNotFound,
                    "the ELF exports no symbol named '%.*s'",
                    static_cast<int>(name.size()), name.data());
}

}  // namespace ember::hal::cpu
