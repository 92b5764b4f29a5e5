// libFuzzer target for the module loader: archive header, FlatBuffer
// verification and every cross-field check, then every view of a module
// that loads. Seed it with compiled modules (fuzz/make_seed_corpus.sh).
#include <cstddef>
#include <cstdint>
#include <span>

#include "runtime/vm/bytecode/module_dump.h"
#include "runtime/vm/bytecode/module_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto file = ember::vm::bytecode::ModuleFile::LoadCopy({data, size});
  if (!file.ok()) {
    // An error must always explain itself.
    if (file.status().message().empty()) __builtin_trap();
    return 0;
  }
  const ember::vm::bytecode::ModuleFile& module = **file;
  (void)ember::vm::bytecode::DumpModuleText(module, {/*verbose=*/true});
  (void)ember::vm::bytecode::DumpModuleJson(module);
  for (size_t i = 0; i < module.def().function_descriptors.size(); ++i) {
    (void)module.FunctionBytecode(i);
    (void)module.SourceLocation(i, 0);
  }
  return 0;
}
