#include "runtime/modules/vmvx/vmvx_module.h"

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "runtime/vm/buffer.h"
#include "runtime/vm/context.h"
#include "runtime/vm/instance.h"
#include "runtime/vm/list.h"

namespace ember::modules::vmvx {
namespace {

using vm::Buffer;
using vm::BufferAccess;
using vm::Value;
using vm::Variant;
using vm::VmRef;

class VmvxModuleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto instance = vm::Instance::Create();
    instance->Freeze();
    module_ = CreateVmvxModule();
    const std::shared_ptr<vm::Module> modules[] = {module_};
    auto context = vm::Context::Create(std::move(instance), modules);
    ASSERT_TRUE(context.ok()) << context.status().ToString();
    context_ = std::move(*context);
  }

  // A buffer holding `values` (mutable unless `read_only`).
  template <typename T>
  Ref<Buffer> Make(const std::vector<T>& values, bool read_only = false) {
    auto buffer = Buffer::Allocate(
        values.size() * sizeof(T), 16,
        read_only ? BufferAccess::kOriginHost : BufferAccess::kMutable);
    EXPECT_TRUE(buffer.ok());
    if (!values.empty()) {
      std::memcpy(const_cast<uint8_t*>((*buffer)->bytes().data()),
                  values.data(), values.size() * sizeof(T));
    }
    return *buffer;
  }
  template <typename T>
  static std::vector<T> Read(const Ref<Buffer>& buffer) {
    std::vector<T> values(buffer->length() / sizeof(T));
    std::memcpy(values.data(), buffer->bytes().data(), buffer->length());
    return values;
  }

  static Variant R(const Ref<Buffer>& buffer) {
    return Variant(buffer ? VmRef::Of<Buffer>(buffer) : VmRef());
  }
  static Variant I(int64_t value) { return Variant(Value::I64(value)); }
  static Variant I32(int32_t value) { return Variant(Value::I32(value)); }

  Status Call(const std::string& name, std::vector<Variant> arguments,
              std::vector<Variant>* results = nullptr) {
    auto function = context_->LookupFunction("vmvx." + name);
    if (!function.ok()) return function.status();
    std::vector<Variant> sink;
    std::vector<Variant>& out = results ? *results : sink;
    return context_->Invoke(*function, arguments, out);
  }
  // A binary 2-D call: lhs, rhs, out each (buffer, offset, s0, s1).
  Status Binary(const std::string& name, const Ref<Buffer>& lhs,
                const Ref<Buffer>& rhs, const Ref<Buffer>& out, int64_t size0,
                int64_t size1, int64_t out_offset = 0, int64_t stride0 = -2) {
    const int64_t s0 = stride0 == -2 ? size1 : stride0;
    return Call(name, {R(lhs), I(0), I(s0), I(1), R(rhs), I(0), I(s0), I(1),
                       R(out), I(out_offset), I(s0), I(1), I(size0), I(size1)});
  }

  std::shared_ptr<vm::Module> module_;
  std::unique_ptr<vm::Context> context_;
};

TEST_F(VmvxModuleTest, ExportsIreesNamesAndCallingConventions) {
  // IREE's runtime/src/iree/modules/vmvx/exports.inl, all of it.
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"abs.2d.f32", "0rIIIrIIIII_v"},
      {"add.2d.f32", "0rIIIrIIIrIIIII_v"},
      {"add.2d.i32", "0rIIIrIIIrIIIII_v"},
      {"and.2d.i32", "0rIIIrIIIrIIIII_v"},
      {"ceil.2d.f32", "0rIIIrIIIII_v"},
      {"copy.2d.x16", "0rIIIrIIIII_v"},
      {"copy.2d.x32", "0rIIIrIIIII_v"},
      {"copy.2d.x64", "0rIIIrIIIII_v"},
      {"copy.2d.x8", "0rIIIrIIIII_v"},
      {"ctlz.2d.i32", "0rIIIrIIIII_v"},
      {"div.2d.f32", "0rIIIrIIIrIIIII_v"},
      {"divs.2d.i32", "0rIIIrIIIrIIIII_v"},
      {"divu.2d.i32", "0rIIIrIIIrIIIII_v"},
      {"exp.2d.f32", "0rIIIrIIIII_v"},
      {"fill.2d.x32", "0irIIII_v"},
      {"floor.2d.f32", "0rIIIrIIIII_v"},
      {"log.2d.f32", "0rIIIrIIIII_v"},
      {"mmt4d", "0rIIrIIrIIIIIiiii_v"},
      {"mul.2d.f32", "0rIIIrIIIrIIIII_v"},
      {"mul.2d.i32", "0rIIIrIIIrIIIII_v"},
      {"neg.2d.f32", "0rIIIrIIIII_v"},
      {"or.2d.i32", "0rIIIrIIIrIIIII_v"},
      {"pack", "0rIIIrIIIIIIIIIIi_v"},
      {"query_tile_sizes.2d", "0IIi_II"},
      {"rsqrt.2d.f32", "0rIIIrIIIII_v"},
      {"shl.2d.i32", "0rIIIrIIIrIIIII_v"},
      {"shrs.2d.i32", "0rIIIrIIIrIIIII_v"},
      {"shru.2d.i32", "0rIIIrIIIrIIIII_v"},
      {"sub.2d.f32", "0rIIIrIIIrIIIII_v"},
      {"sub.2d.i32", "0rIIIrIIIrIIIII_v"},
      {"unpack", "0rIIIrIIIIIIIIIi_v"},
      {"xor.2d.i32", "0rIIIrIIIrIIIII_v"},
  };
  EXPECT_EQ(module_->name(), "vmvx");
  EXPECT_EQ(module_->version(), 0u);
  ASSERT_EQ(module_->export_count(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(module_->export_info(i).name, expected[i].first);
    EXPECT_EQ(module_->export_info(i).calling_convention, expected[i].second);
  }
}

