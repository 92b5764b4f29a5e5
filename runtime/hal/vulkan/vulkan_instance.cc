#include "runtime/hal/vulkan/vulkan_instance.h"

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace ember::hal::vulkan {
namespace {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

bool HasExtension(const std::vector<VkExtensionProperties>& extensions,
                  const char* name) {
  for (const VkExtensionProperties& extension : extensions) {
    if (std::strcmp(extension.extensionName, name) == 0) return true;
  }
  return false;
}

}  // namespace

bool ValidationRequestedByEnvironment() {
  const char* value = std::getenv("EMBER_VULKAN_VALIDATION");
  return value != nullptr && value[0] != '\0' && std::strcmp(value, "0") != 0;
}

Result<Ref<VulkanInstance>> VulkanInstance::Create(
    const VulkanInstanceOptions& options) {
  EMBER_ASSIGN_OR_RETURN(VulkanApi api, LoadVulkanGlobal());
  uint32_t loader_version = VK_API_VERSION_1_0;
  if (api.vkEnumerateInstanceVersion != nullptr) {
    EMBER_VK_RETURN_IF_ERROR(api.vkEnumerateInstanceVersion(&loader_version),
                             "vkEnumerateInstanceVersion");
  }
  if (loader_version < VK_API_VERSION_1_3) {
    return UnavailableError(
        StringPrintf("the Vulkan loader offers version %u.%u; Ember needs 1.3",
                     VK_API_VERSION_MAJOR(loader_version),
                     VK_API_VERSION_MINOR(loader_version)));
  }

  Ref<VulkanInstance> instance =
      Ref<VulkanInstance>::Adopt(new VulkanInstance());
  instance->api_ = api;
  // Enabled from outside (tools, Python): nobody reads the list, so the
  // messages go to stderr as they come.
  instance->echo_messages_ =
      !options.validation && ValidationRequestedByEnvironment();
  const bool validation =
      options.validation || ValidationRequestedByEnvironment();

  std::vector<const char*> layers;
  std::vector<const char*> extensions;
  bool synchronization_validation = false;
  if (validation) {
    uint32_t count = 0;
    EMBER_VK_RETURN_IF_ERROR(
        api.vkEnumerateInstanceLayerProperties(&count, nullptr),
        "vkEnumerateInstanceLayerProperties");
    std::vector<VkLayerProperties> available(count);
    EMBER_VK_RETURN_IF_ERROR(
        api.vkEnumerateInstanceLayerProperties(&count, available.data()),
        "vkEnumerateInstanceLayerProperties");
    available.resize(count);
    bool found = false;
    for (const VkLayerProperties& layer : available) {
      if (std::strcmp(layer.layerName, kValidationLayer) == 0) found = true;
    }
    if (!found) {
      return UnavailableError(
          "Vulkan validation was requested but VK_LAYER_KHRONOS_validation "
          "is not installed");
    }
    count = 0;
    EMBER_VK_RETURN_IF_ERROR(
        api.vkEnumerateInstanceExtensionProperties(nullptr, &count, nullptr),
        "vkEnumerateInstanceExtensionProperties");
    std::vector<VkExtensionProperties> available_extensions(count);
    EMBER_VK_RETURN_IF_ERROR(api.vkEnumerateInstanceExtensionProperties(
                                 nullptr, &count, available_extensions.data()),
                             "vkEnumerateInstanceExtensionProperties");
    available_extensions.resize(count);
    if (!HasExtension(available_extensions,
                      VK_EXT_DEBUG_UTILS_EXTENSION_NAME)) {
      return UnavailableError(
          "Vulkan validation was requested but the instance has no "
          "VK_EXT_debug_utils");
    }
    layers.push_back(kValidationLayer);
    extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    // The layer's own extension turns on synchronization validation, which
    // checks the queue's barriers (vulkan_device.h) on every submission.
    count = 0;
    EMBER_VK_RETURN_IF_ERROR(api.vkEnumerateInstanceExtensionProperties(
                                 kValidationLayer, &count, nullptr),
                             "vkEnumerateInstanceExtensionProperties");
    std::vector<VkExtensionProperties> layer_extensions(count);
    EMBER_VK_RETURN_IF_ERROR(
        api.vkEnumerateInstanceExtensionProperties(kValidationLayer, &count,
                                                   layer_extensions.data()),
        "vkEnumerateInstanceExtensionProperties");
    layer_extensions.resize(count);
    if (HasExtension(layer_extensions,
                     VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME)) {
      extensions.push_back(VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);
      synchronization_validation = true;
    }
  }

  VkApplicationInfo app_info = {};
  app_info.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  app_info.pApplicationName = "ember";
  app_info.pEngineName = "ember";
  app_info.apiVersion = VK_API_VERSION_1_3;

  // Chained into the create info too, so that messages about instance
  // creation itself are recorded.
  VkDebugUtilsMessengerCreateInfoEXT messenger_info = {};
  messenger_info.sType =
      VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
  messenger_info.messageSeverity =
      VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
      VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  messenger_info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                               VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                               VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  messenger_info.pfnUserCallback = &VulkanInstance::OnDebugMessage;
  messenger_info.pUserData = instance.get();

  const VkValidationFeatureEnableEXT enabled_features[] = {
      VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
  VkValidationFeaturesEXT validation_features = {};
  validation_features.sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT;
  validation_features.enabledValidationFeatureCount = 1;
  validation_features.pEnabledValidationFeatures = enabled_features;
  // Both structures chain off the instance's create info (the messenger's
  // own pNext must stay null).
  if (synchronization_validation) validation_features.pNext = &messenger_info;

  VkInstanceCreateInfo create_info = {};
  create_info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  if (validation) {
    create_info.pNext = synchronization_validation
                            ? static_cast<const void*>(&validation_features)
                            : static_cast<const void*>(&messenger_info);
  }
  create_info.pApplicationInfo = &app_info;
  create_info.enabledLayerCount = static_cast<uint32_t>(layers.size());
  create_info.ppEnabledLayerNames = layers.data();
  create_info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  create_info.ppEnabledExtensionNames = extensions.data();
  const VkResult created =
      api.vkCreateInstance(&create_info, nullptr, &instance->instance_);
  if (created == VK_ERROR_INCOMPATIBLE_DRIVER) {
    return UnavailableError(
        "vkCreateInstance failed: VK_ERROR_INCOMPATIBLE_DRIVER (the Vulkan "
        "loader found no driver (ICD) for Vulkan 1.3)");
  }
  EMBER_VK_RETURN_IF_ERROR(created, "vkCreateInstance");
  EMBER_RETURN_IF_ERROR(instance->api_.LoadInstance(instance->instance_));
  if (validation) {
    if (instance->api_.vkCreateDebugUtilsMessengerEXT == nullptr) {
      return UnavailableError(
          "VK_EXT_debug_utils is enabled but vkCreateDebugUtilsMessengerEXT "
          "is missing");
    }
    EMBER_VK_RETURN_IF_ERROR(instance->api_.vkCreateDebugUtilsMessengerEXT(
                                 instance->instance_, &messenger_info, nullptr,
                                 &instance->messenger_),
                             "vkCreateDebugUtilsMessengerEXT");
  }
  EMBER_RETURN_IF_ERROR(instance->EnumeratePhysicalDevices());
  return instance;
}

VulkanInstance::~VulkanInstance() {
  if (instance_ == VK_NULL_HANDLE) return;
  if (messenger_ != VK_NULL_HANDLE) {
    api_.vkDestroyDebugUtilsMessengerEXT(instance_, messenger_, nullptr);
  }
  api_.vkDestroyInstance(instance_, nullptr);
}

VKAPI_ATTR VkBool32 VKAPI_CALL VulkanInstance::OnDebugMessage(
    VkDebugUtilsMessageSeverityFlagBitsEXT severity,
    VkDebugUtilsMessageTypeFlagsEXT types,
    const VkDebugUtilsMessengerCallbackDataEXT* data, void* user_data) {
  auto* instance = static_cast<VulkanInstance*>(user_data);
  std::string message =
      (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) ? "error: "
                                                                 : "warning: ";
  if (data != nullptr && data->pMessage != nullptr) message += data->pMessage;
  if (instance->echo_messages_) {
    std::fprintf(stderr, "Vulkan validation %s\n", message.c_str());
  }
  {
    std::lock_guard lock(instance->messages_mutex_);
    // Bounded: a loop that trips the same message must not grow memory
    // without end.
    if (instance->messages_.size() < 1000) {
      instance->messages_.push_back(std::move(message));
    }
  }
  return VK_FALSE;  // never abort the call (the spec's requirement)
}

std::vector<std::string> VulkanInstance::validation_messages() const {
  std::lock_guard lock(messages_mutex_);
  return messages_;
}

void VulkanInstance::ClearValidationMessages() {
  std::lock_guard lock(messages_mutex_);
  messages_.clear();
}

Status VulkanInstance::EnumeratePhysicalDevices() {
  uint32_t count = 0;
  EMBER_VK_RETURN_IF_ERROR(
      api_.vkEnumeratePhysicalDevices(instance_, &count, nullptr),
      "vkEnumeratePhysicalDevices");
  std::vector<VkPhysicalDevice> handles(count);
  EMBER_VK_RETURN_IF_ERROR(
      api_.vkEnumeratePhysicalDevices(instance_, &count, handles.data()),
      "vkEnumeratePhysicalDevices");
  handles.resize(count);
  for (uint32_t ordinal = 0; ordinal < handles.size(); ++ordinal) {
    VkPhysicalDevice handle = handles[ordinal];
    VkPhysicalDeviceProperties properties = {};
    api_.vkGetPhysicalDeviceProperties(handle, &properties);

    VkPhysicalDeviceIDProperties id_properties = {};
    id_properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES;
    VkPhysicalDeviceDriverProperties driver_properties = {};
    driver_properties.sType =
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
    VkPhysicalDeviceProperties2 properties2 = {};
    properties2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
    properties2.pNext = &id_properties;
    // Driver properties are core only from 1.2 on.
    if (properties.apiVersion >= VK_API_VERSION_1_2) {
      id_properties.pNext = &driver_properties;
    }
    api_.vkGetPhysicalDeviceProperties2(handle, &properties2);

    uint32_t family_count = 0;
    api_.vkGetPhysicalDeviceQueueFamilyProperties(handle, &family_count,
                                                  nullptr);
    std::vector<VkQueueFamilyProperties> families(family_count);
    api_.vkGetPhysicalDeviceQueueFamilyProperties(handle, &family_count,
                                                  families.data());
    bool has_compute = false;
    for (uint32_t i = 0; i < family_count; ++i) {
      if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) has_compute = true;
    }

    VulkanPhysicalDeviceInfo info;
    info.handle = handle;
    info.device_id = uint64_t{ordinal} + 1;
    info.api_version = properties.apiVersion;
    info.supported = properties.apiVersion >= VK_API_VERSION_1_3 && has_compute;
    info.path = "GPU-";
    static constexpr char kHex[] = "0123456789abcdef";
    for (uint8_t byte : id_properties.deviceUUID) {
      info.path += kHex[byte >> 4];
      info.path += kHex[byte & 15];
    }
    // Vulkan strings are NUL-terminated within their arrays; strnlen keeps
    // a driver that forgets from reading past them.
    info.name.assign(
        properties.deviceName,
        strnlen(properties.deviceName, sizeof(properties.deviceName)));
    if (driver_properties.driverName[0] != '\0') {
      info.name += " (";
      info.name.append(driver_properties.driverName,
                       strnlen(driver_properties.driverName,
                               sizeof(driver_properties.driverName)));
      if (driver_properties.driverInfo[0] != '\0') {
        info.name += ' ';
        info.name.append(driver_properties.driverInfo,
                         strnlen(driver_properties.driverInfo,
                                 sizeof(driver_properties.driverInfo)));
      }
      info.name += ')';
    }
    if (!info.supported) info.name += " [below baseline]";
    physical_devices_.push_back(std::move(info));
  }
  return Status::Ok();
}

Result<VulkanPhysicalDeviceInfo> VulkanInstance::SelectPhysicalDevice(
    std::string_view path) const {
  if (physical_devices_.empty()) {
    return NotFoundError("the Vulkan driver has no physical devices");
  }
  if (path.empty()) {
    for (const VulkanPhysicalDeviceInfo& info : physical_devices_) {
      if (info.supported) return info;
    }
    return UnavailableError(
        "no Vulkan physical device meets the Vulkan 1.3 baseline (a queue "
        "with compute)");
  }
  const VulkanPhysicalDeviceInfo* match = nullptr;
  if (path.starts_with("GPU-") || path.starts_with("gpu-")) {
    std::string lower(path);
    for (char& c : lower) c = static_cast<char>(std::tolower(c));
    for (const VulkanPhysicalDeviceInfo& info : physical_devices_) {
      std::string candidate = info.path;
      for (char& c : candidate) c = static_cast<char>(std::tolower(c));
      if (candidate == lower) match = &info;
    }
  } else {
    uint64_t ordinal = 0;
    auto [end, error] =
        std::from_chars(path.data(), path.data() + path.size(), ordinal);
    if (error != std::errc() || end != path.data() + path.size()) {
      return InvalidArgumentError(
          "Vulkan device path '" + std::string(path) +
          "' is neither GPU-<device UUID> nor a device ordinal");
    }
    if (ordinal >= physical_devices_.size()) {
      return OutOfRangeError(StringPrintf(
          "Vulkan device ordinal %llu out of range; the driver has %zu "
          "devices",
          static_cast<unsigned long long>(ordinal), physical_devices_.size()));
    }
    match = &physical_devices_[ordinal];
  }
  if (match == nullptr) {
    return NotFoundError("no Vulkan device has the path '" + std::string(path) +
                         "'");
  }
  if (!match->supported) {
    return UnavailableError("Vulkan physical device '" + match->name +
                            "' does not meet the Vulkan 1.3 baseline");
  }
  return *match;
}

}  // namespace ember::hal::vulkan
