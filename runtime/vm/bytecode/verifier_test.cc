#include "runtime/vm/bytecode/verifier.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runtime/base/endian.h"
#include "runtime/testing/bytecode_assembler.h"
#include "runtime/testing/corpus.h"
#include "runtime/testing/flat_writer.h"
#include "runtime/vm/bytecode/decoder.h"
#include "runtime/vm/bytecode/module_file.h"

namespace ember::vm::bytecode {
namespace {

using ember::testing::CorpusFile;

// Every corpus file, read once; each test that asks for it fails when there
// is none.
const std::vector<CorpusFile>& Corpus() {
  static const std::vector<CorpusFile>* corpus =
      new std::vector<CorpusFile>(ember::testing::LoadCorpus());
  if (corpus->empty()) {
    ADD_FAILURE() << ember::testing::MissingCorpusMessage("*");
  }
  return *corpus;
}

std::shared_ptr<const ModuleFile> MustLoad(const std::vector<uint8_t>& bytes) {
  auto file = ModuleFile::LoadCopy(bytes);
  EXPECT_TRUE(file.ok()) << file.status().ToString();
  return file.ok() ? *file : nullptr;
}

// Offset in the archive of function `ordinal`'s first bytecode byte.
size_t FunctionArchiveOffset(const ModuleFile& file, size_t ordinal) {
  return static_cast<size_t>(file.def().bytecode_data.data() -
                             file.archive().data()) +
         file.def().function_descriptors[ordinal].bytecode_offset;
}

void StoreU16(std::vector<uint8_t>* bytes, size_t offset, uint16_t value) {
  StoreLE(bytes->data() + offset, value);
}
void StoreU32(std::vector<uint8_t>* bytes, size_t offset, uint32_t value) {
  StoreLE(bytes->data() + offset, value);
}

// The archive offset of function `ordinal`'s 20-byte FunctionDescriptor,
// found by its contents (which must be unique in the file).
std::optional<size_t> FindDescriptor(const std::vector<uint8_t>& bytes,
                                     const ModuleFile& file, size_t ordinal) {
  const FunctionDescriptor& d = file.def().function_descriptors[ordinal];
  std::vector<uint8_t> pattern(20);
  StoreU32(&pattern, 0, static_cast<uint32_t>(d.bytecode_offset));
  StoreU32(&pattern, 4, static_cast<uint32_t>(d.bytecode_length));
  StoreU32(&pattern, 8, d.requirements);
  StoreU16(&pattern, 12, static_cast<uint16_t>(d.reserved));
  StoreU16(&pattern, 14, static_cast<uint16_t>(d.block_count));
  StoreU16(&pattern, 16, static_cast<uint16_t>(d.i32_register_count));
  StoreU16(&pattern, 18, static_cast<uint16_t>(d.ref_register_count));
  std::optional<size_t> found;
  for (size_t i = 0; i + 20 <= bytes.size(); ++i) {
    if (std::memcmp(bytes.data() + i, pattern.data(), 20) == 0) {
      if (found) return std::nullopt;  // ambiguous
      found = i;
    }
  }
  return found;
}

//===----------------------------------------------------------------------===//
// The corpus verifies
//===----------------------------------------------------------------------===//

TEST(VerifierTest, EveryCorpusFunctionVerifies) {
  const auto& corpus = Corpus();
  ASSERT_GE(corpus.size(), 60u) << "corpus missing (EMBER_CORPUS_DIR)";
  size_t functions = 0;
  for (const CorpusFile& entry : corpus) {
    auto file = MustLoad(entry.bytes);
    ASSERT_NE(file, nullptr) << entry.name;
    for (size_t i = 0; i < file->def().function_descriptors.size(); ++i) {
      Status status = VerifyFunction(*file, i);
      EXPECT_TRUE(status.ok()) << entry.name << ": " << status.ToString();
      ++functions;
    }
    Status whole = VerifyModuleBytecode(*file);
    EXPECT_TRUE(whole.ok()) << entry.name << ": " << whole.ToString();
  }
  EXPECT_GT(functions, 200u);
}

// The fast path (fixed-form instructions checked from the bytes) must give
// exactly the general path's answer, message included, on every input:
// compared on the corpus and on random corruptions of its functions.
class GeneralPathOnly {
 public:
  GeneralPathOnly() { verifier_internal::SetFastPathEnabled(false); }
  ~GeneralPathOnly() { verifier_internal::SetFastPathEnabled(true); }
};

std::string VerifyBothWays(const ModuleFile& file, std::string* general) {
  Status fast = VerifyModuleBytecode(file);
  {
    GeneralPathOnly only;
    *general = VerifyModuleBytecode(file).ToString();
  }
  return fast.ToString();
}

TEST(VerifierTest, FastPathAgreesWithTheGeneralPath) {
  const auto& corpus = Corpus();
  ASSERT_FALSE(corpus.empty());
  std::mt19937 rng(20261205);
  size_t mutants = 0;
  size_t rejected = 0;
  for (const CorpusFile& entry : corpus) {
    auto file = MustLoad(entry.bytes);
    ASSERT_NE(file, nullptr) << entry.name;
    std::string general;
    EXPECT_EQ(VerifyBothWays(*file, &general), general) << entry.name;
    const size_t functions = file->def().function_descriptors.size();
    if (functions == 0) continue;
    for (int round = 0; round < 60; ++round) {
      const size_t f = rng() % functions;
      const size_t length = file->FunctionBytecode(f).size();
      if (length == 0) continue;
      std::vector<uint8_t> bytes = entry.bytes;
      const size_t base = FunctionArchiveOffset(*file, f);
      // One to three bytes changed: to a random value, or by a small step
      // (a register one past the count, an odd pair, a flipped ref bit).
      const int changes = 1 + static_cast<int>(rng() % 3);
      for (int c = 0; c < changes; ++c) {
        uint8_t& byte = bytes[base + rng() % length];
        switch (rng() % 4) {
          case 0: byte = static_cast<uint8_t>(rng()); break;
          case 1: ++byte; break;
          case 2: --byte; break;
          default: byte ^= 0x80; break;
        }
      }
      auto mutant = ModuleFile::LoadCopy(bytes);
      if (!mutant.ok()) continue;
      ++mutants;
      const std::string fast = VerifyBothWays(**mutant, &general);
      EXPECT_EQ(fast, general) << entry.name << " function " << f;
      if (fast != "OK") ++rejected;
    }
  }
  EXPECT_GT(mutants, 1000u);
  EXPECT_GT(rejected, mutants / 4);
}

TEST(VerifierTest, OrdinalOutOfRange) {
  ASSERT_FALSE(Corpus().empty());
  auto file = MustLoad(Corpus().front().bytes);
  ASSERT_NE(file, nullptr);
  Status status =
      VerifyFunction(*file, file->def().function_descriptors.size());
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
}

//===----------------------------------------------------------------------===//
// Targeted corruptions of real functions
//===----------------------------------------------------------------------===//

// One place in a corpus function: an instruction and (optionally) a field.
struct Site {
  const CorpusFile* entry = nullptr;
  size_t function = 0;
  DecodedInstruction instruction;
  int field = -1;
  std::shared_ptr<const ModuleFile> file;

