// Tests of the typed native-module API: cconvs derived from C++ signatures,
// argument/result marshalling (values, refs, typed refs, variadic spans),
// hostile host calls, and a bytecode module calling a native one.
#include "runtime/vm/native_module.h"

#include <gtest/gtest.h>

#include "runtime/vm/buffer.h"
#include "runtime/vm/context.h"
#include "runtime/vm/instance.h"

namespace ember::vm {
namespace {

struct CounterState : ModuleState {
  int64_t total = 0;
};

Result<int32_t> AddOne(CounterState&, int32_t value) { return value + 1; }

Status Accumulate(CounterState& state, int64_t amount) {
  state.total += amount;
  return Status();
}

Result<int64_t> Total(CounterState& state) { return state.total; }

Result<std::tuple<double, float>> Split(CounterState&, double value) {
  return std::tuple<double, float>(value * 2, static_cast<float>(value));
}

Result<int64_t> BufferLength(CounterState&, Ref<Buffer> buffer) {
  if (!buffer) return InvalidArgumentError("null buffer");
  return static_cast<int64_t>(buffer->length());
}

// (base, spans of (i32, i64)) -> base + sum(a * b)
Result<int64_t> Dot(CounterState&, int32_t base,
                    std::span<const std::tuple<int32_t, int64_t>> pairs) {
  int64_t sum = base;
  for (const auto& [a, b] : pairs) sum += a * b;
  return sum;
}

Result<VmRef> Echo(CounterState&, VmRef ref) { return ref; }

// The cconvs below are checked by static_assert inside Export<>: changing
// any of them (e.g. "0i_I" for AddOne) fails to compile.
std::shared_ptr<NativeModule<CounterState>> MakeModule() {
  std::vector<NativeExport<CounterState>> exports = {
      Export<"add_one", "0i_i", &AddOne>(),
      Export<"accumulate", "0I_v", &Accumulate>(),
      Export<"total", "0v_I", &Total>(),
      Export<"split", "0F_Ff", &Split>(),
      Export<"buffer_length", "0r_I", &BufferLength>(),
      Export<"dot", "0iCiID_I", &Dot>(),
      Export<"echo", "0r_r", &Echo>(),
  };
  return std::make_shared<NativeModule<CounterState>>(
      "native", 3, std::move(exports),
      [](Context&) -> Result<std::unique_ptr<CounterState>> {
        return std::make_unique<CounterState>();
      });
}

class NativeModuleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    instance_ = Instance::Create();
    module_ = MakeModule();
    std::vector<std::shared_ptr<Module>> modules = {module_};
    auto context = Context::Create(instance_, modules);
    ASSERT_TRUE(context.ok()) << context.status().ToString();
    context_ = std::move(*context);
  }
  Result<std::vector<Variant>> Call(std::string_view name,
                                    std::vector<Variant> args) {
    EMBER_ASSIGN_OR_RETURN(
        Function function,
        context_->LookupFunction("native." + std::string(name)));
    return context_->Invoke(function, args);
  }

  std::shared_ptr<Instance> instance_;
  std::shared_ptr<NativeModule<CounterState>> module_;
  std::unique_ptr<Context> context_;
};

TEST_F(NativeModuleTest, ExportsCarryTheirCconvs) {
  ASSERT_EQ(module_->export_count(), 7u);
  EXPECT_EQ(module_->export_info(0).name, "add_one");
  EXPECT_EQ(module_->export_info(0).calling_convention, "0i_i");
  EXPECT_EQ(module_->export_info(5).calling_convention, "0iCiID_I");
}

TEST_F(NativeModuleTest, ValuesRoundTrip) {
  auto result = Call("add_one", {Variant(Value::I32(41))});
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  ASSERT_EQ(result->size(), 1u);
  EXPECT_EQ((*result)[0].value().i32(), 42);

  auto split = Call("split", {Variant(Value::F64(1.25))});
  ASSERT_TRUE(split.ok()) << split.status().ToString();
  EXPECT_EQ((*split)[0].value().f64(), 2.5);
  EXPECT_EQ((*split)[1].value().f32(), 1.25f);
}

