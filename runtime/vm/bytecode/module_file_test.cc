// Loader tests over real modules compiled by iree-compile 3.11 from Ember's
// own corpus (tools/ember_corpus.py), plus corruption: truncation at every
// 1/64 of each file and seeded random byte flips. Under the ASan+UBSan build
// these show that hostile files only ever produce clean errors.
#include "runtime/vm/bytecode/module_file.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "runtime/testing/corpus.h"
#include "runtime/testing/flat_writer.h"
#include "runtime/vm/bytecode/module_dump.h"

namespace ember::vm::bytecode {
namespace {

using ::ember::testing::CorpusFile;
using ::ember::testing::LoadCorpus;

// Every corpus file, read once; each test that asks for it fails when there
// is none.
std::vector<CorpusFile>& Corpus() {
  static std::vector<CorpusFile> corpus = LoadCorpus();
  if (corpus.empty()) {
    ADD_FAILURE() << ::ember::testing::MissingCorpusMessage("*");
  }
  return corpus;
}

// Exercises every view of a loaded module so that an inconsistent one would
// fault under the sanitizers.
void TouchEverything(const ModuleFile& file) {
  std::string text = DumpModuleText(file, {/*verbose=*/true});
  std::string json = DumpModuleJson(file);
  ASSERT_FALSE(text.empty());
  ASSERT_FALSE(json.empty());
  for (size_t i = 0; i < file.def().function_descriptors.size(); ++i) {
    std::span<const uint8_t> code = file.FunctionBytecode(i);
    ASSERT_GE(code.data(), file.def().bytecode_data.data());
    (void)file.SourceLocation(i, static_cast<int32_t>(code.size()) - 1);
  }
  for (size_t i = 0; i < file.rodata_count(); ++i) {
    std::span<const uint8_t> data = file.rodata(i);
    if (!data.empty()) {
      ASSERT_GE(data.data(), file.archive().data());
      ASSERT_LE(data.data() + data.size(),
                file.archive().data() + file.archive().size());
      volatile uint8_t last = data.back();
      (void)last;
    }
  }
}

TEST(ModuleFileCorpus, CorpusIsPresent) {
  ASSERT_GE(Corpus().size(), 10u)
      << "the compiled corpus is missing: run `python3 tools/ember_corpus.py "
         "build` or set EMBER_CORPUS_DIR (found dir: '"
      << ::ember::testing::CorpusDirectory() << "')";
}

TEST(ModuleFileCorpus, EveryModuleLoads) {
  for (const CorpusFile& corpus_file : Corpus()) {
    SCOPED_TRACE(corpus_file.name);
    auto file = ModuleFile::LoadCopy(corpus_file.bytes);
    ASSERT_TRUE(file.ok()) << file.status().ToString();
    const ModuleDef& def = (*file)->def();
    EXPECT_FALSE(def.name.empty());
    EXPECT_FALSE(def.exported_functions.empty());
    EXPECT_EQ(def.function_signatures.size(), def.function_descriptors.size());
    EXPECT_EQ((*file)->bytecode_version_major(), 17u);
    bool zip = corpus_file.name.find(".flat") == std::string::npos;
    EXPECT_EQ((*file)->layout().zip_wrapped, zip);
    if (zip) {
      // The polyglot header pads the FlatBuffer to start at offset 64 + 4.
      EXPECT_EQ((*file)->layout().flatbuffer_offset % 64, 4u);
    }
    TouchEverything(**file);
  }
}

TEST(ModuleFileCorpus, MappedAndCopiedLoadsAgree) {
  for (const CorpusFile& corpus_file : Corpus()) {
    SCOPED_TRACE(corpus_file.name);
    auto mapped = ModuleFile::LoadFile(corpus_file.path);
    auto copied = ModuleFile::LoadCopy(corpus_file.bytes);
    ASSERT_TRUE(mapped.ok()) << mapped.status().ToString();
    ASSERT_TRUE(copied.ok()) << copied.status().ToString();
    EXPECT_EQ(DumpModuleJson(**mapped), DumpModuleJson(**copied));
    EXPECT_EQ((*mapped)->storage()->kind(), ByteStorage::Kind::kFileMapping);
  }
}

TEST(ModuleFileCorpus, ZipAndFlatFormsDescribeTheSameModule) {
  int compared = 0;
  for (const CorpusFile& flat : Corpus()) {
    size_t dot = flat.name.rfind(".flat");
    if (dot == std::string::npos) continue;
    std::string base = flat.name.substr(0, dot);
    for (const CorpusFile& zip : Corpus()) {
      if (zip.name != base + ".embedded") continue;
      SCOPED_TRACE(base);
      auto a = ModuleFile::LoadCopy(flat.bytes);
      auto b = ModuleFile::LoadCopy(zip.bytes);
      ASSERT_TRUE(a.ok() && b.ok());
      const ModuleDef& x = (*a)->def();
      const ModuleDef& y = (*b)->def();
      EXPECT_EQ(x.name, y.name);
      ASSERT_EQ(x.exported_functions.size(), y.exported_functions.size());
      for (size_t i = 0; i < x.exported_functions.size(); ++i) {
        EXPECT_EQ(x.exported_functions[i].local_name,
                  y.exported_functions[i].local_name);
      }
      ASSERT_EQ(x.bytecode_data.size(), y.bytecode_data.size());
      EXPECT_TRUE(std::equal(x.bytecode_data.begin(), x.bytecode_data.end(),
                             y.bytecode_data.begin()));
      ASSERT_EQ((*a)->rodata_count(), (*b)->rodata_count());
      for (size_t i = 0; i < (*a)->rodata_count(); ++i) {
        auto ra = (*a)->rodata(i);
        auto rb = (*b)->rodata(i);
        ASSERT_EQ(ra.size(), rb.size()) << "rodata " << i;
        EXPECT_TRUE(std::equal(ra.begin(), ra.end(), rb.begin()))
            << "rodata " << i;
      }
      ++compared;
    }
  }
  EXPECT_GT(compared, 0) << "no module has both a flat and an embedded form";
}

// FindExport is a hash lookup built at load; it must agree with a linear
// search, including the first-wins rule for duplicate names.
TEST(ModuleFileCorpus, FindExportAgreesWithLinearSearch) {
  for (const CorpusFile& corpus_file : Corpus()) {
    SCOPED_TRACE(corpus_file.name);
    auto file = ModuleFile::LoadCopy(corpus_file.bytes);
    ASSERT_TRUE(file.ok()) << file.status().ToString();
    const auto& exports = (*file)->def().exported_functions;
    for (size_t i = 0; i < exports.size(); ++i) {
      size_t first = 0;
      while (exports[first].local_name != exports[i].local_name) ++first;
      EXPECT_EQ((*file)->FindExport(std::string(exports[i].local_name)),
                static_cast<int>(first));
    }
    EXPECT_EQ((*file)->FindExport("no such export"), -1);
  }
}

TEST(ModuleFileCorruption, TruncationAtEvery64th) {
  for (const CorpusFile& corpus_file : Corpus()) {
    SCOPED_TRACE(corpus_file.name);
    const std::vector<uint8_t>& bytes = corpus_file.bytes;
    for (size_t k = 0; k < 64; ++k) {
      size_t size = bytes.size() * k / 64;
      auto file = ModuleFile::LoadCopy({bytes.data(), size});
      if (file.ok()) {
        // Only the ZIP trailer (central directory) is optional; anything the
        // module uses must still be inside the shortened file.
        TouchEverything(**file);
      } else {
        EXPECT_FALSE(file.status().message().empty());
      }
    }
  }
}

TEST(ModuleFileCorruption, AFileThatIsNoModuleSaysSoFirst) {
  // Text, an npy header, an ELF header: no "IREE" identifier anywhere a
  // module has it.
  const std::string texts[] = {
      std::string("hello, this is not a module at all\n") +
          std::string(64, 'x'),
      std::string("\x93NUMPY\x01\x00v\x00{'descr': '<f4', ...}") +
          std::string(64, ' '),
      std::string("\x7f"
                  "ELF\x02\x01\x01") +
          std::string(64, '\0'),
  };
  for (const std::string& text : texts) {
    auto file = ModuleFile::LoadCopy(
        {reinterpret_cast<const uint8_t*>(text.data()), text.size()});
    ASSERT_FALSE(file.ok());
    EXPECT_EQ(file.status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(file.status().message().rfind("not an IREE module (.vmfb): ", 0),
              0u)
        << file.status().ToString();
  }
  // A module damaged past its identifier is a malformed module, not "not a
  // module".
  auto module = ::ember::testing::LoadCorpusFileOrFail("vm_calls.flat");
  ASSERT_TRUE(module.has_value());
  std::vector<uint8_t> damaged(module->bytes.begin(),
                               module->bytes.begin() + 64);
  auto file = ModuleFile::LoadCopy(damaged);
  ASSERT_FALSE(file.ok());
  EXPECT_EQ(file.status().ToString().find("not an IREE module"),
            std::string::npos)
      << file.status().ToString();
}

TEST(ModuleFileCorruption, SeededRandomByteFlips) {
  // 10,000 mutants in all, spread round-robin over the ZIP and flat forms of
  // every corpus module; each flips 1 to 4 random bytes. Most flips land in
  // the first 8 KiB, where the FlatBuffer's structure lives; one in eight
  // lands anywhere in the file.
  constexpr int kMutants = 10000;
  std::vector<const CorpusFile*> files;
  for (const CorpusFile& corpus_file : Corpus()) {
    if (corpus_file.name.find(".embedded") != std::string::npos ||
        corpus_file.name.find(".flat") != std::string::npos) {
      files.push_back(&corpus_file);
    }
  }
  ASSERT_FALSE(files.empty());
  std::mt19937_64 random(0xE3BE5EED);
  int rejected = 0, accepted = 0;
  std::vector<uint8_t> mutant;
  for (int m = 0; m < kMutants; ++m) {
    const CorpusFile& corpus_file = *files[m % files.size()];
    mutant = corpus_file.bytes;
    int flips = 1 + static_cast<int>(random() % 4);
    std::string where;
    for (int f = 0; f < flips; ++f) {
      size_t limit = (random() % 8 == 0)
                         ? mutant.size()
                         : std::min<size_t>(mutant.size(), 8192);
      size_t at = random() % limit;
      mutant[at] ^= static_cast<uint8_t>(1 + random() % 255);
      where += " " + std::to_string(at);
    }
    SCOPED_TRACE(corpus_file.name + " mutant " + std::to_string(m) +
                 " flipped at" + where);
    auto file = ModuleFile::LoadCopy(mutant);
    if (file.ok()) {
      ++accepted;
      TouchEverything(**file);
    } else {
      ++rejected;
      ASSERT_FALSE(file.status().message().empty());
    }
  }
  RecordProperty("accepted", accepted);
  RecordProperty("rejected", rejected);
  EXPECT_GT(rejected, kMutants / 10);
}

// ---- semantic checks on a parsed module, one broken fact at a time --------

class VerifyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const CorpusFile& corpus_file : Corpus()) {
      if (corpus_file.name.find(".embedded") == std::string::npos) continue;
      auto file = ModuleFile::LoadCopy(corpus_file.bytes);
      ASSERT_TRUE(file.ok());
      if ((*file)->def().debug_database && (*file)->rodata_count() > 0 &&
          !(*file)->def().imported_functions.empty()) {
        file_ = *file;
        break;
      }
    }
    ASSERT_TRUE(file_)
        << "no corpus module with imports, rodata and debug info";
    def_ = file_->def();
  }

