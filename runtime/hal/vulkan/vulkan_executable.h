// VulkanExecutable: the Vulkan objects of one `vulkan-spirv-fb` executable.
//
// Made from a verified VulkanExecutableDef (executable_def.h) on a VkDevice:
//   - a VkDescriptorSetLayout per descriptor set layout of the file;
//   - a VkPipelineLayout per pipeline layout: its sets in order (set s is
//     the file's set layout set_layout_ordinals[s]) and ONE push-constant
//     range, compute stage, bytes [0, push_constant_bytes). The file may
//     list several ranges, but the HAL writes constant i at byte 4 * i from
//     0, and Vulkan allows one range per stage, so the union from 0 is the
//     range that is both valid and covers every write;
//   - a compute VkPipeline per export (the VkShaderModules are only needed
//     while the pipelines are made, and are destroyed right after).
// docs/vulkan-executable.md has the binding mapping and the limits.
//
// Executable constants (`hal.executable.create`'s `constants`) are SPIR-V
// specialization constants, as in IREE 3.13: constant i is constant_id i,
// 4 bytes at offset 4 * i of the data, for every pipeline. (3.13 passes
// none for the programs we compiled; the mapping is IREE's runtime's.)
//
// What the device must offer is checked before any object is made, against
// VulkanExecutableLimits (filled by the device from its properties):
// descriptor sets per pipeline layout, push-constant bytes, storage and
// uniform buffers per stage (INVALID_ARGUMENT naming the limit), and for an
// export with a required subgroup size, subgroup size control for the
// compute stage with the size in range (UNIMPLEMENTED otherwise).
//
// Push descriptors: with `max_push_descriptors` nonzero the set layouts are
// made with VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR when the
// whole executable allows it (every pipeline layout has at most one set with
// bindings, and no set has more descriptors than the limit); then
// uses_push_descriptors() is true and the recorder must push; otherwise it
// allocates sets from a pool.
//
// Lifetime: the executable holds `device_owner` (the object that owns the
// VkDevice), so the device outlives it; it destroys its objects in its
// destructor. Thread safety: immutable after Create.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/base/ref_counted.h"
#include "runtime/base/status.h"
#include "runtime/hal/command_buffer.h"
#include "runtime/hal/vulkan/executable_def.h"
#include "runtime/hal/vulkan/vulkan_api.h"

namespace ember::hal::vulkan {

// What the device offers, as VulkanExecutable::Create needs it.
struct VulkanExecutableLimits {
  uint32_t max_bound_descriptor_sets = 4;
  uint32_t max_push_constants_size = 128;
  uint32_t max_per_stage_storage_buffers = 4;
  uint32_t max_per_stage_uniform_buffers = 12;
  // Required subgroup sizes: the subgroupSizeControl feature is enabled on
  // the device (Vulkan 1.3 or VK_EXT_subgroup_size_control), the compute
  // stage is in requiredSubgroupSizeStages, and the sizes in range.
  bool subgroup_size_control = false;
  uint32_t min_subgroup_size = 0;
  uint32_t max_subgroup_size = 0;
  // VkPhysicalDevicePushDescriptorPropertiesKHR::maxPushDescriptors when
  // VK_KHR_push_descriptor is enabled and wanted; 0 otherwise.
  uint32_t max_push_descriptors = 0;
  // Optional: a VkPipelineCache for vkCreateComputePipelines.
  VkPipelineCache pipeline_cache = VK_NULL_HANDLE;

  // The first four fields from the device's limits (the rest stay off).
  static VulkanExecutableLimits FromDeviceLimits(
      const VkPhysicalDeviceLimits& limits);
};

class VulkanExecutable final : public Executable {
 public:
  // One pipeline layout, as the dispatch recorder needs it. Exports that
  // share a layout share its record (a file may point 65536 exports at one
  // layout of 65535 bindings).
  struct LayoutRecord {
    VkPipelineLayout pipeline_layout = VK_NULL_HANDLE;
    // Set s of the pipeline layout (bind with vkCmdBindDescriptorSets /
    // vkCmdPushDescriptorSetKHR at set number s).
    std::vector<VkDescriptorSetLayout> set_layouts;
    // Per set: how many storage / uniform descriptors a set of it holds
    // (descriptor pool sizing).
    std::vector<uint32_t> set_storage_buffers;
    std::vector<uint32_t> set_uniform_buffers;
    // HAL constants are pushed at byte 0 (push_constant_bytes = 4 *
    // constant_count, possibly 0: then nothing is pushed).
    uint32_t push_constant_bytes = 0;
    // HAL binding ordinal -> (set, binding, array element, descriptor type).
    std::vector<VulkanHalBinding> bindings;
  };
  // One export.
  struct ExportRecord {
    VkPipeline pipeline = VK_NULL_HANDLE;
    const LayoutRecord* layout = nullptr;  // owned by the executable
    std::string entry_point;
    std::string name;  // debug name ("" without debug info)
    uint32_t subgroup_size = 0;
  };

  // Makes the objects of `def` on `device` (whose commands `api` holds; it
  // is copied). `constants` are the executable constants (see the top).
  static Result<Ref<VulkanExecutable>> Create(
      const VulkanApi& api, VkDevice device, Ref<RefCounted> device_owner,
      const VulkanExecutableLimits& limits, const VulkanExecutableDef& def,
      std::span<const uint32_t> constants, std::string debug_name = {});
  // ParseVulkanExecutableDef, then Create.
  static Result<Ref<VulkanExecutable>> Load(
      const VulkanApi& api, VkDevice device, Ref<RefCounted> device_owner,
      const VulkanExecutableLimits& limits, std::span<const uint8_t> data,
      std::span<const uint32_t> constants, std::string debug_name = {});
  ~VulkanExecutable() override;

  // hal::Executable. An export's name is its entry point, as IREE's
  // runtime looks exports up (3.13 gives the debug name the same text).
  size_t export_count() const override { return exports_.size(); }
  ExportInfo export_info(size_t ordinal) const override;
  std::string_view debug_name() const override { return debug_name_; }

  const ExportRecord& export_record(size_t ordinal) const {
    return exports_[ordinal];
  }
  bool uses_push_descriptors() const { return uses_push_descriptors_; }

 private:
  VulkanExecutable() = default;
  Status Build(const VulkanExecutableLimits& limits,
               const VulkanExecutableDef& def,
               std::span<const uint32_t> constants);

  VulkanApi api_;
  VkDevice device_ = VK_NULL_HANDLE;
  Ref<RefCounted> device_owner_;
  std::string debug_name_;
  bool uses_push_descriptors_ = false;
  std::vector<VkDescriptorSetLayout> set_layouts_;
  std::vector<LayoutRecord> layouts_;  // one per pipeline layout
  std::vector<ExportRecord> exports_;
};

}  // namespace ember::hal::vulkan
