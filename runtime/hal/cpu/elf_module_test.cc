#include "runtime/hal/cpu/elf_module.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "runtime/hal/cpu/elf_testing_internal.h"
#include "runtime/testing/corpus.h"

namespace ember::hal::cpu {
namespace {

using Bytes = std::vector<uint8_t>;

template <typename T>
T Get(const Bytes& bytes, size_t offset) {
  T value;
  std::memcpy(&value, bytes.data() + offset, sizeof(T));
  return value;
}
template <typename T>
void Put(Bytes& bytes, size_t offset, T value) {
  std::memcpy(bytes.data() + offset, &value, sizeof(T));
}

// Embedded ELFs of the compiled corpus; matmul's is the usual subject.
const std::vector<testing::CorpusElf>& CorpusElfs() {
  static const auto* elfs = new std::vector<testing::CorpusElf>(
      testing::ElfsOf(ember::testing::LoadCorpus(".embedded")));
  return *elfs;
}

Bytes MatmulElf() {
  for (const auto& elf : CorpusElfs()) {
    if (elf.name.rfind("matmul.embedded", 0) == 0) return elf.bytes;
  }
  ADD_FAILURE() << "no matmul.embedded.vmfb in the corpus ("
                << ember::testing::CorpusDirectory() << ")";
  return {};
}

// Offsets into a file, found through its own headers (the fixtures are
// trusted compiler output).
struct ElfLayout {
  explicit ElfLayout(const Bytes& elf) : elf(elf) {}
  const Bytes& elf;

