// libFuzzer target for the tools' .npy reader (tools/numpy_io.h): the magic
// and version prefix, the header length, the dict grammar, dtype and shape
// checks and the data read, for every array the input holds (a file may
// hold several, read one after the other as `--input=+a.npy` does). Each
// array that reads must survive a round trip: its header written again
// parses to the same type and shape, and writing it reproduces the data
// bytes it was read from. Seeds: fuzz/make_seed_corpus.sh DIR
// npy_reader_fuzzer.
//
// The reader takes a path, so the input is written to an in-memory file
// (memfd) and opened by its /proc/self/fd name.
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string>
#include <string_view>

#include "runtime/hal/allocator.h"
#include "runtime/hal/buffer_view_format.h"
#include "tools/numpy_io.h"

namespace {

namespace tools = ember::tools;
namespace hal = ember::hal;

// Arrays read from one input at most (each costs a header of >= 10 bytes,
// so the bound only matters for pathological inputs).
constexpr int kMaxArrays = 256;

// Shapes that print more bracket pairs than this are not printed (see
// below).
constexpr uint64_t kMaxPrintedBrackets = 1 << 16;

// The bracket pairs the text of `shape` holds: one per entry of every
// dimension but the innermost (saturating).
uint64_t BracketCount(std::span<const int64_t> shape) {
  uint64_t entries = 1, brackets = 0;
  for (size_t i = 0; i + 1 < shape.size(); ++i) {
    if (__builtin_mul_overflow(entries, static_cast<uint64_t>(shape[i]),
                               &entries) ||
        __builtin_add_overflow(brackets, entries, &brackets)) {
      return ~uint64_t{0};
    }
  }
  return brackets;
}

// An error must always explain itself.
void CheckExplained(const ember::Status& status) {
  if (status.message().empty()) __builtin_trap();
}

// The in-memory file the reader opens; made once per process.
struct ScratchFile {
  int fd = -1;
  std::string path;
};

const ScratchFile& Scratch() {
  static const ScratchFile scratch = [] {
    ScratchFile file;
    file.fd = memfd_create("npy_reader_fuzzer", 0);
    if (file.fd < 0) {
      std::perror("memfd_create");
      std::abort();
    }
    file.path = "/proc/self/fd/" + std::to_string(file.fd);
    return file;
  }();
  return scratch;
}

bool WriteScratch(const uint8_t* data, size_t size) {
  const ScratchFile& file = Scratch();
  if (ftruncate(file.fd, 0) != 0) return false;
  size_t written = 0;
  while (written < size) {
    const ssize_t n = pwrite(file.fd, data + written, size - written, written);
    if (n <= 0) return false;
    written += static_cast<size_t>(n);
  }
  return true;
}

// The header's dict text: what follows the magic, version and length.
std::string_view DictOf(std::string_view header) {
  const size_t length_size = header[6] == 1 ? 2 : 4;
  return header.substr(8 + length_size);
}

// Writes `view` back and checks it against `original`, the bytes of the
// array as read (header and data).
void CheckRoundTrip(hal::BufferView& view, std::string_view original) {
  // Every element type the reader makes has a numpy dtype to write.
  auto header = tools::EncodeNpyHeader(view.element_type(), view.shape());
  if (!header.ok()) __builtin_trap();
  auto info = tools::ParseNpyHeader(DictOf(*header));
  if (!info.ok() || info->element_type != view.element_type() ||
      info->shape.size() != view.shape().size() ||
      !std::equal(info->shape.begin(), info->shape.end(),
                  view.shape().begin())) {
    __builtin_trap();
  }
  if (info->byte_length > original.size()) __builtin_trap();
  char* written = nullptr;
  size_t written_size = 0;
  std::FILE* stream = open_memstream(&written, &written_size);
  if (!stream) std::abort();
  ember::Status status = tools::WriteNpyArray(stream, "memory", view);
  std::fclose(stream);
  if (!status.ok() || written_size != header->size() + info->byte_length ||
      std::memcmp(written + header->size(),
                  original.data() + original.size() - info->byte_length,
                  info->byte_length) != 0) {
    __builtin_trap();
  }
  std::free(written);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  // The dict grammar on its own, without the framing around it.
  if (size <= tools::kMaxNpyHeaderLength) {
    auto info = tools::ParseNpyHeader(input);
    if (!info.ok()) CheckExplained(info.status());
  }

  if (!WriteScratch(data, size)) std::abort();
  auto file = tools::InputFile::Open(Scratch().path);
  if (!file.ok()) std::abort();
  static const ember::Ref<hal::Allocator> heap = hal::Allocator::CreateHeap();
  for (int i = 0; i < kMaxArrays && !(*file)->at_end(); ++i) {
    const uint64_t start = (*file)->position();
    auto view = tools::ReadNpyArray(**file, *heap);
    if (!view.ok()) {
      CheckExplained(view.status());
      break;
    }
    const uint64_t end = (*file)->position();
    if (end <= start || end > size) __builtin_trap();
    CheckRoundTrip(**view, input.substr(start, end - start));
    // Every .npy dtype is printable. The text holds every bracket pair even
    // past the element budget, so shapes with many (empty) rows are left
    // out; the printer refuses the most absurd ones itself.
    if (BracketCount((*view)->shape()) <= kMaxPrintedBrackets) {
      auto text = hal::FormatBufferView(**view, 64);
      if (!text.ok()) __builtin_trap();
    }
  }
  return 0;
}
