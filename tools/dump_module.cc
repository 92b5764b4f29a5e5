// ember-dump-module: prints the structure of a `.vmfb` module.
//
//   ember-dump-module [--json] [--verbose] [--disassemble] [--verify] FILE
//
// --disassemble appends every function's instructions to the text output;
// --verify runs the bytecode verifier over every function and reports the
// verdict (on stdout after the text, or on stderr with --json so that the
// JSON stays the only thing on stdout).
//
// Exit status: 0 on success, 1 when the file cannot be loaded or (with
// --verify) its bytecode fails verification (the reason is printed), 2 on
// bad usage.
#include <cstdio>
#include <cstring>
#include <string>

#include "runtime/vm/bytecode/decoder.h"
#include "runtime/vm/bytecode/module_dump.h"
#include "runtime/vm/bytecode/module_file.h"
#include "runtime/vm/bytecode/verifier.h"

namespace {

void PrintUsage(FILE* stream) {
  std::fprintf(
      stream,
      "usage: ember-dump-module [--json] [--verbose] [--disassemble] "
      "[--verify] FILE\n"
      "  --json         print one JSON object instead of text\n"
      "  --verbose      include every debug location\n"
      "  --disassemble  print each function's bytecode after the text\n"
      "                 (not with --json)\n"
      "  --verify       verify every function's bytecode and report it\n");
}

// Every function's disassembly, headed by its ordinal and debug name.
std::string DisassembleModule(const ember::vm::bytecode::ModuleFile& file) {
  std::string text = "\nDisassembly:\n";
  const auto& descriptors = file.def().function_descriptors;
  for (size_t i = 0; i < descriptors.size(); ++i) {
    std::string_view name = file.FunctionDebugName(i);
    text += ember::StringPrintf(
        "\n  function [%zu] %.*s (i32 regs %d, ref regs %d, blocks %d):\n", i,
        static_cast<int>(name.empty() ? 9 : name.size()),
        name.empty() ? "<unnamed>" : name.data(),
        descriptors[i].i32_register_count, descriptors[i].ref_register_count,
        descriptors[i].block_count);
    auto listing =
        ember::vm::bytecode::DisassembleFunction(file.FunctionBytecode(i));
    if (!listing.ok()) {
      text += "    <cannot disassemble: " + listing.status().ToString() + ">\n";
      continue;
    }
    // Indent each line of the listing.
    size_t start = 0;
    const std::string& lines = *listing;
    while (start < lines.size()) {
      size_t end = lines.find('\n', start);
      if (end == std::string::npos) end = lines.size();
      text += "    ";
      text.append(lines, start, end - start);
      text += '\n';
      start = end + 1;
    }
  }
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  bool json = false;
  bool disassemble = false;
  bool verify = false;
  ember::vm::bytecode::DumpOptions options;
  const char* path = nullptr;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--json") == 0) {
      json = true;
    } else if (std::strcmp(argv[i], "--verbose") == 0) {
      options.verbose = true;
    } else if (std::strcmp(argv[i], "--disassemble") == 0) {
      disassemble = true;
    } else if (std::strcmp(argv[i], "--verify") == 0) {
      verify = true;
    } else if (std::strcmp(argv[i], "--help") == 0 ||
               std::strcmp(argv[i], "-h") == 0) {
      PrintUsage(stdout);
      return 0;
    } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
      std::fprintf(stderr, "ember-dump-module: unknown flag '%s'\n", argv[i]);
      PrintUsage(stderr);
      return 2;
    } else if (path) {
      std::fprintf(stderr, "ember-dump-module: only one FILE may be given\n");
      return 2;
    } else {
      path = argv[i];
    }
  }
  if (!path) {
    PrintUsage(stderr);
    return 2;
  }
  if (json && disassemble) {
    std::fprintf(stderr,
                 "ember-dump-module: --disassemble cannot be combined with "
                 "--json\n");
    return 2;
  }
  auto file = ember::vm::bytecode::ModuleFile::LoadFile(path);
  if (!file.ok()) {
    std::fprintf(stderr, "ember-dump-module: %s: %s\n", path,
                 file.status().ToString().c_str());
    return 1;
  }
  std::string text = json
                         ? ember::vm::bytecode::DumpModuleJson(**file) + "\n"
                         : ember::vm::bytecode::DumpModuleText(**file, options);
  if (disassemble) text += DisassembleModule(**file);
  std::fwrite(text.data(), 1, text.size(), stdout);
  if (!verify) return 0;

  ember::Status verified = ember::vm::bytecode::VerifyModuleBytecode(**file);
  FILE* report = json ? stderr : stdout;
  if (verified.ok()) {
    std::fprintf(report, "\nVerification: OK (%zu functions)\n",
                 (*file)->def().function_descriptors.size());
    return 0;
  }
  std::fprintf(report, "\nVerification: FAILED: %s\n",
               verified.ToString().c_str());
  return 1;
}
