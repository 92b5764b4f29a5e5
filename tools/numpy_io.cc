#include "tools/numpy_io.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace ember::tools {
namespace {

using hal::ElementType;
using hal::NumericalType;

constexpr char kMagic[6] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};
constexpr size_t kPrefixLength = 8;  // magic, major and minor version

unsigned long long ULL(uint64_t v) {
  return static_cast<unsigned long long>(v);
}

// `text` from a file, quoted for an error message: at most 40 bytes, each
// byte outside printable ASCII as \xNN.
std::string Quoted(std::string_view text) {
  std::string out = "'";
  for (size_t i = 0; i < text.size() && i < 40; ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7F && c != '\\') {
      out += static_cast<char>(c);
    } else {
      out += StringPrintf("\\x%02x", c);
    }
  }
  return out + (text.size() > 40 ? "...'" : "'");
}

// A cursor over the header dict text. The dict is a Python literal; only
// the forms numpy writes are accepted: 'quoted' keys and strings, True and
// False, and tuples of non-negative integers.
class DictReader {
 public:
  explicit DictReader(std::string_view text) : text_(text) {}

  void SkipSpace() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' ||
            text_[pos_] == '\r')) {
      ++pos_;
    }
  }
  bool AtEnd() const { return pos_ >= text_.size(); }
  char Peek() const { return AtEnd() ? '\0' : text_[pos_]; }
  bool Consume(char c) {
    SkipSpace();
    if (Peek() != c) return false;
    ++pos_;
    return true;
  }
  bool ConsumeWord(std::string_view word) {
    SkipSpace();
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }
  size_t position() const { return pos_; }

  Status Error(const char* expected) const {
    return InvalidArgumentError(StringPrintf(
        "malformed header dict at character %zu: expected %s", pos_, expected));
  }

  // A 'single' or "double" quoted string without escapes.
  Result<std::string_view> String() {
    SkipSpace();
    const char quote = Peek();
    if (quote != '\'' && quote != '"') return Error("a quoted string");
    size_t end = text_.find(quote, pos_ + 1);
    if (end == std::string_view::npos) return Error("a closing quote");
    std::string_view value = text_.substr(pos_ + 1, end - pos_ - 1);
    if (value.find('\\') != std::string_view::npos) {
      return Error("a string without escapes");
    }
    pos_ = end + 1;
    return value;
  }

  // "(2, 3)", "(4,)" or "()": non-negative decimal integers, at most
  // hal::kMaxRank of them.
  Result<std::vector<int64_t>> Shape() {
    if (!Consume('(')) return Error("a shape tuple");
    std::vector<int64_t> shape;
    while (true) {
      SkipSpace();
      if (Consume(')')) return shape;
      if (Peek() < '0' || Peek() > '9') return Error("a dimension or ')'");
      uint64_t dim = 0;
      while (Peek() >= '0' && Peek() <= '9') {
        dim = dim * 10 + static_cast<uint64_t>(Peek() - '0');
        if (dim > static_cast<uint64_t>(INT64_MAX) / 10) {
          return OutOfRangeError(StringPrintf(
              "dimension %zu of the shape is too large", shape.size()));
        }
        ++pos_;
      }
      if (shape.size() == hal::kMaxRank) {
        return OutOfRangeError(StringPrintf(
            "the shape has more than %zu dimensions", hal::kMaxRank));
      }
      shape.push_back(static_cast<int64_t>(dim));
      if (!Consume(',')) {
        if (!Consume(')')) return Error("',' or ')' in the shape");
        return shape;
      }
    }
  }

 private:
  std::string_view text_;
  size_t pos_ = 0;
};

