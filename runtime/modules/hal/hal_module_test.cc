// The hal module's exports called the way a hostile program would: every
// offset, length, count and ordinal out of range is an error naming the
// problem, never a crash, a clamp or a read past a buffer.
#include "runtime/modules/hal/hal_module.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/vm/buffer.h"
#include "runtime/vm/context.h"
#include "runtime/vm/instance.h"

namespace ember::modules::hal {
namespace {

namespace h = ember::hal;
using vm::Value;
using vm::Variant;
using vm::VmRef;

// A device with an allocator and nothing else: enough for the exports that
// do not reach a queue.
class FakeDevice final : public h::Device {
 public:
  std::string_view id() const override { return "fake"; }
  h::Allocator& allocator() override { return *allocator_; }
  Result<int64_t> QueryI64(std::string_view category,
                           std::string_view key) override {
    if (category == "hal.device.id") return h::MatchesGlob(key, "fake");
    return NotFoundError("unknown");
  }
  Result<Ref<h::Executable>> CreateExecutable(
      std::string_view, std::span<const uint8_t>,
      std::span<const uint32_t>) override {
    return UnimplementedError("fake");
  }
  Result<Ref<h::Buffer>> QueueAlloca(const Ref<h::Fence>&, const Ref<h::Fence>&,
                                     const h::BufferParams& params,
                                     uint64_t size) override {
    return allocator_->Allocate(params, size);
  }
  Status QueueDealloca(const Ref<h::Fence>&, const Ref<h::Fence>&,
                       const Ref<h::Buffer>&) override {
    return Status::Ok();
  }
  Status QueueFill(const Ref<h::Fence>&, const Ref<h::Fence>&,
                   const Ref<h::Buffer>&, uint64_t, uint64_t, uint64_t,
                   uint32_t) override {
    return UnimplementedError("fake");
  }
  Status QueueCopy(const Ref<h::Fence>&, const Ref<h::Fence>&,
                   const Ref<h::Buffer>&, uint64_t, const Ref<h::Buffer>&,
                   uint64_t, uint64_t) override {
    return UnimplementedError("fake");
  }
  Status QueueUpdate(const Ref<h::Fence>&, const Ref<h::Fence>&,
                     std::span<const uint8_t>, const Ref<h::Buffer>&, uint64_t,
                     uint64_t) override {
    return UnimplementedError("fake");
  }
  Status QueueBarrier(const Ref<h::Fence>& wait,
                      const Ref<h::Fence>& signal) override {
    if (wait) EMBER_RETURN_IF_ERROR(wait->Wait(h::Timeout::Infinite()));
    if (signal) return signal->Signal();
    return Status::Ok();
  }
  Status QueueExecute(const Ref<h::Fence>&, const Ref<h::Fence>&,
                      const Ref<h::CommandBuffer>&,
                      std::span<const h::Binding>) override {
    return UnimplementedError("fake");
  }
  Status QueueFlush() override { return Status::Ok(); }

 private:
  Ref<h::Allocator> allocator_ = h::Allocator::CreateHeap();
};

class HalModuleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto instance = vm::Instance::Create();
    ASSERT_TRUE(RegisterHalTypes(*instance).ok());
    instance->Freeze();
    device_ = Ref<h::Device>::Adopt(new FakeDevice());
    auto module = CreateHalModule({device_});
    ASSERT_TRUE(module.ok());
    std::vector<std::shared_ptr<vm::Module>> modules = {*module};
    auto context = vm::Context::Create(instance, modules);
    ASSERT_TRUE(context.ok()) << context.status().ToString();
    context_ = std::move(*context);
  }

  Result<std::vector<Variant>> Call(const std::string& name,
                                    std::vector<Variant> args) {
    EMBER_ASSIGN_OR_RETURN(vm::Function function,
                           context_->LookupFunction("hal." + name));
    return context_->Invoke(function, args);
  }

  Ref<h::Buffer> Buffer(uint64_t size) {
    return *device_->allocator().Allocate(h::BufferParams{}, size);
  }

