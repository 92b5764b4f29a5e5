// The `io_parameters` native module: how compiled programs read and write
// externalized parameters.
//
// A global declared `#stream.parameter.named<"scope"::"key">` is not part of
// the .vmfb: the program asks this module for it at initialization with
// `io_parameters.load` (a new buffer per parameter), `gather` (into an
// existing buffer) or `scatter` (from a buffer into the parameter storage).
// Each call names a scope and a list of keys with byte ranges; the module
// finds the first provider serving the scope and the key in its
// ParameterIndex (runtime/io).
//
// IREE 3.11's exports, cconvs and argument layouts (module.c):
//   gather  (device, affinity, wait, signal, scope, target_buffer,
//            key_table, key_data, spans)                        -> ()
//   load    (device, affinity, wait, signal, scope, target_affinity,
//            memory_types, buffer_usage, key_table, key_data, spans)
//                                                               -> list
//   scatter (device, affinity, wait, signal, source_buffer, scope,
//            key_table, key_data, spans)                        -> ()
// key_table holds {u32 offset, u32 length} per key into key_data; spans holds
// {u64 parameter_offset, u64 buffer_offset, u64 length} per key and fixes the
// count. Every table, string range and span is checked before use.
//
// Queue ordering: the operations of one call run after `wait` and `signal` is
// reached when they are all done (or failed with the first error). Loads of a
// file entry backed by host memory (a mapped file, wrapped memory) on Ember's
// CPU devices import the bytes as the HAL buffer without a copy; when the
// program may write into the buffer and the file is read-only, it gets a
// private copy-on-write view of the mapping instead (or a copy when the
// memory is not a file mapping). Splat entries are filled.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runtime/base/ref_counted.h"
#include "runtime/base/status.h"
#include "runtime/io/parameter_index.h"
#include "runtime/vm/module.h"

namespace ember::modules::io_parameters {

// IREE_IO_PARAMETERS_MODULE_VERSION_0_0.
inline constexpr uint32_t kIoParametersModuleVersion = 0;

// A source of parameters for one scope: the scope ("" matches programs that
// name none) and the index of its entries. Shared by the modules made from it
// and kept alive by them.
class ParameterProvider final : public RefCounted {
 public:
  static Ref<ParameterProvider> Create(std::string scope,
                                       Ref<io::ParameterIndex> index);

  const std::string& scope() const { return scope_; }
  io::ParameterIndex& index() const { return *index_; }
  const Ref<io::ParameterIndex>& index_ref() const { return index_; }

 private:
  ParameterProvider(std::string scope, Ref<io::ParameterIndex> index)
      : scope_(std::move(scope)), index_(std::move(index)) {}
  std::string scope_;
  Ref<io::ParameterIndex> index_;
};

// A module serving `providers`, searched in order for a matching scope. The
// hal module's ref types must be registered with the instance (the exports
// take !hal.device, !hal.fence and !hal.buffer).
Result<std::shared_ptr<vm::Module>> CreateIoParametersModule(
    std::vector<Ref<ParameterProvider>> providers);

}  // namespace ember::modules::io_parameters
