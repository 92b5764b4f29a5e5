// The hal module's exports called the way a hostile program would: every
// offset, length, count and ordinal out of range is an error naming the
// problem, never a crash, a clamp or a read past a buffer.
#include "runtime/modules/hal/hal_module.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "runtime/testing/fake_device.h"
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
using FakeDevice = ::ember::testing::FakeHostDevice;

class HalModuleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto instance = vm::Instance::Create();
    ASSERT_TRUE(RegisterHalTypes(*instance).ok());
    instance->Freeze();
    device_ = Ref<h::Device>::Adopt(new FakeDevice("fake"));
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

// The exports of iree.runtime 3.13's `hal` module (version 7), read from
// the live module (`create_hal_module(...).function_names` and each
// function's cconv), and the two version-6 signatures 3.11 programs import.
struct ExpectedExport {
  const char* name;
  const char* cconv;
};
constexpr ExpectedExport kVersion7Exports[] = {
    {"allocator.allocate", "0rIiiI_r"},
    {"allocator.import", "0riIiirII_r"},
    {"allocator.select", "0iiICrID_rI"},
    {"buffer.allocation.discard", "0r_i"},
    {"buffer.allocation.is_terminal", "0r_i"},
    {"buffer.allocation.preserve", "0r_v"},
    {"buffer.assert", "0rrrIii_v"},
    {"buffer.length", "0r_I"},
    {"buffer.load", "0rIi_i"},
    {"buffer.store", "0irIi_v"},
    {"buffer.subspan", "0rII_r"},
    {"buffer_view.assert", "0rriiCID_v"},
    {"buffer_view.buffer", "0r_r"},
    {"buffer_view.create", "0rIIiiCID_r"},
    {"buffer_view.dim", "0ri_I"},
    {"buffer_view.element_type", "0r_i"},
    {"buffer_view.encoding_type", "0r_i"},
    {"buffer_view.rank", "0r_i"},
    {"buffer_view.trace", "0rCrD_v"},
    {"channel.create", "0rIIrrii_r"},
    {"channel.rank_and_count", "0r_ii"},
    {"channel.split", "0riiI_r"},
    {"command_buffer.advise_buffer", "0rrIIIi_v"},
    {"command_buffer.begin_debug_group", "0rr_v"},
    {"command_buffer.collective", "0rriiiirrIIIII_v"},
    {"command_buffer.copy_buffer", "0riirIrIII_v"},
    {"command_buffer.create", "0riiIi_r"},
    {"command_buffer.dispatch", "0rrIiiiICiDCiirIID_v"},
    {"command_buffer.dispatch.indirect", "0rrIirIICiDCiirIID_v"},
    {"command_buffer.end_debug_group", "0r_v"},
    {"command_buffer.execution_barrier", "0riiI_v"},
    {"command_buffer.fill_buffer", "0rrIIiIiI_v"},
    {"command_buffer.finalize", "0r_v"},
    {"command_buffer.flush_buffer", "0rirII_v"},
    {"command_buffer.invalidate_buffer", "0rirII_v"},
    {"command_buffer.update_buffer", "0rrIrIIiI_v"},
    {"device.allocator", "0r_r"},
    {"device.query.i64", "0rrr_iI"},
    {"device.queue.alloca", "0rIrrIiiII_r"},
    {"device.queue.barrier", "0rIrrI_v"},
    {"device.queue.copy", "0rIrrrIrIII_v"},
    {"device.queue.dealloca", "0rIrrrI_v"},
    {"device.queue.execute", "0rIrrrI_v"},
    {"device.queue.execute.indirect", "0rIrrrICrIID_v"},
    {"device.queue.fill", "0rIrrrIIIiI_v"},
    {"device.queue.flush", "0rI_v"},
    {"device.queue.read", "0rIrrrIrIII_v"},
    {"device.queue.update", "0rIrrrIrIII_v"},
    {"device.queue.write", "0rIrrrIrIII_v"},
    {"devices.count", "0v_i"},
    {"devices.get", "0i_r"},
    {"ex.file.from_memory", "0rIirIIi_r"},
    {"executable.create", "0rIrrr_r"},
    {"executable.lookup.function", "0rr_I"},
    {"fence.await", "0iICrD_i"},
    {"fence.create", "0rI_r"},
    {"fence.fail", "0ri_v"},
    {"fence.join", "0ICrD_r"},
    {"fence.query", "0r_i"},
    {"fence.signal", "0r_v"},
};
constexpr ExpectedExport kVersion6Signatures[] = {
    {"command_buffer.dispatch", "0rriiiiICiDCiirIID_v"},
    {"command_buffer.dispatch.indirect", "0rriirIICiDCiirIID_v"},
};

