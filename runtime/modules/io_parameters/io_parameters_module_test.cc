// The io_parameters exports called as a hostile program could: tables that
// do not cover their spans, keys outside the key data, ranges that overflow
// or run past an entry, unknown scopes and keys, writes to read-only or
// synthetic storage. Each is an error naming the problem; the valid calls
// load, gather and scatter the right bytes (and load aliases file memory).
#include "runtime/modules/io_parameters/io_parameters_module.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "runtime/hal/allocator.h"
#include "runtime/hal/buffer.h"
#include "runtime/hal/device.h"
#include "runtime/io/file_handle.h"
#include "runtime/modules/hal/hal_module.h"
#include "runtime/testing/fake_device.h"
#include "runtime/vm/buffer.h"
#include "runtime/vm/context.h"
#include "runtime/vm/instance.h"
#include "runtime/vm/list.h"

namespace ember::modules::io_parameters {
namespace {

namespace h = ember::hal;
using vm::Value;
using vm::Variant;
using vm::VmRef;

// A device whose queue runs each operation on the caller, in order.
using SyncDevice = ::ember::testing::FakeHostDevice;

constexpr int32_t kUsageImmutable = 1 << 19;   // SHARING_IMMUTABLE
constexpr int32_t kUsageDefault = 0x3 | 0x30;  // transfer + dispatch storage

class IoParametersTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // 64-byte aligned backing "file": bytes 0..255.
    file_bytes_ = static_cast<uint8_t*>(std::aligned_alloc(64, 256));
    for (int i = 0; i < 256; ++i) file_bytes_[i] = static_cast<uint8_t>(i);
    file_ = io::FileHandle::WrapMemory(std::span<uint8_t>(file_bytes_, 256),
                                       true, true, [] {});
    readonly_file_ = io::FileHandle::WrapMemory(
        std::span<uint8_t>(file_bytes_, 256), true, false, [] {});
    index_ = io::ParameterIndex::Create();
    Add("a", file_, 0, 64);
    Add("b", file_, 128, 16);
    Add("ro", readonly_file_, 64, 8);
    io::ParameterEntry splat;
    splat.key = "sp";
    splat.kind = io::ParameterEntry::Kind::kSplat;
    splat.length = 12;
    splat.pattern = {0xAA, 0xBB, 0xCC};
    splat.pattern_length = 3;
    ASSERT_TRUE(index_->Add(std::move(splat)).ok());

    auto instance = vm::Instance::Create();
    ASSERT_TRUE(hal::RegisterHalTypes(*instance).ok());
    instance->Freeze();
    device_ = Ref<SyncDevice>::Adopt(new SyncDevice("sync"));
    auto module =
        CreateIoParametersModule({ParameterProvider::Create("scope", index_)});
    ASSERT_TRUE(module.ok());
    std::vector<std::shared_ptr<vm::Module>> modules = {*module};
    auto context = vm::Context::Create(instance, modules);
    ASSERT_TRUE(context.ok()) << context.status().ToString();
    context_ = std::move(*context);
  }
  void TearDown() override {
    context_.reset();
    index_ = nullptr;
    file_ = nullptr;
    readonly_file_ = nullptr;
    std::free(file_bytes_);
  }

  void Add(const char* key, const Ref<io::FileHandle>& file, uint64_t offset,
           uint64_t length) {
    io::ParameterEntry entry;
    entry.key = key;
    entry.file = file;
    entry.offset = offset;
    entry.length = length;
    ASSERT_TRUE(index_->Add(std::move(entry)).ok());
  }

  static Variant Bytes(const void* data, size_t length) {
    auto buffer = vm::Buffer::Allocate(
        length, 0, vm::BufferAccess::kOriginHost | vm::BufferAccess::kMutable);
    if (length != 0) {
      std::memcpy((*buffer)->MapMutable(0, length)->data(), data, length);
    }
    return Variant(VmRef::Of(*buffer));
  }
  static Variant Text(const std::string& text) {
    return Bytes(text.data(), text.size());
  }
  static Variant I32(int32_t v) { return Variant(Value::I32(v)); }
  static Variant I64(int64_t v) { return Variant(Value::I64(v)); }
  template <typename T>
  static Variant R(Ref<T> ref) {
    return Variant(VmRef::Of(std::move(ref)));
  }

  // Tables for `keys` with their spans {parameter_offset, buffer_offset,
  // length}.
  struct Tables {
    Variant key_table, key_data, spans;
  };
  static Tables MakeTables(const std::vector<std::string>& keys,
                           const std::vector<std::array<uint64_t, 3>>& spans) {
    std::vector<uint32_t> table;
    std::string data;
    for (const std::string& key : keys) {
      table.push_back(static_cast<uint32_t>(data.size()));
      table.push_back(static_cast<uint32_t>(key.size()));
      data += key;
    }
    return {Bytes(table.data(), table.size() * 4), Text(data),
            Bytes(spans.data(), spans.size() * 24)};
  }

