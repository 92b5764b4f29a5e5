#include "runtime/io/parameter_index.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "runtime/io/file_handle.h"

namespace ember::io {
namespace {

Ref<FileHandle> Memory(std::vector<uint8_t>& bytes) {
  return FileHandle::WrapMemory(bytes, true, false, nullptr);
}

ParameterEntry FileEntry(std::string key, Ref<FileHandle> file, uint64_t offset,
                         uint64_t length) {
  ParameterEntry e;
  e.key = std::move(key);
  e.file = std::move(file);
  e.offset = offset;
  e.length = length;
  return e;
}

TEST(FileHandleTest, WrapMemoryReleasesOnce) {
  std::vector<uint8_t> bytes(10);
  int released = 0;
  {
    Ref<FileHandle> h =
        FileHandle::WrapMemory(bytes, true, true, [&] { ++released; });
    EXPECT_TRUE(h->is_host_allocation());
    EXPECT_EQ(h->fd(), -1);
    EXPECT_EQ(h->length(), 10u);
    EXPECT_TRUE(h->writable());
    Ref<FileHandle> copy = h;
  }
  EXPECT_EQ(released, 1);
}

TEST(FileHandleTest, RangeIsOverflowSafe) {
  std::vector<uint8_t> bytes(16);
  Ref<FileHandle> h = Memory(bytes);
  EXPECT_TRUE(h->Range(0, 16).ok());
  EXPECT_TRUE(h->Range(16, 0).ok());
  EXPECT_EQ(h->Range(8, 8)->data(), bytes.data() + 8);
  EXPECT_EQ(h->Range(17, 0).status().code(), StatusCode::kOutOfRange);
  EXPECT_EQ(h->Range(1, 16).status().code(), StatusCode::kOutOfRange);
  EXPECT_EQ(h->Range(8, ~uint64_t{0} - 4).status().code(),
            StatusCode::kOutOfRange);
  EXPECT_EQ(h->Range(~uint64_t{0}, 2).status().code(), StatusCode::kOutOfRange);
}

class TempPath {
 public:
  TempPath() {
    char name[] = "/tmp/ember_io_test_XXXXXX";
    int fd = ::mkstemp(name);
    EXPECT_GE(fd, 0);
    ::close(fd);
    path_ = name;
  }
  ~TempPath() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }
  void Write(const std::string& text) {
    std::FILE* f = std::fopen(path_.c_str(), "wb");
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
  }

