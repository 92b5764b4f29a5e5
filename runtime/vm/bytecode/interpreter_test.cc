// Runs the VM-dialect corpus programs (tests/corpus/vm/*.mlir) through a
// Context and checks their results. Expected numbers were computed by hand
// and cross-checked with IREE 3.11's iree-run-module, except where noted.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "runtime/testing/corpus.h"
#include "runtime/vm/buffer.h"
#include "runtime/vm/bytecode/bytecode_module.h"
#include "runtime/vm/context.h"
#include "runtime/vm/instance.h"
#include "runtime/vm/list.h"

namespace ember::vm::bytecode {
namespace {

using ember::testing::LoadCorpusProgram;

Variant I32(int32_t v) { return Variant(Value::I32(v)); }
Variant I64(int64_t v) { return Variant(Value::I64(v)); }
Variant F32(float v) { return Variant(Value::F32(v)); }
Variant F64(double v) { return Variant(Value::F64(v)); }

TEST(InterpreterTest, IntLoop) {
  auto p = LoadCorpusProgram("vm_int_loop.embedded");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->Call1("sum_to", {I32(10)}).value().i32(), 55);
  EXPECT_EQ(p->Call1("sum_to", {I32(-3)}).value().i32(), 0);
  EXPECT_EQ(p->Call1("factorial_i64", {I64(20)}).value().i64(),
            2432902008176640000LL);
  EXPECT_EQ(p->Call1("gcd", {I32(84), I32(36)}).value().i32(), 12);
  EXPECT_EQ(p->Call1("mix_i64", {I64(123456789), I32(-5)}).value().i64(),
            1111111106);
  // The global persists across calls of one context.
  EXPECT_EQ(p->Call1("bump", {}).value().i32(), 1);
  EXPECT_EQ(p->Call1("bump", {}).value().i32(), 2);
  EXPECT_EQ(p->Call1("bump", {}).value().i32(), 3);
}

TEST(InterpreterTest, Calls) {
  auto p = LoadCorpusProgram("vm_calls.embedded");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->Call1("fib", {I32(20)}).value().i32(), 6765);
  auto divmod = p->Call("divmod", {I32(-17), I32(5)});
  ASSERT_TRUE(divmod.ok()) << divmod.status().ToString();
  EXPECT_EQ((*divmod)[0].value(), Value::I32(-3));
  EXPECT_EQ((*divmod)[1].value(), Value::I32(-2));
  EXPECT_EQ(p->Call1("sum_sq", {I64(3000000000LL), I64(4)}).value().i64(),
            9000000000000000016LL);
  EXPECT_EQ(p->Call1("chain", {I32(5)}).value().i32(), 77);
  EXPECT_EQ(p->Call1("alias", {I32(21)}).value().i32(), 42);
  auto none = p->Call("no_args", {});
  ASSERT_TRUE(none.ok()) << none.status().ToString();
  EXPECT_TRUE(none->empty());
}

// Quickened copies are made on a function's first call: creating the
// module makes none, a call makes those of the functions it runs, and
// prepare_all_functions makes them all up front.
TEST(InterpreterTest, QuickenedCopiesAreMadeOnFirstCall) {
  auto p = LoadCorpusProgram("vm_internal_calls.embedded");
  ASSERT_NE(p, nullptr);
  const size_t functions = p->module->function_count();
  ASSERT_GE(functions, 8u);
  EXPECT_EQ(p->module->prepared_function_count(), 0u);
  EXPECT_EQ(p->Call1("sum_sq", {I64(3), I64(4)}).value().i64(), 25);
  EXPECT_EQ(p->module->prepared_function_count(), 2u) << "sum_sq and square";
  EXPECT_EQ(p->Call1("sum_sq", {I64(1), I64(2)}).value().i64(), 5);
  EXPECT_EQ(p->module->prepared_function_count(), 2u);
  EXPECT_EQ(p->Call1("deep", {I32(5)}).value().i32(), 16);
  EXPECT_EQ(p->module->prepared_function_count(), 5u) << "+ deep, outer, inner";

  auto eager = ember::testing::LoadCorpusModule(
      p->instance, "vm_internal_calls.embedded",
      BytecodeModule::Options{.prepare_all_functions = true});
  ASSERT_NE(eager, nullptr);
  EXPECT_EQ(eager->prepared_function_count(), functions);
}

