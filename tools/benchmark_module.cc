// ember-benchmark-module: times one exported function, with
// iree-benchmark-module's main flags and its report format.
//
//   ember-benchmark-module --module=FILE --function=NAME [--device=URI]
//       [--input=VALUE ...] [--benchmark_repetitions=N]
//       [--benchmark_min_time=2s|100x] [--task_topology_max_group_count=N]
//       [--benchmark_format=console|json] [--benchmark_out=FILE]
//       [--benchmark_out_format=json|console]
//
// The function is called in one context (inputs parsed once, as IREE's tool
// does) until --benchmark_min_time has passed (seconds, or a fixed number of
// iterations with an `x` suffix; default 0.5s), and that measurement is
// repeated --benchmark_repetitions times (default 1). Each repetition prints
// one row, `BM_<function>/process_time/real_time`, with the wall time and
// the process CPU time per iteration; with several repetitions the
// `_mean`, `_median`, `_stddev` and `_cv` rows follow, as Google Benchmark
// aggregates them. --task_topology_max_group_count=N makes `local-task` use
// N workers. --benchmark_format=json prints the same rows as Google
// Benchmark's JSON reporter does (a "context" object and a "benchmarks"
// array with run_type, aggregate_name, real_time, cpu_time, time_unit "ms"),
// so scripts can read either tool's output with one parser;
// --benchmark_out=FILE writes the report to FILE as well, in
// --benchmark_out_format (json unless told).
//
// Exit status: 0 on success, 1 when loading or a call fails, 2 on bad usage.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/vm/context.h"
#include "tools/tool_support.h"

namespace {

using ember::Status;
using ember::tools::FlagValue;
using ember::tools::ProcessCpuMs;

struct Options {
  std::string module_path;
  std::string function;
  std::string device = "local-task";
  std::vector<std::string> parameters;  // --parameters=[SCOPE=]FILE
  std::vector<std::string> inputs;
  int repetitions = 1;
  double min_seconds = 0.5;
  long fixed_iterations = 0;  // > 0: exactly this many per repetition
  int max_group_count = 0;
  bool json = false;
  std::string out_path;  // --benchmark_out: the report again, in a file
  bool out_json = true;  // --benchmark_out_format (json by default, as GB)
};

struct Sample {
  double wall_ms;  // per iteration
  double cpu_ms;
  long iterations;
};

struct Row {
  std::string suffix;  // "" for a repetition, else the aggregate's name
  double wall_ms;
  double cpu_ms;
  long iterations;  // a repetition's iterations, or the repetition count
};

// Google Benchmark's JSON report (schema version 1), the fields scripts
// read. Benchmark names are made of the function name, which the module
// loader has checked to be printable, but are escaped all the same.
void PrintJson(std::FILE* out, const std::string& name, int repetitions,
               const std::vector<Row>& rows) {
  auto quoted = [](const std::string& text) {
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
  };
  std::fprintf(
      out,
      "{\n  \"context\": {\n    \"executable\": \"ember-benchmark-module\",\n"
      "    \"json_schema_version\": 1\n  },\n  \"benchmarks\": [\n");
  int repetition_index = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& row = rows[i];
    const bool aggregate = !row.suffix.empty();
    const std::string row_name = aggregate ? name + "_" + row.suffix : name;
    std::fprintf(out, "    {\n      \"name\": %s,\n      \"run_name\": %s,\n",
                 quoted(row_name).c_str(), quoted(name).c_str());
    std::fprintf(out,
                 "      \"run_type\": \"%s\",\n      \"repetitions\": %d,\n",
                 aggregate ? "aggregate" : "iteration", repetitions);
    if (aggregate) {
      std::fprintf(
          out,
          "      \"aggregate_name\": %s,\n      \"aggregate_unit\": \"%s\",\n",
          quoted(row.suffix).c_str(),
          row.suffix == "cv" ? "percentage" : "time");
    } else {
      std::fprintf(out, "      \"repetition_index\": %d,\n",
                   repetition_index++);
    }
    std::fprintf(out,
                 "      \"threads\": 1,\n      \"iterations\": %ld,\n"
                 "      \"real_time\": %.17g,\n      \"cpu_time\": %.17g",
                 row.iterations, row.wall_ms, row.cpu_ms);
    // Google Benchmark gives every row a unit, the cv row included.
    std::fprintf(out, ",\n      \"time_unit\": \"ms\"");
    if (!aggregate && row.wall_ms > 0) {
      std::fprintf(out, ",\n      \"items_per_second\": %.17g",
                   1e3 / row.wall_ms);
    }
    std::fprintf(out, "\n    }%s\n", i + 1 < rows.size() ? "," : "");
  }
  std::fprintf(out, "  ]\n}\n");
}

