// ember-benchmark-module: times exported functions, with
// iree-benchmark-module's flags (IREE's own and the Google Benchmark ones it
// passes on) and its report formats. tools/tool_support.h says how flags
// are spelled and which are accepted; `--help` lists them, one line each.
//
//   ember-benchmark-module --module=FILE [--function=NAME] [--device=URI]
//       [--input=VALUE ...] [--benchmark_repetitions=N]
//       [--benchmark_min_time=2s|100x] [--benchmark_min_warmup_time=S]
//       [--task_topology_max_group_count=N]
//       [--benchmark_format=console|json|csv] [--benchmark_out=FILE]
//       [--benchmark_out_format=json|console|csv]
//
// With --function, that function is benchmarked with the --input values
// (parsed once, as IREE's tool does); without it, as in IREE, every export
// that takes no arguments (not `__` internals or `$` variants) is, one
// benchmark each, in export order, and --benchmark_filter (a POSIX extended
// regex; a leading `-` negates it) picks among them.
//
// A benchmark makes one untimed call (first-call work is not what is
// measured), then calls for --benchmark_min_warmup_time seconds untimed,
// then measures: calls until --benchmark_min_time has passed (seconds, or
// a fixed number of iterations with an `x` suffix; default 0.5s), repeated
// --benchmark_repetitions times (default 1). --batch_size=N counts each
// call as N iterations (for modules compiled with
// --iree-hal-benchmark-dispatch-repeat-count=N). Each repetition reports
// one row, `BM_<function>/process_time/real_time`, with the wall time and
// the process CPU time per iteration (in --time_unit: ms by default, us,
// ns) and items_per_second; with several repetitions the `_mean`,
// `_median`, `_stddev` and `_cv` rows follow, as Google Benchmark
// aggregates them (--benchmark_report_aggregates_only keeps only those,
// --benchmark_display_aggregates_only only on the console).
// --benchmark_format=json prints the rows as Google Benchmark's JSON
// reporter does (a "context" object -- --benchmark_context=k=v,... adds to
// it -- and a "benchmarks" array with run_type, aggregate_name, real_time,
// cpu_time, time_unit), csv as its CSV reporter; --benchmark_out=FILE
// writes the report to FILE as well, in --benchmark_out_format (json
// unless told). --benchmark_list_tests prints the names and exits;
// --benchmark_dry_run runs each benchmark once.
//
// --enable_output_processing handles the results of the last call as
// iree-run-module does (--output, --expected_output; a mismatch exits 1).
// --print_statistics prints the device allocator's statistics at exit.
//
// Exit status: 0 on success, 1 when loading or a call fails (or an
// expected output differs), 2 on bad usage (an unknown flag, a bad value,
// or a flag Ember does not implement).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/vm/context.h"
#include "tools/tool_support.h"

