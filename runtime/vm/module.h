// Module: what every kind of VM module looks like to a Context.
//
// A program is a handful of modules linked in a Context: the compiled
// bytecode module, the native `hal` module that reaches the device, maybe a
// `check` module in tests or a module written in Python. The Context must
// treat them alike -- register them in order, check their dependencies,
// resolve each import against another module's export, run `__init` -- and
// modules must call each other without knowing each other's kind. This
// interface is exactly that common ground and no more:
//
//   * Descriptive: name, version, the dependencies it declares, its exports
//     (name, calling convention, reflection attributes) and its imports
//     (full name "module.function", calling convention, optional or not).
//   * Instantiation: CreateState makes the per-context mutable part (globals,
//     resolved imports, device handles). A Module itself is immutable after
//     creation and may be shared by many contexts; everything a call mutates
//     lives in its ModuleState, which belongs to one Context.
//   * Linking: ResolveImport tells a state which Function import i is bound
//     to. The Context has already checked that the calling conventions match.
//   * Calling: Call runs one function with arguments and results passed as
//     spans of Variant (list.h), a tagged i32/i64/f32/f64/ref value. That
//     boxed form is what crosses module boundaries and the host boundary; the
//     bytecode interpreter uses its untyped register file internally and only
//     boxes at these seams.
//
// Why calls are boxed instead of using IREE's packed byte buffer: only Ember's
// own modules ever see the cross-module format (docs/module-format.md, "Calling
// conventions"), so we pick the one that is easiest to check. A Variant carries
// its type, so a native module can verify its arguments against its cconv with
// no side table, and a ref travels with its retain count handled by VmRef.
//
// Argument and result layout. The spans follow the calling convention
// string "0<args>_<results>" character by character:
//   i -> Value::I32, I -> Value::I64, f -> Value::F32, F -> Value::F64,
//   r -> a ref (a null ref is an empty Variant).
// A variadic span `C...D` is flattened: first one Value::I32 holding the
// number of tuples N, then N tuples of the body's types in order. For
// "0rCiDr_v" with tuples (1), (2), (3):
//   [ref, I32(3), I32(1), I32(2), I32(3), ref].
// Results are written into a span the caller sized to the number of result
// characters (results never contain spans).
//
// Thread safety: a Module is immutable and thread-safe; a ModuleState is used
// by its Context's one thread at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>

#include "runtime/base/endian.h"
#include "runtime/base/status.h"
#include "runtime/vm/list.h"

namespace ember::vm {

class Context;
class Instance;
class Module;

// How a Function's ordinal is to be read.
enum class FunctionLinkage : uint8_t {
  kInternal = 0,  // a module-private function ordinal (bytecode only)
  kImport = 1,    // an index into the module's import table
  kExport = 2,    // an index into the module's export table
};

// A callable function: (module, ordinal, linkage). The module pointer does
// not own; the Context that produced the Function keeps the module alive.
struct Function {
  Module* module = nullptr;
  uint32_t ordinal = 0;
  FunctionLinkage linkage = FunctionLinkage::kExport;

  bool is_null() const { return module == nullptr; }
};

// A "key = value" reflection attribute (export attrs, iree.abi.* etc.).
struct ReflectionAttr {
  std::string_view key;
  std::string_view value;
};

struct ModuleDependency {
  std::string_view name;
  uint32_t minimum_version = 0;
  bool optional = false;
};

struct ExportInfo {
  std::string_view name;
  std::string_view calling_convention;  // e.g. "0ri_r"
  std::span<const ReflectionAttr> attrs;
};

struct ImportInfo {
  std::string_view full_name;  // "hal.executable.create"
  std::string_view calling_convention;
  bool optional = false;
};

// A call from bytecode with its arguments and results left in the caller's
// registers: the fast path between the interpreter and native modules, on
// which no Variant is made (boxing every argument of every `hal.*` call was
// a fifth of the runtime's cost of a small program). The interpreter builds
// one from verified bytecode, so register ordinals are inside the caller's
// banks and each sits in the bank its cconv type names; a callee still
// checks counts, banks and ref types, which cost a compare each.
//
// Register ordinals (the bytecode's encoding, little-endian u16 lists):
//   bit 15 clear: the i32 bank; a 64-bit value takes this register (low
//     word) and the next (high word);
//   bit 15 set: the ref bank, ordinal in bits 0-13; bit 14 set means the
//     register is dead after the call, so the callee may take its ref.
// Variadic spans ('C...D') are flattened into `arguments`, and
// `segment_sizes` holds one entry per top-level cconv argument, the
// element count for a span (null when the call has no spans).
struct RegisterCall {
  static constexpr uint16_t kRefBit = 0x8000;
  static constexpr uint16_t kMoveBit = 0x4000;
  static constexpr uint16_t kRefOrdinalMask = 0x3FFF;

