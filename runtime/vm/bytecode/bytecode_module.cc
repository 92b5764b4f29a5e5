#include "runtime/vm/bytecode/bytecode_module.h"

#include <algorithm>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

#include "runtime/base/string_identity.h"
#include "runtime/vm/buffer.h"
#include "runtime/vm/bytecode/bytecode_module_state_internal.h"
#include "runtime/vm/bytecode/compiler_family.h"
#include "runtime/vm/bytecode/quickened_code.h"
#include "runtime/vm/bytecode/verifier.h"
#include "runtime/vm/context.h"

namespace ember::vm::bytecode {

using bytecode::BytecodeModuleState;

namespace {

// Parses cconv strings once each. A file can point any number of imports
// and signatures at one string; keyed by where the string lies, the work
// stays proportional to the file's bytes.
class SignatureCache {
 public:
  explicit SignatureCache(
      std::vector<std::unique_ptr<const CallingConvention>>* storage)
      : storage_(storage) {}

  // Points `info` at the parsed cconv; an absent or malformed one leaves
  // info->cconv null.
  void Parse(std::string_view cconv, BytecodeModule::FunctionInfo* info) {
    const CallingConvention* entry;
    // Compilers write one string per function, and neighbours are mostly
    // equal: the same text as the last one (compared in O(its length), like
    // the map's hash) parses the same, so it shares that parse.
    if (has_last_ && cconv == last_text_) {
      entry = last_entry_;
    } else {
      const StringIdentity key(cconv);
      auto found = parsed_.find(key);
      if (found == parsed_.end()) {
        Result<CallingConvention> parsed = ParseCallingConvention(cconv);
        const CallingConvention* parsed_entry = nullptr;
        if (parsed.ok()) {
          storage_->push_back(
              std::make_unique<const CallingConvention>(std::move(*parsed)));
          parsed_entry = storage_->back().get();
        }
        found = parsed_.emplace(key, parsed_entry).first;
      }
      entry = found->second;
      has_last_ = true;
      last_text_ = cconv;
      last_entry_ = entry;
    }
    if (entry == nullptr) return;
    info->cconv = entry;
    info->arguments = entry->arguments.slots;
    info->results = entry->results.slots;
  }

