#include "runtime/drivers/drivers.h"

#include "runtime/hal/cpu/local_device.h"
#include "runtime/modules/vmvx/vmvx_executable.h"
#if defined(EMBER_HAVE_VULKAN) && \
    __has_include("runtime/hal/vulkan/vulkan_driver.h")
#define EMBER_DRIVERS_VULKAN 1
#include "runtime/hal/vulkan/vulkan_driver.h"
#endif

namespace ember::drivers {

Status RegisterAllDrivers(hal::DriverRegistry& registry) {
  EMBER_RETURN_IF_ERROR(hal::cpu::RegisterLocalDrivers(
      registry, {modules::vmvx::SharedVmvxExecutableLoader()}));
#if defined(EMBER_DRIVERS_VULKAN)
  EMBER_RETURN_IF_ERROR(hal::vulkan::RegisterVulkanDriver(registry));
#else
  registry.RegisterUnavailable(
      {"vulkan", "Vulkan (not in this build)"},
      UnimplementedError("this build of Ember has no Vulkan device (it was "
                         "built without Vulkan's headers)"));
#endif
  return Status::Ok();
}

const hal::DriverRegistry& SharedDrivers() {
  static const hal::DriverRegistry* registry = [] {
    auto* drivers = new hal::DriverRegistry();
    // Only a duplicate name fails, and the names here are fixed.
    RegisterAllDrivers(*drivers).IgnoreError();
    return drivers;
  }();
  return *registry;
}

}  // namespace ember::drivers