  Status Verify() {
    return VerifyModuleDef(def_, file_->archive(), file_->layout());
  }
  void ExpectError(const std::string& fragment) {
    Status status = Verify();
    ASSERT_FALSE(status.ok())
        << "expected an error containing '" << fragment << "'";
    EXPECT_EQ(status.code(), fragment == "unknown features"
                                 ? StatusCode::kUnimplemented
                                 : StatusCode::kInvalidArgument);
    EXPECT_NE(status.ToString().find(fragment), std::string::npos)
        << status.ToString();
  }

  std::shared_ptr<const ModuleFile> file_;
  ModuleDef def_;
};

TEST_F(VerifyTest, UnmodifiedModulePasses) { EXPECT_TRUE(Verify().ok()); }

TEST_F(VerifyTest, RejectsOtherBytecodeVersionsNamingTheCompiler) {
  struct Case {
    uint32_t version;
    const char* compiler;
  };
  for (const Case& c : {
           Case{16u << 16, "built by iree-compile 3.10 (bytecode 16.0)"},
           Case{15u << 16,
                "built by iree-compile 3.9 or older (bytecode 15.0)"},
           Case{0u, "built by iree-compile 3.9 or older (bytecode 0.0)"},
           Case{18u << 16, "an iree-compile newer than 3.13 (bytecode 18.0)"},
           Case{(17u << 16) | 1u,
                "an iree-compile newer than 3.13 (bytecode 17.1)"},
       }) {
    def_.bytecode_version = c.version;
    ExpectError(c.compiler);
    ExpectError(
        "Ember runs modules from iree-compile 3.11-3.13 (bytecode "
        "17.0)");
  }
}

