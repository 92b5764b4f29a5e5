#include "tools/numpy_io.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace ember::tools {
namespace {

using hal::ElementType;

// A file under the temporary directory, removed when the test ends.
class TempFile {
 public:
  TempFile() {
    static int counter = 0;
    path_ = (std::filesystem::temp_directory_path() /
             ("ember_numpy_io_test_" + std::to_string(getpid()) + "_" +
              std::to_string(counter++) + ".npy"))
                .string();
  }
  ~TempFile() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }

  void Write(const std::string& bytes) const {
    std::ofstream(path_, std::ios::binary) << bytes;
  }

 private:
  std::string path_;
};

// A version 1.0 file holding `dict` (padded as numpy pads) and `data`.
std::string NpyBytes(const std::string& dict, const std::string& data = "") {
  std::string header = dict;
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::string bytes = "\x93NUMPY\x01";
  bytes += '\0';
  bytes += static_cast<char>(header.size() & 0xFF);
  bytes += static_cast<char>(header.size() >> 8);
  return bytes + header + data;
}

Ref<hal::BufferView> MakeView(std::vector<int64_t> shape, ElementType type,
                              const std::vector<uint8_t>& bytes) {
  Ref<hal::Allocator> heap = hal::Allocator::CreateHeap();
  auto buffer = heap->AllocateCopy(hal::BufferParams{}, bytes);
  EXPECT_TRUE(buffer.ok());
  auto view = hal::BufferView::Create(std::move(*buffer), shape, type,
                                      hal::EncodingType::kDenseRowMajor);
  EXPECT_TRUE(view.ok());
  return std::move(*view);
}

std::vector<uint8_t> ContentsOf(hal::BufferView& view) {
  auto mapping =
      view.buffer()->Map(hal::MappingMode::kScoped, hal::MemoryAccess::kRead, 0,
                         hal::kWholeBuffer);
  EXPECT_TRUE(mapping.ok());
  return {mapping->data(), mapping->data() + mapping->size()};
}

TEST(ParseNpyHeaderTest, AcceptsWhatNumpyWrites) {
  auto f32 = ParseNpyHeader(
      "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }");
  ASSERT_TRUE(f32.ok()) << f32.status().ToString();
  EXPECT_EQ(f32->element_type, ElementType::kFloat32);
  EXPECT_EQ(f32->shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(f32->byte_length, 24u);

  auto scalar = ParseNpyHeader(
      "{'descr': '|b1', 'fortran_order': False, 'shape': (), }   \n");
  ASSERT_TRUE(scalar.ok()) << scalar.status().ToString();
  EXPECT_EQ(scalar->element_type, ElementType::kBool8);
  EXPECT_TRUE(scalar->shape.empty());
  EXPECT_EQ(scalar->byte_length, 1u);

  auto quoted = ParseNpyHeader(
      "{\"shape\": (4,), \"fortran_order\": False, \"descr\": \"<u2\"}");
  ASSERT_TRUE(quoted.ok()) << quoted.status().ToString();
  EXPECT_EQ(quoted->element_type, ElementType::kUint16);
  EXPECT_EQ(quoted->byte_length, 8u);
}

TEST(ParseNpyHeaderTest, DtypesMapToIreeTypes) {
  const std::pair<const char*, ElementType> cases[] = {
      {"|i1", ElementType::kSint8},
      {"<i8", ElementType::kSint64},
      {"|u1", ElementType::kUint8},
      {"<f2", ElementType::kFloat16},
      {"=f8", ElementType::kFloat64},
      {"<c8", ElementType::kComplexFloat64},
      {"<c16", ElementType::kComplexFloat128},
  };
  for (const auto& [descr, type] : cases) {
    auto info = ParseNpyHeader(std::string("{'descr': '") + descr +
                               "', 'fortran_order': False, 'shape': (1,)}");
    ASSERT_TRUE(info.ok()) << descr << ": " << info.status().ToString();
    EXPECT_EQ(info->element_type, type) << descr;
  }
}

TEST(ParseNpyHeaderTest, RejectsWithReasons) {
  const std::pair<const char*, StatusCode> cases[] = {
      {"{'descr': '<f4', 'fortran_order': True, 'shape': (2,)}",
       StatusCode::kUnimplemented},
      {"{'descr': '>i4', 'fortran_order': False, 'shape': (2,)}",
       StatusCode::kUnimplemented},
      {"{'descr': '<f3', 'fortran_order': False, 'shape': (2,)}",
       StatusCode::kUnimplemented},
      {"{'descr': [('a', '<i4')], 'fortran_order': False, 'shape': (2,)}",
       StatusCode::kUnimplemented},
      {"{'descr': '<f4', 'fortran_order': False}",
       StatusCode::kInvalidArgument},
      {"{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, "
       "'shape': ()}",
       StatusCode::kInvalidArgument},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (), 'x': 1}",
       StatusCode::kInvalidArgument},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': ()} junk",
       StatusCode::kInvalidArgument},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (-1,)}",
       StatusCode::kInvalidArgument},
      {"{'descr': '<f4', 'fortran_order': False, "
       "'shape': (99999999999999999999,)}",
       StatusCode::kOutOfRange},
      {"{'descr': '<f4', 'fortran_order': False, "
       "'shape': (1099511627776, 1099511627776)}",
       StatusCode::kOutOfRange},
      {"", StatusCode::kInvalidArgument},
  };
  for (const auto& [dict, code] : cases) {
    auto info = ParseNpyHeader(dict);
    ASSERT_FALSE(info.ok()) << dict;
    EXPECT_EQ(info.status().code(), code) << info.status().ToString();
    EXPECT_FALSE(info.status().message().empty());
  }
  std::string deep = "{'descr': '<f4', 'fortran_order': False, 'shape': (";
  for (size_t i = 0; i <= hal::kMaxRank; ++i) deep += "1,";
  EXPECT_EQ(ParseNpyHeader(deep + ")}").status().code(),
            StatusCode::kOutOfRange);
}

