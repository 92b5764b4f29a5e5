// FlatBufferReader: bounds-checked reads of an untrusted FlatBuffer.
//
// Ember does not trust a single byte of a module file or of an executable
// inside one, so nothing reads a FlatBuffer directly. A typed parser
// (vm/bytecode/module_def.cc for modules) walks the schema once through this
// reader, which checks every offset, vtable, string and vector against the
// buffer before it is used and turns any violation into a Status naming the
// schema path being read ("function_signatures[3].attrs[0].key") and the
// byte offset. After that walk the parsed views are plain C++ values.
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
//
// Speed: a module has a table or two per function and a location per few
// instructions, so each read first runs its checks inline as plain compares
// and only when one fails repeats them through the checked path, which
// builds the error. Both paths make the same checks and charge the budget
// the same, so a file is accepted or rejected exactly as by the checked path
// alone, with the same message.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "runtime/base/endian.h"
#include "runtime/base/status.h"

namespace ember {

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
      // Scopes nest as deep as the schema (a handful); a deeper one is
      // counted but left out of the path.
      if (reader_.depth_ < kMaxPathDepth) {
        reader_.path_[reader_.depth_] = {name, index};
      }
      ++reader_.depth_;
    }
    ~Scope() { --reader_.depth_; }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    FlatBufferReader& reader_;
  };

  // An INVALID_ARGUMENT error naming the current path and `offset`.
  Status Error(uint64_t offset, const char* format, ...)
      __attribute__((format(printf, 3, 4), cold));
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
  // Charge's error: empties the budget and says why.
  Status BudgetExhausted(uint32_t offset) __attribute__((cold));
  // Returns the byte offset of the field in `slot`, or 0 when absent, after
  // checking that `field_size` bytes fit inside the table's inline data.
  Result<uint32_t> FieldOffset(const FlatTable& table, int slot,
                               size_t field_size);
  Result<uint32_t> FollowOffset(uint32_t at);
  Result<FlatTable> TableAtOffset(uint32_t offset);
  Result<std::string_view> StringAtOffset(uint32_t offset);

  // The fast paths: true with the result when every check passes (and the
  // budget is charged), false -- having charged nothing -- otherwise.
  bool FastFieldOffset(const FlatTable& table, int slot, size_t field_size,
                       uint32_t* at) const;
  bool FastFollowOffset(uint32_t at, uint32_t* target) const;
  bool FastTableAtOffset(uint32_t offset, FlatTable* table);
  bool FastStringAtOffset(uint32_t offset, std::string_view* text);
  // `per_element` nonzero: also charge the elements, as ScalarVector does.
  bool FastVector(const FlatTable& table, int slot, size_t element_size,
                  uint64_t per_element, FlatVector* vector);

  // The checked paths of the public reads (the original checks, in order,
  // building the error).
  Result<FlatTable> TableChecked(const FlatTable& table, int slot);
  Result<std::string_view> StringChecked(const FlatTable& table, int slot,
                                         bool* present);
  Result<FlatVector> VectorChecked(const FlatTable& table, int slot,
                                   size_t element_size);
  Result<FlatVector> ScalarVectorChecked(const FlatTable& table, int slot,
                                         size_t element_size);
  Result<FlatTable> TableAtChecked(const FlatVector& vector, uint32_t index);
  Result<std::string_view> StringAtChecked(const FlatVector& vector,
                                           uint32_t index);
  template <typename T>
  Result<T> ScalarChecked(const FlatTable& table, int slot, T default_value);

  std::span<const uint8_t> buffer_;
  // The open Scopes, outermost first: a fixed array, because the parser
  // opens one per element of every vector.
  static constexpr size_t kMaxPathDepth = 16;
  PathEntry path_[kMaxPathDepth];
  size_t depth_ = 0;
  uint64_t budget_;
};

// The public reads (see "Speed" above): a fast path inlined into the parser,
// with no Status or Result built along the way and the budget charged only
// once every check has passed, falling back to the checked path (.cc) --
// the same checks in their original order -- to build the error.
#define EMBER_FLAT_INLINE inline __attribute__((always_inline))

EMBER_FLAT_INLINE Status FlatBufferReader::Charge(uint32_t offset,
                                                  uint64_t units) {
  if (__builtin_expect(budget_ < units, 0)) return BudgetExhausted(offset);
  budget_ -= units;
  return Status();
}

EMBER_FLAT_INLINE bool FlatBufferReader::FastFieldOffset(const FlatTable& table,
                                                         int slot,
                                                         size_t field_size,
                                                         uint32_t* at) const {
  *at = 0;
  if (!table.present) return true;
  const uint32_t entry = 4 + 2 * static_cast<uint32_t>(slot);
  if (entry + 2 > table.vtable_size) return true;
  const uint16_t field = Load<uint16_t>(table.vtable + entry);
  if (field == 0) return true;
  if (field < 4 || field + field_size > table.inline_size) return false;
  *at = table.offset + uint32_t{field};
  return true;
}

EMBER_FLAT_INLINE bool FlatBufferReader::FastFollowOffset(
    uint32_t at, uint32_t* target) const {
  if (!InBounds(at, 4)) return false;
  const uint64_t to = uint64_t{at} + Load<uint32_t>(at);
  if (to == at || to >= buffer_.size()) return false;
  *target = static_cast<uint32_t>(to);
  return true;
}

