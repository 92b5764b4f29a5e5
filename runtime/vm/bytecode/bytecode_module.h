// BytecodeModule: a compiled `.vmfb` as a Module that a Context can link and
// call, and the interpreter that runs its functions.
//
// The split follows what changes when. A BytecodeModule is made once per
// loaded file and never changes: it resolves the module's type table against
// the Instance's registry, parses every function's calling convention,
// gathers export reflection attributes, and wraps each rodata segment as an
// immutable vm.buffer that keeps the ModuleFile alive. It can be shared by
// any number of contexts. What a program mutates -- the rwdata bytes of its
// primitive globals (zeroed), the table of ref globals, the resolved import
// targets -- lives in the per-context state made by CreateState.
//
// Execution (interpreter.cc) keeps a private stack of frames per call from
// the host. Each frame has an i32 register file (uint32_t slots; an i64 or
// f64 occupies the even/odd pair named by its even ordinal) and a ref
// register file of VmRefs. Entry arguments are packed per bank in cconv
// order, a 64-bit value rounding up to the next even slot; internal calls
// copy the caller's operands into the callee's slots the same way, and
// returns copy back by the callee's result types. Imports (function ordinal
// with bit 31 set) box their operands as Variants and go through
// Context::Call. Every frame's refs are released whenever the frame exits,
// normally or by error. Errors carry a VM stack trace: one "at module.function
// (source location)" annotation per active frame, innermost first.
//
// Every function's bytecode is verified when the module is created
// (bytecode/verifier.h); the interpreter then runs an quickened copy of it
// (quickened_code.h) in which some hot instructions are rewritten into
// cheaper internal forms at the same pcs, and checks only what depends on
// run-time values. The copy of a function is made when it is first called
// (making them all at load was most of the load time, and most programs
// call few of their functions).
//
// Thread safety: a BytecodeModule is shareable and, apart from the
// quickened copies made on first call (under a mutex, published with
// release/acquire), immutable; its states belong to one Context each.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/vm/bytecode/module_file.h"
#include "runtime/vm/calling_convention.h"
#include "runtime/vm/instance.h"
#include "runtime/vm/module.h"
#include "runtime/vm/ref.h"

namespace ember::vm::bytecode {

struct BytecodeModuleOptions {
  // Run the quickened copy with Ember's rewrites (quickened_code.h).
  // False runs the verified bytecode exactly as the file encodes it: for
  // differential tests of the rewrites and for debugging.
  bool rewrite_bytecode = true;
  // Make every function's quickened copy when the module is created
  // instead of on its first call (tests, benchmarks of first calls).
  bool prepare_all_functions = false;
};

class BytecodeModule final : public Module {
 public:
  using Options = BytecodeModuleOptions;

  // Resolves `file` against `instance`'s type registry (an unknown ref type
  // name is NOT_FOUND). The instance should be frozen.
  static Result<std::shared_ptr<BytecodeModule>> Create(
      std::shared_ptr<const Instance> instance,
      std::shared_ptr<const bytecode::ModuleFile> file,
      const Options& options = Options());
  // Convenience: ModuleFile::LoadFile + Create.
  static Result<std::shared_ptr<BytecodeModule>> LoadFile(
      std::shared_ptr<const Instance> instance, const std::string& path,
      const Options& options = Options());

  std::string_view name() const override { return file_->name(); }
  uint32_t version() const override { return file_->version(); }
  // "built by iree-compile ..." (compiler_family.h).
  std::string Provenance() const override;
  std::span<const ModuleDependency> dependencies() const override {
    return dependencies_;
  }
  size_t export_count() const override { return exports_.size(); }
  ExportInfo export_info(size_t export_ordinal) const override;
  std::optional<Function> LookupExport(std::string_view name) override;
  size_t import_count() const override { return imports_.size(); }
  ImportInfo import_info(size_t import_ordinal) const override {
    return imports_[import_ordinal];
  }

