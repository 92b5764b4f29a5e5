// The `hal` native module: how compiled programs reach devices.
//
// Every program `iree-compile` builds for a device imports `hal.*`
// functions to query devices, load executables, allocate and cut buffers,
// record command buffers and order work with fences. This module
// implements each export with its exact cconv (checked at compile time by
// native_module.h) over Ember's HAL (runtime/hal), and is the only place
// where the VM and the HAL meet: it names the HAL's C++ types as VM ref types
// (!hal.buffer, !hal.fence, ...) through RefTypeTraits, so neither layer
// knows the other.
//
// One module serves programs of every compiler release Ember runs
// (docs/hal-module.md): it is version 7, the interface of iree-compile 3.12
// and 3.13 (60 exports), and also exports version 6's signatures of the two
// functions whose signatures changed (`command_buffer.dispatch` and
// `dispatch.indirect` took an i32 export ordinal in 3.11 and take an i64
// function id since), over the same implementations. A program's import
// links to the export of the same name *and* cconv (vm::Context), so a 3.11
// program and a 3.13 program share one module, and one device, in one
// context. A 3.11 program declares `hal >= 6`, which version 7 satisfies.
//
// Every offset, length, count and ordinal a program passes is checked
// where it is used (by the HAL objects); nothing here trusts the program.
// `channel.*` and `command_buffer.collective` fail with UNIMPLEMENTED
// (collectives need several devices); everything else works.
//
// Start-up: register HalRefTypes() with the Instance before freezing it,
// then create the module with the devices a program may use
// (`hal.devices.get(i)`) and, optionally, a DebugSink for what programs
// trace.
#pragma once

#include <cstdio>
#include <functional>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "runtime/base/ref_counted.h"
#include "runtime/base/status.h"
#include "runtime/hal/allocator.h"
#include "runtime/hal/buffer.h"
#include "runtime/hal/buffer_view.h"
#include "runtime/hal/command_buffer.h"
#include "runtime/hal/device.h"
#include "runtime/hal/file.h"
#include "runtime/hal/semaphore.h"
#include "runtime/vm/instance.h"
#include "runtime/vm/module.h"
#include "runtime/vm/ref.h"

namespace ember::modules::hal {

// HAL module version 7 (iree-compile 3.12 and 3.13; see above for 3.11's).
inline constexpr uint32_t kHalModuleVersion = 7;

// The descriptors of the hal.* ref types. Each is a constant-initialized
// function-local static (no guard), its address the type's identity;
// inline, so that the type check of a ref argument is a compare.
#define EMBER_HAL_REF_TYPE(Function, name)   \
  inline const vm::RefType& Function() {     \
    static constexpr vm::RefType type(name); \
    return type;                             \
  }
EMBER_HAL_REF_TYPE(AllocatorType, "hal.allocator")
EMBER_HAL_REF_TYPE(BufferType, "hal.buffer")
EMBER_HAL_REF_TYPE(BufferViewType, "hal.buffer_view")
EMBER_HAL_REF_TYPE(ChannelType, "hal.channel")
EMBER_HAL_REF_TYPE(CommandBufferType, "hal.command_buffer")
EMBER_HAL_REF_TYPE(DeviceType, "hal.device")
EMBER_HAL_REF_TYPE(EventType, "hal.event")
EMBER_HAL_REF_TYPE(ExecutableType, "hal.executable")
EMBER_HAL_REF_TYPE(FenceType, "hal.fence")
EMBER_HAL_REF_TYPE(FileType, "hal.file")
EMBER_HAL_REF_TYPE(SemaphoreType, "hal.semaphore")
#undef EMBER_HAL_REF_TYPE

// All of them, for Instance registration.
std::vector<const vm::RefType*> HalRefTypes();
Status RegisterHalTypes(vm::Instance& instance);

// Where `hal.buffer_view.trace` -- what `flow.tensor.trace` compiles to --
// sends a program's traces: the trace key and the traced buffer views, in
// the program's order. An error the callback returns fails the program's
// call with that status. A sink without a callback drops traces (the key
// and the views are still checked: a null one is INVALID_ARGUMENT).
//
// The callback runs on the thread that called into the context, during
// the call, and may keep the views. It is shared by every context the
// module is linked into and destroyed with the module and the last of
// those contexts.
struct DebugSink {
  using BufferViewTraceFn =
      std::function<Status(std::string_view key,
                           std::span<const Ref<ember::hal::BufferView>> views)>;
  BufferViewTraceFn buffer_view_trace;
};

// A sink that writes each trace to `file` as IREE's stdio sink does: a
// "=== KEY ===" line, one line per view as FormatBufferView writes it (all
// its elements), then an empty line. What IREE's Python bindings and tools
// attach when given no sink.
DebugSink StdioDebugSink(std::FILE* file);

// A `hal` module serving `devices` (devices.count / devices.get; the same
// device may be given more than once) and tracing into `debug_sink`.
Result<std::shared_ptr<vm::Module>> CreateHalModule(
    std::vector<Ref<ember::hal::Device>> devices, DebugSink debug_sink = {});

}  // namespace ember::modules::hal

namespace ember::vm {
template <>
struct RefTypeTraits<ember::hal::Allocator> {
  static const RefType& type() { return modules::hal::AllocatorType(); }
};
template <>
struct RefTypeTraits<ember::hal::Buffer> {
  static const RefType& type() { return modules::hal::BufferType(); }
};
template <>
struct RefTypeTraits<ember::hal::BufferView> {
  static const RefType& type() { return modules::hal::BufferViewType(); }
};
template <>
struct RefTypeTraits<ember::hal::CommandBuffer> {
  static const RefType& type() { return modules::hal::CommandBufferType(); }
};
template <>
struct RefTypeTraits<ember::hal::Device> {
  static const RefType& type() { return modules::hal::DeviceType(); }
};
template <>
struct RefTypeTraits<ember::hal::Executable> {
  static const RefType& type() { return modules::hal::ExecutableType(); }
};
template <>
struct RefTypeTraits<ember::hal::Fence> {
  static const RefType& type() { return modules::hal::FenceType(); }
};
template <>
struct RefTypeTraits<ember::hal::File> {
  static const RefType& type() { return modules::hal::FileType(); }
};
template <>
struct RefTypeTraits<ember::hal::Semaphore> {
  static const RefType& type() { return modules::hal::SemaphoreType(); }
};
}  // namespace ember::vm