// Threads that call into one module from their own contexts at the same
// time all get the same quickened copy, made once.
TEST(InterpreterTest, ConcurrentFirstCallsShareOneCopy) {
  auto p = LoadCorpusProgram("vm_internal_calls.embedded");
  ASSERT_NE(p, nullptr);
  constexpr int kThreads = 4;
  std::vector<std::thread> threads;
  std::vector<int64_t> results(kThreads, 0);
  std::atomic<int> ready{0};
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      Context context(p->instance);
      if (!context.RegisterModule(p->module).ok()) return;
      auto function = context.LookupFunction("internal_calls.sum_sq");
      if (!function.ok()) return;
      ready.fetch_add(1);
      while (ready.load() < kThreads) std::this_thread::yield();
      std::vector<Variant> arguments = {I64(t), I64(10)};
      auto out = context.Invoke(*function, arguments);
      if (out.ok() && out->size() == 1) results[t] = (*out)[0].value().i64();
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(results[t], t * t + 100) << t;
  EXPECT_EQ(p->module->prepared_function_count(), 2u);
  auto first = p->module->QuickenedCode(0);
  auto again = p->module->QuickenedCode(0);
  ASSERT_TRUE(first.ok() && again.ok());
  EXPECT_EQ(*first, *again);
  EXPECT_EQ(
      p->module->QuickenedCode(p->module->function_count()).status().code(),
      StatusCode::kOutOfRange);
}

// Internal calls that the compiler does not inline. IREE 3.11 itself copies
// one 32-bit slot per call operand and result, so iree-run-module prints
// sum_sq = 3800301584 and swap_add = (12884901881, 0) here; Ember copies
// 64-bit values as pairs per the callee's cconv and gets the true values.
TEST(InterpreterTest, InternalCalls) {
  auto p = LoadCorpusProgram("vm_internal_calls.embedded");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->Call1("sum_sq", {I64(3000000000LL), I64(4)}).value().i64(),
            9000000000000000016LL);
  auto mixed = p->Call("swap_add", {I32(-7), I64(8589934597LL)});
  ASSERT_TRUE(mixed.ok()) << mixed.status().ToString();
  EXPECT_EQ((*mixed)[0].value(), Value::I64(8589934590LL));
  EXPECT_EQ((*mixed)[1].value(), Value::I32(5));
  EXPECT_EQ(p->Call1("list_len_plus", {I32(6)}).value().i32(), 7);
  EXPECT_EQ(p->Call1("deep", {I32(5)}).value().i32(), 16);

  auto failed = p->Call("deep", {I32(-1)});
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.status().code(), StatusCode::kAborted);
  EXPECT_EQ(failed.status().message(), "inner: negative");
  std::string text = failed.status().ToString();
  // One trace entry per frame, innermost first. iree-compile 3.11 writes a
  // debug source map for only one function of these modules (here `deep`),
  // so private helpers are named by ordinal, as IREE's own traces do.
  size_t inner = text.find("in internal_calls.#6 (pc ");
  size_t outer = text.find("in internal_calls.#7 (pc ");
  size_t deep = text.find("in internal_calls.deep at ");
  EXPECT_NE(inner, std::string::npos) << text;
  EXPECT_NE(outer, std::string::npos) << text;
  EXPECT_NE(deep, std::string::npos) << text;
  EXPECT_LT(inner, outer) << text;
  EXPECT_LT(outer, deep) << text;
  EXPECT_NE(text.find("internal_calls.mlir:"), std::string::npos) << text;
}

TEST(InterpreterTest, FloatMath) {
  auto p = LoadCorpusProgram("vm_float_math.embedded");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->Call1("hypot_f32", {F32(3), F32(4)}).value().f32(), 5.0f);
  EXPECT_EQ(p->Call1("poly_f64", {F64(2.5)}).value().f64(), 14.25);
  EXPECT_NEAR(p->Call1("softplus_f32", {F32(1)}).value().f32(), 1.3132616f,
              1e-6f);
  auto trip = p->Call("round_trip", {F32(-2.75f)});
  ASSERT_TRUE(trip.ok()) << trip.status().ToString();
  EXPECT_EQ((*trip)[0].value(), Value::F64(-2.75));
  EXPECT_EQ((*trip)[1].value(), Value::I32(-3));  // rounds, not truncates
  trip = p->Call("round_trip", {F32(2.5f)});
  ASSERT_TRUE(trip.ok());
  EXPECT_EQ((*trip)[1].value(), Value::I32(3));  // half away from zero
  EXPECT_EQ(p->Call1("int_to_f64", {I64(-9007199254740993LL)}).value().f64(),
            -9007199254740992.0);
  EXPECT_EQ(p->Call1("clamp_f64", {F64(7.5), F64(-1), F64(3.25)}).value().f64(),
            3.25);
  EXPECT_EQ(
      p->Call1("clamp_f64", {F64(-7.5), F64(-1), F64(3.25)}).value().f64(),
      -1.0);
}

