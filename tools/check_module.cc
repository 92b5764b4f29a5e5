// ember-check-module: runs the test functions of a `.vmfb` compiled from a
// program with `check.expect_*` ops, as iree-check-module does.
//
//   ember-check-module --module=FILE [--device=local-task] [--expect_failure]
//
// Every export whose name does not start with `__` and has no `$` is a test.
// Each runs in a fresh context (its own globals and `__init`), with the
// `check` module recording failed expectations; a test fails when its call
// returns an error or any expectation failed. Progress is printed as
// GoogleTest does (`[ RUN      ] module.test`, `[       OK ]`,
// `[  FAILED  ]`), then `N passed, M failed`.
//
// --expect_failure inverts the verdict: the run succeeds only if at least
// one test failed (for programs that prove a check really fails).
//
// Exit status: 0 when every test passed (with --expect_failure: when one
// failed), 1 otherwise or when the module cannot be loaded, 2 on bad usage.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/vm/context.h"
#include "tools/tool_support.h"

namespace {

using ember::Status;
using ember::tools::FlagValue;

struct Options {
  std::string module_path;
  std::string device = "local-task";
  std::vector<std::string> parameters;  // --parameters=[SCOPE=]FILE
  bool expect_failure = false;
};

// Runs one test in a fresh context; returns its failure messages.
std::vector<std::string> RunTest(const Options& options,
                                 const std::string& name) {
  auto failures = std::make_shared<ember::modules::check::CheckFailures>();
  auto program = ember::tools::LoadProgram(options.module_path, options.device,
                                           failures, options.parameters);
  if (!program.ok()) return {program.status().ToString()};
  auto context =
      ember::vm::Context::Create(program->instance, program->modules);
  if (!context.ok()) return {context.status().ToString()};
  auto function = (*context)->LookupFunction(
      std::string(program->module->name()) + "." + name);
  if (!function.ok()) return {function.status().ToString()};
  auto results = (*context)->Invoke(*function, {});
  std::vector<std::string> messages = failures->Take();
  if (!results.ok()) messages.push_back(results.status().ToString());
  return messages;
}

int Run(const Options& options) {
  auto program = ember::tools::LoadProgram(options.module_path, options.device,
                                           nullptr, options.parameters);
  if (!program.ok()) {
    std::fprintf(stderr, "ember-check-module: %s\n",
                 program.status().ToString().c_str());
    return 1;
  }
  const std::string module_name(program->module->name());
  std::vector<std::string> tests;
  for (const std::string& name : ember::tools::ExportNames(*program->module)) {
    if (name.find('$') == std::string::npos) tests.push_back(name);
  }
  size_t passed = 0, failed = 0;
  for (const std::string& name : tests) {
    const std::string full_name = module_name + "." + name;
    std::printf("[ RUN      ] %s\n", full_name.c_str());
    std::fflush(stdout);
    auto start = std::chrono::steady_clock::now();
    std::vector<std::string> messages = RunTest(options, name);
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                  std::chrono::steady_clock::now() - start)
                  .count();
    for (const std::string& message : messages) {
      std::printf("Failure in %s:\n%s\n", full_name.c_str(), message.c_str());
    }
    if (messages.empty()) {
      ++passed;
      std::printf("[       OK ] %s (%lld ms)\n", full_name.c_str(),
                  static_cast<long long>(ms));
    } else {
      ++failed;
      std::printf("[  FAILED  ] %s (%lld ms)\n", full_name.c_str(),
                  static_cast<long long>(ms));
    }
    std::fflush(stdout);
  }
  std::printf("%zu passed, %zu failed\n", passed, failed);
  if (options.expect_failure) {
    if (failed == 0) {
      std::fprintf(stderr,
                   "ember-check-module: --expect_failure, but every test "
                   "passed\n");
      return 1;
    }
    return 0;
  }
  return failed == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  ember::tools::ScopedEnvironmentTrace trace_from_environment;
  Options options;
  for (int i = 1; i < argc; ++i) {
    const char* arg = argv[i];
    const char* value = nullptr;
    if (std::strcmp(arg, "--help") == 0 || std::strcmp(arg, "-h") == 0) {
      std::printf(
          "usage: ember-check-module --module=FILE [--device=URI] "
          "[--parameters=[SCOPE=]FILE ...] [--expect_failure]\n");
      return 0;
    } else if ((value = FlagValue(arg, "--module"))) {
      options.module_path = value;
    } else if ((value = FlagValue(arg, "--device"))) {
      options.device = value;
    } else if ((value = FlagValue(arg, "--parameters"))) {
      options.parameters.emplace_back(value);
    } else if (std::strcmp(arg, "--expect_failure") == 0 ||
               std::strcmp(arg, "--expect_failure=true") == 0) {
      options.expect_failure = true;
    } else if (std::strcmp(arg, "--expect_failure=false") == 0) {
      options.expect_failure = false;
    } else if (arg[0] != '-' && options.module_path.empty()) {
      options.module_path = arg;  // iree-check-module takes it positionally
    } else {
      std::fprintf(stderr, "ember-check-module: unknown argument '%s'\n", arg);
      return 2;
    }
  }
  if (options.module_path.empty()) {
    std::fprintf(stderr,
                 "usage: ember-check-module --module=FILE [--device=URI] "
                 "[--expect_failure]\n");
    return 2;
  }
  return Run(options);
}
