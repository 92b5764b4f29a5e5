// The `vulkan` driver: device URIs to VulkanDevices, and its registration.
//
// URIs, as IREE accepts them: `vulkan` (the first device that meets the
// baseline), `vulkan://GPU-<device UUID hex>` (a path `--list_devices`
// prints). Ember also accepts `vulkan://<n>`, the device with ordinal n
// (IREE 3.11's form; 3.13 answers NOT_FOUND "Vulkan device path '0' not
// found" to it).
// Parameters (Ember's own): `validation=1` enables the Khronos validation
// layer (as EMBER_VULKAN_VALIDATION=1 does), `strict_device_local=1` keeps
// buffers requested without HOST_VISIBLE unmapped (vulkan_device.h).
//
// RegisterVulkanDriver registers `vulkan` only when the loader opens, an
// instance can be made and a physical device meets the baseline; otherwise
// it registers the driver as unavailable with the reason, so that
// `--device=vulkan` says why instead of "no such driver".
#pragma once

#include "runtime/base/ref_counted.h"
#include "runtime/base/status.h"
#include "runtime/hal/device.h"
#include "runtime/hal/driver.h"
#include "runtime/hal/vulkan/vulkan_device.h"

namespace ember::hal::vulkan {

// The options a URI asks for (INVALID_ARGUMENT for an unknown parameter or
// a value other than 0/1/true/false).
Result<VulkanDeviceOptions> VulkanDeviceOptionsFromUri(const DeviceUri& uri);

Result<Ref<Device>> CreateVulkanDevice(const DeviceUri& uri);
Result<Ref<Device>> CreateVulkanDevice(const VulkanDeviceOptions& options);

// Why `vulkan` cannot run here (OK when it can); computed once.
Status VulkanAvailability();

Status RegisterVulkanDriver(DriverRegistry& registry);

}  // namespace ember::hal::vulkan