TEST_F(VmvxModuleTest, BinaryElementwiseFloatAndInteger) {
  auto lhs = Make<float>({1, 2, 3, 4, 5, 6});
  auto rhs = Make<float>({0.5f, -2, 8, 0.25f, 1, 3});
  auto out = Make<float>(std::vector<float>(6));
  ASSERT_TRUE(Binary("add.2d.f32", lhs, rhs, out, 2, 3).ok());
  EXPECT_EQ(Read<float>(out), (std::vector<float>{1.5f, 0, 11, 4.25f, 6, 9}));
  ASSERT_TRUE(Binary("div.2d.f32", lhs, rhs, out, 2, 3).ok());
  EXPECT_EQ(Read<float>(out), (std::vector<float>{2, -1, 3.0f / 8, 16, 5, 2}));

  auto a = Make<int32_t>({7, -8, INT32_MIN, 1 << 30});
  auto b = Make<int32_t>({2, 3, -1, 33});
  auto c = Make<int32_t>(std::vector<int32_t>(4));
  ASSERT_TRUE(Binary("divs.2d.i32", a, b, c, 1, 4).ok());
  EXPECT_EQ(Read<int32_t>(c),
            (std::vector<int32_t>{3, -2, INT32_MIN, (1 << 30) / 33}));
  ASSERT_TRUE(Binary("shl.2d.i32", a, b, c, 1, 4).ok());  // counts mod 32
  EXPECT_EQ(Read<int32_t>(c)[3], int32_t{1} << 31);
  ASSERT_TRUE(Binary("shrs.2d.i32", a, b, c, 1, 4).ok());
  EXPECT_EQ(Read<int32_t>(c)[1], -1);
  ASSERT_TRUE(Binary("mul.2d.i32", a, b, c, 1, 4).ok());  // wraps
  EXPECT_EQ(Read<int32_t>(c)[2], INT32_MIN);
}

TEST_F(VmvxModuleTest, StridedViewsAndAliasing) {
  // out = transpose(in) through strides, then in place: in += in.
  auto in = Make<float>({1, 2, 3, 4, 5, 6});  // 2x3
  auto out = Make<float>(std::vector<float>(6));
  ASSERT_TRUE(Call("copy.2d.x32", {R(in), I(0), I(1), I(3), R(out), I(0), I(2),
                                   I(1), I(3), I(2)})
                  .ok());
  EXPECT_EQ(Read<float>(out), (std::vector<float>{1, 4, 2, 5, 3, 6}));
  ASSERT_TRUE(Binary("add.2d.f32", in, in, in, 2, 3).ok());
  EXPECT_EQ(Read<float>(in), (std::vector<float>{2, 4, 6, 8, 10, 12}));
  // A stride of zero broadcasts a row.
  auto row = Make<float>({1, 2, 3});
  ASSERT_TRUE(Call("add.2d.f32", {R(row), I(0), I(0), I(1), R(in), I(0), I(3),
                                  I(1), R(out), I(0), I(3), I(1), I(2), I(3)})
                  .ok());
  EXPECT_EQ(Read<float>(out), (std::vector<float>{3, 6, 9, 9, 12, 15}));
}

