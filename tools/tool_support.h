// What the command-line tools share: loading a program file and linking it
// with the native modules it needs, over a device chosen by URI.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runtime/base/ref_counted.h"
#include "runtime/base/status.h"
#include "runtime/hal/device.h"
#include "runtime/modules/check/check_module.h"
#include "runtime/vm/bytecode/bytecode_module.h"
#include "runtime/vm/calling_convention.h"
#include "runtime/vm/instance.h"
#include "runtime/vm/list.h"
#include "runtime/vm/module.h"

namespace ember::tools {

struct Program {
  std::shared_ptr<vm::Instance> instance;
  std::shared_ptr<vm::bytecode::BytecodeModule> module;
  Ref<hal::Device> device;  // null when the program needs no `hal`
  // In registration order: hal (when needed), check (when asked for), the
  // program.
  std::vector<std::shared_ptr<vm::Module>> modules;
};

// Loads `path` and prepares its modules. A `hal` module over `device_uri`
// is added when the program imports from `hal`; a `check` module recording
// into `check_failures` when that is not null.
Result<Program> LoadProgram(
    const std::string& path, const std::string& device_uri,
    std::shared_ptr<modules::check::CheckFailures> check_failures = nullptr);

// The exported function names of `module`, skipping `__` internals.
std::vector<std::string> ExportNames(const vm::Module& module);

// The calling convention of export `name`, or NOT_FOUND listing the exports
// (checked before any input is read, so a typo says so).
Result<vm::CallingConvention> FindFunction(const vm::Module& module,
                                           const std::string& name);

// Parses iree-run-module style inputs for a function with `cconv`: scalars
// ("i32=5", or bare "5" typed by the signature) and, for ref arguments,
// tensors ("2x2xf32=1,2,3,4"; one value fills the tensor) allocated on the
// program's device.
Result<std::vector<vm::Variant>> ParseInputs(
    const Program& program, const vm::CallingConvention& cconv,
    const std::vector<std::string>& inputs);

// The value of `--name=VALUE` in `arg`, or nullptr when arg is another flag.
const char* FlagValue(const char* arg, const char* name);

// Statistics of timing samples (non-empty).
double Min(std::vector<double> samples);
double Mean(const std::vector<double>& samples);
double Median(std::vector<double> samples);

// CPU time of the process in milliseconds (what iree-benchmark-module calls
// process_time).
double ProcessCpuMs();

}  // namespace ember::tools
