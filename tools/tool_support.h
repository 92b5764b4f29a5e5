// What the command-line tools share: loading a program file and linking it
// with the native modules it needs, over a device chosen by URI.
#pragma once

#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "runtime/base/ref_counted.h"
#include "runtime/base/status.h"
#include "runtime/base/trace.h"
#include "runtime/hal/allocator.h"
#include "runtime/hal/device.h"
#include "runtime/hal/semaphore.h"
#include "runtime/modules/check/check_module.h"
#include "runtime/vm/bytecode/bytecode_module.h"
#include "runtime/vm/calling_convention.h"
#include "runtime/vm/instance.h"
#include "runtime/vm/list.h"
#include "runtime/vm/module.h"

namespace ember::tools {

struct Program {
  std::shared_ptr<vm::Instance> instance;
  std::shared_ptr<vm::bytecode::BytecodeModule> module;  // the last one
  // The first of `devices`: where inputs are made (as iree-run-module makes
  // them on its first device). Null when the program needs no `hal`.
  Ref<hal::Device> device;
  // Every --device, in order: the hal module's devices (a program compiled
  // for several target devices uses each by its ordinal).
  std::vector<Ref<hal::Device>> devices;
  // In registration order: hal (when needed), io_parameters (when the
  // program imports it or parameters are given), check (when asked for),
  // the loaded modules.
  std::vector<std::shared_ptr<vm::Module>> modules;
};

// Loads `paths` and prepares their modules. A `hal` module over the
// devices of `device_uris` is added when a module imports from `hal`; a `check`
// module recording into `check_failures` when that is not null; an
// `io_parameters` module serving `parameters` -- iree-run-module's
// `--parameters=[SCOPE=]FILE` values (irpa, gguf, safetensors; the format from
// the extension), files of one scope sharing one index -- when the program
// imports from `io_parameters` or parameters are given. Several paths load
// several modules, registered in order (each may import from the ones before
// it, as with iree-run-module's repeated --module); the last is the program
// (Program::module). `-` reads a module from stdin.
Result<Program> LoadProgram(
    const std::vector<std::string>& paths,
    const std::vector<std::string>& device_uris,
    std::shared_ptr<modules::check::CheckFailures> check_failures = nullptr,
    const std::vector<std::string>& parameters = {});

// The exported function names of `module`, skipping `__` internals.
std::vector<std::string> ExportNames(const vm::Module& module);

// The calling convention of export `name`, or NOT_FOUND listing the exports
// (checked before any input is read, so a typo says so).
Result<vm::CallingConvention> FindFunction(const vm::Module& module,
                                           const std::string& name);

// Whether export `name` of `module` is called in the coarse-fences model
// (`iree.abi.model`, --iree-execution-model=async-external): its last two
// arguments are a wait fence and a signal fence.
bool UsesCoarseFences(const vm::Module& module, const std::string& name);

// Appends what iree-run-module passes a coarse-fences function after its
// inputs: an empty wait fence and a signal fence on a new semaphore, which
// is returned for the caller to wait on once the call returns.
Ref<hal::Fence> AppendCallFences(std::vector<vm::Variant>& arguments);

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
// kApproximate is IREE 3.13's default: an element matches when
// |actual - expected| <= threshold + rtol * |expected| (computed in f64),
// NaN matches NaN, and a non-finite expected value only its own bits.
// kAbsolute (|e - a| <= threshold) and kRelative (|(e - a) / e| <=
// threshold), in the element's precision, are IREE 3.11's modes, kept for
// scripts of that version (3.13 reads their names as exact).
struct Equality {
  enum class Mode { kApproximate, kAbsolute, kRelative, kExact };
  Mode mode = Mode::kApproximate;  // --equality_mode
  float f16_threshold = 0.001f;
  float f32_threshold = 0.0001f;
  double f64_threshold = 0.0001;
  float bf16_threshold = 0.01f;  // kApproximate only, as in 3.13
  double rtol = 1e-5;            // --expected_rtol, kApproximate only
};

// Compares `actual` results with `expected` ones (empty entries are not
// compared) with iree-run-module's rules: integers, and floats other than
// f16/f32/f64 (and bf16 when approximate) tensors, exactly; tensor floats
// within the thresholds.
// Appends one "[FAILED] result[i]: ..." report per mismatch to `report`;
// returns whether everything matched.
Result<bool> CompareResults(const std::vector<vm::Variant>& expected,
                            const std::vector<vm::Variant>& actual,
                            const Equality& equality, std::string* report);

// ---------------------------------------------------------------------------
// Command lines, spelled as IREE's tools spell them, so that a script written
// for iree-run-module / iree-benchmark-module / iree-check-module runs
// unchanged:
//   --name=VALUE     the only form that sets a value. Whitespace around the
//                    argument, the name and the value is dropped, and a
//                    string value in double quotes loses them (`--f="x"`).
//   --name           a boolean set to true; for other flags the empty value
//                    (so `--module x.vmfb` means an empty --module, and
//                    `x.vmfb` is a positional argument, as in IREE).
//   --name=true|1|false|0
//                    booleans (Ember refuses other words where IREE reads
//                    them as false; Google Benchmark's flags take its
//                    yes/no/on/off too).
//   anything not starting with `--` (`-name=...` included) is positional:
//                    iree-run-module ignores those; the tools say which
//                    they take.
//   --flagfile=PATH  reads one `--name=VALUE` per line (`#` and `//` lines
//                    are comments), in place; the `--` lines of IREE's
//                    `--help` output make one (every flag at its default).
// There is no `--noname` form (IREE has none). A later value of a flag
// replaces an earlier one; list flags (--input, ...) collect every value.
//
// Each tool registers its flags in one of three kinds:
//   implemented   the flag does what IREE's does;
//   ignored       accepted with any valid value: it only tunes IREE
//                 internals that Ember has no counterpart of, so it cannot
//                 change what a run computes or prints (help lists why);
//   default-only  accepted at IREE's default (where it is a no-op), and any
//                 other value is refused as UNIMPLEMENTED naming the flag
//                 (e.g. --trace_execution=true): such a flag would change
//                 what the run does or reports.
// Unknown flags are errors, as in iree-run-module (iree-benchmark-module
// ignores them; Ember does not). Errors exit with status 2.
class Flags {
 public:
  // Sets a flag from its value (already trimmed and unquoted); an error
  // says what is wrong with the value.
  using Handler = std::function<Status(const std::string& value)>;

