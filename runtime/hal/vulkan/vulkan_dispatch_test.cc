// Dispatches on the Vulkan device with a compute shader assembled here, word
// by word (no compiler output, no committed binary), in an executable built
// with the VKE1 test builder -- under the validation layer, with push
// descriptors and with descriptor pools. End-to-end runs of real
// iree-compile 3.13 vulkan modules are the Python tests' (tests/python).
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <initializer_list>
#include <string_view>
#include <vector>

#include "runtime/hal/vulkan/vulkan_device.h"
#include "runtime/hal/vulkan/vulkan_driver.h"
#include "runtime/testing/vulkan_executable_builder.h"

namespace ember::hal::vulkan {
namespace {

constexpr auto kWait = std::chrono::seconds(20);

// A minimal SPIR-V writer: instructions from opcodes and operand words.
class SpirvWriter {
 public:
  void Op(uint32_t opcode, std::initializer_list<uint32_t> operands) {
    words_.push_back(static_cast<uint32_t>((operands.size() + 1) << 16) |
                     opcode);
    words_.insert(words_.end(), operands);
  }
  // An instruction whose operands end with a literal string.
  void OpWithString(uint32_t opcode, std::initializer_list<uint32_t> before,
                    std::string_view text,
                    std::initializer_list<uint32_t> after) {
    std::vector<uint32_t> string_words((text.size() + 4) / 4, 0);
    for (size_t i = 0; i < text.size(); ++i) {
      string_words[i / 4] |= uint32_t{static_cast<uint8_t>(text[i])}
                             << (8 * (i % 4));
    }
    const size_t count = 1 + before.size() + string_words.size() + after.size();
    words_.push_back(static_cast<uint32_t>(count << 16) | opcode);
    words_.insert(words_.end(), before);
    words_.insert(words_.end(), string_words.begin(), string_words.end());
    words_.insert(words_.end(), after);
  }
  std::vector<uint32_t> Finish(uint32_t bound) const {
    // SPIR-V 1.3 (Vulkan 1.1+): StorageBuffer storage class is core.
    std::vector<uint32_t> module = {0x07230203, 0x00010300, 0, bound, 0};
    module.insert(module.end(), words_.begin(), words_.end());
    return module;
  }