TEST_F(VerifyTest, RejectsUnknownRequirements) {
  def_.requirements |= 1u << 7;
  ExpectError("unknown features");
}

TEST_F(VerifyTest, RejectsUnknownFunctionRequirements) {
  def_.function_descriptors[0].requirements |= 1u << 9;
  ExpectError("unknown features");
}

TEST_F(VerifyTest, RejectsExportOrdinalOutOfRange) {
  def_.exported_functions[0].internal_ordinal =
      static_cast<int32_t>(def_.function_descriptors.size());
  ExpectError("internal_ordinal");
  def_.exported_functions[0].internal_ordinal = -1;
  ExpectError("internal_ordinal");
}

TEST_F(VerifyTest, RejectsSignatureDescriptorMismatch) {
  def_.function_signatures.pop_back();
  ExpectError("function_signatures has");
}

TEST_F(VerifyTest, RejectsFunctionSpanOutsideBytecode) {
  def_.function_descriptors[0].bytecode_offset =
      static_cast<int32_t>(def_.bytecode_data.size());
  ExpectError("bytecode span");
  SetUp();
  def_.function_descriptors[0].bytecode_length = 0x7FFFFFFF;
  ExpectError("bytecode span");
  SetUp();
  def_.function_descriptors[0].bytecode_offset = -4;
  ExpectError("bytecode span");
}