  Result<std::vector<Variant>> Call(const std::string& name,
                                    std::vector<Variant> args) {
    EMBER_ASSIGN_OR_RETURN(vm::Function function,
                           context_->LookupFunction("io_parameters." + name));
    return context_->Invoke(function, args);
  }
  Result<std::vector<Variant>> Load(const std::string& scope,
                                    const Tables& tables,
                                    int32_t usage = kUsageImmutable) {
    return Call("load", {R<h::Device>(device_), I64(-1), Variant(), Variant(),
                         Text(scope), I64(-1), I32(0x30), I32(usage),
                         tables.key_table, tables.key_data, tables.spans});
  }
  Result<std::vector<Variant>> Gather(const Tables& tables,
                                      const Ref<h::Buffer>& target) {
    return Call("gather", {R<h::Device>(device_), I64(-1), Variant(), Variant(),
                           Text("scope"), R(target), tables.key_table,
                           tables.key_data, tables.spans});
  }
  Result<std::vector<Variant>> Scatter(const Tables& tables,
                                       const Ref<h::Buffer>& source) {
    return Call("scatter", {R<h::Device>(device_), I64(-1), Variant(),
                            Variant(), R(source), Text("scope"),
                            tables.key_table, tables.key_data, tables.spans});
  }

  static std::vector<uint8_t> Contents(const Ref<h::Buffer>& buffer) {
    auto range = buffer->HostRange(0, buffer->byte_length());
    return std::vector<uint8_t>(range->begin(), range->end());
  }
  static Ref<h::Buffer> BufferAt(const std::vector<Variant>& results,
                                 size_t i) {
    auto* list = results[0].ref().As<vm::List>();
    if (list == nullptr) return nullptr;
    auto ref = list->GetRefOfType(i, vm::TypeDef::OfRef(hal::BufferType()));
    if (!ref.ok()) return nullptr;
    return ref->RetainAs<h::Buffer>();
  }

  uint8_t* file_bytes_ = nullptr;
  Ref<io::FileHandle> file_, readonly_file_;
  Ref<io::ParameterIndex> index_;
  Ref<SyncDevice> device_;
  std::unique_ptr<vm::Context> context_;
};

TEST_F(IoParametersTest, ExportsAsIree) {
  auto module = CreateIoParametersModule({});
  ASSERT_TRUE(module.ok());
  EXPECT_EQ((*module)->name(), "io_parameters");
  ASSERT_EQ((*module)->export_count(), 3u);
  EXPECT_EQ((*module)->export_info(0).name, "gather");
  EXPECT_EQ((*module)->export_info(1).calling_convention, "0rIrrrIiirrr_r");
  EXPECT_EQ((*module)->export_info(2).calling_convention, "0rIrrrrrrr_v");
}

TEST_F(IoParametersTest, LoadAliasesFilesAndFillsSplats) {
  auto results =
      Load("scope",
           MakeTables({"b", "sp", "a", "b"},
                      {{{0, 0, 8}}, {{1, 0, 5}}, {{0, 0, 64}}, {{4, 0, 4}}}));
  ASSERT_TRUE(results.ok()) << results.status().ToString();
  Ref<h::Buffer> b = BufferAt(*results, 0);
  ASSERT_TRUE(b);
  EXPECT_EQ(Contents(b),
            (std::vector<uint8_t>{128, 129, 130, 131, 132, 133, 134, 135}));
  // Constant use of an aligned file range: the buffer is the file's memory.
  EXPECT_EQ(b->HostRange(0, 8)->data(), file_bytes_ + 128);
  // Splat from pattern phase 1.
  EXPECT_EQ(Contents(BufferAt(*results, 1)),
            (std::vector<uint8_t>{0xBB, 0xCC, 0xAA, 0xBB, 0xCC}));
  EXPECT_EQ(BufferAt(*results, 2)->HostRange(0, 64)->data(), file_bytes_);
  // A range that is not 64-byte aligned is copied (kernels assume aligned
  // bindings).
  Ref<h::Buffer> unaligned = BufferAt(*results, 3);
  EXPECT_NE(unaligned->HostRange(0, 4)->data(), file_bytes_ + 132);
  EXPECT_EQ(Contents(unaligned), (std::vector<uint8_t>{132, 133, 134, 135}));
}

TEST_F(IoParametersTest, WritableUseOfReadOnlyMemoryIsACopy) {
  auto results =
      Load("scope", MakeTables({"ro"}, {{{0, 0, 8}}}), kUsageDefault);
  ASSERT_TRUE(results.ok()) << results.status().ToString();
  Ref<h::Buffer> buffer = BufferAt(*results, 0);
  EXPECT_NE(buffer->HostRange(0, 8)->data(), file_bytes_ + 64);
  EXPECT_EQ(Contents(buffer)[0], 64);
  (*buffer->HostRange(0, 1))[0] = 0;
  EXPECT_EQ(file_bytes_[64], 64);
}