 private:
  bool has_last_ = false;
  std::string_view last_text_;
  const CallingConvention* last_entry_ = nullptr;
  std::vector<std::unique_ptr<const CallingConvention>>* storage_;
  std::unordered_map<StringIdentity, const CallingConvention*,
                     StringIdentityHash>
      parsed_;
};

}  // namespace

Result<std::shared_ptr<BytecodeModule>> BytecodeModule::Create(
    std::shared_ptr<const Instance> instance,
    std::shared_ptr<const bytecode::ModuleFile> file, const Options& options) {
  if (!instance || !file) return InvalidArgumentError("null instance or file");
  std::shared_ptr<BytecodeModule> module(new BytecodeModule());
  module->instance_ = instance;
  module->file_ = file;
  const bytecode::ModuleDef& def = file->def();
  std::string name(def.name);
  // Every function's bytecode is verified once, here, before anything can
  // run it (see verifier.h for what that guarantees the interpreter).
  EMBER_RETURN_IF_ERROR(bytecode::VerifyModuleBytecode(*file));

  for (std::string_view type_name : def.types) {
    EMBER_ASSIGN_OR_RETURN(
        TypeDef type, instance->types().ResolveModuleTypeName(type_name),
        "resolving the type table of module '%s'", name.c_str());
    module->types_.push_back(type);
  }
  for (const bytecode::ModuleDependencyDef& dependency : def.dependencies) {
    module->dependencies_.push_back(
        ModuleDependency{dependency.name, dependency.minimum_version,
                         (dependency.flags & bytecode::kLinkOptional) != 0});
  }
  SignatureCache signatures(&module->cconvs_);
  for (const bytecode::ImportFunctionDef& import : def.imported_functions) {
    module->imports_.push_back(
        ImportInfo{import.full_name, import.signature.calling_convention,
                   (import.flags & bytecode::kLinkOptional) != 0});
    FunctionInfo signature;
    signatures.Parse(import.signature.calling_convention, &signature);
    module->import_signatures_.push_back(signature);
  }
  for (size_t i = 0; i < def.function_descriptors.size(); ++i) {
    const bytecode::FunctionDescriptor& descriptor =
        def.function_descriptors[i];
    FunctionInfo info;
    info.code = file->FunctionBytecode(i);
    info.i32_register_count =
        static_cast<uint16_t>(descriptor.i32_register_count);
    info.ref_register_count =
        static_cast<uint16_t>(descriptor.ref_register_count);
    if (i < def.function_signatures.size() &&
        def.function_signatures[i].present) {
      signatures.Parse(def.function_signatures[i].calling_convention, &info);
    }
    // A frame holds the arguments even where the descriptor declares fewer
    // registers (verifier.h: bounded by the ISA's register file).
    if (info.cconv != nullptr) {
      info.i32_register_count = static_cast<uint16_t>(std::max<uint64_t>(
          info.i32_register_count, info.cconv->arguments.i32_registers));
      info.ref_register_count = static_cast<uint16_t>(std::max<uint64_t>(
          info.ref_register_count, info.cconv->arguments.ref_registers));
    }
    module->functions_.push_back(info);
  }
  module->function_attrs_.resize(def.function_descriptors.size());
  std::vector<bool> attrs_built(def.function_descriptors.size(), false);
  module->rewrite_bytecode_ = options.rewrite_bytecode;
  module->prepared_ =
      std::make_unique<PreparedCode[]>(module->functions_.size());
  if (options.prepare_all_functions) {
    for (size_t i = 0; i < module->functions_.size(); ++i) {
      EMBER_RETURN_IF_ERROR(module->QuickenedCode(i).status());
    }
  }
  for (const bytecode::ExportFunctionDef& export_def : def.exported_functions) {
    ExportEntry entry;
    entry.name = export_def.local_name;
    entry.internal_ordinal = static_cast<uint32_t>(export_def.internal_ordinal);
    if (!attrs_built[entry.internal_ordinal]) {
      attrs_built[entry.internal_ordinal] = true;
      const bytecode::FunctionSignatureDef& signature =
          def.function_signatures[entry.internal_ordinal];
      for (const bytecode::AttrDef& attr : signature.attrs) {
        module->function_attrs_[entry.internal_ordinal].push_back(
            ReflectionAttr{attr.key, attr.value});
      }
    }
    module->exports_.push_back(entry);
  }
  for (size_t i = 0; i < file->rodata_count(); ++i) {
    EMBER_ASSIGN_OR_RETURN(
        Ref<Buffer> buffer,
        Buffer::WrapExternal(file->rodata(i), BufferAccess::kOriginModule,
                             ExternalMemoryOwner(file)),
        "wrapping rodata segment %zu", i);
    module->rodata_.push_back(VmRef::Of(std::move(buffer)));
  }
  return module;
}

Result<std::shared_ptr<BytecodeModule>> BytecodeModule::LoadFile(
    std::shared_ptr<const Instance> instance, const std::string& path,
    const Options& options) {
  EMBER_ASSIGN_OR_RETURN(std::shared_ptr<const bytecode::ModuleFile> file,
                         bytecode::ModuleFile::LoadFile(path));
  return Create(std::move(instance), std::move(file), options);
}

ExportInfo BytecodeModule::export_info(size_t export_ordinal) const {
  const ExportEntry& entry = exports_[export_ordinal];
  const CallingConvention* cconv = functions_[entry.internal_ordinal].cconv;
  return ExportInfo{entry.name,
                    cconv != nullptr ? cconv->text : std::string_view(),
                    function_attrs_[entry.internal_ordinal]};
}

Result<const uint8_t*> BytecodeModule::PrepareQuickenedCode(
    size_t ordinal) const {
  if (ordinal >= functions_.size())
    return OutOfRangeError("internal function ordinal");
  PreparedCode& slot = prepared_[ordinal];
  std::lock_guard<std::mutex> lock(prepare_mutex_);
  if (const uint8_t* code = slot.code.load(std::memory_order_relaxed))
    return code;
  EMBER_ASSIGN_OR_RETURN(
      slot.storage,
      bytecode::MakeQuickenedCode(
          functions_[ordinal].code,
          bytecode::QuickenOptions{.rewrite = rewrite_bytecode_}),
      "preparing function %zu of module '%.*s'", ordinal,
      static_cast<int>(name().size()), name().data());
  // Verified functions are never empty, so data() is not null.
  slot.code.store(slot.storage.data(), std::memory_order_release);
  return slot.storage.data();
}

size_t BytecodeModule::prepared_function_count() const {
  size_t count = 0;
  for (size_t i = 0; i < functions_.size(); ++i) {
    count += prepared_[i].code.load(std::memory_order_acquire) != nullptr;
  }
  return count;
}

std::string BytecodeModule::Provenance() const {
  return DescribeCompilerFamily(InferCompilerFamily(file_->def()));
}

std::optional<Function> BytecodeModule::LookupExport(std::string_view name) {
  // The file's index (built at load, the first of equal names wins) has
  // the same ordinals as exports_.
  const int found = file_->FindExport(name);
  if (found < 0) return std::nullopt;
  return Function{this, static_cast<uint32_t>(found), FunctionLinkage::kExport};
}

std::string BytecodeModule::QualifiedFunctionName(size_t ordinal) const {
  std::string result(name());
  result += '.';
  std::string_view debug_name = file_->FunctionDebugName(ordinal);
  if (!debug_name.empty()) return result + std::string(debug_name);
  for (const ExportEntry& entry : exports_) {
    if (entry.internal_ordinal == ordinal)
      return result + std::string(entry.name);
  }
  return result + "#" + std::to_string(ordinal);
}

Result<std::unique_ptr<ModuleState>> BytecodeModule::CreateState(
    Context& context) {
  const bytecode::ModuleStateDef& layout = file_->def().module_state;
  auto state = std::make_unique<BytecodeModuleState>();
  state->rwdata.assign(static_cast<size_t>(layout.global_bytes_capacity), 0);
  state->ref_globals.resize(static_cast<size_t>(layout.global_ref_count));
  state->imports.resize(imports_.size());
  state->import_targets.resize(imports_.size());
  return std::unique_ptr<ModuleState>(std::move(state));
}

Status BytecodeModule::ResolveImport(ModuleState& state, size_t import_ordinal,
                                     const Function& target) {
  auto& bytecode_state = static_cast<BytecodeModuleState&>(state);
  if (import_ordinal >= bytecode_state.imports.size()) {
    return OutOfRangeError("import ordinal out of range");
  }
  bytecode_state.imports[import_ordinal] = target;
  bytecode_state.import_targets[import_ordinal] = {};  // found on use
  return Status::Ok();
}

Status BytecodeModule::Call(Context& context, ModuleState& state,
                            const Function& function,
                            std::span<const Variant> arguments,
                            std::span<Variant> results) {
  return CallInternal(context, state, function, arguments, nullptr, results);
}

Status BytecodeModule::CallConsuming(Context& context, ModuleState& state,
                                     const Function& function,
                                     std::span<Variant> arguments,
                                     std::span<Variant> results) {
  return CallInternal(context, state, function, arguments, arguments.data(),
                      results);
}

Status BytecodeModule::CallInternal(Context& context, ModuleState& state,
                                    const Function& function,
                                    std::span<const Variant> arguments,
                                    Variant* movable,
                                    std::span<Variant> results) {
  if (function.module != this) {
    return InvalidArgumentError("function belongs to another module");
  }
  uint32_t ordinal = function.ordinal;
  switch (function.linkage) {
    case FunctionLinkage::kExport:
      if (ordinal >= exports_.size()) return OutOfRangeError("export ordinal");
      ordinal = exports_[ordinal].internal_ordinal;
      break;
    case FunctionLinkage::kInternal:
      if (ordinal >= functions_.size()) {
        return OutOfRangeError("internal function ordinal");
      }
      break;
    case FunctionLinkage::kImport:
      return InvalidArgumentError("cannot call an import of a module directly");
  }
  return bytecode::Execute(context, *this,
                           static_cast<BytecodeModuleState&>(state), ordinal,
                           arguments, results, movable);
}

}  // namespace ember::vm::bytecode