 private:
  std::vector<uint32_t> words_;
};

// out[x] = in[x] * 2 + constant, x = GlobalInvocationId.x, local size 1:
// binding 0 `in`, binding 1 `out` (set 0, storage buffers of u32), the
// constant a 4-byte push constant.
std::vector<uint32_t> ScaleAddSpirv() {
  enum : uint32_t {
    kVoid = 1,
    kFn,
    kUint,
    kV3,
    kPtrInputV3,
    kGid,
    kRuntimeArray,
    kBlock,
    kPtrBlock,
    kIn,
    kOut,
    kPc,
    kPtrPc,
    kPcVar,
    kPtrUint,
    kPtrPcUint,
    kC0,
    kC2,
    kMain,
    kLabel,
    kG,
    kX,
    kPin,
    kV,
    kV2,
    kPpc,
    kK,
    kR,
    kPout,
    kBound
  };
  // Opcodes and enumerants (SPIR-V specification, section 3).
  enum : uint32_t {
    OpCapability = 17,
    OpMemoryModel = 14,
    OpEntryPoint = 15,
    OpExecutionMode = 16,
    OpDecorate = 71,
    OpMemberDecorate = 72,
    OpTypeVoid = 19,
    OpTypeFunction = 33,
    OpTypeInt = 21,
    OpTypeVector = 23,
    OpTypePointer = 32,
    OpVariable = 59,
    OpTypeRuntimeArray = 29,
    OpTypeStruct = 30,
    OpConstant = 43,
    OpFunction = 54,
    OpLabel = 248,
    OpLoad = 61,
    OpStore = 62,
    OpCompositeExtract = 81,
    OpAccessChain = 65,
    OpIMul = 132,
    OpIAdd = 128,
    OpReturn = 253,
    OpFunctionEnd = 56,
  };
  enum : uint32_t {
    Shader = 1,
    Logical = 0,
    GLSL450 = 1,
    GLCompute = 5,
    LocalSize = 17,
    BuiltIn = 11,
    GlobalInvocationId = 28,
    ArrayStride = 6,
    Offset = 35,
    Block = 2,
    DescriptorSet = 34,
    Binding = 33,
    Input = 1,
    StorageBuffer = 12,
    PushConstant = 9,
  };
  SpirvWriter w;
  w.Op(OpCapability, {Shader});
  w.Op(OpMemoryModel, {Logical, GLSL450});
  w.OpWithString(OpEntryPoint, {GLCompute, kMain}, "main", {kGid});
  w.Op(OpExecutionMode, {kMain, LocalSize, 1, 1, 1});
  w.Op(OpDecorate, {kGid, BuiltIn, GlobalInvocationId});
  w.Op(OpDecorate, {kRuntimeArray, ArrayStride, 4});
  w.Op(OpMemberDecorate, {kBlock, 0, Offset, 0});
  w.Op(OpDecorate, {kBlock, Block});
  w.Op(OpDecorate, {kIn, DescriptorSet, 0});
  w.Op(OpDecorate, {kIn, Binding, 0});
  w.Op(OpDecorate, {kOut, DescriptorSet, 0});
  w.Op(OpDecorate, {kOut, Binding, 1});
  w.Op(OpMemberDecorate, {kPc, 0, Offset, 0});
  w.Op(OpDecorate, {kPc, Block});
  w.Op(OpTypeVoid, {kVoid});
  w.Op(OpTypeFunction, {kFn, kVoid});
  w.Op(OpTypeInt, {kUint, 32, 0});
  w.Op(OpTypeVector, {kV3, kUint, 3});
  w.Op(OpTypePointer, {kPtrInputV3, Input, kV3});
  w.Op(OpVariable, {kPtrInputV3, kGid, Input});
  w.Op(OpTypeRuntimeArray, {kRuntimeArray, kUint});
  w.Op(OpTypeStruct, {kBlock, kRuntimeArray});
  w.Op(OpTypePointer, {kPtrBlock, StorageBuffer, kBlock});
  w.Op(OpVariable, {kPtrBlock, kIn, StorageBuffer});
  w.Op(OpVariable, {kPtrBlock, kOut, StorageBuffer});
  w.Op(OpTypeStruct, {kPc, kUint});
  w.Op(OpTypePointer, {kPtrPc, PushConstant, kPc});
  w.Op(OpVariable, {kPtrPc, kPcVar, PushConstant});
  w.Op(OpTypePointer, {kPtrUint, StorageBuffer, kUint});
  w.Op(OpTypePointer, {kPtrPcUint, PushConstant, kUint});
  w.Op(OpConstant, {kUint, kC0, 0});
  w.Op(OpConstant, {kUint, kC2, 2});
  w.Op(OpFunction, {kVoid, kMain, 0, kFn});
  w.Op(OpLabel, {kLabel});
  w.Op(OpLoad, {kV3, kG, kGid});
  w.Op(OpCompositeExtract, {kUint, kX, kG, 0});
  w.Op(OpAccessChain, {kPtrUint, kPin, kIn, kC0, kX});
  w.Op(OpLoad, {kUint, kV, kPin});
  w.Op(OpIMul, {kUint, kV2, kV, kC2});
  w.Op(OpAccessChain, {kPtrPcUint, kPpc, kPcVar, kC0});
  w.Op(OpLoad, {kUint, kK, kPpc});
  w.Op(OpIAdd, {kUint, kR, kV2, kK});
  w.Op(OpAccessChain, {kPtrUint, kPout, kOut, kC0, kX});
  w.Op(OpStore, {kPout, kR});
  w.Op(OpReturn, {});
  w.Op(OpFunctionEnd, {});
  return w.Finish(kBound);
}

std::vector<uint8_t> ScaleAddExecutable() {
  testing::VulkanExecutableSpec spec;
  spec.shader_modules = {ScaleAddSpirv()};
  spec.set_layouts = {
      {{0, kVulkanDescriptorStorageBuffer, 1, kVulkanStageCompute},
       {1, kVulkanDescriptorStorageBuffer, 1, kVulkanStageCompute}}};
  spec.pipeline_layouts = {{{0}, {{kVulkanStageCompute, 0, 4}}}};
  testing::VulkanPipelineSpec pipeline;
  pipeline.entry_point = "main";
  spec.pipelines = {pipeline};
  return testing::BuildVulkanExecutable(spec);
}

class VulkanDispatchTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    Status available = VulkanAvailability();
    if (!available.ok()) GTEST_SKIP() << available.ToString();
    VulkanDeviceOptions options;
    options.instance.validation = true;
    options.disable_push_descriptors = !GetParam();
    Result<Ref<VulkanDevice>> device = VulkanDevice::Create(options);
    ASSERT_TRUE(device.ok()) << device.status().ToString();
    device_ = *device;
    instance_ = Ref<VulkanInstance>::Retain(&device_->context()->instance());
    std::vector<uint8_t> data = ScaleAddExecutable();
    Result<Ref<Executable>> executable =
        device_->CreateExecutable(kVulkanSpirvFormat, data, {});
    ASSERT_TRUE(executable.ok()) << executable.status().ToString();
    executable_ = *executable;
    auto* vulkan = static_cast<VulkanExecutable*>(executable_.get());
    EXPECT_EQ(vulkan->uses_push_descriptors(), GetParam());
  }
  void TearDown() override {
    executable_.reset();
    device_.reset();
    if (instance_) {
      for (const std::string& message : instance_->validation_messages()) {
        ADD_FAILURE() << "Vulkan validation: " << message;
      }
    }
  }

