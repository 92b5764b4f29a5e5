// The floor of a call on a Vulkan device: how long one queue submission
// takes from vkQueueSubmit to the host seeing its fence, on this machine's
// Vulkan implementation, against what Ember adds around it.
//
//   build/release/bench_vulkan_submit_latency [iterations]
//
// Prints, as medians over the iterations (each a median of 5 runs):
//   raw      vkQueueSubmit of an empty command buffer + vkWaitForFences,
//            on one thread: the driver's own round trip, which any runtime
//            pays at least once per call that waits for device work;
//   ember    Device::QueueFill of 4 bytes + Fence::Wait through Ember's
//            Vulkan device (recording on the caller, the submission thread,
//            the completion thread, the HAL fence);
//   chained  the same with 10 fills chained by fences before one wait,
//            per fill (the pipelining of dependent submissions).
// The model benchmark's `tiny` call (bench/run_vulkan_model_bench.py) is one
// dispatch plus its transfers: it cannot take less than `raw`.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "runtime/drivers/drivers.h"
#include "runtime/hal/device.h"
#include "runtime/hal/semaphore.h"
#include "runtime/hal/vulkan/vulkan_device.h"

namespace {

using Clock = std::chrono::steady_clock;
using ember::Ref;

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

int Fail(const ember::Status& status) {
  std::fprintf(stderr, "%s\n", status.ToString().c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  namespace hal = ember::hal;
  const int iterations = argc > 1 ? std::max(1, std::atoi(argv[1])) : 2000;
  auto made = ember::drivers::SharedDrivers().CreateDevice("vulkan");
  if (!made.ok()) return Fail(made.status());
  Ref<hal::Device> device = *made;
  auto* vulkan = dynamic_cast<hal::vulkan::VulkanDevice*>(device.get());
  if (vulkan == nullptr) return Fail(ember::InternalError("not Vulkan"));
  hal::vulkan::VulkanContext& context = *vulkan->context();
  const hal::vulkan::VulkanApi& vk = context.api();

  // Raw: one command pool, one empty command buffer, one fence.
  VkCommandPoolCreateInfo pool_info{};
  pool_info.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
  pool_info.queueFamilyIndex = context.queue_family();
  VkCommandPool pool = VK_NULL_HANDLE;
  if (vk.vkCreateCommandPool(context.device(), &pool_info, nullptr, &pool) !=
      VK_SUCCESS) {
    return Fail(ember::InternalError("vkCreateCommandPool"));
  }
  VkCommandBufferAllocateInfo allocate{};
  allocate.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
  allocate.commandPool = pool;
  allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  allocate.commandBufferCount = 1;
  VkCommandBuffer commands = VK_NULL_HANDLE;
  vk.vkAllocateCommandBuffers(context.device(), &allocate, &commands);
  VkCommandBufferBeginInfo begin{};
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  vk.vkBeginCommandBuffer(commands, &begin);
  vk.vkEndCommandBuffer(commands);
  VkFenceCreateInfo fence_info{};
  fence_info.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
  VkFence fence = VK_NULL_HANDLE;
  vk.vkCreateFence(context.device(), &fence_info, nullptr, &fence);

  auto buffer = device->allocator().Allocate(hal::BufferParams{}, 4096);
  if (!buffer.ok()) return Fail(buffer.status());

  std::vector<double> raw, ember, chained;
  for (int round = 0; round < 5; ++round) {
    std::vector<double> r, e, c;
    for (int i = 0; i < iterations; ++i) {
      auto t0 = Clock::now();
      if (auto s = context.Submit(commands, fence); !s.ok()) return Fail(s);
      vk.vkWaitForFences(context.device(), 1, &fence, VK_TRUE, UINT64_MAX);
      vk.vkResetFences(context.device(), 1, &fence);
      auto t1 = Clock::now();
      Ref<hal::Fence> done = hal::Fence::CreateWithNewSemaphore();
      if (auto s = device->QueueFill(nullptr, done, *buffer, 0, 4, 7, 4);
          !s.ok()) {
        return Fail(s);
      }
      if (auto s = done->Wait(hal::Timeout::Infinite()); !s.ok()) {
        return Fail(s);
      }
      auto t2 = Clock::now();
      Ref<hal::Fence> previous;
      for (int k = 0; k < 10; ++k) {
        Ref<hal::Fence> next = hal::Fence::CreateWithNewSemaphore();
        if (auto s = device->QueueFill(previous, next, *buffer, 0, 4, k, 4);
            !s.ok()) {
          return Fail(s);
        }
        previous = next;
      }
      if (auto s = previous->Wait(hal::Timeout::Infinite()); !s.ok()) {
        return Fail(s);
      }
      auto t3 = Clock::now();
      r.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
      e.push_back(std::chrono::duration<double, std::micro>(t2 - t1).count());
      c.push_back(std::chrono::duration<double, std::micro>(t3 - t2).count() /
                  10);
    }
    raw.push_back(Median(r));
    ember.push_back(Median(e));
    chained.push_back(Median(c));
  }
  std::printf("device: %s\n", context.info().name.c_str());
  std::printf("raw submit+wait:      %8.1f us\n", Median(raw));
  std::printf("ember fill+wait:      %8.1f us\n", Median(ember));
  std::printf("ember chained fill:   %8.1f us per fill\n", Median(chained));
  vk.vkDestroyFence(context.device(), fence, nullptr);
  vk.vkDestroyCommandPool(context.device(), pool, nullptr);
  return 0;
}
