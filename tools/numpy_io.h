// NumPy .npy arrays for the tools' --input, --output and --expected_output.
//
// iree-run-module reads `--input=@a.npy` as the first array of a file and
// `--input=+a.npy` as the next one, so one file may hold several arrays
// (numpy.save called repeatedly on one open file); `--output=@a.npy` writes
// a result as an array and `--output=+a.npy` appends one. This file holds
// both halves of that format (numpy.lib.format versions 1.0, 2.0 and 3.0,
// little-endian, C order) and the InputFile cursor that lets successive flags
// continue where the previous one stopped.
//
// Every file is hostile. Each length read from one is checked against the
// bytes the file still holds before anything of that size is allocated, the
// header is bounded, shapes are overflow-checked, and errors name the file
// and the byte offset of the array at fault. The header dict is parsed by a
// small grammar (quoted strings, True/False, tuples of integers), not
// evaluated.
//
// Element types follow IREE's mapping: '<i4' is si32, '<u2' ui16, '|b1' i1,
// '<f2' f16, '<c8' complex f32 pairs; written arrays use the same mapping
// backwards, with signless integers as 'i'.
// bf16 and the f8 types have no numpy dtype and cannot be written.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/base/ref_counted.h"
#include "runtime/base/status.h"
#include "runtime/hal/allocator.h"
#include "runtime/hal/buffer_view.h"
#include "runtime/hal/element_type.h"

namespace ember::tools {

// A regular file read front to back. Reads are exact: asking for more bytes
// than remain is OUT_OF_RANGE naming the file, and nothing is read.
class InputFile {
 public:
  static Result<std::unique_ptr<InputFile>> Open(const std::string& path);
  ~InputFile();
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  const std::string& path() const { return path_; }
  uint64_t size() const { return size_; }
  uint64_t position() const { return position_; }
  uint64_t remaining() const { return size_ - position_; }
  bool at_end() const { return position_ >= size_; }

  // Back to the first byte.
  Status Rewind();
  // Reads exactly `length` bytes into `data`.
  Status Read(void* data, uint64_t length);

 private:
  InputFile(std::string path, std::FILE* file, uint64_t size)
      : path_(std::move(path)), file_(file), size_(size) {}
  std::string path_;
  std::FILE* file_;
  uint64_t size_;
  uint64_t position_ = 0;
};

// The files that the flags of one list (the inputs, or the expected outputs)
// have opened, keyed by their path as written. Opening a path again either
// continues where the previous flag stopped or starts over.
class InputFiles {
 public:
  Result<InputFile*> Open(const std::string& path, bool continue_reading);

 private:
  std::vector<std::unique_ptr<InputFile>> files_;
};

// What a .npy header describes.
struct NpyArrayInfo {
  hal::ElementType element_type = hal::ElementType::kNone;
  std::vector<int64_t> shape;
  uint64_t byte_length = 0;  // of the data that follows the header
};

// The longest header dict accepted (numpy writes a few hundred bytes; the
// format allows 4 GiB).
inline constexpr uint32_t kMaxNpyHeaderLength = 1u << 20;

// Parses a header dict such as
// "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }".
Result<NpyArrayInfo> ParseNpyHeader(std::string_view header);

// Reads the array at the current position of `file` into a new buffer from
// `allocator`; the file is left after the array's data.
Result<Ref<hal::BufferView>> ReadNpyArray(InputFile& file,
                                          hal::Allocator& allocator);

// The bytes numpy.save writes before the data of an array of `type` and
// `shape` (magic, version, length, dict padded with spaces and a newline to
// a multiple of 64 bytes). UNIMPLEMENTED for types numpy has no dtype for.
Result<std::string> EncodeNpyHeader(hal::ElementType type,
                                    std::span<const int64_t> shape);

// Writes `view` as one array at the current position of `file`; `path`
// names it in errors.
Status WriteNpyArray(std::FILE* file, const std::string& path,
                     hal::BufferView& view);

}  // namespace ember::tools
