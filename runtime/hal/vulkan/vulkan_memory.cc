// VulkanContext, VulkanBuffer and VulkanAllocator (vulkan_device.h).
#include <algorithm>
#include <cstring>

#include "runtime/hal/vulkan/vulkan_device.h"

namespace ember::hal::vulkan {
namespace {

// The largest staging buffer one operation makes (a fill with a 64-bit
// pattern that Vulkan cannot do by itself is the only user of a large one).
constexpr uint64_t kStagingChunk = uint64_t{64} << 20;

bool HasExtension(const std::vector<VkExtensionProperties>& extensions,
                  const char* name) {
  for (const VkExtensionProperties& extension : extensions) {
    if (std::strcmp(extension.extensionName, name) == 0) return true;
  }
  return false;
}

void UpdatePeak(std::atomic<uint64_t>& peak, uint64_t value) {
  uint64_t seen = peak.load(std::memory_order_relaxed);
  while (value > seen &&
         !peak.compare_exchange_weak(seen, value, std::memory_order_relaxed)) {
  }
}

}  // namespace

// ---- VulkanContext ----------------------------------------------------------

Result<Ref<VulkanContext>> VulkanContext::Create(
    Ref<VulkanInstance> instance, const VulkanPhysicalDeviceInfo& info,
    const VulkanDeviceOptions& options) {
  Ref<VulkanContext> context = Ref<VulkanContext>::Adopt(new VulkanContext());
  context->api_ = instance->api();
  context->instance_ = std::move(instance);
  context->info_ = info;
  context->physical_device_ = info.handle;
  const VulkanApi& vk = context->api_;
  VkPhysicalDevice physical = info.handle;
  vk.vkGetPhysicalDeviceProperties(physical, &context->properties_);
  vk.vkGetPhysicalDeviceMemoryProperties(physical,
                                         &context->memory_properties_);

  // One queue of the first family with compute (a compute-only family
  // first: on a GPU with one it is the dedicated compute engine).
  uint32_t family_count = 0;
  vk.vkGetPhysicalDeviceQueueFamilyProperties(physical, &family_count, nullptr);
  std::vector<VkQueueFamilyProperties> families(family_count);
  vk.vkGetPhysicalDeviceQueueFamilyProperties(physical, &family_count,
                                              families.data());
  int chosen = -1;
  for (uint32_t i = 0; i < family_count; ++i) {
    const VkQueueFlags flags = families[i].queueFlags;
    if (!(flags & VK_QUEUE_COMPUTE_BIT) || families[i].queueCount == 0) {
      continue;
    }
    const bool dedicated = !(flags & VK_QUEUE_GRAPHICS_BIT);
    if (chosen < 0 || dedicated) chosen = static_cast<int>(i);
    if (dedicated) break;
  }
  if (chosen < 0) {
    return UnavailableError("Vulkan device '" + info.name +
                            "' has no queue family with compute");
  }
  context->queue_family_ = static_cast<uint32_t>(chosen);

  uint32_t extension_count = 0;
  EMBER_VK_RETURN_IF_ERROR(vk.vkEnumerateDeviceExtensionProperties(
                               physical, nullptr, &extension_count, nullptr),
                           "vkEnumerateDeviceExtensionProperties");
  std::vector<VkExtensionProperties> available(extension_count);
  EMBER_VK_RETURN_IF_ERROR(
      vk.vkEnumerateDeviceExtensionProperties(
          physical, nullptr, &extension_count, available.data()),
      "vkEnumerateDeviceExtensionProperties");
  available.resize(extension_count);
  std::vector<const char*> extensions;
  if (HasExtension(available, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME)) {
    extensions.push_back(VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
    context->has_push_descriptors_ = true;
  }
  if (HasExtension(available, VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME)) {
    extensions.push_back(VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME);
    context->has_external_memory_host_ = true;
    VkPhysicalDeviceExternalMemoryHostPropertiesEXT host_properties = {};
    host_properties.sType =
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT;
    VkPhysicalDeviceProperties2 properties2 = {};
    properties2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
    properties2.pNext = &host_properties;
    vk.vkGetPhysicalDeviceProperties2(physical, &properties2);
    context->min_imported_host_pointer_alignment_ =
        host_properties.minImportedHostPointerAlignment;
  }

  {
    VkPhysicalDevicePushDescriptorPropertiesKHR push_properties = {};
    push_properties.sType =
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PUSH_DESCRIPTOR_PROPERTIES_KHR;
    VkPhysicalDeviceVulkan13Properties properties13 = {};
    properties13.sType =
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES;
    properties13.pNext = &push_properties;
    VkPhysicalDeviceProperties2 properties2 = {};
    properties2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
    properties2.pNext = &properties13;
    vk.vkGetPhysicalDeviceProperties2(physical, &properties2);
    if (context->has_push_descriptors_) {
      context->max_push_descriptors_ = push_properties.maxPushDescriptors;
    }
    context->min_subgroup_size_ = properties13.minSubgroupSize;
    context->max_subgroup_size_ = properties13.maxSubgroupSize;
    context->subgroup_size_control_ = (properties13.requiredSubgroupSizeStages &
                                       VK_SHADER_STAGE_COMPUTE_BIT) != 0;
  }

  // Every feature the device offers is enabled: the SPIR-V a compiler made
  // for this device may use any of them (8/16-bit storage, int64, ...), and
  // enabling what exists costs nothing on the devices Ember targets.
  VkPhysicalDeviceVulkan13Features features13 = {};
  features13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
  VkPhysicalDeviceVulkan12Features features12 = {};
  features12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
  features12.pNext = &features13;
  VkPhysicalDeviceVulkan11Features features11 = {};
  features11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
  features11.pNext = &features12;
  VkPhysicalDeviceFeatures2 features2 = {};
  features2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  features2.pNext = &features11;
  vk.vkGetPhysicalDeviceFeatures2(physical, &features2);
  // Robust access slows every load and store; Ember checks ranges itself.
  features2.features.robustBufferAccess = VK_FALSE;
  features13.robustImageAccess = VK_FALSE;
  if (!features13.subgroupSizeControl) context->subgroup_size_control_ = false;

  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info = {};
  queue_info.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
  queue_info.queueFamilyIndex = context->queue_family_;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  VkDeviceCreateInfo create_info = {};
  create_info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
  create_info.pNext = &features2;
  create_info.queueCreateInfoCount = 1;
  create_info.pQueueCreateInfos = &queue_info;
  create_info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  create_info.ppEnabledExtensionNames = extensions.data();
  EMBER_VK_RETURN_IF_ERROR(
      vk.vkCreateDevice(physical, &create_info, nullptr, &context->device_),
      "vkCreateDevice");
  EMBER_RETURN_IF_ERROR(context->api_.LoadDevice(context->device_));
  if (context->has_push_descriptors_ &&
      context->api_.vkCmdPushDescriptorSetKHR == nullptr) {
    context->has_push_descriptors_ = false;
  }
  if (context->has_external_memory_host_ &&
      context->api_.vkGetMemoryHostPointerPropertiesEXT == nullptr) {
    context->has_external_memory_host_ = false;
  }
  context->api_.vkGetDeviceQueue(context->device_, context->queue_family_, 0,
                                 &context->queue_);

  VkCommandPoolCreateInfo pool_info = {};
  pool_info.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
  pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool_info.queueFamilyIndex = context->queue_family_;
  EMBER_VK_RETURN_IF_ERROR(
      context->api_.vkCreateCommandPool(context->device_, &pool_info, nullptr,
                                        &context->immediate_pool_),
      "vkCreateCommandPool");
  VkCommandBufferAllocateInfo allocate_info = {};
  allocate_info.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
  allocate_info.commandPool = context->immediate_pool_;
  allocate_info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  allocate_info.commandBufferCount = 1;
  EMBER_VK_RETURN_IF_ERROR(context->api_.vkAllocateCommandBuffers(
                               context->device_, &allocate_info,
                               &context->immediate_command_buffer_),
                           "vkAllocateCommandBuffers");
  VkFenceCreateInfo fence_info = {};
  fence_info.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
  EMBER_VK_RETURN_IF_ERROR(
      context->api_.vkCreateFence(context->device_, &fence_info, nullptr,
                                  &context->immediate_fence_),
      "vkCreateFence");
  return context;
}

VulkanContext::~VulkanContext() {
  if (device_ == VK_NULL_HANDLE) return;
  api_.vkDeviceWaitIdle(device_);
  if (immediate_fence_ != VK_NULL_HANDLE) {
    api_.vkDestroyFence(device_, immediate_fence_, nullptr);
  }
  if (immediate_pool_ != VK_NULL_HANDLE) {
    api_.vkDestroyCommandPool(device_, immediate_pool_, nullptr);
  }
  api_.vkDestroyDevice(device_, nullptr);
}

Status VulkanContext::Submit(VkCommandBuffer command_buffer, VkFence fence) {
  VkSubmitInfo submit = {};
  submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &command_buffer;
  std::lock_guard lock(queue_mutex_);
  EMBER_VK_RETURN_IF_ERROR(api_.vkQueueSubmit(queue_, 1, &submit, fence),
                           "vkQueueSubmit");
  return Status::Ok();
}

Status VulkanContext::SubmitAndWait(
    const std::function<Status(VkCommandBuffer)>& record) {
  std::lock_guard lock(immediate_mutex_);
  VkCommandBuffer command_buffer = immediate_command_buffer_;
  EMBER_VK_RETURN_IF_ERROR(api_.vkResetCommandBuffer(command_buffer, 0),
                           "vkResetCommandBuffer");
  VkCommandBufferBeginInfo begin = {};
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  EMBER_VK_RETURN_IF_ERROR(api_.vkBeginCommandBuffer(command_buffer, &begin),
                           "vkBeginCommandBuffer");
  RecordFullBarrier(command_buffer);
  Status recorded = record(command_buffer);
  RecordHostVisibilityBarrier(command_buffer);
  EMBER_VK_RETURN_IF_ERROR(api_.vkEndCommandBuffer(command_buffer),
                           "vkEndCommandBuffer");
  EMBER_RETURN_IF_ERROR(recorded);
  EMBER_VK_RETURN_IF_ERROR(api_.vkResetFences(device_, 1, &immediate_fence_),
                           "vkResetFences");
  EMBER_RETURN_IF_ERROR(Submit(command_buffer, immediate_fence_));
  // What is submitted here is one bounded transfer; only a lost device
  // ends the wait early.
  EMBER_VK_RETURN_IF_ERROR(
      api_.vkWaitForFences(device_, 1, &immediate_fence_, VK_TRUE, UINT64_MAX),
      "vkWaitForFences");
  return Status::Ok();
}

void VulkanContext::RecordFullBarrier(VkCommandBuffer command_buffer) const {
  VkMemoryBarrier barrier = {};
  barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
  barrier.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
  barrier.dstAccessMask =
      VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
  api_.vkCmdPipelineBarrier(command_buffer, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                            VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1, &barrier,
                            0, nullptr, 0, nullptr);
}

void VulkanContext::RecordHostVisibilityBarrier(
    VkCommandBuffer command_buffer) const {
  VkMemoryBarrier barrier = {};
  barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
  barrier.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT | VK_ACCESS_HOST_WRITE_BIT;
  api_.vkCmdPipelineBarrier(command_buffer, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                            VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0,
                            nullptr, 0, nullptr);
}

// ---- VulkanBuffer -----------------------------------------------------------

VulkanBuffer::VulkanBuffer(const BufferParams& params, uint64_t size,
                           uint8_t* host_data, Ref<VulkanContext> context)
    : Buffer(params, size, host_data, context->memory_domain()),
      context_(std::move(context)) {}

VulkanBuffer::~VulkanBuffer() {
  const VulkanApi& vk = context_->api();
  VkDevice device = context_->device();
  if (buffer_ != VK_NULL_HANDLE) vk.vkDestroyBuffer(device, buffer_, nullptr);
  if (memory_ != VK_NULL_HANDLE) {
    if (mapped_) vk.vkUnmapMemory(device, memory_);
    vk.vkFreeMemory(device, memory_, nullptr);
  }
  if (counters_) {
    if (heap_ < 0) {
      counters_->bytes_imported.fetch_sub(counted_, std::memory_order_relaxed);
    } else {
      counters_->bytes_allocated.fetch_sub(counted_, std::memory_order_relaxed);
      counters_->heaps[heap_].freed.fetch_add(counted_,
                                              std::memory_order_relaxed);
    }
  }
  // After the memory is gone: the owner's memory must outlive the import.
  if (import_release_) import_release_();
}

// The range of `memory` to flush or invalidate for [offset, offset +
// length): Vulkan wants multiples of nonCoherentAtomSize, or the end.
static VkMappedMemoryRange AtomAlignedRange(VkDeviceMemory memory,
                                            uint64_t atom_size,
                                            uint64_t memory_size,
                                            uint64_t offset, uint64_t length) {
  const uint64_t atom = std::max<uint64_t>(1, atom_size);
  VkMappedMemoryRange range = {};
  range.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE;
  range.memory = memory;
  range.offset = offset / atom * atom;
  const uint64_t end = (offset + length + atom - 1) / atom * atom;
  range.size = end >= memory_size ? VK_WHOLE_SIZE : end - range.offset;
  return range;
}

Status VulkanBuffer::FlushAllocation(uint64_t offset, uint64_t length) {
  if (coherent_ || !mapped_ || length == 0) return Status::Ok();
  const VkMappedMemoryRange range = AtomAlignedRange(
      memory_, context_->properties().limits.nonCoherentAtomSize, vk_size_,
      offset, length);
  EMBER_VK_RETURN_IF_ERROR(
      context_->api().vkFlushMappedMemoryRanges(context_->device(), 1, &range),
      "vkFlushMappedMemoryRanges");
  return Status::Ok();
}

Status VulkanBuffer::InvalidateAllocation(uint64_t offset, uint64_t length) {
  if (coherent_ || !mapped_ || length == 0) return Status::Ok();
  const VkMappedMemoryRange range = AtomAlignedRange(
      memory_, context_->properties().limits.nonCoherentAtomSize, vk_size_,
      offset, length);
  EMBER_VK_RETURN_IF_ERROR(context_->api().vkInvalidateMappedMemoryRanges(
                               context_->device(), 1, &range),
                           "vkInvalidateMappedMemoryRanges");
  return Status::Ok();
}

// ---- VulkanAllocator --------------------------------------------------------

VulkanAllocator::VulkanAllocator(Ref<VulkanContext> context,
                                 bool strict_device_local)
    : context_(std::move(context)), strict_device_local_(strict_device_local) {}

VulkanAllocator::~VulkanAllocator() = default;

Result<VulkanAllocator::Placement> VulkanAllocator::Place(
    const BufferParams& params, uint32_t allowed_type_bits) const {
  return PlaceIn(context_->memory_properties(), params, allowed_type_bits,
                 strict_device_local_);
}

Result<VulkanAllocator::Placement> VulkanAllocator::PlaceIn(
    const VkPhysicalDeviceMemoryProperties& memory, const BufferParams& params,
    uint32_t allowed_type_bits, bool strict_device_local) {
  const MemoryType type = params.type;
  // Mapping usage (not optional) needs memory the host can see.
  const bool mapping_required =
      HasAny(params.usage,
             BufferUsage::kMappingScoped | BufferUsage::kMappingPersistent) &&
      !HasAny(params.usage, BufferUsage::kMappingOptional);
  const bool want_host =
      HasAny(type, MemoryType::kHostVisible) || mapping_required;
  const bool want_device_local =
      HasAll(type, MemoryType::kDeviceLocal) ||
      (!want_host && !HasAny(type, MemoryType::kHostLocal));
  VkMemoryPropertyFlags required = 0;
  if (want_host) required |= VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
  if (want_host && HasAll(type, MemoryType::kHostCoherent)) {
    required |= VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  }
  int best = -1;
  int best_score = -1;
  for (uint32_t i = 0; i < memory.memoryTypeCount && i < 32; ++i) {
    if (!(allowed_type_bits & (1u << i))) continue;
    const VkMemoryPropertyFlags flags = memory.memoryTypes[i].propertyFlags;
    if ((flags & required) != required) continue;
    // Protected and lazily allocated memory cannot back plain buffers.
    if (flags & (VK_MEMORY_PROPERTY_PROTECTED_BIT |
                 VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT)) {
      continue;
    }
    int score = 0;
    const bool device_local = flags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    const bool host_visible = flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
    if (!want_host && !host_visible) score += 8;
    if (want_device_local == device_local) score += 4;
    if (HasAll(type, MemoryType::kHostCached) &&
        (flags & VK_MEMORY_PROPERTY_HOST_CACHED_BIT)) {
      score += 2;
    }
    // Coherent memory above all other preferences: recorded command
    // buffers drop flush/invalidate ranges (command_buffer.h,
    // SynchronizeRange), so non-coherent memory is a last resort.
    if (want_host && (flags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)) {
      score += 16;
    }
    if (score > best_score) {
      best = static_cast<int>(i);
      best_score = score;
    }
  }
  if (best < 0) {
    return ResourceExhaustedError(
        "no Vulkan memory type satisfies the request for " +
        MemoryTypeToString(type) + " memory with usage " +
        BufferUsageToString(params.usage));
  }
  const VkMemoryPropertyFlags flags = memory.memoryTypes[best].propertyFlags;
  Placement placement;
  placement.type_index = static_cast<uint32_t>(best);
  placement.mapped = (flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) &&
                     (want_host || !strict_device_local);
  MemoryType result = MemoryType::kDeviceVisible;
  if (flags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) {
    result = result | MemoryType::kDeviceLocal;
  }
  if (placement.mapped) {
    result = result | MemoryType::kHostVisible;
    if (flags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT) {
      result = result | MemoryType::kHostCoherent;
      if (!(flags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)) {
        result = result | MemoryType::kHostLocal;
      }
    }
    if (flags & VK_MEMORY_PROPERTY_HOST_CACHED_BIT) {
      result = result | MemoryType::kHostCached;
    }
  }
  placement.memory_type = result;
  return placement;
}

namespace {

// Every buffer can be used for everything a queue or dispatch does with
// buffers: the HAL's usage bits are checked by Ember, not by Vulkan.
constexpr VkBufferUsageFlags kAllBufferUsages =
    VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
    VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
    VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT;

uint64_t VkSizeFor(uint64_t size) {
  return std::max<uint64_t>(4, (size + 3) & ~uint64_t{3});
}

}  // namespace

Result<Ref<VulkanBuffer>> VulkanAllocator::AllocateBuffer(
    const BufferParams& params, uint64_t size, bool count, bool zero) {
  if (size > kMaxAllocationSize) {
    return ResourceExhaustedError(
        StringPrintf("allocation of %llu bytes exceeds the limit",
                     static_cast<unsigned long long>(size)));
  }
  const VulkanApi& vk = context_->api();
  VkDevice device = context_->device();
  const uint64_t vk_size = VkSizeFor(size);

  VkBufferCreateInfo buffer_info = {};
  buffer_info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  buffer_info.size = vk_size;
  buffer_info.usage = kAllBufferUsages;
  buffer_info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VkBuffer handle = VK_NULL_HANDLE;
  EMBER_VK_RETURN_IF_ERROR(
      vk.vkCreateBuffer(device, &buffer_info, nullptr, &handle),
      "vkCreateBuffer");
  VkMemoryRequirements requirements = {};
  vk.vkGetBufferMemoryRequirements(device, handle, &requirements);
  Result<Placement> placement = Place(params, requirements.memoryTypeBits);
  if (!placement.ok()) {
    vk.vkDestroyBuffer(device, handle, nullptr);
    return placement.status();
  }
  VkMemoryAllocateInfo allocate_info = {};
  allocate_info.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  allocate_info.allocationSize = requirements.size;
  allocate_info.memoryTypeIndex = placement->type_index;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkResult result =
      vk.vkAllocateMemory(device, &allocate_info, nullptr, &memory);
  if (result != VK_SUCCESS) {
    vk.vkDestroyBuffer(device, handle, nullptr);
    return VkResultToStatus(result, "vkAllocateMemory");
  }
  result = vk.vkBindBufferMemory(device, handle, memory, 0);
  void* mapped = nullptr;
  if (result == VK_SUCCESS && placement->mapped) {
    result = vk.vkMapMemory(device, memory, 0, VK_WHOLE_SIZE, 0, &mapped);
    if (result != VK_SUCCESS) {
      vk.vkDestroyBuffer(device, handle, nullptr);
      vk.vkFreeMemory(device, memory, nullptr);
      return VkResultToStatus(result, "vkMapMemory");
    }
  } else if (result != VK_SUCCESS) {
    vk.vkDestroyBuffer(device, handle, nullptr);
    vk.vkFreeMemory(device, memory, nullptr);
    return VkResultToStatus(result, "vkBindBufferMemory");
  }

  BufferParams effective = params;
  effective.type = placement->memory_type;
  effective.usage = params.usage | BufferUsage::kTransfer;
  if (!placement->mapped) {
    effective.usage =
        effective.usage &
        ~(BufferUsage::kMappingScoped | BufferUsage::kMappingPersistent |
          BufferUsage::kMappingOptional | BufferUsage::kMappingAccessRandom |
          BufferUsage::kMappingAccessSequentialWrite);
  }
  Ref<VulkanBuffer> buffer = Ref<VulkanBuffer>::Adopt(new VulkanBuffer(
      effective, size, static_cast<uint8_t*>(mapped), context_));
  buffer->buffer_ = handle;
  buffer->memory_ = memory;
  buffer->vk_size_ = vk_size;
  buffer->mapped_ = mapped != nullptr;
  buffer->coherent_ = (context_->memory_properties()
                           .memoryTypes[placement->type_index]
                           .propertyFlags &
                       VK_MEMORY_PROPERTY_HOST_COHERENT_BIT) != 0;
  if (count) {
    const int heap =
        HasAll(placement->memory_type, MemoryType::kHostLocal) ? 0 : 1;
    buffer->counters_ = counters_;
    buffer->heap_ = heap;
    buffer->counted_ = size;
    const uint64_t live =
        counters_->bytes_allocated.fetch_add(size, std::memory_order_relaxed) +
        size;
    UpdatePeak(counters_->bytes_peak, live);
    counters_->allocation_count.fetch_add(1, std::memory_order_relaxed);
    auto& heap_counters = counters_->heaps[heap];
    const uint64_t allocated =
        heap_counters.allocated.fetch_add(size, std::memory_order_relaxed) +
        size;
    UpdatePeak(heap_counters.peak,
               allocated - heap_counters.freed.load(std::memory_order_relaxed));
  }
  if (zero) {
    if (mapped != nullptr) {
      std::memset(mapped, 0, vk_size);
      EMBER_RETURN_IF_ERROR(buffer->FlushAllocation(0, vk_size));
    } else {
      EMBER_RETURN_IF_ERROR(
          context_->SubmitAndWait([&](VkCommandBuffer command_buffer) {
            vk.vkCmdFillBuffer(command_buffer, handle, 0, VK_WHOLE_SIZE, 0);
            return Status::Ok();
          }),
          "zero-filling a new device-local buffer");
    }
  }
  return buffer;
}

Result<Ref<Buffer>> VulkanAllocator::Allocate(const BufferParams& params,
                                              uint64_t size) {
  EMBER_ASSIGN_OR_RETURN(Ref<VulkanBuffer> buffer,
                         AllocateBuffer(params, size, true, true));
  return Ref<Buffer>(std::move(buffer));
}

Result<Ref<VulkanBuffer>> VulkanAllocator::AllocateStaging(uint64_t size) {
  BufferParams params;
  params.type = MemoryType::kHostLocal;
  params.usage = BufferUsage::kTransfer | BufferUsage::kMapping;
  params.access = MemoryAccess::kAll;
  return AllocateBuffer(params, size, false, false);
}

Status VulkanAllocator::CopyIn(VulkanBuffer& buffer, uint64_t offset,
                               std::span<const uint8_t> bytes) {
  if (bytes.empty()) return Status::Ok();
  if (buffer.host_mappable()) {
    EMBER_ASSIGN_OR_RETURN(std::span<uint8_t> range,
                           buffer.HostRange(offset, bytes.size()));
    std::memcpy(range.data(), bytes.data(), bytes.size());
    return buffer.Flush(offset, bytes.size());
  }
  // Through staging, a bounded chunk at a time.
  const uint64_t chunk = std::min<uint64_t>(bytes.size(), kStagingChunk);
  EMBER_ASSIGN_OR_RETURN(Ref<VulkanBuffer> staging, AllocateStaging(chunk));
  for (uint64_t done = 0; done < bytes.size();) {
    const uint64_t n = std::min<uint64_t>(chunk, bytes.size() - done);
    EMBER_ASSIGN_OR_RETURN(std::span<uint8_t> range, staging->HostRange(0, n));
    std::memcpy(range.data(), bytes.data() + done, n);
    EMBER_RETURN_IF_ERROR(staging->Flush(0, n));
    EMBER_RETURN_IF_ERROR(context_->SubmitAndWait([&](VkCommandBuffer cb) {
      VkBufferCopy region = {0, offset + done, n};
      context_->api().vkCmdCopyBuffer(cb, staging->handle(), buffer.handle(), 1,
                                      &region);
      return Status::Ok();
    }));
    done += n;
  }
  return Status::Ok();
}

Status VulkanAllocator::CopyOut(VulkanBuffer& buffer, uint64_t offset,
                                std::span<uint8_t> bytes) {
  if (bytes.empty()) return Status::Ok();
  if (buffer.host_mappable()) {
    EMBER_RETURN_IF_ERROR(buffer.Invalidate(offset, bytes.size()));
    EMBER_ASSIGN_OR_RETURN(std::span<uint8_t> range,
                           buffer.HostRange(offset, bytes.size()));
    std::memcpy(bytes.data(), range.data(), bytes.size());
    return Status::Ok();
  }
  const uint64_t chunk = std::min<uint64_t>(bytes.size(), kStagingChunk);
  EMBER_ASSIGN_OR_RETURN(Ref<VulkanBuffer> staging, AllocateStaging(chunk));
  for (uint64_t done = 0; done < bytes.size();) {
    const uint64_t n = std::min<uint64_t>(chunk, bytes.size() - done);
    EMBER_RETURN_IF_ERROR(context_->SubmitAndWait([&](VkCommandBuffer cb) {
      VkBufferCopy region = {offset + done, 0, n};
      context_->api().vkCmdCopyBuffer(cb, buffer.handle(), staging->handle(), 1,
                                      &region);
      return Status::Ok();
    }));
    EMBER_RETURN_IF_ERROR(staging->Invalidate(0, n));
    EMBER_ASSIGN_OR_RETURN(std::span<uint8_t> range, staging->HostRange(0, n));
    std::memcpy(bytes.data() + done, range.data(), n);
    done += n;
  }
  return Status::Ok();
}

Result<Ref<Buffer>> VulkanAllocator::AllocateCopy(
    const BufferParams& params, std::span<const uint8_t> bytes) {
  EMBER_ASSIGN_OR_RETURN(Ref<VulkanBuffer> buffer,
                         AllocateBuffer(params, bytes.size(), true, true));
  EMBER_RETURN_IF_ERROR(CopyIn(*buffer, 0, bytes));
  return Ref<Buffer>(std::move(buffer));
}

bool VulkanAllocator::CanImport(const BufferParams& params,
                                std::span<const uint8_t> bytes) const {
  if (!context_->has_external_memory_host()) return false;
  if (!HasAny(params.access, MemoryAccess::kWrite)) return false;
  const uint64_t alignment =
      std::max<uint64_t>(1, context_->min_imported_host_pointer_alignment());
  const uint64_t address = reinterpret_cast<uintptr_t>(bytes.data());
  return !bytes.empty() && address % alignment == 0 &&
         bytes.size() % alignment == 0 && bytes.size() <= kMaxAllocationSize;
}

Result<Ref<Buffer>> VulkanAllocator::Import(const BufferParams& params,
                                            std::span<uint8_t> bytes,
                                            std::function<void()> release) {
  // `release` runs on every failure path (the contract), so wrap it.
  struct ReleaseOnFailure {
    std::function<void()>* release;
    ~ReleaseOnFailure() {
      if (release && *release) (*release)();
    }
  } guard{&release};
  if (!context_->has_external_memory_host()) {
    return UnavailableError(
        "this Vulkan device cannot import host memory (no "
        "VK_EXT_external_memory_host); copy instead");
  }
  const uint64_t alignment =
      std::max<uint64_t>(1, context_->min_imported_host_pointer_alignment());
  const uint64_t address = reinterpret_cast<uintptr_t>(bytes.data());
  if (!HasAny(params.access, MemoryAccess::kWrite)) {
    return UnavailableError(
        "the Vulkan device does not import read-only host memory (a "
        "dispatch could write it); copy instead");
  }
  if (bytes.empty() || address % alignment != 0 ||
      bytes.size() % alignment != 0) {
    return UnavailableError(StringPrintf(
        "host memory at %p of %zu bytes is not aligned to the Vulkan "
        "device's import alignment of %llu bytes; copy instead",
        static_cast<void*>(bytes.data()), bytes.size(),
        static_cast<unsigned long long>(alignment)));
  }
  if (bytes.size() > kMaxAllocationSize) {
    return ResourceExhaustedError("import larger than the allocation limit");
  }
  const VulkanApi& vk = context_->api();
  VkDevice device = context_->device();
  VkMemoryHostPointerPropertiesEXT pointer_properties = {};
  pointer_properties.sType =
      VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT;
  VkResult result = vk.vkGetMemoryHostPointerPropertiesEXT(
      device, VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT,
      bytes.data(), &pointer_properties);
  if (result != VK_SUCCESS) {
    return UnavailableError(
        std::string("the Vulkan device cannot import this host memory: ") +
        VkResultToStatus(result, "vkGetMemoryHostPointerPropertiesEXT")
            .ToString());
  }
  VkExternalMemoryBufferCreateInfo external_info = {};
  external_info.sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO;
  external_info.handleTypes =
      VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
  VkBufferCreateInfo buffer_info = {};
  buffer_info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  buffer_info.pNext = &external_info;
  buffer_info.size = bytes.size();
  buffer_info.usage = kAllBufferUsages;
  buffer_info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VkBuffer handle = VK_NULL_HANDLE;
  EMBER_VK_RETURN_IF_ERROR(
      vk.vkCreateBuffer(device, &buffer_info, nullptr, &handle),
      "vkCreateBuffer");
  VkMemoryRequirements requirements = {};
  vk.vkGetBufferMemoryRequirements(device, handle, &requirements);
  BufferParams host_params = params;
  host_params.type = params.type | MemoryType::kHostVisible;
  Result<Placement> placement =
      Place(host_params,
            requirements.memoryTypeBits & pointer_properties.memoryTypeBits);
  if (!placement.ok() || requirements.size > bytes.size()) {
    vk.vkDestroyBuffer(device, handle, nullptr);
    return UnavailableError(
        "no Vulkan memory type can import this host memory; copy instead");
  }
  VkImportMemoryHostPointerInfoEXT import_info = {};
  import_info.sType = VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT;
  import_info.handleType =
      VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
  import_info.pHostPointer = bytes.data();
  VkMemoryAllocateInfo allocate_info = {};
  allocate_info.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  allocate_info.pNext = &import_info;
  allocate_info.allocationSize = bytes.size();
  allocate_info.memoryTypeIndex = placement->type_index;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  result = vk.vkAllocateMemory(device, &allocate_info, nullptr, &memory);
  if (result == VK_SUCCESS) {
    result = vk.vkBindBufferMemory(device, handle, memory, 0);
  }
  if (result != VK_SUCCESS) {
    vk.vkDestroyBuffer(device, handle, nullptr);
    if (memory != VK_NULL_HANDLE) vk.vkFreeMemory(device, memory, nullptr);
    return UnavailableError(
        "the Vulkan device refused to import this host memory (" +
        VkResultToStatus(result, "vkAllocateMemory").ToString() +
        "); copy instead");
  }
  BufferParams effective = params;
  // The host sees imported memory at its own address, coherently.
  effective.type = placement->memory_type | MemoryType::kHostVisible |
                   MemoryType::kHostCoherent;
  effective.usage = params.usage | BufferUsage::kTransfer;
  Ref<VulkanBuffer> buffer = Ref<VulkanBuffer>::Adopt(
      new VulkanBuffer(effective, bytes.size(), bytes.data(), context_));
  buffer->buffer_ = handle;
  buffer->memory_ = memory;
  buffer->vk_size_ = bytes.size();
  buffer->mapped_ = false;  // never vkMapMemory'd: the host owns the pages
  buffer->coherent_ = true;
  buffer->counters_ = counters_;
  buffer->heap_ = -1;
  buffer->counted_ = bytes.size();
  buffer->import_release_ = std::move(release);
  guard.release = nullptr;
  counters_->bytes_imported.fetch_add(bytes.size(), std::memory_order_relaxed);
  counters_->import_count.fetch_add(1, std::memory_order_relaxed);
  return Ref<Buffer>(std::move(buffer));
}

AllocatorStatistics VulkanAllocator::statistics() const {
  AllocatorStatistics stats;
  stats.bytes_allocated =
      counters_->bytes_allocated.load(std::memory_order_relaxed);
  stats.bytes_peak = counters_->bytes_peak.load(std::memory_order_relaxed);
  stats.allocation_count =
      counters_->allocation_count.load(std::memory_order_relaxed);
  stats.bytes_imported =
      counters_->bytes_imported.load(std::memory_order_relaxed);
  stats.import_count = counters_->import_count.load(std::memory_order_relaxed);
  stats.host_bytes_allocated =
      counters_->heaps[0].allocated.load(std::memory_order_relaxed);
  stats.host_bytes_freed =
      counters_->heaps[0].freed.load(std::memory_order_relaxed);
  stats.host_bytes_peak =
      counters_->heaps[0].peak.load(std::memory_order_relaxed);
  stats.device_bytes_allocated =
      counters_->heaps[1].allocated.load(std::memory_order_relaxed);
  stats.device_bytes_freed =
      counters_->heaps[1].freed.load(std::memory_order_relaxed);
  stats.device_bytes_peak =
      counters_->heaps[1].peak.load(std::memory_order_relaxed);
  return stats;
}

}  // namespace ember::hal::vulkan
