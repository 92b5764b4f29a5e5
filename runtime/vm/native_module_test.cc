// Tests of the typed native-module API: cconvs derived from C++ signatures,
// argument/result marshalling (values, refs, typed refs, variadic spans),
// hostile host calls, ref types a module brings (registered with the
// instance, named through RefTypeTraits by a module that does not own the C++
// type), and a bytecode module calling a native one.
#include "runtime/vm/native_module.h"

#include <gtest/gtest.h>

#include <array>
#include <bit>

#include "runtime/vm/buffer.h"
#include "runtime/vm/context.h"
#include "runtime/vm/instance.h"

namespace ember::vm {
namespace {

struct CounterState : ModuleState {
  int64_t total = 0;
  // What borrowed_counts saw of its arguments' reference counts.
  std::vector<uint32_t> counts_seen;
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

// Records the reference count of each buffer while the call runs; returns
// the summed lengths (a null buffer counts 0).
Result<int64_t> BorrowedCounts(
    CounterState& state, const Borrowed<Buffer>& first,
    std::span<const std::tuple<Borrowed<Buffer>>> rest) {
  state.counts_seen.clear();
  int64_t length = 0;
  if (first) {
    state.counts_seen.push_back(first->reference_count_for_testing());
    length += static_cast<int64_t>(first->length());
  }
  for (const auto& [buffer] : rest) {
    if (!buffer) continue;
    state.counts_seen.push_back(buffer->reference_count_for_testing());
    length += static_cast<int64_t>(buffer->length());
  }
  return length;
}

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
      Export<"borrowed_counts", "0rCrD_I", &BorrowedCounts>(),
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
  ASSERT_EQ(module_->export_count(), 8u);
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

  // More tuples than fit inline (16) go to the heap, with the same result
  // and, for a bad tuple, the same message naming the argument.
  std::vector<Variant> many = {Variant(Value::I32(2)), Variant(Value::I32(20))};
  int64_t expected = 2;
  for (int32_t i = 1; i <= 20; ++i) {
    many.push_back(Variant(Value::I32(i)));
    many.push_back(Variant(Value::I64(i + 1)));
    expected += int64_t{i} * (i + 1);
  }
  auto long_dot = Call("dot", many);
  ASSERT_TRUE(long_dot.ok()) << long_dot.status().ToString();
  EXPECT_EQ((*long_dot)[0].value().i64(), expected);
  many[2 + 2 * 17 + 1] = Variant(Value::I32(0));  // tuple 17's i64
  auto bad = Call("dot", many);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(bad.status().ToString().find("argument 38: expected i64"),
            std::string::npos)
      << bad.status().ToString();
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

// ---- register calls (the interpreter's fast path)
// -----------------------------

// A caller's register banks and the u16 lists of a RegisterCall over them.
struct Registers {
  std::array<uint32_t, 16> i32{};
  std::array<VmRef, 8> refs{};
  std::vector<uint8_t> arguments, segments, results;