// Descriptors sharing one bytecode body would make verification and the
// quickened copy redo that body for each of them (800 descriptors x one 56 KB
// body took seconds), and the compiler never emits them.
TEST_F(VerifyTest, RejectsOverlappingFunctionSpans) {
  const size_t last = def_.function_descriptors.size();
  def_.function_descriptors.push_back(def_.function_descriptors[0]);
  def_.function_signatures.push_back(def_.function_signatures[0]);
  ExpectError(StringPrintf("function_descriptors[%zu] bytecode span", last));
  ExpectError("overlaps function_descriptors[0] bytecode span");

  // A span that starts inside another but is not the same one.
  FunctionDescriptor& copy = def_.function_descriptors.back();
  copy.bytecode_offset += copy.bytecode_length - 1;
  copy.bytecode_length = 1;
  ExpectError("overlaps function_descriptors[0]");
}

TEST_F(VerifyTest, RejectsEmptyFunctions) {
  def_.function_descriptors[0].block_count = 0;
  ExpectError("block_count");
}

TEST_F(VerifyTest, RejectsRegisterCountsOverLimit) {
  def_.function_descriptors[0].i32_register_count = 0x7FFF + 0;
  EXPECT_TRUE(Verify().ok());
  def_.function_descriptors[0].ref_register_count = 0x4000;
  ExpectError("register counts");
  SetUp();
  def_.function_descriptors[0].i32_register_count = -1;
  ExpectError("register counts");
}

