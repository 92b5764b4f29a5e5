// Test helper: hand-built Vulkan executables (docs/vulkan-executable.md), so
// that the parser's tests, the VulkanExecutable tests and the fuzz seeds
// need no compiler output. A spec lists the tables; BuildVulkanExecutable
// writes the 64-byte header and a "VKE1" FlatBuffer (with FlatWriter, so
// every table field is 4 bytes wide, which the reader accepts for the u8
// dispatch_abi too: it reads the field's first byte).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/base/endian.h"
#include "runtime/hal/vulkan/executable_def.h"
#include "runtime/testing/flat_writer.h"

namespace ember::testing {

struct VulkanBindingSpec {
  uint32_t binding = 0;
  uint32_t descriptor_type = 7;  // STORAGE_BUFFER
  uint32_t descriptor_count = 1;
  uint32_t stage_flags = 0x20;  // COMPUTE
};

struct VulkanPushConstantRangeSpec {
  uint32_t stage_flags = 0x20;
  uint32_t offset = 0;
  uint32_t size = 0;
};

struct VulkanPipelineLayoutSpec {
  std::vector<uint32_t> set_layout_ordinals;
  std::vector<VulkanPushConstantRangeSpec> push_constant_ranges;
};

struct VulkanPipelineSpec {
  uint32_t shader_module = 0;
  std::string entry_point = "main";
  uint32_t pipeline_layout = 0;
  uint32_t subgroup_size = 0;
  uint32_t dispatch_abi = 0;  // 0 DESCRIPTOR, 1 BDA_V1
  bool bda_layout = false;    // write an (empty) bda_dispatch_layout table
  // debug_info is written when any of these is set.
  std::string debug_name;
  std::string source_file;
  int32_t source_line = 0;
};

struct VulkanExecutableSpec {
  std::vector<VulkanPipelineSpec> pipelines;
  std::vector<std::vector<VulkanBindingSpec>> set_layouts;
  std::vector<VulkanPipelineLayoutSpec> pipeline_layouts;
  std::vector<std::vector<uint32_t>> shader_modules;
  // Nonzero: that many shader module tables, all pointing at the SPIR-V
  // vector of shader_modules[0] (a hostile sharing pattern).
  uint32_t share_spirv_count = 0;
  // Nonzero: that many pipelines, all copies of pipelines[0] whose
  // entry_point offsets point at one string (another hostile sharing).
  uint32_t share_entry_point_count = 0;
  // Source files to embed (path, content).
  std::vector<std::pair<std::string, std::string>> source_files;
};

// The smallest valid SPIR-V compute shader: one entry point `name` with
// local size 1x1x1 that returns at once (SPIR-V 1.0; spirv-val accepts it).
inline std::vector<uint32_t> MinimalComputeSpirv(std::string_view name) {
  enum : uint32_t { kVoid = 1, kFunctionType, kMain, kLabel, kBound };
  auto op = [](uint32_t opcode, uint32_t words) {
    return (words << 16) | opcode;
  };
  std::vector<uint32_t> name_words((name.size() + 4) / 4, 0);
  for (size_t i = 0; i < name.size(); ++i) {
    name_words[i / 4] |= uint32_t{static_cast<uint8_t>(name[i])}
                         << (8 * (i % 4));
  }
  std::vector<uint32_t> words = {0x07230203, 0x00010000, 0, kBound, 0};
  words.insert(words.end(), {op(17, 2), 1});  // OpCapability Shader
  words.insert(words.end(),
               {op(14, 3), 0, 1});  // OpMemoryModel Logical GLSL450
  // OpEntryPoint GLCompute %main "name"
  words.insert(
      words.end(),
      {op(15, static_cast<uint32_t>(3 + name_words.size())), 5, kMain});
  words.insert(words.end(), name_words.begin(), name_words.end());
  // OpExecutionMode %main LocalSize 1 1 1
  words.insert(words.end(), {op(16, 6), kMain, 17, 1, 1, 1});
  words.insert(words.end(), {op(19, 2), kVoid});  // OpTypeVoid
  words.insert(words.end(),
               {op(33, 3), kFunctionType, kVoid});  // OpTypeFunction
  // %main = OpFunction %void None %fn; OpLabel; OpReturn; OpFunctionEnd
  words.insert(words.end(), {op(54, 5), kVoid, kMain, 0, kFunctionType});
  words.insert(words.end(), {op(248, 2), kLabel, op(253, 1), op(56, 1)});
  return words;
}

inline std::vector<uint8_t> BuildVulkanExecutable(
    const VulkanExecutableSpec& spec) {
  FlatWriter w;
  w.Put32(4, LoadLE<uint32_t>(reinterpret_cast<const uint8_t*>("VKE1")));
  auto field = [](size_t table, int slot) {
    return FlatWriter::Field(table, slot);
  };
  // ExecutableDef: pipelines, descriptor_set_layouts, pipeline_layouts,
  // shader_modules, source_files.
  const size_t root = w.TableWithAllSlots(5, {0, 1, 2, 3, 4});
  w.Link(0, root);

  const bool share_entry = spec.share_entry_point_count != 0;
  const size_t pipeline_count =
      share_entry ? spec.share_entry_point_count : spec.pipelines.size();
  const size_t pipelines = w.OffsetVector(pipeline_count);
  w.Link(field(root, 0), pipelines);
  std::vector<size_t> entry_fields;
  for (size_t i = 0; i < pipeline_count; ++i) {
    const VulkanPipelineSpec& p = spec.pipelines[share_entry ? 0 : i];
    const bool debug = !p.debug_name.empty() || !p.source_file.empty();
    const size_t table = p.bda_layout
                             ? w.TableWithAllSlots(7, {0, 1, 2, 3, 4, 5, 6})
                         : debug ? w.TableWithAllSlots(7, {0, 1, 2, 3, 4, 5})
                                 : w.TableWithAllSlots(7, {0, 1, 2, 3, 5});
    w.Link(pipelines + 4 + 4 * i, table);
    w.Put32(field(table, 0), p.shader_module);
    w.Put32(field(table, 2), p.pipeline_layout);
    w.Put32(field(table, 3), p.subgroup_size);
    w.Put32(field(table, 5), p.dispatch_abi);
    if (share_entry) {
      entry_fields.push_back(field(table, 1));
    } else {
      w.Link(field(table, 1), w.String(p.entry_point));
    }
    if (debug || p.bda_layout) {
      // ExportDef: name, location (FileLineLocDef: filename, line).
      const size_t export_def = w.TableWithAllSlots(2, {0, 1});
      w.Link(field(table, 4), export_def);
      w.Link(field(export_def, 0), w.String(p.debug_name));
      const size_t location = w.TableWithAllSlots(2, {0, 1});
      w.Link(field(export_def, 1), location);
      w.Put32(field(location, 1), static_cast<uint32_t>(p.source_line));
      w.Link(field(location, 0), w.String(p.source_file));
    }
    if (p.bda_layout) {
      w.Link(field(table, 6), w.TableWithAllSlots(0, {}));
    }
  }

  if (share_entry) {
    const size_t entry = w.String(spec.pipelines[0].entry_point);
    for (size_t at : entry_fields) w.Link(at, entry);
  }

  const size_t sets = w.OffsetVector(spec.set_layouts.size());
  w.Link(field(root, 1), sets);
  for (size_t i = 0; i < spec.set_layouts.size(); ++i) {
    const size_t table = w.TableWithAllSlots(1, {0});
    w.Link(sets + 4 + 4 * i, table);
    const auto& bindings = spec.set_layouts[i];
    const size_t vector = w.OffsetVector(bindings.size());
    w.Link(field(table, 0), vector);
    for (size_t j = 0; j < bindings.size(); ++j) {
      const size_t binding = w.TableWithAllSlots(4, {0, 1, 2, 3});
      w.Link(vector + 4 + 4 * j, binding);
      w.Put32(field(binding, 0), bindings[j].binding);
      w.Put32(field(binding, 1), bindings[j].descriptor_type);
      w.Put32(field(binding, 2), bindings[j].descriptor_count);
      w.Put32(field(binding, 3), bindings[j].stage_flags);
    }
  }

  const size_t layouts = w.OffsetVector(spec.pipeline_layouts.size());
  w.Link(field(root, 2), layouts);
  for (size_t i = 0; i < spec.pipeline_layouts.size(); ++i) {
    const VulkanPipelineLayoutSpec& layout = spec.pipeline_layouts[i];
    const size_t table = w.TableWithAllSlots(2, {0, 1});
    w.Link(layouts + 4 + 4 * i, table);
    const size_t ordinals =
        w.Vector(static_cast<uint32_t>(layout.set_layout_ordinals.size()), 4);
    w.Link(field(table, 0), ordinals);
    for (size_t k = 0; k < layout.set_layout_ordinals.size(); ++k) {
      w.Put32(ordinals + 4 + 4 * k, layout.set_layout_ordinals[k]);
    }
    const size_t ranges =
        w.Vector(static_cast<uint32_t>(layout.push_constant_ranges.size()), 12);
    w.Link(field(table, 1), ranges);
    for (size_t k = 0; k < layout.push_constant_ranges.size(); ++k) {
      const VulkanPushConstantRangeSpec& range = layout.push_constant_ranges[k];
      w.Put32(ranges + 4 + 12 * k, range.stage_flags);
      w.Put32(ranges + 8 + 12 * k, range.offset);
      w.Put32(ranges + 12 + 12 * k, range.size);
    }
  }

  const size_t module_count = spec.share_spirv_count
                                  ? spec.share_spirv_count
                                  : spec.shader_modules.size();
  const size_t modules = w.OffsetVector(module_count);
  w.Link(field(root, 3), modules);
  std::vector<size_t> module_tables;
  for (size_t i = 0; i < module_count; ++i) {
    module_tables.push_back(w.TableWithAllSlots(1, {0}));
    w.Link(modules + 4 + 4 * i, module_tables.back());
  }
  for (size_t i = 0; i < module_count; ++i) {
    if (spec.share_spirv_count && i > 0) {
      continue;
    }
    const std::vector<uint32_t>& spirv = spec.shader_modules[i];
    const size_t code = w.Vector(static_cast<uint32_t>(spirv.size()), 4);
    for (size_t k = 0; k < spirv.size(); ++k) {
      w.Put32(code + 4 + 4 * k, spirv[k]);
    }
    if (spec.share_spirv_count) {
      for (size_t table : module_tables) w.Link(field(table, 0), code);
    } else {
      w.Link(field(module_tables[i], 0), code);
    }
  }

  const size_t files = w.OffsetVector(spec.source_files.size());
  w.Link(field(root, 4), files);
  for (size_t i = 0; i < spec.source_files.size(); ++i) {
    const size_t table = w.TableWithAllSlots(2, {0, 1});
    w.Link(files + 4 + 4 * i, table);
    w.Link(field(table, 0), w.String(spec.source_files[i].first));
    const std::string& content = spec.source_files[i].second;
    w.Link(field(table, 1),
           w.ScalarVector({reinterpret_cast<const uint8_t*>(content.data()),
                           content.size()},
                          content.size()));
  }

  // Archive() is the module layout (a u32 size prefix, then the bytes);
  // the executable has the 64-byte header instead.
  std::vector<uint8_t> archive = w.Archive();
  const uint32_t size = LoadLE<uint32_t>(archive.data());
  std::vector<uint8_t> out(64 + size, 0);
  std::copy(reinterpret_cast<const uint8_t*>("VKE1"),
            reinterpret_cast<const uint8_t*>("VKE1") + 4, out.begin());
  StoreLE<uint64_t>(out.data() + 8, size);
  std::copy(archive.begin() + 4, archive.begin() + 4 + size, out.begin() + 64);
  return out;
}

// Two exports: "main" (module 0) on layout 0 -- one set of two storage
// buffers, 12 push-constant bytes -- and "other" (module 1) on layout 1,
// which uses both set layouts in reverse order (a storage buffer at binding
// 3 and a uniform buffer array of 2; then the first set) and 32
// push-constant bytes in two ranges. Tests adjust it.
inline VulkanExecutableSpec TwoExportSpec() {
  using namespace ember::hal::vulkan;  // the descriptor constants
  VulkanExecutableSpec spec;
  spec.shader_modules = {MinimalComputeSpirv("main"),
                         MinimalComputeSpirv("other")};
  spec.set_layouts = {
      {{0, kVulkanDescriptorStorageBuffer, 1, kVulkanStageCompute},
       {1, kVulkanDescriptorStorageBuffer, 1, kVulkanStageCompute}},
      {{3, kVulkanDescriptorStorageBuffer, 1, kVulkanStageCompute},
       {0, kVulkanDescriptorUniformBuffer, 2, kVulkanStageCompute}},
  };
  spec.pipeline_layouts = {
      {{0}, {{kVulkanStageCompute, 0, 12}}},
      {{1, 0}, {{kVulkanStageCompute, 0, 8}, {kVulkanStageCompute, 16, 16}}},
  };
  VulkanPipelineSpec first;
  first.entry_point = "main";
  first.debug_name = "main";
  VulkanPipelineSpec second;
  second.shader_module = 1;
  second.entry_point = "other";
  second.pipeline_layout = 1;
  spec.pipelines = {first, second};
  return spec;
}

}  // namespace ember::testing