  uint32_t pc() const { return instruction.pc; }
  const DecodedField& decoded_field() const {
    return instruction.field(static_cast<size_t>(field));
  }
  // Archive offset of the instruction's first byte and of its field.
  size_t instruction_offset() const {
    return FunctionArchiveOffset(*file, function) + instruction.pc;
  }
  size_t field_offset() const {
    return FunctionArchiveOffset(*file, function) + decoded_field().offset;
  }
};

// Returns a field index (or 0 for "the instruction itself") when `pick`
// accepts an instruction, -1 otherwise.
using Picker =
    std::function<int(const ModuleFile&, size_t, const DecodedInstruction&)>;

std::optional<Site> FindSite(const Picker& pick,
                             const std::string& filter = "") {
  for (const CorpusFile& entry : Corpus()) {
    if (!filter.empty() && entry.name.find(filter) == std::string::npos) {
      continue;
    }
    auto file = ModuleFile::LoadCopy(entry.bytes);
    if (!file.ok()) continue;
    for (size_t f = 0; f < (*file)->def().function_descriptors.size(); ++f) {
      std::span<const uint8_t> code = (*file)->FunctionBytecode(f);
      DecodedInstruction instruction;
      uint32_t pc = 0;
      while (pc < code.size() &&
             DecodeInstruction(code, pc, &instruction).ok()) {
        int field = pick(**file, f, instruction);
        if (field >= 0) {
          Site site;
          site.entry = &entry;
          site.function = f;
          site.instruction = instruction;
          site.field = field;
          site.file = *file;
          return site;
        }
        pc = instruction.next_pc;
      }
    }
  }
  return std::nullopt;
}

// The first field of `kind` in an instruction, or -1.
int FieldOfKind(const DecodedInstruction& instruction, FieldKind kind) {
  for (size_t i = 0; i < instruction.field_count; ++i) {
    if (instruction.field(i).kind() == kind) return static_cast<int>(i);
  }
  return -1;
}

Picker FirstFieldOfKind(FieldKind kind) {
  return [kind](const ModuleFile&, size_t, const DecodedInstruction& i) {
    return FieldOfKind(i, kind);
  };
}

// Loads `bytes`, verifies `function` and checks that it fails with a message
// naming the function, the instruction offset and `expected`.
void ExpectRejected(const std::vector<uint8_t>& bytes, size_t function,
                    std::optional<uint32_t> pc, const std::string& expected) {
  auto file = MustLoad(bytes);
  ASSERT_NE(file, nullptr);
  Status status = VerifyFunction(*file, function);
  ASSERT_FALSE(status.ok()) << "expected rejection: " << expected;
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument) << status.ToString();
  const std::string message = status.ToString();
  EXPECT_NE(message.find(StringPrintf("#%zu", function)), std::string::npos)
      << message;
  if (pc) {
    EXPECT_NE(message.find(StringPrintf("offset 0x%08X", *pc)),
              std::string::npos)
        << message;
  }
  EXPECT_NE(message.find(expected), std::string::npos) << message;
  // The whole-module entry point reports the same failure.
  EXPECT_FALSE(VerifyModuleBytecode(*file).ok());
}

TEST(VerifierTest, RegisterOutOfRange) {
  auto site = FindSite(FirstFieldOfKind(FieldKind::kRegI32));
  ASSERT_TRUE(site);
  std::vector<uint8_t> bytes = site->entry->bytes;
  const auto& d = site->file->def().function_descriptors[site->function];
  StoreU16(&bytes, site->field_offset(),
           static_cast<uint16_t>(d.i32_register_count));
  ExpectRejected(bytes, site->function, site->pc(), "out of range");
}

TEST(VerifierTest, RefBitOnIntOperand) {
  auto site = FindSite(FirstFieldOfKind(FieldKind::kRegI32));
  ASSERT_TRUE(site);
  std::vector<uint8_t> bytes = site->entry->bytes;
  StoreU16(&bytes, site->field_offset(),
           site->decoded_field().reg | kRefRegisterBit);
  ExpectRejected(bytes, site->function, site->pc(),
                 "must be an i32 register but is ref register");
}

TEST(VerifierTest, IntBitOnRefOperand) {
  auto site = FindSite(FirstFieldOfKind(FieldKind::kRegRef));
  ASSERT_TRUE(site);
  std::vector<uint8_t> bytes = site->entry->bytes;
  StoreU16(&bytes, site->field_offset(), 0);
  ExpectRejected(bytes, site->function, site->pc(),
                 "must be a ref register but is int register");
}

TEST(VerifierTest, MoveBitWhereNotAllowed) {
  auto site = FindSite(FirstFieldOfKind(FieldKind::kRegRef));
  ASSERT_TRUE(site);
  std::vector<uint8_t> bytes = site->entry->bytes;
  StoreU16(&bytes, site->field_offset(),
           site->decoded_field().reg | kRefMoveBit);
  ExpectRejected(bytes, site->function, site->pc(), "MOVE bit");
}

TEST(VerifierTest, OddRegisterForI64) {
  auto site =
      FindSite([](const ModuleFile&, size_t, const DecodedInstruction& i) {
        int f = FieldOfKind(i, FieldKind::kResI64);
        return f >= 0 ? f : FieldOfKind(i, FieldKind::kRegI64);
      });
  ASSERT_TRUE(site);
  std::vector<uint8_t> bytes = site->entry->bytes;
  StoreU16(&bytes, site->field_offset(), site->decoded_field().reg | 1);
  ExpectRejected(bytes, site->function, site->pc(), "odd register");
}

TEST(VerifierTest, BranchTargetOffMarker) {
  auto site = FindSite(FirstFieldOfKind(FieldKind::kBranchTarget));
  ASSERT_TRUE(site);
  std::vector<uint8_t> bytes = site->entry->bytes;
  StoreU32(&bytes, site->field_offset(), site->decoded_field().u32() + 1);
  ExpectRejected(bytes, site->function, site->pc(), "not a block marker");
}

TEST(VerifierTest, BranchTargetOutsideFunction) {
  auto site = FindSite(FirstFieldOfKind(FieldKind::kBranchTarget));
  ASSERT_TRUE(site);
  std::vector<uint8_t> bytes = site->entry->bytes;
  StoreU32(&bytes, site->field_offset(), 0x00FFFFFF);
  ExpectRejected(bytes, site->function, site->pc(), "outside the function");
}

TEST(VerifierTest, RemapAcrossBanks) {
  auto site =
      FindSite([](const ModuleFile&, size_t, const DecodedInstruction& i) {
        int f = FieldOfKind(i, FieldKind::kBranchRemap);
        return (f >= 0 && !i.field(f).remap.empty()) ? f : -1;
      });
  ASSERT_TRUE(site);
  std::vector<uint8_t> bytes = site->entry->bytes;
  // The first pair starts after the u16 count.
  const size_t pair = site->field_offset() + 2;
  StoreU16(&bytes, pair + 2,
           site->decoded_field().remap.destination(0) ^ kRefRegisterBit);
  ExpectRejected(bytes, site->function, site->pc(), "across register banks");
}

TEST(VerifierTest, TruncatedLastInstruction) {
  ASSERT_FALSE(Corpus().empty());
  const CorpusFile& entry = Corpus().front();
  auto file = MustLoad(entry.bytes);
  ASSERT_NE(file, nullptr);
  std::vector<uint8_t> bytes = entry.bytes;
  auto descriptor = FindDescriptor(bytes, *file, 0);
  ASSERT_TRUE(descriptor);
  const auto& d = file->def().function_descriptors[0];
  StoreU32(&bytes, *descriptor + 4,
           static_cast<uint32_t>(d.bytecode_length - 1));
  ExpectRejected(bytes, 0, std::nullopt, "truncated");
}

TEST(VerifierTest, UnknownOpcode) {
  auto site =
      FindSite([](const ModuleFile&, size_t, const DecodedInstruction& i) {
        return i.info->has_flag(kBlockMarker) ? -1 : 0;
      });
  ASSERT_TRUE(site);
  std::vector<uint8_t> bytes = site->entry->bytes;
  bytes[site->instruction_offset()] = 0xC0;
  ExpectRejected(bytes, site->function, site->pc(), "unknown opcode 0xC0");
}

TEST(VerifierTest, ExtensionWithoutFeatureBit) {
  auto site =
      FindSite([](const ModuleFile&, size_t, const DecodedInstruction& i) {
        return i.info->set == OpcodeSet::kExtF32 ? 0 : -1;
      });
  ASSERT_TRUE(site);
  std::vector<uint8_t> bytes = site->entry->bytes;
  auto descriptor = FindDescriptor(bytes, *site->file, site->function);
  ASSERT_TRUE(descriptor);
  StoreU32(&bytes, *descriptor + 8, 0);  // requirements
  ExpectRejected(bytes, site->function, std::nullopt, "do not include EXT_F32");
}

TEST(VerifierTest, BlockCountMismatch) {
  ASSERT_FALSE(Corpus().empty());
  const CorpusFile& entry = Corpus().front();
  auto file = MustLoad(entry.bytes);
  ASSERT_NE(file, nullptr);
  std::vector<uint8_t> bytes = entry.bytes;
  auto descriptor = FindDescriptor(bytes, *file, 0);
  ASSERT_TRUE(descriptor);
  const auto& d = file->def().function_descriptors[0];
  StoreU16(&bytes, *descriptor + 14, static_cast<uint16_t>(d.block_count + 1));
  ExpectRejected(bytes, 0, std::nullopt, "block_count");
}

TEST(VerifierTest, ArgumentRegistersPastTheCountMustNotBeNamed) {
  // A function with int arguments, its i32 register count cut to zero. The
  // frame would still hold the arguments (arguments may lie past the count:
  // see ArgumentsPastTheDeclaredCountAreAccepted), but the instructions that
  // read them name registers past the count.
  auto site = FindSite(
      [](const ModuleFile& file, size_t f, const DecodedInstruction& i) {
        std::string_view cconv =
            file.def().function_signatures[f].calling_convention;
        return (i.pc == 0 && cconv.size() > 1 &&
                (cconv[1] == 'i' || cconv[1] == 'I'))
                   ? 0
                   : -1;
      });
  ASSERT_TRUE(site);
  std::vector<uint8_t> bytes = site->entry->bytes;
  auto descriptor = FindDescriptor(bytes, *site->file, site->function);
  ASSERT_TRUE(descriptor);
  StoreU16(&bytes, *descriptor + 16, 0);
  ExpectRejected(bytes, site->function, std::nullopt, "is out of range");
}

TEST(VerifierTest, BadRodataOrdinal) {
  auto site = FindSite(FirstFieldOfKind(FieldKind::kRodataOrdinal));
  ASSERT_TRUE(site);
  std::vector<uint8_t> bytes = site->entry->bytes;
  StoreU32(&bytes, site->field_offset(),
           static_cast<uint32_t>(site->file->def().rodata_segments.size()));
  ExpectRejected(bytes, site->function, site->pc(), "rodata ordinal");
}

TEST(VerifierTest, BadTypeOrdinal) {
  auto site = FindSite(FirstFieldOfKind(FieldKind::kTypeOrdinal));
  ASSERT_TRUE(site);
  std::vector<uint8_t> bytes = site->entry->bytes;
  StoreU32(&bytes, site->field_offset(),
           static_cast<uint32_t>(site->file->def().types.size()));
  ExpectRejected(bytes, site->function, site->pc(), "type ordinal");
}

TEST(VerifierTest, BadGlobalByteOffset) {
  auto site = FindSite(FirstFieldOfKind(FieldKind::kGlobalByteOffset));
  ASSERT_TRUE(site);
  std::vector<uint8_t> bytes = site->entry->bytes;
  // One byte short of room for even a 4-byte value at the end.
  const int32_t capacity = site->file->def().module_state.global_bytes_capacity;
  StoreU32(&bytes, site->field_offset(), static_cast<uint32_t>(capacity - 3));
  ExpectRejected(bytes, site->function, site->pc(), "global byte offset");
}

TEST(VerifierTest, BadGlobalRefOrdinal) {
  auto site = FindSite(FirstFieldOfKind(FieldKind::kGlobalRefOrdinal));
  ASSERT_TRUE(site);
  std::vector<uint8_t> bytes = site->entry->bytes;
  StoreU32(
      &bytes, site->field_offset(),
      static_cast<uint32_t>(site->file->def().module_state.global_ref_count));
  ExpectRejected(bytes, site->function, site->pc(), "global ref ordinal");
}

Picker CallTo(bool import, CoreOpcode opcode = CoreOpcode::Call) {
  return
      [import, opcode](const ModuleFile&, size_t, const DecodedInstruction& i) {
        if (i.info->set != OpcodeSet::kCore ||
            i.info->opcode != static_cast<uint8_t>(opcode)) {
          return -1;
        }
        int f = FieldOfKind(i, FieldKind::kFuncOrdinal);
        if (f < 0) return -1;
        bool is_import = (i.field(f).u32() & kImportOrdinalBit) != 0;
        return is_import == import ? f : -1;
      };
}

TEST(VerifierTest, BadImportOrdinal) {
  auto site = FindSite(CallTo(/*import=*/true));
  ASSERT_TRUE(site);
  std::vector<uint8_t> bytes = site->entry->bytes;
  StoreU32(
      &bytes, site->field_offset(),
      kImportOrdinalBit |
          static_cast<uint32_t>(site->file->def().imported_functions.size()));
  ExpectRejected(bytes, site->function, site->pc(), "import ordinal");
}

TEST(VerifierTest, BadFunctionOrdinal) {
  auto site = FindSite(CallTo(/*import=*/false));
  ASSERT_TRUE(site);
  std::vector<uint8_t> bytes = site->entry->bytes;
  StoreU32(
      &bytes, site->field_offset(),
      static_cast<uint32_t>(site->file->def().function_descriptors.size()));
  ExpectRejected(bytes, site->function, site->pc(), "function ordinal");
}

// Number of values in a cconv side without spans, or -1 if it has spans.
int CconvArgumentCount(std::string_view cconv) {
  auto parsed = ParseCallingConvention(cconv);
  if (!parsed.ok()) return -1;
  if (parsed->arguments.has_span) return -1;
  return static_cast<int>(parsed->arguments.size());
}

TEST(VerifierTest, CallArgumentCountMismatch) {
  // Retarget an import call to another import that takes a different number
  // of arguments.
  uint32_t new_callee = 0;
  auto site = FindSite([&new_callee](const ModuleFile& file, size_t,
                                     const DecodedInstruction& i) {
    if (CallTo(/*import=*/true)(file, 0, i) < 0) return -1;
    int f = FieldOfKind(i, FieldKind::kFuncOrdinal);
    const auto& imports = file.def().imported_functions;
    uint32_t callee = i.field(f).u32() & ~kImportOrdinalBit;
    int count =
        CconvArgumentCount(imports[callee].signature.calling_convention);
    for (uint32_t other = 0; other < imports.size(); ++other) {
      int other_count =
          CconvArgumentCount(imports[other].signature.calling_convention);
      if (other_count >= 0 && other_count != count) {
        new_callee = other;
        return f;
      }
    }
    return -1;
  });
  ASSERT_TRUE(site);
  std::vector<uint8_t> bytes = site->entry->bytes;
  StoreU32(&bytes, site->field_offset(), kImportOrdinalBit | new_callee);
  ExpectRejected(bytes, site->function, site->pc(), "operand register(s)");
}

TEST(VerifierTest, CallOperandWrongBank) {
  auto site =
      FindSite([](const ModuleFile& file, size_t, const DecodedInstruction& i) {
        if (CallTo(/*import=*/true)(file, 0, i) < 0) return -1;
        int f = FieldOfKind(i, FieldKind::kListAny);
        return i.field(f).list.empty() ? -1 : f;
      });
  ASSERT_TRUE(site);
  std::vector<uint8_t> bytes = site->entry->bytes;
  // The first register follows the u16 count.
  StoreU16(&bytes, site->field_offset() + 2,
           site->decoded_field().list[0] ^ kRefRegisterBit);
  ExpectRejected(bytes, site->function, site->pc(), "operand 0");
}

TEST(VerifierTest, ReturnValueWrongBank) {
  auto site =
      FindSite([](const ModuleFile&, size_t, const DecodedInstruction& i) {
        if (i.info->set != OpcodeSet::kCore ||
            i.info->opcode != static_cast<uint8_t>(CoreOpcode::Return)) {
          return -1;
        }
        return i.field(0).list.empty() ? -1 : 0;
      });
  ASSERT_TRUE(site);
  std::vector<uint8_t> bytes = site->entry->bytes;
  StoreU16(&bytes, site->field_offset() + 2,
           site->decoded_field().list[0] ^ kRefRegisterBit);
  ExpectRejected(bytes, site->function, site->pc(), "returned value 0");
}

TEST(VerifierTest, VariadicCallToInternalFunction) {
  auto site = FindSite(CallTo(/*import=*/true, CoreOpcode::CallVariadic));
  ASSERT_TRUE(site);
  std::vector<uint8_t> bytes = site->entry->bytes;
  StoreU32(&bytes, site->field_offset(), 0);
  ExpectRejected(bytes, site->function, site->pc(), "only call imports");
}

TEST(VerifierTest, VariadicSegmentMismatch) {
  auto site =
      FindSite([](const ModuleFile& file, size_t, const DecodedInstruction& i) {
        if (CallTo(/*import=*/true, CoreOpcode::CallVariadic)(file, 0, i) < 0) {
          return -1;
        }
        int f = FieldOfKind(i, FieldKind::kSegmentSizes);
        return i.field(f).list.empty() ? -1 : f;
      });
  ASSERT_TRUE(site);
  std::vector<uint8_t> bytes = site->entry->bytes;
  const int16_t first = site->decoded_field().segment_size(0);
  // Flip a plain argument into a span count, or a span count negative.
  StoreU16(&bytes, site->field_offset() + 2,
           static_cast<uint16_t>(first == -1 ? 0 : -2));
  ExpectRejected(bytes, site->function, site->pc(), "segment 0 is");
}

//===----------------------------------------------------------------------===//
// Random mutation: never crashes, and whatever verifies also decodes
//===----------------------------------------------------------------------===//

TEST(VerifierTest, RandomBytecodeMutationsNeverCrash) {
  const auto& corpus = Corpus();
  ASSERT_FALSE(corpus.empty());
  std::mt19937 rng(0x5EED1234u);
  constexpr int kIterationsPerFile = 200;
  size_t verified = 0;
  size_t rejected = 0;
  for (const CorpusFile& entry : corpus) {
    auto original = MustLoad(entry.bytes);
    ASSERT_NE(original, nullptr);
    const size_t begin = static_cast<size_t>(
        original->def().bytecode_data.data() - original->archive().data());
    const size_t size = original->def().bytecode_data.size();
    if (size == 0) continue;
    std::uniform_int_distribution<size_t> position(begin, begin + size - 1);
    std::uniform_int_distribution<int> byte(0, 255);
    std::uniform_int_distribution<int> edits(1, 4);
    std::uniform_int_distribution<int> style(0, 2);
    for (int iteration = 0; iteration < kIterationsPerFile; ++iteration) {
      std::vector<uint8_t> bytes = entry.bytes;
      std::vector<size_t> touched;
      const int count = edits(rng);
      for (int e = 0; e < count; ++e) {
        const size_t at = position(rng);
        touched.push_back(at - begin);
        switch (style(rng)) {
          case 0: bytes[at] = static_cast<uint8_t>(byte(rng)); break;
          case 1:
            bytes[at] ^= static_cast<uint8_t>(1u << (byte(rng) & 7));
            break;
          default: bytes[at] = (byte(rng) & 1) ? 0xFF : 0x00; break;
        }
      }
      auto file = ModuleFile::LoadCopy(bytes);
      if (!file.ok()) continue;
      // A function's verdict depends only on its own bytes and the module's
      // tables, so only the functions that were hit can change.
      const auto& descriptors = (*file)->def().function_descriptors;
      for (size_t f = 0; f < descriptors.size(); ++f) {
        const size_t start =
            static_cast<size_t>(descriptors[f].bytecode_offset);
        const size_t end =
            start + static_cast<size_t>(descriptors[f].bytecode_length);
        bool hit = false;
        for (size_t t : touched) hit |= (t >= start && t < end);
        if (!hit) continue;
        Status status = VerifyFunction(**file, f);
        if (status.ok()) {
          ++verified;
          auto text = DisassembleFunction((*file)->FunctionBytecode(f));
          EXPECT_TRUE(text.ok()) << entry.name << " function " << f << ": "
                                 << text.status().ToString();
        } else {
          ++rejected;
          EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
          EXPECT_FALSE(status.message().empty());
          EXPECT_FALSE(VerifyModuleBytecode(**file).ok());
        }
      }
    }
  }
  EXPECT_GT(rejected, 0u);
  EXPECT_GT(verified, 0u);
  std::printf(
      "random mutations: %zu function verifications passed, %zu "
      "rejected\n",
      verified, rejected);
}

//===----------------------------------------------------------------------===//
// Hand-built hostile modules: verification stays linear in the file
//===----------------------------------------------------------------------===//

using ember::testing::FlatWriter;
using Assembler = ember::testing::BytecodeAssembler;

// A module built from parts. Each cconv string is written once and shared
// by every function and import that names it.
struct HostileModule {
  struct Function {
    uint32_t offset = 0;
    uint32_t length = 0;
    uint16_t block_count = 1;
    uint16_t i32_count = 0;
    uint16_t ref_count = 0;
    size_t cconv = 0;  // index into cconvs
  };
  struct Import {
    std::string full_name;
    size_t cconv = 0;
  };
  std::string name = "hostile";
  std::vector<std::string> cconvs;
  std::vector<Import> imports;
  std::vector<Function> functions;
  std::vector<uint8_t> bytecode;

