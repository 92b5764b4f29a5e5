// What the command-line tools share: loading a program file and linking it
// with the native modules it needs, over a device chosen by URI.
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "runtime/base/ref_counted.h"
#include "runtime/base/status.h"
#include "runtime/base/trace.h"
#include "runtime/hal/allocator.h"
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
  // In registration order: hal (when needed), io_parameters (when the
  // program imports it or parameters are given), check (when asked for),
  // the program.
  std::vector<std::shared_ptr<vm::Module>> modules;
};

// Loads `path` and prepares its modules. A `hal` module over `device_uri`
// is added when the program imports from `hal`; a `check` module recording
// into `check_failures` when that is not null; an `io_parameters` module
// serving `parameters` -- iree-run-module's `--parameters=[SCOPE=]FILE`
// values (irpa, gguf, safetensors; the format from the extension), files of
// one scope sharing one index -- when the program imports from
// `io_parameters` or parameters are given.
Result<Program> LoadProgram(
    const std::string& path, const std::string& device_uri,
    std::shared_ptr<modules::check::CheckFailures> check_failures = nullptr,
    const std::vector<std::string>& parameters = {});

// The exported function names of `module`, skipping `__` internals.
std::vector<std::string> ExportNames(const vm::Module& module);

// The calling convention of export `name`, or NOT_FOUND listing the exports
// (checked before any input is read, so a typo says so).
Result<vm::CallingConvention> FindFunction(const vm::Module& module,
                                           const std::string& name);

// Parses iree-run-module style values for one side of a calling convention
// (a function's arguments, or its results for --expected_output), one slot
// per value unless a value says otherwise:
//   5, i32=5, f64=0.25    scalars (a bare value takes the slot's type)
//   2x2xf32=1,2,3,4       a tensor (',', ' ', '[' and ']' separate values;
//                         one value fills the tensor)
//   2x2xf32=@raw.bin      a tensor whose bytes are read raw from a file
//                         (`=+raw.bin` continues in it)
//   @a.npy, +a.npy        the first / the next array of a .npy file
//   *a.npy                every array left in a .npy file, one slot each
//   (null), (ignored)     a null ref, or a zero scalar; for expected
//                         outputs, a result not to compare
// Tensors are allocated from `allocator` (null: a tensor is an error).
// Files named by several values are read in turn: `@` starts a file over,
// `+` and `*` continue where the previous value stopped.
enum class ValueList { kInputs, kExpectedOutputs };
Result<std::vector<vm::Variant>> ParseVariants(
    const vm::CconvSide& slots, const std::vector<std::string>& specs,
    hal::Allocator* allocator, ValueList list);

// ParseVariants of a function's arguments, tensors on the program's device.
Result<std::vector<vm::Variant>> ParseInputs(
    const Program& program, const vm::CallingConvention& cconv,
    const std::vector<std::string>& inputs);

// A result as iree-run-module prints it after "result[i]: ": "i32=5",
// "hal.buffer_view\n4xf32=1 2 3 4" (at most `max_elements` elements),
// "(null)".
Result<std::string> FormatVariant(const vm::Variant& value,
                                  uint64_t max_elements);

// Handles the --output flags, one per result in order (OUT_OF_RANGE when
// the counts differ): "" drops the result, "-" prints it to stdout,
// "@file" writes it to a new file and "+file" appends it; a file ending in
// .npy gets a NumPy array (scalars as shape-() arrays, buffers and null
// results as int8 arrays), any other file the raw bytes.
Status WriteOutputs(const std::vector<vm::Variant>& results,
                    const std::vector<std::string>& specs,
                    uint64_t max_elements);

// How --expected_output tensors are compared (iree-run-module's flags).
struct Equality {
  enum class Mode { kAbsolute, kRelative, kExact };
  Mode mode = Mode::kAbsolute;  // --equality_mode
  float f16_threshold = 0.001f;
  float f32_threshold = 0.0001f;
  double f64_threshold = 0.0001;
};

// Compares `actual` results with `expected` ones (empty entries are not
// compared) with iree-run-module's rules: integers, and floats other than
// f16/f32/f64 tensors, exactly; tensor floats within the thresholds.
// Appends one "[FAILED] result[i]: ..." report per mismatch to `report`;
// returns whether everything matched.
Result<bool> CompareResults(const std::vector<vm::Variant>& expected,
                            const std::vector<vm::Variant>& actual,
                            const Equality& equality, std::string* report);

// The value of `--name=VALUE` in `arg`, or nullptr when arg is another flag.
const char* FlagValue(const char* arg, const char* name);

// Statistics of timing samples (non-empty).
double Min(std::vector<double> samples);
double Mean(const std::vector<double>& samples);
double Median(std::vector<double> samples);

// CPU time of the process in milliseconds (what iree-benchmark-module calls
// process_time).
double ProcessCpuMs();

// EMBER_TRACE=/path/out.json: a tool's main holds one of these for its
// whole run, so the trace starts before anything loads and is written when
// main returns (a failure to write is reported on stderr).
class ScopedEnvironmentTrace {
 public:
  ScopedEnvironmentTrace() { ember::trace::StartFromEnvironment(); }
  ~ScopedEnvironmentTrace() {
    ember::Status status = ember::trace::WriteToEnvironmentPath();
    if (!status.ok()) {
      std::fprintf(stderr, "EMBER_TRACE: %s\n", status.ToString().c_str());
    }
  }
  ScopedEnvironmentTrace(const ScopedEnvironmentTrace&) = delete;
  ScopedEnvironmentTrace& operator=(const ScopedEnvironmentTrace&) = delete;
};

}  // namespace ember::tools