// The file layer checks only how type names are spelled; whether a name
// exists is decided against an instance's registry when the module is
// created (linking_test.cc: an unregistered "!hal.nonse" fails there,
// naming it).
TEST_F(VerifyTest, AcceptsWellFormedTypeNamesWhateverTheyName) {
  for (std::string_view name :
       {"i8", "f64", "!hal.nonsense", "!vm.list<!vm.list<?>>",
        "!vm.list<tuple<i32, i32>>", "!my_module.thing2", "!a.b.c"}) {
    SetUp();
    def_.types.push_back(name);
    EXPECT_TRUE(Verify().ok()) << name;
  }
}

TEST_F(VerifyTest, RejectsMalformedTypeNames) {
  for (std::string_view name :
       {"", "i7", "index", "hal.buffer", "!", "!hal", "!hal.", "!.buffer",
        "!hal..buffer", "!9hal.buffer", "!hal.buf-fer", "!vm.list<",
        "!vm.list<>", "!vm.list<i32", "!vm.list<i32>>", "!vm.list<a><b>",
        "!vm.list<i32>x", "!hal.buffer ", "!vm.list<\x01>"}) {
    SetUp();
    def_.types.push_back(name);
    ExpectError("is not a well-formed type name");
  }
}

TEST_F(VerifyTest, RejectsBadCallingConventions) {
  for (std::string_view cconv :
       {"1r_r", "0rx_r", "0r", "0Cr_r", "0rD_v", "0CD_v", "0_r", "0CrCrDD_v"}) {
    SetUp();
    def_.imported_functions[0].signature.calling_convention = cconv;
    ExpectError("invalid calling convention");
  }
}

// Strings nested inside one another (a FlatBuffer string's bytes may hold
// another string's length prefix) are distinct strings, yet their total
// length can grow with the square of the file size, and each one's cconv
// would be parsed. Here the views share a start instead, which is as good for
// the check: in a valid module distinct strings never overlap.
TEST_F(VerifyTest, RejectsOverlappingStrings) {
  std::string cconv = "0v_" + std::string(file_->archive().size() / 3, 'i');
  ASSERT_TRUE(ParseCallingConvention(cconv).ok());
  ImportFunctionDef import = def_.imported_functions[0];
  for (size_t k = 0; k < 4; ++k) {
    import.signature.calling_convention =
        std::string_view(cconv).substr(0, cconv.size() - k);
    def_.imported_functions.push_back(import);
  }
  ExpectError("overlaps other strings");
}

// The converse: one long string that many entries share is checked once and
// charged once, so a module that does this still loads.
TEST_F(VerifyTest, AcceptsOneLongCallingConventionSharedByManyImports) {
  std::string cconv = "0v_" + std::string(file_->archive().size() / 2, 'i');
  ImportFunctionDef import = def_.imported_functions[0];
  import.signature.calling_convention = cconv;
  for (int k = 0; k < 1000; ++k) def_.imported_functions.push_back(import);
  EXPECT_TRUE(Verify().ok()) << Verify().ToString();
}

// Descriptors already in offset order (as iree-compile writes them) are
// checked without sorting; an overlap there is caught just the same, and
// named the same way.
TEST_F(VerifyTest, RejectsOverlappingFunctionSpansInOffsetOrder) {
  auto& descriptors = def_.function_descriptors;
  for (size_t i = 1; i < descriptors.size(); ++i) {
    ASSERT_LE(descriptors[i - 1].bytecode_offset,
              descriptors[i].bytecode_offset)
        << "the corpus module's descriptors are not in offset order";
  }
  const size_t last = descriptors.size() - 1;
  FunctionDescriptor inside = descriptors[last];
  inside.bytecode_offset += inside.bytecode_length - 1;
  inside.bytecode_length = 1;
  descriptors.push_back(inside);
  def_.function_signatures.push_back(def_.function_signatures[0]);
  ExpectError(
      StringPrintf("function_descriptors[%zu] bytecode span [%d, +1) "
                   "overlaps function_descriptors[%zu]",
                   last + 1, inside.bytecode_offset, last));
  // Touching, not overlapping: fine.
  descriptors.back().bytecode_offset += 1;
  descriptors.back().bytecode_length = 0;
  ExpectError("bytecode span");  // a zero-length span is still refused
  descriptors.back().bytecode_length = 1;
  if (int64_t{descriptors.back().bytecode_offset} + 1 <=
      static_cast<int64_t>(def_.bytecode_data.size())) {
    EXPECT_TRUE(Verify().ok()) << Verify().ToString();
  }
}

