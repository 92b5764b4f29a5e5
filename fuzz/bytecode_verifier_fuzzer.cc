// libFuzzer target for the bytecode verifier. The input is loaded as a whole
// module; every function of a module that loads is verified, and every
// function that verifies is disassembled and turned into its quickened copy
// (runtime/vm/bytecode/quickened_code.h, which runs its liveness analysis and
// rewrites on verified code only). The verifier promises that a verified
// function decodes from start to end, so a disassembly or rewrite failure
// after a successful verification is a bug and traps. Seed it with compiled
// modules (fuzz/make_seed_corpus.sh); most interesting mutations land in the
// bytecode_data vector.
#include <cstddef>
#include <cstdint>
#include <span>

#include "runtime/vm/bytecode/decoder.h"
#include "runtime/vm/bytecode/module_file.h"
#include "runtime/vm/bytecode/quickened_code.h"
#include "runtime/vm/bytecode/verifier.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto file = ember::vm::bytecode::ModuleFile::LoadCopy({data, size});
  if (!file.ok()) return 0;
  const ember::vm::bytecode::ModuleFile& module = **file;
  bool all_verified = true;
  // One verifier for the module, as loading does: it works out each
  // distinct cconv string once, however many functions share it.
  ember::vm::bytecode::ModuleVerifier verifier(module);
  for (size_t i = 0; i < module.def().function_descriptors.size(); ++i) {
    ember::Status status = verifier.VerifyFunction(i);
    if (!status.ok()) {
      // Every rejection must explain itself, as INVALID_ARGUMENT.
      if (status.message().empty() ||
          status.code() != ember::StatusCode::kInvalidArgument) {
        __builtin_trap();
      }
      all_verified = false;
      continue;
    }
    std::span<const uint8_t> function = module.FunctionBytecode(i);
    auto text = ember::vm::bytecode::DisassembleFunction(function);
    if (!text.ok()) __builtin_trap();
    auto exec = ember::vm::bytecode::MakeQuickenedCode(function);
    if (!exec.ok() || exec->size() != function.size()) __builtin_trap();
  }
  // The whole-module entry point agrees with the per-function verdicts.
  if (ember::vm::bytecode::VerifyModuleBytecode(module).ok() != all_verified) {
    __builtin_trap();
  }
  return 0;
}
