#include "runtime/hal/vulkan/vulkan_executable.h"

#include <algorithm>
#include <utility>

namespace ember::hal::vulkan {
namespace {

// Executable constants beyond this many are refused: Vulkan sizes the
// specialization data in bytes as a size_t, but no program needs more and
// every pipeline gets a map entry per constant.
constexpr size_t kMaxExecutableConstants = 65536;

// The shader modules one Build needs, destroyed when it ends (the pipelines
// keep what they need).
class ShaderModules {
 public:
  ShaderModules(const VulkanApi& api, VkDevice device, size_t count)
      : api_(api), device_(device), modules_(count, VK_NULL_HANDLE) {}
  ~ShaderModules() {
    for (VkShaderModule module : modules_) {
      if (module != VK_NULL_HANDLE) {
        api_.vkDestroyShaderModule(device_, module, nullptr);
      }
    }
  }
  ShaderModules(const ShaderModules&) = delete;
  ShaderModules& operator=(const ShaderModules&) = delete;

  // Module `ordinal`, made on first use.
  Result<VkShaderModule> Get(const VulkanExecutableDef& def, uint32_t ordinal) {
    if (modules_[ordinal] == VK_NULL_HANDLE) {
      const std::vector<uint32_t>& spirv = def.shader_modules[ordinal].spirv;
      VkShaderModuleCreateInfo info = {};
      info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
      info.codeSize = spirv.size() * sizeof(uint32_t);
      info.pCode = spirv.data();
      EMBER_VK_RETURN_IF_ERROR(api_.vkCreateShaderModule(
                                   device_, &info, nullptr, &modules_[ordinal]),
                               "vkCreateShaderModule");
    }
    return modules_[ordinal];
  }

