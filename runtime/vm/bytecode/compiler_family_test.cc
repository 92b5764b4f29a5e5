// The compiler family read from a module's marks (docs/compiler-versions.md).
// Real modules of each release are checked from Python
// (tests/python/test_compiler_versions.py); these cover every mark and
// their contradictions.
#include "runtime/vm/bytecode/compiler_family.h"

#include <gtest/gtest.h>

namespace ember::vm::bytecode {
namespace {

constexpr uint32_t kBytecode17 = 17u << 16;
constexpr const char* kDispatch = "hal.command_buffer.dispatch";
constexpr const char* kDispatchI32 = "0rriiiiICiDCiirIID_v";
constexpr const char* kDispatchI64 = "0rrIiiiICiDCiirIID_v";

ModuleDef Module(uint32_t hal_version) {
  ModuleDef def;
  def.bytecode_version = kBytecode17;
  if (hal_version != 0) def.dependencies.push_back({"hal", hal_version});
  return def;
}

void Import(ModuleDef& def, const char* name, const char* cconv) {
  ImportFunctionDef import;
  import.full_name = name;
  import.signature.present = true;
  import.signature.calling_convention = cconv;
  def.imported_functions.push_back(import);
}

TEST(CompilerFamilyTest, VmOnlyModulesAreAnyOfTheThree) {
  CompilerFamily family = InferCompilerFamily(Module(0));
  EXPECT_TRUE(family.supported);
  EXPECT_EQ(family.name, "iree-compile 3.11 to 3.13");
  EXPECT_EQ(family.evidence, "bytecode 17.0");
}

TEST(CompilerFamilyTest, Release311DispatchesByOrdinal) {
  ModuleDef def = Module(6);
  Import(def, kDispatch, kDispatchI32);
  CompilerFamily family = InferCompilerFamily(def);
  EXPECT_TRUE(family.supported);
  EXPECT_EQ(family.name, "iree-compile 3.11");
  EXPECT_EQ(DescribeCompilerFamily(family),
            "built by iree-compile 3.11 (bytecode 17.0, requires hal >= 6, "
            "dispatches by export ordinal (i32))");
}

TEST(CompilerFamilyTest, Releases312And313DispatchByFunctionId) {
  ModuleDef def = Module(7);
  Import(def, kDispatch, kDispatchI64);
  Import(def, "hal.executable.lookup.function", "0rr_I");
  CompilerFamily family = InferCompilerFamily(def);
  EXPECT_TRUE(family.supported);
  EXPECT_EQ(family.name, "iree-compile 3.12 or 3.13");

  Import(def, "hal.command_buffer.flush_buffer", "0rirII_v");
  family = InferCompilerFamily(def);
  EXPECT_EQ(family.name, "iree-compile 3.13");
  EXPECT_NE(family.evidence.find("imports hal.command_buffer.flush_buffer"),
            std::string::npos);
}

TEST(CompilerFamilyTest, AHalVersionNoReleaseDeclaredIsNewer) {
  CompilerFamily family = InferCompilerFamily(Module(8));
  EXPECT_FALSE(family.supported);
  EXPECT_EQ(family.name, "an iree-compile newer than 3.13");
  EXPECT_EQ(family.evidence, "bytecode 17.0, requires hal >= 8");
}

TEST(CompilerFamilyTest, ContradictoryMarksAreNoKnownRelease) {
  // A 3.11 dispatch signature in a module that requires hal 7.
  ModuleDef def = Module(7);
  Import(def, kDispatch, kDispatchI32);
  CompilerFamily family = InferCompilerFamily(def);
  EXPECT_FALSE(family.supported);
  EXPECT_EQ(family.name, "an unknown iree-compile");
}

TEST(CompilerFamilyTest, OtherBytecodeVersions) {
  ModuleDef def = Module(6);
  def.bytecode_version = 16u << 16;
  EXPECT_EQ(DescribeCompilerFamily(InferCompilerFamily(def)),
            "built by iree-compile 3.10 (bytecode 16.0)");
  def.bytecode_version = 15u << 16;
  EXPECT_EQ(InferCompilerFamily(def).name, "iree-compile 3.9 or older");
  def.bytecode_version = (17u << 16) | 2u;
  EXPECT_EQ(InferCompilerFamily(def).name, "an iree-compile newer than 3.13");
  EXPECT_FALSE(InferCompilerFamily(def).supported);
}

}  // namespace
}  // namespace ember::vm::bytecode
