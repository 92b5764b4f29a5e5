#include "runtime/hal/cpu/cpu_info.h"

#include <string>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

namespace ember::hal::cpu {
namespace {

struct FeatureBit {
  std::string_view name;
  uint8_t word;
  uint8_t bit;
};

#if defined(__x86_64__)
// Bit positions of processor-data word 0 on x86_64 (IREE's table).
constexpr FeatureBit kFeatures[] = {
    {"sse3", 0, 0},
    {"ssse3", 0, 1},
    {"sse4.1", 0, 2},
    {"sse4.2", 0, 3},
    {"sse4a", 0, 4},
    {"avx", 0, 10},
    {"fma", 0, 11},
    {"fma4", 0, 12},
    {"xop", 0, 13},
    {"f16c", 0, 14},
    {"avx2", 0, 15},
    {"avx512f", 0, 20},
    {"avx512cd", 0, 21},
    {"avx512vl", 0, 22},
    {"avx512dq", 0, 23},
    {"avx512bw", 0, 24},
    {"avx512ifma", 0, 25},
    {"avx512vbmi", 0, 26},
    {"avx512vpopcntdq", 0, 27},
    {"avx512vnni", 0, 28},
    {"avx512vbmi2", 0, 29},
    {"avx512bitalg", 0, 30},
    {"avx512bf16", 0, 31},
    {"avx512fp16", 0, 32},
    {"amx-tile", 0, 50},
    {"amx-int8", 0, 51},
    {"amx-bf16", 0, 52},
};

struct CpuidRegisters {
  uint32_t eax = 0, ebx = 0, ecx = 0, edx = 0;
};

CpuidRegisters Cpuid(uint32_t leaf, uint32_t subleaf) {
  CpuidRegisters regs;
  __cpuid_count(leaf, subleaf, regs.eax, regs.ebx, regs.ecx, regs.edx);
  return regs;
}

// A leaf (and sub-leaf) the processor reports as present, else zeros.
CpuidRegisters CpuidOrZero(uint32_t leaf, uint32_t subleaf) {
  uint32_t max_leaf =
      leaf < 0x80000000u ? Cpuid(0, 0).eax : Cpuid(0x80000000u, 0).eax;
  if (leaf > max_leaf) return {};
  if (subleaf != 0 && subleaf > Cpuid(leaf, 0).eax) return {};
  return Cpuid(leaf, subleaf);
}

uint64_t Bit(uint32_t reg, uint32_t mask, int position) {
  return (reg & mask) ? (uint64_t{1} << position) : 0;
}

ProcessorData ComputeHostProcessorData() {
  const CpuidRegisters leaf1 = CpuidOrZero(1, 0);
  const CpuidRegisters leaf7 = CpuidOrZero(7, 0);
  const CpuidRegisters leaf7_1 = CpuidOrZero(7, 1);
  const CpuidRegisters leafD = CpuidOrZero(0xD, 0);
  const CpuidRegisters ext1 = CpuidOrZero(0x80000001u, 0);
  uint64_t word = 0;
  word |= Bit(leaf1.ecx, 1u << 0, 0);   // sse3
  word |= Bit(leaf1.ecx, 1u << 9, 1);   // ssse3
  word |= Bit(leaf1.ecx, 1u << 19, 2);  // sse4.1
  word |= Bit(leaf1.ecx, 1u << 20, 3);  // sse4.2
  word |= Bit(ext1.ecx, 1u << 6, 4);    // sse4a
  // The YMM, ZMM and AMX state components must be supported (CPUID leaf
  // 0xD) for the features that use them, the test IREE makes.
  if ((leafD.eax & 0x7) == 0x7) {
    word |= Bit(leaf1.ecx, 1u << 28, 10);  // avx
    word |= Bit(leaf1.ecx, 1u << 12, 11);  // fma
    word |= Bit(ext1.ecx, 1u << 16, 12);   // fma4
    word |= Bit(ext1.ecx, 1u << 11, 13);   // xop
    word |= Bit(leaf1.ecx, 1u << 29, 14);  // f16c
    word |= Bit(leaf7.ebx, 1u << 5, 15);   // avx2
  }
  if ((leafD.eax & 0xE7) == 0xE7) {
    word |= Bit(leaf7.ebx, 1u << 16, 20);   // avx512f
    word |= Bit(leaf7.ebx, 1u << 28, 21);   // avx512cd
    word |= Bit(leaf7.ebx, 1u << 31, 22);   // avx512vl
    word |= Bit(leaf7.ebx, 1u << 17, 23);   // avx512dq
    word |= Bit(leaf7.ebx, 1u << 30, 24);   // avx512bw
    word |= Bit(leaf7.ebx, 1u << 21, 25);   // avx512ifma
    word |= Bit(leaf7.ecx, 1u << 1, 26);    // avx512vbmi
    word |= Bit(leaf7.ecx, 1u << 14, 27);   // avx512vpopcntdq
    word |= Bit(leaf7.ecx, 1u << 11, 28);   // avx512vnni
    word |= Bit(leaf7.ecx, 1u << 6, 29);    // avx512vbmi2
    word |= Bit(leaf7.ecx, 1u << 12, 30);   // avx512bitalg
    word |= Bit(leaf7_1.eax, 1u << 5, 31);  // avx512bf16
    word |= Bit(leaf7.edx, 1u << 23, 32);   // avx512fp16
  }
  if ((leafD.eax & 0x60000) == 0x60000) {
    word |= Bit(leaf7.edx, 1u << 24, 50);  // amx-tile
    word |= Bit(leaf7.edx, 1u << 25, 51);  // amx-int8
    word |= Bit(leaf7.edx, 1u << 22, 52);  // amx-bf16
  }
  ProcessorData data{};
  data[0] = word;
  return data;
}
#else
constexpr FeatureBit kFeatures[] = {{"", 0, 0}};
// Other architectures: all zeros, which kernels read as "baseline only".
ProcessorData ComputeHostProcessorData() { return ProcessorData{}; }
#endif

}  // namespace

const ProcessorData& HostProcessorData() {
  static const ProcessorData data = ComputeHostProcessorData();
  return data;
}

Result<int64_t> LookupCpuFeature(const ProcessorData& data,
                                 std::string_view name) {
  for (const FeatureBit& feature : kFeatures) {
    if (!feature.name.empty() && feature.name == name) {
      return static_cast<int64_t>((data[feature.word] >> feature.bit) & 1);
    }
  }
  return NotFoundError("CPU feature '" + std::string(name) +
                       "' is unknown on this architecture");
}

}  // namespace ember::hal::cpu