EMBER_FLAT_INLINE bool FlatBufferReader::FastTableAtOffset(uint32_t offset,
                                                           FlatTable* table) {
  if (!InBounds(offset, 4) || offset % 4 != 0) return false;
  const int64_t vtable = int64_t{offset} - Load<int32_t>(offset);
  if (vtable < 0 || !InBounds(static_cast<uint64_t>(vtable), 4) ||
      vtable % 2 != 0) {
    return false;
  }
  const uint16_t vtable_size = Load<uint16_t>(static_cast<uint64_t>(vtable));
  const uint16_t inline_size =
      Load<uint16_t>(static_cast<uint64_t>(vtable) + 2);
  if (vtable_size < 4 || vtable_size % 2 != 0 ||
      !InBounds(static_cast<uint64_t>(vtable), vtable_size) ||
      inline_size < 4 || !InBounds(offset, inline_size) || budget_ < 1) {
    return false;
  }
  --budget_;
  table->offset = offset;
  table->vtable = static_cast<uint32_t>(vtable);
  table->vtable_size = vtable_size;
  table->inline_size = inline_size;
  table->present = true;
  return true;
}

EMBER_FLAT_INLINE bool FlatBufferReader::FastStringAtOffset(
    uint32_t offset, std::string_view* text) {
  if (!InBounds(offset, 4) || offset % 4 != 0) return false;
  const uint32_t length = Load<uint32_t>(offset);
  if (!InBounds(uint64_t{offset} + 4, uint64_t{length} + 1) ||
      buffer_[offset + 4 + length] != 0 || budget_ < 1) {
    return false;
  }
  --budget_;
  *text = std::string_view(
      reinterpret_cast<const char*>(buffer_.data()) + offset + 4, length);
  return true;
}

EMBER_FLAT_INLINE Result<FlatTable> FlatBufferReader::Table(
    const FlatTable& table, int slot) {
  uint32_t at, target;
  FlatTable child;
  if (FastFieldOffset(table, slot, 4, &at)) {
    if (at == 0) return FlatTable{};
    if (FastFollowOffset(at, &target) && FastTableAtOffset(target, &child)) {
      return child;
    }
  }
  return TableChecked(table, slot);
}

EMBER_FLAT_INLINE Result<std::string_view> FlatBufferReader::String(
    const FlatTable& table, int slot, bool* present) {
  uint32_t at, target;
  std::string_view text;
  if (FastFieldOffset(table, slot, 4, &at)) {
    if (at == 0) {
      if (present) *present = false;
      return std::string_view();
    }
    if (FastFollowOffset(at, &target) && FastStringAtOffset(target, &text)) {
      if (present) *present = true;
      return text;
    }
  }
  return StringChecked(table, slot, present);
}

EMBER_FLAT_INLINE bool FlatBufferReader::FastVector(const FlatTable& table,
                                                    int slot,
                                                    size_t element_size,
                                                    uint64_t per_element,
                                                    FlatVector* vector) {
  uint32_t at, offset;
  if (!FastFieldOffset(table, slot, 4, &at)) return false;
  if (at == 0) {
    *vector = FlatVector{};
    return true;
  }
  if (!FastFollowOffset(at, &offset) || !InBounds(offset, 4) ||
      offset % 4 != 0) {
    return false;
  }
  const uint32_t count = Load<uint32_t>(offset);
  const uint64_t available = buffer_.size() - (uint64_t{offset} + 4);
  if (count > available / element_size) return false;
  // The vector itself, and (ScalarVector) one unit per 4 bytes of elements.
  const uint64_t units =
      1 + (per_element ? (uint64_t{count} * element_size + 3) / 4 : 0);
  if (budget_ < units) return false;
  budget_ -= units;
  *vector = FlatVector{offset + 4, count, true};
  return true;
}

EMBER_FLAT_INLINE Result<FlatVector> FlatBufferReader::Vector(
    const FlatTable& table, int slot, size_t element_size) {
  FlatVector vector;
  if (FastVector(table, slot, element_size, 0, &vector)) return vector;
  return VectorChecked(table, slot, element_size);
}

EMBER_FLAT_INLINE Result<FlatVector> FlatBufferReader::ScalarVector(
    const FlatTable& table, int slot, size_t element_size) {
  FlatVector vector;
  if (FastVector(table, slot, element_size, 1, &vector)) return vector;
  return ScalarVectorChecked(table, slot, element_size);
}

EMBER_FLAT_INLINE Result<FlatTable> FlatBufferReader::TableAt(
    const FlatVector& vector, uint32_t index) {
  uint32_t target;
  FlatTable table;
  if (FastFollowOffset(vector.data + 4 * index, &target) &&
      FastTableAtOffset(target, &table)) {
    return table;
  }
  return TableAtChecked(vector, index);
}

EMBER_FLAT_INLINE Result<std::string_view> FlatBufferReader::StringAt(
    const FlatVector& vector, uint32_t index) {
  uint32_t target;
  std::string_view text;
  if (FastFollowOffset(vector.data + 4 * index, &target) &&
      FastStringAtOffset(target, &text)) {
    return text;
  }
  return StringAtChecked(vector, index);
}

template <typename T>
EMBER_FLAT_INLINE Result<T> FlatBufferReader::Scalar(const FlatTable& table,
                                                     int slot,
                                                     T default_value) {
  uint32_t at;
  if (FastFieldOffset(table, slot, sizeof(T), &at)) {
    return at == 0 ? default_value : Load<T>(at);
  }
  return ScalarChecked(table, slot, default_value);
}

template <typename T>
Result<T> FlatBufferReader::ScalarChecked(const FlatTable& table, int slot,
                                          T default_value) {
  EMBER_ASSIGN_OR_RETURN(uint32_t at, FieldOffset(table, slot, sizeof(T)));
  if (at == 0) return default_value;
  return Load<T>(at);
}

#undef EMBER_FLAT_INLINE

}  // namespace ember