namespace {

using ember::Result;
using ember::Status;
using ember::tools::ProcessCpuMs;

enum class Format { kConsole, kJson, kCsv };

struct Options {
  ember::tools::CommonOptions common;
  ember::tools::ResultOptions results;
  std::string function;
  std::vector<std::string> inputs;
  bool print_statistics = false;
  bool enable_output_processing = false;
  int64_t batch_size = 1;
  std::string time_unit = "ms";
  // Google Benchmark's.
  int64_t repetitions = 1;
  double min_seconds = 0.5;
  int64_t fixed_iterations = 0;  // > 0: exactly this many per repetition
  double min_warmup_seconds = 0;
  bool list_tests = false;
  std::string filter;
  bool dry_run = false;
  bool random_interleaving = false;
  bool report_aggregates_only = false;
  bool display_aggregates_only = false;
  Format format = Format::kConsole;
  std::string out_path;  // --benchmark_out: the report again, in a file
  Format out_format = Format::kJson;
  std::vector<std::pair<std::string, std::string>> context;
};

struct Row {
  std::string suffix;   // "" for a repetition, else the aggregate's name
  double wall_seconds;  // per iteration (a fraction for "cv")
  double cpu_seconds;
  int64_t iterations;  // a repetition's iterations, or the repetition count
  double items_per_second;
  int repetition_index;  // repetitions only
};

// One benchmark: a function and its arguments.
struct Benchmark {
  std::string function;
  std::string name;  // BM_<function>/process_time/real_time
  ember::vm::Function handle;
  ember::vm::CallingConvention cconv;
  std::vector<ember::vm::Variant> arguments;
  std::vector<ember::vm::Variant> results;  // of the last call
  bool coarse_fences = false;  // each call gets fences and is waited for
  std::vector<Row> rows;
};

Result<Format> ParseFormat(const std::string& value) {
  if (value == "console") return Format::kConsole;
  if (value == "json") return Format::kJson;
  if (value == "csv") return Format::kCsv;
  return ember::InvalidArgumentError(
      "the format must be console or json (or "
      "csv), not '" +
      value + "'");
}

double UnitScale(const std::string& unit) {
  if (unit == "us") return 1e6;
  if (unit == "ns") return 1e9;
  return 1e3;
}

std::string Quoted(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char buffer[8];
      std::snprintf(buffer, sizeof(buffer), "\\u%04x", c);
      out += buffer;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

// Google Benchmark's JSON report (schema version 1), the fields scripts
// read. Benchmark names are made of function names, which the module
// loader has checked to be printable, but are escaped all the same.
void PrintJson(std::FILE* out, const Options& options,
               const std::vector<const Benchmark*>& benchmarks,
               bool aggregates_only) {
  const double scale = UnitScale(options.time_unit);
  std::fprintf(
      out,
      "{\n  \"context\": {\n    \"executable\": \"ember-benchmark-module\",\n");
  for (const auto& [key, value] : options.context) {
    std::fprintf(out, "    %s: %s,\n", Quoted(key).c_str(),
                 Quoted(value).c_str());
  }
  std::fprintf(out,
               "    \"json_schema_version\": 1\n  },\n  \"benchmarks\": [\n");
  bool first = true;
  for (size_t b = 0; b < benchmarks.size(); ++b) {
    const Benchmark& benchmark = *benchmarks[b];
    const bool has_aggregates =
        benchmark.rows.size() > 1 && !benchmark.rows.back().suffix.empty();
    long long repetitions = 0;
    for (const Row& row : benchmark.rows) repetitions += row.suffix.empty();
    for (const Row& row : benchmark.rows) {
      const bool aggregate = !row.suffix.empty();
      if (aggregates_only && has_aggregates && !aggregate) continue;
      const std::string row_name =
          aggregate ? benchmark.name + "_" + row.suffix : benchmark.name;
      std::fprintf(out, "%s    {\n      \"name\": %s,\n", first ? "" : ",\n",
                   Quoted(row_name).c_str());
      first = false;
      std::fprintf(out,
                   "      \"family_index\": %zu,\n"
                   "      \"per_family_instance_index\": 0,\n"
                   "      \"run_name\": %s,\n",
                   b, Quoted(benchmark.name).c_str());
      std::fprintf(out,
                   "      \"run_type\": \"%s\",\n"
                   "      \"repetitions\": %lld,\n",
                   aggregate ? "aggregate" : "iteration", repetitions);
      if (aggregate) {
        std::fprintf(out,
                     "      \"threads\": 1,\n"
                     "      \"aggregate_name\": %s,\n"
                     "      \"aggregate_unit\": \"%s\",\n",
                     Quoted(row.suffix).c_str(),
                     row.suffix == "cv" ? "percentage" : "time");
      } else {
        std::fprintf(out,
                     "      \"repetition_index\": %d,\n"
                     "      \"threads\": 1,\n",
                     row.repetition_index);
      }
      // The cv row is a fraction; Google Benchmark does not scale it.
      const double row_scale = row.suffix == "cv" ? 1 : scale;
      std::fprintf(out,
                   "      \"iterations\": %lld,\n"
                   "      \"real_time\": %.17g,\n      \"cpu_time\": %.17g,\n"
                   "      \"time_unit\": \"%s\",\n"
                   "      \"items_per_second\": %.17g\n    }",
                   static_cast<long long>(row.iterations),
                   row.wall_seconds * row_scale, row.cpu_seconds * row_scale,
                   options.time_unit.c_str(), row.items_per_second);
    }
  }
  std::fprintf(out, "\n  ]\n}\n");
}

// Google Benchmark's CSV report.
void PrintCsv(std::FILE* out, const Options& options,
              const std::vector<const Benchmark*>& benchmarks,
              bool aggregates_only) {
  const double scale = UnitScale(options.time_unit);
  std::fprintf(out,
               "name,iterations,real_time,cpu_time,time_unit,bytes_per_second,"
               "items_per_second,label,error_occurred,error_message\n");
  for (const Benchmark* benchmark : benchmarks) {
    const bool has_aggregates =
        benchmark->rows.size() > 1 && !benchmark->rows.back().suffix.empty();
    for (const Row& row : benchmark->rows) {
      if (aggregates_only && has_aggregates && row.suffix.empty()) continue;
      const bool cv = row.suffix == "cv";
      const std::string name = row.suffix.empty()
                                   ? benchmark->name
                                   : benchmark->name + "_" + row.suffix;
      std::fprintf(out, "%s,%lld,%g,%g,%s,,%g,,,\n", Quoted(name).c_str(),
                   static_cast<long long>(row.iterations),
                   row.wall_seconds * (cv ? 1 : scale),
                   row.cpu_seconds * (cv ? 1 : scale),
                   cv ? "" : options.time_unit.c_str(), row.items_per_second);
    }
  }
}

// A rate as Google Benchmark's console shows it: 2.45517k, 3.3962M.
std::string HumanRate(double value) {
  const char* prefixes[] = {"", "k", "M", "G", "T", "P"};
  int prefix = 0;
  while (std::fabs(value) >= 1000 && prefix < 5) {
    value /= 1000;
    ++prefix;
  }
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%g%s/s", value, prefixes[prefix]);
  return buffer;
}

void PrintConsole(std::FILE* out, const Options& options,
                  const std::vector<const Benchmark*>& benchmarks,
                  bool aggregates_only) {
  const double scale = UnitScale(options.time_unit);
  const char* unit = options.time_unit.c_str();
  size_t width = 10;
  for (const Benchmark* benchmark : benchmarks) {
    width = std::max(width, benchmark->name.size() + 7);  // "_median"
  }
  const std::string rule(width + 64, '-');
  std::fprintf(out, "%s\n%-*s %13s %15s %12s UserCounters...\n%s\n",
               rule.c_str(), static_cast<int>(width), "Benchmark", "Time",
               "CPU", "Iterations", rule.c_str());
  for (const Benchmark* benchmark : benchmarks) {
    const bool has_aggregates =
        benchmark->rows.size() > 1 && !benchmark->rows.back().suffix.empty();
    for (const Row& row : benchmark->rows) {
      if (aggregates_only && has_aggregates && row.suffix.empty()) continue;
      const std::string name = row.suffix.empty()
                                   ? benchmark->name
                                   : benchmark->name + "_" + row.suffix;
      if (row.suffix == "cv") {
        std::fprintf(out,
                     "%-*s %10.2f %% %13.2f %% %12lld "
                     "items_per_second=%.2f%%\n",
                     static_cast<int>(width), name.c_str(),
                     100 * row.wall_seconds, 100 * row.cpu_seconds,
                     static_cast<long long>(row.iterations),
                     100 * row.items_per_second);
      } else {
        std::fprintf(out,
                     "%-*s %10.3f %-2s %12.3f %-2s %12lld "
                     "items_per_second=%s\n",
                     static_cast<int>(width), name.c_str(),
                     row.wall_seconds * scale, unit, row.cpu_seconds * scale,
                     unit, static_cast<long long>(row.iterations),
                     HumanRate(row.items_per_second).c_str());
      }
    }
  }
}

Status Report(std::FILE* out, Format format, const Options& options,
              const std::vector<const Benchmark*>& benchmarks,
              bool aggregates_only) {
  switch (format) {
    case Format::kConsole:
      PrintConsole(out, options, benchmarks, aggregates_only);
      break;
    case Format::kJson:
      PrintJson(out, options, benchmarks, aggregates_only);
      break;
    case Format::kCsv:
      PrintCsv(out, options, benchmarks, aggregates_only);
      break;
  }
  return Status::Ok();
}

// Calls the benchmark's function once, keeping its results.
Status Call(ember::vm::Context& context, Benchmark& benchmark) {
  // The previous call's results go before the next call, as IREE resets
  // its output list.
  for (ember::vm::Variant& result : benchmark.results) {
    result = ember::vm::Variant();
  }
  if (!benchmark.coarse_fences) {
    return context.Invoke(benchmark.handle, benchmark.arguments,
                          benchmark.results);
  }
  // As IREE's asynchronous benchmark: fresh fences per call, and the call
  // counts until its signal fence is reached.
  std::vector<ember::vm::Variant> arguments = benchmark.arguments;
  ember::Ref<ember::hal::Fence> signal =
      ember::tools::AppendCallFences(arguments);
  EMBER_RETURN_IF_ERROR(
      context.Invoke(benchmark.handle, arguments, benchmark.results));
  return signal->Wait(ember::hal::Timeout::Infinite());
}

// One measured repetition.
Result<Row> Measure(ember::vm::Context& context, Benchmark& benchmark,
                    const Options& options, int repetition) {
  const int64_t batch = options.batch_size;
  const int64_t fixed =
      options.dry_run ? 1 : options.fixed_iterations;  // iterations
  int64_t calls = 0;
  const double cpu_start = ProcessCpuMs();
  const auto start = std::chrono::steady_clock::now();
  double elapsed = 0;
  // The clock is read between rounds of calls, not per call (a read costs
  // about as much as 1% of a small call): a fixed count runs as one round,
  // a minimum time in rounds that double up to 1024 calls.
  int64_t round = fixed > 0 ? (fixed + batch - 1) / batch : 1;
  while (true) {
    for (int64_t i = 0; i < round; ++i) {
      EMBER_RETURN_IF_ERROR(Call(context, benchmark));
    }
    calls += round;
    elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    if (fixed > 0 || elapsed >= options.min_seconds) break;
    round = std::min<int64_t>(round * 2, 1024);
  }
  const double cpu_seconds = (ProcessCpuMs() - cpu_start) / 1e3;
  // Google Benchmark's KeepRunningBatch: each call is `batch` iterations.
  const int64_t iterations = calls * batch;
  const double n = static_cast<double>(iterations);
  return Row{"",
             elapsed / n,
             cpu_seconds / n,
             iterations,
             elapsed > 0 ? n / elapsed : 0,
             repetition};
}

void Aggregate(Benchmark& benchmark) {
  const size_t count = benchmark.rows.size();
  if (count < 2) return;
  auto column = [&](double Row::*field) {
    std::vector<double> values;
    for (const Row& row : benchmark.rows) values.push_back(row.*field);
    return values;
  };
  auto mean = ember::tools::Mean;
  auto median = ember::tools::Median;
  auto stddev = [&](const std::vector<double>& v) {
    const double m = mean(v);
    double sum = 0;
    for (double x : v) sum += (x - m) * (x - m);
    return std::sqrt(sum / static_cast<double>(v.size() - 1));
  };
  auto cv = [&](const std::vector<double>& v) {
    const double m = mean(v);
    return m == 0 ? 0 : stddev(v) / m;
  };
  const auto wall = column(&Row::wall_seconds);
  const auto cpu = column(&Row::cpu_seconds);
  const auto rate = column(&Row::items_per_second);
  const int64_t n = static_cast<int64_t>(count);
  benchmark.rows.push_back({"mean", mean(wall), mean(cpu), n, mean(rate), 0});
  benchmark.rows.push_back(
      {"median", median(wall), median(cpu), n, median(rate), 0});
  benchmark.rows.push_back(
      {"stddev", stddev(wall), stddev(cpu), n, stddev(rate), 0});
  // The coefficient of variation is a fraction, not a time.
  benchmark.rows.push_back({"cv", cv(wall), cv(cpu), n, cv(rate), 0});
}

// Whether `name` passes --benchmark_filter.
Result<bool> Matches(const std::string& filter, const std::string& name) {
  if (filter.empty() || filter == "." || filter == "all") return true;
  // std::regex compiles and matches recursively: a bound keeps a
  // pathological pattern from exhausting the stack.
  if (filter.size() > 1024) {
    return ember::InvalidArgumentError(
        "--benchmark_filter: the pattern is over 1024 characters");
  }
  const bool negate = filter[0] == '-';
  const std::string pattern = negate ? filter.substr(1) : filter;
  try {
    const std::regex regex(pattern, std::regex::extended);
    return std::regex_search(name, regex) != negate;
  } catch (const std::regex_error&) {
    return ember::InvalidArgumentError("--benchmark_filter: '" + filter +
                                       "' is not a valid regular expression");
  }
}

Result<int> Run(const Options& options) {
  EMBER_ASSIGN_OR_RETURN(ember::tools::Program program,
                         ember::tools::LoadProgramFromFlags(options.common));
  const auto& module = *program.module;
  std::vector<Benchmark> benchmarks;
  if (!options.function.empty()) {
    Benchmark benchmark;
    benchmark.function = options.function;
    EMBER_ASSIGN_OR_RETURN(
        benchmark.cconv, ember::tools::FindFunction(module, options.function));
    EMBER_ASSIGN_OR_RETURN(
        benchmark.arguments,
        ember::tools::ParseInputs(program, benchmark.cconv, options.inputs));
    benchmarks.push_back(std::move(benchmark));
  } else {
    // As IREE: every runnable export that takes nothing.
    for (const std::string& name : ember::tools::ExportNames(module)) {
      if (name.find('$') != std::string::npos) continue;
      EMBER_ASSIGN_OR_RETURN(auto cconv,
                             ember::tools::FindFunction(module, name));
      // A coarse-fences function takes nothing but its two fences.
      const size_t fences =
          ember::tools::UsesCoarseFences(module, name) ? 2 : 0;
      if (cconv.arguments.size() != fences || cconv.arguments.has_span) {
        continue;
      }
      Benchmark benchmark;
      benchmark.function = name;
      benchmark.cconv = std::move(cconv);
      benchmarks.push_back(std::move(benchmark));
    }
  }
  std::vector<Benchmark*> selected;
  for (Benchmark& benchmark : benchmarks) {
    benchmark.name = "BM_" + benchmark.function + "/process_time/real_time";
    benchmark.coarse_fences =
        ember::tools::UsesCoarseFences(module, benchmark.function);
    EMBER_ASSIGN_OR_RETURN(bool match, Matches(options.filter, benchmark.name));
    if (match) selected.push_back(&benchmark);
  }
  if (selected.empty()) {
    std::fprintf(stderr, "Failed to match any benchmarks against regex: %s\n",
                 options.filter.empty() ? "." : options.filter.c_str());
    return 0;
  }
  if (options.list_tests) {
    for (const Benchmark* benchmark : selected) {
      std::printf("%s\n", benchmark->name.c_str());
    }
    return 0;
  }

  EMBER_ASSIGN_OR_RETURN(auto context, ember::vm::Context::Create(
                                           program.instance, program.modules));
  for (Benchmark* benchmark : selected) {
    EMBER_ASSIGN_OR_RETURN(benchmark->handle,
                           context->LookupFunction(std::string(module.name()) +
                                                   "." + benchmark->function));
    // The result slots, made once: the timed loop measures the call, not a
    // parse of the cconv and a vector per call.
    EMBER_ASSIGN_OR_RETURN(size_t result_count,
                           ember::vm::CountCconvResults(benchmark->cconv.text));
    benchmark->results.resize(result_count);
  }

  const int repetitions =
      options.dry_run ? 1 : static_cast<int>(options.repetitions);
  // The (benchmark, repetition) pairs in the order they run: in order, or
  // shuffled with --benchmark_enable_random_interleaving.
  std::vector<std::pair<Benchmark*, int>> order;
  for (Benchmark* benchmark : selected) {
    for (int r = 0; r < repetitions; ++r) order.emplace_back(benchmark, r);
  }
  if (options.random_interleaving) {
    std::shuffle(order.begin(), order.end(),
                 std::mt19937_64(std::random_device()()));
  }
  std::vector<bool> warmed(benchmarks.size(), false);
  for (auto& [benchmark, repetition] : order) {
    const size_t index = static_cast<size_t>(benchmark - benchmarks.data());
    if (!warmed[index]) {
      warmed[index] = true;
      // One untimed call: first-call work (quickened copies, lazy state) is
      // not what the benchmark measures; then the asked-for warm-up.
      EMBER_RETURN_IF_ERROR(Call(*context, *benchmark));
      if (!options.dry_run && options.min_warmup_seconds > 0) {
        const auto start = std::chrono::steady_clock::now();
        while (std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                             start)
                   .count() < options.min_warmup_seconds) {
          EMBER_RETURN_IF_ERROR(Call(*context, *benchmark));
        }
      }
    }
    EMBER_ASSIGN_OR_RETURN(Row row,
                           Measure(*context, *benchmark, options, repetition));
    benchmark->rows.push_back(row);
  }
  std::vector<const Benchmark*> reported;
  for (Benchmark* benchmark : selected) {
    std::sort(benchmark->rows.begin(), benchmark->rows.end(),
              [](const Row& a, const Row& b) {
                return a.repetition_index < b.repetition_index;
              });
    Aggregate(*benchmark);
    reported.push_back(benchmark);
  }

  EMBER_RETURN_IF_ERROR(Report(
      stdout, options.format, options, reported,
      options.report_aggregates_only || options.display_aggregates_only));
  std::fflush(stdout);
  if (!options.out_path.empty()) {
    std::FILE* out = std::fopen(options.out_path.c_str(), "w");
    if (out == nullptr) {
      return ember::UnavailableError("cannot write --benchmark_out file '" +
                                     options.out_path + "'");
    }
    Status status = Report(out, options.out_format, options, reported,
                           options.report_aggregates_only);
    if (std::fclose(out) != 0 && status.ok()) {
      status = ember::DataLossError("error writing '" + options.out_path + "'");
    }
    EMBER_RETURN_IF_ERROR(std::move(status));
  }

  int exit_code = 0;
  if (options.enable_output_processing && !options.function.empty()) {
    // The results of the last call, as IREE keeps them.
    EMBER_ASSIGN_OR_RETURN(exit_code, ember::tools::ProcessResults(
                                          options.results, selected[0]->cconv,
                                          selected[0]->results));
    std::fflush(stdout);
  }
  for (Benchmark& benchmark : benchmarks) {
    benchmark.results.clear();
    benchmark.arguments.clear();
  }
  if (options.print_statistics) ember::tools::PrintStatistics(program);
  return exit_code;
}

constexpr char kUsage[] =
    "usage: ember-benchmark-module --module=FILE [--function=NAME] "
    "[--device=URI]\n"
    "       [--input=VALUE ...] [--benchmark_repetitions=N] "
    "[--benchmark_min_time=Xs|Nx] ...\n"
    "Times exported functions of a .vmfb (without --function: every one "
    "taking no\narguments), as iree-benchmark-module.";

void AddFlags(ember::tools::Flags& flags, Options* options) {
  using ember::InvalidArgumentError;
  flags.Section("Function");
  flags.String("function", "NAME",
               "the export to time (default: every export taking nothing)",
               &options->function);
  flags.List("input", "VALUE", "an argument, as ember-run-module's --input",
             &options->inputs);
  flags.Int("batch_size", "N", "iterations each call counts for (default 1)", 1,
            INT32_MAX, &options->batch_size);
  flags.Ignored(
      "batch_concurrency", "N",
      "calls of coarse-fences functions overlap; here they run one at a time",
      [](const std::string& value) -> Status {
        if (std::atoi(value.c_str()) >= 1) return Status::Ok();
        return InvalidArgumentError("'" + value + "' is not a count >= 1");
      });
  flags.Add("time_unit", "ms|us|ns", "the unit of reported times (default ms)",
            [options](const std::string& value) -> Status {
              if (value != "ms" && value != "us" && value != "ns") {
                return InvalidArgumentError("unsupported time unit '" + value +
                                            "' (ms, us, ns)");
              }
              options->time_unit = value;
              return Status::Ok();
            });
  flags.Bool("print_statistics",
             "prints the device allocator's statistics to stderr on exit",
             &options->print_statistics);
  flags.Bool("enable_output_processing",
             "handles the last call's results as ember-run-module "
             "(--output, --expected_output)",
             &options->enable_output_processing);
  flags.DefaultOnly("dispatch_statistics", "", "per-dispatch time rows",
                    "false");
  ember::tools::AddResultFlags(flags, &options->results);
  ember::tools::AddCommonFlags(flags, &options->common);

  flags.Section("Google Benchmark");
  flags.BenchmarkBool("benchmark_list_tests",
                      "prints the benchmarks' names and exits",
                      &options->list_tests);
  flags.String("benchmark_filter", "REGEX",
               "runs the benchmarks whose name matches (-REGEX: does not)",
               &options->filter);
  flags.Add(
      "benchmark_min_time", "Xs|Nx",
      "X seconds (default 0.5s) or N iterations per repetition",
      [options](std::string value) -> Status {
        char* end = nullptr;
        if (!value.empty() && value.back() == 'x') {
          const long long n = std::strtoll(value.c_str(), &end, 10);
          if (*end != 'x' || end + 1 != value.c_str() + value.size() || n < 1) {
            return InvalidArgumentError("'" + value +
                                        "' is not a count such as 10x");
          }
          options->fixed_iterations = n;
          return Status::Ok();
        }
        if (!value.empty() && value.back() == 's') value.pop_back();
        const double seconds = std::strtod(value.c_str(), &end);
        if (value.empty() || *end != '\0' || !(seconds >= 0) ||
            !std::isfinite(seconds)) {
          return InvalidArgumentError("'" + value +
                                      "' is not a time such as 0.5s");
        }
        options->min_seconds = seconds;
        options->fixed_iterations = 0;
        return Status::Ok();
      });
  flags.Add("benchmark_min_warmup_time", "X",
            "seconds of untimed calls before measuring (default 0)",
            [options](const std::string& value) -> Status {
              char* end = nullptr;
              const double seconds = std::strtod(value.c_str(), &end);
              if (value.empty() || *end != '\0' || !(seconds >= 0) ||
                  !std::isfinite(seconds)) {
                return InvalidArgumentError("'" + value +
                                            "' is not a number of seconds");
              }
              options->min_warmup_seconds = seconds;
              return Status::Ok();
            });
  flags.Int("benchmark_repetitions", "N",
            "measurements per benchmark, aggregated when > 1 (default 1)", 1,
            1000000, &options->repetitions);
  flags.BenchmarkBool("benchmark_dry_run",
                      "one iteration, one repetition, no warm-up",
                      &options->dry_run);
  flags.BenchmarkBool("benchmark_enable_random_interleaving",
                      "runs the benchmarks' repetitions in a random order",
                      &options->random_interleaving);
  flags.BenchmarkBool("benchmark_report_aggregates_only",
                      "reports only the aggregate rows",
                      &options->report_aggregates_only);
  flags.BenchmarkBool("benchmark_display_aggregates_only",
                      "shows only the aggregate rows on stdout",
                      &options->display_aggregates_only);
  flags.Add("benchmark_format", "console|json|csv",
            "the report's format on stdout (default console)",
            [options](const std::string& value) -> Status {
              EMBER_ASSIGN_OR_RETURN(options->format, ParseFormat(value));
              return Status::Ok();
            });
  flags.String("benchmark_out", "FILE", "writes the report to FILE too",
               &options->out_path);
  flags.Add("benchmark_out_format", "json|console|csv",
            "the format of --benchmark_out (default json)",
            [options](const std::string& value) -> Status {
              EMBER_ASSIGN_OR_RETURN(options->out_format, ParseFormat(value));
              return Status::Ok();
            });
  flags.Add("benchmark_context", "KEY=VALUE,...",
            "adds KEY: VALUE to the JSON report's context",
            [options](const std::string& value) -> Status {
              std::string_view rest = value;
              while (!rest.empty()) {
                const std::string_view pair = rest.substr(0, rest.find(','));
                rest.remove_prefix(std::min(rest.size(), pair.size() + 1));
                const size_t equals = pair.find('=');
                if (equals == std::string_view::npos || equals == 0) {
                  return InvalidArgumentError("'" + std::string(pair) +
                                              "' is not KEY=VALUE");
                }
                options->context.emplace_back(pair.substr(0, equals),
                                              pair.substr(equals + 1));
              }
              return Status::Ok();
            });
  flags.Ignored("benchmark_color", "auto|true|false",
                "Ember's console report is never colored");
  flags.Ignored("benchmark_counters_tabular", "BOOL",
                "the one counter, items_per_second, is one column already");
  flags.Ignored("benchmark_time_unit", "ns|us|ms|s",
                "IREE sets each benchmark's unit (see --time_unit), so this "
                "changes nothing there either");
  flags.Ignored("v", "N", "Google Benchmark's log verbosity");
}

}  // namespace

int main(int argc, char** argv) {
  ember::tools::ScopedEnvironmentTrace trace_from_environment;
  Options options;
  ember::tools::Flags flags("ember-benchmark-module", kUsage);
  AddFlags(flags, &options);
  std::vector<std::string> positional;
  const int parsed = flags.Parse(argc, argv, &positional);
  if (parsed >= 0) return parsed;
  return ember::tools::FinishMain(flags, positional, options.common,
                                  [&] { return Run(options); });
}