  std::vector<uint8_t> Build() const {
    FlatWriter w;
    // Root slots: 0 name, 6 imported_functions, 8 function_signatures,
    // 11 module_state, 12 function_descriptors, 13 bytecode_version,
    // 14 bytecode_data.
    const size_t root = w.Table({0, 6, 8, 11, 12, 13, 14});
    auto word = [root](int k) { return root + 4 + 4 * static_cast<size_t>(k); };
    w.Link(0, root);
    w.Put32(word(5), 17u << 16);
    w.Link(word(0), w.String(name));
    // Imports: slots 0 full_name, 1 signature, 2 flags (required).
    const size_t import_vector = w.OffsetVector(imports.size());
    w.Link(word(1), import_vector);
    std::vector<size_t> import_tables;
    for (size_t i = 0; i < imports.size(); ++i) {
      const size_t table = w.Table({0, 1, 2});
      w.Put32(table + 12, 1);
      w.Link(import_vector + 4 + 4 * i, table);
      import_tables.push_back(table);
    }
    for (size_t i = 0; i < imports.size(); ++i) {
      w.Link(import_tables[i] + 4, w.String(imports[i].full_name));
    }
    const size_t signature_vector = w.OffsetVector(functions.size());
    w.Link(word(2), signature_vector);
    // One signature table per cconv (slot 0 calling_convention), shared.
    std::vector<size_t> signatures;
    for (size_t c = 0; c < cconvs.size(); ++c) {
      signatures.push_back(w.Table({0}));
    }
    for (size_t i = 0; i < functions.size(); ++i) {
      w.Link(signature_vector + 4 + 4 * i, signatures[functions[i].cconv]);
    }
    for (size_t i = 0; i < imports.size(); ++i) {
      w.Link(import_tables[i] + 8, signatures[imports[i].cconv]);
    }
    w.Link(word(3), w.Table({0, 1}));  // module_state: no globals
    std::vector<uint8_t> descriptors;
    for (const Function& f : functions) {
      auto put = [&descriptors](uint32_t value, int bytes) {
        for (int i = 0; i < bytes; ++i) {
          descriptors.push_back((value >> (8 * i)) & 0xFF);
        }
      };
      put(f.offset, 4);
      put(f.length, 4);
      put(0, 4);  // requirements
      put(0, 2);  // reserved
      put(f.block_count, 2);
      put(f.i32_count, 2);
      put(f.ref_count, 2);
    }
    w.Link(word(4), w.ScalarVector(descriptors, functions.size()));
    w.Link(word(6), w.ScalarVector(bytecode, bytecode.size()));
    for (size_t c = 0; c < cconvs.size(); ++c) {
      w.Link(signatures[c] + 4, w.String(cconvs[c]));
    }
    return w.Archive();
  }
};

// Milliseconds VerifyModuleBytecode takes on `file`, with its status.
std::pair<double, Status> TimedVerify(const ModuleFile& file) {
  const auto start = std::chrono::steady_clock::now();
  Status status = VerifyModuleBytecode(file);
  const std::chrono::duration<double, std::milli> elapsed =
      std::chrono::steady_clock::now() - start;
  return {elapsed.count(), std::move(status)};
}

// A verify that did O(file) work takes milliseconds even under ASan; the
// shapes below took well over 10 s before message text was built lazily and
// cconvs were analyzed once per module.
constexpr double kGenerousMs = 3000;  // loaded 2-core CI machines included

// One import with a 12 KB non-printable name, called 1200 times with an
// operand and a result. Passing calls must not format the callee's name.
HostileModule LongNamedImportCalls(uint16_t bad_last_operand) {
  constexpr size_t kNameBytes = 12000;
  constexpr int kCalls = 1200;
  HostileModule m;
  m.name = std::string(kNameBytes, '\x02');
  m.cconvs = {"0v_v", "0i_i"};
  m.imports.push_back({"m." + std::string(kNameBytes, '\x01'), 1});
  Assembler a;
  a.Block();
  for (int i = 0; i < kCalls; ++i) {
    a.Call(kImportOrdinalBit,
           {i + 1 == kCalls ? bad_last_operand : uint16_t{0}}, {0});
  }
  a.Return();
  m.bytecode = a.bytes();
  m.functions.push_back({0, static_cast<uint32_t>(m.bytecode.size()), 1,
                         /*i32_count=*/1, 0, /*cconv=*/0});
  return m;
}

TEST(VerifierCostTest, CallsToLongNamedImportFormatNothing) {
  auto file = MustLoad(LongNamedImportCalls(0).Build());
  ASSERT_NE(file, nullptr);
  auto [ms, status] = TimedVerify(*file);
  EXPECT_TRUE(status.ok()) << status.ToString();
  EXPECT_LT(ms, kGenerousMs);
}

TEST(VerifierCostTest, LongNamesAreCutInMessages) {
  // The last call passes a ref register where the import takes an i32: the
  // message still names the operand, the callee and its cconv, with the
  // names cut short.
  auto file = MustLoad(LongNamedImportCalls(kRefRegisterBit).Build());
  ASSERT_NE(file, nullptr);
  Status status = VerifyModuleBytecode(*file);
  ASSERT_FALSE(status.ok());
  const std::string message = status.ToString();
  EXPECT_NE(message.find("operand 0 ('i' of import #0 'm.\\x01\\x01"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("\\x01... (12002 bytes)' (cconv '0i_i'))"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("must be an i32 register but is ref register %r0"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("while verifying module '\\x02\\x02"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("... (12000 bytes)'"), std::string::npos) << message;
  EXPECT_LT(message.size(), 2000u) << message;
}

// A function whose own cconv has 32000 arguments, with 8000 blocks that
// each return. Passing returns must not format the cconv.
HostileModule ReturnsUnderLongCconv(bool bad_last_return) {
  constexpr size_t kArguments = 32000;
  constexpr int kBlocks = 8000;
  HostileModule m;
  m.cconvs = {"0" + std::string(kArguments, 'i') + "_v"};
  Assembler a;
  for (int i = 0; i < kBlocks; ++i) {
    a.Block();
    if (bad_last_return && i + 1 == kBlocks) {
      a.Return({0});
    } else {
      a.Return();
    }
  }
  m.bytecode = a.bytes();
  m.functions.push_back({0, static_cast<uint32_t>(m.bytecode.size()), kBlocks,
                         static_cast<uint16_t>(kArguments), 0, 0});
  return m;
}

TEST(VerifierCostTest, ReturnsUnderLongCconvFormatNothing) {
  auto file = MustLoad(ReturnsUnderLongCconv(false).Build());
  ASSERT_NE(file, nullptr);
  auto [ms, status] = TimedVerify(*file);
  EXPECT_TRUE(status.ok()) << status.ToString();
  EXPECT_LT(ms, kGenerousMs);
}

TEST(VerifierCostTest, LongCconvsAreCutInMessages) {
  auto file = MustLoad(ReturnsUnderLongCconv(true).Build());
  ASSERT_NE(file, nullptr);
  Status status = VerifyFunction(*file, 0);
  ASSERT_FALSE(status.ok());
  const std::string message = status.ToString();
  EXPECT_NE(message.find("(vm.return): returns 1 value(s) but this function's "
                         "results (cconv '0iiii"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("iii... (32003 bytes)') has 0"), std::string::npos)
      << message;
  EXPECT_LT(message.size(), 1000u) << message;
}

// 8000 functions, each with its own body, sharing one signature whose
// cconv has 200000 results. The cconv is analyzed once, not per function.
HostileModule FunctionsSharingLongCconv() {
  constexpr size_t kResults = 200000;
  constexpr int kFunctions = 8000;
  HostileModule m;
  m.cconvs = {"0v_" + std::string(kResults, 'i')};
  Assembler a;
  for (int i = 0; i < kFunctions; ++i) {
    a.AlignFunction();
    const size_t start = a.here();
    a.Block();
    a.Branch(0);  // loops forever: no return, so no result list to match
    m.functions.push_back({static_cast<uint32_t>(start),
                           static_cast<uint32_t>(a.here() - start), 1, 0, 0,
                           0});
  }
  m.bytecode = a.bytes();
  return m;
}

TEST(VerifierCostTest, SharedCconvIsAnalyzedOncePerModule) {
  HostileModule m = FunctionsSharingLongCconv();
  auto file = MustLoad(m.Build());
  ASSERT_NE(file, nullptr);
  ModuleVerifier verifier(*file);
  for (size_t i = 0; i < m.functions.size(); ++i) {
    Status status = verifier.VerifyFunction(i);
    ASSERT_TRUE(status.ok()) << status.ToString();
  }
  EXPECT_EQ(verifier.stats().cconv_strings_analyzed, 1u);
  EXPECT_EQ(verifier.stats().cconv_bytes_analyzed, m.cconvs[0].size());
}

TEST(VerifierCostTest, FunctionsSharingLongCconvVerifyFast) {
  auto file = MustLoad(FunctionsSharingLongCconv().Build());
  ASSERT_NE(file, nullptr);
  auto [ms, status] = TimedVerify(*file);
  EXPECT_TRUE(status.ok()) << status.ToString();
  EXPECT_LT(ms, kGenerousMs);
}

// 2000 vm.call.variadic calls passing zero tuples to an import whose only
// argument is a span with a 100000-value body: each call must step over the
// span in O(1), not re-parse or scan the cconv.
HostileModule VariadicCallsOverLongSpan(uint16_t bad_last_segment) {
  constexpr size_t kBody = 100000;
  constexpr int kCalls = 2000;
  HostileModule m;
  m.cconvs = {"0v_v", "0C" + std::string(kBody, 'i') + "D_v"};
  m.imports.push_back({"m.variadic", 1});
  Assembler a;
  a.Block();
  for (int i = 0; i < kCalls; ++i) {
    a.CallVariadic(kImportOrdinalBit,
                   {i + 1 == kCalls ? bad_last_segment : uint16_t{0}}, {}, {});
  }
  a.Return();
  m.bytecode = a.bytes();
  m.functions.push_back(
      {0, static_cast<uint32_t>(m.bytecode.size()), 1, 0, 0, 0});
  return m;
}

TEST(VerifierCostTest, VariadicCallsOverLongSpanVerifyFast) {
  auto file = MustLoad(VariadicCallsOverLongSpan(0).Build());
  ASSERT_NE(file, nullptr);
  auto [ms, status] = TimedVerify(*file);
  EXPECT_TRUE(status.ok()) << status.ToString();
  EXPECT_LT(ms, kGenerousMs);
  ModuleVerifier verifier(*file);
  ASSERT_TRUE(verifier.VerifyFunction(0).ok());
  EXPECT_EQ(verifier.stats().cconv_strings_analyzed, 2u);
}

TEST(VerifierCostTest, VariadicSpanErrorsStayInformative) {
  // One tuple of a 100000-value span with no operands.
  auto file = MustLoad(VariadicCallsOverLongSpan(1).Build());
  ASSERT_NE(file, nullptr);
  Status status = VerifyFunction(*file, 0);
  ASSERT_FALSE(status.ok());
  const std::string message = status.ToString();
  EXPECT_NE(message.find("passes 0 operand register(s) but the segment sizes "
                         "of import #0 'm.variadic' (cconv '0Ciii"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("... (100005 bytes)') need more"), std::string::npos)
      << message;
}

// IREE 3.12+'s iree-as-module declares only the registers instructions
// name, so `vm.func @f(%i0: i32) { vm.return }` has an i32 register count
// of 0; IREE's runtime runs it (control_flow_ops at IREE main). The frame is
// sized for the arguments instead (BytecodeModule).
std::vector<uint8_t> ReturnOnlyFunction(std::string cconv) {
  HostileModule m;
  m.cconvs = {std::move(cconv)};
  Assembler a;
  a.Block();
  a.Return();
  m.bytecode = a.bytes();
  m.functions.push_back({0, static_cast<uint32_t>(m.bytecode.size()), 1,
                         /*i32_count=*/0, /*ref_count=*/0, /*cconv=*/0});
  return m.Build();
}

TEST(VerifierTest, ArgumentsPastTheDeclaredCountAreAccepted) {
  auto file = MustLoad(ReturnOnlyFunction("0iIr_v"));
  ASSERT_NE(file, nullptr);
  Status status = VerifyModuleBytecode(*file);
  EXPECT_TRUE(status.ok()) << status.ToString();
}

TEST(VerifierTest, ArgumentsBeyondTheRegisterFileAreRejected) {
  // 16384 i64 arguments take 32768 int registers; the ISA has 32767.
  ExpectRejected(ReturnOnlyFunction("0" + std::string(16384, 'I') + "_v"), 0,
                 std::nullopt, "more than the ISA's 32767 and 16383");
  // 16384 refs; the ISA has 16383.
  ExpectRejected(ReturnOnlyFunction("0" + std::string(16384, 'r') + "_v"), 0,
                 std::nullopt, "more than the ISA's 32767 and 16383");
}

// A module with 1 MiB of bytecode or more is verified on two threads; the
// error is still the first failing function's, as one thread finds it.
std::vector<uint8_t> TwoLargeFunctions(bool bad_first, bool bad_second) {
  HostileModule m;
  m.cconvs = {"0v_v"};
  constexpr int kConstants = 90000;  // 7 bytes each: 630 KB per function
  for (int f = 0; f < 2; ++f) {
    const bool bad = f == 0 ? bad_first : bad_second;
    Assembler a;
    a.Block();
    for (int i = 0; i < kConstants; ++i) {
      // The bad one near the end: the other half is long done by then.
      a.ConstI32(i, bad && i == kConstants - 10 ? uint16_t{5} : uint16_t{0});
    }
    a.Return();
    const uint32_t offset = static_cast<uint32_t>(m.bytecode.size());
    m.bytecode.insert(m.bytecode.end(), a.bytes().begin(), a.bytes().end());
    while (m.bytecode.size() % 4) m.bytecode.push_back(0);
    m.functions.push_back({offset, static_cast<uint32_t>(a.bytes().size()), 1,
                           /*i32_count=*/1, 0, /*cconv=*/0});
  }
  return m.Build();
}

TEST(VerifierTest, LargeModulesAnswerAsOneThreadWould) {
  auto good = MustLoad(TwoLargeFunctions(false, false));
  ASSERT_NE(good, nullptr);
  ASSERT_GE(good->def().bytecode_data.size(), size_t{1} << 20);
  Status status = VerifyModuleBytecode(*good);
  EXPECT_TRUE(status.ok()) << status.ToString();
  for (const auto& [first, second] :
       {std::pair{true, true}, std::pair{true, false},
        std::pair{false, true}}) {
    auto file = MustLoad(TwoLargeFunctions(first, second));
    ASSERT_NE(file, nullptr);
    status = VerifyModuleBytecode(*file);
    ASSERT_FALSE(status.ok());
    const std::string message = status.ToString();
    // The one-thread answer, function by function.
    Status expected = VerifyFunction(*file, first ? 0 : 1);
    ASSERT_FALSE(expected.ok());
    EXPECT_NE(message.find(expected.ToString().substr(
                  expected.ToString().find("function"))),
              std::string::npos)
        << message;
    EXPECT_NE(message.find(first ? "function #0" : "function #1"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("while verifying module 'hostile'"),
              std::string::npos)
        << message;
  }
}

}  // namespace
}  // namespace ember::vm::bytecode