// The element type of a numpy dtype string such as "<f4" or "|b1".
Result<ElementType> ElementTypeOfDescr(std::string_view descr) {
  const std::string quoted = Quoted(descr);
  std::string_view rest = descr;
  bool big_endian = false;
  if (!rest.empty() &&
      (rest[0] == '<' || rest[0] == '>' || rest[0] == '|' || rest[0] == '=')) {
    big_endian = rest[0] == '>';
    rest.remove_prefix(1);
  }
  if (rest.size() < 2 || rest.size() > 3) {
    return UnimplementedError("dtype " + quoted + " is not supported");
  }
  const char kind = rest[0];
  uint32_t width = 0;
  for (char c : rest.substr(1)) {
    if (c < '0' || c > '9') {
      return UnimplementedError("dtype " + quoted + " is not supported");
    }
    width = width * 10 + static_cast<uint32_t>(c - '0');
  }
  if (big_endian && width > 1) {
    return UnimplementedError("big-endian dtype " + quoted +
                              " is not supported (save little-endian data)");
  }
  const bool power_of_two =
      width == 1 || width == 2 || width == 4 || width == 8;
  NumericalType numerical = NumericalType::kUnknown;
  bool supported = false;
  switch (kind) {
    case 'b':
      numerical = NumericalType::kBoolean;
      supported = width == 1;
      break;
    case 'i':
      numerical = NumericalType::kIntegerSigned;
      supported = power_of_two;
      break;
    case 'u':
      numerical = NumericalType::kIntegerUnsigned;
      supported = power_of_two;
      break;
    case 'f':
      numerical = NumericalType::kFloatIeee;
      supported = width == 2 || width == 4 || width == 8;
      break;
    case 'c':
      numerical = NumericalType::kFloatComplex;
      supported = width == 8 || width == 16;
      break;
    default: break;
  }
  if (!supported) {
    return UnimplementedError(
        "dtype " + quoted +
        " is not supported (bool, signed and unsigned integers of 1, 2, 4 or "
        "8 bytes, float16/32/64, complex64/128)");
  }
  return static_cast<ElementType>(
      hal::MakeElementTypeValue(numerical, width * 8));
}

// The dtype kind letter numpy uses for `type`, or 0 when it has none.
char DescrKind(ElementType type) {
  switch (hal::NumericalTypeOf(type)) {
    case NumericalType::kUnknown: return 'V';
    case NumericalType::kBoolean: return 'b';
    case NumericalType::kInteger:
    case NumericalType::kIntegerSigned: return 'i';
    case NumericalType::kIntegerUnsigned: return 'u';
    case NumericalType::kFloatIeee: return 'f';
    case NumericalType::kFloatComplex: return 'c';
    default: return 0;
  }
}

}  // namespace

// ---------------------------------------------------------------------------
// InputFile / InputFiles
// ---------------------------------------------------------------------------

Result<std::unique_ptr<InputFile>> InputFile::Open(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (!file) {
    return NotFoundError(StringPrintf("cannot open '%s': %s", path.c_str(),
                                      std::strerror(errno)));
  }
  struct stat info;
  if (fstat(fileno(file), &info) != 0 || !S_ISREG(info.st_mode)) {
    std::fclose(file);
    return InvalidArgumentError(
        StringPrintf("'%s' is not a regular file", path.c_str()));
  }
  return std::unique_ptr<InputFile>(
      new InputFile(path, file, static_cast<uint64_t>(info.st_size)));
}

InputFile::~InputFile() { std::fclose(file_); }

Status InputFile::Rewind() {
  if (std::fseek(file_, 0, SEEK_SET) != 0) {
    return DataLossError(StringPrintf("cannot seek in '%s': %s", path_.c_str(),
                                      std::strerror(errno)));
  }
  position_ = 0;
  return Status::Ok();
}

Status InputFile::Read(void* data, uint64_t length) {
  if (length > remaining()) {
    return OutOfRangeError(StringPrintf(
        "'%s': %llu bytes needed at byte %llu but only %llu remain",
        path_.c_str(), ULL(length), ULL(position_), ULL(remaining())));
  }
  if (length == 0) return Status::Ok();
  const size_t read = std::fread(data, 1, static_cast<size_t>(length), file_);
  position_ += read;
  if (read != length) {
    return DataLossError(
        StringPrintf("'%s': read %zu of %llu bytes (did the file change?)",
                     path_.c_str(), read, ULL(length)));
  }
  return Status::Ok();
}

Result<InputFile*> InputFiles::Open(const std::string& path,
                                    bool continue_reading) {
  for (auto& file : files_) {
    if (file->path() != path) continue;
    if (!continue_reading) EMBER_RETURN_IF_ERROR(file->Rewind());
    return file.get();
  }
  EMBER_ASSIGN_OR_RETURN(std::unique_ptr<InputFile> file,
                         InputFile::Open(path));
  files_.push_back(std::move(file));
  return files_.back().get();
}

// ---------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------

