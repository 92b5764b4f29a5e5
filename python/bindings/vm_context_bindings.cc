// Python binding of VmContext: modules linked into one program, and the
// host's way to call it.
//
// As in iree.runtime 3.11, `VmContext(instance, modules=None)` makes a
// dynamic context that register_modules() extends, while a context made with
// a non-empty list of modules is static and refuses later registration (an
// empty list makes a dynamic context, as IREE's is_static = count > 0).
// `invoke(function, inputs, outputs)` reads the arguments from the `inputs`
// VmVariantList in the callee's calling convention, runs the
// function, and replaces the contents of `outputs` with the results.
//
// Argument conversion is IREE's (invocation.c): each list element is read
// as the type its cconv character names, with the list's conversion rules --
// a Python int (pushed as i64) truncates to i32 for `i`, a float (f64)
// rounds to f32 for `f`, and a value of the other family (an int where a
// float is expected, or vice versa) reads as zero. `r` passes the element's
// ref through, null for an empty element; a value where a ref is expected,
// or a ref where a value is expected, fails. Results keep their VM types in
// the output list: i32 and i64 read back as Python ints, f32 and f64 as
// floats (an f32 widened exactly), refs as refs, a null ref as None.
//
// The GIL and threads. The argument and result lists are read and written
// with the GIL held, like every other VmVariantList operation; the call
// itself and module registration (which runs `__init`) run with the GIL
// released. A vm::Context must not be entered by two threads at once, so
// each VmContext carries a mutex that invoke and register_modules hold
// around the core call: two Python threads that share a context are
// serialised instead of racing (upstream takes no lock and races). The
// mutex is only ever taken after the GIL was released, so the two cannot
// deadlock: a Python-defined module (py_module_bindings.cc) does take the
// GIL while a call holds the mutex, but whoever holds the GIL never waits
// for the mutex.
// For parallelism, give each thread its own context; modules and the
// instance are shared freely.
#include "python/bindings/vm_context_bindings.h"

#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/vector.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "python/bindings/status_utils.h"
#include "python/bindings/vm_bindings.h"
#include "python/bindings/vm_value_bindings.h"
#include "runtime/base/status.h"
#include "runtime/vm/calling_convention.h"
#include "runtime/vm/context.h"
#include "runtime/vm/list.h"
#include "runtime/vm/value.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace ember::python {
namespace {

// Context ids are unique in the process and start at 1, as IREE's.
std::atomic<int> next_context_id{1};

std::vector<std::shared_ptr<vm::Module>> ModulesOf(
    const std::vector<VmModule*>& modules) {
  std::vector<std::shared_ptr<vm::Module>> loaded;
  loaded.reserve(modules.size());
  for (const VmModule* module : modules) {
    if (module == nullptr) throw nb::type_error("modules must be VmModules");
    loaded.push_back(module->module);
  }
  return loaded;
}

// Links `modules` in order. Runs without the GIL, under the context's mutex.
// Modules before a failing one stay registered (as in IREE).
Status RegisterLocked(vm::Context& context,
                      const std::vector<std::shared_ptr<vm::Module>>& modules) {
  for (const std::shared_ptr<vm::Module>& module : modules) {
    EMBER_RETURN_IF_ERROR(context.RegisterModule(module));
  }
  return Status::Ok();
}

void Register(VmContext& self,
              const std::vector<std::shared_ptr<vm::Module>>& modules,
              const char* error_context) {
  Status status;
  {
    nb::gil_scoped_release release;
    std::lock_guard<std::mutex> lock(self.mutex);
    status = RegisterLocked(*self.context, modules);
  }
  CheckStatus(status, error_context);
}

void Init(VmContext* self, VmInstance* instance,
          std::optional<std::vector<VmModule*>> modules) {
  if (instance == nullptr)
    throw nb::type_error("instance must be a VmInstance");
  std::vector<std::shared_ptr<vm::Module>> loaded;
  if (modules) loaded = ModulesOf(*modules);
  // Link before constructing `self`: nanobind does not destroy an instance
  // whose __init__ threw, so nothing may be owned by it yet. No other thread
  // can see this context, so no lock is needed.
  auto context = std::make_unique<vm::Context>(instance->instance);
  if (!loaded.empty()) {
    Status status;
    {
      nb::gil_scoped_release release;
      status = RegisterLocked(*context, loaded);
    }
    CheckStatus(status, "Error creating vm context with modules");
  }
  new (self) VmContext();
  self->context = std::move(context);
  self->is_static = !loaded.empty();
  self->id = next_context_id.fetch_add(1, std::memory_order_relaxed);
}

void RegisterModules(VmContext& self, std::vector<VmModule*> modules) {
  if (self.is_static) {
    CheckStatus(FailedPreconditionError(
                    "context was allocated as static and cannot register "
                    "modules after creation"),
                "Error registering modules");
  }
  Register(self, ModulesOf(modules), "Error registering modules");
}

}  // namespace

