// Tests of the typed native-module API: cconvs derived from C++ signatures,
// argument/result marshalling (values, refs, typed refs, variadic spans),
// hostile host calls, ref types a module brings (registered with the
// instance, named through RefTypeTraits by a module that does not own the C++
// type), and a bytecode module calling a native one.
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

// ---- ref types a native module brings ---------------------------------------

}  // namespace
}  // namespace ember::vm

// A library type that knows nothing of the VM: no RefType, no Type().
namespace gadgets {
class Widget : public ember::RefCounted {
 public:
  explicit Widget(int size) : size_(size) {}
  int size() const { return size_; }

 private:
  int size_;
};
}  // namespace gadgets

// The bridge module (below) says which VM type a Widget travels as.
template <>
struct ember::vm::RefTypeTraits<gadgets::Widget> {
  static const RefType& type() {
    static const RefType descriptor("gadgets.widget");
    return descriptor;
  }
};

namespace ember::vm {
namespace {

static_assert(HasRefType<gadgets::Widget>);
static_assert(HasRefType<Buffer> && HasRefType<List>);
static_assert(!HasRefType<int>);

struct WidgetState : ModuleState {};

Result<Ref<gadgets::Widget>> MakeWidget(WidgetState&, int32_t size) {
  return Ref<gadgets::Widget>::Adopt(new gadgets::Widget(size));
}

Result<int32_t> WidgetSize(WidgetState&, Ref<gadgets::Widget> widget) {
  if (!widget) return InvalidArgumentError("null widget");
  return widget->size();
}

std::shared_ptr<NativeModule<WidgetState>> MakeWidgetModule() {
  return std::make_shared<NativeModule<WidgetState>>(
      "gadgets", 1,
      std::vector<NativeExport<WidgetState>>{
          Export<"make", "0i_r", &MakeWidget>(),
          Export<"size", "0r_i", &WidgetSize>(),
      },
      [](Context&) -> Result<std::unique_ptr<WidgetState>> {
        return std::make_unique<WidgetState>();
      },
      std::vector<const RefType*>{&RefTypeTraits<gadgets::Widget>::type()});
}

TEST(NativeModuleTypesTest, RegisteredTypesResolveForModulesNamingThem) {
  auto module = MakeWidgetModule();
  const RefType& widget_type = RefTypeTraits<gadgets::Widget>::type();
  ASSERT_EQ(module->ref_types().size(), 1u);

  // Before registration nobody knows the name.
  auto instance = Instance::Create();
  auto unknown = instance->types().ResolveModuleTypeName("!gadgets.widget");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().code(), StatusCode::kNotFound);
  EXPECT_NE(unknown.status().ToString().find("!gadgets.widget"),
            std::string::npos);

  // Registered, then frozen: a module's type table entry resolves to the
  // module's descriptor. Registering twice is harmless.
  ASSERT_TRUE(module->RegisterTypes(*instance).ok());
  ASSERT_TRUE(module->RegisterTypes(*instance).ok());
  instance->Freeze();
  EXPECT_EQ(instance->types().Lookup("gadgets.widget"), &widget_type);
  auto resolved = instance->types().ResolveModuleTypeName("!gadgets.widget");
  ASSERT_TRUE(resolved.ok()) << resolved.status().ToString();
  EXPECT_EQ(*resolved, TypeDef::OfRef(widget_type));

  // Marshalling goes through the trait both ways.
  std::vector<std::shared_ptr<Module>> modules = {module};
  auto context = Context::Create(instance, modules);
  ASSERT_TRUE(context.ok()) << context.status().ToString();
  auto make = (*context)->LookupFunction("gadgets.make");
  auto size = (*context)->LookupFunction("gadgets.size");
  ASSERT_TRUE(make.ok() && size.ok());
  auto made =
      (*context)->Invoke(*make, std::vector<Variant>{Variant(Value::I32(7))});
  ASSERT_TRUE(made.ok()) << made.status().ToString();
  const VmRef& ref = (*made)[0].ref();
  EXPECT_TRUE(ref.Is(widget_type));
  ASSERT_NE(ref.As<gadgets::Widget>(), nullptr);
  EXPECT_EQ(ref.As<gadgets::Widget>()->size(), 7);
  auto sized = (*context)->Invoke(*size, std::vector<Variant>{(*made)[0]});
  ASSERT_TRUE(sized.ok()) << sized.status().ToString();
  EXPECT_EQ((*sized)[0].value().i32(), 7);

  // A ref of another type is refused, naming the expected one.
  auto buffer = Buffer::Allocate(8, 0, BufferAccess::kMutable);
  ASSERT_TRUE(buffer.ok());
  auto wrong = (*context)->Invoke(
      *size, std::vector<Variant>{Variant(VmRef::Of(*buffer))});
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(wrong.status().ToString().find("gadgets.widget"), std::string::npos)
      << wrong.status().ToString();
  EXPECT_EQ(VmRef::Of(*buffer).As<gadgets::Widget>(), nullptr);
}

TEST(NativeModuleTypesTest, RegisteringAfterFreezeFailsCleanly) {
  auto module = MakeWidgetModule();
  auto instance = Instance::Create();
  instance->Freeze();
  Status status = module->RegisterTypes(*instance);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(status.ToString().find("gadgets.widget"), std::string::npos)
      << status.ToString();
  EXPECT_NE(status.ToString().find("gadgets"), std::string::npos);
  EXPECT_EQ(instance->types().Lookup("gadgets.widget"), nullptr);
}

TEST(NativeModuleTypesTest, ANameTakenByAnotherDescriptorIsRefused) {
  static const RefType impostor("gadgets.widget");
  auto instance = Instance::Create();
  ASSERT_TRUE(instance->RegisterType(impostor).ok());
  Status status = MakeWidgetModule()->RegisterTypes(*instance);
  EXPECT_EQ(status.code(), StatusCode::kAlreadyExists);
}

}  // namespace
}  // namespace ember::vm
