// ember-check-module: runs the test functions of a `.vmfb` compiled from a
// program with `check.expect_*` ops, as iree-check-module does.
//
//   ember-check-module --module=FILE [--device=local-task] [--expect_failure]
//
// The flags are iree-check-module's (tools/tool_support.h says how they are
// spelled and which are accepted; `--help` lists them, one line each); the
// module may also be given as the one positional argument. Of GoogleTest's
// own flags, --gtest_filter and --gtest_list_tests are implemented and
// --gtest_color is ignored; the others are unknown flags.
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
// failed), 1 otherwise or when the module cannot be loaded, 2 on bad usage
// (an unknown flag, a bad value, or a flag Ember does not implement).
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/vm/context.h"
#include "tools/tool_support.h"

namespace {

struct Options {
  ember::tools::CommonOptions common;
  bool expect_failure = false;
  std::string filter;  // --gtest_filter
  bool list_tests = false;
};

// Whether `text` matches the glob `pattern` (`*` any run, `?` one
// character), by dynamic programming: a hostile pattern costs at most
// |pattern| * |text| steps.
bool GlobMatches(std::string_view pattern, std::string_view text) {
  std::vector<bool> row(text.size() + 1, false), next(text.size() + 1);
  row[0] = true;
  for (char p : pattern) {
    next.assign(text.size() + 1, false);
    if (p == '*') next[0] = row[0];
    for (size_t j = 1; j <= text.size(); ++j) {
      if (p == '*') {
        next[j] = row[j] || next[j - 1];
      } else {
        next[j] = row[j - 1] && (p == '?' || p == text[j - 1]);
      }
    }
    row.swap(next);
  }
  return row[text.size()];
}

// GoogleTest's --gtest_filter: `POSITIVE[-NEGATIVE]`, each a `:`-separated
// list of globs over "module.test"; an empty positive part matches all.
bool FilterMatches(const std::string& filter, const std::string& name) {
  if (filter.empty()) return true;
  const size_t dash = filter.find('-');
  const std::string positive = filter.substr(0, dash);
  const std::string negative =
      dash == std::string::npos ? std::string() : filter.substr(dash + 1);
  auto any = [&](const std::string& list) {
    std::string_view rest = list;
    while (true) {
      const size_t colon = rest.find(':');
      if (GlobMatches(rest.substr(0, colon), name)) return true;
      if (colon == std::string_view::npos) return false;
      rest.remove_prefix(colon + 1);
    }
  };
  return (positive.empty() || any(positive)) &&
         (negative.empty() || !any(negative));
}

// Runs one test in a fresh context; returns its failure messages.
std::vector<std::string> RunTest(const Options& options,
                                 const std::string& name) {
  auto failures = std::make_shared<ember::modules::check::CheckFailures>();
  auto program = ember::tools::LoadProgramFromFlags(options.common, failures);
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
  auto program = ember::tools::LoadProgramFromFlags(options.common);
  if (!program.ok()) {
    std::fprintf(stderr, "ember-check-module: %s\n",
                 program.status().ToString().c_str());
    return 1;
  }
  const std::string module_name(program->module->name());
  std::vector<std::string> tests;
  for (const std::string& name : ember::tools::ExportNames(*program->module)) {
    if (name.find('$') == std::string::npos &&
        FilterMatches(options.filter, module_name + "." + name)) {
      tests.push_back(name);
    }
  }
  if (options.list_tests) {
    // GoogleTest's listing: the suite, then its tests indented.
    if (!tests.empty()) std::printf("%s.\n", module_name.c_str());
    for (const std::string& name : tests) std::printf("  %s\n", name.c_str());
    return 0;
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
  ember::tools::Flags flags(
      "ember-check-module",
      "usage: ember-check-module --module=FILE [--device=URI] "
      "[--expect_failure]\n"
      "Runs the test functions of a .vmfb with check.expect_* ops, as "
      "iree-check-module.");
  flags.Section("Tests");
  flags.Bool("expect_failure",
             "succeeds only if a test fails (for programs proving a check "
             "fails)",
             &options.expect_failure);
  flags.String("gtest_filter", "POSITIVE[-NEGATIVE]",
               "runs the tests whose module.test name matches (globs, : "
               "separated)",
               &options.filter);
  flags.Bool("gtest_list_tests", "lists the tests and exits",
             &options.list_tests);
  flags.Ignored("gtest_color", "auto|yes|no",
                "the progress lines are never colored");
  ember::tools::AddCommonFlags(flags, &options.common);
  std::vector<std::string> positional;
  const int parsed = flags.Parse(argc, argv, &positional);
  if (parsed >= 0) return parsed;
  for (const std::string& arg : positional) {
    if (options.common.modules.empty()) {
      options.common.modules.push_back(arg);  // the module, positionally
    } else {
      flags.Complain("ignoring the positional argument '" + arg + "'");
    }
  }
  if (ember::tools::ListDevicesIfAsked(options.common)) return 0;
  if (options.common.modules.empty()) {
    flags.Complain("no module given (--module=FILE; see --help)");
    return 2;
  }
  return Run(options);
}
