// The `hal` native module: how compiled programs reach devices.
//
// Every program `iree-compile` builds for a device imports `hal.*`
// functions -- 57 of them at HAL module version 6, the only version IREE
// 3.11 defines -- to query devices, load executables, allocate and cut
// buffers, record command buffers and order work with fences. This module
// implements each export with its exact cconv (checked at compile time by
// native_module.h) over Ember's HAL (runtime/hal), and is the only place
// where the VM and the HAL meet: it names the HAL's C++ types as VM ref types
// (!hal.buffer, !hal.fence, ...) through RefTypeTraits, so neither layer
// knows the other.
//
// Every offset, length, count and ordinal a program passes is checked
// where it is used (by the HAL objects); nothing here trusts the program.
// `channel.*` and `command_buffer.collective` fail with UNIMPLEMENTED
// (collectives need several devices); everything else works.
//
// Start-up: register HalRefTypes() with the Instance before freezing it,
// then create the module with the devices a program may use
// (`hal.devices.get(i)`).
#pragma once

#include <memory>
#include <span>
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

// HAL module version 6 (IREE 3.11).
inline constexpr uint32_t kHalModuleVersion = 6;

// The descriptors of the hal.* ref types.
const vm::RefType& AllocatorType();
const vm::RefType& BufferType();
const vm::RefType& BufferViewType();
const vm::RefType& ChannelType();
const vm::RefType& CommandBufferType();
const vm::RefType& DeviceType();
const vm::RefType& EventType();
const vm::RefType& ExecutableType();
const vm::RefType& FenceType();
const vm::RefType& FileType();
const vm::RefType& SemaphoreType();

// All of them, for Instance registration.
std::vector<const vm::RefType*> HalRefTypes();
Status RegisterHalTypes(vm::Instance& instance);

// A `hal` module serving `devices` (devices.count / devices.get).
Result<std::shared_ptr<vm::Module>> CreateHalModule(
    std::vector<Ref<ember::hal::Device>> devices);

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