TEST_F(VmvxModuleTest, UnaryCopyAndFill) {
  auto in = Make<float>({-1.5f, 2.25f, 4, 0});
  auto out = Make<float>(std::vector<float>(4));
  ASSERT_TRUE(Call("floor.2d.f32", {R(in), I(0), I(4), I(1), R(out), I(0), I(4),
                                    I(1), I(1), I(4)})
                  .ok());
  EXPECT_EQ(Read<float>(out), (std::vector<float>{-2, 2, 4, 0}));
  ASSERT_TRUE(Call("rsqrt.2d.f32", {R(in), I(2), I(4), I(1), R(out), I(0), I(4),
                                    I(1), I(1), I(1)})
                  .ok());
  EXPECT_EQ(Read<float>(out)[0], 0.5f);
  auto bits = Make<uint32_t>({0, 1, 0x80000000u, 0xFFFF});
  auto counts = Make<uint32_t>(std::vector<uint32_t>(4));
  ASSERT_TRUE(Call("ctlz.2d.i32", {R(bits), I(0), I(4), I(1), R(counts), I(0),
                                   I(4), I(1), I(1), I(4)})
                  .ok());
  EXPECT_EQ(Read<uint32_t>(counts), (std::vector<uint32_t>{32, 31, 0, 16}));

  auto bytes = Make<uint8_t>({1, 2, 3, 4, 5, 6, 7, 8});
  auto target = Make<uint8_t>(std::vector<uint8_t>(8));
  ASSERT_TRUE(Call("copy.2d.x8", {R(bytes), I(1), I(2), I(1), R(target), I(0),
                                  I(4), I(1), I(2), I(2)})
                  .ok());
  EXPECT_EQ(Read<uint8_t>(target),
            (std::vector<uint8_t>{2, 3, 0, 0, 4, 5, 0, 0}));
  auto wide = Make<uint64_t>({~uint64_t{0}, 5});
  auto wide_out = Make<uint64_t>(std::vector<uint64_t>(2));
  ASSERT_TRUE(Call("copy.2d.x64", {R(wide), I(0), I(1), I(1), R(wide_out), I(0),
                                   I(1), I(1), I(2), I(1)})
                  .ok());
  EXPECT_EQ(Read<uint64_t>(wide_out), Read<uint64_t>(wide));

  auto fill = Make<int32_t>(std::vector<int32_t>(8));
  ASSERT_TRUE(
      Call("fill.2d.x32", {I32(-7), R(fill), I(1), I(4), I(2), I(2)}).ok());
  EXPECT_EQ(Read<int32_t>(fill),
            (std::vector<int32_t>{0, -7, -7, 0, 0, -7, -7, 0}));
}

TEST_F(VmvxModuleTest, OperandsOutsideTheBufferAreRefused) {
  auto small = Make<float>(std::vector<float>(6));
  auto out = Make<float>(std::vector<float>(6));
  // One element past the end, through the offset.
  Status status = Binary("add.2d.f32", small, small, out, 2, 3, 1);
  EXPECT_EQ(status.code(), StatusCode::kOutOfRange);
  EXPECT_NE(status.ToString().find("vmvx.add.2d.f32: operand 'out'"),
            std::string::npos)
      << status.ToString();
  EXPECT_NE(status.ToString().find("reaches byte 28 of a 24-byte buffer"),
            std::string::npos)
      << status.ToString();
  // Through a row stride.
  EXPECT_EQ(Binary("add.2d.f32", small, small, out, 2, 3, 0, 4).code(),
            StatusCode::kOutOfRange);
  // Negative values and products past 2^64.
  EXPECT_EQ(Binary("sub.2d.f32", small, small, out, 2, 3, -1).code(),
            StatusCode::kOutOfRange);
  EXPECT_EQ(Call("copy.2d.x32", {R(small), I(0), I(int64_t{1} << 62), I(1),
                                 R(out), I(0), I(3), I(1), I(5), I(1)})
                .code(),
            StatusCode::kOutOfRange);
  EXPECT_EQ(
      Call("copy.2d.x64", {R(small), I(std::numeric_limits<int64_t>::max()),
                           I(1), I(1), R(out), I(0), I(1), I(1), I(1), I(1)})
          .code(),
      StatusCode::kOutOfRange);
  // Null buffers and read-only outputs.
  EXPECT_EQ(Binary("add.2d.f32", small, nullptr, out, 2, 3).code(),
            StatusCode::kInvalidArgument);
  auto read_only = Make<float>(std::vector<float>(6), /*read_only=*/true);
  EXPECT_EQ(Binary("add.2d.f32", small, small, read_only, 2, 3).code(),
            StatusCode::kPermissionDenied);
  EXPECT_EQ(Read<float>(out), std::vector<float>(6));  // nothing written
  // Empty operands touch nothing, whatever their offsets.
  EXPECT_TRUE(
      Call("fill.2d.x32", {I32(1), R(out), I(1000), I(9), I(0), I(3)}).ok());
}