// Short calling conventions are checked on every reference (one that reads
// like the last valid one passes at once); copies of a valid one do not let
// an invalid one through, whatever its position.
TEST_F(VerifyTest, ChecksEveryShortCallingConvention) {
  std::vector<std::string> texts(200, "0ii_i");
  texts[137] = "0ii_x";
  ImportFunctionDef import = def_.imported_functions[0];
  const size_t first = def_.imported_functions.size();
  for (const std::string& text : texts) {
    import.signature.calling_convention = text;
    def_.imported_functions.push_back(import);
  }
  ExpectError(StringPrintf(
      "imported_functions[%zu] has an invalid calling convention '0ii_x'",
      first + 137));
  texts[137] = "0ii_i";
  def_.imported_functions[first + 137].signature.calling_convention =
      texts[137];
  EXPECT_TRUE(Verify().ok()) << Verify().ToString();
}

TEST_F(VerifyTest, RejectsExternalRodataOutsideArchive) {
  size_t external = def_.rodata_segments.size();
  for (size_t i = 0; i < def_.rodata_segments.size(); ++i) {
    if (!def_.rodata_segments[i].embedded) external = i;
  }
  if (external == def_.rodata_segments.size()) {
    def_.rodata_segments[0].embedded = false;
    external = 0;
  }
  def_.rodata_segments[external].external_data_length = file_->archive().size();
  ExpectError("lies outside");
  def_.rodata_segments[external].external_data_length = 1;
  def_.rodata_segments[external].external_data_offset = ~uint64_t{0} - 1;
  ExpectError("lies outside");
}

TEST_F(VerifyTest, RejectsNamelessDependencyAndImport) {
  if (!def_.dependencies.empty()) {
    def_.dependencies[0].name = {};
    ExpectError("no module name");
    SetUp();
  }
  def_.imported_functions[0].full_name = "nodot";
  ExpectError("is not 'module.function'");
}

TEST_F(VerifyTest, RejectsHugeModuleState) {
  def_.module_state.global_bytes_capacity = 0x7FFFFFFF;
  ExpectError("module_state");
  SetUp();
  def_.module_state.global_ref_count = -1;
  ExpectError("module_state");
}

TEST_F(VerifyTest, RejectsDebugLocationOutOfRange) {
  ASSERT_FALSE(def_.debug_database->functions.empty());
  auto& functions = def_.debug_database->functions;
  for (auto& function : functions) {
    if (!function.locations.empty()) {
      function.locations[0].location = 1 << 20;
      ExpectError("location reference");
      return;
    }
  }
  GTEST_FAIL() << "no debug locations to corrupt";
}

// ---- hand-built modules ----------------------------------------------------

using ember::testing::FlatWriter;