Result<NpyArrayInfo> ParseNpyHeader(std::string_view header) {
  DictReader reader(header);
  if (!reader.Consume('{')) return reader.Error("'{'");
  NpyArrayInfo info;
  bool has_descr = false, has_order = false, has_shape = false;
  while (!reader.Consume('}')) {
    EMBER_ASSIGN_OR_RETURN(std::string_view key, reader.String());
    if (!reader.Consume(':')) return reader.Error("':'");
    bool* seen = nullptr;
    if (key == "descr") {
      reader.SkipSpace();
      if (reader.Peek() == '[') {
        return UnimplementedError("structured dtypes are not supported");
      }
      EMBER_ASSIGN_OR_RETURN(std::string_view descr, reader.String());
      EMBER_ASSIGN_OR_RETURN(info.element_type, ElementTypeOfDescr(descr));
      seen = &has_descr;
    } else if (key == "fortran_order") {
      if (reader.ConsumeWord("True")) {
        return UnimplementedError(
            "Fortran-order arrays are not supported (save a C-order array, "
            "e.g. numpy.ascontiguousarray(a))");
      }
      if (!reader.ConsumeWord("False")) return reader.Error("True or False");
      seen = &has_order;
    } else if (key == "shape") {
      EMBER_ASSIGN_OR_RETURN(info.shape, reader.Shape());
      seen = &has_shape;
    } else {
      return InvalidArgumentError("unexpected key " + Quoted(key) +
                                  " in the header dict");
    }
    if (*seen) {
      return InvalidArgumentError("key " + Quoted(key) +
                                  " appears twice in the header dict");
    }
    *seen = true;
    if (!reader.Consume(',')) {
      if (!reader.Consume('}')) return reader.Error("',' or '}'");
      break;
    }
  }
  reader.SkipSpace();
  if (!reader.AtEnd()) return reader.Error("only padding after the dict");
  if (!has_descr || !has_order || !has_shape) {
    return InvalidArgumentError(
        "the header dict lacks one of 'descr', 'fortran_order' and 'shape'");
  }
  EMBER_ASSIGN_OR_RETURN(info.byte_length,
                         hal::DenseByteLength(info.shape, info.element_type),
                         "sizing the array's data");
  return info;
}

Result<Ref<hal::BufferView>> ReadNpyArray(InputFile& file,
                                          hal::Allocator& allocator) {
  const uint64_t start = file.position();
  auto fail = [&](Status status) {
    return std::move(status).Annotate(
        StringPrintf("reading the .npy array at byte %llu of '%s'", ULL(start),
                     file.path().c_str()));
  };
  if (file.at_end()) {
    return fail(OutOfRangeError(file.size() == 0
                                    ? "the file is empty"
                                    : "no array left: the file ends here"));
  }
  if (file.remaining() < kPrefixLength + 2) {
    return fail(InvalidArgumentError(
        StringPrintf("truncated header: %llu bytes left, a .npy header takes "
                     "at least %zu",
                     ULL(file.remaining()), kPrefixLength + 2)));
  }
  uint8_t prefix[kPrefixLength];
  if (Status s = file.Read(prefix, sizeof(prefix)); !s.ok()) return fail(s);
  if (std::memcmp(prefix, kMagic, sizeof(kMagic)) != 0) {
    return fail(InvalidArgumentError(
        "not a .npy array (the magic bytes \\x93NUMPY are missing)"));
  }
  const int major = prefix[6], minor = prefix[7];
  if (major < 1 || major > 3) {
    return fail(UnimplementedError(StringPrintf(
        "npy format version %d.%d is not supported (1.0, 2.0 and 3.0 are)",
        major, minor)));
  }
  uint8_t length_bytes[4] = {0, 0, 0, 0};
  const size_t length_size = major == 1 ? 2 : 4;
  if (Status s = file.Read(length_bytes, length_size); !s.ok()) {
    return fail(
        InvalidArgumentError("truncated header: the header length is cut off"));
  }
  const uint32_t header_length =
      uint32_t{length_bytes[0]} | uint32_t{length_bytes[1]} << 8 |
      uint32_t{length_bytes[2]} << 16 | uint32_t{length_bytes[3]} << 24;
  if (header_length > kMaxNpyHeaderLength) {
    return fail(InvalidArgumentError(
        StringPrintf("header length %u is over the limit of %u bytes",
                     header_length, kMaxNpyHeaderLength)));
  }
  if (header_length > file.remaining()) {
    return fail(InvalidArgumentError(StringPrintf(
        "truncated header: its length says %u bytes but only %llu remain",
        header_length, ULL(file.remaining()))));
  }
  std::string header(header_length, '\0');
  if (Status s = file.Read(header.data(), header_length); !s.ok()) {
    return fail(s);
  }
  Result<NpyArrayInfo> parsed = ParseNpyHeader(header);
  if (!parsed.ok()) return fail(std::move(parsed).status());
  NpyArrayInfo& info = *parsed;
  if (info.byte_length > file.remaining()) {
    return fail(OutOfRangeError(StringPrintf(
        "truncated data: the header describes %llu bytes of data but only "
        "%llu remain",
        ULL(info.byte_length), ULL(file.remaining()))));
  }
  auto buffer = allocator.Allocate(hal::BufferParams{}, info.byte_length);
  if (!buffer.ok()) return fail(std::move(buffer).status());
  {
    auto mapping =
        (*buffer)->Map(hal::MappingMode::kScoped,
                       hal::MemoryAccess::kDiscardWrite, 0, hal::kWholeBuffer);
    if (!mapping.ok()) return fail(std::move(mapping).status());
    if (Status s = file.Read(mapping->data(), info.byte_length); !s.ok()) {
      return fail(s);
    }
  }
  auto view =
      hal::BufferView::Create(std::move(*buffer), info.shape, info.element_type,
                              hal::EncodingType::kDenseRowMajor);
  if (!view.ok()) return fail(std::move(view).status());
  return std::move(*view);
}