void PrintRow(std::FILE* out, const std::string& name, double wall_ms,
              double cpu_ms, const std::string& iterations) {
  std::fprintf(out, "%-50s %10.3f ms %12.3f ms %12s\n", name.c_str(), wall_ms,
               cpu_ms, iterations.c_str());
}

Status Run(const Options& options) {
  std::string device = options.device;
  if (options.max_group_count > 0 && device.starts_with("local-task") &&
      device.find('?') == std::string::npos) {
    device += "?worker_count=" + std::to_string(options.max_group_count);
  }
  EMBER_ASSIGN_OR_RETURN(
      ember::tools::Program program,
      ember::tools::LoadProgram(options.module_path, device, nullptr,
                                options.parameters));
  EMBER_ASSIGN_OR_RETURN(
      ember::vm::CallingConvention cconv,
      ember::tools::FindFunction(*program.module, options.function));
  EMBER_ASSIGN_OR_RETURN(
      std::vector<ember::vm::Variant> arguments,
      ember::tools::ParseInputs(program, cconv, options.inputs));
  EMBER_ASSIGN_OR_RETURN(auto context, ember::vm::Context::Create(
                                           program.instance, program.modules));
  EMBER_ASSIGN_OR_RETURN(
      ember::vm::Function function,
      context->LookupFunction(std::string(program.module->name()) + "." +
                              options.function));
  // The result slots, made once: the timed loop measures the call, not a
  // parse of the cconv and a vector per call.
  EMBER_ASSIGN_OR_RETURN(size_t result_count,
                         ember::vm::CountCconvResults(cconv.text));
  std::vector<ember::vm::Variant> results(result_count);
  // One untimed call: first-call work (quickened copies, lazy state) is
  // not what the benchmark measures.
  EMBER_RETURN_IF_ERROR(context->Invoke(function, arguments, results));
  for (ember::vm::Variant& result : results) result = ember::vm::Variant();

  std::vector<Sample> samples;
  for (int repetition = 0; repetition < options.repetitions; ++repetition) {
    long iterations = 0;
    const double cpu_start = ProcessCpuMs();
    const auto start = std::chrono::steady_clock::now();
    double elapsed = 0;
    // The clock is read between batches, not per call (a read costs about
    // as much as 1% of a small call): a fixed count runs as one batch, a
    // minimum time in batches that double up to 1024 calls.
    long batch = options.fixed_iterations > 0 ? options.fixed_iterations : 1;
    while (true) {
      for (long i = 0; i < batch; ++i) {
        EMBER_RETURN_IF_ERROR(context->Invoke(function, arguments, results));
        // Each call's results are dropped before the next call, as the
        // per-call vector did.
        for (ember::vm::Variant& result : results)
          result = ember::vm::Variant();
      }
      iterations += batch;
      elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                              start)
                    .count();
      if (options.fixed_iterations > 0 || elapsed >= options.min_seconds) {
        break;
      }
      batch = std::min<long>(batch * 2, 1024);
    }
    const double cpu = ProcessCpuMs() - cpu_start;
    samples.push_back(
        {elapsed * 1e3 / iterations, cpu / iterations, iterations});
  }

  const std::string name = "BM_" + options.function + "/process_time/real_time";
  std::vector<Row> rows;
  for (const Sample& sample : samples) {
    rows.push_back({"", sample.wall_ms, sample.cpu_ms, sample.iterations});
  }
  if (samples.size() > 1) {
    auto column = [&](double Sample::*field) {
      std::vector<double> values;
      for (const Sample& sample : samples) values.push_back(sample.*field);
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
    const auto wall = column(&Sample::wall_ms);
    const auto cpu = column(&Sample::cpu_ms);
    const long n = static_cast<long>(samples.size());
    rows.push_back({"mean", mean(wall), mean(cpu), n});
    rows.push_back({"median", median(wall), median(cpu), n});
    rows.push_back({"stddev", stddev(wall), stddev(cpu), n});
    // The coefficient of variation is a fraction, not a time.
    rows.push_back(
        {"cv", stddev(wall) / mean(wall), stddev(cpu) / mean(cpu), n});
  }
  auto print_console = [&](std::FILE* out) {
    std::fprintf(out, "%s\n", std::string(90, '-').c_str());
    std::fprintf(out, "%-50s %13s %15s %12s\n", "Benchmark", "Time", "CPU",
                 "Iterations");
    std::fprintf(out, "%s\n", std::string(90, '-').c_str());
    for (const Row& row : rows) {
      const std::string row_name =
          row.suffix.empty() ? name : name + "_" + row.suffix;
      if (row.suffix == "cv") {
        std::fprintf(out, "%-50s %10.2f %% %13.2f %% %12ld\n", row_name.c_str(),
                     100 * row.wall_ms, 100 * row.cpu_ms, row.iterations);
      } else {
        PrintRow(out, row_name, row.wall_ms, row.cpu_ms,
                 std::to_string(row.iterations));
      }
    }
  };
  if (options.json) {
    PrintJson(stdout, name, options.repetitions, rows);
  } else {
    print_console(stdout);
  }
  if (!options.out_path.empty()) {
    std::FILE* out = std::fopen(options.out_path.c_str(), "w");
    if (out == nullptr) {
      return ember::UnavailableError("cannot write --benchmark_out file '" +
                                     options.out_path + "'");
    }
    if (options.out_json) {
      PrintJson(out, name, options.repetitions, rows);
    } else {
      print_console(out);
    }
    if (std::fclose(out) != 0) {
      return ember::DataLossError("error writing '" + options.out_path + "'");
    }
  }
  return Status::Ok();
}

}  // namespace

