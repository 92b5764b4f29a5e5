// Instance: the process-level root that every Context is made under.
//
// It owns what must be agreed on before any module is loaded and never
// changes afterwards: the TypeRegistry that turns a module's `!hal.buffer`
// into a RefType. Start-up code creates an Instance, lets each layer register
// its ref types (the HAL layer does so for the hal.* types), then calls
// Freeze(). From then on the Instance is immutable, so one shared_ptr may be
// handed to any number of contexts on any threads.
//
// Thread safety: single-threaded until Freeze(); read-only and freely shared
// afterwards.
#pragma once

#include <memory>

#include "runtime/base/status.h"
#include "runtime/vm/ref.h"

namespace ember::vm {

class Instance {
 public:
  // A new instance whose registry holds the builtin vm.buffer and vm.list.
  static std::shared_ptr<Instance> Create();

  Instance(const Instance&) = delete;
  Instance& operator=(const Instance&) = delete;

  // Registers a ref type (see TypeRegistry::Register); fails after Freeze().
  Status RegisterType(const RefType& type) { return types_.Register(type); }
  // Ends start-up. Idempotent.
  void Freeze() { types_.Freeze(); }
  bool frozen() const { return types_.frozen(); }

  const TypeRegistry& types() const { return types_; }

 private:
  Instance() = default;
  TypeRegistry types_;
};

}  // namespace ember::vm
