#include "runtime/modules/vmvx/vmvx_executable.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "runtime/hal/cpu/local_device.h"

namespace ember::modules::vmvx {
namespace {

TEST(VmvxExecutableLoaderTest, TakesOnlyItsFormat) {
  Ref<hal::cpu::ExecutableLoader> loader = CreateVmvxExecutableLoader();
  EXPECT_TRUE(loader->SupportsFormat("vmvx-bytecode-fb"));
  EXPECT_FALSE(loader->SupportsFormat("vmvx-bytecode"));
  EXPECT_FALSE(loader->SupportsFormat("embedded-elf-x86_64"));
  auto wrong = loader->Load("embedded-elf-x86_64", {}, {});
  EXPECT_FALSE(wrong.ok());
}

TEST(VmvxExecutableLoaderTest, HostileBytesFailCleanly) {
  const Ref<hal::cpu::ExecutableLoader>& loader = SharedVmvxExecutableLoader();
  // Empty, too short, a bare identifier, random bytes of many sizes.
  std::vector<std::vector<uint8_t>> inputs = {
      {}, {1, 2, 3}, {0, 0, 0, 0, 'I', 'R', 'E', 'E'}};
  std::mt19937 random(7);
  for (size_t size : {16u, 64u, 1000u, 4096u}) {
    std::vector<uint8_t> bytes(size);
    for (uint8_t& b : bytes) b = static_cast<uint8_t>(random());
    bytes[4] = 'I';  // past the identifier check, into the reader
    bytes[5] = 'R';
    bytes[6] = 'E';
    bytes[7] = 'E';
    inputs.push_back(bytes);
  }
  for (const std::vector<uint8_t>& bytes : inputs) {
    auto executable = loader->Load(kVmvxFormat, bytes, {});
    ASSERT_FALSE(executable.ok()) << bytes.size();
    EXPECT_NE(executable.status().ToString().find("vmvx-bytecode-fb"),
              std::string::npos)
        << executable.status().ToString();
  }
}

TEST(VmvxExecutableLoaderTest, RefusesExecutableConstants) {
  const uint32_t constants[] = {1, 2};
  auto executable =
      SharedVmvxExecutableLoader()->Load(kVmvxFormat, {}, constants);
  ASSERT_FALSE(executable.ok());
  EXPECT_EQ(executable.status().code(), StatusCode::kInvalidArgument);
}

TEST(VmvxExecutableLoaderTest, DevicesAnswerTheFormatQueryWithALoader) {
  hal::cpu::LocalDeviceOptions options;
  Ref<hal::cpu::LocalDevice> plain = hal::cpu::LocalDevice::Create(options);
  auto answer = plain->QueryI64("hal.executable.format", "vmvx-bytecode-fb");
  ASSERT_TRUE(answer.ok());
  EXPECT_EQ(*answer, 0);
  options.loaders.push_back(SharedVmvxExecutableLoader());
  for (bool task : {false, true}) {
    options.id = task ? "local-task" : "local-sync";
    options.use_workers = task;
    options.worker_count = 2;
    Ref<hal::cpu::LocalDevice> device = hal::cpu::LocalDevice::Create(options);
    answer = device->QueryI64("hal.executable.format", "vmvx-bytecode-fb");
    ASSERT_TRUE(answer.ok());
    EXPECT_EQ(*answer, 1);
    // The ELF formats are still the device's own.
    answer = device->QueryI64("hal.executable.format", "vmvx-bytecode");
    ASSERT_TRUE(answer.ok());
    EXPECT_EQ(*answer, 0);
    const uint8_t garbage[] = {1, 2, 3, 4};
    auto executable = device->CreateExecutable("vmvx-bytecode-fb", garbage, {});
    EXPECT_FALSE(executable.ok());
  }
}

}  // namespace
}  // namespace ember::modules::vmvx
