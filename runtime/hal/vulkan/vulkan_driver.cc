#include "runtime/hal/vulkan/vulkan_driver.h"

#include <mutex>

namespace ember::hal::vulkan {
namespace {

Result<bool> ParseFlag(const std::string& key, const std::string& value) {
  if (value == "1" || value == "true") return true;
  if (value == "0" || value == "false") return false;
  return InvalidArgumentError("vulkan device parameter " + key + "='" + value +
                              "' is not 0, 1, true or false");
}

}  // namespace

Result<VulkanDeviceOptions> VulkanDeviceOptionsFromUri(const DeviceUri& uri) {
  VulkanDeviceOptions options;
  options.path = uri.path;
  for (const auto& [key, value] : uri.parameters) {
    if (key == "validation") {
      EMBER_ASSIGN_OR_RETURN(options.instance.validation,
                             ParseFlag(key, value));
    } else if (key == "strict_device_local") {
      EMBER_ASSIGN_OR_RETURN(options.strict_device_local,
                             ParseFlag(key, value));
    } else {
      return InvalidArgumentError("unknown vulkan device parameter '" + key +
                                  "' (known: validation, strict_device_local)");
    }
  }
  return options;
}

Result<Ref<Device>> CreateVulkanDevice(const VulkanDeviceOptions& options) {
  EMBER_ASSIGN_OR_RETURN(Ref<VulkanDevice> device,
                         VulkanDevice::Create(options));
  return Ref<Device>(std::move(device));
}

Result<Ref<Device>> CreateVulkanDevice(const DeviceUri& uri) {
  EMBER_ASSIGN_OR_RETURN(VulkanDeviceOptions options,
                         VulkanDeviceOptionsFromUri(uri));
  return CreateVulkanDevice(options);
}

Status VulkanAvailability() {
  static const Status* availability = [] {
    Result<Ref<VulkanInstance>> instance = VulkanInstance::Create({});
    if (!instance.ok()) return new Status(instance.status());
    for (const VulkanPhysicalDeviceInfo& info :
         (*instance)->physical_devices()) {
      if (info.supported) return new Status();
    }
    if ((*instance)->physical_devices().empty()) {
      return new Status(UnavailableError("no Vulkan physical device"));
    }
    return new Status(UnavailableError(
        "no Vulkan physical device meets the Vulkan 1.3 baseline"));
  }();
  return *availability;
}

Status RegisterVulkanDriver(DriverRegistry& registry) {
  DriverInfo info{"vulkan",
                  "Vulkan 1.3 compute (libvulkan loaded at run time)"};
  Status available = VulkanAvailability();
  if (!available.ok()) {
    registry.RegisterUnavailable(std::move(info), std::move(available));
    return Status::Ok();
  }
  return registry.Register(
      std::move(info),
      [](const DeviceUri& uri) { return CreateVulkanDevice(uri); },
      []() -> Result<std::vector<DeviceInfo>> {
        EMBER_ASSIGN_OR_RETURN(std::vector<VulkanPhysicalDeviceInfo> devices,
                               QueryVulkanDevices());
        std::vector<DeviceInfo> infos;
        for (VulkanPhysicalDeviceInfo& device : devices) {
          infos.push_back({device.device_id, std::move(device.path),
                           std::move(device.name)});
        }
        return infos;
      });
}

}  // namespace ember::hal::vulkan