// ---------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------

Result<std::string> EncodeNpyHeader(hal::ElementType type,
                                    std::span<const int64_t> shape) {
  const char kind = DescrKind(type);
  if (kind == 0 || !hal::IsByteAligned(type) || hal::BitCount(type) == 0) {
    return UnimplementedError(
        "numpy has no dtype for element type " + hal::FormatElementType(type) +
        " (bf16, the f8 types and sub-byte types cannot be saved as .npy)");
  }
  const size_t byte_count = hal::DenseByteCount(type);
  std::string dict = "{'descr': '";
  dict += byte_count == 1 ? '|' : '<';
  dict += kind;
  dict += std::to_string(byte_count);
  dict += "', 'fortran_order': False, 'shape': (";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) dict += ", ";
    dict += std::to_string(shape[i]);
  }
  if (shape.size() == 1) dict += ',';
  dict += "), }";
  // The dict, its space padding and a newline end on a 64-byte boundary;
  // version 1.0 has a 2-byte length, 2.0 a 4-byte one for longer headers.
  auto padded_length = [&](size_t length_size) {
    size_t unpadded = kPrefixLength + length_size + dict.size() + 1;
    return (unpadded + 63) / 64 * 64 - kPrefixLength - length_size;
  };
  const bool version2 = padded_length(2) > 0xFFFF;
  const size_t length_size = version2 ? 4 : 2;
  const size_t header_length = padded_length(length_size);
  std::string bytes(kMagic, sizeof(kMagic));
  bytes += static_cast<char>(version2 ? 2 : 1);
  bytes += '\0';
  for (size_t i = 0; i < length_size; ++i) {
    bytes += static_cast<char>((header_length >> (8 * i)) & 0xFF);
  }
  bytes += dict;
  bytes.append(header_length - dict.size() - 1, ' ');
  bytes += '\n';
  return bytes;
}

Status WriteNpyArray(std::FILE* file, const std::string& path,
                     hal::BufferView& view) {
  if (view.encoding_type() != hal::EncodingType::kDenseRowMajor) {
    return UnimplementedError(
        "only dense row-major tensors can be saved as .npy");
  }
  EMBER_ASSIGN_OR_RETURN(std::string header,
                         EncodeNpyHeader(view.element_type(), view.shape()));
  EMBER_ASSIGN_OR_RETURN(
      uint64_t byte_length,
      hal::DenseByteLength(view.shape(), view.element_type()));
  EMBER_ASSIGN_OR_RETURN(
      hal::BufferMapping mapping,
      view.buffer()->Map(hal::MappingMode::kScoped, hal::MemoryAccess::kRead, 0,
                         byte_length));
  if (std::fwrite(header.data(), 1, header.size(), file) != header.size() ||
      (byte_length && std::fwrite(mapping.data(), 1, mapping.size(), file) !=
                          mapping.size())) {
    return DataLossError(
        StringPrintf("writing '%s': %s", path.c_str(), std::strerror(errno)));
  }
  return Status::Ok();
}

}  // namespace ember::tools
