// The three readers and the IRPA writer: entries as IREE produces them,
// refusals, and a corruption sweep (every truncation, deterministic bit
// flips) that must end in a clean error or an index whose entries lie
// inside the file. The sweep is meant for the ASan+UBSan build.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/base/endian.h"
#include "runtime/io/file_handle.h"
#include "runtime/io/irpa_writer.h"
#include "runtime/io/parameter_index.h"
#include "runtime/io/parsers_internal.h"

namespace ember::io {
namespace {

using Bytes = std::vector<uint8_t>;

void Put32(Bytes& b, uint32_t v) {
  for (int i = 0; i < 4; ++i) b.push_back(static_cast<uint8_t>(v >> (8 * i)));
}
void Put64(Bytes& b, uint64_t v) {
  for (int i = 0; i < 8; ++i) b.push_back(static_cast<uint8_t>(v >> (8 * i)));
}
void PutString(Bytes& b, std::string_view s) {
  Put64(b, s.size());
  b.insert(b.end(), s.begin(), s.end());
}

struct GgufTensor {
  std::string name;
  std::vector<uint64_t> dims;
  uint32_t type;
  uint64_t offset;
};

// A GGUF v3 file: a few metadata pairs of every kind, the tensor infos, and
// data padded to `alignment` (written as general.alignment unless 0).
Bytes MakeGguf(const std::vector<GgufTensor>& tensors, uint32_t alignment,
               uint64_t data_size, uint32_t version = 3) {
  Bytes b;
  Put32(b, 0x46554747u);
  Put32(b, version);
  Put64(b, tensors.size());
  Put64(b, alignment ? 4 : 3);
  PutString(b, "general.name");
  Put32(b, 8);
  PutString(b, "tiny");
  PutString(b, "some.floats");
  Put32(b, 9);
  Put32(b, 6);
  Put64(b, 3);
  for (int i = 0; i < 3; ++i) Put32(b, 0x3f800000u);
  PutString(b, "some.strings");
  Put32(b, 9);
  Put32(b, 8);
  Put64(b, 2);
  PutString(b, "a");
  PutString(b, "bc");
  if (alignment) {
    PutString(b, "general.alignment");
    Put32(b, 4);
    Put32(b, alignment);
  }
  for (const GgufTensor& t : tensors) {
    PutString(b, t.name);
    Put32(b, static_cast<uint32_t>(t.dims.size()));
    for (uint64_t d : t.dims) Put64(b, d);
    Put32(b, t.type);
    Put64(b, t.offset);
  }
  uint32_t a = alignment ? alignment : 32;
  while (b.size() % a) b.push_back(0);
  for (uint64_t i = 0; i < data_size; ++i) b.push_back(static_cast<uint8_t>(i));
  return b;
}

Bytes MakeSafetensors(const std::string& json, uint64_t data_size) {
  Bytes b;
  Put64(b, json.size());
  b.insert(b.end(), json.begin(), json.end());
  for (uint64_t i = 0; i < data_size; ++i) b.push_back(static_cast<uint8_t>(i));
  return b;
}

Ref<FileHandle> Wrap(Bytes& bytes) {
  return FileHandle::WrapMemory(bytes, true, false, nullptr);
}

Result<Ref<ParameterIndex>> Parse(std::string_view format, Bytes& bytes) {
  Ref<ParameterIndex> index = ParameterIndex::Create();
  EMBER_RETURN_IF_ERROR(ParseParameterFile(format, Wrap(bytes), *index));
  return index;
}

class TempPath {
 public:
  TempPath() {
    char name[] = "/tmp/ember_io_parsers_XXXXXX";
    int fd = ::mkstemp(name);
    ::close(fd);
    path_ = name;
  }
  ~TempPath() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// An IRPA archive of a data entry, a splat and an entry with metadata,
// written by our writer (checked byte for byte against iree.runtime's in
// tests/python/test_parameter_formats.py).
Bytes MakeIrpa() {
  static Bytes data(200);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i);
  Ref<FileHandle> file = FileHandle::WrapMemory(data, true, false, nullptr);
  Ref<ParameterIndex> source = ParameterIndex::Create();
  ParameterEntry a;
  a.key = "weight";
  a.file = file;
  a.offset = 8;
  a.length = 40;
  a.metadata = "meta";
  EXPECT_TRUE(source->Add(a).ok());
  ParameterEntry s;
  s.key = "zeros";
  s.kind = ParameterEntry::Kind::kSplat;
  s.length = 1024;
  s.pattern = {1, 2, 3, 4};
  s.pattern_length = 4;
  EXPECT_TRUE(source->Add(s).ok());
  ParameterEntry c;
  c.key = "bias";
  c.file = file;
  c.offset = 100;
  c.length = 3;
  EXPECT_TRUE(source->Add(c).ok());
  TempPath path;
  Ref<ParameterIndex> target = ParameterIndex::Create();
  Status status = WriteIrpaArchive(*source, path.path(), 0, *target);
  EXPECT_TRUE(status.ok()) << status.ToString();
  auto written = FileHandle::Open(path.path(), false);
  EXPECT_TRUE(written.ok());
  auto span = (*written)->bytes();
  return Bytes(span.begin(), span.end());
}

// Every entry of `index` lies inside `size` bytes.
void ExpectEntriesInside(const ParameterIndex& index, uint64_t size) {
  for (size_t i = 0; i < index.size(); ++i) {
    const ParameterEntry& e = index.entry(i);
    if (e.kind == ParameterEntry::Kind::kFile) {
      ASSERT_LE(e.offset, size);
      ASSERT_LE(e.length, size - e.offset);
    } else {
      ASSERT_LE(e.pattern_length, kMaxSplatPatternLength);
    }
  }
}

TEST(IrpaTest, ReadsWhatTheWriterWrote) {
  Bytes file = MakeIrpa();
  ASSERT_EQ(file.size(), 4096u);  // sized to 4096 as IREE's builder
  auto index = Parse("irpa", file);
  ASSERT_TRUE(index.ok()) << index.status().ToString();
  ASSERT_EQ((*index)->size(), 3u);
  const ParameterEntry& w = (*index)->entry(0);
  EXPECT_EQ(w.key, "weight");
  EXPECT_EQ(w.metadata, "meta");
  EXPECT_EQ(w.kind, ParameterEntry::Kind::kFile);
  EXPECT_EQ(w.offset % 64, 0u);
  EXPECT_EQ(w.length, 40u);
  EXPECT_EQ(file[w.offset], 8);  // the bytes came along
  const ParameterEntry& s = (*index)->entry(1);
  EXPECT_EQ(s.kind, ParameterEntry::Kind::kSplat);
  EXPECT_EQ(s.length, 1024u);
  EXPECT_EQ(s.pattern_length, 4);
  EXPECT_EQ(s.pattern[3], 4);
  const ParameterEntry& b = (*index)->entry(2);
  EXPECT_EQ(b.offset % 64, 0u);
  EXPECT_EQ(file[b.offset + 2], 102);
  // Layout facts of the builder: entry table at 96, storage 64-aligned.
  EXPECT_EQ(LoadLE<uint64_t>(file.data() + 40), 96u);
  EXPECT_EQ(LoadLE<uint64_t>(file.data() + 72) % 64, 0u);
}

TEST(IrpaTest, WriterRoundTripAndOffset) {
  Bytes file = MakeIrpa();
  auto index = Parse("irpa", file);
  ASSERT_TRUE(index.ok());
  TempPath out;
  Ref<ParameterIndex> target = ParameterIndex::Create();
  ASSERT_TRUE(WriteIrpaArchive(**index, out.path(), 0, *target).ok());
  auto again = FileHandle::Open(out.path(), false);
  ASSERT_TRUE(again.ok());
  Bytes copy((*again)->bytes().begin(), (*again)->bytes().end());
  EXPECT_EQ(copy, file);  // a rewrite is the same bytes
  ASSERT_EQ(target->size(), 3u);
  EXPECT_EQ(target->entry(0).offset, (*index)->entry(0).offset);
  EXPECT_EQ(target->entry(0).file->length(), file.size());
  EXPECT_EQ(target->entry(1).kind, ParameterEntry::Kind::kSplat);

  // Writing over a file a source entry maps is refused (it would truncate
  // the mapping under the copy): `target` reads from out.path().
  Ref<ParameterIndex> sink = ParameterIndex::Create();
  EXPECT_EQ(WriteIrpaArchive(*target, out.path(), 0, *sink).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(target->entry(0).file->length(), file.size());

  // At an offset: the header starts there, target entries point at the data.
  Ref<ParameterIndex> shifted = ParameterIndex::Create();
  ASSERT_TRUE(WriteIrpaArchive(**index, out.path(), 100, *shifted).ok());
  auto moved = FileHandle::Open(out.path(), false);
  ASSERT_TRUE(moved.ok());
  EXPECT_EQ((*moved)->length(), 112u + 4096u);
  EXPECT_EQ(LoadLE<uint32_t>((*moved)->bytes().data() + 100), irpa::kMagic);
  const ParameterEntry& w = shifted->entry(0);
  EXPECT_EQ(w.offset, 100 + (*index)->entry(0).offset);
  EXPECT_EQ(std::memcmp((*moved)->bytes().data() + w.offset,
                        file.data() + (*index)->entry(0).offset, 40),
            0);

  // The writer insists on 1/2/4/8/16-byte patterns, as IREE's builder.
  Ref<ParameterIndex> odd = ParameterIndex::Create();
  ParameterEntry s;
  s.key = "odd";
  s.kind = ParameterEntry::Kind::kSplat;
  s.pattern_length = 3;
  ASSERT_TRUE(odd->Add(s).ok());
  EXPECT_EQ(WriteIrpaArchive(*odd, out.path(), 0, *target).code(),
            StatusCode::kInvalidArgument);
}

TEST(IrpaTest, Refusals) {
  Bytes file = MakeIrpa();
  auto expect = [&](Bytes bytes, StatusCode code) {
    auto index = Parse("irpa", bytes);
    EXPECT_EQ(index.status().code(), code) << index.status().ToString();
  };
  Bytes bad = file;
  bad[0] ^= 1;
  expect(bad, StatusCode::kInvalidArgument);  // magic
  bad = file;
  StoreLE<uint16_t>(bad.data() + 4, 1);
  expect(bad, StatusCode::kUnimplemented);  // major version
  bad = file;
  StoreLE<uint16_t>(bad.data() + 6, 1);
  expect(bad, StatusCode::kUnimplemented);  // minor version
  bad = file;
  StoreLE<uint64_t>(bad.data() + 8, 87);
  expect(bad, StatusCode::kInvalidArgument);  // header size
  bad = file;
  StoreLE<uint64_t>(bad.data() + 80, 1u << 20);
  expect(bad, StatusCode::kOutOfRange);  // storage segment past the end
  bad = file;
  StoreLE<uint64_t>(bad.data() + 32, ~uint64_t{0});  // entry count
  expect(bad, StatusCode::kOutOfRange);
  bad = file;
  StoreLE<uint32_t>(bad.data() + 96 + 8, 3);  // external entry
  expect(bad, StatusCode::kUnimplemented);
  bad = file;
  StoreLE<uint32_t>(bad.data() + 96 + 8, 0);  // skip entry
  auto skipped = Parse("irpa", bad);
  ASSERT_TRUE(skipped.ok());
  EXPECT_EQ((*skipped)->size(), 2u);
  bad = file;
  bad[176 + 84] = 17;  // splat pattern length (entries at 96, 176, 272)
  expect(bad, StatusCode::kInvalidArgument);
  bad = file;
  StoreLE<uint64_t>(bad.data() + 96 + 60, ~uint64_t{0} - 8);  // data offset
  expect(bad, StatusCode::kOutOfRange);
  expect(Bytes(file.begin(), file.begin() + 31), StatusCode::kInvalidArgument);
}

TEST(IrpaTest, FailedParseLeavesTheIndexAlone) {
  Bytes file = MakeIrpa();
  StoreLE<uint32_t>(file.data() + 272 + 8, 3);  // third entry external
  Ref<ParameterIndex> index = ParameterIndex::Create();
  EXPECT_FALSE(ParseParameterFile("irpa", Wrap(file), *index).ok());
  EXPECT_EQ(index->size(), 0u);
}

TEST(GgufTest, EntriesAsIree) {
  std::vector<GgufTensor> tensors = {
      {"f32", {4, 2}, 0, 0},        // 32 bytes
      {"q8_0", {64}, 8, 64},        // 2 blocks of 34
      {"q4_k", {256, 2}, 12, 160},  // 2 blocks of 144
      {"i8", {3}, 16, 480},
  };
  Bytes file = MakeGguf(tensors, 64, 512);
  auto index = Parse("gguf", file);
  ASSERT_TRUE(index.ok()) << index.status().ToString();
  ASSERT_EQ((*index)->size(), 4u);
  uint64_t data_start = file.size() - 512;
  EXPECT_EQ(data_start % 64, 0u);
  EXPECT_EQ((*index)->entry(0).key, "f32");
  EXPECT_EQ((*index)->entry(0).offset, data_start);
  EXPECT_EQ((*index)->entry(0).length, 32u);
  EXPECT_EQ((*index)->entry(1).length, 68u);
  EXPECT_EQ((*index)->entry(1).offset, data_start + 64);
  EXPECT_EQ((*index)->entry(2).length, 288u);
  EXPECT_EQ((*index)->entry(3).length, 3u);
  EXPECT_TRUE((*index)->entry(0).metadata.empty());

  // Default alignment 32.
  Bytes plain = MakeGguf({{"x", {2}, 1, 0}}, 0, 32);
  auto p = Parse("gguf", plain);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ((*p)->entry(0).offset, plain.size() - 32);
  EXPECT_EQ((*p)->entry(0).offset % 32, 0u);
  // Version 2 reads too; no tensors means nothing else is read.
  Bytes v2 = MakeGguf({{"x", {2}, 1, 0}}, 0, 32, 2);
  EXPECT_TRUE(Parse("gguf", v2).ok());
  Bytes empty = MakeGguf({}, 0, 0);
  empty.resize(24);
  StoreLE<uint64_t>(empty.data() + 16, ~uint64_t{0});
  auto e = Parse("gguf", empty);
  ASSERT_TRUE(e.ok());
  EXPECT_EQ((*e)->size(), 0u);
}

TEST(GgufTest, Refusals) {
  auto code = [](Bytes bytes) { return Parse("gguf", bytes).status().code(); };
  Bytes good = MakeGguf({{"x", {8}, 0, 0}}, 0, 32);
  Bytes bad = good;
  StoreLE<uint32_t>(bad.data() + 4, 1);
  EXPECT_EQ(code(bad), StatusCode::kUnimplemented);
  bad = good;
  bad[0] = 'X';
  EXPECT_EQ(code(bad), StatusCode::kInvalidArgument);
  // Past the data.
  EXPECT_EQ(code(MakeGguf({{"x", {9}, 0, 0}}, 0, 32)),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(code(MakeGguf({{"x", {1}, 0, ~uint64_t{0}}}, 0, 32)),
            StatusCode::kInvalidArgument);
  // Unknown and removed ggml types.
  EXPECT_EQ(code(MakeGguf({{"x", {1}, 4, 0}}, 0, 32)),
            StatusCode::kUnimplemented);
  EXPECT_EQ(code(MakeGguf({{"x", {1}, 19, 0}}, 0, 32)),
            StatusCode::kUnimplemented);
  // Element counts that overflow.
  EXPECT_EQ(code(MakeGguf({{"x", {1ull << 40, 1ull << 40}, 0, 0}}, 0, 32)),
            StatusCode::kOutOfRange);
  EXPECT_EQ(code(MakeGguf({{"x", {1ull << 62}, 0, 0}}, 0, 32)),
            StatusCode::kOutOfRange);
  // general.alignment must be a non-zero uint32.
  Bytes zero = MakeGguf({{"x", {8}, 0, 0}}, 16, 64);
  // find the alignment value: "general.alignment" then type 4, then value.
  std::string text(zero.begin(), zero.end());
  size_t at = text.find("general.alignment") + 17 + 4;
  StoreLE<uint32_t>(zero.data() + at, 0);
  EXPECT_EQ(code(zero), StatusCode::kInvalidArgument);
  StoreLE<uint32_t>(zero.data() + at - 4, 5);  // int32
  EXPECT_EQ(code(zero), StatusCode::kInvalidArgument);
}

TEST(GgufTest, HugeCountsFailFast) {
  // 2^60 key/value pairs, 2^60 tensors, 2^60-element arrays: every loop
  // consumes bytes it has checked, so these end at the end of the file.
  Bytes file;
  Put32(file, 0x46554747u);
  Put32(file, 3);
  Put64(file, 1ull << 60);
  Put64(file, 1ull << 60);
  for (int i = 0; i < 1000; ++i) {
    PutString(file, "k");
    Put32(file, 0);
    file.push_back(1);
  }
  auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(Parse("gguf", file).status().code(), StatusCode::kOutOfRange);
  Bytes arrays;
  Put32(arrays, 0x46554747u);
  Put32(arrays, 3);
  Put64(arrays, 1);
  Put64(arrays, 2);
  PutString(arrays, "strings");
  Put32(arrays, 9);
  Put32(arrays, 8);
  Put64(arrays, 1ull << 60);
  EXPECT_EQ(Parse("gguf", arrays).status().code(), StatusCode::kOutOfRange);
  arrays.resize(arrays.size() - 12);
  Put32(arrays, 10);  // u64 elements: count * 8 overflows
  Put64(arrays, 1ull << 62);
  EXPECT_EQ(Parse("gguf", arrays).status().code(), StatusCode::kOutOfRange);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(SafetensorsTest, EntriesAsIree) {
  std::string json =
      R"({"__metadata__": {"format": "pt"}, "b": {"dtype": "F32", )"
      R"("shape": [2], "data_offsets": [8, 16]}, "a": {"data_offsets": )"
      R"([ 0 , 8 ], "dtype": "I8"}, "z\u00e9": {"data_offsets": [16, 16]},)"
      R"( /* comment */ "b": {"data_offsets": [0, 4]},})"
      "        ";
  Bytes file = MakeSafetensors(json, 16);
  auto index = Parse("safetensors", file);
  ASSERT_TRUE(index.ok()) << index.status().ToString();
  ASSERT_EQ((*index)->size(), 4u);
  uint64_t base = 8 + json.size();
  EXPECT_EQ((*index)->entry(0).key, "b");
  EXPECT_EQ((*index)->entry(0).offset, base + 8);
  EXPECT_EQ((*index)->entry(0).length, 8u);
  EXPECT_EQ((*index)->entry(1).key, "a");
  EXPECT_EQ((*index)->entry(1).offset, base);
  EXPECT_EQ((*index)->entry(2).key, "z\\u00e9");  // raw, as IREE keeps it
  EXPECT_EQ((*index)->entry(2).length, 0u);
  EXPECT_EQ((*index)->Lookup("b")->length, 8u);  // first of the duplicates
  EXPECT_TRUE((*index)->entry(0).metadata.empty());
}

TEST(SafetensorsTest, Refusals) {
  auto code = [](const std::string& json, uint64_t data) {
    Bytes file = MakeSafetensors(json, data);
    return Parse("safetensors", file).status().code();
  };
  EXPECT_EQ(code(R"({"a": {"data_offsets": [0, 9]}})", 8),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(code(R"({"a": {"data_offsets": [4, 2]}})", 8),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(code(R"({"a": {"dtype": "F32"}})", 8), StatusCode::kNotFound);
  // IREE splits at the first comma and reads each side with strtoull, which
  // ignores trailing text: [0, 1, 2] reads as [0, 1]; and a string value
  // "[0x4, 8]" is taken as the array text, with 0x4 read as hex.
  Bytes quirk = MakeSafetensors(
      R"({"a": {"data_offsets": [0, 1, 2]}, "b": {"data_offsets": "[0x4, 8]"}})",
      8);
  auto quirky = Parse("safetensors", quirk);
  ASSERT_TRUE(quirky.ok());
  EXPECT_EQ((*quirky)->entry(0).length, 1u);
  EXPECT_EQ((*quirky)->entry(1).length, 4u);
  EXPECT_EQ(code(R"({"a": {"data_offsets": [0 1]}})", 8),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(code(R"({"a": "x"})", 8), StatusCode::kInvalidArgument);
  EXPECT_EQ(code(R"( {"a": {"data_offsets": [0, 1]}})", 8),
            StatusCode::kInvalidArgument);  // no leading space allowed
  EXPECT_EQ(code(R"({"a": {"data_offsets": [0, 1]})", 8),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(code(std::string(200, '['), 8), StatusCode::kInvalidArgument);
  std::string deep = R"({"a": {"data_offsets": [0, 1], "x": )" +
                     std::string(200, '[') + std::string(200, ']') + "}}";
  EXPECT_EQ(code(deep, 8), StatusCode::kResourceExhausted);
  Bytes short_file = {1, 2, 3};
  EXPECT_EQ(Parse("safetensors", short_file).status().code(),
            StatusCode::kOutOfRange);
  Bytes long_header = MakeSafetensors("{}", 0);
  StoreLE<uint64_t>(long_header.data(), ~uint64_t{0});
  EXPECT_EQ(Parse("safetensors", long_header).status().code(),
            StatusCode::kOutOfRange);
}

TEST(SafetensorsTest, LargeHeaderIsLinear) {
  std::string json = "{";
  for (int i = 0; i < 20000; ++i) {
    if (i) json += ",";
    json +=
        "\"t" + std::to_string(i) +
        "\": {\"dtype\": \"F32\", \"shape\": [1], \"data_offsets\": [0, 4]}";
  }
  json += "}";
  Bytes file = MakeSafetensors(json, 4);
  auto start = std::chrono::steady_clock::now();
  auto index = Parse("safetensors", file);
  ASSERT_TRUE(index.ok());
  EXPECT_EQ((*index)->size(), 20000u);
  EXPECT_NE((*index)->Lookup("t19999"), nullptr);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
}

// Every truncation and a deterministic set of single-bit flips of one file
// of each format: a clean error or entries inside the file.
void Sweep(std::string_view format, const Bytes& original) {
  auto check = [&](Bytes bytes) {
    Ref<ParameterIndex> index = ParameterIndex::Create();
    Status status = ParseParameterFile(format, Wrap(bytes), *index);
    if (!status.ok()) {
      ASSERT_FALSE(status.message().empty());
      ASSERT_EQ(index->size(), 0u);
      return;
    }
    ExpectEntriesInside(*index, bytes.size());
  };
  for (size_t n = 0; n <= original.size(); ++n) {
    check(Bytes(original.begin(), original.begin() + n));
  }
  uint64_t state = 0x9E3779B97F4A7C15ull;
  size_t bits = original.size() * 8;
  for (int i = 0; i < 4000; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    Bytes bytes = original;
    size_t bit = (i < 2048 && static_cast<size_t>(i) < bits)
                     ? static_cast<size_t>(i)  // every bit of the head
                     : static_cast<size_t>((state >> 11) % bits);
    bytes[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
    check(std::move(bytes));
  }
}

TEST(CorruptionTest, Irpa) { Sweep("irpa", MakeIrpa()); }
TEST(CorruptionTest, Gguf) {
  Sweep("gguf", MakeGguf({{"a", {4, 2}, 0, 0}, {"b", {32}, 8, 32}}, 0, 96));
}
TEST(CorruptionTest, Safetensors) {
  Sweep("safetensors",
        MakeSafetensors(R"({"__metadata__": {"k": "v"}, "a": {"dtype": )"
                        R"("F32", "shape": [2], "data_offsets": [0, 8]}, )"
                        R"("b": {"data_offsets": [8, 12]}}  )",
                        12));
}

}  // namespace
}  // namespace ember::io