 private:
  const VulkanApi& api_;
  VkDevice device_;
  std::vector<VkShaderModule> modules_;
};

struct LayoutCounts {
  uint64_t storage_buffers = 0;
  uint64_t uniform_buffers = 0;
  // Sets that have at least one binding.
  uint32_t non_empty_sets = 0;
  uint64_t max_set_descriptors = 0;
};

LayoutCounts CountLayout(const VulkanExecutableDef& def,
                         const VulkanPipelineLayoutDef& layout) {
  LayoutCounts counts;
  for (uint32_t ordinal : layout.set_layout_ordinals) {
    uint64_t set_descriptors = 0;
    for (const VulkanDescriptorBindingDef& binding :
         def.descriptor_set_layouts[ordinal].bindings) {
      set_descriptors += binding.descriptor_count;
      if (binding.descriptor_type == kVulkanDescriptorStorageBuffer) {
        counts.storage_buffers += binding.descriptor_count;
      } else {
        counts.uniform_buffers += binding.descriptor_count;
      }
    }
    if (!def.descriptor_set_layouts[ordinal].bindings.empty()) {
      ++counts.non_empty_sets;
    }
    counts.max_set_descriptors =
        std::max(counts.max_set_descriptors, set_descriptors);
  }
  return counts;
}

}  // namespace

VulkanExecutableLimits VulkanExecutableLimits::FromDeviceLimits(
    const VkPhysicalDeviceLimits& limits) {
  VulkanExecutableLimits out;
  out.max_bound_descriptor_sets = limits.maxBoundDescriptorSets;
  out.max_push_constants_size = limits.maxPushConstantsSize;
  out.max_per_stage_storage_buffers =
      limits.maxPerStageDescriptorStorageBuffers;
  out.max_per_stage_uniform_buffers =
      limits.maxPerStageDescriptorUniformBuffers;
  return out;
}

Result<Ref<VulkanExecutable>> VulkanExecutable::Create(
    const VulkanApi& api, VkDevice device, Ref<RefCounted> device_owner,
    const VulkanExecutableLimits& limits, const VulkanExecutableDef& def,
    std::span<const uint32_t> constants, std::string debug_name) {
  Ref<VulkanExecutable> executable =
      Ref<VulkanExecutable>::Adopt(new VulkanExecutable());
  executable->api_ = api;
  executable->device_ = device;
  executable->device_owner_ = std::move(device_owner);
  executable->debug_name_ = std::move(debug_name);
  // On failure the executable's destructor destroys what was made.
  EMBER_RETURN_IF_ERROR(executable->Build(limits, def, constants),
                        "while creating Vulkan executable '%s'",
                        executable->debug_name_.c_str());
  return executable;
}

Result<Ref<VulkanExecutable>> VulkanExecutable::Load(
    const VulkanApi& api, VkDevice device, Ref<RefCounted> device_owner,
    const VulkanExecutableLimits& limits, std::span<const uint8_t> data,
    std::span<const uint32_t> constants, std::string debug_name) {
  EMBER_ASSIGN_OR_RETURN(VulkanExecutableDef def,
                         ParseVulkanExecutableDef(data));
  return Create(api, device, std::move(device_owner), limits, def, constants,
                std::move(debug_name));
}

VulkanExecutable::~VulkanExecutable() {
  if (device_ == VK_NULL_HANDLE) return;
  for (const ExportRecord& record : exports_) {
    if (record.pipeline != VK_NULL_HANDLE) {
      api_.vkDestroyPipeline(device_, record.pipeline, nullptr);
    }
  }
  for (const LayoutRecord& layout : layouts_) {
    if (layout.pipeline_layout != VK_NULL_HANDLE) {
      api_.vkDestroyPipelineLayout(device_, layout.pipeline_layout, nullptr);
    }
  }
  for (VkDescriptorSetLayout layout : set_layouts_) {
    if (layout != VK_NULL_HANDLE) {
      api_.vkDestroyDescriptorSetLayout(device_, layout, nullptr);
    }
  }
}

Executable::ExportInfo VulkanExecutable::export_info(size_t ordinal) const {
  ExportInfo info;
  const ExportRecord& record = exports_[ordinal];
  info.name = record.entry_point;
  info.constant_count = record.layout->push_constant_bytes / 4;
  info.binding_count = static_cast<uint32_t>(record.layout->bindings.size());
  return info;
}

Status VulkanExecutable::Build(const VulkanExecutableLimits& limits,
                               const VulkanExecutableDef& def,
                               std::span<const uint32_t> constants) {
  // What the device must offer, before anything is made.
  bool push_descriptors_fit = limits.max_push_descriptors != 0;
  for (size_t i = 0; i < def.pipeline_layouts.size(); ++i) {
    const VulkanPipelineLayoutDef& layout = def.pipeline_layouts[i];
    const LayoutCounts counts = CountLayout(def, layout);
    if (layout.set_layout_ordinals.size() > limits.max_bound_descriptor_sets) {
      return InvalidArgumentError(StringPrintf(
          "pipeline_layouts[%zu] has %zu descriptor sets; the device binds at "
          "most %u (maxBoundDescriptorSets)",
          i, layout.set_layout_ordinals.size(),
          limits.max_bound_descriptor_sets));
    }
    if (layout.push_constant_bytes > limits.max_push_constants_size) {
      return InvalidArgumentError(StringPrintf(
          "pipeline_layouts[%zu] has %u push-constant bytes; the device has "
          "%u (maxPushConstantsSize)",
          i, layout.push_constant_bytes, limits.max_push_constants_size));
    }
    if (counts.storage_buffers > limits.max_per_stage_storage_buffers) {
      return InvalidArgumentError(StringPrintf(
          "pipeline_layouts[%zu] has %llu storage buffers; the device has %u "
          "(maxPerStageDescriptorStorageBuffers)",
          i, static_cast<unsigned long long>(counts.storage_buffers),
          limits.max_per_stage_storage_buffers));
    }
    if (counts.uniform_buffers > limits.max_per_stage_uniform_buffers) {
      return InvalidArgumentError(StringPrintf(
          "pipeline_layouts[%zu] has %llu uniform buffers; the device has %u "
          "(maxPerStageDescriptorUniformBuffers)",
          i, static_cast<unsigned long long>(counts.uniform_buffers),
          limits.max_per_stage_uniform_buffers));
    }
    // Vulkan allows one push descriptor set per pipeline layout.
    if (counts.non_empty_sets > 1 ||
        counts.max_set_descriptors > limits.max_push_descriptors) {
      push_descriptors_fit = false;
    }
  }
  for (size_t i = 0; i < def.pipelines.size(); ++i) {
    const uint32_t size = def.pipelines[i].subgroup_size;
    if (size == 0) continue;
    if (!limits.subgroup_size_control) {
      return UnimplementedError(StringPrintf(
          "pipelines[%zu] ('%s') requires subgroup size %u, which needs "
          "subgroup size control (VK_EXT_subgroup_size_control / Vulkan 1.3 "
          "subgroupSizeControl for the compute stage); the device does not "
          "offer it",
          i, def.pipelines[i].entry_point.c_str(), size));
    }
    if (size < limits.min_subgroup_size || size > limits.max_subgroup_size) {
      return UnimplementedError(StringPrintf(
          "pipelines[%zu] ('%s') requires subgroup size %u; the device "
          "offers [%u, %u]",
          i, def.pipelines[i].entry_point.c_str(), size,
          limits.min_subgroup_size, limits.max_subgroup_size));
    }
  }
  if (constants.size() > kMaxExecutableConstants) {
    return InvalidArgumentError(
        StringPrintf("%zu executable constants exceed the limit of %zu",
                     constants.size(), kMaxExecutableConstants));
  }
  uses_push_descriptors_ = push_descriptors_fit;

  // Descriptor set layouts.
  set_layouts_.assign(def.descriptor_set_layouts.size(), VK_NULL_HANDLE);
  std::vector<VkDescriptorSetLayoutBinding> bindings;
  for (size_t i = 0; i < def.descriptor_set_layouts.size(); ++i) {
    const VulkanDescriptorSetLayoutDef& set = def.descriptor_set_layouts[i];
    bindings.clear();
    for (const VulkanDescriptorBindingDef& binding : set.bindings) {
      VkDescriptorSetLayoutBinding vk_binding = {};
      vk_binding.binding = binding.binding;
      vk_binding.descriptorType =
          static_cast<VkDescriptorType>(binding.descriptor_type);
      vk_binding.descriptorCount = binding.descriptor_count;
      // A compute pipeline has one stage; the file's other bits (if any)
      // name stages that cannot exist here.
      vk_binding.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
      bindings.push_back(vk_binding);
    }
    VkDescriptorSetLayoutCreateInfo info = {};
    info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
    if (uses_push_descriptors_ && !bindings.empty()) {
      info.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
    }
    info.bindingCount = static_cast<uint32_t>(bindings.size());
    info.pBindings = bindings.data();
    EMBER_VK_RETURN_IF_ERROR(api_.vkCreateDescriptorSetLayout(
                                 device_, &info, nullptr, &set_layouts_[i]),
                             "vkCreateDescriptorSetLayout");
  }

  // Pipeline layouts.
  layouts_.resize(def.pipeline_layouts.size());
  for (size_t i = 0; i < def.pipeline_layouts.size(); ++i) {
    const VulkanPipelineLayoutDef& layout = def.pipeline_layouts[i];
    LayoutRecord& record = layouts_[i];
    for (uint32_t ordinal : layout.set_layout_ordinals) {
      record.set_layouts.push_back(set_layouts_[ordinal]);
      uint32_t storage = 0, uniform = 0;
      for (const VulkanDescriptorBindingDef& binding :
           def.descriptor_set_layouts[ordinal].bindings) {
        (binding.descriptor_type == kVulkanDescriptorStorageBuffer ? storage
                                                                   : uniform) +=
            binding.descriptor_count;
      }
      record.set_storage_buffers.push_back(storage);
      record.set_uniform_buffers.push_back(uniform);
    }
    record.push_constant_bytes = layout.push_constant_bytes;
    record.bindings = layout.hal_bindings;
    VkPushConstantRange range = {};
    range.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    range.offset = 0;
    range.size = layout.push_constant_bytes;
    VkPipelineLayoutCreateInfo info = {};
    info.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
    info.setLayoutCount = static_cast<uint32_t>(record.set_layouts.size());
    info.pSetLayouts = record.set_layouts.data();
    info.pushConstantRangeCount = layout.push_constant_bytes ? 1 : 0;
    info.pPushConstantRanges = &range;
    EMBER_VK_RETURN_IF_ERROR(
        api_.vkCreatePipelineLayout(device_, &info, nullptr,
                                    &record.pipeline_layout),
        "vkCreatePipelineLayout");
  }

  // Executable constants as specialization constants 0..n-1.
  std::vector<VkSpecializationMapEntry> entries(constants.size());
  for (size_t i = 0; i < constants.size(); ++i) {
    entries[i].constantID = static_cast<uint32_t>(i);
    entries[i].offset = static_cast<uint32_t>(i * sizeof(uint32_t));
    entries[i].size = sizeof(uint32_t);
  }
  VkSpecializationInfo specialization = {};
  specialization.mapEntryCount = static_cast<uint32_t>(entries.size());
  specialization.pMapEntries = entries.data();
  specialization.dataSize = constants.size_bytes();
  specialization.pData = constants.data();

  // One pipeline per export.
  ShaderModules modules(api_, device_, def.shader_modules.size());
  exports_.resize(def.pipelines.size());
  for (size_t i = 0; i < def.pipelines.size(); ++i) {
    const VulkanPipelineDef& pipeline = def.pipelines[i];
    ExportRecord& record = exports_[i];
    record.layout = &layouts_[pipeline.pipeline_layout_ordinal];
    record.entry_point = pipeline.entry_point;
    record.name = pipeline.name;
    record.subgroup_size = pipeline.subgroup_size;

    EMBER_ASSIGN_OR_RETURN(VkShaderModule module,
                           modules.Get(def, pipeline.shader_module_ordinal),
                           "while making shader_modules[%u] for pipelines[%zu]",
                           pipeline.shader_module_ordinal, i);
    VkPipelineShaderStageRequiredSubgroupSizeCreateInfo subgroup = {};
    subgroup.sType =
        VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO;
    subgroup.requiredSubgroupSize = pipeline.subgroup_size;
    VkComputePipelineCreateInfo info = {};
    info.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
    info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    info.stage.pNext = pipeline.subgroup_size ? &subgroup : nullptr;
    info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    info.stage.module = module;
    info.stage.pName = record.entry_point.c_str();
    info.stage.pSpecializationInfo =
        constants.empty() ? nullptr : &specialization;
    info.layout = record.layout->pipeline_layout;
    info.basePipelineIndex = -1;
    EMBER_RETURN_IF_ERROR(
        VkResultToStatus(
            api_.vkCreateComputePipelines(device_, limits.pipeline_cache, 1,
                                          &info, nullptr, &record.pipeline),
            "vkCreateComputePipelines"),
        "while making pipelines[%zu] ('%s')", i, record.entry_point.c_str());
  }
  return Status();
}

}  // namespace ember::hal::vulkan