Result<vm::CallingConvention> ExportCallingConvention(
    const VmFunction& function, const char* verb) {
  if (function.linkage != Linkage::kExport &&
      function.linkage != Linkage::kExportOptional) {
    return InvalidArgumentError(
        std::string("only exported functions can be ") + verb +
        " (got linkage " + std::to_string(static_cast<int>(function.linkage)) +
        ")");
  }
  return vm::ParseCallingConvention(
      function.module->export_info(function.ordinal).calling_convention);
}

Status MarshalArguments(const vm::CconvSide& types, const vm::List& inputs,
                        std::vector<vm::Variant>& arguments, const char* verb,
                        ScalarReader read_scalar) {
  if (types.has_span) {
    return UnimplementedError(
        std::string("functions with variadic arguments cannot be ") + verb +
        " from the host");
  }
  if (inputs.size() != types.size()) {
    return InvalidArgumentError(StringPrintf(
        "input list and function mismatch; expected %zu arguments but passed "
        "%zu",
        types.size(), inputs.size()));
  }
  arguments.reserve(types.size());
  for (size_t i = 0; i < types.size(); ++i) {
    if (types[i].type == vm::CconvType::kRef) {
      EMBER_ASSIGN_OR_RETURN(vm::VmRef ref, inputs.GetRef(i),
                             "reading argument %zu (a ref)", i);
      arguments.emplace_back(std::move(ref));
      continue;
    }
    const vm::ValueType type = vm::ValueTypeOfCconv(types[i].type);
    EMBER_ASSIGN_OR_RETURN(
        vm::Value value,
        read_scalar ? read_scalar(inputs, i, type) : inputs.GetValueAs(i, type),
        "reading argument %zu (%s)", i,
        std::string(vm::ValueTypeName(type)).c_str());
    arguments.emplace_back(value);
  }
  return Status::Ok();
}

namespace {

// Runs the call. Without the GIL; takes the context's mutex.
Result<std::vector<vm::Variant>> InvokeLocked(
    VmContext& self, const VmFunction& function,
    std::vector<vm::Variant>& arguments) {
  vm::Module* module = function.module.get();
  std::lock_guard<std::mutex> lock(self.mutex);
  if (self.context->FindState(module) == nullptr) {
    std::string_view name = module->name();
    return MakeStatus(StatusCode::kNotFound,
                      "the function's module '%.*s' is not registered in this "
                      "context",
                      static_cast<int>(name.size()), name.data());
  }
  vm::Function target{module, function.ordinal, vm::FunctionLinkage::kExport};
  Result<std::vector<vm::Variant>> results =
      self.context->Invoke(target, arguments);
  // Drop the argument refs here, still without the GIL.
  arguments.clear();
  return results;
}

void Invoke(VmContext& self, const VmFunction& function,
            PyVmVariantList& inputs, PyVmVariantList& outputs) {
  constexpr const char* kError = "Error invoking function";
  vm::CallingConvention cconv =
      Unwrap(ExportCallingConvention(function, "invoked"), kError);
  std::vector<vm::Variant> arguments;
  CheckStatus(
      MarshalArguments(cconv.arguments, *inputs.list, arguments, "invoked"),
      kError);
  Result<std::vector<vm::Variant>> results = InternalError("not invoked");
  {
    nb::gil_scoped_release release;
    results = InvokeLocked(self, function, arguments);
  }
  std::vector<vm::Variant> values = Unwrap(std::move(results), kError);
  vm::List& out = *outputs.list;
  out.Clear();
  CheckStatus(out.Reserve(values.size()), kError);
  for (vm::Variant& value : values) {
    CheckStatus(out.PushVariant(std::move(value)), kError);
  }
}

}  // namespace

void BindVmContext(nb::module_& m) {
  nb::class_<VmContext>(
      m, "VmContext",
      "A program: modules linked in order against a VmInstance, each with its "
      "own state, whose exported functions invoke calls. Calls on one context "
      "are serialised; give each thread its own context for parallelism.")
      .def("__init__", &Init, "instance"_a, "modules"_a = nb::none(),
           "A context of `modules` linked in order (static), or, with "
           "modules=None, an empty one that register_modules extends.")
      .def("register_modules", &RegisterModules,
           "Links more modules into a dynamic context, in order, running "
           "their initialisers with the GIL released; a context made with "
           "modules is static and raises RuntimeError.")
      .def_prop_ro(
          "context_id", [](const VmContext& self) { return self.id; },
          "A number that identifies this context in the process (from 1).")
      .def("invoke", &Invoke,
           "Calls `function` with the arguments in `inputs` and replaces the "
           "contents of `outputs` with its results. The GIL is released "
           "during the call; calls on one context are serialised.");
}

}  // namespace ember::python
