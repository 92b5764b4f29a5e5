#include "runtime/vm/bytecode/module_dump.h"

#include "runtime/base/printable.h"
#include "runtime/vm/bytecode/compiler_family.h"

namespace ember::vm::bytecode {
namespace {

const char* LinkFlagsName(uint32_t flags) {
  return (flags & kLinkOptional) ? "optional" : "required";
}

std::string Cconv(std::string_view cconv) {
  return cconv.empty() ? std::string("<none>") : std::string(cconv);
}

std::string LocationText(const LocationDef& location) {
  if (const auto* call = std::get_if<CallSiteLoc>(&location)) {
    return StringPrintf("callsite(callee=%d, caller=%d)", call->callee,
                        call->caller);
  }
  if (const auto* file = std::get_if<FileLineColLoc>(&location)) {
    return StringPrintf("%s:%d:%d",
                        Escaped(file->filename, Escape::kUtf8).c_str(),
                        file->line, file->column);
  }
  if (const auto* fused = std::get_if<FusedLoc>(&location)) {
    std::string text = "fused";
    if (!fused->metadata.empty())
      text += "<" + Escaped(fused->metadata, Escape::kUtf8) + ">";
    text += "[";
    for (size_t i = 0; i < fused->locations.size(); ++i) {
      if (i) text += ", ";
      text += std::to_string(fused->locations[i]);
    }
    return text + "]";
  }
  if (const auto* name = std::get_if<NameLoc>(&location)) {
    return StringPrintf("name(\"%s\", child=%d)",
                        Escaped(name->name, Escape::kUtf8).c_str(),
                        name->child_location);
  }
  return "none";
}

}  // namespace

std::string DumpModuleText(const ModuleFile& file, const DumpOptions& options) {
  const ModuleDef& def = file.def();
  std::string out;
  auto line = [&out](const std::string& text) {
    out += text;
    out += '\n';
  };
  line(StringPrintf("Module: %s (version %u)",
                    Escaped(def.name, Escape::kUtf8).c_str(), def.version));
  line(
      StringPrintf("  container: %s, %zu bytes; FlatBuffer %zu bytes at "
                   "offset %zu; rodata base %zu",
                   file.layout().zip_wrapped ? "ZIP-wrapped" : "flat",
                   file.archive().size(), file.layout().flatbuffer_size,
                   file.layout().flatbuffer_offset, file.layout().rodata_base));
  line(StringPrintf("  bytecode version: %u.%u", file.bytecode_version_major(),
                    file.bytecode_version_minor()));
  const CompilerFamily family = InferCompilerFamily(def);
  line("  compiler: " + family.name + " (" + family.evidence + ")" +
       (family.supported
            ? ""
            : "; Ember runs modules from " + std::string(kSupportedCompilers)));
  line("  requirements: " + FeatureBitsToString(def.requirements));
  if (!def.attrs.empty()) {
    line("\nAttributes:");
    for (const AttrDef& attr : def.attrs) {
      line("  " + Escaped(attr.key, Escape::kUtf8) + " = " +
           Escaped(attr.value, Escape::kUtf8));
    }
  }
  line(StringPrintf("\nTypes (%zu):", def.types.size()));
  for (size_t i = 0; i < def.types.size(); ++i) {
    line(StringPrintf("  [%3zu] %s", i,
                      Escaped(def.types[i], Escape::kUtf8).c_str()));
  }
  line(StringPrintf("\nDependencies (%zu):", def.dependencies.size()));
  for (const ModuleDependencyDef& dep : def.dependencies) {
    line(StringPrintf("  %s >= %u, %s",
                      Escaped(dep.name, Escape::kUtf8).c_str(),
                      dep.minimum_version, LinkFlagsName(dep.flags)));
  }
  line(StringPrintf("\nImports (%zu):", def.imported_functions.size()));
  for (size_t i = 0; i < def.imported_functions.size(); ++i) {
    const ImportFunctionDef& import = def.imported_functions[i];
    line(StringPrintf("  [%3zu] %s  cconv %s  %s", i,
                      Escaped(import.full_name, Escape::kUtf8).c_str(),
                      Cconv(import.signature.calling_convention).c_str(),
                      LinkFlagsName(import.flags)));
  }
  line(StringPrintf("\nExports (%zu):", def.exported_functions.size()));
  for (size_t i = 0; i < def.exported_functions.size(); ++i) {
    const ExportFunctionDef& export_def = def.exported_functions[i];
    const FunctionSignatureDef& signature = file.ExportSignature(i);
    line(StringPrintf("  [%3zu] %s  -> function %d  cconv %s", i,
                      Escaped(export_def.local_name, Escape::kUtf8).c_str(),
                      export_def.internal_ordinal,
                      Cconv(signature.calling_convention).c_str()));
    for (const AttrDef& attr : signature.attrs) {
      line("        " + Escaped(attr.key, Escape::kUtf8) + ": " +
           Escaped(attr.value, Escape::kUtf8));
    }
  }
  line(StringPrintf("\nFunctions (%zu):", def.function_descriptors.size()));
  for (size_t i = 0; i < def.function_descriptors.size(); ++i) {
    const FunctionDescriptor& d = def.function_descriptors[i];
    std::string name(file.FunctionDebugName(i));
    line(StringPrintf(
        "  [%3zu] %-24s bytecode [%d, +%d) blocks %d regs i32 %d ref %d  "
        "cconv %s  requires %s",
        i, name.empty() ? "<unnamed>" : Escaped(name, Escape::kUtf8).c_str(),
        d.bytecode_offset, d.bytecode_length, d.block_count,
        d.i32_register_count, d.ref_register_count,
        Cconv(def.function_signatures[i].calling_convention).c_str(),
        FeatureBitsToString(d.requirements).c_str()));
  }
  line(StringPrintf("\nRodata (%zu segments):", def.rodata_segments.size()));
  for (size_t i = 0; i < def.rodata_segments.size(); ++i) {
    const RodataSegmentDef& segment = def.rodata_segments[i];
    if (segment.embedded) {
      line(StringPrintf("  [%3zu] embedded %8zu bytes", i,
                        segment.embedded_data.size()));
    } else {
      line(StringPrintf(
          "  [%3zu] external %8llu bytes at rodata offset %llu (archive "
          "offset %zu)",
          i, static_cast<unsigned long long>(segment.external_data_length),
          static_cast<unsigned long long>(segment.external_data_offset),
          static_cast<size_t>(file.rodata(i).data() - file.archive().data())));
    }
  }
  line(StringPrintf("\nModule state: %d global bytes, %d global refs",
                    def.module_state.global_bytes_capacity,
                    def.module_state.global_ref_count));
  line(StringPrintf("Bytecode: %zu bytes", def.bytecode_data.size()));
  if (def.debug_database) {
    const DebugDatabaseDef& database = *def.debug_database;
    line(StringPrintf("\nDebug database: %zu locations, %zu source maps",
                      database.location_table.size(),
                      database.functions.size()));
    for (size_t i = 0; i < database.functions.size(); ++i) {
      const FunctionSourceMapDef& map = database.functions[i];
      line(StringPrintf("  [%3zu] %s: %zu locations", i,
                        Escaped(map.local_name, Escape::kUtf8).c_str(),
                        map.locations.size()));
      if (options.verbose) {
        for (const BytecodeLocation& location : map.locations) {
          line(StringPrintf(
              "        pc %6d -> %s", location.bytecode_offset,
              Escaped(file.DescribeLocation(location.location), Escape::kUtf8)
                  .c_str()));
        }
      }
    }
    if (options.verbose) {
      line("  location table:");
      for (size_t i = 0; i < database.location_table.size(); ++i) {
        line(StringPrintf("    [%3zu] %s", i,
                          LocationText(database.location_table[i]).c_str()));
      }
    }
  } else {
    line("\nDebug database: none");
  }
  return out;
}

std::string DumpModuleJson(const ModuleFile& file) {
  const ModuleDef& def = file.def();
  std::string out;
  auto key = [&out](const char* name) {
    out += '"';
    out += name;
    out += "\":";
  };
  auto attrs = [&](const std::vector<AttrDef>& list) {
    out += '{';
    for (size_t i = 0; i < list.size(); ++i) {
      if (i) out += ',';
      AppendJsonString(out, list[i].key);
      out += ':';
      AppendJsonString(out, list[i].value);
    }
    out += '}';
  };
  out += '{';
  key("name");
  AppendJsonString(out, def.name);
  out += ',';
  key("version");
  out += std::to_string(def.version);
  out += ',';
  key("bytecode_version");
  out += StringPrintf("[%u,%u],", file.bytecode_version_major(),
                      file.bytecode_version_minor());
  {
    const CompilerFamily family = InferCompilerFamily(def);
    key("compiler");
    out += '{';
    key("name");
    AppendJsonString(out, family.name);
    out += ',';
    key("evidence");
    AppendJsonString(out, family.evidence);
    out += ',';
    key("supported");
    out += family.supported ? "true" : "false";
    out += "},";
  }
  key("requirements");
  out += std::to_string(def.requirements);
  out += ',';
  key("zip_wrapped");
  out += file.layout().zip_wrapped ? "true," : "false,";
  key("flatbuffer_size");
  out += std::to_string(file.layout().flatbuffer_size);
  out += ',';
  key("attrs");
  attrs(def.attrs);
  out += ',';
  key("types");
  out += '[';
  for (size_t i = 0; i < def.types.size(); ++i) {
    if (i) out += ',';
    AppendJsonString(out, def.types[i]);
  }
  out += "],";
  key("dependencies");
  out += '[';
  for (size_t i = 0; i < def.dependencies.size(); ++i) {
    const ModuleDependencyDef& dep = def.dependencies[i];
    if (i) out += ',';
    out += "{\"name\":";
    AppendJsonString(out, dep.name);
    out += StringPrintf(",\"minimum_version\":%u,\"flags\":%u}",
                        dep.minimum_version, dep.flags);
  }
  out += "],";
  key("imports");
  out += '[';
  for (size_t i = 0; i < def.imported_functions.size(); ++i) {
    const ImportFunctionDef& import = def.imported_functions[i];
    if (i) out += ',';
    out += "{\"full_name\":";
    AppendJsonString(out, import.full_name);
    out += ",\"cconv\":";
    AppendJsonString(out, import.signature.calling_convention);
    out += StringPrintf(",\"flags\":%u}", import.flags);
  }
  out += "],";
  key("exports");
  out += '[';
  for (size_t i = 0; i < def.exported_functions.size(); ++i) {
    const ExportFunctionDef& export_def = def.exported_functions[i];
    const FunctionSignatureDef& signature = file.ExportSignature(i);
    if (i) out += ',';
    out += "{\"name\":";
    AppendJsonString(out, export_def.local_name);
    out += StringPrintf(",\"internal_ordinal\":%d,\"cconv\":",
                        export_def.internal_ordinal);
    AppendJsonString(out, signature.calling_convention);
    out += ",\"reflection\":";
    attrs(signature.attrs);
    out += '}';
  }
  out += "],";
  key("functions");
  out += '[';
  for (size_t i = 0; i < def.function_descriptors.size(); ++i) {
    const FunctionDescriptor& d = def.function_descriptors[i];
    if (i) out += ',';
    out += "{\"name\":";
    AppendJsonString(out, file.FunctionDebugName(i));
    out += ",\"cconv\":";
    AppendJsonString(out, def.function_signatures[i].calling_convention);
    out += StringPrintf(
        ",\"bytecode_offset\":%d,\"bytecode_length\":%d,\"requirements\":%u,"
        "\"block_count\":%d,\"i32_register_count\":%d,"
        "\"ref_register_count\":%d,\"attrs\":",
        d.bytecode_offset, d.bytecode_length, d.requirements, d.block_count,
        d.i32_register_count, d.ref_register_count);
    attrs(def.function_signatures[i].attrs);
    out += '}';
  }
  out += "],";
  key("rodata");
  out += '[';
  for (size_t i = 0; i < def.rodata_segments.size(); ++i) {
    const RodataSegmentDef& segment = def.rodata_segments[i];
    if (i) out += ',';
    out += StringPrintf(
        "{\"embedded\":%s,\"size\":%zu,\"archive_offset\":%zu}",
        segment.embedded ? "true" : "false", file.rodata(i).size(),
        static_cast<size_t>(file.rodata(i).data() - file.archive().data()));
  }
  out += "],";
  key("module_state");
  out += StringPrintf("{\"global_bytes_capacity\":%d,\"global_ref_count\":%d},",
                      def.module_state.global_bytes_capacity,
                      def.module_state.global_ref_count);
  key("bytecode_size");
  out += std::to_string(def.bytecode_data.size());
  out += ',';
  key("debug_database");
  if (!def.debug_database) {
    out += "null";
  } else {
    const DebugDatabaseDef& database = *def.debug_database;
    out += "{\"location_count\":";
    out += std::to_string(database.location_table.size());
    out += ",\"functions\":[";
    for (size_t i = 0; i < database.functions.size(); ++i) {
      const FunctionSourceMapDef& map = database.functions[i];
      if (i) out += ',';
      out += "{\"name\":";
      AppendJsonString(out, map.local_name);
      out += ",\"locations\":[";
      for (size_t j = 0; j < map.locations.size(); ++j) {
        if (j) out += ',';
        out += "{\"pc\":" + std::to_string(map.locations[j].bytecode_offset) +
               ",\"location\":";
        AppendJsonString(out, file.DescribeLocation(map.locations[j].location));
        out += '}';
      }
      out += "]}";
    }
    out += "]}";
  }
  out += '}';
  return out;
}

}  // namespace ember::vm::bytecode