  static Variant I32(int32_t v) { return Variant(Value::I32(v)); }
  static Variant I64(int64_t v) { return Variant(Value::I64(v)); }
  template <typename T>
  static Variant R(Ref<T> ref) {
    return Variant(VmRef::Of(std::move(ref)));
  }
  static Variant Text(const char* text) {
    const size_t length = std::strlen(text);
    auto buffer = vm::Buffer::Allocate(
        length, 0, vm::BufferAccess::kOriginHost | vm::BufferAccess::kMutable);
    std::memcpy((*buffer)->MapMutable(0, length)->data(), text, length);
    return Variant(VmRef::Of(*buffer));
  }

  Ref<h::Device> device_;
  std::unique_ptr<vm::Context> context_;
};

TEST_F(HalModuleTest, ExportsAreVersion6WithTheirCconvs) {
  auto module = CreateHalModule({});
  ASSERT_TRUE(module.ok());
  EXPECT_EQ((*module)->name(), "hal");
  EXPECT_EQ((*module)->version(), 6u);
  ASSERT_EQ((*module)->export_count(), 57u);
  EXPECT_EQ((*module)->export_info(0).name, "allocator.allocate");
}

TEST_F(HalModuleTest, DevicesAndQueries) {
  auto count = Call("devices.count", {});
  ASSERT_TRUE(count.ok());
  EXPECT_EQ((*count)[0].value().i32(), 1);
  auto missing = Call("devices.get", {I32(7)});
  ASSERT_TRUE(missing.ok());
  EXPECT_FALSE((*missing)[0].is_ref()) << "out of range is null, as IREE";
  auto query = Call("device.query.i64",
                    {R(device_), Text("hal.device.id"), Text("fa*")});
  ASSERT_TRUE(query.ok()) << query.status().ToString();
  EXPECT_EQ((*query)[0].value().i32(), 1);
  EXPECT_EQ((*query)[1].value().i64(), 1);
  auto unknown =
      Call("device.query.i64", {R(device_), Text("nope"), Text("x")});
  ASSERT_TRUE(unknown.ok());
  EXPECT_EQ((*unknown)[0].value().i32(), 0) << "unknown keys are not errors";
}

