#include "runtime/vm/context.h"

#include <functional>
#include <optional>
#include <string>
#include <unordered_map>

#include "runtime/base/string_identity.h"
#include "runtime/base/trace.h"
#include "runtime/vm/calling_convention.h"

namespace ember::vm {

Result<size_t> CountCconvResults(std::string_view cconv) {
  // Called on every host Invoke: the syntax check allocates nothing.
  const CconvSyntax syntax = CheckCallingConventionSyntax(cconv);
  EMBER_RETURN_IF_ERROR(CconvSyntaxStatus(syntax));
  if (syntax.results_have_span) {
    return InvalidArgumentError(
        StringPrintf("cconv '%.*s' has a variadic result",
                     static_cast<int>(cconv.size()), cconv.data()));
  }
  return syntax.results.size();
}

Context::Context(std::shared_ptr<const Instance> instance)
    : instance_(std::move(instance)) {}

Context::~Context() {
  for (size_t i = entries_.size(); i-- > 0;) {
    Entry& entry = entries_[i];
    if (std::optional<Function> deinit =
            entry.module->LookupExport("__deinit")) {
      Invoke(*deinit, {}, {}).IgnoreError();
    }
  }
  while (!entries_.empty()) entries_.pop_back();
}

Result<std::unique_ptr<Context>> Context::Create(
    std::shared_ptr<const Instance> instance,
    std::span<const std::shared_ptr<Module>> modules) {
  auto context = std::make_unique<Context>(std::move(instance));
  for (const std::shared_ptr<Module>& module : modules) {
    EMBER_RETURN_IF_ERROR(context->RegisterModule(module));
  }
  return context;
}

Module* Context::FindModule(std::string_view name) const {
  for (const Entry& entry : entries_) {
    if (entry.module->name() == name) return entry.module.get();
  }
  return nullptr;
}

ModuleState* Context::FindState(const Module* module) const {
  for (const Entry& entry : entries_) {
    if (entry.module.get() == module) return entry.state.get();
  }
  return nullptr;
}

Status Context::CheckDependencies(const Module& module) const {
  for (const ModuleDependency& dependency : module.dependencies()) {
    Module* found = FindModule(dependency.name);
    if (found == nullptr) {
      if (dependency.optional) continue;
      return MakeStatus(
          StatusCode::kNotFound,
          "module '%.*s' requires module '%.*s' (minimum version %u), which "
          "is not registered in the context",
          static_cast<int>(module.name().size()), module.name().data(),
          static_cast<int>(dependency.name.size()), dependency.name.data(),
          dependency.minimum_version);
    }
    if (found->version() < dependency.minimum_version && !dependency.optional) {
      // NOT_FOUND, as IREE reports it (Python users see ValueError).
      return MakeStatus(
          StatusCode::kNotFound,
          "module '%.*s' requires module '%.*s' at version >= %u, but the "
          "registered one has version %u",
          static_cast<int>(module.name().size()), module.name().data(),
          static_cast<int>(dependency.name.size()), dependency.name.data(),
          dependency.minimum_version, found->version());
    }
  }
  return Status::Ok();
}

Status Context::ResolveImports(Module& module, ModuleState& state) const {
  // Imports with the same name and cconv strings -- the same bytes of the
  // file, which a hostile module can share among any number of imports --
  // resolve once: the work per import is O(1) after the first.
  struct Key {
    StringIdentity name;
    StringIdentity cconv;
    bool optional;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    size_t operator()(const Key& key) const {
      StringIdentityHash hash;
      return hash(key.name) * 31 + hash(key.cconv) + size_t{key.optional};
    }
  };
  std::unordered_map<Key, std::optional<Function>, KeyHash> resolved;
  for (size_t i = 0; i < module.import_count(); ++i) {
    ImportInfo import = module.import_info(i);
    const Key key{StringIdentity(import.full_name),
                  StringIdentity(import.calling_convention), import.optional};
    if (auto known = resolved.find(key); known != resolved.end()) {
      if (known->second) {
        EMBER_RETURN_IF_ERROR(module.ResolveImport(state, i, *known->second),
                              "resolving import %zu", i);
      }
      continue;  // an optional import that is absent, as before
    }
    size_t dot = import.full_name.find('.');
    if (dot == std::string_view::npos || dot == 0 ||
        dot + 1 == import.full_name.size()) {
      return MakeStatus(StatusCode::kInvalidArgument,
                        "import %zu '%.*s' is not of the form module.function",
                        i, static_cast<int>(import.full_name.size()),
                        import.full_name.data());
    }
    std::string_view module_name = import.full_name.substr(0, dot);
    std::string_view function_name = import.full_name.substr(dot + 1);
    Module* target_module = FindModule(module_name);
    std::optional<Function> target;
    std::optional<Function> same_name;
    if (target_module != nullptr) {
      target =
          target_module->LookupExport(function_name, import.calling_convention);
      if (!target) same_name = target_module->LookupExport(function_name);
    }
    if (!target && !same_name) {
      if (import.optional) {
        resolved.emplace(key, std::nullopt);  // absent: skipped each time
        continue;
      }
      return MakeStatus(
          StatusCode::kNotFound,
          "required import '%.*s' of module '%.*s' cannot be resolved: %s",
          static_cast<int>(import.full_name.size()), import.full_name.data(),
          static_cast<int>(module.name().size()), module.name().data(),
          target_module ? "the module has no such export"
                        : "no module of that name is registered");
    }
    if (!target) {
      // The name exists under another signature: a program built for
      // another version of the target module. Say which signatures exist.
      std::string offered;
      for (size_t e = same_name->ordinal; e < target_module->export_count();
           ++e) {
        ExportInfo info = target_module->export_info(e);
        if (info.name != function_name) continue;
        if (!offered.empty()) offered += "' or '";
        offered += info.calling_convention;
      }
      // INTERNAL, as IREE reports a signature mismatch (Python users see
      // RuntimeError from both).
      return MakeStatus(
          StatusCode::kInternal,
          "import '%.*s' of module '%.*s' expects calling convention '%.*s' "
          "but the export has '%s'",
          static_cast<int>(import.full_name.size()), import.full_name.data(),
          static_cast<int>(module.name().size()), module.name().data(),
          static_cast<int>(import.calling_convention.size()),
          import.calling_convention.data(), offered.c_str());
    }
    EMBER_RETURN_IF_ERROR(
        module.ResolveImport(state, i, *target), "resolving import '%.*s'",
        static_cast<int>(import.full_name.size()), import.full_name.data());
    resolved.emplace(key, *target);
  }
  return Status::Ok();
}

Status Context::RegisterModule(std::shared_ptr<Module> module) {
  if (module == nullptr) return InvalidArgumentError("null module");
  std::string name(module->name());
  if (FindModule(name) != nullptr) {
    return MakeStatus(StatusCode::kAlreadyExists,
                      "a module named '%s' is already registered",
                      name.c_str());
  }
  // A link failure says which compiler built the module: a program from a
  // release whose `hal` interface differs is the usual cause.
  auto link_failure = [&](Status status) {
    std::string provenance = module->Provenance();
    if (!provenance.empty()) {
      status =
          std::move(status).Annotate("module '" + name + "' was " + provenance);
    }
    return std::move(status).Annotate("registering module '" + name + "'");
  };
  if (Status status = CheckDependencies(*module); !status.ok()) {
    return link_failure(std::move(status));
  }
  EMBER_ASSIGN_OR_RETURN(std::unique_ptr<ModuleState> state,
                         module->CreateState(*this),
                         "creating the state of module '%s'", name.c_str());
  if (Status status = ResolveImports(*module, *state); !status.ok()) {
    return link_failure(std::move(status));
  }
  entries_.push_back(Entry{module, std::move(state)});
  if (std::optional<Function> init = module->LookupExport("__init")) {
    Status status = Invoke(*init, {}, {});
    if (!status.ok()) {
      entries_.pop_back();
      return std::move(status).Annotate("running __init of module '" + name +
                                        "'");
    }
  }
  return Status::Ok();
}

Result<Function> Context::LookupFunction(std::string_view full_name) const {
  size_t dot = full_name.find('.');
  if (dot == std::string_view::npos) {
    return MakeStatus(StatusCode::kInvalidArgument,
                      "'%.*s' is not of the form module.function",
                      static_cast<int>(full_name.size()), full_name.data());
  }
  std::string_view module_name = full_name.substr(0, dot);
  Module* module = FindModule(module_name);
  if (module == nullptr) {
    return MakeStatus(StatusCode::kNotFound, "no module named '%.*s'",
                      static_cast<int>(module_name.size()), module_name.data());
  }
  std::optional<Function> function =
      module->LookupExport(full_name.substr(dot + 1));
  if (!function) {
    return MakeStatus(StatusCode::kNotFound,
                      "module '%.*s' has no export '%.*s'",
                      static_cast<int>(module_name.size()), module_name.data(),
                      static_cast<int>(full_name.size() - dot - 1),
                      full_name.data() + dot + 1);
  }
  return *function;
}

Status Context::CallDepthExceeded() {
  return MakeStatus(StatusCode::kResourceExhausted,
                    "call depth limit of %d frames exceeded", kMaxCallDepth);
}

Result<ModuleState*> Context::StateForCall(const Function& function) const {
  if (function.is_null())
    return InvalidArgumentError("call of a null function");
  ModuleState* state = FindState(function.module);
  if (state == nullptr) {
    return MakeStatus(StatusCode::kFailedPrecondition,
                      "module '%.*s' is not registered in this context",
                      static_cast<int>(function.module->name().size()),
                      function.module->name().data());
  }
  return state;
}

Status Context::Call(const Function& function,
                     std::span<const Variant> arguments,
                     std::span<Variant> results) {
  EMBER_ASSIGN_OR_RETURN(ModuleState * state, StateForCall(function));
  EMBER_RETURN_IF_ERROR(EnterFrame());
  Status status =
      function.module->Call(*this, *state, function, arguments, results);
  LeaveFrame();
  return status;
}

Status Context::CallWithRegisters(const Function& function,
                                  const RegisterCall& call) {
  EMBER_ASSIGN_OR_RETURN(ModuleState * state, StateForCall(function));
  EMBER_RETURN_IF_ERROR(EnterFrame());
  Status status =
      function.module->CallWithRegisters(*this, *state, function, call);
  LeaveFrame();
  return status;
}

Status Context::Invoke(const Function& function,
                       std::span<const Variant> arguments,
                       std::span<Variant> results) {
  if (trace::Enabled()) [[unlikely]] {
    return InvokeTraced(function, arguments, results);
  }
  return Call(function, arguments, results);
}

Status Context::InvokeConsuming(const Function& function,
                                std::span<Variant> arguments,
                                std::span<Variant> results) {
  if (trace::Enabled()) [[unlikely]] {
    return InvokeTraced(function, arguments, results);
  }
  EMBER_ASSIGN_OR_RETURN(ModuleState * state, StateForCall(function));
  EMBER_RETURN_IF_ERROR(EnterFrame());
  Status status = function.module->CallConsuming(*this, *state, function,
                                                 arguments, results);
  LeaveFrame();
  return status;
}

Status Context::InvokeTraced(const Function& function,
                             std::span<const Variant> arguments,
                             std::span<Variant> results) {
  const uint64_t trace_begin = trace::BeginNs();
  Status status = Call(function, arguments, results);
  if (function.module != nullptr) {
    // The ordinal is checked before a name is looked up: a failed call may
    // have failed on exactly that.
    std::string_view name = "(internal)";
    if (function.linkage == FunctionLinkage::kExport &&
        function.ordinal < function.module->export_count()) {
      name = function.module->export_info(function.ordinal).name;
    }
    trace::CompleteQualified(trace::Category::kInvoke, function.module->name(),
                             name, trace_begin,
                             {trace::Arg::Int("ok", status.ok() ? 1 : 0)});
  }
  return status;
}

Result<std::vector<Variant>> Context::Invoke(
    const Function& function, std::span<const Variant> arguments) {
  if (function.is_null() || function.linkage != FunctionLinkage::kExport) {
    return InvalidArgumentError("Invoke needs an exported function");
  }
  EMBER_ASSIGN_OR_RETURN(
      size_t count,
      CountCconvResults(
          function.module->export_info(function.ordinal).calling_convention));
  std::vector<Variant> results(count);
  EMBER_RETURN_IF_ERROR(Invoke(function, arguments, results));
  return results;
}

}  // namespace ember::vm