  size_t phoff() const { return Get<uint64_t>(elf, 32); }
  size_t phnum() const { return Get<uint16_t>(elf, 56); }
  size_t Phdr(size_t i) const { return phoff() + i * 56; }
  // The file offset of the index-th program header of `type`.
  size_t PhdrOfType(uint32_t type, size_t index = 0) const {
    for (size_t i = 0; i < phnum(); ++i) {
      if (Get<uint32_t>(elf, Phdr(i)) == type && index-- == 0) return Phdr(i);
    }
    ADD_FAILURE() << "no program header of type " << type;
    return 0;
  }
  // The file offset holding virtual address `vaddr`.
  size_t FileOffset(uint64_t vaddr) const {
    for (size_t i = 0; i < phnum(); ++i) {
      size_t ph = Phdr(i);
      if (Get<uint32_t>(elf, ph) != 1) continue;
      uint64_t v = Get<uint64_t>(elf, ph + 16);
      uint64_t filesz = Get<uint64_t>(elf, ph + 32);
      if (vaddr >= v && vaddr < v + filesz) {
        return Get<uint64_t>(elf, ph + 8) + (vaddr - v);
      }
    }
    ADD_FAILURE() << "vaddr not in the file";
    return 0;
  }
  // The file offset of the dynamic entry with `tag`.
  size_t DynamicEntry(int64_t tag) const {
    size_t dynamic = Get<uint64_t>(elf, PhdrOfType(2) + 8);
    for (size_t at = dynamic;; at += 16) {
      int64_t t = Get<int64_t>(elf, at);
      if (t == tag) return at;
      if (t == 0) break;
    }
    ADD_FAILURE() << "no dynamic tag " << tag;
    return 0;
  }
  size_t TableAt(int64_t tag) const {
    return FileOffset(Get<uint64_t>(elf, DynamicEntry(tag) + 8));
  }
  // The end of the loaded image: the highest PT_LOAD end, rounded up to a
  // page. Cases that aim just inside or past the image derive their
  // addresses from it, since each compiler release lays out its ELFs
  // differently.
  uint64_t ImageEnd() const {
    uint64_t end = 0;
    for (size_t i = 0; i < phnum(); ++i) {
      size_t ph = Phdr(i);
      if (Get<uint32_t>(elf, ph) != 1) continue;
      end = std::max(end,
                     Get<uint64_t>(elf, ph + 16) + Get<uint64_t>(elf, ph + 40));
    }
    return (end + 0xFFF) & ~uint64_t{0xFFF};
  }
};

constexpr uint32_t kPtLoad = 1;
constexpr int64_t kDtHash = 4, kDtSymTab = 6, kDtRela = 7, kDtStrTab = 5,
                  kDtInit = 12, kDtPltRel = 20, kDtRel = 17;

StatusCode LoadCode(const Bytes& elf) {
  auto module = ElfModule::Load(elf);
  if (module.ok()) return StatusCode::kOk;
  EXPECT_FALSE(module.status().message().empty());
  return module.status().code();
}

TEST(ElfModuleTest, CorpusHasEmbeddedElfs) {
  EXPECT_GE(CorpusElfs().size(), 10u);
}

TEST(ElfModuleTest, LoadsEveryCorpusElfAndFindsTheQuery) {
  for (const auto& elf : CorpusElfs()) {
    SCOPED_TRACE(elf.name);
    auto module = ElfModule::Load(elf.bytes);
    ASSERT_TRUE(module.ok()) << module.status().ToString();
    auto query = (*module)->LookupSymbol("iree_hal_executable_library_query");
    ASSERT_TRUE(query.ok()) << query.status().ToString();
    EXPECT_TRUE((*module)->IsExecutable(*query));
    EXPECT_FALSE((*module)->IsExecutable((*module)->image_base() - 1));
    EXPECT_EQ((*module)
                  ->LookupSymbol("iree_hal_executable_library_quer")
                  .status()
                  .code(),
              StatusCode::kNotFound);
    EXPECT_EQ((*module)->LookupSymbol("").status().code(),
              StatusCode::kNotFound);
    EXPECT_TRUE((*module)->RunInitializers().ok());
  }
}

// No page of a loaded image may be writable and executable at once.
TEST(ElfModuleTest, NoPageIsWritableAndExecutable) {
  auto module = ElfModule::Load(MatmulElf());
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  uintptr_t begin = reinterpret_cast<uintptr_t>((*module)->image_base());
  uintptr_t end = begin + (*module)->image_size();
  FILE* maps = std::fopen("/proc/self/maps", "r");
  ASSERT_NE(maps, nullptr);
  char line[512];
  int executable_ranges = 0;
  while (std::fgets(line, sizeof(line), maps)) {
    unsigned long low, high;
    char perms[8] = {};
    if (std::sscanf(line, "%lx-%lx %7s", &low, &high, perms) != 3) continue;
    if (high <= begin || low >= end) continue;
    EXPECT_FALSE(perms[1] == 'w' && perms[2] == 'x') << line;
    if (perms[2] == 'x') ++executable_ranges;
  }
  std::fclose(maps);
  EXPECT_GE(executable_ranges, 1);
}

TEST(ElfModuleTest, RejectsEveryTruncation) {
  Bytes elf = MatmulElf();
  ASSERT_FALSE(elf.empty());
  for (size_t size = 0; size < elf.size(); ++size) {
    Bytes cut(elf.begin(), elf.begin() + size);
    EXPECT_NE(LoadCode(cut), StatusCode::kOk) << size;
  }
  EXPECT_EQ(LoadCode(elf), StatusCode::kOk);
}

struct HeaderCase {
  const char* what;
  size_t offset;
  int width;
  uint64_t value;
  StatusCode code;
};

TEST(ElfModuleTest, RejectsCorruptFileHeaders) {
  const Bytes original = MatmulElf();
  ASSERT_FALSE(original.empty());
  const uint64_t size = original.size();
  const HeaderCase cases[] = {
      {"magic", 1, 1, 'X', StatusCode::kInvalidArgument},
      {"32-bit class", 4, 1, 1, StatusCode::kFailedPrecondition},
      {"big-endian", 5, 1, 2, StatusCode::kFailedPrecondition},
      {"type EXEC", 16, 2, 2, StatusCode::kFailedPrecondition},
      {"machine aarch64", 18, 2, 183, StatusCode::kFailedPrecondition},
      {"version 2", 20, 4, 2, StatusCode::kFailedPrecondition},
      {"phoff at end", 32, 8, size, StatusCode::kInvalidArgument},
      {"phoff overflow", 32, 8, ~uint64_t{0} - 8, StatusCode::kInvalidArgument},
      {"phoff zero", 32, 8, 0, StatusCode::kInvalidArgument},
      {"shoff past end", 40, 8, size - 8, StatusCode::kInvalidArgument},
      {"shoff overflow", 40, 8, ~uint64_t{0}, StatusCode::kInvalidArgument},
      {"ehsize", 52, 2, 52, StatusCode::kInvalidArgument},
      {"phentsize", 54, 2, 32, StatusCode::kInvalidArgument},
      {"phnum huge", 56, 2, 0xffff, StatusCode::kInvalidArgument},
      {"phnum zero", 56, 2, 0, StatusCode::kInvalidArgument},
      {"shentsize", 58, 2, 40, StatusCode::kInvalidArgument},
      {"shnum huge", 60, 2, 0xffff, StatusCode::kInvalidArgument},
  };
  for (const HeaderCase& c : cases) {
    SCOPED_TRACE(c.what);
    Bytes elf = original;
    std::memcpy(elf.data() + c.offset, &c.value, c.width);
    EXPECT_EQ(LoadCode(elf), c.code);
  }
}

TEST(ElfModuleTest, RejectsCorruptProgramHeaders) {
  const Bytes original = MatmulElf();
  ASSERT_FALSE(original.empty());
  ElfLayout layout(original);
  size_t load = layout.PhdrOfType(kPtLoad, 0);
  size_t text = layout.PhdrOfType(kPtLoad, 1);
  size_t data = layout.PhdrOfType(kPtLoad, 2);
  size_t dynamic = layout.PhdrOfType(2);
  struct Case {
    const char* what;
    size_t offset;
    uint64_t value;
    StatusCode code;
  };
  const Case cases[] = {
      {"offset outside", load + 8, original.size(),
       StatusCode::kInvalidArgument},
      {"offset overflow", load + 8, ~uint64_t{0} - 4,
       StatusCode::kInvalidArgument},
      {"filesz outside", load + 32, original.size() + 1,
       StatusCode::kInvalidArgument},
      {"filesz > memsz", data + 32, Get<uint64_t>(original, data + 40) + 8,
       StatusCode::kInvalidArgument},
      {"huge memsz", data + 40, uint64_t{1} << 40,
       StatusCode::kResourceExhausted},
      {"wrapping memsz", data + 40, ~uint64_t{0} - 16,
       StatusCode::kInvalidArgument},
      {"huge vaddr gap", data + 16, uint64_t{1} << 44,
       StatusCode::kResourceExhausted},
      {"W+X text", text + 4, 7, StatusCode::kPermissionDenied},
      {"W+X data", data + 4, 3, StatusCode::kPermissionDenied},
      // The code segment moved onto the read-only segment's page.
      {"shared page", text + 16, 0x100, StatusCode::kInvalidArgument},
      {"dynamic outside", dynamic + 16, 0x100000, StatusCode::kInvalidArgument},
      {"dynamic straddles", dynamic + 32,
       layout.ImageEnd() - Get<uint64_t>(original, dynamic + 16) + 8,
       StatusCode::kInvalidArgument},
      {"dynamic made PT_LOAD-less", dynamic, 0x70000000,
       StatusCode::kInvalidArgument},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    Bytes elf = original;
    Put<uint64_t>(elf, c.offset, c.value);
    if (c.offset % 8 == 4 || c.offset == dynamic) {
      // A 32-bit field (flags at +4 or the type at +0): restore what the
      // 64-bit store spilled over.
      Put<uint32_t>(elf, c.offset + 4, Get<uint32_t>(original, c.offset + 4));
      if (c.offset == dynamic) Put<uint32_t>(elf, c.offset + 4, 6);
    }
    EXPECT_EQ(LoadCode(elf), c.code);
  }
}

TEST(ElfModuleTest, RejectsCorruptDynamicTags) {
  const Bytes original = MatmulElf();
  ASSERT_FALSE(original.empty());
  ElfLayout layout(original);
  struct Case {
    const char* what;
    size_t offset;
    uint64_t value;
    StatusCode code;
  };
  size_t hash = layout.TableAt(kDtHash);
  const Case cases[] = {
      {"symtab outside", layout.DynamicEntry(kDtSymTab) + 8, 0x100000,
       StatusCode::kInvalidArgument},
      {"strtab outside", layout.DynamicEntry(kDtStrTab) + 8, ~uint64_t{0} - 2,
       StatusCode::kInvalidArgument},
      {"hash outside", layout.DynamicEntry(kDtHash) + 8, 0x7fffffff,
       StatusCode::kInvalidArgument},
      {"rela outside", layout.DynamicEntry(kDtRela) + 8, layout.ImageEnd() - 16,
       StatusCode::kInvalidArgument},
      {"relasz huge", layout.DynamicEntry(8) + 8, 24 * 100000,
       StatusCode::kInvalidArgument},
      {"relasz not whole", layout.DynamicEntry(8) + 8, 25,
       StatusCode::kInvalidArgument},
      {"relaent", layout.DynamicEntry(9) + 8, 16, StatusCode::kInvalidArgument},
      {"syment", layout.DynamicEntry(11) + 8, 16, StatusCode::kInvalidArgument},
      {"DT_REL", layout.DynamicEntry(kDtRela), kDtRel,
       StatusCode::kFailedPrecondition},
      {"DT_PLTREL", layout.DynamicEntry(30), kDtPltRel,
       StatusCode::kFailedPrecondition},
      {"DT_INIT to data", layout.DynamicEntry(30), kDtInit,
       StatusCode::kInvalidArgument},
      {"no symtab", layout.DynamicEntry(kDtSymTab), 0x6ffffff0,
       StatusCode::kInvalidArgument},
      {"nchain huge", hash + 4, 0x10000000, StatusCode::kInvalidArgument},
      {"nbucket zero", hash, 0, StatusCode::kInvalidArgument},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    Bytes elf = original;
    if (c.offset == hash || c.offset == hash + 4) {
      Put<uint32_t>(elf, c.offset, static_cast<uint32_t>(c.value));
    } else {
      Put<uint64_t>(elf, c.offset, c.value);
    }
    EXPECT_EQ(LoadCode(elf), c.code);
  }
  // DT_PLTREL with a value other than DT_RELA.
  Bytes elf = original;
  size_t flags = layout.DynamicEntry(30);
  Put<int64_t>(elf, flags, kDtPltRel);
  Put<uint64_t>(elf, flags + 8, kDtRel);
  EXPECT_EQ(LoadCode(elf), StatusCode::kFailedPrecondition);
  // DT_PLTREL = DT_RELA is fine.
  Put<uint64_t>(elf, flags + 8, kDtRela);
  EXPECT_EQ(LoadCode(elf), StatusCode::kOk);
}

TEST(ElfModuleTest, RejectsBadRelocationsAndSymbols) {
  const Bytes original = MatmulElf();
  ASSERT_FALSE(original.empty());
  ElfLayout layout(original);
  size_t rela = layout.TableAt(kDtRela);
  size_t symtab = layout.TableAt(kDtSymTab);
  struct Case {
    const char* what;
    size_t offset;
    uint64_t value;
    StatusCode code;
  };
  const Case cases[] = {
      {"offset outside", rela, 0x10000000, StatusCode::kOutOfRange},
      {"offset below image", rela, ~uint64_t{0} - 3, StatusCode::kOutOfRange},
      {"offset at end", rela, layout.ImageEnd() - 4, StatusCode::kOutOfRange},
      {"symbol index", rela + 8, (uint64_t{5} << 32) | 6,
       StatusCode::kOutOfRange},
      {"unknown type", rela + 8, 37, StatusCode::kUnimplemented},
      {"R_X86_64_32 overflow", rela + 8, (uint64_t{1} << 32) | 10,
       StatusCode::kOutOfRange},
      {"undefined symbol", symtab + 24 + 6, 0, StatusCode::kUnavailable},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    Bytes elf = original;
    if (c.offset == symtab + 24 + 6) {
      Put<uint16_t>(elf, c.offset, 0);
    } else {
      Put<uint64_t>(elf, c.offset, c.value);
    }
    StatusCode code = LoadCode(elf);
    EXPECT_EQ(code, c.code);
  }
}

TEST(ElfModuleTest, HashChainCycleDoesNotHang) {
  Bytes elf = MatmulElf();
  ASSERT_FALSE(elf.empty());
  ElfLayout layout(elf);
  size_t hash = layout.TableAt(kDtHash);
  uint32_t buckets = Get<uint32_t>(elf, hash);
  uint32_t chains = Get<uint32_t>(elf, hash + 4);
  ASSERT_GE(chains, 2u);
  for (uint32_t b = 0; b < buckets; ++b)
    Put<uint32_t>(elf, hash + 8 + 4 * b, 1);
  Put<uint32_t>(elf, hash + 8 + 4 * buckets + 4, 1);  // chain[1] = 1
  auto module = ElfModule::Load(elf);
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  EXPECT_TRUE(
      (*module)->LookupSymbol("iree_hal_executable_library_query").ok());
  EXPECT_EQ((*module)->LookupSymbol("missing").status().code(),
            StatusCode::kInvalidArgument);
  // A bucket naming a symbol past the table.
  Put<uint32_t>(elf, hash + 8, 1000);
  for (uint32_t b = 0; b < buckets; ++b) {
    Put<uint32_t>(elf, hash + 8 + 4 * b, 1000);
  }
  auto bad = ElfModule::Load(elf);
  ASSERT_TRUE(bad.ok());
  EXPECT_EQ((*bad)->LookupSymbol("x").status().code(),
            StatusCode::kInvalidArgument);
}

// Random corruption must end in a clean error or a loaded image, never a
// crash. Only loading and symbol lookup run: a corrupt image that still
// validates must not have its code executed.
TEST(ElfModuleTest, SurvivesRandomBitFlips) {
  const Bytes original = MatmulElf();
  ASSERT_FALSE(original.empty());
  std::mt19937 rng(1234);
  int loaded = 0;
  for (int iteration = 0; iteration < 3000; ++iteration) {
    Bytes elf = original;
    int flips = 1 + static_cast<int>(rng() % 4);
    for (int f = 0; f < flips; ++f) {
      // Half the flips hit the headers and dynamic data, where they matter.
      size_t limit =
          (rng() & 1) ? std::min<size_t>(elf.size(), 0x800) : elf.size();
      elf[rng() % limit] ^= static_cast<uint8_t>(1u << (rng() % 8));
    }
    auto module = ElfModule::Load(elf);
    if (!module.ok()) {
      EXPECT_FALSE(module.status().message().empty());
      continue;
    }
    ++loaded;
    (void)(*module)->LookupSymbol("iree_hal_executable_library_query");
    (void)(*module)->LookupSymbol("other");
  }
  EXPECT_GT(loaded, 0);
}

// ---- the relocation arithmetic on synthetic images -----------------------

constexpr uint64_t kImageVaddr = 0x1000;
constexpr uint64_t kLoadAddress = 0x7f0000000000;
constexpr uint64_t kBias = kLoadAddress - kImageVaddr;

struct Synthetic {
  Bytes image = Bytes(64, 0);
  std::vector<ElfSymbol> symbols = {
      {}, {/*name=*/1, /*info=*/0x12, 0, /*shndx=*/7, /*value=*/0x1010, 0}};
  RelocationTarget target() {
    RelocationTarget t;
    t.image = image;
    t.image_vaddr = kImageVaddr;
    t.load_address = kLoadAddress;
    t.symbols = {reinterpret_cast<const uint8_t*>(symbols.data()),
                 symbols.size() * sizeof(ElfSymbol)};
    return t;
  }
  Status Apply(bool aarch64, std::vector<ElfRela> relas) {
    std::span<const uint8_t> bytes(
        reinterpret_cast<const uint8_t*>(relas.data()),
        relas.size() * sizeof(ElfRela));
    return aarch64 ? ApplyAArch64Relocations(target(), bytes)
                   : ApplyX86_64Relocations(target(), bytes);
  }
  uint64_t U64(size_t at) const { return Get<uint64_t>(image, at); }
  uint32_t U32(size_t at) const { return Get<uint32_t>(image, at); }
};

uint64_t Info(uint64_t symbol, uint32_t type) { return symbol << 32 | type; }

TEST(ElfRelocationTest, X86_64Arithmetic) {
  Synthetic s;
  const uint64_t kS = kBias + 0x1010;
  ASSERT_TRUE(s.Apply(false,
                      {
                          {0x1000, Info(0, 8), 0x20},         // RELATIVE
                          {0x1008, Info(1, 6), 99},           // GLOB_DAT
                          {0x1010, Info(1, 7), 99},           // JUMP_SLOT
                          {0x1018, Info(1, 5), 99},           // COPY
                          {0x1020, Info(1, 1), 0x10},         // 64
                          {0x1028, Info(0, 10), 0x7fffffff},  // 32
                          {0x102c, Info(0, 11), -5},          // 32S
                          {0x1030, Info(1, 2), -4},           // PC32
                          {0x1038, Info(0, 0), 0},            // NONE
                      })
                  .ok());
  EXPECT_EQ(s.U64(0x00), kBias + 0x20);
  EXPECT_EQ(s.U64(0x08), kS);
  EXPECT_EQ(s.U64(0x10), kS);
  EXPECT_EQ(s.U64(0x18), kS);
  EXPECT_EQ(s.U64(0x20), kS + 0x10);
  EXPECT_EQ(s.U32(0x28), 0x7fffffffu);
  EXPECT_EQ(static_cast<int32_t>(s.U32(0x2c)), -5);
  // S + A - P = (B + 0x1010) - 4 - (B + 0x1030).
  EXPECT_EQ(static_cast<int32_t>(s.U32(0x30)), 0x1010 - 4 - 0x1030);
  EXPECT_EQ(s.U64(0x38), 0u);
}

TEST(ElfRelocationTest, X86_64Errors) {
  Synthetic s;
  EXPECT_EQ(s.Apply(false, {{0x1040, Info(0, 8), 0}}).code(),
            StatusCode::kOutOfRange);  // one past the image
  EXPECT_EQ(s.Apply(false, {{0x103c, Info(0, 8), 0}}).code(),
            StatusCode::kOutOfRange);  // straddles the end
  EXPECT_TRUE(s.Apply(false, {{0x103c, Info(0, 10), 0}}).ok());  // 4 bytes fit
  EXPECT_EQ(s.Apply(false, {{0xff8, Info(0, 8), 0}}).code(),
            StatusCode::kOutOfRange);  // below the image
  EXPECT_EQ(s.Apply(false, {{0x1000, Info(2, 6), 0}}).code(),
            StatusCode::kOutOfRange);  // symbol past the table
  EXPECT_EQ(s.Apply(false, {{0x1000, Info(0, 10), 0x100000000}}).code(),
            StatusCode::kOutOfRange);  // 32 does not fit
  EXPECT_EQ(s.Apply(false, {{0x1000, Info(0, 11), 0x80000000}}).code(),
            StatusCode::kOutOfRange);  // 32S does not fit
  EXPECT_EQ(s.Apply(false, {{0x1000, Info(1, 11), 0}}).code(),
            StatusCode::kOutOfRange);  // an absolute address is not 32-bit
  EXPECT_EQ(s.Apply(false, {{0x1000, Info(0, 2), 0}}).code(),
            StatusCode::kOutOfRange);  // PC32 to address 0 from far away
  Status unknown = s.Apply(false, {{0x1000, Info(0, 24), 0}});
  EXPECT_EQ(unknown.code(), StatusCode::kUnimplemented);
  EXPECT_NE(unknown.ToString().find("24"), std::string::npos);
  // A table that is not whole entries.
  Bytes partial(23, 0);
  EXPECT_EQ(ApplyX86_64Relocations(s.target(), partial).code(),
            StatusCode::kInvalidArgument);
  EXPECT_TRUE(ApplyX86_64Relocations(s.target(), {}).ok());
}

TEST(ElfRelocationTest, AArch64Arithmetic) {
  Synthetic s;
  const uint64_t kS = kBias + 0x1010;
  Put<uint64_t>(s.image, 0x00, 0x5);
  Put<uint64_t>(s.image, 0x08, 0x1234);
  ASSERT_TRUE(s.Apply(true,
                      {
                          {0x1000, Info(1, 257), 0x10},   // ABS64
                          {0x1008, Info(1, 1025), 0x8},   // GLOB_DAT
                          {0x1010, Info(1, 1026), 0},     // JUMP_SLOT
                          {0x1018, Info(0, 1027), 0x40},  // RELATIVE
                          {0x1020, Info(0, 0), 0},        // NONE
                      })
                  .ok());
  EXPECT_EQ(s.U64(0x00), 0x5 + kS + 0x10);  // accumulates
  EXPECT_EQ(s.U64(0x08), kS + 0x8);         // overwrites
  EXPECT_EQ(s.U64(0x10), kS);
  EXPECT_EQ(s.U64(0x18), kBias + 0x40);
  EXPECT_EQ(s.U64(0x20), 0u);
}

TEST(ElfRelocationTest, AArch64Errors) {
  Synthetic s;
  EXPECT_EQ(s.Apply(true, {{0x103c, Info(0, 1027), 0}}).code(),
            StatusCode::kOutOfRange);
  EXPECT_EQ(s.Apply(true, {{0x0, Info(0, 1027), 0}}).code(),
            StatusCode::kOutOfRange);
  EXPECT_EQ(s.Apply(true, {{0x1000, Info(9, 1025), 0}}).code(),
            StatusCode::kOutOfRange);
  EXPECT_EQ(s.Apply(true, {{0x1000, Info(0, 8), 0}}).code(),
            StatusCode::kUnimplemented);  // an x86_64 type
  EXPECT_EQ(s.Apply(true, {{0x1000, Info(0, 1028), 0}}).code(),
            StatusCode::kUnimplemented);
}

}  // namespace
}  // namespace ember::hal::cpu