 private:
  std::string path_;
};

TEST(FileHandleTest, OpenReadOnlyAndWritable) {
  TempPath file;
  file.Write("hello world");
  auto ro = FileHandle::Open(file.path(), false);
  ASSERT_TRUE(ro.ok()) << ro.status().ToString();
  EXPECT_EQ(std::string(reinterpret_cast<char*>((*ro)->bytes().data()),
                        (*ro)->length()),
            "hello world");
  EXPECT_GE((*ro)->fd(), 0);
  EXPECT_FALSE((*ro)->is_host_allocation());
  EXPECT_FALSE((*ro)->writable());
  // The read-only mapping is ByteStorage's: a private copy-on-write view
  // works on it.
  auto view = ByteStorage::MapPrivateView((*ro)->bytes());
  ASSERT_TRUE(view.ok());
  ASSERT_NE(view->data, nullptr);
  view->data[0] = 'J';
  EXPECT_EQ((*ro)->bytes()[0], 'h');
  ByteStorage::UnmapPrivateView(*view);

  {
    auto rw = FileHandle::Open(file.path(), true);
    ASSERT_TRUE(rw.ok()) << rw.status().ToString();
    (*rw)->bytes()[0] = 'J';
  }
  auto again = FileHandle::Open(file.path(), false);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ((*again)->bytes()[0], 'J');

  EXPECT_EQ(FileHandle::Open("/nonexistent/x.irpa", false).status().code(),
            StatusCode::kNotFound);
}

TEST(FileHandleTest, WrapFdDuplicates) {
  TempPath file;
  file.Write("abcdef");
  int fd = ::open(file.path().c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  auto h = FileHandle::WrapFd(fd, true, false);
  ASSERT_TRUE(h.ok()) << h.status().ToString();
  EXPECT_NE((*h)->fd(), fd);
  EXPECT_EQ((*h)->length(), 6u);
  ::close(fd);  // the handle keeps its own
  EXPECT_EQ((*h)->bytes()[5], 'f');
  EXPECT_FALSE(FileHandle::WrapFd(-1, true, false).ok());
}

TEST(ParameterIndexTest, AddValidatesRangesAndPatterns) {
  std::vector<uint8_t> bytes(100);
  Ref<FileHandle> file = Memory(bytes);
  Ref<ParameterIndex> index = ParameterIndex::Create();
  EXPECT_TRUE(index->Add(FileEntry("a", file, 0, 100)).ok());
  EXPECT_TRUE(index->Add(FileEntry("b", file, 100, 0)).ok());
  EXPECT_EQ(index->Add(FileEntry("c", file, 1, 100)).code(),
            StatusCode::kOutOfRange);
  EXPECT_EQ(index->Add(FileEntry("d", file, ~uint64_t{0}, 2)).code(),
            StatusCode::kOutOfRange);
  EXPECT_EQ(index->Add(FileEntry("e", nullptr, 0, 0)).code(),
            StatusCode::kInvalidArgument);
  ParameterEntry splat;
  splat.key = "s";
  splat.kind = ParameterEntry::Kind::kSplat;
  splat.length = 1 << 20;
  splat.pattern_length = 17;
  EXPECT_EQ(index->Add(splat).code(), StatusCode::kInvalidArgument);
  splat.pattern_length = 3;
  splat.pattern.fill(0xAB);
  EXPECT_TRUE(index->Add(splat).ok());
  EXPECT_EQ(index->size(), 3u);
  const ParameterEntry* s = index->Lookup("s");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->pattern[2], 0xAB);
  EXPECT_EQ(s->pattern[3], 0);  // zeroed past the pattern
  EXPECT_EQ(index->Lookup("c"), nullptr);
}

TEST(ParameterIndexTest, DuplicatesResolveToTheFirstAndAddressesAreStable) {
  std::vector<uint8_t> bytes(4096);
  Ref<FileHandle> file = Memory(bytes);
  Ref<ParameterIndex> index = ParameterIndex::Create();
  ASSERT_TRUE(index->Add(FileEntry("k", file, 1, 2)).ok());
  const ParameterEntry* first = &index->entry(0);
  for (int i = 0; i < 5000; ++i) {
    ASSERT_TRUE(
        index->Add(FileEntry("key" + std::to_string(i), file, i % 4096, 0))
            .ok());
  }
  ASSERT_TRUE(index->Add(FileEntry("k", file, 7, 3)).ok());
  EXPECT_EQ(&index->entry(0), first);
  EXPECT_EQ(index->Lookup("k"), first);
  EXPECT_EQ(index->Lookup("k")->offset, 1u);
  EXPECT_EQ(index->entry(5001).offset, 7u);
  EXPECT_EQ(index->Lookup("key4999")->offset, 4999u % 4096);
  EXPECT_EQ(index->size(), 5002u);
}

TEST(ParameterIndexTest, ConcurrentAdds) {
  std::vector<uint8_t> bytes(64);
  Ref<FileHandle> file = Memory(bytes);
  Ref<ParameterIndex> index = ParameterIndex::Create();
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 500; ++i) {
        std::string key = std::to_string(t) + "/" + std::to_string(i);
        ASSERT_TRUE(index->Add(FileEntry(key, file, t, i % 8)).ok());
        const ParameterEntry* e = index->Lookup(key);
        ASSERT_NE(e, nullptr);
        ASSERT_EQ(e->offset, static_cast<uint64_t>(t));
        ASSERT_EQ(e->key, key);
        size_t n = index->size();
        ASSERT_GE(n, 1u);
        (void)index->entry(n - 1).key.size();
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(index->size(), 2000u);
}

TEST(ParameterIndexTest, DumpMatchesIreeLayout) {
  std::vector<uint8_t> bytes(1000);
  Ref<FileHandle> file = Memory(bytes);
  Ref<ParameterIndex> index = ParameterIndex::Create();
  ASSERT_TRUE(index->Add(FileEntry("weight", file, 384, 40)).ok());
  ParameterEntry splat;
  splat.key = "zeros";
  splat.kind = ParameterEntry::Kind::kSplat;
  splat.length = 1024;
  splat.pattern_length = 4;
  ASSERT_TRUE(index->Add(splat).ok());
  // The text iree.runtime.ParameterIndex.__repr__ printed for the same
  // entries (from an archive create_archive_file wrote).
  const std::string expected =
      "//===--------------------------------------------------------------"
      "------------------------------------------------===//\n"
      "// Parameter scope <global> (2 entries, 1064 total bytes)\n"
      "//===------------+------------------+------------------+-------------"
      "----------------------------------------------===//\n"
      "//         Start |              End |           Length | Key\n"
      "//---------------+------------------+------------------+-------------"
      "-------------------------------------------------//\n"
      "             384 |              424 |               40 | `weight`\n"
      "               - |                - |             1024 | `zeros`\n"
      "\n";
  EXPECT_EQ(index->Dump(), expected);
  EXPECT_NE(index->Dump("model").find("// Parameter scope `model` (2 entries"),
            std::string::npos);
  // Keys print as IREE's %.*s prints them: up to a NUL byte.
  ASSERT_TRUE(index->Add(FileEntry(std::string("a\0b", 3), file, 0, 1)).ok());
  EXPECT_NE(index->Dump().find("| `a`\n"), std::string::npos);
}

TEST(ParameterIndexTest, FormatNames) {
  EXPECT_EQ(*FormatFromPath("/a/b/model.IRPA"), "irpa");
  EXPECT_EQ(*FormatFromPath("x.gguf"), "gguf");
  EXPECT_EQ(*FormatFromPath("x.tar.safetensors"), "safetensors");
  EXPECT_EQ(FormatFromPath("irpa").status().code(), StatusCode::kUnimplemented);
  EXPECT_EQ(FormatFromPath("dir.irpa/file").status().code(),
            StatusCode::kUnimplemented);
  EXPECT_EQ(FormatFromPath("x.bin").status().code(),
            StatusCode::kUnimplemented);
  std::vector<uint8_t> bytes(4);
  Ref<ParameterIndex> index = ParameterIndex::Create();
  // The format argument is a name, an extension or a path, as IREE's.
  for (const char* name : {"irpa", "IRPA", ".irpa", "dir/x.irpa"}) {
    Status status = ParseParameterFile(name, Memory(bytes), *index);
    EXPECT_EQ(status.code(), StatusCode::kInvalidArgument) << name;
  }
  EXPECT_EQ(ParseParameterFile("bin", Memory(bytes), *index).code(),
            StatusCode::kUnimplemented);
  Ref<FileHandle> unreadable =
      FileHandle::WrapMemory(bytes, false, true, nullptr);
  EXPECT_EQ(ParseParameterFile("irpa", unreadable, *index).code(),
            StatusCode::kPermissionDenied);
}

}  // namespace
}  // namespace ember::io