  Ref<Buffer> Upload(const std::vector<uint32_t>& words) {
    std::span<const uint8_t> bytes(
        reinterpret_cast<const uint8_t*>(words.data()), words.size() * 4);
    Result<Ref<Buffer>> buffer =
        device_->allocator().AllocateCopy(BufferParams{}, bytes);
    EXPECT_TRUE(buffer.ok()) << buffer.status().ToString();
    return buffer.ok() ? *buffer : nullptr;
  }
  std::vector<uint32_t> Download(const Ref<Buffer>& buffer, uint64_t offset,
                                 size_t count) {
    std::vector<uint32_t> words(count);
    Status status = device_->ReadBuffer(
        buffer, offset, {reinterpret_cast<uint8_t*>(words.data()), count * 4});
    EXPECT_TRUE(status.ok()) << status.ToString();
    return words;
  }

  Ref<VulkanInstance> instance_;
  Ref<VulkanDevice> device_;
  Ref<Executable> executable_;
};

TEST_P(VulkanDispatchTest, DirectDispatchWithConstants) {
  constexpr size_t kCount = 200;
  std::vector<uint32_t> input(kCount);
  for (size_t i = 0; i < kCount; ++i) input[i] = uint32_t(i * 3 + 1);
  Ref<Buffer> in = Upload(input);
  Ref<Buffer> out = Upload(std::vector<uint32_t>(kCount + 16, 0xDEAD));
  ASSERT_TRUE(in && out);
  Result<Ref<CommandBuffer>> commands = device_->CreateCommandBuffer(
      CommandBufferMode::kOneShot, CommandCategory::kAny, 0);
  ASSERT_TRUE(commands.ok());
  DispatchCommand dispatch;
  dispatch.executable = executable_;
  dispatch.workgroup_count[0] = kCount;
  dispatch.workgroup_count[1] = dispatch.workgroup_count[2] = 1;
  dispatch.constants = {7};
  // `out` bound 64 bytes in (an aligned offset).
  dispatch.bindings = {{in, 0, 0, kCount * 4}, {out, 0, 64, kCount * 4}};
  ASSERT_TRUE((*commands)->Dispatch(dispatch).ok());
  ASSERT_TRUE((*commands)->Finalize().ok());
  Ref<Fence> done = Fence::CreateWithNewSemaphore();
  Status status = device_->QueueExecute(nullptr, done, *commands, {});
  ASSERT_TRUE(status.ok()) << status.ToString();
  ASSERT_TRUE(done->Wait(Timeout::After(kWait)).ok());
  std::vector<uint32_t> result = Download(out, 0, kCount + 16);
  for (size_t i = 0; i < 16; ++i) EXPECT_EQ(result[i], 0xDEADu) << i;
  for (size_t i = 0; i < kCount; ++i) {
    EXPECT_EQ(result[16 + i], input[i] * 2 + 7) << i;
  }
}

// Recorded once with binding slots, replayed with different tables; the
// second dispatch reads what the first wrote (the barrier between them),
// and its workgroup count comes from a buffer (vkCmdDispatchIndirect).
TEST_P(VulkanDispatchTest, IndirectDispatchAndBindingTables) {
  constexpr size_t kCount = 64;
  Result<Ref<CommandBuffer>> commands = device_->CreateCommandBuffer(
      CommandBufferMode::kNone, CommandCategory::kAny, 4);
  ASSERT_TRUE(commands.ok());
  DispatchCommand first;
  first.executable = executable_;
  first.workgroup_count[0] = kCount;
  first.workgroup_count[1] = first.workgroup_count[2] = 1;
  first.constants = {1};
  first.bindings = {{nullptr, 0, 0, kCount * 4}, {nullptr, 1, 0, kCount * 4}};
  ASSERT_TRUE((*commands)->Dispatch(first).ok());
  ASSERT_TRUE((*commands)->ExecutionBarrier().ok());
  DispatchCommand second = first;
  second.indirect = true;
  second.workgroups_ref = {nullptr, 3, 0, 12};
  second.constants = {100};
  second.bindings = {{nullptr, 1, 0, kCount * 4}, {nullptr, 2, 0, kCount * 4}};
  ASSERT_TRUE((*commands)->Dispatch(second).ok());
  ASSERT_TRUE((*commands)->Finalize().ok());
  for (uint32_t round = 0; round < 2; ++round) {
    std::vector<uint32_t> input(kCount);
    for (size_t i = 0; i < kCount; ++i) input[i] = uint32_t(i + round * 1000);
    Ref<Buffer> in = Upload(input);
    Ref<Buffer> middle = Upload(std::vector<uint32_t>(kCount, 0));
    Ref<Buffer> out = Upload(std::vector<uint32_t>(kCount, 0));
    // Indirect counts: only the first half in the second round.
    const uint32_t groups = round == 0 ? kCount : kCount / 2;
    Ref<Buffer> counts = Upload({0, groups, 1, 1});
    std::vector<Binding> table = {{in, 0, kWholeBuffer},
                                  {middle, 0, kWholeBuffer},
                                  {out, 0, kWholeBuffer},
                                  {counts, 4, 12}};
    Ref<Fence> done = Fence::CreateWithNewSemaphore();
    Status status = device_->QueueExecute(nullptr, done, *commands, table);
    ASSERT_TRUE(status.ok()) << status.ToString();
    ASSERT_TRUE(done->Wait(Timeout::After(kWait)).ok());
    std::vector<uint32_t> result = Download(out, 0, kCount);
    for (size_t i = 0; i < kCount; ++i) {
      const uint32_t expected = i < groups ? (input[i] * 2 + 1) * 2 + 100 : 0;
      EXPECT_EQ(result[i], expected) << "round " << round << " i " << i;
    }
  }
}

