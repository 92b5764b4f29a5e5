#include "runtime/vm/bytecode/module_def.h"

#include "runtime/base/endian.h"
#include "runtime/base/flatbuffer_reader.h"

namespace ember::vm::bytecode {
namespace {

using Scope = FlatBufferReader::Scope;

// Vtable slots, in schema declaration order.
namespace slot {
enum Module {
  kName = 0,
  kVersion,
  kRequirements,
  kAttrs,
  kTypes,
  kDependencies,
  kImportedFunctions,
  kExportedFunctions,
  kFunctionSignatures,
  kRodataSegments,
  kRwdataSegments,
  kModuleState,
  kFunctionDescriptors,
  kBytecodeVersion,
  kBytecodeData,
  kDebugDatabase,
};
enum Attr { kKey = 0, kValue };
enum Type { kFullName = 0 };
enum Signature { kCallingConvention = 0, kSignatureAttrs };
enum Dependency { kDependencyName = 0, kMinimumVersion, kDependencyFlags };
enum Import { kImportFullName = 0, kImportSignature, kImportFlags };
enum Export { kLocalName = 0, kInternalOrdinal };
// The compression_type union takes slots 0 (type) and 1 (value).
enum Rodata {
  kCompressionType = 0,
  kCompressionValue,
  kEmbeddedData,
  kExternalDataOffset,
  kExternalDataLength,
};
enum State { kGlobalBytesCapacity = 0, kGlobalRefCount };
// location_table is a vector of unions: slots 0 (types) and 1 (values).
enum DebugDatabase { kLocationTypes = 0, kLocationValues, kFunctions };
enum SourceMap { kSourceMapName = 0, kLocations };
enum CallSite { kCallee = 0, kCaller };
enum FileLineCol { kFilename = 0, kLine, kColumn };
enum Fused { kMetadata = 0, kFusedLocations };
enum NameLocSlot { kNameLocName = 0, kChildLocation };
}  // namespace slot

constexpr size_t kFunctionDescriptorSize = 20;

Result<std::vector<AttrDef>> ParseAttrs(FlatBufferReader& reader,
                                        const FlatTable& table, int field) {
  EMBER_ASSIGN_OR_RETURN(FlatVector vector, reader.Vector(table, field, 4));
  std::vector<AttrDef> attrs;
  attrs.reserve(vector.count);
  for (uint32_t i = 0; i < vector.count; ++i) {
    Scope scope(reader, "attrs", i);
    EMBER_ASSIGN_OR_RETURN(FlatTable attr, reader.TableAt(vector, i));
    AttrDef def;
    {
      Scope key_scope(reader, "key");
      EMBER_ASSIGN_OR_RETURN(def.key, reader.String(attr, slot::kKey));
    }
    {
      Scope value_scope(reader, "value");
      EMBER_ASSIGN_OR_RETURN(def.value, reader.String(attr, slot::kValue));
    }
    attrs.push_back(def);
  }
  return attrs;
}

Result<FunctionSignatureDef> ParseSignature(FlatBufferReader& reader,
                                            const FlatTable& table) {
  FunctionSignatureDef signature;
  if (!table.present) return signature;
  signature.present = true;
  {
    Scope scope(reader, "calling_convention");
    EMBER_ASSIGN_OR_RETURN(signature.calling_convention,
                           reader.String(table, slot::kCallingConvention));
  }
  EMBER_ASSIGN_OR_RETURN(signature.attrs,
                         ParseAttrs(reader, table, slot::kSignatureAttrs));
  return signature;
}

// Parses a vector of tables with `parse_one(reader, table, out)`.
template <typename T, typename ParseOne>
Result<std::vector<T>> ParseTableVector(FlatBufferReader& reader,
                                        const FlatTable& parent, int field,
                                        const char* name,
                                        ParseOne&& parse_one) {
  Scope scope(reader, name);
  EMBER_ASSIGN_OR_RETURN(FlatVector vector, reader.Vector(parent, field, 4));
  std::vector<T> items;
  items.reserve(vector.count);
  for (uint32_t i = 0; i < vector.count; ++i) {
    Scope item_scope(reader, "", i);
    EMBER_ASSIGN_OR_RETURN(FlatTable table, reader.TableAt(vector, i));
    T item;
    EMBER_RETURN_IF_ERROR(parse_one(table, item));
    items.push_back(std::move(item));
  }
  return items;
}

// Parses location `table` of union type `type` into `out` (in place: a
// module has a location per few instructions, and moving variants around
// cost more than reading them).
Status ParseLocation(FlatBufferReader& reader, uint8_t type,
                     const FlatTable& table, LocationDef& out) {
  switch (type) {
    case 0: return Status();
    case 1: {
      CallSiteLoc& loc = out.emplace<CallSiteLoc>();
      EMBER_ASSIGN_OR_RETURN(loc.callee,
                             reader.Scalar<int32_t>(table, slot::kCallee, 0));
      EMBER_ASSIGN_OR_RETURN(loc.caller,
                             reader.Scalar<int32_t>(table, slot::kCaller, 0));
      return Status();
    }
    case 2: {
      FileLineColLoc& loc = out.emplace<FileLineColLoc>();
      EMBER_ASSIGN_OR_RETURN(loc.filename,
                             reader.String(table, slot::kFilename));
      EMBER_ASSIGN_OR_RETURN(loc.line,
                             reader.Scalar<int32_t>(table, slot::kLine, 0));
      EMBER_ASSIGN_OR_RETURN(loc.column,
                             reader.Scalar<int32_t>(table, slot::kColumn, 0));
      return Status();
    }
    case 3: {
      FusedLoc& loc = out.emplace<FusedLoc>();
      EMBER_ASSIGN_OR_RETURN(loc.metadata,
                             reader.String(table, slot::kMetadata));
      // Many location entries may point at one fused table; ScalarVector
      // charges the copy of its children to the reader's budget each time.
      EMBER_ASSIGN_OR_RETURN(
          FlatVector children,
          reader.ScalarVector(table, slot::kFusedLocations, 4));
      loc.locations.resize(children.count);
      for (uint32_t i = 0; i < children.count; ++i) {
        loc.locations[i] = reader.ScalarAt<int32_t>(children, i);
      }
      return Status();
    }
    case 4: {
      NameLoc& loc = out.emplace<NameLoc>();
      EMBER_ASSIGN_OR_RETURN(loc.name,
                             reader.String(table, slot::kNameLocName));
      EMBER_ASSIGN_OR_RETURN(
          loc.child_location,
          reader.Scalar<int32_t>(table, slot::kChildLocation, -1));
      return Status();
    }
    default:
      return reader.Error(table.offset, "unknown location union type %u", type);
  }
}

Result<DebugDatabaseDef> ParseDebugDatabase(FlatBufferReader& reader,
                                            const FlatTable& table) {
  DebugDatabaseDef database;
  {
    Scope scope(reader, "location_table");
    EMBER_ASSIGN_OR_RETURN(FlatVector types,
                           reader.ScalarVector(table, slot::kLocationTypes, 1));
    EMBER_ASSIGN_OR_RETURN(FlatVector values,
                           reader.Vector(table, slot::kLocationValues, 4));
    if (types.count != values.count) {
      return reader.Error(table.offset,
                          "union vector has %u types but %u values",
                          types.count, values.count);
    }
    database.location_table.resize(types.count);
    for (uint32_t i = 0; i < types.count; ++i) {
      Scope item_scope(reader, "", i);
      uint8_t type = reader.ScalarAt<uint8_t>(types, i);
      FlatTable value;
      if (type != 0) {
        EMBER_ASSIGN_OR_RETURN(value, reader.TableAt(values, i));
      } else if (reader.ScalarAt<uint32_t>(values, i) != 0) {
        return reader.Error(values.data + 4 * i,
                            "union element has a value but type NONE");
      }
      EMBER_RETURN_IF_ERROR(
          ParseLocation(reader, type, value, database.location_table[i]));
    }
  }
  EMBER_ASSIGN_OR_RETURN(
      database.functions,
      ParseTableVector<FunctionSourceMapDef>(
          reader, table, slot::kFunctions, "functions",
          [&](const FlatTable& item, FunctionSourceMapDef& out) -> Status {
            EMBER_ASSIGN_OR_RETURN(out.local_name,
                                   reader.String(item, slot::kSourceMapName));
            Scope scope(reader, "locations");
            // Source maps sharing one locations vector must not multiply
            // the copy below: ScalarVector charges it per element.
            EMBER_ASSIGN_OR_RETURN(
                FlatVector locations,
                reader.ScalarVector(item, slot::kLocations, 8));
            out.locations.reserve(locations.count);
            for (uint32_t i = 0; i < locations.count; ++i) {
              BytecodeLocation location;
              location.bytecode_offset =
                  reader.ScalarAt<int32_t>(locations, 2 * i);
              location.location =
                  reader.ScalarAt<int32_t>(locations, 2 * i + 1);
              out.locations.push_back(location);
            }
            return Status();
          }));
  return database;
}

}  // namespace

Result<ModuleDef> ParseModuleDef(std::span<const uint8_t> buffer) {
  FlatBufferReader reader(buffer);
  EMBER_ASSIGN_OR_RETURN(FlatTable root, reader.Root("IREE"));
  ModuleDef def;
  {
    Scope scope(reader, "name");
    bool present = false;
    EMBER_ASSIGN_OR_RETURN(def.name,
                           reader.String(root, slot::kName, &present));
    if (!present) return reader.Error(root.offset, "required field missing");
  }
  {
    Scope scope(reader, "version");
    EMBER_ASSIGN_OR_RETURN(def.version,
                           reader.Scalar<uint32_t>(root, slot::kVersion, 0));
  }
  {
    Scope scope(reader, "requirements");
    EMBER_ASSIGN_OR_RETURN(def.requirements, reader.Scalar<uint32_t>(
                                                 root, slot::kRequirements, 0));
  }
  {
    Scope scope(reader, "module");
    EMBER_ASSIGN_OR_RETURN(def.attrs, ParseAttrs(reader, root, slot::kAttrs));
  }
  {
    Scope scope(reader, "types");
    EMBER_ASSIGN_OR_RETURN(FlatVector types,
                           reader.Vector(root, slot::kTypes, 4));
    def.types.reserve(types.count);
    for (uint32_t i = 0; i < types.count; ++i) {
      Scope item_scope(reader, "", i);
      EMBER_ASSIGN_OR_RETURN(FlatTable type, reader.TableAt(types, i));
      Scope name_scope(reader, "full_name");
      EMBER_ASSIGN_OR_RETURN(std::string_view name,
                             reader.String(type, slot::kFullName));
      def.types.push_back(name);
    }
  }
  EMBER_ASSIGN_OR_RETURN(
      def.dependencies,
      ParseTableVector<ModuleDependencyDef>(
          reader, root, slot::kDependencies, "dependencies",
          [&](const FlatTable& item, ModuleDependencyDef& out) -> Status {
            EMBER_ASSIGN_OR_RETURN(out.name,
                                   reader.String(item, slot::kDependencyName));
            EMBER_ASSIGN_OR_RETURN(
                out.minimum_version,
                reader.Scalar<uint32_t>(item, slot::kMinimumVersion, 0));
            EMBER_ASSIGN_OR_RETURN(
                out.flags, reader.Scalar<uint32_t>(item, slot::kDependencyFlags,
                                                   kLinkRequired));
            return Status();
          }));
  EMBER_ASSIGN_OR_RETURN(
      def.imported_functions,
      ParseTableVector<ImportFunctionDef>(
          reader, root, slot::kImportedFunctions, "imported_functions",
          [&](const FlatTable& item, ImportFunctionDef& out) -> Status {
            EMBER_ASSIGN_OR_RETURN(out.full_name,
                                   reader.String(item, slot::kImportFullName));
            Scope scope(reader, "signature");
            EMBER_ASSIGN_OR_RETURN(FlatTable signature,
                                   reader.Table(item, slot::kImportSignature));
            EMBER_ASSIGN_OR_RETURN(out.signature,
                                   ParseSignature(reader, signature));
            EMBER_ASSIGN_OR_RETURN(
                out.flags, reader.Scalar<uint32_t>(item, slot::kImportFlags,
                                                   kLinkRequired));
            return Status();
          }));
  EMBER_ASSIGN_OR_RETURN(
      def.exported_functions,
      ParseTableVector<ExportFunctionDef>(
          reader, root, slot::kExportedFunctions, "exported_functions",
          [&](const FlatTable& item, ExportFunctionDef& out) -> Status {
            EMBER_ASSIGN_OR_RETURN(out.local_name,
                                   reader.String(item, slot::kLocalName));
            EMBER_ASSIGN_OR_RETURN(
                out.internal_ordinal,
                reader.Scalar<int32_t>(item, slot::kInternalOrdinal, 0));
            return Status();
          }));
  EMBER_ASSIGN_OR_RETURN(
      def.function_signatures,
      ParseTableVector<FunctionSignatureDef>(
          reader, root, slot::kFunctionSignatures, "function_signatures",
          [&](const FlatTable& item, FunctionSignatureDef& out) -> Status {
            EMBER_ASSIGN_OR_RETURN(out, ParseSignature(reader, item));
            return Status();
          }));
  EMBER_ASSIGN_OR_RETURN(
      def.rodata_segments,
      ParseTableVector<RodataSegmentDef>(
          reader, root, slot::kRodataSegments, "rodata_segments",
          [&](const FlatTable& item, RodataSegmentDef& out) -> Status {
            EMBER_ASSIGN_OR_RETURN(
                out.compression_type,
                reader.Scalar<uint8_t>(item, slot::kCompressionType, 0));
            if (out.compression_type > 1) {
              return reader.Error(item.offset,
                                  "unknown compression type %u (only "
                                  "uncompressed data is defined)",
                                  out.compression_type);
            }
            // A union's type and value come together: a value without a
            // type (or with NONE) is malformed, and so is a type without one.
            EMBER_ASSIGN_OR_RETURN(
                bool has_value,
                reader.HasOffset(item, slot::kCompressionValue));
            if (has_value && out.compression_type == 0) {
              return reader.Error(item.offset,
                                  "compression_type union has a value but no "
                                  "type");
            }
            EMBER_ASSIGN_OR_RETURN(FlatTable member,
                                   reader.Table(item, slot::kCompressionValue));
            if (!member.present && out.compression_type != 0) {
              return reader.Error(item.offset,
                                  "compression_type union has a type but no "
                                  "value");
            }
            EMBER_ASSIGN_OR_RETURN(FlatVector data,
                                   reader.Vector(item, slot::kEmbeddedData, 1));
            out.embedded = data.present;
            out.embedded_data = reader.Bytes(data, 1);
            EMBER_ASSIGN_OR_RETURN(
                out.external_data_offset,
                reader.Scalar<uint64_t>(item, slot::kExternalDataOffset, 0));
            EMBER_ASSIGN_OR_RETURN(
                out.external_data_length,
                reader.Scalar<uint64_t>(item, slot::kExternalDataLength, 0));
            return Status();
          }));
  {
    // RwdataSegmentDef is declared but unused by the compiler; verify the
    // tables so nothing malformed hides there, and keep only the count.
    Scope scope(reader, "rwdata_segments");
    EMBER_ASSIGN_OR_RETURN(FlatVector rwdata,
                           reader.Vector(root, slot::kRwdataSegments, 4));
    for (uint32_t i = 0; i < rwdata.count; ++i) {
      Scope item_scope(reader, "", i);
      EMBER_ASSIGN_OR_RETURN(FlatTable segment, reader.TableAt(rwdata, i));
      EMBER_ASSIGN_OR_RETURN(int32_t byte_size,
                             reader.Scalar<int32_t>(segment, 0, 0));
      (void)byte_size;
    }
    def.rwdata_segment_count = rwdata.count;
  }
  {
    Scope scope(reader, "module_state");
    EMBER_ASSIGN_OR_RETURN(FlatTable state,
                           reader.Table(root, slot::kModuleState));
    EMBER_ASSIGN_OR_RETURN(
        def.module_state.global_bytes_capacity,
        reader.Scalar<int32_t>(state, slot::kGlobalBytesCapacity, 0));
    EMBER_ASSIGN_OR_RETURN(
        def.module_state.global_ref_count,
        reader.Scalar<int32_t>(state, slot::kGlobalRefCount, 0));
  }
  {
    Scope scope(reader, "function_descriptors");
    EMBER_ASSIGN_OR_RETURN(FlatVector descriptors,
                           reader.ScalarVector(root, slot::kFunctionDescriptors,
                                               kFunctionDescriptorSize));
    def.function_descriptors.reserve(descriptors.count);
    std::span<const uint8_t> bytes =
        reader.Bytes(descriptors, kFunctionDescriptorSize);
    for (uint32_t i = 0; i < descriptors.count; ++i) {
      const uint8_t* p = bytes.data() + size_t{i} * kFunctionDescriptorSize;
      FunctionDescriptor d;
      d.bytecode_offset = LoadLE<int32_t>(p + 0);
      d.bytecode_length = LoadLE<int32_t>(p + 4);
      d.requirements = LoadLE<uint32_t>(p + 8);
      d.reserved = LoadLE<int16_t>(p + 12);
      d.block_count = LoadLE<int16_t>(p + 14);
      d.i32_register_count = LoadLE<int16_t>(p + 16);
      d.ref_register_count = LoadLE<int16_t>(p + 18);
      def.function_descriptors.push_back(d);
    }
  }
  {
    Scope scope(reader, "bytecode_version");
    EMBER_ASSIGN_OR_RETURN(
        def.bytecode_version,
        reader.Scalar<uint32_t>(root, slot::kBytecodeVersion, 0));
  }
  {
    Scope scope(reader, "bytecode_data");
    EMBER_ASSIGN_OR_RETURN(FlatVector data,
                           reader.Vector(root, slot::kBytecodeData, 1));
    def.bytecode_data = reader.Bytes(data, 1);
  }
  {
    Scope scope(reader, "debug_database");
    EMBER_ASSIGN_OR_RETURN(FlatTable database,
                           reader.Table(root, slot::kDebugDatabase));
    if (database.present) {
      EMBER_ASSIGN_OR_RETURN(def.debug_database,
                             ParseDebugDatabase(reader, database));
    }
  }
  return def;
}

}  // namespace ember::vm::bytecode
