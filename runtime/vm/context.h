// Context: an ordered set of module instances linked into one program.
//
// A Context is where modules meet. Registering a module (in dependency order:
// `hal` before the program that imports it) does four things, as IREE's
// context.c does:
//   1. checks the module's declared dependencies against the modules already
//      registered: a REQUIRED one that is missing, or older than its
//      minimum_version, fails with NOT_FOUND / FAILED_PRECONDITION; an
//      OPTIONAL one may be absent;
//   2. creates the module's state;
//   3. resolves every import: the full name is split at its FIRST dot into a
//      module name and a function name ("hal.executable.create" ->
//      "hal" + "executable.create"); the export is looked up in that module
//      and its cconv must equal the import's exactly. A missing OPTIONAL
//      import is left unresolved (vm.import.resolved reads 0);
//   4. runs the module's `__init` export, if it has one.
// Destroying the Context runs `__deinit` of every module that has one, in
// reverse registration order, then drops the states in reverse order.
//
// Invoke runs a function with boxed arguments (layout in module.h). Calls
// between modules (a bytecode import calling into `hal`) come back through
// Call, which tracks the call depth across modules so that runaway recursion
// fails with RESOURCE_EXHAUSTED instead of overflowing the host stack.
//
// Thread safety: a Context is used by one thread at a time. It holds the
// mutable module states, so two threads calling into the same Context at
// once is a data race; callers serialise, or make one Context per thread
// (modules and the Instance are shareable).
#pragma once

#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/vm/instance.h"
#include "runtime/vm/module.h"

namespace ember::vm {

class Context {
 public:
  // The most nested calls (bytecode frames plus cross-module calls) one
  // invocation may make.
  static constexpr int kMaxCallDepth = 1024;

  explicit Context(std::shared_ptr<const Instance> instance);
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;
  // Runs __deinit in reverse order (errors there are ignored).
  ~Context();

  // Convenience: a context with `modules` registered in order.
  static Result<std::unique_ptr<Context>> Create(
      std::shared_ptr<const Instance> instance,
      std::span<const std::shared_ptr<Module>> modules);

  // Links `module` after those already registered (see the top of the
  // file). On failure the context is unchanged. A second module with a name
  // already taken is ALREADY_EXISTS.
  Status RegisterModule(std::shared_ptr<Module> module);

  const Instance& instance() const { return *instance_; }
  size_t module_count() const { return entries_.size(); }
  Module& module(size_t index) const { return *entries_[index].module; }
  // The registered module named `name`, or null.
  Module* FindModule(std::string_view name) const;
  // The state of registered `module`, or null.
  ModuleState* FindState(const Module* module) const;

  // "module.function" -> its export (split at the first dot). NOT_FOUND
  // names what was missing.
  Result<Function> LookupFunction(std::string_view full_name) const;

  // Calls `function` from the host. `results` must be sized to the number
  // of results of the function's cconv.
  Status Invoke(const Function& function, std::span<const Variant> arguments,
                std::span<Variant> results);
  // As Invoke, but the refs of `arguments` may be moved into the callee:
  // for a caller that drops its arguments after the call.
  Status InvokeConsuming(const Function& function, std::span<Variant> arguments,
                         std::span<Variant> results);
  // Same, sizing the results from the export's cconv (export linkage only).
  Result<std::vector<Variant>> Invoke(const Function& function,
                                      std::span<const Variant> arguments);

  // Cross-module call used by modules for their imports; counts one level
  // of call depth.
  Status Call(const Function& function, std::span<const Variant> arguments,
              std::span<Variant> results);

  // Call with the arguments and results in the caller's registers, for a
  // module whose SupportsRegisterCalls() (module.h's RegisterCall); depth
  // accounting and errors as Call.
  Status CallWithRegisters(const Function& function, const RegisterCall& call);

  // Call-depth accounting shared by all modules of one call chain. A module
  // that keeps its own frames (the interpreter) enters once per frame.
  int call_depth() const { return call_depth_; }
  Status EnterFrame() {
    if (call_depth_ >= kMaxCallDepth) [[unlikely]]
      return CallDepthExceeded();
    ++call_depth_;
    return Status();
  }
  void LeaveFrame() { --call_depth_; }

 private:
  struct Entry {
    std::shared_ptr<Module> module;
    std::unique_ptr<ModuleState> state;
  };
  Status CheckDependencies(const Module& module) const;
  [[gnu::cold]] static Status CallDepthExceeded();
  // Invoke while a trace records (runtime/base/trace.h): the call as a slice.
  [[gnu::cold, gnu::noinline]] Status InvokeTraced(
      const Function& function, std::span<const Variant> arguments,
      std::span<Variant> results);
  // The state of `function`'s module, or an error for a null function or a
  // module registered elsewhere.
  Result<ModuleState*> StateForCall(const Function& function) const;
  Status ResolveImports(Module& module, ModuleState& state) const;

  std::shared_ptr<const Instance> instance_;
  std::vector<Entry> entries_;
  int call_depth_ = 0;
};

// The number of result values of `cconv` ("0ii_iI" -> 2); INVALID_ARGUMENT
// if it is malformed or has a span among its results.
Result<size_t> CountCconvResults(std::string_view cconv);

}  // namespace ember::vm