TEST_F(HalModuleTest, BufferRangesAreChecked) {
  Ref<h::Buffer> buffer = Buffer(64);
  EXPECT_EQ(
      Call("buffer.subspan", {R(buffer), I64(60), I64(8)}).status().code(),
      StatusCode::kOutOfRange);
  EXPECT_EQ(
      Call("buffer.subspan", {R(buffer), I64(-5), I64(8)}).status().code(),
      StatusCode::kOutOfRange);
  auto whole = Call("buffer.subspan", {R(buffer), I64(16), I64(-1)});
  ASSERT_TRUE(whole.ok()) << whole.status().ToString();
  EXPECT_EQ(Call("buffer.load", {R(buffer), I64(62), I32(4)}).status().code(),
            StatusCode::kOutOfRange);
  EXPECT_EQ(Call("buffer.load", {R(buffer), I64(0), I32(8)}).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(Call("buffer.store", {I32(1), R(buffer), I64(64), I32(1)})
                .status()
                .code(),
            StatusCode::kOutOfRange);
  ASSERT_TRUE(
      Call("buffer.store", {I32(0x11223344), R(buffer), I64(60), I32(4)}).ok());
  auto loaded = Call("buffer.load", {R(buffer), I64(60), I32(2)});
  ASSERT_TRUE(loaded.ok());
  EXPECT_EQ((*loaded)[0].value().i32(), 0x3344);
  EXPECT_EQ(Call("buffer.length", {I32(0)}).status().code(),
            StatusCode::kInvalidArgument)
      << "a value where a ref is due";
  EXPECT_EQ(Call("buffer.length", {Variant()}).status().code(),
            StatusCode::kInvalidArgument)
      << "a null buffer";
}

TEST_F(HalModuleTest, BufferViewsCheckShapeAgainstTheBuffer) {
  Ref<h::Buffer> buffer = Buffer(16);
  auto view =
      Call("buffer_view.create", {R(buffer), I64(0), I64(16), I32(0x21000020),
                                  I32(1), I32(2), I64(2), I64(2)});
  ASSERT_TRUE(view.ok()) << view.status().ToString();
  EXPECT_EQ(
      Call("buffer_view.create", {R(buffer), I64(0), I64(16), I32(0x21000020),
                                  I32(1), I32(2), I64(4), I64(4)})
          .status()
          .code(),
      StatusCode::kOutOfRange);
  EXPECT_EQ(Call("buffer_view.create",
                 {R(buffer), I64(0), I64(16), I32(0x21000020), I32(1), I32(2),
                  I64(1ll << 40), I64(1ll << 40)})
                .status()
                .code(),
            StatusCode::kOutOfRange);
  EXPECT_EQ(
      Call("buffer_view.create", {R(buffer), I64(0), I64(16), I32(0x21000020),
                                  I32(1), I32(1), I64(-1)})
          .status()
          .code(),
      StatusCode::kInvalidArgument);
  EXPECT_EQ(Call("buffer_view.create",
                 {R(buffer), I64(8), I64(16), I32(0x21000020), I32(1), I32(0)})
                .status()
                .code(),
            StatusCode::kOutOfRange);
  Variant v = (*view)[0];
  EXPECT_EQ(Call("buffer_view.dim", {v, I32(2)}).status().code(),
            StatusCode::kOutOfRange);
  auto dim = Call("buffer_view.dim", {v, I32(1)});
  ASSERT_TRUE(dim.ok());
  EXPECT_EQ((*dim)[0].value().i64(), 2);
  // assert: the messages name what differs.
  auto bad_type = Call(
      "buffer_view.assert",
      {v, Text("input 0"), I32(0x10000020), I32(1), I32(2), I64(2), I64(2)});
  EXPECT_EQ(bad_type.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(bad_type.status().ToString().find("input 0 element type mismatch"),
            std::string::npos)
      << bad_type.status().ToString();
  auto bad_dim = Call(
      "buffer_view.assert",
      {v, Text("input 0"), I32(0x21000020), I32(1), I32(2), I64(2), I64(3)});
  EXPECT_NE(bad_dim.status().ToString().find("shape dimension 1 mismatch"),
            std::string::npos)
      << bad_dim.status().ToString();
}

TEST_F(HalModuleTest, CommandBuffersRejectHostileRecording) {
  auto created = Call("command_buffer.create",
                      {R(device_), I32(1), I32(3), I64(-1), I32(0)});
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  Variant cmd = (*created)[0];
  Ref<h::Buffer> buffer = Buffer(64);
  // Fill past the end, a bad pattern length, a slot without capacity.
  EXPECT_EQ(
      Call("command_buffer.fill_buffer",
           {cmd, R(buffer), I64(32), I64(64), I32(0), I64(0), I32(4), I64(0)})
          .status()
          .code(),
      StatusCode::kOutOfRange);
  EXPECT_EQ(Call("command_buffer.fill_buffer", {cmd, R(buffer), I64(0), I64(8),
                                                I32(0), I64(0), I32(3), I64(0)})
                .status()
                .code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(Call("command_buffer.fill_buffer", {cmd, Variant(), I64(0), I64(8),
                                                I32(5), I64(0), I32(4), I64(0)})
                .status()
                .code(),
            StatusCode::kOutOfRange);
  EXPECT_TRUE(Call("command_buffer.finalize", {cmd}).ok());
  EXPECT_EQ(Call("command_buffer.finalize", {cmd}).status().code(),
            StatusCode::kFailedPrecondition);
  EXPECT_EQ(Call("command_buffer.create",
                 {R(device_), I32(0), I32(3), I64(-1), I32(-1)})
                .status()
                .code(),
            StatusCode::kInvalidArgument);
}

TEST_F(HalModuleTest, FencesJoinAwaitAndFail) {
  auto a = Call("fence.create", {R(device_), I64(0)});
  auto b = Call("fence.create", {R(device_), I64(0)});
  ASSERT_TRUE(a.ok() && b.ok());
  auto none = Call("fence.join", {I64(0), I32(2), Variant(), Variant()});
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE((*none)[0].is_ref()) << "no timepoints: null";
  auto joined = Call("fence.join", {I64(0), I32(2), (*a)[0], (*b)[0]});
  ASSERT_TRUE(joined.ok());
  auto query = Call("fence.query", {(*joined)[0]});
  EXPECT_EQ((*query)[0].value().i32(), 17) << "DEFERRED";
  auto timeout = Call("fence.await", {I32(1), I64(0), I32(1), (*joined)[0]});
  ASSERT_TRUE(timeout.ok());
  EXPECT_EQ((*timeout)[0].value().i32(), 4) << "DEADLINE_EXCEEDED";
  ASSERT_TRUE(Call("fence.signal", {(*a)[0]}).ok());
  ASSERT_TRUE(Call("fence.fail", {(*b)[0], I32(13)}).ok());
  EXPECT_EQ(Call("fence.query", {(*joined)[0]})->at(0).value().i32(), 13);
  EXPECT_EQ(
      Call("fence.await", {I32(-1), I64(0), I32(1), (*b)[0]}).status().code(),
      StatusCode::kInternal)
      << "a failed fence raises its failure";
}

TEST_F(HalModuleTest, TraceWithoutASinkChecksItsOperands) {
  Ref<h::Buffer> buffer = Buffer(8);
  std::vector<int64_t> shape = {2};
  Ref<h::BufferView> view = *h::BufferView::Create(
      buffer, shape, h::ElementType::kInt32, h::EncodingType::kDenseRowMajor);
  EXPECT_TRUE(Call("buffer_view.trace", {Text("k"), I32(1), R(view)}).ok());
  EXPECT_EQ(
      Call("buffer_view.trace", {Variant(), I32(1), R(view)}).status().code(),
      StatusCode::kInvalidArgument);
  EXPECT_EQ(
      Call("buffer_view.trace", {Text("k"), I32(1), Variant()}).status().code(),
      StatusCode::kInvalidArgument);
}

// A context over a hal module with `sink` and FakeDevice.
std::unique_ptr<vm::Context> ContextWithSink(DebugSink sink) {
  auto instance = vm::Instance::Create();
  EXPECT_TRUE(RegisterHalTypes(*instance).ok());
  instance->Freeze();
  Ref<h::Device> device = Ref<h::Device>::Adopt(new FakeDevice());
  auto module = CreateHalModule({device, device}, std::move(sink));
  EXPECT_TRUE(module.ok());
  std::vector<std::shared_ptr<vm::Module>> modules = {*module};
  auto context = vm::Context::Create(instance, modules);
  EXPECT_TRUE(context.ok()) << context.status().ToString();
  return std::move(*context);
}

Result<std::vector<Variant>> Trace(vm::Context& context,
                                   std::vector<Variant> args) {
  EMBER_ASSIGN_OR_RETURN(vm::Function function,
                         context.LookupFunction("hal.buffer_view.trace"));
  return context.Invoke(function, args);
}

// Two i32 views, [1 2] and [3 4 5].
std::vector<Ref<h::BufferView>> TwoViews(h::Allocator& allocator) {
  std::vector<Ref<h::BufferView>> views;
  const int32_t values[] = {1, 2, 3, 4, 5};
  const int64_t counts[] = {2, 3};
  const int32_t* next = values;
  for (int64_t count : counts) {
    std::span<const uint8_t> bytes(reinterpret_cast<const uint8_t*>(next),
                                   sizeof(int32_t) * count);
    Ref<h::Buffer> buffer = *allocator.AllocateCopy(h::BufferParams{}, bytes);
    std::vector<int64_t> shape = {count};
    views.push_back(*h::BufferView::Create(buffer, shape,
                                           h::ElementType::kInt32,
                                           h::EncodingType::kDenseRowMajor));
    next += count;
  }
  return views;
}

TEST_F(HalModuleTest, TraceSendsKeyAndViewsToTheSink) {
  std::vector<std::string> keys;
  std::vector<Ref<h::BufferView>> seen;
  DebugSink sink;
  sink.buffer_view_trace = [&](std::string_view key,
                               std::span<const Ref<h::BufferView>> views) {
    keys.emplace_back(key);
    seen.assign(views.begin(), views.end());
    return Status::Ok();
  };
  auto context = ContextWithSink(std::move(sink));
  std::vector<Ref<h::BufferView>> views = TwoViews(device_->allocator());
  auto traced = Trace(
      *context, {Text("debug_sink_test"), I32(2), R(views[0]), R(views[1])});
  ASSERT_TRUE(traced.ok()) << traced.status().ToString();
  ASSERT_EQ(keys.size(), 1u);
  EXPECT_EQ(keys[0], "debug_sink_test");
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].get(), views[0].get()) << "the views themselves";
  EXPECT_EQ(seen[1].get(), views[1].get());
  // No views at all is a trace too.
  ASSERT_TRUE(Trace(*context, {Text("empty"), I32(0)}).ok());
  ASSERT_EQ(keys.size(), 2u);
  EXPECT_TRUE(seen.empty());
  // A null view never reaches the sink.
  EXPECT_EQ(Trace(*context, {Text("x"), I32(1), Variant()}).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(keys.size(), 2u);
}

TEST_F(HalModuleTest, ASinkErrorFailsTheCall) {
  DebugSink sink;
  sink.buffer_view_trace = [](std::string_view,
                              std::span<const Ref<h::BufferView>>) {
    return MakeStatus(StatusCode::kUnknown, "the sink refused");
  };
  auto context = ContextWithSink(std::move(sink));
  Status status = Trace(*context, {Text("k"), I32(0)}).status();
  EXPECT_EQ(status.code(), StatusCode::kUnknown);
  EXPECT_NE(status.ToString().find("the sink refused"), std::string::npos)
      << status.ToString();
}

TEST_F(HalModuleTest, TheSinkLivesAsLongAsTheModule) {
  auto alive = std::make_shared<int>(0);
  std::weak_ptr<int> watch = alive;
  DebugSink sink;
  sink.buffer_view_trace = [alive](std::string_view,
                                   std::span<const Ref<h::BufferView>>) {
    ++*alive;
    return Status::Ok();
  };
  alive.reset();
  auto context = ContextWithSink(std::move(sink));
  EXPECT_FALSE(watch.expired()) << "held by the module";
  ASSERT_TRUE(Trace(*context, {Text("k"), I32(0)}).ok());
  EXPECT_EQ(*watch.lock(), 1);
  context.reset();
  EXPECT_TRUE(watch.expired()) << "released with the module";
}

TEST_F(HalModuleTest, StdioSinkWritesTracesAsIreeDoes) {
  std::FILE* file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  auto context = ContextWithSink(StdioDebugSink(file));
  std::vector<Ref<h::BufferView>> views = TwoViews(device_->allocator());
  ASSERT_TRUE(
      Trace(*context, {Text("key"), I32(2), R(views[0]), R(views[1])}).ok());
  ASSERT_TRUE(Trace(*context, {Text("none"), I32(0)}).ok());
  std::rewind(file);
  std::string text;
  char chunk[256];
  size_t n;
  while ((n = std::fread(chunk, 1, sizeof(chunk), file)) > 0) {
    text.append(chunk, n);
  }
  std::fclose(file);
  EXPECT_EQ(text, "=== key ===\n2xi32=1 2\n3xi32=3 4 5\n\n=== none ===\n\n");
}

TEST_F(HalModuleTest, CollectivesAreUnimplemented) {
  auto status = Call("channel.rank_and_count", {Variant()}).status();
  EXPECT_EQ(status.code(), StatusCode::kUnimplemented);
  EXPECT_NE(status.ToString().find("collective"), std::string::npos);
}

}  // namespace
}  // namespace ember::modules::hal
