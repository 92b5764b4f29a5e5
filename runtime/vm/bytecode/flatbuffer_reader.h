// FlatBufferReader: bounds-checked reads of an untrusted FlatBuffer.
//
// Ember does not trust a single byte of a module file, so nothing reads the
// FlatBuffer directly. The typed parser (module_def.cc) walks the schema once
// through this reader, which checks every offset, vtable, string and vector
// against the buffer before it is used and turns any violation into a Status
// naming the schema path being read ("function_signatures[3].attrs[0].key")
// and the byte offset. After that walk the parsed views are plain C++ values.
//
// Two defences beyond bounds: a string must be NUL-terminated inside the
// buffer (FlatBuffers guarantees it, so a missing one means corruption), and
// the number of tables, vectors and strings visited is capped by a budget
// proportional to the buffer size (one unit per 4 bytes). A well-formed file
// never visits an object twice except shared strings; a hostile file that
// points many offsets at the same large subtree would otherwise make the walk
// quadratic. Vectors of scalars or structs whose elements the parser copies
// are charged for their elements too (ScalarVector), since sharing one long
// vector among many parents multiplies the copying just the same.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/base/endian.h"
#include "runtime/base/status.h"

namespace ember::vm::bytecode {

class FlatBufferReader;

// A verified table: its position and vtable, with the slot count known to be
// inside the buffer.
struct FlatTable {
  uint32_t offset = 0;       // table start (soffset to vtable lives here)
  uint32_t vtable = 0;       // vtable start
  uint16_t vtable_size = 0;  // bytes, including the two u16 headers
  uint16_t inline_size = 0;  // bytes of the table's inline data
  bool present = false;
};

// A verified vector: `count` elements of `element_size` bytes from `data`.
struct FlatVector {
  uint32_t data = 0;  // offset of element 0
  uint32_t count = 0;
  bool present = false;
};

class FlatBufferReader {
 public:
  explicit FlatBufferReader(std::span<const uint8_t> buffer);

  std::span<const uint8_t> buffer() const { return buffer_; }

  // Reads the root table and checks the 4-byte file identifier.
  Result<FlatTable> Root(std::string_view file_identifier);

  // Scalar field `slot` of `table`, or `default_value` when absent.
  template <typename T>
  Result<T> Scalar(const FlatTable& table, int slot, T default_value);

  // Whether offset field `slot` is set (without following it).
  Result<bool> HasOffset(const FlatTable& table, int slot) {
    EMBER_ASSIGN_OR_RETURN(uint32_t at, FieldOffset(table, slot, 4));
    return at != 0;
  }

  // Offset fields. Absent fields yield !present (or an empty string view via
  // `present` out-parameter).
  Result<FlatTable> Table(const FlatTable& table, int slot);
  Result<std::string_view> String(const FlatTable& table, int slot,
                                  bool* present = nullptr);
  Result<FlatVector> Vector(const FlatTable& table, int slot,
                            size_t element_size);
  // A vector of scalars or structs whose elements the caller copies or
  // iterates. Besides the vector itself this charges one budget unit per 4
  // bytes of element data (the rate at which the buffer earns budget), so a
  // well-formed file, which stores each such vector once, stays within the
  // budget, while many offsets sharing one long vector run out of it instead
  // of multiplying the copy.
  Result<FlatVector> ScalarVector(const FlatTable& table, int slot,
                                  size_t element_size);

  // Elements of verified vectors.
  Result<FlatTable> TableAt(const FlatVector& vector, uint32_t index);
  Result<std::string_view> StringAt(const FlatVector& vector, uint32_t index);
  template <typename T>
  T ScalarAt(const FlatVector& vector, uint32_t index) const {
    return LoadLE<T>(buffer_.data() + vector.data + size_t{index} * sizeof(T));
  }
  std::span<const uint8_t> Bytes(const FlatVector& vector,
                                 size_t element_size) const {
    return buffer_.subspan(vector.data, size_t{vector.count} * element_size);
  }

  // Schema path tracking for error messages. Push before reading a field,
  // pop after; Scope does both.
  class Scope {
   public:
    Scope(FlatBufferReader& reader, const char* name, int64_t index = -1)
        : reader_(reader) {
      reader_.path_.push_back({name, index});
    }
    ~Scope() { reader_.path_.pop_back(); }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    FlatBufferReader& reader_;
  };

  // An INVALID_ARGUMENT error naming the current path and `offset`.
  Status Error(uint64_t offset, const char* format, ...)
      __attribute__((format(printf, 3, 4)));
  std::string Path() const;

 private:
  struct PathEntry {
    const char* name;
    int64_t index;
  };

  bool InBounds(uint64_t offset, uint64_t length) const {
    return offset <= buffer_.size() && length <= buffer_.size() - offset;
  }
  template <typename T>
  T Load(uint64_t offset) const {
    return LoadLE<T>(buffer_.data() + offset);
  }
  // Spends `units` of the object budget on the object at `offset`.
  Status Charge(uint32_t offset, uint64_t units = 1);
  // Returns the byte offset of the field in `slot`, or 0 when absent, after
  // checking that `field_size` bytes fit inside the table's inline data.
  Result<uint32_t> FieldOffset(const FlatTable& table, int slot,
                               size_t field_size);
  Result<uint32_t> FollowOffset(uint32_t at);
  Result<FlatTable> TableAtOffset(uint32_t offset);
  Result<std::string_view> StringAtOffset(uint32_t offset);

  std::span<const uint8_t> buffer_;
  std::vector<PathEntry> path_;
  uint64_t budget_;
};

template <typename T>
Result<T> FlatBufferReader::Scalar(const FlatTable& table, int slot,
                                   T default_value) {
  EMBER_ASSIGN_OR_RETURN(uint32_t at, FieldOffset(table, slot, sizeof(T)));
  if (at == 0) return default_value;
  return Load<T>(at);
}

}  // namespace ember::vm::bytecode