TEST(EncodeNpyHeaderTest, PaddedAndParsesBack) {
  const int64_t shape[] = {2, 3};
  auto header = EncodeNpyHeader(ElementType::kInt16, shape);
  ASSERT_TRUE(header.ok());
  EXPECT_EQ(header->size() % 64, 0u);
  EXPECT_EQ(header->substr(0, 8), std::string("\x93NUMPY\x01\0", 8));
  EXPECT_EQ(header->back(), '\n');
  auto info = ParseNpyHeader(header->substr(10));
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  EXPECT_EQ(info->element_type, ElementType::kSint16);  // signless as 'i'
  EXPECT_EQ(info->shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(EncodeNpyHeader(ElementType::kBfloat16, shape).status().code(),
            StatusCode::kUnimplemented);
}

TEST(NpyFileTest, SeveralArraysRoundTrip) {
  TempFile file;
  Ref<hal::BufferView> first =
      MakeView({2, 2}, ElementType::kFloat32,
               {0, 0, 128, 63, 0, 0, 0, 64, 0, 0, 64, 64, 0, 0, 128, 64});
  Ref<hal::BufferView> second = MakeView({}, ElementType::kBool8, {1});
  {
    std::FILE* out = std::fopen(file.path().c_str(), "wb");
    ASSERT_NE(out, nullptr);
    EXPECT_TRUE(WriteNpyArray(out, file.path(), *first).ok());
    EXPECT_TRUE(WriteNpyArray(out, file.path(), *second).ok());
    std::fclose(out);
  }
  auto input = InputFile::Open(file.path());
  ASSERT_TRUE(input.ok());
  Ref<hal::Allocator> heap = hal::Allocator::CreateHeap();
  for (hal::BufferView* expected : {first.get(), second.get()}) {
    auto view = ReadNpyArray(**input, *heap);
    ASSERT_TRUE(view.ok()) << view.status().ToString();
    EXPECT_EQ((*view)->element_type(), expected->element_type());
    EXPECT_TRUE(std::ranges::equal((*view)->shape(), expected->shape()));
    EXPECT_EQ(ContentsOf(**view), ContentsOf(*expected));
  }
  EXPECT_TRUE((*input)->at_end());
  auto past_end = ReadNpyArray(**input, *heap);
  EXPECT_EQ(past_end.status().code(), StatusCode::kOutOfRange);
  EXPECT_NE(past_end.status().message().find("no array left"),
            std::string_view::npos);
}

TEST(NpyFileTest, HostileFilesFailNamingFileAndOffset) {
  Ref<hal::Allocator> heap = hal::Allocator::CreateHeap();
  const std::string good =
      NpyBytes("{'descr': '<i4', 'fortran_order': False, 'shape': (1,)}",
               std::string("\x07\0\0\0", 4));
  std::string version4 = good;
  version4[6] = 4;
  std::string huge_header = "\x93NUMPY\x02";
  huge_header += std::string("\0\xff\xff\xff\xff", 5);
  huge_header += std::string(16, ' ');
  const std::pair<std::string, StatusCode> cases[] = {
      {"", StatusCode::kOutOfRange},
      {"\x93NUMPY", StatusCode::kInvalidArgument},
      {"NOT A NUMPY FILE {}", StatusCode::kInvalidArgument},
      {version4, StatusCode::kUnimplemented},
      {huge_header, StatusCode::kInvalidArgument},
      {good.substr(0, 40), StatusCode::kInvalidArgument},
      {good.substr(0, good.size() - 1), StatusCode::kOutOfRange},
  };
  for (const auto& [bytes, code] : cases) {
    TempFile file;
    file.Write(bytes);
    auto input = InputFile::Open(file.path());
    ASSERT_TRUE(input.ok());
    auto view = ReadNpyArray(**input, *heap);
    ASSERT_FALSE(view.ok());
    EXPECT_EQ(view.status().code(), code) << view.status().ToString();
    const std::string text = view.status().ToString();
    EXPECT_NE(text.find("at byte 0 of '" + file.path() + "'"),
              std::string::npos)
        << text;
  }
  // An error in a later array names that array's offset.
  TempFile file;
  file.Write(good + good.substr(0, good.size() - 2));
  auto input = InputFile::Open(file.path());
  ASSERT_TRUE(input.ok());
  EXPECT_TRUE(ReadNpyArray(**input, *heap).ok());
  auto second = ReadNpyArray(**input, *heap);
  ASSERT_FALSE(second.ok());
  EXPECT_NE(second.status().ToString().find(
                "at byte " + std::to_string(good.size()) + " of"),
            std::string::npos)
      << second.status().ToString();
}

TEST(InputFilesTest, ContinueOrStartOver) {
  TempFile file;
  file.Write("0123456789");
  InputFiles files;
  auto first = files.Open(file.path(), /*continue_reading=*/false);
  ASSERT_TRUE(first.ok());
  char bytes[4];
  ASSERT_TRUE((*first)->Read(bytes, 4).ok());
  auto again = files.Open(file.path(), /*continue_reading=*/true);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, *first);
  EXPECT_EQ((*again)->position(), 4u);
  EXPECT_EQ((*again)->Read(bytes, 7).code(), StatusCode::kOutOfRange);
  EXPECT_EQ((*again)->position(), 4u);  // a failed read reads nothing
  auto rewound = files.Open(file.path(), /*continue_reading=*/false);
  ASSERT_TRUE(rewound.ok());
  EXPECT_EQ((*rewound)->position(), 0u);
  ASSERT_TRUE((*rewound)->Read(bytes, 4).ok());
  EXPECT_EQ(std::string(bytes, 4), "0123");
}

TEST(InputFileTest, OnlyRegularFiles) {
  EXPECT_EQ(InputFile::Open("/nonexistent/ember.npy").status().code(),
            StatusCode::kNotFound);
  EXPECT_EQ(InputFile::Open(std::filesystem::temp_directory_path().string())
                .status()
                .code(),
            StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace ember::tools
