// libFuzzer target for the Vulkan executable parser (ParseVulkanExecutableDef,
// docs/vulkan-executable.md): the 64-byte header, the "VKE1" FlatBuffer and
// every rule the Vulkan objects rely on. No Vulkan call is made. Each input is
// parsed as given, and again with the header's content size set to the bytes
// that follow it, so that mutations inside the FlatBuffer are not all stopped
// at the header. What parses must satisfy the rules the parser promises (else
// the target traps). Seeds: fuzz/vulkan_executable_seeds.py.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "runtime/base/endian.h"
#include "runtime/hal/vulkan/executable_def.h"

namespace {

using namespace ember::hal::vulkan;

void Check(bool condition) {
  if (!condition) __builtin_trap();
}

// The promises of executable_def.h, checked on every def that parses.
void CheckDef(const VulkanExecutableDef& def) {
  Check(!def.pipelines.empty() && def.pipelines.size() <= kMaxVulkanExports);
  for (const VulkanShaderModuleDef& module : def.shader_modules) {
    Check(module.spirv.size() >= 5 && module.spirv[0] == 0x07230203);
  }
  for (const VulkanDescriptorSetLayoutDef& set : def.descriptor_set_layouts) {
    Check(set.bindings.size() <= kMaxVulkanBindingsPerSet);
    uint64_t seen = 0;
    for (const VulkanDescriptorBindingDef& binding : set.bindings) {
      Check(binding.binding < kMaxVulkanBindingsPerSet);
      Check(!(seen & (uint64_t{1} << binding.binding)));
      seen |= uint64_t{1} << binding.binding;
      Check(binding.descriptor_type == kVulkanDescriptorStorageBuffer ||
            binding.descriptor_type == kVulkanDescriptorUniformBuffer);
      Check(binding.descriptor_count >= 1);
      Check(binding.stage_flags & kVulkanStageCompute);
    }
  }
  for (const VulkanPipelineLayoutDef& layout : def.pipeline_layouts) {
    Check(layout.set_layout_ordinals.size() <= kMaxVulkanSetsPerLayout);
    size_t hal_bindings = 0;
    for (uint32_t ordinal : layout.set_layout_ordinals) {
      Check(ordinal < def.descriptor_set_layouts.size());
      for (const auto& binding : def.descriptor_set_layouts[ordinal].bindings) {
        hal_bindings += binding.descriptor_count;
      }
    }
    Check(hal_bindings == layout.hal_bindings.size());
    Check(hal_bindings <= kMaxVulkanHalBindingsPerLayout);
    for (const VulkanHalBinding& binding : layout.hal_bindings) {
      Check(binding.set < layout.set_layout_ordinals.size());
    }
    Check(layout.push_constant_bytes % 4 == 0 &&
          layout.push_constant_bytes <= kMaxVulkanPushConstantBytes);
    for (const VulkanPushConstantRangeDef& range :
         layout.push_constant_ranges) {
      Check(range.offset % 4 == 0 && range.size % 4 == 0 && range.size > 0);
      Check(uint64_t{range.offset} + range.size <= layout.push_constant_bytes);
    }
  }
  for (const VulkanPipelineDef& pipeline : def.pipelines) {
    Check(pipeline.shader_module_ordinal < def.shader_modules.size());
    Check(pipeline.pipeline_layout_ordinal < def.pipeline_layouts.size());
    Check(!pipeline.entry_point.empty() &&
          pipeline.entry_point.find('\0') == std::string::npos);
    Check((pipeline.subgroup_size & (pipeline.subgroup_size - 1)) == 0);
    const VulkanPipelineLayoutDef& layout =
        def.pipeline_layouts[pipeline.pipeline_layout_ordinal];
    Check(pipeline.constant_count == layout.push_constant_bytes / 4);
    Check(pipeline.binding_count == layout.hal_bindings.size());
  }
}

void ParseOne(std::span<const uint8_t> data) {
  auto def = ParseVulkanExecutableDef(data);
  if (!def.ok()) {
    // An error must always explain itself.
    Check(!def.status().message().empty());
    return;
  }
  CheckDef(*def);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ParseOne({data, size});
  if (size > 64) {
    std::vector<uint8_t> fixed(data, data + size);
    ember::StoreLE<uint64_t>(fixed.data() + 8, size - 64);
    ParseOne(fixed);
  }
  return 0;
}
