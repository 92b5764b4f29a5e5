// Runs IREE-style VM op test modules: every export named `test_*` must
// succeed and every `fail_*` must fail. Each function runs in a fresh
// context, so module globals never leak between tests.
//
//   vm_test_runner [--verbose] [--no-rewrite] MODULE.vmfb...
//
// --no-rewrite runs the bytecode as the file encodes it instead of Ember's
// rewritten quickened copy (BytecodeModule::Options::rewrite_bytecode).
//
// Prints one line per unexpected outcome and ends with "N passed, M failed".
// Exit status: 0 when nothing failed, 1 otherwise.
//
// IREE's async_ops test imports a native `yieldable_test` module whose
// functions yield N times before returning. Ember's runtime is synchronous
// (a yieldable import completes in one call), so this runner provides the
// same functions computing the same results without yielding.
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "runtime/vm/bytecode/bytecode_module.h"
#include "runtime/vm/context.h"
#include "runtime/vm/instance.h"

namespace {

using ember::Status;
using ember::vm::Context;
using ember::vm::ExportInfo;
using ember::vm::Function;
using ember::vm::ImportInfo;
using ember::vm::ModuleDependency;
using ember::vm::ModuleState;
using ember::vm::Value;
using ember::vm::Variant;

// yield_n(value, n) -> value + n; yield_variadic_sum(values..., n) ->
// sum(values) + n. Each yield adds one to the result in IREE's module.
class YieldableTestModule final : public ember::vm::Module {
 public:
  std::string_view name() const override { return "yieldable_test"; }
  uint32_t version() const override { return 0; }
  std::span<const ModuleDependency> dependencies() const override { return {}; }
  size_t export_count() const override { return 2; }
  ExportInfo export_info(size_t i) const override {
    return i == 0 ? ExportInfo{"yield_n", "0ii_i", {}}
                  : ExportInfo{"yield_variadic_sum", "0CiDi_i", {}};
  }
  size_t import_count() const override { return 0; }
  ImportInfo import_info(size_t) const override { return {}; }
  ember::Result<std::unique_ptr<ModuleState>> CreateState(Context&) override {
    return std::make_unique<ModuleState>();
  }
  Status ResolveImport(ModuleState&, size_t, const Function&) override {
    return ember::InternalError("yieldable_test has no imports");
  }
  Status Call(Context&, ModuleState&, const Function& function,
              std::span<const Variant> args,
              std::span<Variant> results) override {
    // The context has already checked the arguments against the cconv.
    int32_t total = 0;
    if (function.ordinal == 0) {
      total = args[0].value().i32() + args[1].value().i32();
    } else {
      // Layout: the span count N, N values, then the yield count.
      int32_t count = args[0].value().i32();
      if (count < 0 || static_cast<size_t>(count) + 2 != args.size()) {
        return ember::InvalidArgumentError("bad variadic argument layout");
      }
      for (int32_t i = 0; i < count; ++i) total += args[1 + i].value().i32();
      total += args[1 + count].value().i32();
    }
    results[0] = Variant(Value::I32(total));
    return Status();
  }
};

struct Tally {
  int passed = 0;
  int failed = 0;
};

std::string ModuleLabel(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Whether `module` needs the yieldable_test module: iree-compile's output
// declares it as a dependency, iree-as-module's (IREE 3.12+ .vmasm tests)
// only imports its functions.
bool ImportsYieldableTest(const ember::vm::Module& module) {
  for (const ModuleDependency& dependency : module.dependencies()) {
    if (dependency.name == "yieldable_test") return true;
  }
  for (size_t i = 0; i < module.import_count(); ++i) {
    if (module.import_info(i).full_name.starts_with("yieldable_test.")) {
      return true;
    }
  }
  return false;
}

void RunModule(const std::shared_ptr<ember::vm::Instance>& instance,
               const std::string& path, bool verbose,
               const ember::vm::bytecode::BytecodeModule::Options& options,
               Tally& tally) {
  std::string label = ModuleLabel(path);
  auto module =
      ember::vm::bytecode::BytecodeModule::LoadFile(instance, path, options);
  if (!module.ok()) {
    std::printf("FAILED  %s: cannot load: %s\n", label.c_str(),
                module.status().ToString().c_str());
    ++tally.failed;
    return;
  }
  std::shared_ptr<ember::vm::Module> shared = *module;
  int tests = 0;
  for (size_t i = 0; i < shared->export_count(); ++i) {
    std::string name(shared->export_info(i).name);
    bool expects_failure = name.rfind("fail_", 0) == 0;
    if (!expects_failure && name.rfind("test_", 0) != 0) continue;
    ++tests;
    std::string test = label + ":" + name;
    std::vector<std::shared_ptr<ember::vm::Module>> modules;
    if (ImportsYieldableTest(*shared)) {
      modules.push_back(std::make_shared<YieldableTestModule>());
    }
    modules.push_back(shared);
    auto context = ember::vm::Context::Create(instance, modules);
    if (!context.ok()) {
      std::printf("FAILED  %s: cannot create a context: %s\n", test.c_str(),
                  context.status().ToString().c_str());
      ++tally.failed;
      continue;
    }
    auto function =
        (*context)->LookupFunction(std::string(shared->name()) + "." + name);
    ember::Status status;
    if (!function.ok()) {
      status = function.status();
    } else {
      status = (*context)->Invoke(*function, {}).status();
    }
    bool passed = expects_failure ? !status.ok() : status.ok();
    if (passed) {
      ++tally.passed;
      if (verbose) std::printf("ok      %s\n", test.c_str());
    } else {
      ++tally.failed;
      std::printf("FAILED  %s: %s\n", test.c_str(),
                  expects_failure ? "expected a failure but it succeeded"
                                  : status.ToString().c_str());
    }
  }
  if (tests == 0) {
    std::printf("FAILED  %s: no test_* or fail_* exports\n", label.c_str());
    ++tally.failed;
  }
}

}  // namespace

int main(int argc, char** argv) {
  bool verbose = false;
  ember::vm::bytecode::BytecodeModule::Options options;
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--verbose") == 0) {
      verbose = true;
    } else if (std::strcmp(argv[i], "--no-rewrite") == 0) {
      options.rewrite_bytecode = false;
    } else {
      paths.push_back(argv[i]);
    }
  }
  if (paths.empty()) {
    std::fprintf(
        stderr,
        "usage: vm_test_runner [--verbose] [--no-rewrite] MODULE.vmfb...\n");
    return 2;
  }
  auto instance = ember::vm::Instance::Create();
  Tally tally;
  for (const std::string& path : paths) {
    RunModule(instance, path, verbose, options, tally);
  }
  std::printf("%d passed, %d failed\n", tally.passed, tally.failed);
  return tally.failed == 0 ? 0 : 1;
}
