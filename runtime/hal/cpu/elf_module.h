// ElfModule: a loader for the embedded ELF shared objects that IREE's llvm-cpu
// backend links its kernels into (format `embedded-elf-<arch>`).
//
// The input comes from a .vmfb the user hands us, so it is treated as hostile
// until proven otherwise: every offset, size and pointer the file states is
// checked with overflow-safe arithmetic before it is used, and every read of
// loaded memory after validation is bounds-checked again (relocations may
// rewrite the very tables we validated). What the loader accepts:
//
//   * ELF64, little-endian, version 1, ET_DYN for the host machine, with the
//     exact header entry sizes and in-bounds program/section header tables;
//   * PT_LOAD segments that fit the file and a bounded address span, never
//     writable and executable at once; one PT_DYNAMIC inside a loaded segment;
//   * dynamic tags STRTAB/STRSZ, SYMTAB/SYMENT, HASH (System V), RELA,
//     JMPREL (RELA only), INIT, INIT_ARRAY, each range inside a readable
//     segment; no undefined symbols (the embedded form has no imports).
//
// Loading maps the image, copies the segments, relocates and protects it,
// but runs none of its code: RunInitializers() is a separate step, so callers
// that only want to validate (tests, fuzzers) never execute the input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "runtime/base/status.h"

namespace ember::hal::cpu {

// e_machine values this loader knows.
inline constexpr uint16_t kElfMachineX86_64 = 62;
inline constexpr uint16_t kElfMachineAArch64 = 183;

// The image the loader accepts at most: kernels are small, and a bound keeps a
// hostile p_memsz from reserving the address space.
inline constexpr uint64_t kMaxElfImageSpan = uint64_t{256} << 20;
// More PT_LOAD segments than this is not something a linker emits for a
// kernel library; the bound keeps the overlap checks cheap.
inline constexpr size_t kMaxElfLoadSegments = 64;

// One Elf64_Rela, as the file stores it.
struct ElfRela {
  uint64_t offset;
  uint64_t info;
  int64_t addend;
};
static_assert(sizeof(ElfRela) == 24);

// One Elf64_Sym, as the file stores it.
struct ElfSymbol {
  uint32_t name;
  uint8_t info;
  uint8_t other;
  uint16_t section_index;
  uint64_t value;
  uint64_t size;
};
static_assert(sizeof(ElfSymbol) == 24);

// What relocation needs to know about an image, independent of where (or
// whether) it is mapped, so the arithmetic can be tested on plain buffers.
struct RelocationTarget {
  // The bytes of the image; image[0] holds ELF virtual address image_vaddr.
  std::span<uint8_t> image;
  uint64_t image_vaddr = 0;
  // The host address image[0] lives at (or pretends to, in tests): the load
  // bias B is load_address - image_vaddr.
  uint64_t load_address = 0;
  // The raw dynamic symbol table (a multiple of sizeof(ElfSymbol)); may alias
  // `image`, so entries are read one at a time.
  std::span<const uint8_t> symbols;
};

// Applies the x86_64 RELA relocations in `relocations` (raw bytes, a multiple
// of sizeof(ElfRela), possibly aliasing the image) to `target`. Supported:
// NONE, 64, PC32, COPY, GLOB_DAT, JUMP_SLOT, RELATIVE, 32, 32S. Every write is
// checked to lie in the image, every symbol index against the table and every
// 32-bit value to fit; anything else is UNIMPLEMENTED.
Status ApplyX86_64Relocations(const RelocationTarget& target,
                              std::span<const uint8_t> relocations);

// The same for aarch64: NONE, ABS64 (*P += S + A), GLOB_DAT and JUMP_SLOT
// (S + A), RELATIVE (B + A). Pure arithmetic, so it is tested on x86 hosts.
Status ApplyAArch64Relocations(const RelocationTarget& target,
                               std::span<const uint8_t> relocations);

// A loaded (mapped, relocated, protected) embedded ELF. Unmaps on destruction.
class ElfModule {
 public:
  // Validates `data` (which need not be aligned and is not retained) and
  // loads it. Runs no code from it.
  static Result<std::unique_ptr<ElfModule>> Load(std::span<const uint8_t> data);

  ~ElfModule();
  ElfModule(const ElfModule&) = delete;
  ElfModule& operator=(const ElfModule&) = delete;

  // Runs DT_INIT and then the DT_INIT_ARRAY entries (0 and -1 skipped), each
  // checked first to point into an executable segment. At most once; later
  // calls do nothing. This executes code from the input.
  Status RunInitializers();

  // The host address of the defined GLOBAL or WEAK dynamic symbol `name`,
  // found through the System V hash table. NOT_FOUND when absent.
  Result<void*> LookupSymbol(std::string_view name) const;

  // Whether [address, address + size) lies inside one readable segment.
  bool IsReadable(const void* address, size_t size) const;
  // Whether `address` lies inside an executable segment.
  bool IsExecutable(const void* address) const;

  const uint8_t* image_base() const { return base_; }
  size_t image_size() const { return span_size_; }
  size_t symbol_count() const { return symbol_count_; }

 private:
  struct Segment {
    uint64_t vaddr;
    uint64_t memsz;
    uint32_t flags;  // PF_* bits
  };
  struct Range {
    uint64_t vaddr = 0;
    uint64_t size = 0;
  };

  ElfModule() = default;

  // The loading steps, in order.
  Status ParseAndMap(std::span<const uint8_t> data);
  Status ParseDynamic();
  Status CheckNoImports() const;
  Status Relocate();
  Status Protect();

  // Whether [vaddr, vaddr + size) lies inside one readable (W and X imply R)
  // or, with need_exec, one executable segment.
  bool RangeInSegment(uint64_t vaddr, uint64_t size, bool need_exec) const;
  bool VaddrIsExecutable(uint64_t vaddr) const;
  // Copies `size` bytes at image-relative vaddr into `out`; false when out of
  // the image.
  bool ReadImage(uint64_t vaddr, void* out, size_t size) const;
  // The NUL-terminated string at `offset` in the dynamic string table, or
  // false when it does not end inside the table.
  bool ReadString(uint32_t offset, std::string_view* out) const;
  bool ReadSymbol(uint64_t index, ElfSymbol* out) const;
  std::span<const uint8_t> ImageBytes(const Range& range) const;

  uint8_t* base_ = nullptr;  // the mapping; host address of vaddr_min_
  size_t span_size_ = 0;
  uint64_t vaddr_min_ = 0;
  uint16_t machine_ = 0;

  Segment segments_[kMaxElfLoadSegments] = {};
  size_t segment_count_ = 0;
  Range relro_[kMaxElfLoadSegments] = {};
  size_t relro_count_ = 0;
  Range dynamic_;

  Range strtab_;
  Range symtab_;
  uint64_t hash_vaddr_ = 0;
  uint32_t bucket_count_ = 0;
  size_t symbol_count_ = 0;  // nchain of DT_HASH
  Range rela_;
  Range jmprel_;
  uint64_t init_ = 0;
  Range init_array_;
  bool initialized_ = false;
};

}  // namespace ember::hal::cpu
