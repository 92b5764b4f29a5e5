#include "runtime/hal/vulkan/vulkan_api.h"

#include <dlfcn.h>

#include <mutex>

namespace ember::hal::vulkan {
namespace {

// The loader's soname on Linux (the unversioned libvulkan.so exists only
// with the development package).
constexpr const char* kLoaderName = "libvulkan.so.1";

struct LoaderHandle {
  void* handle = nullptr;
  PFN_vkGetInstanceProcAddr get_instance_proc_addr = nullptr;
  std::string error;  // why handle is null
};

// Opened once and never closed: function pointers, instances and devices
// made from it may live as long as the process.
const LoaderHandle& Loader() {
  static LoaderHandle* loader = [] {
    auto* result = new LoaderHandle();
    void* handle = dlopen(kLoaderName, RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      const char* why = dlerror();
      result->error = StringPrintf("cannot open the Vulkan loader %s: %s",
                                   kLoaderName, why ? why : "unknown error");
      return result;
    }
    auto proc = reinterpret_cast<PFN_vkGetInstanceProcAddr>(
        dlsym(handle, "vkGetInstanceProcAddr"));
    if (proc == nullptr) {
      result->error = StringPrintf(
          "the Vulkan loader %s has no symbol vkGetInstanceProcAddr",
          kLoaderName);
      dlclose(handle);
      return result;
    }
    result->handle = handle;
    result->get_instance_proc_addr = proc;
    return result;
  }();
  return *loader;
}

Status MissingCommand(const char* name, const char* stage) {
  return UnavailableError(StringPrintf(
      "the Vulkan %s command %s is missing (driver too old?)", stage, name));
}

}  // namespace

Result<VulkanApi> LoadVulkanGlobal() {
  const LoaderHandle& loader = Loader();
  if (loader.handle == nullptr) return UnavailableError(loader.error);
  VulkanApi api;
  api.vkGetInstanceProcAddr = loader.get_instance_proc_addr;
#define EMBER_VULKAN_LOAD_REQUIRED(name)                 \
  api.name = reinterpret_cast<PFN_##name>(               \
      api.vkGetInstanceProcAddr(VK_NULL_HANDLE, #name)); \
  if (api.name == nullptr) return MissingCommand(#name, "global");
#define EMBER_VULKAN_LOAD_OPTIONAL(name)   \
  api.name = reinterpret_cast<PFN_##name>( \
      api.vkGetInstanceProcAddr(VK_NULL_HANDLE, #name));
  EMBER_VULKAN_GLOBAL_COMMANDS(EMBER_VULKAN_LOAD_REQUIRED,
                               EMBER_VULKAN_LOAD_OPTIONAL)
#undef EMBER_VULKAN_LOAD_REQUIRED
#undef EMBER_VULKAN_LOAD_OPTIONAL
  return api;
}

Status VulkanApi::LoadInstance(VkInstance instance) {
  if (vkGetInstanceProcAddr == nullptr) {
    return FailedPreconditionError(
        "VulkanApi::LoadInstance before LoadVulkanGlobal");
  }
#define EMBER_VULKAN_LOAD_REQUIRED(name)                                       \
  name = reinterpret_cast<PFN_##name>(vkGetInstanceProcAddr(instance, #name)); \
  if (name == nullptr) return MissingCommand(#name, "instance");
#define EMBER_VULKAN_LOAD_OPTIONAL(name) \
  name = reinterpret_cast<PFN_##name>(vkGetInstanceProcAddr(instance, #name));
  EMBER_VULKAN_INSTANCE_COMMANDS(EMBER_VULKAN_LOAD_REQUIRED,
                                 EMBER_VULKAN_LOAD_OPTIONAL)
#undef EMBER_VULKAN_LOAD_REQUIRED
#undef EMBER_VULKAN_LOAD_OPTIONAL
  return Status::Ok();
}

Status VulkanApi::LoadDevice(VkDevice device) {
  if (vkGetDeviceProcAddr == nullptr) {
    return FailedPreconditionError("VulkanApi::LoadDevice before LoadInstance");
  }
#define EMBER_VULKAN_LOAD_REQUIRED(name)                                   \
  name = reinterpret_cast<PFN_##name>(vkGetDeviceProcAddr(device, #name)); \
  if (name == nullptr) return MissingCommand(#name, "device");
#define EMBER_VULKAN_LOAD_OPTIONAL(name) \
  name = reinterpret_cast<PFN_##name>(vkGetDeviceProcAddr(device, #name));
  EMBER_VULKAN_DEVICE_COMMANDS(EMBER_VULKAN_LOAD_REQUIRED,
                               EMBER_VULKAN_LOAD_OPTIONAL)
#undef EMBER_VULKAN_LOAD_REQUIRED
#undef EMBER_VULKAN_LOAD_OPTIONAL
  return Status::Ok();
}

const char* VkResultName(VkResult result) {
  switch (result) {
#define EMBER_VK_RESULT_CASE(name) \
  case name: return #name;
    EMBER_VK_RESULT_CASE(VK_SUCCESS)
    EMBER_VK_RESULT_CASE(VK_NOT_READY)
    EMBER_VK_RESULT_CASE(VK_TIMEOUT)
    EMBER_VK_RESULT_CASE(VK_EVENT_SET)
    EMBER_VK_RESULT_CASE(VK_EVENT_RESET)
    EMBER_VK_RESULT_CASE(VK_INCOMPLETE)
    EMBER_VK_RESULT_CASE(VK_ERROR_OUT_OF_HOST_MEMORY)
    EMBER_VK_RESULT_CASE(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    EMBER_VK_RESULT_CASE(VK_ERROR_INITIALIZATION_FAILED)
    EMBER_VK_RESULT_CASE(VK_ERROR_DEVICE_LOST)
    EMBER_VK_RESULT_CASE(VK_ERROR_MEMORY_MAP_FAILED)
    EMBER_VK_RESULT_CASE(VK_ERROR_LAYER_NOT_PRESENT)
    EMBER_VK_RESULT_CASE(VK_ERROR_EXTENSION_NOT_PRESENT)
    EMBER_VK_RESULT_CASE(VK_ERROR_FEATURE_NOT_PRESENT)
    EMBER_VK_RESULT_CASE(VK_ERROR_INCOMPATIBLE_DRIVER)
    EMBER_VK_RESULT_CASE(VK_ERROR_TOO_MANY_OBJECTS)
    EMBER_VK_RESULT_CASE(VK_ERROR_FORMAT_NOT_SUPPORTED)
    EMBER_VK_RESULT_CASE(VK_ERROR_FRAGMENTED_POOL)
    EMBER_VK_RESULT_CASE(VK_ERROR_UNKNOWN)
    EMBER_VK_RESULT_CASE(VK_ERROR_OUT_OF_POOL_MEMORY)
    EMBER_VK_RESULT_CASE(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    EMBER_VK_RESULT_CASE(VK_ERROR_FRAGMENTATION)
    EMBER_VK_RESULT_CASE(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
    EMBER_VK_RESULT_CASE(VK_PIPELINE_COMPILE_REQUIRED)
    EMBER_VK_RESULT_CASE(VK_ERROR_INVALID_SHADER_NV)
#undef EMBER_VK_RESULT_CASE
    default: return nullptr;
  }
}

Status VkResultToStatus(VkResult result, const char* call) {
  if (result >= 0) return Status::Ok();
  StatusCode code = StatusCode::kInternal;
  switch (result) {
    case VK_ERROR_OUT_OF_HOST_MEMORY:
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
    case VK_ERROR_TOO_MANY_OBJECTS:
    case VK_ERROR_OUT_OF_POOL_MEMORY:
    case VK_ERROR_FRAGMENTED_POOL:
    case VK_ERROR_FRAGMENTATION: code = StatusCode::kResourceExhausted; break;
    case VK_ERROR_INITIALIZATION_FAILED:
    case VK_ERROR_DEVICE_LOST:
    case VK_ERROR_INCOMPATIBLE_DRIVER: code = StatusCode::kUnavailable; break;
    case VK_ERROR_LAYER_NOT_PRESENT:
    case VK_ERROR_EXTENSION_NOT_PRESENT:
    case VK_ERROR_FEATURE_NOT_PRESENT:
    case VK_ERROR_FORMAT_NOT_SUPPORTED:
      code = StatusCode::kUnimplemented;
      break;
    case VK_ERROR_INVALID_EXTERNAL_HANDLE:
    case VK_ERROR_INVALID_SHADER_NV:
    case VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS:
      code = StatusCode::kInvalidArgument;
      break;
    case VK_ERROR_MEMORY_MAP_FAILED: code = StatusCode::kInternal; break;
    default: code = StatusCode::kUnknown; break;
  }
  const char* name = VkResultName(result);
  if (name != nullptr) {
    return MakeStatus(code, "%s failed: %s", call, name);
  }
  return MakeStatus(code, "%s failed: VkResult(%d)", call,
                    static_cast<int>(result));
}

}  // namespace ember::hal::vulkan