TEST_F(VmvxModuleTest, IntegerDivisionByZeroIsAnError) {
  auto a = Make<int32_t>({1, 2});
  auto zero = Make<int32_t>({1, 0});
  auto out = Make<int32_t>(std::vector<int32_t>(2));
  for (const char* name : {"divs.2d.i32", "divu.2d.i32"}) {
    Status status = Binary(name, a, zero, out, 1, 2);
    EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
    EXPECT_NE(status.ToString().find("division by zero"), std::string::npos);
  }
}

// Reference mmt4d on small integers (exact in f32).
std::vector<float> ReferenceMmt4d(const std::vector<float>& lhs,
                                  const std::vector<float>& rhs, int m, int n,
                                  int k, int m0, int n0, int k0) {
  std::vector<float> out(static_cast<size_t>(m * n * m0 * n0));
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      for (int i0 = 0; i0 < m0; ++i0)
        for (int j0 = 0; j0 < n0; ++j0) {
          float acc = 0;
          for (int kk = 0; kk < k; ++kk)
            for (int q = 0; q < k0; ++q)
              acc += lhs[((i * k + kk) * m0 + i0) * k0 + q] *
                     rhs[((j * k + kk) * n0 + j0) * k0 + q];
          out[((i * n + j) * m0 + i0) * n0 + j0] = acc;
        }
  return out;
}

TEST_F(VmvxModuleTest, Mmt4dF32AndS8) {
  const int m = 2, n = 3, k = 2, m0 = 2, n0 = 4, k0 = 3;
  std::vector<float> lhs(m * k * m0 * k0), rhs(n * k * n0 * k0);
  for (size_t i = 0; i < lhs.size(); ++i) lhs[i] = float(int(i % 7) - 3);
  for (size_t i = 0; i < rhs.size(); ++i) rhs[i] = float(int(i % 5) - 2);
  auto l = Make<float>(lhs), r = Make<float>(rhs);
  auto o = Make<float>(std::vector<float>(m * n * m0 * n0, 100.0f));
  auto call = [&](const Ref<Buffer>& lb, const Ref<Buffer>& rb,
                  const Ref<Buffer>& ob, int32_t flags, int64_t out_offset) {
    return Call("mmt4d",
                {R(lb), I(0), I(k * m0 * k0), R(rb), I(0), I(k * n0 * k0),
                 R(ob), I(out_offset), I(n * m0 * n0), I(m), I(n), I(k),
                 I32(m0), I32(n0), I32(k0), I32(flags)});
  };
  ASSERT_TRUE(call(l, r, o, 0x1, 0).ok());
  const std::vector<float> expected =
      ReferenceMmt4d(lhs, rhs, m, n, k, m0, n0, k0);
  EXPECT_EQ(Read<float>(o), expected);
  ASSERT_TRUE(call(l, r, o, 0x101, 0).ok());  // accumulate
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(Read<float>(o)[i], 2 * expected[i]);
  }
  // s8 x s8 -> s32 on the same values.
  std::vector<int8_t> lhs8(lhs.begin(), lhs.end()),
      rhs8(rhs.begin(), rhs.end());
  auto o32 = Make<int32_t>(std::vector<int32_t>(expected.size()));
  ASSERT_TRUE(call(Make<int8_t>(lhs8), Make<int8_t>(rhs8), o32, 0x2, 0).ok());
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(Read<int32_t>(o32)[i], static_cast<int32_t>(expected[i]));
  }
  // Out of range, an unimplemented type, unknown bits.
  EXPECT_EQ(call(l, r, o, 0x1, 1).code(), StatusCode::kOutOfRange);
  Status f16 = call(l, r, o, 0x3, 0);
  EXPECT_EQ(f16.code(), StatusCode::kUnimplemented);
  EXPECT_NE(f16.ToString().find("vmvx.mmt4d"), std::string::npos);
  EXPECT_EQ(call(l, r, o, 0x1001, 0).code(), StatusCode::kInvalidArgument);
}

