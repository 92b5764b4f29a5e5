// The Vulkan entry points Ember calls, loaded at run time.
//
// Ember never links libvulkan: a binary built with the Vulkan device must
// still start (without the `vulkan` driver) on a machine that has no loader.
// So every translation unit sees <vulkan/vulkan.h> with VK_NO_PROTOTYPES (the
// CMake layer defines it) and calls Vulkan only through a VulkanApi, a table
// of function pointers named exactly like the commands:
//
//   const VulkanApi& vk = ...;
//   EMBER_RETURN_IF_ERROR(VkResultToStatus(
//       vk.vkCreateShaderModule(device, &info, nullptr, &module),
//       "vkCreateShaderModule"));
//
// The table fills in three stages, as Vulkan's loader requires:
//   1. LoadVulkanGlobal: dlopen("libvulkan.so.1") (once per process; the
//      handle is never closed, so pointers stay valid for the process) and
//      the commands that need no instance (vkCreateInstance, enumeration).
//   2. LoadInstance(instance): instance-level commands through
//      vkGetInstanceProcAddr(instance, ...).
//   3. LoadDevice(device): device-level commands through
//      vkGetDeviceProcAddr(device, ...), which skips the loader's dispatch
//      trampoline. A device keeps its own copy of the table.
// A required command that is missing fails the stage with UNAVAILABLE naming
// it; an optional one (an extension, or a core command newer than the
// version the device offers) is left null and its user checks for null.
#pragma once

#include <vulkan/vulkan.h>

#include <string>

#include "runtime/base/status.h"

