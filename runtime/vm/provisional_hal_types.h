// The hal.* ref types, registered by name before the HAL module exists.
//
// Programs compiled for a device name !hal.buffer, !hal.fence, ... in their
// type tables. Their rightful owner is the `hal` native module, which will
// define the descriptors (mapping the HAL's C++ types through RefTypeTraits)
// and register them with NativeModule::RegisterTypes. Until it exists, this
// file is the one place that knows those names, so that a HAL program loads
// as it always has and fails only when it is linked, on the missing `hal`
// module. No C++ type stands behind these descriptors: nothing can make a
// ref of one, and no import can be satisfied that takes one.
//
// Temporary: when runtime/modules/hal registers its own types, delete this
// file and call that instead (registering both would be ALREADY_EXISTS).
#pragma once

#include "runtime/base/status.h"
#include "runtime/vm/instance.h"

namespace ember::vm {

// Registers hal.allocator, hal.buffer, ... hal.semaphore with `instance`,
// which must not be frozen yet.
Status RegisterProvisionalHalTypes(Instance& instance);

}  // namespace ember::vm