TEST_F(IoParametersTest, UnknownScopeAndKeyNameThem) {
  auto scope = Load("nope", MakeTables({"a"}, {{{0, 0, 4}}}));
  EXPECT_EQ(scope.status().code(), StatusCode::kNotFound);
  EXPECT_NE(scope.status().ToString().find("scopes like 'nope'"),
            std::string::npos);
  auto key = Load("scope", MakeTables({"zz"}, {{{0, 0, 4}}}));
  EXPECT_EQ(key.status().code(), StatusCode::kNotFound);
  EXPECT_NE(key.status().ToString().find("parameter 'scope::zz' not found"),
            std::string::npos);
}

TEST_F(IoParametersTest, HostileTablesAreRejected) {
  Tables good = MakeTables({"a"}, {{{0, 0, 4}}});
  // Span table not a multiple of 24 bytes.
  uint8_t junk[23] = {};
  Tables ragged = good;
  ragged.spans = Bytes(junk, sizeof(junk));
  EXPECT_EQ(Load("scope", ragged).status().code(),
            StatusCode::kInvalidArgument);
  // Two spans, one key.
  Tables short_table = MakeTables({"a", "b"}, {{{0, 0, 4}}, {{0, 0, 4}}});
  uint32_t one_key[2] = {0, 1};
  short_table.key_table = Bytes(one_key, sizeof(one_key));
  EXPECT_EQ(Load("scope", short_table).status().code(),
            StatusCode::kInvalidArgument);
  // Keys outside the key data, including 32-bit wrap-around.
  for (auto [offset, length] : std::vector<std::pair<uint32_t, uint32_t>>{
           {1, 1}, {0, 2}, {2, 0}, {0xFFFFFFFFu, 2}, {1, 0xFFFFFFFFu}}) {
    Tables bad = good;
    uint32_t key[2] = {offset, length};
    bad.key_table = Bytes(key, sizeof(key));
    EXPECT_EQ(Load("scope", bad).status().code(), StatusCode::kOutOfRange)
        << offset << "+" << length;
  }
  // Ranges past the entry, and 64-bit wrap-around.
  for (std::array<uint64_t, 3> span :
       std::vector<std::array<uint64_t, 3>>{{{0, 0, 65}},
                                            {{60, 0, 5}},
                                            {{65, 0, 0}},
                                            {{~uint64_t{0}, 0, 2}},
                                            {{2, 0, ~uint64_t{0}}}}) {
    EXPECT_EQ(Load("scope", MakeTables({"a"}, {span})).status().code(),
              StatusCode::kOutOfRange);
  }
  // A load at a buffer offset past the buffer it makes.
  EXPECT_EQ(Load("scope", MakeTables({"a"}, {{{0, 8, 4}}})).status().code(),
            StatusCode::kOutOfRange);
  // Missing tables.
  Tables null_spans = good;
  null_spans.spans = Variant();
  EXPECT_FALSE(Load("scope", null_spans).ok());
}

TEST_F(IoParametersTest, GatherCopiesIntoTheTargetWithinBounds) {
  Ref<h::Buffer> target = *device_->allocator().Allocate(h::BufferParams{}, 32);
  auto gathered =
      Gather(MakeTables({"b", "sp"}, {{{0, 4, 4}}, {{0, 16, 6}}}), target);
  ASSERT_TRUE(gathered.ok()) << gathered.status().ToString();
  std::vector<uint8_t> bytes = Contents(target);
  EXPECT_EQ(bytes[4], 128);
  EXPECT_EQ(bytes[7], 131);
  EXPECT_EQ(bytes[16], 0xAA);
  EXPECT_EQ(bytes[21], 0xCC);
  EXPECT_EQ(bytes[22], 0);
  // Past the target buffer.
  EXPECT_FALSE(Gather(MakeTables({"b"}, {{{0, 30, 4}}}), target).ok());
  EXPECT_FALSE(
      Gather(MakeTables({"b"}, {{{0, ~uint64_t{0}, 4}}}), target).ok());
}

TEST_F(IoParametersTest, ScatterWritesOnlyWritableFileEntries) {
  Ref<h::Buffer> source = *device_->allocator().Allocate(h::BufferParams{}, 16);
  std::memset(source->HostRange(0, 16)->data(), 0xEE, 16);
  ASSERT_TRUE(Scatter(MakeTables({"b"}, {{{2, 0, 4}}}), source).ok());
  EXPECT_EQ(file_bytes_[129], 129);
  EXPECT_EQ(file_bytes_[130], 0xEE);
  EXPECT_EQ(file_bytes_[133], 0xEE);
  EXPECT_EQ(file_bytes_[134], 134);
  EXPECT_EQ(Scatter(MakeTables({"ro"}, {{{0, 0, 4}}}), source).status().code(),
            StatusCode::kPermissionDenied);
  EXPECT_EQ(Scatter(MakeTables({"sp"}, {{{0, 0, 4}}}), source).status().code(),
            StatusCode::kFailedPrecondition);
  EXPECT_EQ(Scatter(MakeTables({"b"}, {{{0, 0, 17}}}), source).status().code(),
            StatusCode::kOutOfRange);
}

}  // namespace
}  // namespace ember::modules::io_parameters