namespace ember::hal::vulkan {

// X-macro lists: V(name) is required, O(name) optional (may stay null).

// Commands loaded with vkGetInstanceProcAddr(nullptr, ...).
#define EMBER_VULKAN_GLOBAL_COMMANDS(V, O)  \
  V(vkCreateInstance)                       \
  V(vkEnumerateInstanceExtensionProperties) \
  V(vkEnumerateInstanceLayerProperties)     \
  O(vkEnumerateInstanceVersion)

// Commands loaded with vkGetInstanceProcAddr(instance, ...).
#define EMBER_VULKAN_INSTANCE_COMMANDS(V, O)  \
  V(vkDestroyInstance)                        \
  V(vkEnumeratePhysicalDevices)               \
  V(vkGetPhysicalDeviceProperties)            \
  V(vkGetPhysicalDeviceProperties2)           \
  V(vkGetPhysicalDeviceFeatures)              \
  V(vkGetPhysicalDeviceFeatures2)             \
  V(vkGetPhysicalDeviceMemoryProperties)      \
  V(vkGetPhysicalDeviceQueueFamilyProperties) \
  V(vkEnumerateDeviceExtensionProperties)     \
  V(vkCreateDevice)                           \
  V(vkGetDeviceProcAddr)                      \
  O(vkCreateDebugUtilsMessengerEXT)           \
  O(vkDestroyDebugUtilsMessengerEXT)          \
  O(vkSetDebugUtilsObjectNameEXT)

// Commands loaded with vkGetDeviceProcAddr(device, ...).
#define EMBER_VULKAN_DEVICE_COMMANDS(V, O) \
  V(vkDestroyDevice)                       \
  V(vkGetDeviceQueue)                      \
  V(vkQueueSubmit)                         \
  V(vkQueueWaitIdle)                       \
  V(vkDeviceWaitIdle)                      \
  V(vkAllocateMemory)                      \
  V(vkFreeMemory)                          \
  V(vkMapMemory)                           \
  V(vkUnmapMemory)                         \
  V(vkFlushMappedMemoryRanges)             \
  V(vkInvalidateMappedMemoryRanges)        \
  V(vkCreateBuffer)                        \
  V(vkDestroyBuffer)                       \
  V(vkGetBufferMemoryRequirements)         \
  V(vkBindBufferMemory)                    \
  V(vkCreateFence)                         \
  V(vkDestroyFence)                        \
  V(vkResetFences)                         \
  V(vkWaitForFences)                       \
  V(vkGetFenceStatus)                      \
  V(vkCreateSemaphore)                     \
  V(vkDestroySemaphore)                    \
  V(vkCreateCommandPool)                   \
  V(vkDestroyCommandPool)                  \
  V(vkResetCommandPool)                    \
  V(vkAllocateCommandBuffers)              \
  V(vkFreeCommandBuffers)                  \
  V(vkBeginCommandBuffer)                  \
  V(vkEndCommandBuffer)                    \
  V(vkResetCommandBuffer)                  \
  V(vkCmdFillBuffer)                       \
  V(vkCmdCopyBuffer)                       \
  V(vkCmdUpdateBuffer)                     \
  V(vkCmdPipelineBarrier)                  \
  V(vkCmdBindPipeline)                     \
  V(vkCmdBindDescriptorSets)               \
  V(vkCmdPushConstants)                    \
  V(vkCmdDispatch)                         \
  V(vkCmdDispatchIndirect)                 \
  V(vkCreateShaderModule)                  \
  V(vkDestroyShaderModule)                 \
  V(vkCreateDescriptorSetLayout)           \
  V(vkDestroyDescriptorSetLayout)          \
  V(vkCreatePipelineLayout)                \
  V(vkDestroyPipelineLayout)               \
  V(vkCreateComputePipelines)              \
  V(vkDestroyPipeline)                     \
  V(vkCreatePipelineCache)                 \
  V(vkDestroyPipelineCache)                \
  V(vkCreateDescriptorPool)                \
  V(vkDestroyDescriptorPool)               \
  V(vkResetDescriptorPool)                 \
  V(vkAllocateDescriptorSets)              \
  V(vkFreeDescriptorSets)                  \
  V(vkUpdateDescriptorSets)                \
  /* Vulkan 1.2 (timeline semaphores). */  \
  O(vkWaitSemaphores)                      \
  O(vkSignalSemaphore)                     \
  O(vkGetSemaphoreCounterValue)            \
  /* Vulkan 1.3 (synchronization2). */     \
  O(vkQueueSubmit2)                        \
  O(vkCmdPipelineBarrier2)                 \
  /* Extensions. */                        \
  O(vkCmdPushDescriptorSetKHR)             \
  O(vkGetMemoryHostPointerPropertiesEXT)

struct VulkanApi {
  PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr = nullptr;
#define EMBER_VULKAN_DECLARE(name) PFN_##name name = nullptr;
  EMBER_VULKAN_GLOBAL_COMMANDS(EMBER_VULKAN_DECLARE, EMBER_VULKAN_DECLARE)
  EMBER_VULKAN_INSTANCE_COMMANDS(EMBER_VULKAN_DECLARE, EMBER_VULKAN_DECLARE)
  EMBER_VULKAN_DEVICE_COMMANDS(EMBER_VULKAN_DECLARE, EMBER_VULKAN_DECLARE)
#undef EMBER_VULKAN_DECLARE

  // Stage 2 and 3 (see the top of this file). LoadInstance needs stage 1;
  // LoadDevice needs stage 2.
  Status LoadInstance(VkInstance instance);
  Status LoadDevice(VkDevice device);
};

// Stage 1: opens the loader (once per process) and returns a table with
// vkGetInstanceProcAddr and the global commands. UNAVAILABLE with the
// dlopen message when there is no loader (the reason a `vulkan` driver is
// then absent).
Result<VulkanApi> LoadVulkanGlobal();

// "VK_ERROR_OUT_OF_DEVICE_MEMORY" etc.; nullptr for a value it does not know.
const char* VkResultName(VkResult result);

// OK for VK_SUCCESS and the other non-negative (non-error) results, which a
// caller that can get VK_TIMEOUT / VK_NOT_READY / VK_INCOMPLETE tests for
// itself; otherwise an error naming `call` and the result, e.g.
// "RESOURCE_EXHAUSTED: vkAllocateMemory failed: VK_ERROR_OUT_OF_DEVICE_MEMORY".
Status VkResultToStatus(VkResult result, const char* call);

// EMBER_VK_RETURN_IF_ERROR(vk.vkCreateFence(device, &info, nullptr, &fence),
//                          "vkCreateFence");
#define EMBER_VK_RETURN_IF_ERROR(expr, call) \
  EMBER_RETURN_IF_ERROR(::ember::hal::vulkan::VkResultToStatus((expr), call))

}  // namespace ember::hal::vulkan
