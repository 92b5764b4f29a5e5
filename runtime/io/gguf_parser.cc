// The GGUF reader: tensors of a GGUF v2/v3 file (llama.cpp's format) as IREE
// 3.11's iree_io_parse_gguf_index indexes them: each tensor is a file entry
// at tensor-data-start + its offset, sized by its ggml type, with no
// metadata. Key/value pairs are skipped except general.alignment.
//
// Counts come from the file and are not trusted: every loop consumes bytes
// it has checked are there (a key/value pair at least 12, a tensor info at
// least 24), so a file claiming 2^60 pairs fails at the end of its bytes;
// array sizes are multiplied with overflow checks.
#include <cinttypes>
#include <vector>

#include "runtime/base/endian.h"
#include "runtime/io/parsers_internal.h"

namespace ember::io {
namespace {

constexpr uint32_t kGgufMagic = 0x46554747u;  // "GGUF"
constexpr uint32_t kDefaultAlignment = 32;

// ggml tensor types IREE knows: elements per block and bytes per block.
// Types 4 and 5 (removed from ggml) and anything past I32 are refused.
struct TypeTraits {
  uint32_t block_size;
  uint32_t block_bytes;
};
constexpr TypeTraits kTypeTraits[] = {
    {1, 4},      // 0 F32
    {1, 2},      // 1 F16
    {32, 18},    // 2 Q4_0
    {32, 20},    // 3 Q4_1
    {0, 0},      // 4 (Q4_2, removed)
    {0, 0},      // 5 (Q4_3, removed)
    {32, 22},    // 6 Q5_0
    {32, 24},    // 7 Q5_1
    {32, 34},    // 8 Q8_0
    {32, 40},    // 9 Q8_1
    {256, 84},   // 10 Q2_K
    {256, 110},  // 11 Q3_K
    {256, 144},  // 12 Q4_K
    {256, 176},  // 13 Q5_K
    {256, 210},  // 14 Q6_K
    {256, 292},  // 15 Q8_K
    {1, 1},      // 16 I8
    {1, 2},      // 17 I16
    {1, 4},      // 18 I32
};
constexpr uint32_t kTypeCount = sizeof(kTypeTraits) / sizeof(kTypeTraits[0]);

enum ValueType : uint32_t {
  kUint8 = 0,
  kInt8 = 1,
  kUint16 = 2,
  kInt16 = 3,
  kUint32 = 4,
  kInt32 = 5,
  kFloat32 = 6,
  kBool = 7,
  kString = 8,
  kArray = 9,
  kUint64 = 10,
  kInt64 = 11,
  kFloat64 = 12,
};
// Bytes of a scalar value type; 0 for strings, arrays and unknown types.
uint64_t ScalarSize(uint32_t type) {
  switch (type) {
    case kUint8:
    case kInt8:
    case kBool: return 1;
    case kUint16:
    case kInt16: return 2;
    case kUint32:
    case kInt32:
    case kFloat32: return 4;
    case kUint64:
    case kInt64:
    case kFloat64: return 8;
    default: return 0;
  }
}

struct Cursor {
  const uint8_t* begin;
  uint64_t size;
  uint64_t position = 0;

