// VulkanExecutable on whatever Vulkan driver the machine has (Mesa's
// lavapipe in CI), under the Khronos validation layer: any warning or error
// it reports fails the test. The executables are hand-built
// (runtime/testing/vulkan_executable_builder.h) around the smallest valid
// SPIR-V compute shader. Skipped only where there is no Vulkan loader or no
// device that meets the baseline.
#include "runtime/hal/vulkan/vulkan_executable.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "runtime/hal/vulkan/vulkan_device.h"
#include "runtime/hal/vulkan/vulkan_driver.h"
#include "runtime/hal/vulkan/vulkan_instance.h"
#include "runtime/testing/vulkan_executable_builder.h"

namespace ember::hal::vulkan {
namespace {

using ember::testing::BuildVulkanExecutable;
using ember::testing::MinimalComputeSpirv;
using ember::testing::VulkanExecutableSpec;
using ember::testing::VulkanPipelineSpec;

// Two exports on different layouts (vulkan_executable_builder.h).
VulkanExecutableSpec Spec() { return ember::testing::TwoExportSpec(); }

class VulkanExecutableTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Status available = VulkanAvailability();
    if (!available.ok()) GTEST_SKIP() << available.ToString();
    VulkanInstanceOptions options;
    options.validation = true;
    auto instance = VulkanInstance::Create(options);
    ASSERT_TRUE(instance.ok()) << instance.status().ToString();
    instance_ = *instance;
    ASSERT_TRUE(instance_->validation_enabled());
    auto info = instance_->SelectPhysicalDevice("");
    ASSERT_TRUE(info.ok()) << info.status().ToString();
    auto context = VulkanContext::Create(instance_, *info, {});
    ASSERT_TRUE(context.ok()) << context.status().ToString();
    context_ = *context;
    limits_ =
        VulkanExecutableLimits::FromDeviceLimits(context_->properties().limits);
  }
  void TearDown() override {
    context_.reset();
    if (instance_) {
      for (const std::string& message : instance_->validation_messages()) {
        ADD_FAILURE() << "Vulkan validation: " << message;
      }
    }
  }

  Result<Ref<VulkanExecutable>> Load(const VulkanExecutableSpec& spec,
                                     std::span<const uint32_t> constants = {}) {
    std::vector<uint8_t> data = BuildVulkanExecutable(spec);
    return VulkanExecutable::Load(context_->api(), context_->device(), context_,
                                  limits_, data, constants, "test");
  }

  Ref<VulkanInstance> instance_;
  Ref<VulkanContext> context_;
  VulkanExecutableLimits limits_;
};