TEST_F(VmvxModuleTest, PackAndUnpackRoundTripWithPadding) {
  // A 5x7 matrix in 3x2 tiles: 2x4 tiles, padded with -1.
  const int rows = 5, columns = 7, t0 = 3, t1 = 2, o0 = 2, o1 = 4;
  std::vector<float> in(rows * columns);
  for (size_t i = 0; i < in.size(); ++i) in[i] = float(i);
  const float pad = -1;
  for (int flags : {0x1, 0x101, 0x201, 0x301}) {
    const bool inner = flags & 0x100, outer = flags & 0x200;
    const int s0 = outer ? o1 : o0, s1 = outer ? o0 : o1;
    const int s2 = inner ? t1 : t0, s3 = inner ? t0 : t1;
    auto source = Make<float>(in);
    auto packed = Make<float>(std::vector<float>(s0 * s1 * s2 * s3));
    ASSERT_TRUE(Call("pack", {R(source), I(0), I(columns), I(1), R(packed),
                              I(0), I(s1 * s2 * s3), I(s2 * s3), I(rows),
                              I(columns), I(s0), I(s1), I(s2), I(s3),
                              I(std::bit_cast<uint32_t>(pad)), I32(flags)})
                    .ok());
    const std::vector<float> tiles = Read<float>(packed);
    for (int a = 0; a < s0; ++a)
      for (int b = 0; b < s1; ++b)
        for (int c = 0; c < s2; ++c)
          for (int d = 0; d < s3; ++d) {
            const int b0 = outer ? b : a, b1 = outer ? a : b;
            const int e0 = inner ? d : c, e1 = inner ? c : d;
            const int row = b0 * t0 + e0, column = b1 * t1 + e1;
            const float want = (row < rows && column < columns)
                                   ? in[row * columns + column]
                                   : pad;
            ASSERT_EQ(tiles[((a * s1 + b) * s2 + c) * s3 + d], want)
                << "flags " << flags;
          }
    auto back = Make<float>(std::vector<float>(in.size()));
    ASSERT_TRUE(Call("unpack", {R(packed), I(0), I(s1 * s2 * s3), I(s2 * s3),
                                R(back), I(0), I(columns), I(1), I(s0), I(s1),
                                I(s2), I(s3), I(rows), I(columns), I32(flags)})
                    .ok());
    EXPECT_EQ(Read<float>(back), in) << "flags " << flags;
    // An output larger than the tiles cover is refused.
    EXPECT_EQ(Call("unpack", {R(packed), I(0), I(s1 * s2 * s3), I(s2 * s3),
                              R(back), I(0), I(1), I(1), I(s0), I(s1), I(s2),
                              I(s3), I(1), I(int64_t{o1} * t1 + 1), I32(flags)})
                  .code(),
              StatusCode::kOutOfRange);
  }
  // i8 packs; i8 unpack is not a VMVX kernel (as in IREE).
  auto bytes = Make<int8_t>({1, 2, 3});
  auto packed = Make<int8_t>(std::vector<int8_t>(4));
  ASSERT_TRUE(
      Call("pack", {R(bytes), I(0), I(3), I(1), R(packed), I(0), I(4), I(4),
                    I(1), I(3), I(1), I(1), I(1), I(4), I(0x7F), I32(0x2)})
          .ok());
  EXPECT_EQ(Read<int8_t>(packed), (std::vector<int8_t>{1, 2, 3, 0x7F}));
  EXPECT_EQ(Call("unpack", {R(packed), I(0), I(4), I(4), R(bytes), I(0), I(3),
                            I(1), I(1), I(1), I(1), I(4), I(1), I(3), I32(0x2)})
                .code(),
            StatusCode::kInvalidArgument);
}

TEST_F(VmvxModuleTest, QueryTileSizes) {
  std::vector<Variant> results(2);
  ASSERT_TRUE(
      Call("query_tile_sizes.2d", {I(100), I(200), I32(0x0101)}, &results)
          .ok());
  const int64_t m = results[0].value().i64();
  const int64_t k = results[1].value().i64();
  ASSERT_TRUE(
      Call("query_tile_sizes.2d", {I(100), I(200), I32(0x0103)}, &results)
          .ok());
  EXPECT_EQ(results[0].value().i64(), m);  // the result's rows are lhs rows
  const int64_t n = results[1].value().i64();
  EXPECT_GT(m, 0);
  EXPECT_GT(n, 0);
  EXPECT_GT(k, 0);
  EXPECT_EQ(
      Call("query_tile_sizes.2d", {I(1), I(1), I32(0x0104)}, &results).code(),
      StatusCode::kInvalidArgument);
  EXPECT_EQ(
      Call("query_tile_sizes.2d", {I(1), I(1), I32(0x0001)}, &results).code(),
      StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace ember::modules::vmvx