TEST(InterpreterTest, Lists) {
  auto p = LoadCorpusProgram("vm_lists.embedded");
  ASSERT_NE(p, nullptr);
  Variant range = p->Call1("make_range", {I32(5)});
  List* list = range.ref().As<List>();
  ASSERT_NE(list, nullptr);
  ASSERT_EQ(list->size(), 5u);
  EXPECT_EQ(list->GetValue(4)->i32(), 4);
  EXPECT_EQ(p->Call1("sum_list", {range}).value().i32(), 10);
  EXPECT_EQ(p->Call1("range_sum", {I32(100)}).value().i32(), 4950);

  Variant packed = p->Call1("pack", {I32(7), F32(1.5f), I64(1LL << 40)});
  List* variants = packed.ref().As<List>();
  ASSERT_NE(variants, nullptr);
  ASSERT_EQ(variants->size(), 3u);
  EXPECT_EQ(*variants->GetValue(0), Value::I32(7));
  EXPECT_EQ(*variants->GetValue(1), Value::F32(1.5f));
  EXPECT_EQ(*variants->GetValue(2), Value::I64(1LL << 40));
  EXPECT_EQ(p->Call1("list_size", {packed}).value().i32(), 3);

  Variant pair = p->Call1("pack_pair", {I32(3)});
  List* outer = pair.ref().As<List>();
  ASSERT_NE(outer, nullptr);
  ASSERT_EQ(outer->size(), 2u);
  EXPECT_EQ((*outer->GetRef(0)).As<List>()->size(), 3u);
  EXPECT_EQ((*outer->GetRef(1)).As<List>()->size(), 4u);

  // A null list is an error, not a crash.
  auto null_list = p->Call("list_size", {Variant()});
  EXPECT_EQ(null_list.status().code(), StatusCode::kInvalidArgument);
}

TEST(InterpreterTest, InvokeConsumingMovesRefArguments) {
  auto p = LoadCorpusProgram("vm_lists.embedded");
  ASSERT_NE(p, nullptr);
  Variant range = p->Call1("make_range", {I32(5)});
  ASSERT_TRUE(range.is_ref());
  auto sum_list = p->context->LookupFunction("lists.sum_list");
  ASSERT_TRUE(sum_list.ok()) << sum_list.status().ToString();

  // Invoke retains: the caller's argument still holds the list.
  std::vector<Variant> arguments = {range};
  std::vector<Variant> results(1);
  ASSERT_TRUE(p->context->Invoke(*sum_list, arguments, results).ok());
  EXPECT_EQ(results[0].value().i32(), 10);
  EXPECT_TRUE(arguments[0].is_ref());

  // InvokeConsuming moves it into the callee: same result, the argument
  // left empty, and the list alive only through `range` afterwards.
  results.assign(1, Variant());
  ASSERT_TRUE(p->context->InvokeConsuming(*sum_list, arguments, results).ok());
  EXPECT_EQ(results[0].value().i32(), 10);
  EXPECT_TRUE(arguments[0].is_empty());
  EXPECT_EQ(range.ref().As<List>()->size(), 5u);

  // A wrong argument is still an error, not a crash.
  std::vector<Variant> wrong = {Variant(Value::I32(3))};
  EXPECT_EQ(p->context->InvokeConsuming(*sum_list, wrong, results).code(),
            StatusCode::kInvalidArgument);
}

TEST(InterpreterTest, Buffers) {
  auto p = LoadCorpusProgram("vm_buffers.embedded");
  ASSERT_NE(p, nullptr);
  Variant iota = p->Call1("iota_buffer", {I64(10)});
  Buffer* buffer = iota.ref().As<Buffer>();
  ASSERT_NE(buffer, nullptr);
  ASSERT_EQ(buffer->length(), 40u);
  EXPECT_EQ(*buffer->LoadElement<int32_t>(9), 9);
  EXPECT_EQ(p->Call1("sum_i32", {iota}).value().i32(), 45);
  EXPECT_EQ(p->Call1("table_at", {I64(1023)}).value().i32(), 637066);
  EXPECT_EQ(p->Call1("table_at", {I64(1)}).value().i32(), 427799);
  EXPECT_EQ(p->Call1("table_length", {}).value().i64(), 4096);
  auto table_oob = p->Call("table_at", {I64(1024)});
  EXPECT_EQ(table_oob.status().code(), StatusCode::kOutOfRange);

  auto signs = p->Call("byte_signs", {I32(200)});
  ASSERT_TRUE(signs.ok()) << signs.status().ToString();
  EXPECT_EQ((*signs)[0].value(), Value::I32(-56));
  EXPECT_EQ((*signs)[1].value(), Value::I32(200));

  auto slice = p->Call("slice", {iota, I64(8), I64(12)});
  ASSERT_TRUE(slice.ok()) << slice.status().ToString();
  Buffer* sliced = (*slice)[0].ref().As<Buffer>();
  ASSERT_NE(sliced, nullptr);
  EXPECT_EQ(sliced->length(), 12u);
  EXPECT_EQ(*sliced->LoadElement<int32_t>(0), 2);
  EXPECT_EQ(*sliced->LoadElement<int32_t>(2), 4);
  auto bad_slice = p->Call("slice", {iota, I64(36), I64(8)});
  EXPECT_EQ(bad_slice.status().code(), StatusCode::kOutOfRange);

  Variant filled = p->Call1("filled", {I64(3), F32(2.5f)});
  Buffer* fb = filled.ref().As<Buffer>();
  ASSERT_NE(fb, nullptr);
  ASSERT_EQ(fb->length(), 20u);
  EXPECT_EQ(*fb->LoadElement<float>(0), 2.5f);
  EXPECT_EQ(*fb->LoadElement<float>(2), 2.5f);
  EXPECT_EQ(*fb->LoadElement<int32_t>(3), 10);
  EXPECT_EQ(*fb->LoadElement<int32_t>(4), 20);
}