  // `tool` names the tool in messages; `usage` opens --help.
  Flags(std::string tool, std::string usage);

  // Starts a titled group of flags in --help.
  void Section(std::string title);
  // An implemented flag with a handler; `hint` shows the value's form in
  // --help ("" for a boolean).
  void Add(std::string name, std::string hint, std::string help,
           Handler handler);
  void String(std::string name, std::string hint, std::string help,
              std::string* out);
  void List(std::string name, std::string hint, std::string help,
            std::vector<std::string>* out);
  // IREE's boolean (true, 1 or nothing: true; false or 0: false).
  void Bool(std::string name, std::string help, bool* out);
  // Google Benchmark's boolean: also yes/no/on/off/y/n/t/f, any case.
  void BenchmarkBool(std::string name, std::string help, bool* out);
  // A whole number in [minimum, maximum].
  void Int(std::string name, std::string hint, std::string help,
           int64_t minimum, int64_t maximum, int64_t* out);
  // An ignored flag: `check` (optional) validates the value as IREE would.
  void Ignored(std::string name, std::string hint, std::string why,
               Handler check = nullptr);
  // A default-only flag; `default_value` is IREE's ("" for strings that
  // default to empty, "false" for booleans).
  void DefaultOnly(std::string name, std::string hint, std::string help,
                   std::string default_value);

  // Parses argv[1..]. Positional arguments are appended to `positional`.
  // Returns -1 to go on, or the exit status to return now (0 after
  // --help, 2 after an error, which has been printed on stderr).
  int Parse(int argc, char** argv, std::vector<std::string>* positional);

  void PrintHelp(std::FILE* out) const;
  // "TOOL: message" on stderr.
  void Complain(const std::string& message) const;

