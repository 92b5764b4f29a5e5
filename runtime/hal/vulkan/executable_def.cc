#include "runtime/hal/vulkan/executable_def.h"

#include <algorithm>
#include <cstdarg>
#include <cstring>
#include <string_view>

#include "runtime/base/endian.h"
#include "runtime/base/flatbuffer_reader.h"

namespace ember::hal::vulkan {
namespace {

using Scope = FlatBufferReader::Scope;

// Vtable slots, in schema declaration order (docs/vulkan-executable.md#tables).
namespace slot {
enum Executable {
  kPipelines = 0,
  kDescriptorSetLayouts,
  kPipelineLayouts,
  kShaderModules,
  kSourceFiles,
};
enum Pipeline {
  kShaderModuleOrdinal = 0,
  kEntryPoint,
  kPipelineLayoutOrdinal,
  kSubgroupSize,
  kDebugInfo,
  kDispatchAbi,
  kBdaDispatchLayout,
};
enum SetLayout { kBindings = 0 };
enum Binding { kBinding = 0, kDescriptorType, kDescriptorCount, kStageFlags };
enum PipelineLayout { kSetLayoutOrdinals = 0, kPushConstantRanges };
enum ShaderModule { kSpirvCode = 0 };
enum ExportDebug { kName = 0, kLocation, kStageLocations };
enum FileLineLoc { kFilename = 0, kLine };
enum StageLocation { kStage = 0, kStageLocation };
enum SourceFile { kPath = 0, kContent };
}  // namespace slot

// The 64-byte header before the FlatBuffer (docs/vulkan-executable.md#header).
constexpr size_t kHeaderSize = 64;
constexpr char kMagic[4] = {'V', 'K', 'E', '1'};
constexpr uint64_t kMaxFlatBufferSize = 0x7FFFFFFF;
constexpr uint32_t kSpirvMagic = 0x07230203;
constexpr size_t kSpirvHeaderWords = 5;
constexpr uint32_t kSpirvOpEntryPoint = 15;
constexpr uint32_t kSpirvGLCompute = 5;
constexpr size_t kPushConstantRangeSize = 12;  // VkPushConstantRange
constexpr uint8_t kDispatchAbiDescriptor = 0;
constexpr uint8_t kDispatchAbiBdaV1 = 1;

// An INVALID_ARGUMENT error for a rule of the format (the reader's own
// errors are about the FlatBuffer's structure), naming the schema path.
__attribute__((format(printf, 3, 4))) Status Invalid(
    const FlatBufferReader& reader, uint64_t offset, const char* format, ...) {
  va_list args;
  va_start(args, format);
  std::string detail = StringPrintfV(format, args);
  va_end(args);
  return InvalidArgumentError(
      StringPrintf("Vulkan executable: %s (FlatBuffer offset 0x%llx): %s",
                   reader.Path().c_str(),
                   static_cast<unsigned long long>(offset), detail.c_str()));
}

// An UNIMPLEMENTED error naming the feature and where the file asks for it.
Status Unimplemented(const FlatBufferReader& reader, const char* feature) {
  return UnimplementedError(
      StringPrintf("Vulkan executable: %s (at %s) is not implemented", feature,
                   reader.Path().c_str()));
}

// The part of the input after the file header: the FlatBuffer.
Result<std::span<const uint8_t>> StripHeader(std::span<const uint8_t> data) {
  if (data.size() < kHeaderSize) {
    return InvalidArgumentError(StringPrintf(
        "Vulkan executable of %zu bytes is smaller than its 64-byte header",
        data.size()));
  }
  if (std::memcmp(data.data(), kMagic, 4) != 0) {
    return InvalidArgumentError(
        "Vulkan executable does not start with the magic \"VKE1\"");
  }
  const uint32_t version = LoadLE<uint32_t>(data.data() + 4);
  if (version != 0) {
    return IncompatibleError(StringPrintf(
        "Vulkan executable header version %u is not 0 (the only one known)",
        version));
  }
  const uint64_t content_size = LoadLE<uint64_t>(data.data() + 8);
  if (content_size == 0 || content_size > data.size() - kHeaderSize) {
    return InvalidArgumentError(StringPrintf(
        "Vulkan executable header declares %llu content bytes but %zu follow "
        "it",
        static_cast<unsigned long long>(content_size),
        data.size() - kHeaderSize));
  }
  if (content_size > kMaxFlatBufferSize) {
    // FlatBuffer offsets are 32-bit (and the reader relies on it).
    return InvalidArgumentError(StringPrintf(
        "Vulkan executable of %llu content bytes exceeds the FlatBuffer "
        "limit of 2 GiB",
        static_cast<unsigned long long>(content_size)));
  }
  return data.subspan(kHeaderSize, static_cast<size_t>(content_size));
}

// A vector of tables at `field` of `parent`, calling parse_one(table, index)
// for each; at most `limit` entries.
template <typename ParseOne>
Status ForEachTable(FlatBufferReader& reader, const FlatTable& parent,
                    int field, const char* name, uint32_t limit,
                    ParseOne&& parse_one) {
  Scope scope(reader, name);
  EMBER_ASSIGN_OR_RETURN(FlatVector vector, reader.Vector(parent, field, 4));
  if (vector.count > limit) {
    return Invalid(reader, vector.data, "%u entries exceed the limit of %u",
                   vector.count, limit);
  }
  for (uint32_t i = 0; i < vector.count; ++i) {
    Scope item_scope(reader, "", i);
    EMBER_ASSIGN_OR_RETURN(FlatTable table, reader.TableAt(vector, i));
    EMBER_RETURN_IF_ERROR(parse_one(table, i));
  }
  return Status();
}

// The structural walk of a module's SPIR-V (docs/vulkan-executable.md#spir-v):
// every instruction's word count in bounds, and the names of the GLCompute
// entry points, which the exports must name -- a driver handed a pipeline
// whose entry point is missing is in undefined behaviour.
Status WalkSpirv(const FlatBufferReader& reader, uint32_t at,
                 VulkanShaderModuleDef& module) {
  const std::vector<uint32_t>& words = module.spirv;
  const uint32_t version = words[1];
  if ((version >> 16) != 1 || (version & 0xFF0000FFu) != 0) {
    return Invalid(reader, at, "SPIR-V version word 0x%08x is not 1.x",
                   version);
  }
  size_t i = kSpirvHeaderWords;
  while (i < words.size()) {
    const uint32_t count = words[i] >> 16;
    const uint32_t opcode = words[i] & 0xFFFF;
    if (count == 0 || count > words.size() - i) {
      return Invalid(reader, at,
                     "SPIR-V instruction at word %zu has word count %u (%zu "
                     "words left)",
                     i, count, words.size() - i);
    }
    if (opcode == kSpirvOpEntryPoint && count >= 4 &&
        words[i + 1] == kSpirvGLCompute) {
      // The name: a NUL-terminated literal from word i + 3.
      std::string name;
      const size_t limit = size_t{count - 3} * 4;
      size_t k = 0;
      for (; k < limit; ++k) {
        // Little-endian byte order within words, as SPIR-V packs strings.
        const uint8_t byte =
            static_cast<uint8_t>(words[i + 3 + k / 4] >> (8 * (k % 4)));
        if (byte == 0) break;
        name.push_back(static_cast<char>(byte));
      }
      if (k == limit) {
        return Invalid(reader, at,
                       "SPIR-V OpEntryPoint at word %zu has an unterminated "
                       "name",
                       i);
      }
      module.entry_points.push_back(std::move(name));
    }
    i += count;
  }
  std::sort(module.entry_points.begin(), module.entry_points.end());
  return Status();
}

Result<VulkanShaderModuleDef> ParseShaderModule(FlatBufferReader& reader,
                                                const FlatTable& table) {
  Scope scope(reader, "spirv_code");
  EMBER_ASSIGN_OR_RETURN(FlatVector code,
                         reader.ScalarVector(table, slot::kSpirvCode, 4));
  if (code.count < kSpirvHeaderWords) {
    return Invalid(reader, table.offset,
                   "SPIR-V of %u words is shorter than its 5-word header",
                   code.count);
  }
  if (reader.ScalarAt<uint32_t>(code, 0) != kSpirvMagic) {
    return Invalid(reader, code.data, "SPIR-V magic word is 0x%08x, not 0x%08x",
                   reader.ScalarAt<uint32_t>(code, 0), kSpirvMagic);
  }
  VulkanShaderModuleDef module;
  module.spirv.resize(code.count);
  for (uint32_t i = 0; i < code.count; ++i) {
    module.spirv[i] = reader.ScalarAt<uint32_t>(code, i);
  }
  EMBER_RETURN_IF_ERROR(WalkSpirv(reader, code.data, module));
  return module;
}

Result<VulkanDescriptorBindingDef> ParseBinding(FlatBufferReader& reader,
                                                const FlatTable& table) {
  VulkanDescriptorBindingDef def;
  EMBER_ASSIGN_OR_RETURN(def.binding,
                         reader.Scalar<uint32_t>(table, slot::kBinding, 0));
  EMBER_ASSIGN_OR_RETURN(
      def.descriptor_type,
      reader.Scalar<uint32_t>(table, slot::kDescriptorType, 0));
  EMBER_ASSIGN_OR_RETURN(
      def.descriptor_count,
      reader.Scalar<uint32_t>(table, slot::kDescriptorCount, 0));
  EMBER_ASSIGN_OR_RETURN(def.stage_flags,
                         reader.Scalar<uint32_t>(table, slot::kStageFlags, 0));
  if (def.binding >= kMaxVulkanBindingsPerSet) {
    Scope field(reader, "binding");
    return Invalid(reader, table.offset,
                   "binding number %u is not below the limit of %u",
                   def.binding, kMaxVulkanBindingsPerSet);
  }
  switch (def.descriptor_type) {
    case kVulkanDescriptorStorageBuffer:
    case kVulkanDescriptorUniformBuffer: break;
    case kVulkanDescriptorSampler: {
      Scope field(reader, "descriptor_type");
      return Unimplemented(reader, "sampler descriptors");
    }
    default: {
      Scope field(reader, "descriptor_type");
      return Unimplemented(
          reader,
          StringPrintf("descriptor type %u (only storage and uniform buffers)",
                       def.descriptor_type)
              .c_str());
    }
  }
  if (def.descriptor_count == 0 ||
      def.descriptor_count > kMaxVulkanHalBindingsPerLayout) {
    Scope field(reader, "descriptor_count");
    return Invalid(reader, table.offset,
                   "descriptor count %u is not in [1, %u]",
                   def.descriptor_count, kMaxVulkanHalBindingsPerLayout);
  }
  if ((def.stage_flags & kVulkanStageCompute) == 0) {
    Scope field(reader, "stage_flags");
    return Invalid(reader, table.offset,
                   "stage flags 0x%x do not include the compute stage",
                   def.stage_flags);
  }
  return def;
}

Result<VulkanDescriptorSetLayoutDef> ParseSetLayout(FlatBufferReader& reader,
                                                    const FlatTable& table) {
  VulkanDescriptorSetLayoutDef layout;
  uint64_t seen = 0;  // binding numbers, all below 64
  static_assert(kMaxVulkanBindingsPerSet <= 64);
  EMBER_RETURN_IF_ERROR(ForEachTable(
      reader, table, slot::kBindings, "bindings", kMaxVulkanBindingsPerSet,
      [&](const FlatTable& binding_table, uint32_t) -> Status {
        EMBER_ASSIGN_OR_RETURN(VulkanDescriptorBindingDef binding,
                               ParseBinding(reader, binding_table));
        const uint64_t bit = uint64_t{1} << binding.binding;
        if (seen & bit) {
          return Invalid(reader, binding_table.offset,
                         "binding number %u appears twice in the set",
                         binding.binding);
        }
        seen |= bit;
        layout.bindings.push_back(binding);
        return Status();
      }));
  return layout;
}

// Parses a pipeline layout and derives its HAL binding table, spending
// `hal_binding_budget` (docs/vulkan-executable.md#binding-mapping).
Result<VulkanPipelineLayoutDef> ParsePipelineLayout(
    FlatBufferReader& reader, const FlatTable& table,
    const std::vector<VulkanDescriptorSetLayoutDef>& set_layouts,
    uint64_t& hal_binding_budget) {
  VulkanPipelineLayoutDef layout;
  {
    Scope scope(reader, "descriptor_set_layout_ordinals");
    EMBER_ASSIGN_OR_RETURN(
        FlatVector ordinals,
        reader.ScalarVector(table, slot::kSetLayoutOrdinals, 4));
    if (ordinals.count > kMaxVulkanSetsPerLayout) {
      return Invalid(reader, ordinals.data,
                     "%u descriptor sets exceed the limit of %u",
                     ordinals.count, kMaxVulkanSetsPerLayout);
    }
    for (uint32_t i = 0; i < ordinals.count; ++i) {
      const uint32_t ordinal = reader.ScalarAt<uint32_t>(ordinals, i);
      if (ordinal >= set_layouts.size()) {
        Scope item(reader, "", i);
        return Invalid(reader, ordinals.data + 4 * i,
                       "descriptor set layout ordinal %u is out of range "
                       "(%zu layouts)",
                       ordinal, set_layouts.size());
      }
      layout.set_layout_ordinals.push_back(ordinal);
    }
  }
  {
    Scope scope(reader, "push_constant_ranges");
    EMBER_ASSIGN_OR_RETURN(FlatVector ranges,
                           reader.ScalarVector(table, slot::kPushConstantRanges,
                                               kPushConstantRangeSize));
    if (ranges.count > kMaxVulkanPushConstantRanges) {
      return Invalid(reader, ranges.data, "%u ranges exceed the limit of %u",
                     ranges.count, kMaxVulkanPushConstantRanges);
    }
    const uint8_t* base = reader.buffer().data() + ranges.data;
    for (uint32_t i = 0; i < ranges.count; ++i) {
      Scope item(reader, "", i);
      const uint8_t* at = base + size_t{i} * kPushConstantRangeSize;
      VulkanPushConstantRangeDef range;
      range.stage_flags = LoadLE<uint32_t>(at);
      range.offset = LoadLE<uint32_t>(at + 4);
      range.size = LoadLE<uint32_t>(at + 8);
      const uint32_t at_offset = ranges.data + i * kPushConstantRangeSize;
      const uint64_t end = uint64_t{range.offset} + range.size;
      if (range.offset % 4 != 0 || range.size % 4 != 0 || range.size == 0) {
        return Invalid(reader, at_offset,
                       "range [%u, +%u) is empty or not 4-byte aligned",
                       range.offset, range.size);
      }
      if (end > kMaxVulkanPushConstantBytes) {
        return Invalid(reader, at_offset, "range [%u, +%u) ends past byte %u",
                       range.offset, range.size, kMaxVulkanPushConstantBytes);
      }
      if ((range.stage_flags & kVulkanStageCompute) == 0) {
        return Invalid(reader, at_offset,
                       "stage flags 0x%x do not include the compute stage",
                       range.stage_flags);
      }
      layout.push_constant_bytes =
          std::max(layout.push_constant_bytes, static_cast<uint32_t>(end));
      layout.push_constant_ranges.push_back(range);
    }
  }
  // HAL binding ordinals run through the sets in order, through each set's
  // bindings in file order, and through each binding's array elements.
  uint64_t total = 0;
  for (uint32_t ordinal : layout.set_layout_ordinals) {
    for (const VulkanDescriptorBindingDef& binding :
         set_layouts[ordinal].bindings) {
      total += binding.descriptor_count;
    }
  }
  if (total > kMaxVulkanHalBindingsPerLayout) {
    return Invalid(
        reader, table.offset, "%llu HAL bindings exceed the limit of %u",
        static_cast<unsigned long long>(total), kMaxVulkanHalBindingsPerLayout);
  }
  if (total > hal_binding_budget) {
    // Layouts that share large set layouts would multiply the table.
    return Invalid(reader, table.offset,
                   "HAL bindings of all pipeline layouts exceed the "
                   "budget for a file of this size");
  }
  hal_binding_budget -= total;
  layout.hal_bindings.reserve(static_cast<size_t>(total));
  for (size_t set = 0; set < layout.set_layout_ordinals.size(); ++set) {
    for (const VulkanDescriptorBindingDef& binding :
         set_layouts[layout.set_layout_ordinals[set]].bindings) {
      for (uint32_t element = 0; element < binding.descriptor_count;
           ++element) {
        layout.hal_bindings.push_back({static_cast<uint32_t>(set),
                                       binding.binding, element,
                                       binding.descriptor_type});
      }
    }
  }
  return layout;
}

// Copies `text` into `out`, spending `budget`.
Status CopyString(const FlatBufferReader& reader, uint32_t offset,
                  std::string_view text, uint64_t& budget, std::string& out) {
  if (text.size() > budget) {
    return Invalid(reader, offset,
                   "strings copied from the file exceed the budget for a "
                   "file of this size (offsets share long strings)");
  }
  budget -= text.size();
  out.assign(text);
  return Status();
}

// The debug info of an export: name and location are kept, the stage
// locations only checked.
Status ParseExportDebug(FlatBufferReader& reader, const FlatTable& pipeline,
                        uint64_t& string_budget, VulkanPipelineDef& def) {
  Scope scope(reader, "debug_info");
  EMBER_ASSIGN_OR_RETURN(FlatTable debug,
                         reader.Table(pipeline, slot::kDebugInfo));
  if (!debug.present) return Status();
  {
    Scope field(reader, "name");
    EMBER_ASSIGN_OR_RETURN(std::string_view name,
                           reader.String(debug, slot::kName));
    EMBER_RETURN_IF_ERROR(
        CopyString(reader, debug.offset, name, string_budget, def.name));
  }
  {
    Scope field(reader, "location");
    EMBER_ASSIGN_OR_RETURN(FlatTable location,
                           reader.Table(debug, slot::kLocation));
    EMBER_ASSIGN_OR_RETURN(std::string_view file,
                           reader.String(location, slot::kFilename));
    EMBER_RETURN_IF_ERROR(CopyString(reader, location.offset, file,
                                     string_budget, def.source_file));
    EMBER_ASSIGN_OR_RETURN(def.source_line,
                           reader.Scalar<int32_t>(location, slot::kLine, 0));
  }
  return ForEachTable(
      reader, debug, slot::kStageLocations, "stage_locations", UINT32_MAX,
      [&](const FlatTable& stage, uint32_t) {
        EMBER_RETURN_IF_ERROR(reader.String(stage, slot::kStage).status());
        EMBER_ASSIGN_OR_RETURN(FlatTable location,
                               reader.Table(stage, slot::kStageLocation));
        return reader.String(location, slot::kFilename).status();
      });
}

Result<VulkanPipelineDef> ParsePipeline(FlatBufferReader& reader,
                                        const FlatTable& table,
                                        const VulkanExecutableDef& exe,
                                        uint64_t& string_budget) {
  VulkanPipelineDef def;
  {
    Scope field(reader, "dispatch_abi");
    EMBER_ASSIGN_OR_RETURN(uint8_t abi,
                           reader.Scalar<uint8_t>(table, slot::kDispatchAbi,
                                                  kDispatchAbiDescriptor));
    if (abi == kDispatchAbiBdaV1) {
      return Unimplemented(reader,
                           "the BDA_V1 dispatch ABI (buffer device "
                           "addresses, format vulkan-spirv-bda-v1)");
    }
    if (abi != kDispatchAbiDescriptor) {
      return Invalid(reader, table.offset, "unknown dispatch ABI %u", abi);
    }
  }
  {
    Scope field(reader, "bda_dispatch_layout");
    EMBER_ASSIGN_OR_RETURN(bool has_bda,
                           reader.HasOffset(table, slot::kBdaDispatchLayout));
    if (has_bda) {
      return Invalid(reader, table.offset,
                     "the descriptor dispatch ABI has no BDA layout");
    }
  }
  {
    Scope field(reader, "shader_module_ordinal");
    EMBER_ASSIGN_OR_RETURN(
        def.shader_module_ordinal,
        reader.Scalar<uint32_t>(table, slot::kShaderModuleOrdinal, 0));
    if (def.shader_module_ordinal >= exe.shader_modules.size()) {
      return Invalid(reader, table.offset,
                     "shader module ordinal %u is out of range (%zu "
                     "modules)",
                     def.shader_module_ordinal, exe.shader_modules.size());
    }
  }
  {
    Scope field(reader, "entry_point");
    EMBER_ASSIGN_OR_RETURN(std::string_view entry,
                           reader.String(table, slot::kEntryPoint));
    if (entry.empty()) {
      return Invalid(reader, table.offset, "entry point name is empty");
    }
    if (entry.find('\0') != std::string_view::npos) {
      // Vulkan takes the name as a C string: it would end at the NUL.
      return Invalid(reader, table.offset, "entry point name contains a NUL");
    }
    EMBER_RETURN_IF_ERROR(CopyString(reader, table.offset, entry, string_budget,
                                     def.entry_point));
    const std::vector<std::string>& names =
        exe.shader_modules[def.shader_module_ordinal].entry_points;
    if (!std::binary_search(names.begin(), names.end(), def.entry_point)) {
      return Invalid(reader, table.offset,
                     "shader module %u has no GLCompute entry point \"%s\"",
                     def.shader_module_ordinal, def.entry_point.c_str());
    }
  }
  {
    Scope field(reader, "pipeline_layout_ordinal");
    EMBER_ASSIGN_OR_RETURN(
        def.pipeline_layout_ordinal,
        reader.Scalar<uint32_t>(table, slot::kPipelineLayoutOrdinal, 0));
    if (def.pipeline_layout_ordinal >= exe.pipeline_layouts.size()) {
      return Invalid(reader, table.offset,
                     "pipeline layout ordinal %u is out of range (%zu "
                     "layouts)",
                     def.pipeline_layout_ordinal, exe.pipeline_layouts.size());
    }
  }
  {
    Scope field(reader, "subgroup_size");
    EMBER_ASSIGN_OR_RETURN(
        def.subgroup_size,
        reader.Scalar<uint32_t>(table, slot::kSubgroupSize, 0));
    const uint32_t size = def.subgroup_size;
    if (size != 0 &&
        ((size & (size - 1)) != 0 || size > kMaxVulkanSubgroupSize)) {
      return Invalid(reader, table.offset,
                     "subgroup size %u is not a power of two up to %u", size,
                     kMaxVulkanSubgroupSize);
    }
  }
  EMBER_RETURN_IF_ERROR(ParseExportDebug(reader, table, string_budget, def));
  const VulkanPipelineLayoutDef& layout =
      exe.pipeline_layouts[def.pipeline_layout_ordinal];
  def.constant_count = layout.push_constant_bytes / 4;
  def.binding_count = static_cast<uint32_t>(layout.hal_bindings.size());
  return def;
}

// Embedded sources are only checked (nothing uses them).
Status CheckSourceFiles(FlatBufferReader& reader, const FlatTable& root) {
  return ForEachTable(
      reader, root, slot::kSourceFiles, "source_files", UINT32_MAX,
      [&](const FlatTable& file, uint32_t) -> Status {
        {
          Scope field(reader, "path");
          EMBER_RETURN_IF_ERROR(reader.String(file, slot::kPath).status());
        }
        Scope field(reader, "content");
        return reader.Vector(file, slot::kContent, 1).status();
      });
}

Result<VulkanExecutableDef> Parse(std::span<const uint8_t> flatbuffer) {
  FlatBufferReader reader(flatbuffer);
  EMBER_ASSIGN_OR_RETURN(FlatTable root, reader.Root("VKE1"));
  VulkanExecutableDef exe;
  EMBER_RETURN_IF_ERROR(ForEachTable(
      reader, root, slot::kShaderModules, "shader_modules",
      kMaxVulkanTableCount, [&](const FlatTable& table, uint32_t) -> Status {
        EMBER_ASSIGN_OR_RETURN(VulkanShaderModuleDef module,
                               ParseShaderModule(reader, table));
        exe.shader_modules.push_back(std::move(module));
        return Status();
      }));
  EMBER_RETURN_IF_ERROR(ForEachTable(
      reader, root, slot::kDescriptorSetLayouts, "descriptor_set_layouts",
      kMaxVulkanTableCount, [&](const FlatTable& table, uint32_t) -> Status {
        EMBER_ASSIGN_OR_RETURN(VulkanDescriptorSetLayoutDef layout,
                               ParseSetLayout(reader, table));
        exe.descriptor_set_layouts.push_back(std::move(layout));
        return Status();
      }));
  // One HAL binding per 4 bytes of input, plus enough for any small file:
  // a compiled file spends far more than 4 bytes on each.
  uint64_t hal_binding_budget = flatbuffer.size() / 4 + 4096;
  EMBER_RETURN_IF_ERROR(ForEachTable(
      reader, root, slot::kPipelineLayouts, "pipeline_layouts",
      kMaxVulkanTableCount, [&](const FlatTable& table, uint32_t) -> Status {
        EMBER_ASSIGN_OR_RETURN(
            VulkanPipelineLayoutDef layout,
            ParsePipelineLayout(reader, table, exe.descriptor_set_layouts,
                                hal_binding_budget));
        exe.pipeline_layouts.push_back(std::move(layout));
        return Status();
      }));
  // The reader charges a string once per visit whatever its length, and
  // offsets may share one long string: the bytes copied out of strings are
  // charged here (twice the input, plus room for small files; a compiled
  // file stores each string it copies at least once).
  uint64_t string_budget = uint64_t{flatbuffer.size()} * 2 + 65536;
  EMBER_RETURN_IF_ERROR(ForEachTable(
      reader, root, slot::kPipelines, "pipelines", kMaxVulkanExports,
      [&](const FlatTable& table, uint32_t) -> Status {
        EMBER_ASSIGN_OR_RETURN(
            VulkanPipelineDef pipeline,
            ParsePipeline(reader, table, exe, string_budget));
        exe.pipelines.push_back(std::move(pipeline));
        return Status();
      }));
  if (exe.pipelines.empty()) {
    Scope scope(reader, "pipelines");
    return Invalid(reader, root.offset, "the executable exports no pipelines");
  }
  EMBER_RETURN_IF_ERROR(CheckSourceFiles(reader, root));
  return exe;
}

}  // namespace

Result<VulkanExecutableDef> ParseVulkanExecutableDef(
    std::span<const uint8_t> data) {
  EMBER_ASSIGN_OR_RETURN(std::span<const uint8_t> flatbuffer,
                         StripHeader(data));
  Result<VulkanExecutableDef> def = Parse(flatbuffer);
  if (!def.ok()) {
    return std::move(def).status().Annotate(
        "while reading a Vulkan executable (vulkan-spirv-fb)");
  }
  return def;
}

}  // namespace ember::hal::vulkan
