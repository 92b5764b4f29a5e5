// Runs Ember's VM op-family programs (tests/corpus/vm/ops_*.mlir, compiled by
// tools/ember_corpus.py into vm_ops_*.embedded.vmfb): every `test_*` export
// must succeed and every `fail_*` export must fail, each in a fresh context.
// The same exports are checked against the official runtime by
// tests/python/test_vm_ops_oracle.py (which skips `*_ember_only_*`).
// Every module runs twice: from Ember's rewritten quickened copy (the
// default) and from the bytecode as the file encodes it, so a wrong rewrite
// shows up as a difference between the two.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "runtime/testing/corpus.h"
#include "runtime/vm/bytecode/bytecode_module.h"
#include "runtime/vm/context.h"
#include "runtime/vm/instance.h"

namespace ember::vm::bytecode {
namespace {

bool StartsWith(const std::string& text, const char* prefix) {
  return text.rfind(prefix, 0) == 0;
}

std::vector<ember::testing::CorpusFile> OpsModules() {
  std::vector<ember::testing::CorpusFile> modules;
  for (auto& file : ember::testing::LoadCorpus("vm_ops_")) {
    if (file.name.find(".embedded") != std::string::npos) {
      modules.push_back(std::move(file));
    }
  }
  return modules;
}

class OpConformanceTest : public ::testing::TestWithParam<bool> {};

TEST_P(OpConformanceTest, RunsEveryExportOfEveryOpsModule) {
  BytecodeModule::Options options;
  options.rewrite_bytecode = GetParam();
  auto files = OpsModules();
  ASSERT_FALSE(files.empty())
      << ember::testing::MissingCorpusMessage("vm_ops_*.embedded.vmfb");
  std::shared_ptr<Instance> instance = Instance::Create();
  int passed = 0;
  std::vector<std::string> failures;
  for (const auto& file : files) {
    SCOPED_TRACE(file.name);
    std::shared_ptr<Module> module =
        ember::testing::LoadCorpusModule(instance, file, options);
    ASSERT_NE(module, nullptr);
    int functions = 0;
    for (size_t i = 0; i < module->export_count(); ++i) {
      std::string name(module->export_info(i).name);
      bool expects_failure = StartsWith(name, "fail_");
      if (!expects_failure && !StartsWith(name, "test_")) continue;
      ++functions;
      std::string label = file.name + ":" + name;
      std::vector<std::shared_ptr<Module>> modules = {module};
      auto context = Context::Create(instance, modules);
      if (!context.ok()) {
        failures.push_back(label + ": cannot create a context: " +
                           context.status().ToString());
        continue;
      }
      Status status;
      auto function =
          (*context)->LookupFunction(std::string(module->name()) + "." + name);
      if (!function.ok()) {
        status = function.status();
      } else {
        status = (*context)->Invoke(*function, {}).status();
      }
      if (expects_failure && status.ok()) {
        failures.push_back(label + ": expected a failure but it succeeded");
      } else if (!expects_failure && !status.ok()) {
        failures.push_back(label + ": " + status.ToString());
      } else {
        ++passed;
      }
    }
    EXPECT_GT(functions, 0) << file.name << " has no test_/fail_ exports";
  }
  for (const std::string& failure : failures) ADD_FAILURE() << failure;
  EXPECT_GT(passed, 0);
  std::printf("op conformance (%s): %d passed, %zu failed over %zu modules\n",
              options.rewrite_bytecode ? "rewritten" : "as encoded", passed,
              failures.size(), files.size());
}

INSTANTIATE_TEST_SUITE_P(QuickenedCopy, OpConformanceTest, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "Rewritten" : "AsEncoded";
                         });

}  // namespace
}  // namespace ember::vm::bytecode