// One function (4 bytes of bytecode, never verified at load) whose source
// map points pc 0 at location 0, a fused location whose `children` children
// are all location 0 itself.
std::vector<uint8_t> CyclicFusedLocationModule(uint32_t children) {
  enum {
    kName = 0,
    kSignatures = 8,
    kDescriptors = 12,
    kBytecodeVersion,
    kBytecodeData,
    kDebugDatabase
  };
  FlatWriter w;
  size_t root = w.TableWithAllSlots(
      16, {kName, kSignatures, kDescriptors, kBytecodeVersion, kBytecodeData,
           kDebugDatabase});
  w.Link(0, root);
  w.Put32(FlatWriter::Field(root, kBytecodeVersion), 17u << 16);
  w.Link(FlatWriter::Field(root, kName), w.String("cyclic"));
  size_t signatures = w.Vector(1, 4);
  w.Link(FlatWriter::Field(root, kSignatures), signatures);
  w.Link(signatures + 4, w.TableWithAllSlots(0, {}));
  size_t descriptors = w.Vector(1, 20);
  w.Link(FlatWriter::Field(root, kDescriptors), descriptors);
  w.Put32(descriptors + 4 + 4, 4);   // bytecode_length (offset 0)
  w.Put16(descriptors + 4 + 14, 1);  // block_count
  size_t bytecode = w.Vector(4, 1);
  w.Link(FlatWriter::Field(root, kBytecodeData), bytecode);

  size_t database = w.TableWithAllSlots(3, {0, 1, 2});
  w.Link(FlatWriter::Field(root, kDebugDatabase), database);
  size_t types = w.Vector(1, 1);
  w.Link(FlatWriter::Field(database, 0), types);
  w.Put16(types + 4, 3);  // FusedLoc (and a padding byte)
  size_t values = w.Vector(1, 4);
  w.Link(FlatWriter::Field(database, 1), values);
  size_t fused = w.TableWithAllSlots(2, {1});
  w.Link(values + 4, fused);
  w.Link(FlatWriter::Field(fused, 1), w.Vector(children, 4));
  size_t maps = w.Vector(1, 4);
  w.Link(FlatWriter::Field(database, 2), maps);
  size_t map = w.TableWithAllSlots(2, {0, 1});
  w.Link(maps + 4, map);
  w.Link(FlatWriter::Field(map, 0), w.String("f"));
  w.Link(FlatWriter::Field(map, 1), w.Vector(1, 8));  // pc 0 -> location 0
  return w.Archive();
}

// The depth cap alone lets a fused location whose K children lead back to it
// branch K ways at every level: K^9 visits for one lookup (10 children took
// 20 s). The per-lookup visit budget cuts it short, and the text says so.
// (With 4 children the uncut walk still ends, with no text at all.)
TEST(ModuleFileLocations, CyclicFusedLocationIsCutShort) {
  auto file = ModuleFile::LoadCopy(CyclicFusedLocationModule(4));
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  EXPECT_EQ((*file)->SourceLocation(0, 0), "...");
  EXPECT_EQ((*file)->DescribeLocation(0), "...");
  TouchEverything(**file);
}

// One function and an export per entry of `names`, all of internal ordinal
// 0. Exports whose entry in `share_with` is k >= 0 use export k's very
// string (one FlatBuffer string, several offsets to it).
std::vector<uint8_t> ExportsModule(const std::vector<std::string>& names,
                                   const std::vector<int>& share_with) {
  enum {
    kName = 0,
    kExports = 7,
    kSignatures = 8,
    kDescriptors = 12,
    kBytecodeVersion,
    kBytecodeData
  };
  FlatWriter w;
  size_t root =
      w.TableWithAllSlots(15, {kName, kExports, kSignatures, kDescriptors,
                               kBytecodeVersion, kBytecodeData});
  w.Link(0, root);
  w.Put32(FlatWriter::Field(root, kBytecodeVersion), 17u << 16);
  w.Link(FlatWriter::Field(root, kName), w.String("exports"));
  size_t exports = w.OffsetVector(names.size());
  w.Link(FlatWriter::Field(root, kExports), exports);
  std::vector<size_t> tables(names.size());
  for (size_t i = 0; i < names.size(); ++i) {
    tables[i] = w.TableWithAllSlots(2, {0});
    w.Link(exports + 4 + 4 * i, tables[i]);
  }
  std::vector<size_t> strings(names.size());
  for (size_t i = 0; i < names.size(); ++i) {
    if (share_with[i] >= 0) {
      strings[i] = strings[static_cast<size_t>(share_with[i])];
    } else {
      strings[i] = w.String(names[i]);
    }
  }
  // Offsets point forward, so the name words are linked once every string
  // is placed (a shared string precedes none of its later users' tables).
  for (size_t i = 0; i < names.size(); ++i) {
    w.Link(FlatWriter::Field(tables[i], 0), strings[i]);
  }
  size_t signatures = w.Vector(1, 4);
  w.Link(FlatWriter::Field(root, kSignatures), signatures);
  w.Link(signatures + 4, w.TableWithAllSlots(0, {}));
  size_t descriptors = w.Vector(1, 20);
  w.Link(FlatWriter::Field(root, kDescriptors), descriptors);
  w.Put32(descriptors + 4 + 4, 4);   // bytecode_length (offset 0)
  w.Put16(descriptors + 4 + 14, 1);  // block_count
  w.Link(FlatWriter::Field(root, kBytecodeData), w.Vector(4, 1));
  return w.Archive();
}