TEST_P(VulkanDispatchTest, DispatchErrorsAreChecked) {
  Ref<Buffer> a = Upload(std::vector<uint32_t>(64, 0));
  Ref<Buffer> b = Upload(std::vector<uint32_t>(64, 0));
  ASSERT_TRUE(a && b);
  auto run = [&](DispatchCommand dispatch) -> Status {
    Result<Ref<CommandBuffer>> commands = device_->CreateCommandBuffer(
        CommandBufferMode::kOneShot, CommandCategory::kAny, 0);
    EXPECT_TRUE(commands.ok());
    EMBER_RETURN_IF_ERROR((*commands)->Dispatch(std::move(dispatch)));
    EMBER_RETURN_IF_ERROR((*commands)->Finalize());
    Ref<Fence> done = Fence::CreateWithNewSemaphore();
    Status status = device_->QueueExecute(nullptr, done, *commands, {});
    if (status.ok()) status = done->Wait(Timeout::After(kWait));
    return status;
  };
  DispatchCommand good;
  good.executable = executable_;
  good.workgroup_count[0] = good.workgroup_count[1] = good.workgroup_count[2] =
      1;
  good.constants = {0};
  good.bindings = {{a, 0, 0, 256}, {b, 0, 0, 256}};
  EXPECT_TRUE(run(good).ok());

  DispatchCommand too_many_groups = good;
  too_many_groups.workgroup_count[1] =
      device_->context()->properties().limits.maxComputeWorkGroupCount[1] + 1;
  Status status = run(too_many_groups);
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument) << status.ToString();
  EXPECT_NE(status.ToString().find("maxComputeWorkGroupCount"),
            std::string::npos);

  DispatchCommand wrong_constants = good;
  wrong_constants.constants = {};
  EXPECT_EQ(run(wrong_constants).code(), StatusCode::kInvalidArgument);

  DispatchCommand wrong_bindings = good;
  wrong_bindings.bindings.pop_back();
  EXPECT_EQ(run(wrong_bindings).code(), StatusCode::kInvalidArgument);

  const uint64_t alignment =
      device_->context()->properties().limits.minStorageBufferOffsetAlignment;
  if (alignment > 4) {
    DispatchCommand misaligned = good;
    misaligned.bindings[1] = {b, 0, 4, 128};
    status = run(misaligned);
    EXPECT_EQ(status.code(), StatusCode::kInvalidArgument) << status.ToString();
  }

  DispatchCommand out_of_range = good;
  out_of_range.bindings[1] = {b, 0, 128, 256};
  EXPECT_FALSE(run(out_of_range).ok());

  Ref<Allocator> heap = Allocator::CreateHeap();
  Result<Ref<Buffer>> foreign = heap->Allocate(BufferParams{}, 256);
  ASSERT_TRUE(foreign.ok());
  DispatchCommand foreign_binding = good;
  foreign_binding.bindings[0] = {*foreign, 0, 0, 256};
  EXPECT_EQ(run(foreign_binding).code(), StatusCode::kInvalidArgument);

  // Another format is refused.
  EXPECT_FALSE(
      device_->CreateExecutable("embedded-elf-x86_64", ScaleAddExecutable(), {})
          .ok());
}

INSTANTIATE_TEST_SUITE_P(Descriptors, VulkanDispatchTest,
                         ::testing::Values(true, false),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "PushDescriptors"
                                             : "DescriptorPools";
                         });

}  // namespace
}  // namespace ember::hal::vulkan
