// ParseVulkanExecutableDef on hand-built executables: one good file that
// exercises every field, then one file per rule, each breaking only that
// rule (docs/vulkan-executable.md#checks).
#include "runtime/hal/vulkan/executable_def.h"

#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/base/endian.h"
#include "runtime/testing/vulkan_executable_builder.h"

namespace ember::hal::vulkan {
namespace {

using ember::testing::BuildVulkanExecutable;
using ember::testing::MinimalComputeSpirv;
using ember::testing::VulkanExecutableSpec;
using ember::testing::VulkanPipelineSpec;

// Two exports on two modules; layout 1 uses both set layouts, in reverse
// order, with a uniform buffer array of 2 and two push-constant ranges.
VulkanExecutableSpec GoodSpec() {
  VulkanExecutableSpec spec = ember::testing::TwoExportSpec();
  spec.pipelines[0].debug_name = "first_export";
  spec.pipelines[0].source_file = "x.mlir";
  spec.pipelines[0].source_line = 7;
  spec.pipelines[1].subgroup_size = 32;
  return spec;
}

Status Parse(const VulkanExecutableSpec& spec) {
  std::vector<uint8_t> data = BuildVulkanExecutable(spec);
  return ParseVulkanExecutableDef(data).status();
}

// The error of `spec`: its code, and its message containing `text`.
void ExpectError(const VulkanExecutableSpec& spec, StatusCode code,
                 const std::string& text) {
  Status status = Parse(spec);
  ASSERT_FALSE(status.ok()) << "expected: " << text;
  EXPECT_EQ(status.code(), code) << status.ToString();
  EXPECT_NE(status.ToString().find(text), std::string::npos)
      << status.ToString() << "\n  should contain: " << text;
}

TEST(VulkanExecutableDef, GoodFileParses) {
  std::vector<uint8_t> data = BuildVulkanExecutable(GoodSpec());
  auto def = ParseVulkanExecutableDef(data);
  ASSERT_TRUE(def.ok()) << def.status().ToString();

  ASSERT_EQ(def->shader_modules.size(), 2u);
  EXPECT_EQ(def->shader_modules[0].spirv, MinimalComputeSpirv("main"));
  EXPECT_EQ(def->shader_modules[1].spirv, MinimalComputeSpirv("other"));

  ASSERT_EQ(def->descriptor_set_layouts.size(), 2u);
  const auto& set1 = def->descriptor_set_layouts[1].bindings;
  ASSERT_EQ(set1.size(), 2u);
  EXPECT_EQ(set1[0].binding, 3u);
  EXPECT_EQ(set1[1].binding, 0u);
  EXPECT_EQ(set1[1].descriptor_type, kVulkanDescriptorUniformBuffer);
  EXPECT_EQ(set1[1].descriptor_count, 2u);
  EXPECT_EQ(set1[1].stage_flags, kVulkanStageCompute);

  ASSERT_EQ(def->pipeline_layouts.size(), 2u);
  const VulkanPipelineLayoutDef& layout1 = def->pipeline_layouts[1];
  EXPECT_EQ(layout1.set_layout_ordinals, (std::vector<uint32_t>{1, 0}));
  ASSERT_EQ(layout1.push_constant_ranges.size(), 2u);
  EXPECT_EQ(layout1.push_constant_ranges[1].offset, 16u);
  EXPECT_EQ(layout1.push_constant_ranges[1].size, 16u);
  EXPECT_EQ(layout1.push_constant_bytes, 32u);
  // Set 0 of the layout is set layout 1 (binding 3, then binding 0 twice,
  // in file order), set 1 is set layout 0.
  const std::vector<std::array<uint32_t, 4>> expected = {
      {0, 3, 0, kVulkanDescriptorStorageBuffer},
      {0, 0, 0, kVulkanDescriptorUniformBuffer},
      {0, 0, 1, kVulkanDescriptorUniformBuffer},
      {1, 0, 0, kVulkanDescriptorStorageBuffer},
      {1, 1, 0, kVulkanDescriptorStorageBuffer},
  };
  ASSERT_EQ(layout1.hal_bindings.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    const VulkanHalBinding& b = layout1.hal_bindings[i];
    EXPECT_EQ((std::array<uint32_t, 4>{b.set, b.binding, b.array_element,
                                       b.descriptor_type}),
              expected[i])
        << "HAL binding " << i;
  }

  ASSERT_EQ(def->pipelines.size(), 2u);
  const VulkanPipelineDef& p0 = def->pipelines[0];
  EXPECT_EQ(p0.entry_point, "main");
  EXPECT_EQ(p0.name, "first_export");
  EXPECT_EQ(p0.source_file, "x.mlir");
  EXPECT_EQ(p0.source_line, 7);
  EXPECT_EQ(p0.shader_module_ordinal, 0u);
  EXPECT_EQ(p0.pipeline_layout_ordinal, 0u);
  EXPECT_EQ(p0.subgroup_size, 0u);
  EXPECT_EQ(p0.constant_count, 3u);
  EXPECT_EQ(p0.binding_count, 2u);
  const VulkanPipelineDef& p1 = def->pipelines[1];
  EXPECT_EQ(p1.entry_point, "other");
  EXPECT_EQ(p1.name, "");
  EXPECT_EQ(p1.shader_module_ordinal, 1u);
  EXPECT_EQ(p1.pipeline_layout_ordinal, 1u);
  EXPECT_EQ(p1.subgroup_size, 32u);
  EXPECT_EQ(p1.constant_count, 8u);
  EXPECT_EQ(p1.binding_count, 5u);
}

// The SPIR-V is copied: the input may sit at any alignment.
TEST(VulkanExecutableDef, UnalignedInputParses) {
  std::vector<uint8_t> data = BuildVulkanExecutable(GoodSpec());
  std::vector<uint8_t> shifted(data.size() + 1);
  std::memcpy(shifted.data() + 1, data.data(), data.size());
  auto def = ParseVulkanExecutableDef(std::span(shifted).subspan(1));
  ASSERT_TRUE(def.ok()) << def.status().ToString();
  EXPECT_EQ(def->shader_modules[1].spirv, MinimalComputeSpirv("other"));
}

// Bytes after the declared content (rodata padding) are ignored.
TEST(VulkanExecutableDef, TrailingBytesAreIgnored) {
  std::vector<uint8_t> data = BuildVulkanExecutable(GoodSpec());
  data.resize(data.size() + 64, 0xAB);
  EXPECT_TRUE(ParseVulkanExecutableDef(data).ok());
}

// ---- the header -------------------------------------------------------------

TEST(VulkanExecutableDef, HeaderTooShort) {
  std::vector<uint8_t> data = BuildVulkanExecutable(GoodSpec());
  data.resize(63);
  Status status = ParseVulkanExecutableDef(data).status();
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(status.ToString().find("64-byte header"), std::string::npos);
}

TEST(VulkanExecutableDef, HeaderWrongMagic) {
  std::vector<uint8_t> data = BuildVulkanExecutable(GoodSpec());
  data[3] = '2';
  Status status = ParseVulkanExecutableDef(data).status();
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(status.ToString().find("magic"), std::string::npos);
}

TEST(VulkanExecutableDef, HeaderOtherVersion) {
  std::vector<uint8_t> data = BuildVulkanExecutable(GoodSpec());
  StoreLE<uint32_t>(data.data() + 4, 1);
  EXPECT_EQ(ParseVulkanExecutableDef(data).status().code(),
            StatusCode::kIncompatible);
}

TEST(VulkanExecutableDef, HeaderContentSizePastTheEnd) {
  std::vector<uint8_t> data = BuildVulkanExecutable(GoodSpec());
  StoreLE<uint64_t>(data.data() + 8, data.size() - 63);
  Status status = ParseVulkanExecutableDef(data).status();
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(status.ToString().find("content bytes"), std::string::npos);
  StoreLE<uint64_t>(data.data() + 8, 0);
  EXPECT_FALSE(ParseVulkanExecutableDef(data).ok());
  StoreLE<uint64_t>(data.data() + 8, ~uint64_t{0});
  EXPECT_FALSE(ParseVulkanExecutableDef(data).ok());
}

TEST(VulkanExecutableDef, FlatBufferIdentifier) {
  std::vector<uint8_t> data = BuildVulkanExecutable(GoodSpec());
  data[64 + 7] = 'X';  // "VKEX"
  Status status = ParseVulkanExecutableDef(data).status();
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(status.ToString().find("file identifier"), std::string::npos);
  EXPECT_NE(status.ToString().find("Vulkan executable"), std::string::npos);
}

// A FlatBuffer cut short inside its tables is caught by the reader.
TEST(VulkanExecutableDef, TruncatedFlatBuffer) {
  std::vector<uint8_t> data = BuildVulkanExecutable(GoodSpec());
  for (size_t keep = 64 + 8; keep < data.size(); keep += 7) {
    std::vector<uint8_t> cut(data.begin(), data.begin() + keep);
    StoreLE<uint64_t>(cut.data() + 8, keep - 64);
    EXPECT_FALSE(ParseVulkanExecutableDef(cut).ok()) << keep;
  }
}

// ---- shader modules
// -----------------------------------------------------------

TEST(VulkanExecutableDef, SpirvMagic) {
  VulkanExecutableSpec spec = GoodSpec();
  spec.shader_modules[1][0] = 0x03022307;  // byte-swapped
  ExpectError(spec, StatusCode::kInvalidArgument,
              "shader_modules[1].spirv_code");
}

TEST(VulkanExecutableDef, SpirvShorterThanHeader) {
  VulkanExecutableSpec spec = GoodSpec();
  spec.shader_modules[0].resize(4);
  ExpectError(spec, StatusCode::kInvalidArgument, "5-word header");
  spec.shader_modules[0].clear();
  ExpectError(spec, StatusCode::kInvalidArgument, "5-word header");
}

TEST(VulkanExecutableDef, SpirvVersion) {
  VulkanExecutableSpec spec = GoodSpec();
  spec.shader_modules[0][1] = 0x00020000;
  ExpectError(spec, StatusCode::kInvalidArgument, "not 1.x");
}

TEST(VulkanExecutableDef, SpirvInstructionPastTheEnd) {
  VulkanExecutableSpec spec = GoodSpec();
  // The last instruction (OpFunctionEnd, one word) claims two.
  spec.shader_modules[1].back() = (2u << 16) | 56;
  ExpectError(spec, StatusCode::kInvalidArgument,
              "has word count 2 (1 words left)");
  spec.shader_modules[1].back() = 56;  // word count 0
  ExpectError(spec, StatusCode::kInvalidArgument, "has word count 0");
}

TEST(VulkanExecutableDef, SpirvEntryPointNameUnterminated) {
  VulkanExecutableSpec spec = GoodSpec();
  // "main" fills one word; its NUL is the next word, which becomes "abcd".
  std::vector<uint32_t>& words = spec.shader_modules[0];
  ASSERT_EQ(words[10] & 0xFFFF, 15u);  // OpEntryPoint
  ASSERT_EQ(words[14], 0u);
  words[14] = 0x64636261;
  ExpectError(spec, StatusCode::kInvalidArgument, "unterminated name");
}

TEST(VulkanExecutableDef, EntryPointMissingFromModule) {
  VulkanExecutableSpec spec = GoodSpec();
  spec.pipelines[1].shader_module = 0;  // has "main", not "other"
  ExpectError(spec, StatusCode::kInvalidArgument,
              "shader module 0 has no GLCompute entry point \"other\"");
  // An entry point of another execution model does not count.
  spec = GoodSpec();
  ASSERT_EQ(spec.shader_modules[1][11], 5u);  // GLCompute
  spec.shader_modules[1][11] = 0;             // Vertex
  ExpectError(spec, StatusCode::kInvalidArgument,
              "no GLCompute entry point \"other\"");
}

TEST(VulkanExecutableDef, SeveralEntryPointsInOneModule) {
  VulkanExecutableSpec spec = GoodSpec();
  // Module 0 gains a second OpEntryPoint ("other", same function) after the
  // first; both exports then use module 0.
  std::vector<uint32_t>& words = spec.shader_modules[0];
  std::vector<uint32_t> other = MinimalComputeSpirv("other");
  words.insert(words.begin() + 15, other.begin() + 10, other.begin() + 15);
  spec.pipelines[1].shader_module = 0;
  std::vector<uint8_t> data = BuildVulkanExecutable(spec);
  auto def = ParseVulkanExecutableDef(data);
  ASSERT_TRUE(def.ok()) << def.status().ToString();
  EXPECT_EQ(def->shader_modules[0].entry_points,
            (std::vector<std::string>{"main", "other"}));
}

// ---- descriptor set layouts
// --------------------------------------------------

TEST(VulkanExecutableDef, SamplerIsUnimplemented) {
  VulkanExecutableSpec spec = GoodSpec();
  spec.set_layouts[1][0].descriptor_type = kVulkanDescriptorSampler;
  ExpectError(spec, StatusCode::kUnimplemented, "sampler descriptors");
  ExpectError(spec, StatusCode::kUnimplemented,
              "descriptor_set_layouts[1].bindings[0].descriptor_type");
}

TEST(VulkanExecutableDef, ImageDescriptorIsUnimplemented) {
  VulkanExecutableSpec spec = GoodSpec();
  spec.set_layouts[0][1].descriptor_type = 3;  // STORAGE_IMAGE
  ExpectError(spec, StatusCode::kUnimplemented, "descriptor type 3");
}

TEST(VulkanExecutableDef, DuplicateBindingNumber) {
  VulkanExecutableSpec spec = GoodSpec();
  spec.set_layouts[0][1].binding = 0;
  ExpectError(spec, StatusCode::kInvalidArgument,
              "descriptor_set_layouts[0].bindings[1]");
  ExpectError(spec, StatusCode::kInvalidArgument, "appears twice");
}

TEST(VulkanExecutableDef, BindingNumberTooLarge) {
  VulkanExecutableSpec spec = GoodSpec();
  spec.set_layouts[0][1].binding = 64;
  ExpectError(spec, StatusCode::kInvalidArgument, "binding number 64");
}

TEST(VulkanExecutableDef, TooManyBindingsInASet) {
  VulkanExecutableSpec spec = GoodSpec();
  spec.set_layouts[0].clear();
  for (uint32_t i = 0; i < 65; ++i) {
    spec.set_layouts[0].push_back(
        {i % 64, kVulkanDescriptorStorageBuffer, 1, kVulkanStageCompute});
  }
  ExpectError(spec, StatusCode::kInvalidArgument,
              "descriptor_set_layouts[0].bindings");
  ExpectError(spec, StatusCode::kInvalidArgument, "65 entries");
}

TEST(VulkanExecutableDef, ZeroDescriptorCount) {
  VulkanExecutableSpec spec = GoodSpec();
  spec.set_layouts[1][1].descriptor_count = 0;
  ExpectError(spec, StatusCode::kInvalidArgument, "descriptor count 0");
}

TEST(VulkanExecutableDef, BindingWithoutComputeStage) {
  VulkanExecutableSpec spec = GoodSpec();
  spec.set_layouts[1][1].stage_flags = 0x1;  // VERTEX
  ExpectError(spec, StatusCode::kInvalidArgument,
              "descriptor_set_layouts[1].bindings[1].stage_flags");
}

// ---- pipeline layouts
// ---------------------------------------------------------

TEST(VulkanExecutableDef, SetLayoutOrdinalOutOfRange) {
  VulkanExecutableSpec spec = GoodSpec();
  spec.pipeline_layouts[1].set_layout_ordinals[1] = 2;
  ExpectError(spec, StatusCode::kInvalidArgument,
              "pipeline_layouts[1].descriptor_set_layout_ordinals[1]");
}

TEST(VulkanExecutableDef, TooManySets) {
  VulkanExecutableSpec spec = GoodSpec();
  spec.pipeline_layouts[0].set_layout_ordinals.assign(33, 0);
  ExpectError(spec, StatusCode::kInvalidArgument, "33 descriptor sets");
  spec.pipeline_layouts[0].set_layout_ordinals.assign(32, 0);
  EXPECT_TRUE(Parse(spec).ok());
}

TEST(VulkanExecutableDef, PushConstantRangeMisaligned) {
  VulkanExecutableSpec spec = GoodSpec();
  spec.pipeline_layouts[1].push_constant_ranges[1].offset = 18;
  ExpectError(spec, StatusCode::kInvalidArgument,
              "pipeline_layouts[1].push_constant_ranges[1]");
  spec = GoodSpec();
  spec.pipeline_layouts[1].push_constant_ranges[0].size = 6;
  ExpectError(spec, StatusCode::kInvalidArgument, "not 4-byte aligned");
  spec.pipeline_layouts[1].push_constant_ranges[0].size = 0;
  ExpectError(spec, StatusCode::kInvalidArgument, "is empty");
}

TEST(VulkanExecutableDef, PushConstantRangeTooFar) {
  VulkanExecutableSpec spec = GoodSpec();
  spec.pipeline_layouts[0].push_constant_ranges[0] = {kVulkanStageCompute, 4092,
                                                      8};
  ExpectError(spec, StatusCode::kInvalidArgument, "ends past byte 4096");
  // offset + size wraps in 32 bits: still refused.
  spec.pipeline_layouts[0].push_constant_ranges[0] = {kVulkanStageCompute,
                                                      0xFFFFFFF0u, 0x20};
  ExpectError(spec, StatusCode::kInvalidArgument, "ends past byte 4096");
  spec.pipeline_layouts[0].push_constant_ranges[0] = {kVulkanStageCompute, 4092,
                                                      4};
  std::vector<uint8_t> data = BuildVulkanExecutable(spec);
  auto def = ParseVulkanExecutableDef(data);
  ASSERT_TRUE(def.ok()) << def.status().ToString();
  EXPECT_EQ(def->pipelines[0].constant_count, 1024u);
}

TEST(VulkanExecutableDef, PushConstantRangeWithoutComputeStage) {
  VulkanExecutableSpec spec = GoodSpec();
  spec.pipeline_layouts[0].push_constant_ranges[0].stage_flags = 0x10;
  ExpectError(spec, StatusCode::kInvalidArgument, "compute stage");
}

TEST(VulkanExecutableDef, TooManyHalBindingsInALayout) {
  VulkanExecutableSpec spec = GoodSpec();
  spec.set_layouts[1][1].descriptor_count = 65535;  // + 3 others
  ExpectError(spec, StatusCode::kInvalidArgument, "HAL bindings exceed");
}

// Many layouts sharing one large set layout would multiply the HAL binding
// tables; the budget (one per 4 bytes of input + 4096) stops them.
TEST(VulkanExecutableDef, SharedSetLayoutsHitTheBudget) {
  VulkanExecutableSpec spec = GoodSpec();
  spec.set_layouts[1][1].descriptor_count = 60000;
  spec.pipeline_layouts.assign(64, {{1}, {}});
  ExpectError(spec, StatusCode::kInvalidArgument, "budget");
}

// ---- pipelines
// ----------------------------------------------------------------

TEST(VulkanExecutableDef, NoPipelines) {
  VulkanExecutableSpec spec = GoodSpec();
  spec.pipelines.clear();
  ExpectError(spec, StatusCode::kInvalidArgument, "exports no pipelines");
}

TEST(VulkanExecutableDef, ShaderModuleOrdinalOutOfRange) {
  VulkanExecutableSpec spec = GoodSpec();
  spec.pipelines[1].shader_module = 2;
  ExpectError(spec, StatusCode::kInvalidArgument,
              "pipelines[1].shader_module_ordinal");
}

TEST(VulkanExecutableDef, PipelineLayoutOrdinalOutOfRange) {
  VulkanExecutableSpec spec = GoodSpec();
  spec.pipelines[0].pipeline_layout = 0xFFFFFFFFu;
  ExpectError(spec, StatusCode::kInvalidArgument,
              "pipelines[0].pipeline_layout_ordinal");
}

TEST(VulkanExecutableDef, EntryPointEmptyOrWithNul) {
  VulkanExecutableSpec spec = GoodSpec();
  spec.pipelines[0].entry_point = "";
  ExpectError(spec, StatusCode::kInvalidArgument, "pipelines[0].entry_point");
  spec.pipelines[0].entry_point = std::string("ma\0in", 5);
  ExpectError(spec, StatusCode::kInvalidArgument, "contains a NUL");
}

TEST(VulkanExecutableDef, SubgroupSizeNotAPowerOfTwo) {
  VulkanExecutableSpec spec = GoodSpec();
  spec.pipelines[1].subgroup_size = 48;
  ExpectError(spec, StatusCode::kInvalidArgument, "pipelines[1].subgroup_size");
  spec.pipelines[1].subgroup_size = 2048;
  ExpectError(spec, StatusCode::kInvalidArgument, "power of two");
}

TEST(VulkanExecutableDef, BdaDispatchAbiIsUnimplemented) {
  VulkanExecutableSpec spec = GoodSpec();
  spec.pipelines[1].dispatch_abi = 1;
  ExpectError(spec, StatusCode::kUnimplemented, "BDA_V1 dispatch ABI");
  spec.pipelines[1].dispatch_abi = 7;
  ExpectError(spec, StatusCode::kInvalidArgument, "unknown dispatch ABI 7");
}

TEST(VulkanExecutableDef, BdaLayoutWithDescriptorAbi) {
  VulkanExecutableSpec spec = GoodSpec();
  spec.pipelines[0].bda_layout = true;
  ExpectError(spec, StatusCode::kInvalidArgument,
              "pipelines[0].bda_dispatch_layout");
}

TEST(VulkanExecutableDef, TooManyExports) {
  VulkanExecutableSpec spec = GoodSpec();
  spec.pipelines.assign(kMaxVulkanExports + 1, spec.pipelines[0]);
  ExpectError(spec, StatusCode::kInvalidArgument, "65537 entries");
}

// ---- hostile sharing
// ----------------------------------------------------------

// Every shader module of a file shares one long SPIR-V vector: copying it
// for each would be quadratic; the reader's budget refuses instead, quickly.
TEST(VulkanExecutableDef, SharedSpirvVectorIsRefusedQuickly) {
  VulkanExecutableSpec spec = GoodSpec();
  spec.shader_modules.assign(1, MinimalComputeSpirv("main"));
  spec.shader_modules[0].resize(1 << 16, 1u << 16);  // OpNop
  spec.share_spirv_count = 20000;
  spec.pipelines.resize(1);
  spec.pipelines[0].shader_module = 0;
  std::vector<uint8_t> data = BuildVulkanExecutable(spec);
  const auto start = std::chrono::steady_clock::now();
  Status status = ParseVulkanExecutableDef(data).status();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  EXPECT_FALSE(status.ok());
  EXPECT_NE(status.ToString().find("too many objects"), std::string::npos)
      << status.ToString();
  EXPECT_LT(seconds, 1.0);
}

// Many exports naming one long string (the entry point of each, through a
// shared string): copying it for each would be quadratic; the string budget
// refuses instead, quickly.
TEST(VulkanExecutableDef, SharedLongStringsAreRefusedQuickly) {
  VulkanExecutableSpec spec = GoodSpec();
  const std::string name(100000, 'n');
  spec.shader_modules.assign(1, MinimalComputeSpirv(name));
  spec.pipelines.assign(1, VulkanPipelineSpec());
  spec.pipelines[0].entry_point = name;
  spec.share_entry_point_count = 20000;
  std::vector<uint8_t> data = BuildVulkanExecutable(spec);
  ASSERT_LT(data.size(), 2000000u);  // while the copies would take 2 GB
  const auto start = std::chrono::steady_clock::now();
  Status status = ParseVulkanExecutableDef(data).status();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  EXPECT_FALSE(status.ok());
  EXPECT_NE(status.ToString().find("strings copied"), std::string::npos)
      << status.ToString();
  EXPECT_LT(seconds, 1.0);
  // The same file with a few exports parses.
  spec.share_entry_point_count = 3;
  data = BuildVulkanExecutable(spec);
  auto def = ParseVulkanExecutableDef(data);
  ASSERT_TRUE(def.ok()) << def.status().ToString();
  EXPECT_EQ(def->pipelines.size(), 3u);
  EXPECT_EQ(def->pipelines[2].entry_point, name);
}

}  // namespace
}  // namespace ember::hal::vulkan
