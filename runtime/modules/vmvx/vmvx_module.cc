#include "runtime/modules/vmvx/vmvx_module.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#endif

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "runtime/vm/buffer.h"
#include "runtime/vm/native_module.h"

namespace ember::modules::vmvx {
namespace {

using vm::Borrowed;
using vm::Buffer;
using BufferArg = const Borrowed<Buffer>&;

// No per-context state: the kernels read only their operands.
struct VmvxState : vm::ModuleState {};

// ---- checked operands ------------------------------------------------------

// A strided 2-D operand whose every element was checked to lie inside its
// buffer: element (i, j) is at base + (i * stride0 + j * stride1) * size.
struct Operand2D {
  uint8_t* base = nullptr;  // null when the operand has no elements
  uint64_t stride0 = 0;
  uint64_t stride1 = 0;
  size_t element_size = 0;
  uint8_t* at(uint64_t i, uint64_t j) const {
    return base + (i * stride0 + j * stride1) * element_size;
  }
};

[[gnu::cold, gnu::noinline]] Status OperandError(
    StatusCode code, std::string_view export_name, const char* operand,
    int64_t offset, int64_t stride0, int64_t stride1, int64_t size0,
    int64_t size1, size_t element_size, const std::string& why) {
  return Status(code, "vmvx." + std::string(export_name) + ": operand '" +
                          operand + "' (offset " + std::to_string(offset) +
                          ", strides (" + std::to_string(stride0) + ", " +
                          std::to_string(stride1) + "), sizes (" +
                          std::to_string(size0) + ", " + std::to_string(size1) +
                          "), " + std::to_string(element_size) +
                          "-byte elements) " + why);
}

// Checks that elements offset + i*stride0 + j*stride1 (i < size0, j < size1)
// all lie inside `buffer` and maps them for reading or writing.
Result<Operand2D> MapOperand(std::string_view export_name, const char* operand,
                             Buffer* buffer, bool write, size_t element_size,
                             int64_t offset, int64_t stride0, int64_t stride1,
                             int64_t size0, int64_t size1) {
  auto fail = [&](StatusCode code, const std::string& why) {
    return OperandError(code, export_name, operand, offset, stride0, stride1,
                        size0, size1, element_size, why);
  };
  if (!buffer) return fail(StatusCode::kInvalidArgument, "is a null buffer");
  if (offset < 0 || stride0 < 0 || stride1 < 0 || size0 < 0 || size1 < 0) {
    return fail(StatusCode::kOutOfRange, "has a negative offset/stride/size");
  }
  Operand2D result;
  result.stride0 = static_cast<uint64_t>(stride0);
  result.stride1 = static_cast<uint64_t>(stride1);
  result.element_size = element_size;
  if (size0 == 0 || size1 == 0) return result;  // touches nothing
  // end = (offset + (size0-1)*stride0 + (size1-1)*stride1 + 1) * element_size
  uint64_t a = 0, b = 0, end = 0;
  bool overflow =
      __builtin_mul_overflow(static_cast<uint64_t>(size0 - 1), result.stride0,
                             &a) ||
      __builtin_mul_overflow(static_cast<uint64_t>(size1 - 1), result.stride1,
                             &b) ||
      __builtin_add_overflow(a, b, &end) ||
      __builtin_add_overflow(end, static_cast<uint64_t>(offset) + 1, &end) ||
      __builtin_mul_overflow(end, uint64_t{element_size}, &end);
  const uint64_t begin = static_cast<uint64_t>(offset) * element_size;
  if (overflow || end > buffer->length()) {
    return fail(StatusCode::kOutOfRange,
                (overflow ? std::string("reaches beyond 2^64 bytes")
                          : "reaches byte " + std::to_string(end)) +
                    " of a " + std::to_string(buffer->length()) +
                    "-byte buffer");
  }
  if (write) {
    EMBER_ASSIGN_OR_RETURN(
        std::span<uint8_t> bytes, buffer->MapMutable(begin, end - begin),
        "vmvx.%.*s operand '%s'", static_cast<int>(export_name.size()),
        export_name.data(), operand);
    result.base = bytes.data();
  } else {
    EMBER_ASSIGN_OR_RETURN(
        std::span<const uint8_t> bytes, buffer->MapReadOnly(begin, end - begin),
        "vmvx.%.*s operand '%s'", static_cast<int>(export_name.size()),
        export_name.data(), operand);
    // Only read through: kernels never store to an input operand.
    result.base = const_cast<uint8_t*>(bytes.data());
  }
  return result;
}

// Loads and stores through memcpy: binding offsets need not be aligned.
template <typename T>
T Load(const uint8_t* at) {
  T value;
  std::memcpy(&value, at, sizeof(T));
  return value;
}
template <typename T>
void Store(uint8_t* at, T value) {
  std::memcpy(at, &value, sizeof(T));
}

// ---- elementwise -----------------------------------------------------------

// Each operation: kName (the export), Apply on 32-bit patterns, false for a
// division by zero.
#define EMBER_VMVX_FLOAT_BINARY(Type, name, expr)                        \
  struct Type {                                                          \
    static constexpr std::string_view kName = name;                      \
    static bool Apply(uint32_t a_bits, uint32_t b_bits, uint32_t& out) { \
      const float a = std::bit_cast<float>(a_bits);                      \
      const float b = std::bit_cast<float>(b_bits);                      \
      out = std::bit_cast<uint32_t>(static_cast<float>(expr));           \
      return true;                                                       \
    }                                                                    \
  };
EMBER_VMVX_FLOAT_BINARY(AddF, "add.2d.f32", a + b)
EMBER_VMVX_FLOAT_BINARY(SubF, "sub.2d.f32", a - b)
EMBER_VMVX_FLOAT_BINARY(MulF, "mul.2d.f32", a* b)
EMBER_VMVX_FLOAT_BINARY(DivF, "div.2d.f32", a / b)
#undef EMBER_VMVX_FLOAT_BINARY

#define EMBER_VMVX_INT_BINARY(Type, name, expr)                \
  struct Type {                                                \
    static constexpr std::string_view kName = name;            \
    static bool Apply(uint32_t a, uint32_t b, uint32_t& out) { \
      out = static_cast<uint32_t>(expr);                       \
      return true;                                             \
    }                                                          \
  };
EMBER_VMVX_INT_BINARY(AddI, "add.2d.i32", a + b)
EMBER_VMVX_INT_BINARY(SubI, "sub.2d.i32", a - b)
EMBER_VMVX_INT_BINARY(MulI, "mul.2d.i32", a* b)
EMBER_VMVX_INT_BINARY(AndI, "and.2d.i32", a& b)
EMBER_VMVX_INT_BINARY(OrI, "or.2d.i32", a | b)
EMBER_VMVX_INT_BINARY(XorI, "xor.2d.i32", a ^ b)
EMBER_VMVX_INT_BINARY(ShlI, "shl.2d.i32", a << (b & 31u))
EMBER_VMVX_INT_BINARY(ShrUI, "shru.2d.i32", a >> (b & 31u))
EMBER_VMVX_INT_BINARY(ShrSI, "shrs.2d.i32",
                      static_cast<int32_t>(a) >> (b & 31u))
#undef EMBER_VMVX_INT_BINARY

struct DivSI {
  static constexpr std::string_view kName = "divs.2d.i32";
  static bool Apply(uint32_t a_bits, uint32_t b_bits, uint32_t& out) {
    const auto a = static_cast<int32_t>(a_bits);
    const auto b = static_cast<int32_t>(b_bits);
    if (b == 0) return false;
    out = static_cast<uint32_t>((a == INT32_MIN && b == -1) ? a : a / b);
    return true;
  }
};
struct DivUI {
  static constexpr std::string_view kName = "divu.2d.i32";
  static bool Apply(uint32_t a, uint32_t b, uint32_t& out) {
    if (b == 0) return false;
    out = a / b;
    return true;
  }
};

#define EMBER_VMVX_FLOAT_UNARY(Type, name, expr)                \
  struct Type {                                                 \
    static constexpr std::string_view kName = name;             \
    static uint32_t Apply(uint32_t a_bits) {                    \
      const float a = std::bit_cast<float>(a_bits);             \
      return std::bit_cast<uint32_t>(static_cast<float>(expr)); \
    }                                                           \
  };
EMBER_VMVX_FLOAT_UNARY(AbsF, "abs.2d.f32", std::fabs(a))
EMBER_VMVX_FLOAT_UNARY(CeilF, "ceil.2d.f32", std::ceil(a))
EMBER_VMVX_FLOAT_UNARY(FloorF, "floor.2d.f32", std::floor(a))
EMBER_VMVX_FLOAT_UNARY(NegF, "neg.2d.f32", -a)
EMBER_VMVX_FLOAT_UNARY(ExpF, "exp.2d.f32", std::exp(a))
EMBER_VMVX_FLOAT_UNARY(LogF, "log.2d.f32", std::log(a))
EMBER_VMVX_FLOAT_UNARY(RsqrtF, "rsqrt.2d.f32", 1.0f / std::sqrt(a))
#undef EMBER_VMVX_FLOAT_UNARY
struct CtlzI {
  static constexpr std::string_view kName = "ctlz.2d.i32";
  static uint32_t Apply(uint32_t a) {
    return static_cast<uint32_t>(std::countl_zero(a));
  }
};

[[gnu::cold, gnu::noinline]] Status DivisionByZero(std::string_view name) {
  return InvalidArgumentError("vmvx." + std::string(name) +
                              ": division by zero");
}

template <typename Op>
Status Binary2D(VmvxState&, BufferArg lhs, int64_t lhs_offset,
                int64_t lhs_stride0, int64_t lhs_stride1, BufferArg rhs,
                int64_t rhs_offset, int64_t rhs_stride0, int64_t rhs_stride1,
                BufferArg out, int64_t out_offset, int64_t out_stride0,
                int64_t out_stride1, int64_t size0, int64_t size1) {
  EMBER_ASSIGN_OR_RETURN(
      Operand2D l, MapOperand(Op::kName, "lhs", lhs.get(), false, 4, lhs_offset,
                              lhs_stride0, lhs_stride1, size0, size1));
  EMBER_ASSIGN_OR_RETURN(
      Operand2D r, MapOperand(Op::kName, "rhs", rhs.get(), false, 4, rhs_offset,
                              rhs_stride0, rhs_stride1, size0, size1));
  EMBER_ASSIGN_OR_RETURN(
      Operand2D o, MapOperand(Op::kName, "out", out.get(), true, 4, out_offset,
                              out_stride0, out_stride1, size0, size1));
  if (!o.base) return Status::Ok();
  // Row by row, element by element, as IREE's loop: operands may alias.
  const auto rows = static_cast<uint64_t>(size0);
  const auto columns = static_cast<uint64_t>(size1);
  for (uint64_t i = 0; i < rows; ++i) {
    for (uint64_t j = 0; j < columns; ++j) {
      uint32_t result;
      if (!Op::Apply(Load<uint32_t>(l.at(i, j)), Load<uint32_t>(r.at(i, j)),
                     result)) [[unlikely]] {
        return DivisionByZero(Op::kName);
      }
      Store<uint32_t>(o.at(i, j), result);
    }
  }
  return Status::Ok();
}

template <typename Op>
Status Unary2D(VmvxState&, BufferArg in, int64_t in_offset, int64_t in_stride0,
               int64_t in_stride1, BufferArg out, int64_t out_offset,
               int64_t out_stride0, int64_t out_stride1, int64_t size0,
               int64_t size1) {
  EMBER_ASSIGN_OR_RETURN(
      Operand2D a, MapOperand(Op::kName, "in", in.get(), false, 4, in_offset,
                              in_stride0, in_stride1, size0, size1));
  EMBER_ASSIGN_OR_RETURN(
      Operand2D o, MapOperand(Op::kName, "out", out.get(), true, 4, out_offset,
                              out_stride0, out_stride1, size0, size1));
  if (!o.base) return Status::Ok();
  const auto rows = static_cast<uint64_t>(size0);
  const auto columns = static_cast<uint64_t>(size1);
  for (uint64_t i = 0; i < rows; ++i) {
    for (uint64_t j = 0; j < columns; ++j) {
      Store<uint32_t>(o.at(i, j), Op::Apply(Load<uint32_t>(a.at(i, j))));
    }
  }
  return Status::Ok();
}

template <typename T>
struct CopyName;
template <>
struct CopyName<uint8_t> {
  static constexpr std::string_view kName = "copy.2d.x8";
};
template <>
struct CopyName<uint16_t> {
  static constexpr std::string_view kName = "copy.2d.x16";
};
template <>
struct CopyName<uint32_t> {
  static constexpr std::string_view kName = "copy.2d.x32";
};
template <>
struct CopyName<uint64_t> {
  static constexpr std::string_view kName = "copy.2d.x64";
};

template <typename T>
Status Copy2D(VmvxState&, BufferArg in, int64_t in_offset, int64_t in_stride0,
              int64_t in_stride1, BufferArg out, int64_t out_offset,
              int64_t out_stride0, int64_t out_stride1, int64_t size0,
              int64_t size1) {
  constexpr std::string_view name = CopyName<T>::kName;
  EMBER_ASSIGN_OR_RETURN(
      Operand2D a, MapOperand(name, "in", in.get(), false, sizeof(T), in_offset,
                              in_stride0, in_stride1, size0, size1));
  EMBER_ASSIGN_OR_RETURN(
      Operand2D o,
      MapOperand(name, "out", out.get(), true, sizeof(T), out_offset,
                 out_stride0, out_stride1, size0, size1));
  if (!o.base) return Status::Ok();
  const auto rows = static_cast<uint64_t>(size0);
  const auto columns = static_cast<uint64_t>(size1);
  for (uint64_t i = 0; i < rows; ++i) {
    for (uint64_t j = 0; j < columns; ++j) {
      Store<T>(o.at(i, j), Load<T>(a.at(i, j)));
    }
  }
  return Status::Ok();
}

Status Fill2D(VmvxState&, int32_t value, BufferArg out, int64_t out_offset,
              int64_t out_row_stride, int64_t size0, int64_t size1) {
  EMBER_ASSIGN_OR_RETURN(
      Operand2D o, MapOperand("fill.2d.x32", "out", out.get(), true, 4,
                              out_offset, out_row_stride, 1, size0, size1));
  if (!o.base) return Status::Ok();
  const auto rows = static_cast<uint64_t>(size0);
  const auto columns = static_cast<uint64_t>(size1);
  for (uint64_t i = 0; i < rows; ++i) {
    uint8_t* row = o.at(i, 0);
    for (uint64_t j = 0; j < columns; ++j) Store<int32_t>(row + j * 4, value);
  }
  return Status::Ok();
}

// ---- data-tiling ukernels --------------------------------------------------

// Flag bits of the ukernels (IREE's exported_bits.h).
constexpr uint32_t kTypeMask = 0xFF;
constexpr uint32_t kMmt4dTypeF32F32F32 = 0x01;
constexpr uint32_t kMmt4dTypeS8S8S32 = 0x02;
constexpr uint32_t kMmt4dTypeEnd = 0x0B;
constexpr uint32_t kMmt4dAccumulate = 0x100;
constexpr uint32_t kMmt4dKnownFlags = kTypeMask | 0x100 | 0x200 | 0x400;
constexpr uint32_t kPackTypeF32F32 = 0x01;
constexpr uint32_t kPackTypeI8I8 = 0x02;
constexpr uint32_t kPackTypeI32I32 = 0x03;
constexpr uint32_t kPackTypeBF16BF16 = 0x05;
constexpr uint32_t kTransposeInner = 0x100;
constexpr uint32_t kTransposeOuter = 0x200;
constexpr uint32_t kQueryRoleLhs = 0x01;
constexpr uint32_t kQueryRoleRhs = 0x02;
constexpr uint32_t kQueryRoleResult = 0x03;
constexpr uint32_t kQueryOpMask = 0xFF00;
constexpr uint32_t kQueryOpMatmulF32 = 0x0100;
constexpr uint32_t kQueryOpMatmulI8 = 0x0200;
constexpr uint32_t kQueryOpMatmulLast = 0x0600;

[[gnu::cold, gnu::noinline]] Status BadFlags(std::string_view name,
                                             uint32_t flags, bool known_type) {
  char hex[16];
  std::snprintf(hex, sizeof(hex), "0x%x", flags);
  if (known_type) {
    return UnimplementedError(
        "vmvx." + std::string(name) + ": element type " + "of flags " + hex +
        " is not implemented by Ember's vmvx module " + "(nor by IREE's)");
  }
  return InvalidArgumentError("vmvx." + std::string(name) + ": invalid flags " +
                              hex);
}

[[gnu::cold, gnu::noinline]] Status SizeError(std::string_view name,
                                              const std::string& why) {
  return OutOfRangeError("vmvx." + std::string(name) + ": " + why);
}

// a * b * c with overflow and sign checks (all must be >= 0).
bool CheckedProduct(int64_t a, int64_t b, int64_t c, int64_t& out) {
  if (a < 0 || b < 0 || c < 0) return false;
  int64_t ab = 0;
  return !__builtin_mul_overflow(a, b, &ab) &&
         !__builtin_mul_overflow(ab, c, &out);
}

// f32 mmt4d tiles accumulate each output element in k order. IREE's
// x86-64 kernels use one fused multiply-add per step for the tile shapes of
// its tables (K0 = 1; N0 = 8 with AVX2+FMA+F16C and M0 in {1, 2, 4, 8};
// N0 = 16 with AVX-512 and M0 in {1, 2, 4, 8, 16}) and the generic kernel
// (`acc += lhs * rhs`, two roundings) for every other shape; Ember does the
// same so that results agree bit for bit.
#if defined(__x86_64__) && defined(__GNUC__)
[[gnu::target("fma")]] void Mmt4dF32TileFused(
    const uint8_t* lhs_tile, const uint8_t* rhs_tile, uint8_t* out_tile,
    uint64_t k_tiles, uint64_t m0, uint64_t n0, uint64_t k0, bool accumulate) {
  const uint64_t lhs_step = m0 * k0 * 4, rhs_step = n0 * k0 * 4;
  for (uint64_t i0 = 0; i0 < m0; ++i0) {
    for (uint64_t j0 = 0; j0 < n0; ++j0) {
      uint8_t* at = out_tile + (i0 * n0 + j0) * 4;
      float acc = accumulate ? Load<float>(at) : 0.0f;
      const uint8_t* l = lhs_tile + i0 * k0 * 4;
      const uint8_t* r = rhs_tile + j0 * k0 * 4;
      for (uint64_t k = 0; k < k_tiles; ++k, l += lhs_step, r += rhs_step) {
        for (uint64_t kk = 0; kk < k0; ++kk) {
          acc = __builtin_fmaf(Load<float>(l + kk * 4), Load<float>(r + kk * 4),
                               acc);
        }
      }
      Store<float>(at, acc);
    }
  }
}

bool IreeUsesFusedF32Tile(uint64_t m0, uint64_t n0, uint64_t k0) {
  // Clang (14) has no "f16c" for __builtin_cpu_supports: CPUID leaf 1,
  // ECX bit 29, asked directly.
  static const bool f16c = [] {
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    return __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0 && (ecx & bit_F16C) != 0;
  }();
  static const bool avx2_fma =
      __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && f16c;
  static const bool avx512 = avx2_fma && __builtin_cpu_supports("avx512f") &&
                             __builtin_cpu_supports("avx512bw") &&
                             __builtin_cpu_supports("avx512dq") &&
                             __builtin_cpu_supports("avx512vl") &&
                             __builtin_cpu_supports("avx512cd");
  const bool small_m = m0 == 1 || m0 == 2 || m0 == 4 || m0 == 8;
  return k0 == 1 && ((avx2_fma && n0 == 8 && small_m) ||
                     (avx512 && n0 == 16 && (small_m || m0 == 16)));
}
#endif

// Compiled without FMA instructions, so `acc + product` is never fused.
void Mmt4dF32TileUnfused(const uint8_t* lhs_tile, const uint8_t* rhs_tile,
                         uint8_t* out_tile, uint64_t k_tiles, uint64_t m0,
                         uint64_t n0, uint64_t k0, bool accumulate) {
  const uint64_t lhs_step = m0 * k0 * 4, rhs_step = n0 * k0 * 4;
  for (uint64_t i0 = 0; i0 < m0; ++i0) {
    for (uint64_t j0 = 0; j0 < n0; ++j0) {
      uint8_t* at = out_tile + (i0 * n0 + j0) * 4;
      float acc = accumulate ? Load<float>(at) : 0.0f;
      const uint8_t* l = lhs_tile + i0 * k0 * 4;
      const uint8_t* r = rhs_tile + j0 * k0 * 4;
      for (uint64_t k = 0; k < k_tiles; ++k, l += lhs_step, r += rhs_step) {
        for (uint64_t kk = 0; kk < k0; ++kk) {
          const float product =
              Load<float>(l + kk * 4) * Load<float>(r + kk * 4);
          acc = acc + product;
        }
      }
      Store<float>(at, acc);
    }
  }
}
void Mmt4dS8Tile(const uint8_t* lhs_tile, const uint8_t* rhs_tile,
                 uint8_t* out_tile, uint64_t k_tiles, uint64_t m0, uint64_t n0,
                 uint64_t k0, bool accumulate) {
  const uint64_t lhs_step = m0 * k0, rhs_step = n0 * k0;
  for (uint64_t i0 = 0; i0 < m0; ++i0) {
    for (uint64_t j0 = 0; j0 < n0; ++j0) {
      uint8_t* at = out_tile + (i0 * n0 + j0) * 4;
      // Wrapping i32 arithmetic (each product fits; sums may wrap).
      uint32_t acc = accumulate ? Load<uint32_t>(at) : 0u;
      const uint8_t* l = lhs_tile + i0 * k0;
      const uint8_t* r = rhs_tile + j0 * k0;
      for (uint64_t k = 0; k < k_tiles; ++k, l += lhs_step, r += rhs_step) {
        for (uint64_t kk = 0; kk < k0; ++kk) {
          acc += static_cast<uint32_t>(
              static_cast<int32_t>(static_cast<int8_t>(l[kk])) *
              static_cast<int8_t>(r[kk]));
        }
      }
      Store<uint32_t>(at, acc);
    }
  }
}

Status Mmt4d(VmvxState&, BufferArg lhs, int64_t lhs_offset,
             int64_t lhs_row_stride, BufferArg rhs, int64_t rhs_offset,
             int64_t rhs_row_stride, BufferArg out, int64_t out_offset,
             int64_t out_row_stride, int64_t m, int64_t n, int64_t k,
             int32_t m0, int32_t n0, int32_t k0, int32_t flags_bits) {
  constexpr std::string_view name = "mmt4d";
  const auto flags = static_cast<uint32_t>(flags_bits);
  const uint32_t type = flags & kTypeMask;
  if ((flags & ~kMmt4dKnownFlags) || type == 0 || type >= kMmt4dTypeEnd) {
    return BadFlags(name, flags, false);
  }
  if (type != kMmt4dTypeF32F32F32 && type != kMmt4dTypeS8S8S32) {
    return BadFlags(name, flags, true);
  }
  const size_t in_size = type == kMmt4dTypeF32F32F32 ? 4 : 1;
  int64_t lhs_width = 0, rhs_width = 0, out_width = 0;
  if (m < 0 || n < 0 || !CheckedProduct(k, m0, k0, lhs_width) ||
      !CheckedProduct(k, n0, k0, rhs_width) ||
      !CheckedProduct(n, m0, n0, out_width)) {
    return SizeError(name, "negative or overflowing sizes (M " +
                               std::to_string(m) + ", N " + std::to_string(n) +
                               ", K " + std::to_string(k) + ", tile " +
                               std::to_string(m0) + "x" + std::to_string(n0) +
                               "x" + std::to_string(k0) + ")");
  }
  EMBER_ASSIGN_OR_RETURN(
      Operand2D l, MapOperand(name, "lhs", lhs.get(), false, in_size,
                              lhs_offset, lhs_row_stride, 1, m, lhs_width));
  EMBER_ASSIGN_OR_RETURN(
      Operand2D r, MapOperand(name, "rhs", rhs.get(), false, in_size,
                              rhs_offset, rhs_row_stride, 1, n, rhs_width));
  EMBER_ASSIGN_OR_RETURN(Operand2D o,
                         MapOperand(name, "out", out.get(), true, 4, out_offset,
                                    out_row_stride, 1, m, out_width));
  const bool accumulate = flags & kMmt4dAccumulate;
  // As IREE: nothing to do without outputs, or with K = 0 and accumulation.
  if (!o.base || (accumulate && (k == 0 || k0 == 0))) return Status::Ok();
  using TileFunction = void (*)(const uint8_t*, const uint8_t*, uint8_t*,
                                uint64_t, uint64_t, uint64_t, uint64_t, bool);
  TileFunction tile = Mmt4dS8Tile;
  if (type == kMmt4dTypeF32F32F32) {
    tile = Mmt4dF32TileUnfused;
#if defined(__x86_64__) && defined(__GNUC__)
    if (IreeUsesFusedF32Tile(static_cast<uint64_t>(m0),
                             static_cast<uint64_t>(n0),
                             static_cast<uint64_t>(k0))) {
      tile = Mmt4dF32TileFused;
    }
#endif
  }
  // With K = 0 the lhs/rhs operands have no elements (null bases); the tile
  // functions then read nothing.
  const uint64_t k_tiles = (lhs_width == 0) ? 0 : static_cast<uint64_t>(k);
  const auto um0 = static_cast<uint64_t>(m0), un0 = static_cast<uint64_t>(n0),
             uk0 = static_cast<uint64_t>(k0);
  for (uint64_t i = 0; i < static_cast<uint64_t>(m); ++i) {
    for (uint64_t j = 0; j < static_cast<uint64_t>(n); ++j) {
      tile(l.base ? l.at(i, 0) : nullptr, r.base ? r.at(j, 0) : nullptr,
           o.at(i, j * um0 * un0), k_tiles, um0, un0, uk0, accumulate);
    }
  }
  return Status::Ok();
}

// The element size of a pack/unpack type IREE's vmvx module handles.
Result<size_t> PackElementSize(std::string_view name, uint32_t flags,
                               bool allow_i8) {
  const uint32_t type = flags & kTypeMask;
  if (flags & ~(kTypeMask | kTransposeInner | kTransposeOuter)) {
    return BadFlags(name, flags, false);
  }
  if (type == kPackTypeF32F32 || type == kPackTypeI32I32) return size_t{4};
  if (type == kPackTypeI8I8) {
    // unpack has no i8 type (IREE's flag bits skip 0x02 there).
    if (allow_i8) return size_t{1};
    return BadFlags(name, flags, false);
  }
  if (type >= kPackTypeF32F32 && type <= kPackTypeBF16BF16) {
    return BadFlags(name, flags, true);
  }
  return BadFlags(name, flags, false);
}

Status Pack(VmvxState&, BufferArg in, int64_t in_offset, int64_t in_stride0,
            int64_t in_stride1, BufferArg out, int64_t out_offset,
            int64_t out_stride0, int64_t out_stride1, int64_t in_size0,
            int64_t in_size1, int64_t out_size0, int64_t out_size1,
            int64_t out_size2, int64_t out_size3, int64_t padding_value,
            int32_t flags_bits) {
  constexpr std::string_view name = "pack";
  (void)out_stride1;  // IREE's kernel takes the tile stride as size2*size3
  const auto flags = static_cast<uint32_t>(flags_bits);
  EMBER_ASSIGN_OR_RETURN(size_t element_size,
                         PackElementSize(name, flags, /*allow_i8=*/true));
  int64_t out_width = 0;
  if (out_size0 < 0 ||
      !CheckedProduct(out_size1, out_size2, out_size3, out_width)) {
    return SizeError(name, "negative or overflowing output sizes");
  }
  EMBER_ASSIGN_OR_RETURN(
      Operand2D a,
      MapOperand(name, "in", in.get(), false, element_size, in_offset,
                 in_stride0, in_stride1, in_size0, in_size1));
  EMBER_ASSIGN_OR_RETURN(
      Operand2D o,
      MapOperand(name, "out", out.get(), true, element_size, out_offset,
                 out_stride0, 1, out_size0, out_width));
  if (!o.base) return Status::Ok();
  const bool inner = flags & kTransposeInner;
  const bool outer = flags & kTransposeOuter;
  const auto s0 = static_cast<uint64_t>(out_size0);
  const auto s1 = static_cast<uint64_t>(out_size1);
  const auto s2 = static_cast<uint64_t>(out_size2);
  const auto s3 = static_cast<uint64_t>(out_size3);
  // Tile sizes along the input's dimensions.
  const uint64_t t0_size = inner ? s3 : s2;
  const uint64_t t1_size = inner ? s2 : s3;
  const auto rows = static_cast<uint64_t>(in_size0);
  const auto columns = static_cast<uint64_t>(in_size1);
  const auto padding = static_cast<uint64_t>(padding_value);
  for (uint64_t o0 = 0; o0 < s0; ++o0) {
    for (uint64_t o1 = 0; o1 < s1; ++o1) {
      const uint64_t b0 = outer ? o1 : o0;
      const uint64_t b1 = outer ? o0 : o1;
      uint8_t* tile = o.at(o0, o1 * s2 * s3);
      for (uint64_t o2 = 0; o2 < s2; ++o2) {
        for (uint64_t o3 = 0; o3 < s3; ++o3) {
          const uint64_t t0 = inner ? o3 : o2;
          const uint64_t t1 = inner ? o2 : o3;
          uint64_t row = 0, column = 0;
          const bool inside =
              !__builtin_mul_overflow(b0, t0_size, &row) &&
              !__builtin_add_overflow(row, t0, &row) && row < rows &&
              !__builtin_mul_overflow(b1, t1_size, &column) &&
              !__builtin_add_overflow(column, t1, &column) && column < columns;
          uint8_t* at = tile + (o2 * s3 + o3) * element_size;
          if (inside) {
            std::memcpy(at, a.at(row, column), element_size);
          } else {
            // The low bytes of the padding value (little-endian host).
            std::memcpy(at, &padding, element_size);
          }
        }
      }
    }
  }
  return Status::Ok();
}

Status Unpack(VmvxState&, BufferArg in, int64_t in_offset, int64_t in_stride0,
              int64_t in_stride1, BufferArg out, int64_t out_offset,
              int64_t out_stride0, int64_t out_stride1, int64_t in_size0,
              int64_t in_size1, int64_t in_size2, int64_t in_size3,
              int64_t out_size0, int64_t out_size1, int32_t flags_bits) {
  constexpr std::string_view name = "unpack";
  (void)in_stride1;  // IREE's kernel takes the tile stride as size2*size3
  const auto flags = static_cast<uint32_t>(flags_bits);
  EMBER_ASSIGN_OR_RETURN(size_t element_size,
                         PackElementSize(name, flags, /*allow_i8=*/false));
  int64_t in_width = 0;
  if (in_size0 < 0 || !CheckedProduct(in_size1, in_size2, in_size3, in_width)) {
    return SizeError(name, "negative or overflowing input sizes");
  }
  EMBER_ASSIGN_OR_RETURN(
      Operand2D o,
      MapOperand(name, "out", out.get(), true, element_size, out_offset,
                 out_stride0, out_stride1, out_size0, out_size1));
  EMBER_ASSIGN_OR_RETURN(
      Operand2D a, MapOperand(name, "in", in.get(), false, element_size,
                              in_offset, in_stride0, 1, in_size0, in_width));
  if (!o.base) return Status::Ok();
  const bool inner = flags & kTransposeInner;
  const bool outer = flags & kTransposeOuter;
  const auto s2 = static_cast<uint64_t>(in_size2);
  const auto s3 = static_cast<uint64_t>(in_size3);
  const uint64_t t0_size = inner ? s3 : s2;
  const uint64_t t1_size = inner ? s2 : s3;
  const auto rows = static_cast<uint64_t>(out_size0);
  const auto columns = static_cast<uint64_t>(out_size1);
  // Every output element must come from inside the 4-D input.
  const auto blocks0 = static_cast<uint64_t>(outer ? in_size1 : in_size0);
  const auto blocks1 = static_cast<uint64_t>(outer ? in_size0 : in_size1);
  if (t0_size == 0 || t1_size == 0 || (rows - 1) / t0_size >= blocks0 ||
      (columns - 1) / t1_size >= blocks1) {
    return SizeError(name, "the " + std::to_string(out_size0) + "x" +
                               std::to_string(out_size1) +
                               " output is not covered by the input's tiles");
  }
  for (uint64_t r = 0; r < rows; ++r) {
    const uint64_t b0 = r / t0_size, t0 = r % t0_size;
    for (uint64_t c = 0; c < columns; ++c) {
      const uint64_t b1 = c / t1_size, t1 = c % t1_size;
      const uint64_t i0 = outer ? b1 : b0;
      const uint64_t i1 = outer ? b0 : b1;
      const uint64_t i2 = inner ? t1 : t0;
      const uint64_t i3 = inner ? t0 : t1;
      std::memcpy(o.at(r, c), a.at(i0, i1 * s2 * s3 + i2 * s3 + i3),
                  element_size);
    }
  }
  return Status::Ok();
}

// Matmul tile sizes for data tiling. Any answer is correct (the program
// packs, multiplies and unpacks with the sizes it got); these are IREE's
// x86-64 choices so that layouts and rounding match the official runtime.
Result<std::tuple<int64_t, int64_t>> QueryTileSizes2D(VmvxState&, int64_t size0,
                                                      int64_t size1,
                                                      int32_t flags_bits) {
  (void)size0;
  (void)size1;
  const auto flags = static_cast<uint32_t>(flags_bits);
  const uint32_t role = flags & kTypeMask;
  const uint32_t op = flags & kQueryOpMask;
  if ((flags & ~(kTypeMask | kQueryOpMask)) || role < kQueryRoleLhs ||
      role > kQueryRoleResult || op < kQueryOpMatmulF32 ||
      op > kQueryOpMatmulLast) {
    return BadFlags("query_tile_sizes.2d", flags, false);
  }
  int64_t tile_m = 8, tile_k = 4, tile_n = 8;  // IREE's generic answer
#if defined(__x86_64__) && defined(__GNUC__)
  const bool avx512 =
      __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512dq") &&
      __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512cd");
  const bool avx2_fma =
      __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  if (op == kQueryOpMatmulF32) {
    tile_k = 1;
    tile_m = avx512 ? 16 : 8;
    tile_n = avx512 ? 16 : (avx2_fma ? 8 : 4);
  } else if (op == kQueryOpMatmulI8) {
    const bool vnni = avx512 && __builtin_cpu_supports("avx512vnni");
    tile_k = 2;
    tile_m = vnni ? 16 : 8;
    tile_n = vnni ? 16 : (avx2_fma ? 8 : 4);
  }
#endif
  if (role == kQueryRoleLhs)
    return std::tuple<int64_t, int64_t>{tile_m, tile_k};
  if (role == kQueryRoleRhs)
    return std::tuple<int64_t, int64_t>{tile_n, tile_k};
  return std::tuple<int64_t, int64_t>{tile_m, tile_n};
}

}  // namespace

std::shared_ptr<vm::Module> CreateVmvxModule() {
  using vm::Export;
  // IREE's exports.inl order (sorted by name), cconvs exactly as there.
  std::vector<vm::NativeExport<VmvxState>> exports = {
      Export<"abs.2d.f32", "0rIIIrIIIII_v", &Unary2D<AbsF>>(),
      Export<"add.2d.f32", "0rIIIrIIIrIIIII_v", &Binary2D<AddF>>(),
      Export<"add.2d.i32", "0rIIIrIIIrIIIII_v", &Binary2D<AddI>>(),
      Export<"and.2d.i32", "0rIIIrIIIrIIIII_v", &Binary2D<AndI>>(),
      Export<"ceil.2d.f32", "0rIIIrIIIII_v", &Unary2D<CeilF>>(),
      Export<"copy.2d.x16", "0rIIIrIIIII_v", &Copy2D<uint16_t>>(),
      Export<"copy.2d.x32", "0rIIIrIIIII_v", &Copy2D<uint32_t>>(),
      Export<"copy.2d.x64", "0rIIIrIIIII_v", &Copy2D<uint64_t>>(),
      Export<"copy.2d.x8", "0rIIIrIIIII_v", &Copy2D<uint8_t>>(),
      Export<"ctlz.2d.i32", "0rIIIrIIIII_v", &Unary2D<CtlzI>>(),
      Export<"div.2d.f32", "0rIIIrIIIrIIIII_v", &Binary2D<DivF>>(),
      Export<"divs.2d.i32", "0rIIIrIIIrIIIII_v", &Binary2D<DivSI>>(),
      Export<"divu.2d.i32", "0rIIIrIIIrIIIII_v", &Binary2D<DivUI>>(),
      Export<"exp.2d.f32", "0rIIIrIIIII_v", &Unary2D<ExpF>>(),
      Export<"fill.2d.x32", "0irIIII_v", &Fill2D>(),
      Export<"floor.2d.f32", "0rIIIrIIIII_v", &Unary2D<FloorF>>(),
      Export<"log.2d.f32", "0rIIIrIIIII_v", &Unary2D<LogF>>(),
      Export<"mmt4d", "0rIIrIIrIIIIIiiii_v", &Mmt4d>(),
      Export<"mul.2d.f32", "0rIIIrIIIrIIIII_v", &Binary2D<MulF>>(),
      Export<"mul.2d.i32", "0rIIIrIIIrIIIII_v", &Binary2D<MulI>>(),
      Export<"neg.2d.f32", "0rIIIrIIIII_v", &Unary2D<NegF>>(),
      Export<"or.2d.i32", "0rIIIrIIIrIIIII_v", &Binary2D<OrI>>(),
      Export<"pack", "0rIIIrIIIIIIIIIIi_v", &Pack>(),
      Export<"query_tile_sizes.2d", "0IIi_II", &QueryTileSizes2D>(),
      Export<"rsqrt.2d.f32", "0rIIIrIIIII_v", &Unary2D<RsqrtF>>(),
      Export<"shl.2d.i32", "0rIIIrIIIrIIIII_v", &Binary2D<ShlI>>(),
      Export<"shrs.2d.i32", "0rIIIrIIIrIIIII_v", &Binary2D<ShrSI>>(),
      Export<"shru.2d.i32", "0rIIIrIIIrIIIII_v", &Binary2D<ShrUI>>(),
      Export<"sub.2d.f32", "0rIIIrIIIrIIIII_v", &Binary2D<SubF>>(),
      Export<"sub.2d.i32", "0rIIIrIIIrIIIII_v", &Binary2D<SubI>>(),
      Export<"unpack", "0rIIIrIIIIIIIIIi_v", &Unpack>(),
      Export<"xor.2d.i32", "0rIIIrIIIrIIIII_v", &Binary2D<XorI>>(),
  };
  return std::make_shared<vm::NativeModule<VmvxState>>(
      "vmvx", 0, std::move(exports),
      [](vm::Context&) -> Result<std::unique_ptr<VmvxState>> {
        return std::make_unique<VmvxState>();
      });
}

}  // namespace ember::modules::vmvx