TEST_F(HalModuleTest, ExportsVersion7AndVersion6sDispatchSignatures) {
  auto module = CreateHalModule({});
  ASSERT_TRUE(module.ok());
  EXPECT_EQ((*module)->name(), "hal");
  EXPECT_EQ((*module)->version(), 7u);
  std::vector<std::pair<std::string, std::string>> exported;
  for (size_t i = 0; i < (*module)->export_count(); ++i) {
    vm::ExportInfo info = (*module)->export_info(i);
    exported.emplace_back(std::string(info.name),
                          std::string(info.calling_convention));
  }
  size_t expected_count = 0;
  for (const auto& list :
       {std::span<const ExpectedExport>(kVersion7Exports),
        std::span<const ExpectedExport>(kVersion6Signatures)}) {
    for (const ExpectedExport& e : list) {
      ++expected_count;
      EXPECT_NE(
          std::find(exported.begin(), exported.end(),
                    std::make_pair(std::string(e.name), std::string(e.cconv))),
          exported.end())
          << e.name << " " << e.cconv;
      // Found by name and cconv, as linking finds it.
      std::optional<vm::Function> f = (*module)->LookupExport(e.name, e.cconv);
      ASSERT_TRUE(f.has_value()) << e.name << " " << e.cconv;
      EXPECT_EQ((*module)->export_info(f->ordinal).calling_convention, e.cconv);
    }
  }
  EXPECT_EQ(exported.size(), expected_count);
  // By name alone: version 7's signature, as iree.runtime 3.13 has it.
  std::optional<vm::Function> dispatch =
      (*module)->LookupExport("command_buffer.dispatch");
  ASSERT_TRUE(dispatch.has_value());
  EXPECT_EQ((*module)->export_info(dispatch->ordinal).calling_convention,
            "0rrIiiiICiDCiirIID_v");
  EXPECT_FALSE((*module)->LookupExport("command_buffer.dispatch",
                                       "0rrIiiiICiDCiirIID_r"));
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
  // The failure that reaches the program is the original one, message and
  // all, not a bare code (iree.runtime 3.13's rule for fence.await).
  Ref<h::Fence> failed = h::Fence::CreateWithNewSemaphore();
  failed->Fail(ResourceExhaustedError("dispatch needs 96 KiB of local memory"));
  Status status =
      Call("fence.await", {I32(-1), I64(0), I32(2), (*a)[0], R(failed)})
          .status();
  EXPECT_EQ(status.code(), StatusCode::kResourceExhausted);
  EXPECT_NE(status.ToString().find("dispatch needs 96 KiB of local memory"),
            std::string::npos)
      << status.ToString();
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
  Ref<h::Device> device = Ref<h::Device>::Adopt(new FakeDevice("fake"));
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

// An executable with named and unnamed exports, as a device would make one.
class FakeExecutable final : public h::Executable {
 public:
  explicit FakeExecutable(std::vector<std::string> names)
      : names_(std::move(names)) {}
  size_t export_count() const override { return names_.size(); }
  ExportInfo export_info(size_t ordinal) const override {
    return {names_[ordinal], 0, 1};
  }
  std::string_view debug_name() const override { return "fake_dispatch"; }

 private:
  std::vector<std::string> names_;
};

TEST_F(HalModuleTest, LookupFunctionMapsExportNamesToFunctionIds) {
  auto executable = Ref<h::Executable>::Adopt(
      new FakeExecutable({"main_dispatch_0", "", "main_dispatch_2"}));
  auto first = Call("executable.lookup.function",
                    {R(executable), Text("main_dispatch_0")});
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_EQ((*first)[0].value().i64(), 0);
  auto third = Call("executable.lookup.function",
                    {R(executable), Text("main_dispatch_2")});
  ASSERT_TRUE(third.ok()) << third.status().ToString();
  EXPECT_EQ((*third)[0].value().i64(), 2);
  // An unknown name (and the empty name of an unnamed export) is NOT_FOUND
  // naming the executable and the name.
  for (const char* name : {"main_dispatch_1", ""}) {
    Status status =
        Call("executable.lookup.function", {R(executable), Text(name)})
            .status();
    EXPECT_EQ(status.code(), StatusCode::kNotFound) << name;
    EXPECT_NE(status.ToString().find("executable 'fake_dispatch' has no export "
                                     "named '" +
                                     std::string(name) + "'"),
              std::string::npos)
        << status.ToString();
  }
  // A library without names says so.
  auto unnamed = Ref<h::Executable>::Adopt(new FakeExecutable({"", ""}));
  Status status =
      Call("executable.lookup.function", {R(unnamed), Text("x")}).status();
  EXPECT_EQ(status.code(), StatusCode::kNotFound);
  EXPECT_NE(status.ToString().find("built without them"), std::string::npos)
      << status.ToString();
  EXPECT_EQ(Call("executable.lookup.function", {Variant(), Text("x")})
                .status()
                .code(),
            StatusCode::kInvalidArgument);
}

TEST_F(HalModuleTest, DispatchTakesAnOrdinalOrAFunctionId) {
  auto executable = Ref<h::Executable>::Adopt(new FakeExecutable({"a", "b"}));
  auto created = Call("command_buffer.create",
                      {R(device_), I32(1), I32(3), I64(-1), I32(0)});
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  Variant cmd = (*created)[0];
  Ref<h::Buffer> buffer = Buffer(64);
  auto dispatch = [&](const char* cconv, Variant function) {
    std::optional<vm::Function> f = context_->FindModule("hal")->LookupExport(
        "command_buffer.dispatch", cconv);
    EXPECT_TRUE(f.has_value()) << cconv;
    if (!f) return InternalError("no export");
    // (cmd, executable, function, x, y, z, flags, constants[0],
    //  bindings[1] of (ordinal, slot, buffer, offset, length))
    std::vector<Variant> args = {
        cmd,    R(executable), function, I32(1), I32(1),    I32(1), I64(0),
        I32(0), I32(1),        I32(0),   I32(0), R(buffer), I64(0), I64(64)};
    return context_->Invoke(*f, args).status();
  };
  // 3.12+: the i64 id lookup.function returned; 3.11: the i32 ordinal.
  EXPECT_TRUE(dispatch("0rrIiiiICiDCiirIID_v", I64(1)).ok());
  EXPECT_TRUE(dispatch("0rriiiiICiDCiirIID_v", I32(1)).ok());
  // An id past the exports, or one that does not fit 32 bits, is refused
  // (never truncated into another export's ordinal).
  for (int64_t id : {int64_t{2}, int64_t{-1}, (int64_t{1} << 32) | 1}) {
    Status status = dispatch("0rrIiiiICiDCiirIID_v", I64(id));
    EXPECT_FALSE(status.ok()) << id;
    EXPECT_EQ(status.code(), StatusCode::kInvalidArgument) << status.ToString();
  }
  EXPECT_FALSE(dispatch("0rriiiiICiDCiirIID_v", I32(-1)).ok());
}

TEST_F(HalModuleTest, FlushAndInvalidateCheckTheirRange) {
  auto created = Call("command_buffer.create",
                      {R(device_), I32(1), I32(3), I64(-1), I32(2)});
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  Variant cmd = (*created)[0];
  Ref<h::Buffer> buffer = Buffer(64);
  for (const char* op :
       {"command_buffer.flush_buffer", "command_buffer.invalidate_buffer"}) {
    SCOPED_TRACE(op);
    // (cmd, slot, buffer, offset, length)
    auto whole = Call(op, {cmd, I32(0), R(buffer), I64(0), I64(64)});
    EXPECT_TRUE(whole.ok()) << whole.status().ToString();
    EXPECT_TRUE(Call(op, {cmd, I32(1), Variant(), I64(0), I64(16)}).ok());
    EXPECT_EQ(
        Call(op, {cmd, I32(0), R(buffer), I64(32), I64(64)}).status().code(),
        StatusCode::kOutOfRange);
    // A slot beyond the command buffer's binding capacity.
    EXPECT_EQ(
        Call(op, {cmd, I32(5), Variant(), I64(0), I64(16)}).status().code(),
        StatusCode::kOutOfRange);
  }
  EXPECT_TRUE(Call("command_buffer.finalize", {cmd}).ok());
  EXPECT_EQ(Call("command_buffer.flush_buffer",
                 {cmd, I32(0), R(buffer), I64(0), I64(64)})
                .status()
                .code(),
            StatusCode::kFailedPrecondition);
}

TEST_F(HalModuleTest, QueueAllocaFromAPoolIsUnimplemented) {
  // (device, affinity, wait, signal, pool, memory types, usage, size, flags)
  auto call = [&](int64_t pool) {
    return Call("device.queue.alloca",
                {R(device_), I64(-1), Variant(), Variant(), I64(pool), I32(0),
                 I32(3), I64(64), I64(0)});
  };
  EXPECT_TRUE(call(0).ok()) << call(0).status().ToString();
  Status status = call(1).status();
  EXPECT_EQ(status.code(), StatusCode::kUnimplemented);
  EXPECT_NE(status.ToString().find("pools are not supported"),
            std::string::npos)
      << status.ToString();
}

TEST_F(HalModuleTest, CollectivesAreUnimplemented) {
  auto status = Call("channel.rank_and_count", {Variant()}).status();
  EXPECT_EQ(status.code(), StatusCode::kUnimplemented);
  EXPECT_NE(status.ToString().find("collective"), std::string::npos);
}

}  // namespace
}  // namespace ember::modules::hal