int main(int argc, char** argv) {
  ember::tools::ScopedEnvironmentTrace trace_from_environment;
  Options options;
  for (int i = 1; i < argc; ++i) {
    const char* arg = argv[i];
    const char* value = nullptr;
    char* end = nullptr;
    if (std::strcmp(arg, "--help") == 0 || std::strcmp(arg, "-h") == 0) {
      std::printf(
          "usage: ember-benchmark-module --module=FILE --function=NAME "
          "[--device=URI] [--parameters=[SCOPE=]FILE ...] [--input=VALUE ...] "
          "[--benchmark_repetitions=N] "
          "[--benchmark_min_time=SECONDSs|Nx] "
          "[--task_topology_max_group_count=N] "
          "[--benchmark_format=console|json] [--benchmark_out=FILE] "
          "[--benchmark_out_format=json|console]\n");
      return 0;
    } else if ((value = FlagValue(arg, "--module"))) {
      options.module_path = value;
    } else if ((value = FlagValue(arg, "--function"))) {
      options.function = value;
    } else if ((value = FlagValue(arg, "--device"))) {
      options.device = value;
    } else if ((value = FlagValue(arg, "--parameters"))) {
      options.parameters.emplace_back(value);
    } else if ((value = FlagValue(arg, "--input"))) {
      options.inputs.emplace_back(value);
    } else if ((value = FlagValue(arg, "--benchmark_repetitions"))) {
      options.repetitions = static_cast<int>(std::strtol(value, &end, 10));
      if (*end != '\0' || options.repetitions < 1) {
        std::fprintf(stderr, "ember-benchmark-module: bad repetitions\n");
        return 2;
      }
    } else if ((value = FlagValue(arg, "--benchmark_min_time"))) {
      std::string text = value;
      if (!text.empty() && text.back() == 'x') {
        options.fixed_iterations = std::strtol(text.c_str(), &end, 10);
        if (*end != 'x' || options.fixed_iterations < 1) {
          std::fprintf(stderr, "ember-benchmark-module: bad min_time\n");
          return 2;
        }
      } else {
        if (!text.empty() && text.back() == 's') text.pop_back();
        options.min_seconds = std::strtod(text.c_str(), &end);
        if (*end != '\0' || !(options.min_seconds >= 0)) {
          std::fprintf(stderr, "ember-benchmark-module: bad min_time\n");
          return 2;
        }
      }
    } else if ((value = FlagValue(arg, "--benchmark_format"))) {
      if (std::strcmp(value, "json") == 0) {
        options.json = true;
      } else if (std::strcmp(value, "console") == 0) {
        options.json = false;
      } else {
        std::fprintf(stderr,
                     "ember-benchmark-module: --benchmark_format must be "
                     "console or json\n");
        return 2;
      }
    } else if ((value = FlagValue(arg, "--benchmark_out"))) {
      options.out_path = value;
    } else if ((value = FlagValue(arg, "--benchmark_out_format"))) {
      if (std::strcmp(value, "json") == 0) {
        options.out_json = true;
      } else if (std::strcmp(value, "console") == 0) {
        options.out_json = false;
      } else {
        std::fprintf(stderr,
                     "ember-benchmark-module: --benchmark_out_format must be "
                     "console or json\n");
        return 2;
      }
    } else if ((value = FlagValue(arg, "--task_topology_max_group_count"))) {
      options.max_group_count = static_cast<int>(std::strtol(value, &end, 10));
      if (*end != '\0' || options.max_group_count < 1) {
        std::fprintf(stderr, "ember-benchmark-module: bad group count\n");
        return 2;
      }
    } else {
      std::fprintf(stderr, "ember-benchmark-module: unknown argument '%s'\n",
                   arg);
      return 2;
    }
  }
  if (options.module_path.empty() || options.function.empty()) {
    std::fprintf(stderr,
                 "usage: ember-benchmark-module --module=FILE --function=NAME "
                 "...\n");
    return 2;
  }
  Status status = Run(options);
  if (!status.ok()) {
    std::fprintf(stderr, "ember-benchmark-module: %s\n",
                 status.ToString().c_str());
    return 1;
  }
  return 0;
}
