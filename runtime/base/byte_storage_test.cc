#include "runtime/base/byte_storage.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace ember {
namespace {

// A temporary file holding `bytes`, removed at the end of the test.
class TempFile {
 public:
  explicit TempFile(const std::vector<uint8_t>& bytes) {
    char name[] = "/tmp/ember_byte_storage_XXXXXX";
    int fd = ::mkstemp(name);
    EXPECT_GE(fd, 0);
    path_ = name;
    EXPECT_EQ(::write(fd, bytes.data(), bytes.size()),
              static_cast<ssize_t>(bytes.size()));
    ::close(fd);
  }
  ~TempFile() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::vector<uint8_t> Pattern(size_t size) {
  std::vector<uint8_t> bytes(size);
  for (size_t i = 0; i < size; ++i) bytes[i] = static_cast<uint8_t>(i * 7 + 3);
  return bytes;
}

TEST(ByteStorageTest, PrivateViewOfAFileMappingIsCopyOnWrite) {
  const std::vector<uint8_t> bytes = Pattern(3 * 4096 + 100);
  TempFile file(bytes);
  auto storage = ByteStorage::MapFile(file.path());
  ASSERT_TRUE(storage.ok()) << storage.status().ToString();
  // A range that starts and ends inside pages, as constants do.
  std::span<const uint8_t> range = (*storage)->span().subspan(4096 + 64, 5000);
  auto view = ByteStorage::MapPrivateView(range);
  ASSERT_TRUE(view.ok()) << view.status().ToString();
  ASSERT_NE(view->data, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(view->data) % 64, 0u);
  for (size_t i = 0; i < range.size(); ++i) {
    ASSERT_EQ(view->data[i], range[i]) << i;
  }
  // Writing changes the view only: not the storage, not the file.
  view->data[0] ^= 0xFF;
  view->data[4999] ^= 0xFF;
  EXPECT_EQ(range[0], bytes[4096 + 64]);
  EXPECT_EQ(range[4999], bytes[4096 + 64 + 4999]);
  auto reread = ByteStorage::MapFile(file.path());
  ASSERT_TRUE(reread.ok());
  EXPECT_EQ((*reread)->data()[4096 + 64], bytes[4096 + 64]);
  // A second view sees the file, not the first view's writes.
  auto second = ByteStorage::MapPrivateView(range);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(second->data[0], bytes[4096 + 64]);
  ByteStorage::UnmapPrivateView(*view);
  ByteStorage::UnmapPrivateView(*second);
}

TEST(ByteStorageTest, PrivateViewNeedsAFileMapping) {
  const std::vector<uint8_t> bytes = Pattern(256);
  auto copy = ByteStorage::CopyOf(bytes);
  ASSERT_TRUE(copy.ok());
  auto view = ByteStorage::MapPrivateView((*copy)->span());
  ASSERT_TRUE(view.ok());
  EXPECT_EQ(view->data, nullptr);
  // Nor memory outside any mapping, nor a range running past one.
  auto outside = ByteStorage::MapPrivateView(bytes);
  ASSERT_TRUE(outside.ok());
  EXPECT_EQ(outside->data, nullptr);

  TempFile file(bytes);
  auto storage = ByteStorage::MapFile(file.path());
  ASSERT_TRUE(storage.ok());
  std::span<const uint8_t> past((*storage)->data() + 200, 100);
  auto overrun = ByteStorage::MapPrivateView(past);
  ASSERT_TRUE(overrun.ok());
  EXPECT_EQ(overrun->data, nullptr);
  // An empty range needs no view.
  auto empty = ByteStorage::MapPrivateView({});
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->data, nullptr);
}

TEST(ByteStorageTest, ViewOutlivesTheStorage) {
  const std::vector<uint8_t> bytes = Pattern(8192);
  TempFile file(bytes);
  ByteStorage::PrivateView view;
  {
    auto storage = ByteStorage::MapFile(file.path());
    ASSERT_TRUE(storage.ok());
    auto made = ByteStorage::MapPrivateView((*storage)->span().subspan(128));
    ASSERT_TRUE(made.ok());
    view = *made;
  }
  EXPECT_EQ(view.data[0], bytes[128]);
  EXPECT_EQ(view.data[8000], bytes[8128]);
  // The storage is gone: its range is no longer known.
  ByteStorage::UnmapPrivateView(view);
}

}  // namespace
}  // namespace ember
