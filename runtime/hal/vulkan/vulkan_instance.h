// VulkanInstance: a VkInstance with its entry points, its physical devices
// as IREE lists them, and (optionally) the Khronos validation layer.
//
// Every Vulkan device holds the instance it was made from (a ref), so the
// instance outlives all of its devices, buffers and executables.
//
// Validation: with `validation` (or EMBER_VULKAN_VALIDATION=1 in the
// environment) the instance enables VK_LAYER_KHRONOS_validation and
// VK_EXT_debug_utils, and a messenger records every warning and error the
// layer reports. Tests read validation_messages() and fail on any; with
// validation enabled only by the environment (tools, Python) each message
// is also printed to stderr as it comes. Synchronization validation is on
// as well where the layer offers VK_EXT_validation_features. Asking
// for validation where the layer is not installed is UNAVAILABLE (a test
// that asked for it must not pass silently without it).
//
// Physical devices are listed as IREE 3.13's `vulkan` driver lists them
// (`iree-run-module --list_devices`, `query_available_devices()`): device id
// = ordinal + 1, path "GPU-" + the 16 bytes of deviceUUID in lower-case hex,
// name = deviceName + " (" + driverName + " " + driverInfo + ")".
//
// Thread safety: an instance is immutable after Create, except for the
// message list, which has its own lock.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/base/ref_counted.h"
#include "runtime/base/status.h"
#include "runtime/hal/vulkan/vulkan_api.h"

namespace ember::hal::vulkan {

struct VulkanInstanceOptions {
  // Enable the validation layer; also enabled by EMBER_VULKAN_VALIDATION=1.
  bool validation = false;
};

struct VulkanPhysicalDeviceInfo {
  VkPhysicalDevice handle = VK_NULL_HANDLE;
  uint64_t device_id = 0;  // ordinal + 1, as IREE numbers them
  std::string path;        // "GPU-<32 hex digits>"
  std::string name;
  uint32_t api_version = 0;
  // Whether the device meets Ember's baseline: Vulkan 1.3 and a queue family
  // with compute. The name says " [below baseline]" otherwise, as IREE's.
  bool supported = false;
};

class VulkanInstance : public RefCounted {
 public:
  static Result<Ref<VulkanInstance>> Create(
      const VulkanInstanceOptions& options);
  ~VulkanInstance() override;

  const VulkanApi& api() const { return api_; }
  VkInstance handle() const { return instance_; }
  bool validation_enabled() const { return messenger_ != VK_NULL_HANDLE; }

  std::vector<VulkanPhysicalDeviceInfo> physical_devices() const {
    return physical_devices_;
  }
  // The device a URI path names: "" the first supported one, "GPU-<uuid>"
  // the one with that path, a decimal number the device with that ordinal
  // (IREE 3.11's by-index form). NOT_FOUND / UNAVAILABLE say why not.
  Result<VulkanPhysicalDeviceInfo> SelectPhysicalDevice(
      std::string_view path) const;

  // Warnings and errors the validation layer reported so far.
  std::vector<std::string> validation_messages() const;
  void ClearValidationMessages();

 private:
  VulkanInstance() = default;
  static VKAPI_ATTR VkBool32 VKAPI_CALL OnDebugMessage(
      VkDebugUtilsMessageSeverityFlagBitsEXT severity,
      VkDebugUtilsMessageTypeFlagsEXT types,
      const VkDebugUtilsMessengerCallbackDataEXT* data, void* user_data);
  Status EnumeratePhysicalDevices();

  VulkanApi api_;
  VkInstance instance_ = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  bool echo_messages_ = false;  // also print each message to stderr
  std::vector<VulkanPhysicalDeviceInfo> physical_devices_;
  mutable std::mutex messages_mutex_;
  std::vector<std::string> messages_;
};

// Whether EMBER_VULKAN_VALIDATION is set to a value other than "0" / "".
bool ValidationRequestedByEnvironment();

}  // namespace ember::hal::vulkan