TEST_F(VulkanExecutableTest, MakesEveryObject) {
  auto executable = Load(Spec());
  ASSERT_TRUE(executable.ok()) << executable.status().ToString();
  const VulkanExecutable& exe = **executable;
  ASSERT_EQ(exe.export_count(), 2u);
  EXPECT_EQ(exe.debug_name(), "test");

  Executable::ExportInfo info0 = exe.export_info(0);
  EXPECT_EQ(info0.name, "main");
  EXPECT_EQ(info0.constant_count, 3u);
  EXPECT_EQ(info0.binding_count, 2u);
  Executable::ExportInfo info1 = exe.export_info(1);
  EXPECT_EQ(info1.name, "other");
  EXPECT_EQ(info1.constant_count, 8u);
  EXPECT_EQ(info1.binding_count, 5u);
  auto ordinal = exe.LookupFunction("other");
  ASSERT_TRUE(ordinal.ok());
  EXPECT_EQ(*ordinal, 1u);

  const VulkanExecutable::ExportRecord& r0 = exe.export_record(0);
  const VulkanExecutable::ExportRecord& r1 = exe.export_record(1);
  EXPECT_NE(r0.pipeline, VK_NULL_HANDLE);
  EXPECT_NE(r1.pipeline, VK_NULL_HANDLE);
  EXPECT_NE(r0.pipeline, r1.pipeline);
  EXPECT_NE(r0.layout->pipeline_layout, r1.layout->pipeline_layout);
  EXPECT_NE(r0.layout->pipeline_layout, VK_NULL_HANDLE);
  EXPECT_EQ(r0.layout->push_constant_bytes, 12u);
  EXPECT_EQ(r1.layout->push_constant_bytes, 32u);
  // Layout 1's set 1 is layout 0's set 0: the same VkDescriptorSetLayout.
  ASSERT_EQ(r0.layout->set_layouts.size(), 1u);
  ASSERT_EQ(r1.layout->set_layouts.size(), 2u);
  EXPECT_EQ(r1.layout->set_layouts[1], r0.layout->set_layouts[0]);
  EXPECT_NE(r1.layout->set_layouts[0], r0.layout->set_layouts[0]);
  EXPECT_EQ(r1.layout->set_storage_buffers, (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(r1.layout->set_uniform_buffers, (std::vector<uint32_t>{2, 0}));
  ASSERT_EQ(r1.layout->bindings.size(), 5u);
  EXPECT_EQ(r1.layout->bindings[2].set, 0u);
  EXPECT_EQ(r1.layout->bindings[2].binding, 0u);
  EXPECT_EQ(r1.layout->bindings[2].array_element, 1u);
  EXPECT_EQ(r1.layout->bindings[2].descriptor_type,
            kVulkanDescriptorUniformBuffer);
  EXPECT_EQ(r1.layout->bindings[3].set, 1u);
  EXPECT_EQ(r1.layout->bindings[3].binding, 0u);
}

// Executable constants become specialization constants 0..n-1 (the shader
// declares none, which Vulkan allows: unused map entries are ignored).
TEST_F(VulkanExecutableTest, ExecutableConstantsAreSpecializationConstants) {
  const std::vector<uint32_t> constants = {7, 8, 9};
  auto executable = Load(Spec(), constants);
  ASSERT_TRUE(executable.ok()) << executable.status().ToString();
  EXPECT_NE((*executable)->export_record(1).pipeline, VK_NULL_HANDLE);
}

// The executable keeps the device alive: dropping every other reference to
// the device first leaves its objects valid until the executable goes (the
// validation layer reports objects destroyed after their device).
TEST_F(VulkanExecutableTest, HoldsTheDevice) {
  auto executable = Load(Spec());
  ASSERT_TRUE(executable.ok()) << executable.status().ToString();
  context_.reset();
  EXPECT_NE((*executable)->export_record(0).pipeline, VK_NULL_HANDLE);
  executable->reset();
}

TEST_F(VulkanExecutableTest, DeviceLimitsAreChecked) {
  limits_.max_bound_descriptor_sets = 1;
  auto executable = Load(Spec());
  ASSERT_FALSE(executable.ok());
  EXPECT_EQ(executable.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(executable.status().ToString().find("maxBoundDescriptorSets"),
            std::string::npos)
      << executable.status().ToString();

  limits_ =
      VulkanExecutableLimits::FromDeviceLimits(context_->properties().limits);
  limits_.max_push_constants_size = 16;
  executable = Load(Spec());
  ASSERT_FALSE(executable.ok());
  EXPECT_NE(executable.status().ToString().find("maxPushConstantsSize"),
            std::string::npos);

  limits_ =
      VulkanExecutableLimits::FromDeviceLimits(context_->properties().limits);
  limits_.max_per_stage_storage_buffers = 2;  // layout 1 has 3
  executable = Load(Spec());
  ASSERT_FALSE(executable.ok());
  EXPECT_NE(executable.status().ToString().find("3 storage buffers"),
            std::string::npos);

  limits_ =
      VulkanExecutableLimits::FromDeviceLimits(context_->properties().limits);
  limits_.max_per_stage_uniform_buffers = 1;
  executable = Load(Spec());
  ASSERT_FALSE(executable.ok());
  EXPECT_NE(executable.status().ToString().find("2 uniform buffers"),
            std::string::npos);
}

TEST_F(VulkanExecutableTest, RequiredSubgroupSizeNeedsSubgroupSizeControl) {
  VulkanExecutableSpec spec = Spec();
  spec.pipelines[1].subgroup_size = 8;
  limits_.subgroup_size_control = false;
  auto executable = Load(spec);
  ASSERT_FALSE(executable.ok());
  EXPECT_EQ(executable.status().code(), StatusCode::kUnimplemented);
  EXPECT_NE(executable.status().ToString().find("subgroup size 8"),
            std::string::npos)
      << executable.status().ToString();

  limits_.subgroup_size_control = true;
  limits_.min_subgroup_size = 16;
  limits_.max_subgroup_size = 64;
  executable = Load(spec);
  ASSERT_FALSE(executable.ok());
  EXPECT_EQ(executable.status().code(), StatusCode::kUnimplemented);
  EXPECT_NE(executable.status().ToString().find("[16, 64]"), std::string::npos)
      << executable.status().ToString();
}

// Push descriptors are used when every pipeline layout has at most one set
// with bindings (Vulkan allows one push descriptor set per layout) and no
// set exceeds maxPushDescriptors; Spec()'s layout 1 has two.
TEST_F(VulkanExecutableTest, PushDescriptorsWhenTheLayoutsAllow) {
  if (!context_->has_push_descriptors()) {
    GTEST_SKIP() << "the device has no VK_KHR_push_descriptor";
  }
  limits_.max_push_descriptors = 32;
  auto two_sets = Load(Spec());
  ASSERT_TRUE(two_sets.ok()) << two_sets.status().ToString();
  EXPECT_FALSE((*two_sets)->uses_push_descriptors());

  VulkanExecutableSpec spec = Spec();
  spec.pipeline_layouts[1].set_layout_ordinals = {1};
  auto one_set = Load(spec);
  ASSERT_TRUE(one_set.ok()) << one_set.status().ToString();
  EXPECT_TRUE((*one_set)->uses_push_descriptors());

  limits_.max_push_descriptors = 2;  // set layout 1 holds 3 descriptors
  auto too_many = Load(spec);
  ASSERT_TRUE(too_many.ok()) << too_many.status().ToString();
  EXPECT_FALSE((*too_many)->uses_push_descriptors());
}

// Parse errors come back from Load unchanged.
TEST_F(VulkanExecutableTest, LoadReportsParseErrors) {
  VulkanExecutableSpec spec = Spec();
  spec.pipelines[0].dispatch_abi = 1;
  auto executable = Load(spec);
  ASSERT_FALSE(executable.ok());
  EXPECT_EQ(executable.status().code(), StatusCode::kUnimplemented);
}

}  // namespace
}  // namespace ember::hal::vulkan
