#include "runtime/hal/cpu/cpu_info.h"

#include <gtest/gtest.h>

namespace ember::hal::cpu {
namespace {

TEST(CpuInfoTest, FeatureLookupByLlvmName) {
  ProcessorData data{};
  data[0] = (uint64_t{1} << 15) | (uint64_t{1} << 32);
  EXPECT_EQ(*LookupCpuFeature(data, "avx2"), 1);
  EXPECT_EQ(*LookupCpuFeature(data, "avx512fp16"), 1);
  EXPECT_EQ(*LookupCpuFeature(data, "avx"), 0);
  EXPECT_EQ(LookupCpuFeature(data, "warp-drive").status().code(),
            StatusCode::kNotFound);
  EXPECT_EQ(LookupCpuFeature(data, "").status().code(), StatusCode::kNotFound);
}

#if defined(__x86_64__)
TEST(CpuInfoTest, HostAgreesWithTheCompilersView) {
  const ProcessorData& data = HostProcessorData();
  // Every x86-64 CPU this runs on has SSE3; the compiler's own detection
  // must agree with the bits for the features it knows.
  EXPECT_EQ(*LookupCpuFeature(data, "sse3"), 1);
  EXPECT_EQ(*LookupCpuFeature(data, "avx2"),
            __builtin_cpu_supports("avx2") ? 1 : 0);
  EXPECT_EQ(*LookupCpuFeature(data, "fma"),
            __builtin_cpu_supports("fma") ? 1 : 0);
  EXPECT_EQ(*LookupCpuFeature(data, "avx512f"),
            __builtin_cpu_supports("avx512f") ? 1 : 0);
  for (size_t i = 1; i < kProcessorDataWords; ++i) EXPECT_EQ(data[i], 0u);
}
#endif

}  // namespace
}  // namespace ember::hal::cpu
