// ember-dump-module: prints the structure of a `.vmfb` module.
//
//   ember-dump-module [--json] [--verbose] FILE
//
// Exit status: 0 on success, 1 when the file cannot be loaded (the reason is
// printed to stderr), 2 on bad usage.
#include <cstdio>
#include <cstring>
#include <string>

#include "runtime/vm/bytecode/module_dump.h"
#include "runtime/vm/bytecode/module_file.h"

namespace {

void PrintUsage(FILE* stream) {
  std::fprintf(stream,
               "usage: ember-dump-module [--json] [--verbose] FILE\n"
               "  --json     print one JSON object instead of text\n"
               "  --verbose  include every debug location\n");
}

}  // namespace

int main(int argc, char** argv) {
  bool json = false;
  ember::bytecode::DumpOptions options;
  const char* path = nullptr;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--json") == 0) {
      json = true;
    } else if (std::strcmp(argv[i], "--verbose") == 0) {
      options.verbose = true;
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
  auto file = ember::bytecode::ModuleFile::LoadFile(path);
  if (!file.ok()) {
    std::fprintf(stderr, "ember-dump-module: %s: %s\n", path,
                 file.status().ToString().c_str());
    return 1;
  }
  std::string text = json ? ember::bytecode::DumpModuleJson(**file) + "\n"
                          : ember::bytecode::DumpModuleText(**file, options);
  std::fwrite(text.data(), 1, text.size(), stdout);
  return 0;
}
