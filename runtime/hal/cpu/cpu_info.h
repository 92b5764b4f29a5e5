// What the host CPU can do, in the form compiled kernels read it.
//
// IREE's CPU executables receive eight 64-bit words of processor data with
// every dispatch; word 0 holds feature bits (AVX2, FMA, AVX-512 ...) at
// positions fixed by IREE's feature-bit table, and ukernels choose their
// code paths from them at run time. Filling the words exactly as IREE 3.11
// does -- the same CPUID leaves, the same OS-support tests -- is what makes
// Ember's results bit-identical to the official runtime's on the same
// machine. The same bits answer `hal.cpu` device queries by LLVM feature
// name ("avx2", "avx512f").
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "runtime/base/status.h"

namespace ember::hal::cpu {

inline constexpr size_t kProcessorDataWords = 8;
using ProcessorData = std::array<uint64_t, kProcessorDataWords>;

// The host's processor data, computed once.
const ProcessorData& HostProcessorData();

// A feature bit of `data` by its LLVM name on this architecture; NOT_FOUND
// for names the table does not know.
Result<int64_t> LookupCpuFeature(const ProcessorData& data,
                                 std::string_view name);

}  // namespace ember::hal::cpu