  static void Append(std::vector<uint8_t>& list, uint16_t reg) {
    list.push_back(static_cast<uint8_t>(reg));
    list.push_back(static_cast<uint8_t>(reg >> 8));
  }
  static uint16_t Ref(uint16_t ordinal, bool move = false) {
    return RegisterCall::kRefBit | (move ? RegisterCall::kMoveBit : 0) |
           ordinal;
  }
  RegisterCall Make() {
    RegisterCall call;
    call.i32 = i32.data();
    call.refs = refs.data();
    call.arguments = arguments.data();
    call.argument_count = static_cast<uint16_t>(arguments.size() / 2);
    if (!segments.empty()) {
      call.segment_sizes = segments.data();
      call.segment_count = static_cast<uint16_t>(segments.size() / 2);
    }
    call.results = results.data();
    call.result_count = static_cast<uint16_t>(results.size() / 2);
    return call;
  }
};

class RegisterCallTest : public NativeModuleTest {
 protected:
  Status CallRegisters(std::string_view name, Registers& registers) {
    EMBER_ASSIGN_OR_RETURN(
        Function function,
        context_->LookupFunction("native." + std::string(name)));
    return context_->CallWithRegisters(function, registers.Make());
  }
};

TEST_F(RegisterCallTest, ValuesAreReadAndWrittenInPlace) {
  ASSERT_TRUE(module_->SupportsRegisterCalls());
  Registers r;
  r.i32[3] = 41;
  Registers::Append(r.arguments, 3);
  Registers::Append(r.results, 7);
  ASSERT_TRUE(CallRegisters("add_one", r).ok());
  EXPECT_EQ(r.i32[7], 42u);
  EXPECT_EQ(r.i32[3], 41u);

  // A 64-bit value spans two registers, low word first.
  Registers wide;
  const double value = -1.25;
  const uint64_t bits = std::bit_cast<uint64_t>(value);
  wide.i32[4] = static_cast<uint32_t>(bits);
  wide.i32[5] = static_cast<uint32_t>(bits >> 32);
  Registers::Append(wide.arguments, 4);
  Registers::Append(wide.results, 8);   // F64 in 8, 9
  Registers::Append(wide.results, 10);  // F32
  ASSERT_TRUE(CallRegisters("split", wide).ok());
  const uint64_t doubled = static_cast<uint64_t>(wide.i32[8]) |
                           (static_cast<uint64_t>(wide.i32[9]) << 32);
  EXPECT_EQ(std::bit_cast<double>(doubled), -2.5);
  EXPECT_EQ(std::bit_cast<float>(wide.i32[10]), -1.25f);
}

TEST_F(RegisterCallTest, RefsAreCopiedOrMovedAsTheMoveBitSays) {
  auto buffer = Buffer::Allocate(24, 0, BufferAccess::kMutable);
  ASSERT_TRUE(buffer.ok());
  const uint32_t before = (*buffer)->reference_count_for_testing();
  Registers r;
  r.refs[2] = VmRef::Of(*buffer);
  Registers::Append(r.arguments, Registers::Ref(2));
  Registers::Append(r.results, 0);  // I64 into 0, 1
  ASSERT_TRUE(CallRegisters("buffer_length", r).ok());
  EXPECT_EQ(r.i32[0], 24u);
  EXPECT_FALSE(r.refs[2].is_null());  // copied: the caller keeps it

  Registers moved;
  moved.refs[1] = VmRef::Of(*buffer);
  Registers::Append(moved.arguments, Registers::Ref(1, /*move=*/true));
  Registers::Append(moved.results, 0);
  ASSERT_TRUE(CallRegisters("buffer_length", moved).ok());
  EXPECT_TRUE(moved.refs[1].is_null());  // taken by the callee

  Registers echo;
  echo.refs[0] = VmRef::Of(*buffer);
  Registers::Append(echo.arguments, Registers::Ref(0, /*move=*/true));
  Registers::Append(echo.results, Registers::Ref(5));
  ASSERT_TRUE(CallRegisters("echo", echo).ok());
  EXPECT_TRUE(echo.refs[0].is_null());
  EXPECT_EQ(echo.refs[5].get(), buffer->get());
  echo.refs[5].reset();
  r.refs[2].reset();
  EXPECT_EQ((*buffer)->reference_count_for_testing(), before)
      << "no reference leaked or lost";
}

TEST_F(RegisterCallTest, BorrowedRefsCountNothingUnlessMoved) {
  auto buffer = Buffer::Allocate(24, 0, BufferAccess::kMutable);
  ASSERT_TRUE(buffer.ok());
  const uint32_t before = (*buffer)->reference_count_for_testing();
  auto state = static_cast<CounterState*>(context_->FindState(module_.get()));
  ASSERT_NE(state, nullptr);

  // Copied registers: the callee sees the count the caller holds, no more.
  Registers r;
  r.refs[1] = VmRef::Of(*buffer);
  r.refs[3] = VmRef::Of(*buffer);
  Registers::Append(r.arguments, Registers::Ref(1));
  Registers::Append(r.arguments, Registers::Ref(3));  // the span's element
  Registers::Append(r.arguments, Registers::Ref(1));
  Registers::Append(r.segments, 1);  // first
  Registers::Append(r.segments, 2);  // rest: two elements
  Registers::Append(r.results, 0);
  ASSERT_TRUE(CallRegisters("borrowed_counts", r).ok());
  EXPECT_EQ(r.i32[0], 72u);
  EXPECT_EQ(state->counts_seen,
            std::vector<uint32_t>(3, before + 2));  // the two registers
  EXPECT_FALSE(r.refs[1].is_null());
  EXPECT_FALSE(r.refs[3].is_null());

  // A moved register is taken: empty after the call, and the reference it
  // held is dropped when the call ends.
  Registers m;
  m.refs[0] = VmRef::Of(*buffer);
  Registers::Append(m.arguments, Registers::Ref(0, /*move=*/true));
  Registers::Append(m.segments, 1);
  Registers::Append(m.segments, 0);
  Registers::Append(m.results, 2);
  ASSERT_TRUE(CallRegisters("borrowed_counts", m).ok());
  EXPECT_EQ(m.i32[2], 24u);
  EXPECT_TRUE(m.refs[0].is_null());
  EXPECT_EQ(state->counts_seen, std::vector<uint32_t>{before + 3});
  r.refs[1].reset();
  r.refs[3].reset();
  EXPECT_EQ((*buffer)->reference_count_for_testing(), before)
      << "no reference leaked or lost";

  // A ref of another type is refused as for Ref<T>.
  auto list = List::Create(TypeDef::Any(), 0);
  ASSERT_TRUE(list.ok());
  Registers wrong;
  wrong.refs[0] = VmRef::Of(*list);
  Registers::Append(wrong.arguments, Registers::Ref(0));
  Registers::Append(wrong.segments, 1);
  Registers::Append(wrong.segments, 0);
  Registers::Append(wrong.results, 0);
  Status status = CallRegisters("borrowed_counts", wrong);
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(status.ToString().find("vm.buffer"), std::string::npos)
      << status.ToString();
}

TEST_F(NativeModuleTest, BorrowedRefsFromVariantsCountNothing) {
  auto buffer = Buffer::Allocate(8, 0, BufferAccess::kMutable);
  ASSERT_TRUE(buffer.ok());
  const uint32_t before = (*buffer)->reference_count_for_testing();
  std::vector<Variant> args = {Variant(VmRef::Of(*buffer)),
                               Variant(Value::I32(1)),
                               Variant(VmRef::Of(*buffer))};
  // Straight to the module (Context::Invoke copies its arguments).
  auto function = context_->LookupFunction("native.borrowed_counts");
  ASSERT_TRUE(function.ok());
  auto state = static_cast<CounterState*>(context_->FindState(module_.get()));
  std::vector<Variant> results(1);
  Status status = module_->Call(*context_, *state, *function, args, results);
  ASSERT_TRUE(status.ok()) << status.ToString();
  EXPECT_EQ(results[0].value().i64(), 16);
  EXPECT_EQ(state->counts_seen, std::vector<uint32_t>(2, before + 2));
  // A null ref borrows as null.
  auto with_null = Call("borrowed_counts", {Variant(), Variant(Value::I32(0))});
  ASSERT_TRUE(with_null.ok()) << with_null.status().ToString();
  EXPECT_EQ((*with_null)[0].value().i64(), 0);
}

TEST_F(RegisterCallTest, ImportsResolveToTheExportsFunction) {
  auto function = context_->LookupFunction("native.add_one");
  ASSERT_TRUE(function.ok());
  Module::RegisterCallTarget target = module_->ResolveRegisterCall(*function);
  ASSERT_NE(target.call, nullptr);
  EXPECT_EQ(target.name, "add_one");
  Registers r;
  r.i32[0] = 9;
  Registers::Append(r.arguments, 0);
  Registers::Append(r.results, 1);
  ASSERT_TRUE(
      target.call(*context_->FindState(module_.get()), target.name, r.Make())
          .ok());
  EXPECT_EQ(r.i32[1], 10u);

  Function missing = *function;
  missing.ordinal = 99;
  EXPECT_EQ(module_->ResolveRegisterCall(missing).call, nullptr);
}

TEST_F(RegisterCallTest, SpansTakeTheirCountsFromSegmentSizes) {
  Registers r;
  r.i32[0] = 1;                // base
  r.i32[1] = 3;                // a0
  r.i32[2] = 4, r.i32[3] = 0;  // b0 (i64)
  r.i32[4] = 5;                // a1
  r.i32[6] = 6, r.i32[7] = 0;  // b1 (i64)
  for (uint16_t reg : {0, 1, 2, 4, 6}) Registers::Append(r.arguments, reg);
  Registers::Append(r.segments, 1);  // base
  Registers::Append(r.segments, 2);  // the span: two tuples
  Registers::Append(r.results, 10);
  ASSERT_TRUE(CallRegisters("dot", r).ok());
  EXPECT_EQ(r.i32[10], static_cast<uint32_t>(1 + 3 * 4 + 5 * 6));
}

TEST_F(RegisterCallTest, HostileRegisterCallsAreRejectedCleanly) {
  auto expect_invalid = [&](Registers& r, const char* what) {
    Status status = CallRegisters("add_one", r);
    ASSERT_FALSE(status.ok()) << what;
    EXPECT_EQ(status.code(), StatusCode::kInvalidArgument) << what;
    EXPECT_NE(status.ToString().find("add_one"), std::string::npos) << what;
  };
  Registers ref_for_value;  // a ref register where an i32 is expected
  Registers::Append(ref_for_value.arguments, Registers::Ref(0));
  Registers::Append(ref_for_value.results, 0);
  expect_invalid(ref_for_value, "ref for value");
  Registers too_few;
  Registers::Append(too_few.results, 0);
  expect_invalid(too_few, "too few");
  Registers too_many;
  Registers::Append(too_many.arguments, 0);
  Registers::Append(too_many.arguments, 1);
  Registers::Append(too_many.results, 0);
  expect_invalid(too_many, "too many");
  Registers no_result;
  Registers::Append(no_result.arguments, 0);
  expect_invalid(no_result, "no result register");
  Registers value_result;  // an i32 result into a ref register
  Registers::Append(value_result.arguments, 0);
  Registers::Append(value_result.results, Registers::Ref(0));
  expect_invalid(value_result, "value into ref");

  // A ref of the wrong type, and span counts that overrun or are missing.
  auto list = List::Create(TypeDef::Any(), 0);
  ASSERT_TRUE(list.ok());
  Registers wrong_type;
  wrong_type.refs[0] = VmRef::Of(*list);
  Registers::Append(wrong_type.arguments, Registers::Ref(0));
  Registers::Append(wrong_type.results, 0);
  Status status = CallRegisters("buffer_length", wrong_type);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.ToString().find("vm.buffer"), std::string::npos);
  EXPECT_FALSE(wrong_type.refs[0].is_null()) << "a rejected ref is not taken";
  for (uint16_t count : {uint16_t{0xFFFF}, uint16_t{2}, uint16_t{30000}}) {
    Registers overrun;
    Registers::Append(overrun.arguments, 0);
    Registers::Append(overrun.arguments, 1);
    Registers::Append(overrun.arguments, 2);
    Registers::Append(overrun.segments, 1);
    Registers::Append(overrun.segments, count);
    Registers::Append(overrun.results, 10);
    status = CallRegisters("dot", overrun);
    ASSERT_FALSE(status.ok()) << count;
    EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  }
  Registers no_segments;
  Registers::Append(no_segments.arguments, 0);
  Registers::Append(no_segments.results, 10);
  status = CallRegisters("dot", no_segments);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.ToString().find("segment"), std::string::npos);
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
