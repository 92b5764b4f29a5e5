// Every device this build has, in one registry.
//
// Tools and the Python bindings make devices from URIs (`--device=vulkan`,
// `get_device("local-task")`); this is the one place that knows which
// drivers exist: `local-sync` and `local-task` (with VMVX executables
// besides native ELF libraries) always, `vulkan` when the build has Vulkan's
// headers -- and, at run time, a Vulkan loader with a device; otherwise the
// registry keeps the reason, so `--device=vulkan` says why it cannot.
//
// Thread safety: the shared registry is built once, on first use, and only
// read afterwards.
#pragma once

#include "runtime/base/status.h"
#include "runtime/hal/driver.h"

namespace ember::drivers {

// Adds every driver of the build to `registry`.
Status RegisterAllDrivers(hal::DriverRegistry& registry);

// A process-wide registry holding every driver of the build.
const hal::DriverRegistry& SharedDrivers();

}  // namespace ember::drivers