  uint64_t left() const { return size - position; }
  Status Need(uint64_t bytes, const char* what) {
    if (bytes > left()) {
      return OutOfRangeError(
          StringPrintf("file truncated reading %s at offset %" PRIu64
                       " (need %" PRIu64 " bytes, %" PRIu64 " left)",
                       what, position, bytes, left()));
    }
    return Status();
  }
  Result<uint32_t> U32(const char* what) {
    EMBER_RETURN_IF_ERROR(Need(4, what));
    uint32_t value = LoadLE<uint32_t>(begin + position);
    position += 4;
    return value;
  }
  Result<uint64_t> U64(const char* what) {
    EMBER_RETURN_IF_ERROR(Need(8, what));
    uint64_t value = LoadLE<uint64_t>(begin + position);
    position += 8;
    return value;
  }
  // `count` elements of `element_size` bytes, skipped; returns their start.
  Result<const uint8_t*> Array(uint64_t count, uint64_t element_size,
                               const char* what) {
    if (element_size != 0 && count > UINT64_MAX / element_size) {
      return OutOfRangeError(StringPrintf(
          "%s of %" PRIu64 " elements at offset %" PRIu64 " overflows", what,
          count, position));
    }
    EMBER_RETURN_IF_ERROR(Need(count * element_size, what));
    const uint8_t* start = begin + position;
    position += count * element_size;
    return start;
  }
  Result<std::string_view> String(const char* what) {
    EMBER_ASSIGN_OR_RETURN(uint64_t length, U64(what));
    EMBER_ASSIGN_OR_RETURN(const uint8_t* start, Array(length, 1, what));
    return std::string_view(reinterpret_cast<const char*>(start),
                            static_cast<size_t>(length));
  }
};

Status SkipValue(Cursor& cursor, uint32_t type, uint32_t* out_uint32) {
  if (uint64_t size = ScalarSize(type); size != 0) {
    if (type == kUint32) {
      EMBER_ASSIGN_OR_RETURN(*out_uint32, cursor.U32("a uint32 value"));
      return Status();
    }
    return cursor.Array(1, size, "a metadata value").status();
  }
  switch (type) {
    case kString: return cursor.String("a string value").status();
    case kArray: {
      EMBER_ASSIGN_OR_RETURN(uint32_t element_type,
                             cursor.U32("an array element type"));
      EMBER_ASSIGN_OR_RETURN(uint64_t count, cursor.U64("an array length"));
      if (uint64_t size = ScalarSize(element_type); size != 0) {
        return cursor.Array(count, size, "an array").status();
      }
      if (element_type == kString) {
        // Each string takes at least its 8-byte length, so this ends
        // within left()/8 steps.
        for (uint64_t i = 0; i < count; ++i) {
          EMBER_RETURN_IF_ERROR(cursor.String("an array string"));
        }
        return Status();
      }
      if (element_type == kArray) {
        return InvalidArgumentError("nested arrays not supported in gguf");
      }
      return InvalidArgumentError(StringPrintf(
          "unsupported metadata array element type %u", element_type));
    }
    default:
      return InvalidArgumentError(
          StringPrintf("unsupported metadata value type %u", type));
  }
}

struct TensorInfo {
  std::string_view name;
  uint64_t element_count = 1;
  bool element_count_overflow = false;
  uint32_t type = 0;
  uint64_t offset = 0;
};

Result<TensorInfo> ReadTensorInfo(Cursor& cursor) {
  TensorInfo info;
  EMBER_ASSIGN_OR_RETURN(info.name, cursor.String("a tensor name"));
  EMBER_ASSIGN_OR_RETURN(uint32_t rank, cursor.U32("a tensor rank"));
  EMBER_ASSIGN_OR_RETURN(const uint8_t* dims,
                         cursor.Array(rank, 8, "tensor dimensions"));
  for (uint32_t i = 0; i < rank; ++i) {
    uint64_t dim = LoadLE<uint64_t>(dims + 8 * uint64_t{i});
    if (__builtin_mul_overflow(info.element_count, dim, &info.element_count)) {
      info.element_count_overflow = true;
    }
  }
  EMBER_ASSIGN_OR_RETURN(info.type, cursor.U32("a tensor type"));
  EMBER_ASSIGN_OR_RETURN(info.offset, cursor.U64("a tensor offset"));
  return info;
}

Status Parse(const Ref<FileHandle>& file, std::vector<ParameterEntry>& out) {
  Cursor cursor{file->bytes().data(), file->length()};
  EMBER_ASSIGN_OR_RETURN(uint32_t magic, cursor.U32("the magic"));
  if (magic != kGgufMagic) {
    return InvalidArgumentError(
        StringPrintf("GGUF file magic missing or invalid %08X; expected %08X",
                     magic, kGgufMagic));
  }
  EMBER_ASSIGN_OR_RETURN(uint32_t version, cursor.U32("the version"));
  if (version < 2 || version > 3) {
    return UnimplementedError(StringPrintf(
        "GGUF format version %u is unsupported; expected version 2-3",
        version));
  }
  EMBER_ASSIGN_OR_RETURN(uint64_t tensor_count, cursor.U64("the tensor count"));
  EMBER_ASSIGN_OR_RETURN(uint64_t kv_count, cursor.U64("the metadata count"));
  if (tensor_count == 0) return Status();  // as IREE: nothing else is read

  uint32_t alignment = kDefaultAlignment;
  // Each pair consumes at least 12 bytes or fails, so the loop is bounded by
  // the file size whatever kv_count claims.
  for (uint64_t i = 0; i < kv_count; ++i) {
    EMBER_ASSIGN_OR_RETURN(std::string_view key,
                           cursor.String("a metadata key"),
                           "reading metadata pair %" PRIu64, i);
    EMBER_ASSIGN_OR_RETURN(uint32_t type, cursor.U32("a metadata value type"),
                           "reading metadata pair %" PRIu64, i);
    uint32_t uint32_value = 0;
    EMBER_RETURN_IF_ERROR(SkipValue(cursor, type, &uint32_value),
                          "reading metadata pair %" PRIu64 " (`%.*s`)", i,
                          static_cast<int>(std::min<size_t>(key.size(), 200)),
                          key.data());
    if (key == "general.alignment") {
      if (type != kUint32) {
        return InvalidArgumentError(
            "general.alignment metadata value must be uint32");
      }
      // IREE aligns with (x + a - 1) & ~(a - 1); 0 would place the tensor
      // data at offset 0, over the header, so it is refused here.
      if (uint32_value == 0) {
        return InvalidArgumentError("general.alignment must not be 0");
      }
      alignment = uint32_value;
    }
  }

  // First pass: find where the tensor infos end (the data starts at the
  // next multiple of the alignment).
  uint64_t infos_begin = cursor.position;
  for (uint64_t i = 0; i < tensor_count; ++i) {
    EMBER_RETURN_IF_ERROR(ReadTensorInfo(cursor),
                          "reading tensor info %" PRIu64, i);
  }
  uint64_t mask = uint64_t{alignment} - 1;
  uint64_t data_offset = (cursor.position + mask) & ~mask;
  if (data_offset < cursor.position || data_offset > cursor.size) {
    return OutOfRangeError(StringPrintf("tensor data would start at %" PRIu64
                                        ", past the end of the file (%" PRIu64
                                        " bytes)",
                                        data_offset, cursor.size));
  }
  uint64_t data_size = cursor.size - data_offset;

  cursor.position = infos_begin;
  out.reserve(static_cast<size_t>(std::min<uint64_t>(tensor_count, 1 << 16)));
  for (uint64_t i = 0; i < tensor_count; ++i) {
    EMBER_ASSIGN_OR_RETURN(TensorInfo info, ReadTensorInfo(cursor));
    if (info.type >= kTypeCount || kTypeTraits[info.type].block_size == 0) {
      return UnimplementedError(StringPrintf(
          "tensor %" PRIu64 " (`%.*s`): GGML tensor type %u not supported", i,
          static_cast<int>(std::min<size_t>(info.name.size(), 200)),
          info.name.data(), info.type));
    }
    const TypeTraits& traits = kTypeTraits[info.type];
    uint64_t bytes = 0;
    if (info.element_count_overflow ||
        __builtin_mul_overflow(info.element_count, traits.block_bytes,
                               &bytes)) {
      return OutOfRangeError(StringPrintf(
          "tensor %" PRIu64 " (`%.*s`): size overflows 64 bits", i,
          static_cast<int>(std::min<size_t>(info.name.size(), 200)),
          info.name.data()));
    }
    bytes /= traits.block_size;
    if (info.offset > data_size || bytes > data_size - info.offset) {
      return InvalidArgumentError(StringPrintf(
          "tensor %" PRIu64
          " (`%.*s`) has data offsets outside of the "
          "available data (begin=%" PRIu64 ", length=%" PRIu64
          ", available=%" PRIu64 ")",
          i, static_cast<int>(std::min<size_t>(info.name.size(), 200)),
          info.name.data(), info.offset, bytes, data_size));
    }
    ParameterEntry entry;
    entry.key.assign(info.name);
    entry.kind = ParameterEntry::Kind::kFile;
    entry.file = file;
    entry.offset = data_offset + info.offset;
    entry.length = bytes;
    out.push_back(std::move(entry));
  }
  return Status();
}

}  // namespace

Status ParseGguf(const Ref<FileHandle>& file, ParameterIndex& index) {
  std::vector<ParameterEntry> entries;
  EMBER_RETURN_IF_ERROR(Parse(file, entries));
  return index.AddAll(std::move(entries));
}

}  // namespace ember::io