  Result<std::unique_ptr<ModuleState>> CreateState(Context& context) override;
  Status ResolveImport(ModuleState& state, size_t import_ordinal,
                       const Function& target) override;
  Status Call(Context& context, ModuleState& state, const Function& function,
              std::span<const Variant> arguments,
              std::span<Variant> results) override;
  Status CallConsuming(Context& context, ModuleState& state,
                       const Function& function, std::span<Variant> arguments,
                       std::span<Variant> results) override;

  const bytecode::ModuleFile& file() const { return *file_; }
  size_t function_count() const { return functions_.size(); }
  // "module.function" for internal function `ordinal` (debug name, export
  // name, or "#ordinal").
  std::string QualifiedFunctionName(size_t ordinal) const;

  // What the interpreter needs about one internal function, precomputed.
  struct FunctionInfo {
    // The function's bytecode as the file holds it (verified).
    std::span<const uint8_t> code;
    uint16_t i32_register_count = 0;
    uint16_t ref_register_count = 0;
    // The parsed cconv, owned by the module (shared by every function and
    // import naming the same string); null when absent or malformed.
    const CallingConvention* cconv = nullptr;
    // Its two sides' slots, here so that a call reaches them in one load.
    std::span<const CconvSlot> arguments;
    std::span<const CconvSlot> results;
  };
  const FunctionInfo& function_info(size_t ordinal) const {
    return functions_[ordinal];
  }
  // The quickened copy of internal function `ordinal` (quickened_code.h:
  // same length and instruction boundaries as its bytecode), made on the
  // first request. Thread-safe.
  Result<const uint8_t*> QuickenedCode(size_t ordinal) const {
    if (ordinal < functions_.size()) {
      // Once made, a copy is read with one acquire load (every call).
      if (const uint8_t* code =
              prepared_[ordinal].code.load(std::memory_order_acquire)) {
        return code;
      }
    }
    return PrepareQuickenedCode(ordinal);
  }
  // How many functions have their quickened copy so far (for tests).
  size_t prepared_function_count() const;
  // The argument/result types of import `ordinal` (code empty; counts 0).
  const FunctionInfo& import_signature(size_t ordinal) const {
    return import_signatures_[ordinal];
  }
  // The module's type table, resolved.
  const std::vector<TypeDef>& types() const { return types_; }
  // The rodata segments as immutable vm.buffers.
  const std::vector<VmRef>& rodata_buffers() const { return rodata_; }

 private:
  // Call and CallConsuming: `movable` is null, or `arguments` writable.
  Status CallInternal(Context& context, ModuleState& state,
                      const Function& function,
                      std::span<const Variant> arguments, Variant* movable,
                      std::span<Variant> results);
  struct ExportEntry {
    std::string_view name;
    uint32_t internal_ordinal;
  };

  BytecodeModule() = default;

  std::shared_ptr<const Instance> instance_;
  std::shared_ptr<const bytecode::ModuleFile> file_;
  std::vector<ModuleDependency> dependencies_;
  // In the file's export order; names are looked up through the file's
  // index (ModuleFile::FindExport).
  std::vector<ExportEntry> exports_;
  // Reflection attrs per internal function ordinal, filled for exported
  // functions only: built once per function, however many exports share
  // it (a hostile file can point thousands of exports at one signature).
  std::vector<std::vector<ReflectionAttr>> function_attrs_;
  std::vector<ImportInfo> imports_;
  std::vector<FunctionInfo> functions_;
  std::vector<FunctionInfo> import_signatures_;
  // The distinct cconvs the FunctionInfos point at (stable addresses).
  std::vector<std::unique_ptr<const CallingConvention>> cconvs_;
  std::vector<TypeDef> types_;
  std::vector<VmRef> rodata_;
  // Per function: its quickened copy once made (`code` is published
  // last, with release order, so a reader that sees it sees the bytes).
  struct PreparedCode {
    std::atomic<const uint8_t*> code{nullptr};
    std::vector<uint8_t> storage;
  };
  // QuickenedCode's first call for a function: makes the copy.
  Result<const uint8_t*> PrepareQuickenedCode(size_t ordinal) const;

  bool rewrite_bytecode_ = true;
  mutable std::unique_ptr<PreparedCode[]> prepared_;
  mutable std::mutex prepare_mutex_;
};

}  // namespace ember::vm::bytecode