  uint32_t* i32 = nullptr;
  VmRef* refs = nullptr;
  const uint8_t* arguments = nullptr;
  uint16_t argument_count = 0;
  const uint8_t* segment_sizes = nullptr;
  uint16_t segment_count = 0;
  const uint8_t* results = nullptr;
  uint16_t result_count = 0;

  uint16_t argument(size_t i) const {
    return LoadLE<uint16_t>(arguments + 2 * i);
  }
  uint16_t segment_size(size_t i) const {
    return LoadLE<uint16_t>(segment_sizes + 2 * i);
  }
  uint16_t result(size_t i) const { return LoadLE<uint16_t>(results + 2 * i); }
};

// The per-context mutable part of a module. Opaque to the Context.
class ModuleState {
 public:
  virtual ~ModuleState() = default;
};

class Module {
 public:
  virtual ~Module() = default;

  virtual std::string_view name() const = 0;
  virtual uint32_t version() const = 0;
  virtual std::span<const ModuleDependency> dependencies() const = 0;
  // What made the module, for messages ("built by iree-compile 3.11
  // (...)"); "" when there is nothing to say (native modules). A context
  // that cannot link a module adds it to the error, since a module from
  // another compiler release is the usual reason.
  virtual std::string Provenance() const { return {}; }

  virtual size_t export_count() const = 0;
  virtual ExportInfo export_info(size_t export_ordinal) const = 0;
  virtual size_t import_count() const = 0;
  virtual ImportInfo import_info(size_t import_ordinal) const = 0;

  // The export named `name` (the first, if several share it), or nullopt.
  // The default is a linear scan (native modules have few exports);
  // modules loaded from files override it with an index.
  virtual std::optional<Function> LookupExport(std::string_view name);
  // The export named `name` whose calling convention is `cconv`, or nullopt.
  // One module may export one name under several cconvs (the `hal` module
  // serves `command_buffer.dispatch` to programs of iree-compile 3.11 and of
  // 3.12+, whose signatures differ); linking picks the one the importer
  // declares. Costs one LookupExport when the first export of that name
  // matches; otherwise a scan of the exports after it.
  std::optional<Function> LookupExport(std::string_view name,
                                       std::string_view cconv);

  // A fresh state for one Context. `context` outlives the state; modules
  // that call imports keep it to route those calls.
  virtual Result<std::unique_ptr<ModuleState>> CreateState(
      Context& context) = 0;

  // Binds import `import_ordinal` of `state` to `target` (an export of
  // another module of the same Context, whose cconv was checked equal).
  virtual Status ResolveImport(ModuleState& state, size_t import_ordinal,
                               const Function& target) = 0;

  // Runs `function` (of this module; export linkage, or internal for
  // bytecode) with the layout described at the top of this file.
  // `results.size()` must equal the number of result characters.
  virtual Status Call(Context& context, ModuleState& state,
                      const Function& function,
                      std::span<const Variant> arguments,
                      std::span<Variant> results) = 0;
  // As Call, but the callee may move the refs out of `arguments` (a caller
  // that drops its arguments after the call saves a retain and a release
  // per ref). The default calls Call.
  virtual Status CallConsuming(Context& context, ModuleState& state,
                               const Function& function,
                               std::span<Variant> arguments,
                               std::span<Variant> results) {
    return Call(context, state, function, arguments, results);
  }

  // Whether CallWithRegisters is implemented (native modules: yes).
  virtual bool SupportsRegisterCalls() const { return false; }
  // The function that CallWithRegisters would run for `function`, for a
  // caller that resolves an import once and then calls it directly; a
  // target without `call` when there is none (the caller then goes through
  // CallWithRegisters). The caller still checks tracing, and keeps the
  // state the Context has for this module.
  struct RegisterCallTarget {
    Status (*call)(ModuleState& state, std::string_view name,
                   const RegisterCall& call) = nullptr;
    std::string_view name;
  };
  virtual RegisterCallTarget ResolveRegisterCall(const Function&) const {
    return {};
  }
  // Call with the arguments and results in the caller's registers (see
  // RegisterCall); only when SupportsRegisterCalls().
  virtual Status CallWithRegisters(Context& context, ModuleState& state,
                                   const Function& function,
                                   const RegisterCall& call);
};

}  // namespace ember::vm
