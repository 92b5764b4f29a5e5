// ParseVulkanExecutableDef: IREE's Vulkan executable (format string
// `vulkan-spirv-fb`, FlatBuffer file identifier "VKE1") as plain C++ values.
//
// The bytes a program hands to `hal.executable.create` come from the module
// file and are hostile like the rest of it, and what is built from them is
// handed to a Vulkan driver, which trusts its inputs far more than we do. So
// the parser walks the whole FlatBuffer once through the bounds-checked
// FlatBufferReader (runtime/base/flatbuffer_reader.h), copies everything it
// keeps (the SPIR-V words too: rodata need not be 4-byte aligned, and the
// copy no longer depends on the module's bytes) and checks every rule the
// Vulkan objects made from it rely on before it returns:
//   - the 64-byte file header IREE puts in front of the FlatBuffer (magic
//     "VKE1", version 0, a content size inside the data), the FlatBuffer's
//     identifier "VKE1";
//   - every ordinal (shader module, pipeline layout, set layout) in range;
//   - SPIR-V: the magic word 0x07230203, a 1.x version, at least the 5-word
//     header, instructions whose word counts stay inside the module, and a
//     GLCompute OpEntryPoint for every export's entry point name (the
//     SPIR-V is otherwise not validated: docs/vulkan-executable.md#spir-v);
//   - descriptor types STORAGE_BUFFER or UNIFORM_BUFFER only, binding numbers
//     below 64 and unique in their set, descriptor counts >= 1;
//   - push-constant ranges 4-byte aligned and inside the first 4096 bytes;
//   - counts bounded (exports, sets per layout, bindings per set, HAL
//     bindings), so that the work and memory are linear in the input size.
// docs/vulkan-executable.md describes the format, which fields
// iree-compile 3.13 emits, every limit, and how a HAL binding ordinal maps
// to a (set, binding, array element). Errors are INVALID_ARGUMENT naming the
// schema path ("pipelines[2].entry_point"); the parts of the format Ember
// does not run (the BDA dispatch ABI, sampler and image descriptors) are
// UNIMPLEMENTED naming the feature; a file header of another version is
// INCOMPATIBLE.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "runtime/base/status.h"

namespace ember::hal::vulkan {

// The executable format string that names this container with the
// descriptor-set dispatch ABI. (`vulkan-spirv-bda-v1` uses the same
// container with the BDA ABI, which Ember does not implement.)
inline constexpr char kVulkanSpirvFormat[] = "vulkan-spirv-fb";

// Limits (docs/vulkan-executable.md#limits).
inline constexpr uint32_t kMaxVulkanExports = 65536;
inline constexpr uint32_t kMaxVulkanTableCount = 65536;  // modules, layouts
inline constexpr uint32_t kMaxVulkanSetsPerLayout = 32;
inline constexpr uint32_t kMaxVulkanBindingsPerSet = 64;
inline constexpr uint32_t kMaxVulkanPushConstantBytes = 4096;
inline constexpr uint32_t kMaxVulkanPushConstantRanges = 32;
inline constexpr uint32_t kMaxVulkanHalBindingsPerLayout = 65535;
inline constexpr uint32_t kMaxVulkanSubgroupSize = 1024;

// VkDescriptorType values the format may carry (the schema's enum overlays
// Vulkan's).
inline constexpr uint32_t kVulkanDescriptorSampler = 0;
inline constexpr uint32_t kVulkanDescriptorUniformBuffer = 6;
inline constexpr uint32_t kVulkanDescriptorStorageBuffer = 7;
// VK_SHADER_STAGE_COMPUTE_BIT.
inline constexpr uint32_t kVulkanStageCompute = 0x20;

struct VulkanShaderModuleDef {
  std::vector<uint32_t> spirv;  // host-endian words, copied
  // Names of the module's GLCompute entry points, sorted.
  std::vector<std::string> entry_points;
};

struct VulkanDescriptorBindingDef {
  uint32_t binding = 0;          // Vulkan binding number, < 64
  uint32_t descriptor_type = 0;  // kVulkanDescriptor{Storage,Uniform}Buffer
  uint32_t descriptor_count = 1;
  uint32_t stage_flags = 0;  // includes kVulkanStageCompute
};

struct VulkanDescriptorSetLayoutDef {
  std::vector<VulkanDescriptorBindingDef> bindings;  // in file order
};

struct VulkanPushConstantRangeDef {
  uint32_t stage_flags = 0;
  uint32_t offset = 0;
  uint32_t size = 0;
};

// Where one HAL binding goes (docs/vulkan-executable.md#binding-mapping).
struct VulkanHalBinding {
  uint32_t set = 0;  // descriptor set number: index into set_layout_ordinals
  uint32_t binding = 0;
  uint32_t array_element = 0;
  uint32_t descriptor_type = 0;
};

struct VulkanPipelineLayoutDef {
  // Descriptor set s of the layout is descriptor_set_layouts[ordinals[s]].
  std::vector<uint32_t> set_layout_ordinals;
  std::vector<VulkanPushConstantRangeDef> push_constant_ranges;
  // Derived: the end of the furthest push-constant range (a multiple of 4,
  // <= 4096) -- HAL constant i is the 4 bytes at offset 4 * i.
  uint32_t push_constant_bytes = 0;
  // Derived: HAL binding ordinal -> (set, binding, array element).
  std::vector<VulkanHalBinding> hal_bindings;
};

struct VulkanPipelineDef {
  uint32_t shader_module_ordinal = 0;
  std::string entry_point;  // non-empty, no NUL
  uint32_t pipeline_layout_ordinal = 0;
  uint32_t subgroup_size = 0;  // 0: none required; else a power of two
  // From debug_info (empty / 0 when absent).
  std::string name;
  std::string source_file;
  int32_t source_line = 0;
  // Derived from the pipeline layout, for hal::Executable::ExportInfo.
  uint32_t constant_count = 0;  // push_constant_bytes / 4
  uint32_t binding_count = 0;   // hal_bindings.size()
};

struct VulkanExecutableDef {
  std::vector<VulkanPipelineDef> pipelines;  // one per export, >= 1
  std::vector<VulkanDescriptorSetLayoutDef> descriptor_set_layouts;
  std::vector<VulkanPipelineLayoutDef> pipeline_layouts;
  std::vector<VulkanShaderModuleDef> shader_modules;
};

// Parses and verifies `data`: the executable data of `hal.executable.create`
// (the 64-byte header and the FlatBuffer). The result owns all its memory.
Result<VulkanExecutableDef> ParseVulkanExecutableDef(
    std::span<const uint8_t> data);

}  // namespace ember::hal::vulkan