TEST(InterpreterTest, RodataKeepsFileAlive) {
  Variant table;
  {
    auto p = LoadCorpusProgram("vm_buffers.embedded");
    ASSERT_NE(p, nullptr);
    auto results = p->Call("slice", {Variant(), I64(0), I64(0)});
    EXPECT_EQ(results.status().code(), StatusCode::kInvalidArgument);
    // table_at returns i32 only, so fetch the rodata ref via a list-free
    // route: the module's own rodata table.
    table = Variant(p->module->rodata_buffers()[1]);
  }
  Buffer* buffer = table.ref().As<Buffer>();
  ASSERT_NE(buffer, nullptr);
  EXPECT_FALSE(buffer->is_mutable());
  EXPECT_EQ(buffer->length(), 4096u);
  EXPECT_EQ(*buffer->LoadElement<int32_t>(1), 427799);
}

TEST(InterpreterTest, FailPrograms) {
  auto p = LoadCorpusProgram("vm_fail.embedded");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->Call1("checked_div", {I32(7), I32(2)}).value().i32(), 3);
  auto div = p->Call("checked_div", {I32(7), I32(0)});
  EXPECT_EQ(div.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(div.status().message(), "checked_div: division by zero");
  EXPECT_NE(div.status().ToString().find("fail.checked_div"), std::string::npos)
      << div.status().ToString();

  EXPECT_EQ(p->Call1("must_be_positive", {I64(5)}).value().i64(), 5);
  auto positive = p->Call("must_be_positive", {I64(-1)});
  EXPECT_EQ(positive.status().code(), StatusCode::kOutOfRange);
  EXPECT_EQ(positive.status().message(),
            "must_be_positive: value out of range");

  EXPECT_EQ(p->Call1("nested_fail", {I32(8)}).value().i32(), 4);
  auto nested = p->Call("nested_fail", {I32(3)});
  EXPECT_EQ(nested.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(nested.status().message(), "require_even: odd input");
  EXPECT_NE(nested.status().ToString().find("fail.nested_fail"),
            std::string::npos);

  auto always = p->Call("always_fail", {});
  EXPECT_EQ(always.status().code(), StatusCode::kInternal);
  EXPECT_EQ(always.status().message(), "always_fail: as designed");
  // always_fail is the function the compiler wrote a source map for.
  EXPECT_NE(always.status().ToString().find("in fail.always_fail at /"),
            std::string::npos)
      << always.status().ToString();
  EXPECT_NE(always.status().ToString().find("fail.mlir:58:5"),
            std::string::npos)
      << always.status().ToString();
  // The context stays usable after a failure.
  EXPECT_EQ(p->Call1("checked_div", {I32(9), I32(3)}).value().i32(), 3);
}

TEST(InterpreterTest, ArgumentChecks) {
  auto p = LoadCorpusProgram("vm_int_loop.embedded");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->Call("sum_to", {}).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(p->Call("sum_to", {I64(3)}).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(p->Call("sum_to", {Variant()}).status().code(),
            StatusCode::kInvalidArgument);
}

TEST(InterpreterTest, EveryCorpusModuleLoads) {
  auto instance = Instance::Create();
  instance->Freeze();
  for (const auto& file : ember::testing::LoadCorpusOrFail("vm_")) {
    auto module = ember::testing::LoadCorpusModule(instance, file);
    ASSERT_NE(module, nullptr);
    // Modules that import from others are linked in context_test.
    if (!module->dependencies().empty()) continue;
    Context context(instance);
    Status status = context.RegisterModule(module);
    EXPECT_TRUE(status.ok()) << file.name << ": " << status.ToString();
  }
}

}  // namespace
}  // namespace ember::vm::bytecode
