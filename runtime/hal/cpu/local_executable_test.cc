// The executable-loader hook of the CPU devices, with a loader that knows
// nothing of any real format: formats are routed to it, and its
// executables' workgroups are dispatched like an ELF library's.
#include "runtime/hal/cpu/local_executable.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "runtime/hal/cpu/local_device.h"

namespace ember::hal::cpu {
namespace {

// One export, one binding: workgroup i stores i + 1 at u32 index i.
class CountingExecutable final : public LocalExecutable {
 public:
  size_t export_count() const override { return 1; }
  ExportInfo export_info(size_t) const override { return {"count", 0, 1}; }
  std::string_view debug_name() const override { return "counting"; }
  Status ValidateDispatch(const DispatchArguments& arguments) const override {
    if (arguments.export_ordinal != 0 ||
        arguments.binding_pointers.size() != 1) {
      return InvalidArgumentError("bad dispatch");
    }
    return Status::Ok();
  }
  size_t LocalMemorySize(uint32_t) const override { return 100; }
  bool IsSequential(uint32_t) const override { return false; }
  Status RunWorkgroups(const DispatchArguments& arguments,
                       const WorkgroupRange& range,
                       std::span<uint8_t> local_memory,
                       uint32_t max_concurrency) const override {
    if (local_memory.size() != 100 || max_concurrency == 0) {
      return InternalError("bad local memory");
    }
    auto* out = static_cast<uint32_t*>(arguments.binding_pointers[0]);
    for (uint64_t i = range.begin; i < range.end; ++i) {
      if ((i + 1) * 4 > arguments.binding_lengths[0]) {
        return OutOfRangeError("workgroup past the binding");
      }
      const auto value = static_cast<uint32_t>(i + 1);
      std::memcpy(out + i, &value, 4);
    }
    std::lock_guard lock(mutex_);
    threads_.insert(std::this_thread::get_id());
    return Status::Ok();
  }
  size_t thread_count() const {
    std::lock_guard lock(mutex_);
    return threads_.size();
  }

 private:
  mutable std::mutex mutex_;
  mutable std::set<std::thread::id> threads_;
};

class CountingLoader final : public ExecutableLoader {
 public:
  bool SupportsFormat(std::string_view format) const override {
    return format == "counting";
  }
  Result<Ref<LocalExecutable>> Load(std::string_view, std::span<const uint8_t>,
                                    std::span<const uint32_t>) const override {
    loads.fetch_add(1);
    return Ref<LocalExecutable>(
        Ref<CountingExecutable>::Adopt(new CountingExecutable()));
  }
  mutable std::atomic<int> loads{0};
};

TEST(LocalExecutableTest, LoadersTakeTheirFormatsAndRunLikeElf) {
  Ref<CountingLoader> loader = Ref<CountingLoader>::Adopt(new CountingLoader());
  for (bool task : {false, true}) {
    LocalDeviceOptions options;
    options.id = task ? "local-task" : "local-sync";
    options.use_workers = task;
    options.worker_count = 3;
    options.loaders.push_back(loader);
    Ref<LocalDevice> device = LocalDevice::Create(options);
    EXPECT_EQ(*device->QueryI64("hal.executable.format", "counting"), 1);
    EXPECT_EQ(*device->QueryI64("hal.executable.format", "other"), 0);
    // Formats nobody takes still fail as before.
    EXPECT_FALSE(device->CreateExecutable("other", {}, {}).ok());
    auto executable = device->CreateExecutable("counting", {}, {});
    ASSERT_TRUE(executable.ok()) << executable.status().ToString();
    EXPECT_EQ(*(*executable)->LookupFunction("count"), 0u);

    constexpr uint32_t kWorkgroups = 4096;
    Ref<Fence> ready = Fence::CreateWithNewSemaphore();
    auto buffer =
        device->QueueAlloca(nullptr, ready, BufferParams{}, kWorkgroups * 4);
    ASSERT_TRUE(buffer.ok());
    Ref<CommandBuffer> commands = *CommandBuffer::Create(
        CommandBufferMode::kOneShot, CommandCategory::kDispatch, 0);
    DispatchCommand dispatch;
    dispatch.executable = *executable;
    dispatch.workgroup_count[0] = 64;
    dispatch.workgroup_count[1] = 32;
    dispatch.workgroup_count[2] = 2;
    dispatch.bindings.push_back({*buffer, 0, 0, kWholeBuffer});
    ASSERT_TRUE(commands->Dispatch(std::move(dispatch)).ok());
    ASSERT_TRUE(commands->Finalize().ok());
    ASSERT_TRUE(device->ExecuteCommands(*commands, {}).ok());
    auto mapping = (*buffer)->Map(MappingMode::kScoped, MemoryAccess::kRead, 0,
                                  kWholeBuffer);
    ASSERT_TRUE(mapping.ok());
    for (uint32_t i = 0; i < kWorkgroups; ++i) {
      uint32_t value;
      std::memcpy(&value, mapping->data() + i * 4, 4);
      ASSERT_EQ(value, i + 1) << "workgroup " << i;
    }
    const auto& counting = static_cast<const CountingExecutable&>(**executable);
    EXPECT_GE(counting.thread_count(), 1u);
    if (!task) {
      EXPECT_EQ(counting.thread_count(), 1u);
    }
  }
  EXPECT_EQ(loader->loads.load(), 2);
}

}  // namespace
}  // namespace ember::hal::cpu