TEST_F(NativeModuleTest, StateIsPerContext) {
  ASSERT_TRUE(Call("accumulate", {Variant(Value::I64(5))}).ok());
  ASSERT_TRUE(Call("accumulate", {Variant(Value::I64(7))}).ok());
  auto total = Call("total", {});
  ASSERT_TRUE(total.ok());
  EXPECT_EQ((*total)[0].value().i64(), 12);
  // A second context starts from zero.
  std::vector<std::shared_ptr<Module>> modules = {module_};
  auto other = Context::Create(instance_, modules);
  ASSERT_TRUE(other.ok());
  auto function = (*other)->LookupFunction("native.total");
  ASSERT_TRUE(function.ok());
  auto fresh = (*other)->Invoke(*function, {});
  ASSERT_TRUE(fresh.ok());
  EXPECT_EQ((*fresh)[0].value().i64(), 0);
}

TEST_F(NativeModuleTest, TypedRefsAreCheckedAndNullable) {
  auto buffer = Buffer::Allocate(24, 0, BufferAccess::kMutable);
  ASSERT_TRUE(buffer.ok());
  auto length = Call("buffer_length", {Variant(VmRef::Of(*buffer))});
  ASSERT_TRUE(length.ok()) << length.status().ToString();
  EXPECT_EQ((*length)[0].value().i64(), 24);

  auto null = Call("buffer_length", {Variant()});
  ASSERT_FALSE(null.ok());
  EXPECT_NE(null.status().ToString().find("null buffer"), std::string::npos);

  auto list = List::Create(TypeDef::Any(), 0);
  ASSERT_TRUE(list.ok());
  auto wrong = Call("buffer_length", {Variant(VmRef::Of(*list))});
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(wrong.status().ToString().find("vm.buffer"), std::string::npos)
      << wrong.status().ToString();
}

TEST_F(NativeModuleTest, RefsPassThroughWithTheirCounts) {
  auto buffer = Buffer::Allocate(8, 0, BufferAccess::kMutable);
  ASSERT_TRUE(buffer.ok());
  uint32_t before = (*buffer)->reference_count_for_testing();
  {
    auto echoed = Call("echo", {Variant(VmRef::Of(*buffer))});
    ASSERT_TRUE(echoed.ok());
    EXPECT_EQ((*echoed)[0].ref().get(), buffer->get());
  }
  EXPECT_EQ((*buffer)->reference_count_for_testing(), before);
}

TEST_F(NativeModuleTest, VariadicSpansUnpackToTuples) {
  auto dot = Call("dot", {Variant(Value::I32(1)), Variant(Value::I32(2)),
                          Variant(Value::I32(3)), Variant(Value::I64(4)),
                          Variant(Value::I32(5)), Variant(Value::I64(6))});
  ASSERT_TRUE(dot.ok()) << dot.status().ToString();
  EXPECT_EQ((*dot)[0].value().i64(), 1 + 3 * 4 + 5 * 6);
  auto empty = Call("dot", {Variant(Value::I32(9)), Variant(Value::I32(0))});
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ((*empty)[0].value().i64(), 9);
}

TEST_F(NativeModuleTest, HostileCallsAreRejectedCleanly) {
  // Wrong type, too few, too many, and a span count that overruns.
  for (const std::vector<Variant>& args : std::vector<std::vector<Variant>>{
           {Variant(Value::I64(1))},
           {},
           {Variant(Value::I32(1)), Variant(Value::I32(2))},
       }) {
    auto result = Call("add_one", args);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(result.status().ToString().find("add_one"), std::string::npos);
  }
  for (int32_t count : {-1, 2, 1000000}) {
    auto result =
        Call("dot", {Variant(Value::I32(1)), Variant(Value::I32(count)),
                     Variant(Value::I32(3)), Variant(Value::I64(4))});
    ASSERT_FALSE(result.ok()) << count;
    EXPECT_EQ(result.status().code(), StatusCode::kInvalidArgument);
  }
}

}  // namespace
}  // namespace ember::vm
