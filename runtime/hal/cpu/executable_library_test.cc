#include "runtime/hal/cpu/executable_library.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "runtime/hal/cpu/elf_testing_internal.h"
#include "runtime/testing/corpus.h"

namespace ember::hal::cpu {
namespace {

const std::vector<testing::CorpusElf>& CorpusElfs() {
  static const auto* elfs = new std::vector<testing::CorpusElf>(
      testing::ElfsOf(ember::testing::LoadCorpus(".embedded")));
  return *elfs;
}

std::vector<uint8_t> ElfOf(const std::string& program) {
  for (const auto& elf : CorpusElfs()) {
    if (elf.name.rfind(program + ".embedded", 0) == 0) return elf.bytes;
  }
  ADD_FAILURE() << "no " << program << ".embedded.vmfb in the corpus";
  return {};
}

int FakeDispatch(const ExecutableEnvironment*, const DispatchState*,
                 const WorkgroupState*) {
  return 0;
}

// A well-formed two-export library in host memory, for the checks that need
// no image.
struct FakeLibrary {
  LibraryHeader header = {kExecutableLibraryVersion6, "fake", 0, 0};
  DispatchFunction ptrs[2] = {FakeDispatch, FakeDispatch};
  DispatchAttrs attrs[2] = {};
  const char* names[2] = {"a", "b"};
  LibraryV6 library = {};
  FakeLibrary() {
    attrs[0].binding_count = 3;
    attrs[1].constant_count = 2;
    library.header = &header;
    library.exports.count = 2;
    library.exports.ptrs = ptrs;
    library.exports.attrs = attrs;
    library.exports.names = names;
    library.constants.count = 1;
  }
  Status Validate(uint32_t constants = 1) const {
    return ValidateLibraryV6(&library.header, constants);
  }
};

TEST(ExecutableLibraryTest, AcceptsAWellFormedLibrary) {
  FakeLibrary fake;
  EXPECT_TRUE(fake.Validate().ok());
  fake.library.exports.names = nullptr;  // names are optional
  EXPECT_TRUE(fake.Validate().ok());
  fake.attrs[0].constant_count = 64;
  fake.attrs[0].binding_count = 64;
  EXPECT_TRUE(fake.Validate().ok());
}

TEST(ExecutableLibraryTest, RejectsMalformedLibraries) {
  EXPECT_EQ(ValidateLibraryV6(nullptr, 0).code(),
            StatusCode::kFailedPrecondition);
  struct Case {
    const char* what;
    void (*corrupt)(FakeLibrary&);
    StatusCode code;
  };
  const Case cases[] = {
      {"no header", [](FakeLibrary& f) { f.library.header = nullptr; },
       StatusCode::kInvalidArgument},
      {"version 5", [](FakeLibrary& f) { f.header.version = 5; },
       StatusCode::kFailedPrecondition},
      {"version 7", [](FakeLibrary& f) { f.header.version = 7; },
       StatusCode::kFailedPrecondition},
      {"sanitizer", [](FakeLibrary& f) { f.header.sanitizer = 1; },
       StatusCode::kFailedPrecondition},
      {"export count", [](FakeLibrary& f) { f.library.exports.count = 65537; },
       StatusCode::kOutOfRange},
      {"no ptrs", [](FakeLibrary& f) { f.library.exports.ptrs = nullptr; },
       StatusCode::kFailedPrecondition},
      {"null ptr", [](FakeLibrary& f) { f.ptrs[1] = nullptr; },
       StatusCode::kFailedPrecondition},
      {"no attrs", [](FakeLibrary& f) { f.library.exports.attrs = nullptr; },
       StatusCode::kFailedPrecondition},
      {"65 constants", [](FakeLibrary& f) { f.attrs[1].constant_count = 65; },
       StatusCode::kOutOfRange},
      {"65 bindings", [](FakeLibrary& f) { f.attrs[0].binding_count = 65; },
       StatusCode::kOutOfRange},
      {"constants count", [](FakeLibrary& f) { f.library.constants.count = 2; },
       StatusCode::kFailedPrecondition},
      {"imports without symbols",
       [](FakeLibrary& f) { f.library.imports.count = 1; },
       StatusCode::kFailedPrecondition},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    FakeLibrary fake;
    c.corrupt(fake);
    Status status = fake.Validate();
    EXPECT_EQ(status.code(), c.code) << status.ToString();
  }
}

TEST(ExecutableLibraryTest, HostPointersAreNotInAnImage) {
  // With an image to check against, a library outside it is rejected.
  std::vector<uint8_t> elf = ElfOf("matmul");
  ASSERT_FALSE(elf.empty());
  auto module = ElfModule::Load(elf);
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  FakeLibrary fake;
  EXPECT_EQ(ValidateLibraryV6(&fake.library.header, 1, module->get()).code(),
            StatusCode::kInvalidArgument);
}

TEST(ExecutableLibraryTest, LoadsMatmul) {
  std::vector<uint8_t> elf = ElfOf("matmul");
  ASSERT_FALSE(elf.empty());
  auto loaded = LoadedLibrary::Load(elf);
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  const LoadedLibrary& library = **loaded;
  EXPECT_EQ(library.library().header->version, 6u);
  EXPECT_STREQ(library.library().header->name, "matmul_linked");
  std::set<std::string> names;
  for (uint32_t i = 0; i < library.export_count(); ++i) {
    names.insert(std::string(library.export_name(i)));
    const DispatchAttrs& attrs = library.export_attrs(i);
    // Two inputs and an output (the accumulating form reads the output).
    EXPECT_GE(attrs.binding_count, 2u);
    EXPECT_LE(attrs.binding_count, 3u);
    EXPECT_TRUE(library.module().IsExecutable(
        reinterpret_cast<const void*>(library.export_function(i))));
  }
  EXPECT_EQ(names, (std::set<std::string>{
                       "matmul_dispatch_0_matmul_4x16x8_f32",
                       "matmul_acc_dispatch_0_matmul_4x16x8_f32",
                       "matvec_dispatch_0_matvec_8x8_f32",
                       "batch_matmul_dispatch_0_batch_matmul_2x3x5x4_f32",
                   }));
  EXPECT_EQ(library.export_name(library.export_count()), "");
}

TEST(ExecutableLibraryTest, LoadsElementwise) {
  std::vector<uint8_t> elf = ElfOf("elementwise");
  ASSERT_FALSE(elf.empty());
  auto loaded = LoadedLibrary::Load(elf);
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  EXPECT_EQ((*loaded)->export_count(), 6u);
  for (uint32_t i = 0; i < (*loaded)->export_count(); ++i) {
    EXPECT_NE((*loaded)->export_name(i).find("_elementwise_"),
              std::string_view::npos)
        << (*loaded)->export_name(i);
  }
}

TEST(ExecutableLibraryTest, LoadsEveryCorpusElf) {
  ASSERT_FALSE(CorpusElfs().empty());
  for (const auto& elf : CorpusElfs()) {
    SCOPED_TRACE(elf.name);
    auto loaded = LoadedLibrary::Load(elf.bytes);
    ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
    EXPECT_GE((*loaded)->export_count(), 1u);
    for (uint32_t i = 0; i < (*loaded)->export_count(); ++i) {
      EXPECT_FALSE((*loaded)->export_name(i).empty());
    }
  }
}

TEST(ExecutableLibraryTest, ConstantCountMustMatch) {
  std::vector<uint8_t> elf = ElfOf("matmul");
  ASSERT_FALSE(elf.empty());
  const uint32_t constants[] = {7};
  auto loaded = LoadedLibrary::Load(elf, constants);
  EXPECT_EQ(loaded.status().code(), StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace ember::hal::cpu