// The export table against a linear search, over thousands of names (the
// table grows and probes), duplicates spelled out twice, and long names that
// many exports share (skipped by identity) or that repeat in a copy.
TEST(ModuleFileExports, FindExportAgreesWithLinearSearch) {
  const std::string long_name(100, 'x');
  std::vector<std::string> names;
  std::vector<int> share_with;
  for (int i = 0; i < 3000; ++i) {
    names.push_back("f" + std::to_string(i % 2500));  // 500 duplicates
    share_with.push_back(-1);
  }
  names.push_back(long_name);
  share_with.push_back(-1);
  const int first_long = static_cast<int>(names.size()) - 1;
  for (int i = 0; i < 200; ++i) {
    names.push_back(long_name);
    share_with.push_back(first_long);
  }
  names.push_back(long_name);  // equal text, its own string
  share_with.push_back(-1);
  names.push_back(long_name + "y");
  share_with.push_back(-1);

  auto file = ModuleFile::LoadCopy(ExportsModule(names, share_with));
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  const auto& exports = (*file)->def().exported_functions;
  ASSERT_EQ(exports.size(), names.size());
  for (size_t i = 0; i < exports.size(); ++i) {
    ASSERT_EQ(exports[i].local_name, names[i]);
    size_t first = 0;
    while (names[first] != names[i]) ++first;
    EXPECT_EQ((*file)->FindExport(names[i]), static_cast<int>(first)) << i;
  }
  EXPECT_EQ((*file)->FindExport(long_name), first_long);
  EXPECT_EQ((*file)->FindExport(long_name + "y"),
            static_cast<int>(names.size()) - 1);
  EXPECT_EQ((*file)->FindExport("f2500"), -1);
  EXPECT_EQ((*file)->FindExport(""), -1);
  EXPECT_EQ((*file)->FindExport(long_name + "z"), -1);
}

TEST(ModuleFile, RejectsUnalignedStorage) {
  std::vector<uint8_t> bytes(256 + 1, 0);
  auto storage = ByteStorage::WrapExternal({bytes.data() + 1, 256}, nullptr);
  ASSERT_TRUE(storage.ok());
  auto file = ModuleFile::Load(*storage);
  ASSERT_FALSE(file.ok());
  EXPECT_NE(file.status().ToString().find("aligned"), std::string::npos);
}

TEST(ModuleFile, WrappedStorageReleasesExactlyOnce) {
  int releases = 0;
  {
    std::vector<uint8_t> garbage(64, 0xAB);
    auto storage = ByteStorage::CopyOf(garbage);
    ASSERT_TRUE(storage.ok());
    auto wrapped = ByteStorage::WrapExternal((*storage)->span(),
                                             [&releases] { ++releases; });
    ASSERT_TRUE(wrapped.ok());
    auto file = ModuleFile::Load(*wrapped);
    EXPECT_FALSE(file.ok());
    EXPECT_EQ(releases, 0);  // still referenced by `wrapped`
  }
  EXPECT_EQ(releases, 1);
}

TEST(ModuleFile, MissingFileIsNotFound) {
  auto file = ModuleFile::LoadFile("/nonexistent/dir/module.vmfb");
  ASSERT_FALSE(file.ok());
  EXPECT_EQ(file.status().code(), StatusCode::kNotFound);
  EXPECT_NE(file.status().ToString().find("/nonexistent/dir/module.vmfb"),
            std::string::npos);
}

}  // namespace
}  // namespace ember::vm::bytecode