 private:
  enum class Kind { kImplemented, kIgnored, kDefaultOnly, kSection };
  struct Flag {
    std::string name;
    std::string hint;
    std::string help;
    Kind kind;
    Handler handler;
  };
  const Flag* Find(std::string_view name) const;
  // One `--name[=value]` argument (the leading dashes removed); `origin`
  // says where it came from ("" or "FILE:LINE").
  Status ParseOne(std::string_view text, const std::string& origin, int depth);
  Status ParseFlagFile(const std::string& path, int depth);

  std::string tool_;
  std::string usage_;
  std::vector<Flag> flags_;
  bool help_ = false;
};

// The flags every tool shares with IREE's tools: modules, devices, the task
// system, parameters, and the diagnostics Ember does not have.
struct CommonOptions {
  std::vector<std::string> modules;     // --module, in order; the last is main
  std::vector<std::string> devices;     // --device (one, at most)
  std::vector<std::string> allocators;  // --device_allocator
  std::vector<std::string> parameters;  // --parameters=[SCOPE=]FILE
  int64_t group_count = 0;              // --task_topology_group_count
  int64_t max_group_count = 64;         // --task_topology_max_group_count
  bool list_drivers = false;
  bool list_devices = false;
  std::string list_devices_driver;  // --list_devices=DRIVER
  bool dump_devices = false;
  std::string dump_devices_driver;
};

// Registers the shared flags into `flags`, storing into `options`.
void AddCommonFlags(Flags& flags, CommonOptions* options);

// Handles --list_drivers / --list_devices / --dump_devices: prints what
// IREE's tools print for Ember's drivers and returns true (the tool then
// exits 0), or returns false when none was given.
bool ListDevicesIfAsked(const CommonOptions& options);

// The rest of a tool's main once its flags are parsed: each positional
// argument is reported and ignored (IREE's tools ignore them silently, so a
// forgotten `=` in `--module x.vmfb` would go unnoticed), --list_devices &
// co. are answered, then `run` gives the exit code; its error is printed
// after whatever it wrote to stdout, and exits 1.
int FinishMain(const Flags& flags, const std::vector<std::string>& positional,
               const CommonOptions& options,
               const std::function<Result<int>()>& run);

// The device URI the flags select: --device (default local-task), with
// local-task's worker count from the task topology flags when the URI does
// not set one: --task_topology_group_count when non-zero, else the host's
// physical cores (as IREE's default topology) capped at
// --task_topology_max_group_count. INVALID_ARGUMENT or UNIMPLEMENTED for
// what Ember cannot honour (several devices, a `debug` allocator).
Result<std::vector<std::string>> SelectDevices(const CommonOptions& options);

// LoadProgram over the modules, device and parameters of `options`
// (SelectDevice's errors, and INVALID_ARGUMENT when no --module was given).
Result<Program> LoadProgramFromFlags(
    const CommonOptions& options,
    std::shared_ptr<modules::check::CheckFailures> check_failures = nullptr);

// The function --function names, or when it is empty the module's only
// export that is not internal (no `__` prefix, no `$`), as
// iree-run-module picks it; INVALID_ARGUMENT listing the exports when
// there are several or none.
Result<std::string> ResolveFunction(const vm::Module& module,
                                    const std::string& function);

// Prints the device allocator's statistics on stderr as iree-run-module's
// --print_statistics does ("Device: ID" and IREE's memory statistics
// block); nothing when the program has no device.
void PrintStatistics(const Program& program);

// What iree-run-module (and iree-benchmark-module with
// --enable_output_processing) does with a call's results.
struct ResultOptions {
  std::vector<std::string> outputs;           // --output
  std::vector<std::string> expected_outputs;  // --expected_output
  int64_t output_max_element_count = 1024;
  Equality equality;
};

// Registers --output, --expected_output, --output_max_element_count and the
// comparison flags.
void AddResultFlags(Flags& flags, ResultOptions* options);

// Handles `results` of a function with `cconv` as iree-run-module does:
// with --expected_output compares them ("[FAILED] ..." lines, or
// "[SUCCESS] ..."; the exit status is 1 on a mismatch), else with --output
// writes them, else prints "result[i]: ...". Returns the exit status.
Result<int> ProcessResults(const ResultOptions& options,
                           const vm::CallingConvention& cconv,
                           const std::vector<vm::Variant>& results);

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
