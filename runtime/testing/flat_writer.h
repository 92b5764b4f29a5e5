// Test helper: a front-to-back FlatBuffer writer for hand-built module files
// (shapes the compiler never emits: hostile sharing, cycles, huge counts).
//
// Offsets are unsigned and point forward, so a parent is written first and
// its offset words are linked to a child once the child is placed; many
// words may be linked to one child (shared objects). Table fields are all 4
// bytes wide.
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string_view>
#include <vector>

#include "runtime/base/endian.h"

namespace ember::testing {

class FlatWriter {
 public:
  // Starts with the root offset word (link it with Link(0, root)) and the
  // "IREE" file identifier.
  FlatWriter() : bytes_{0, 0, 0, 0, 'I', 'R', 'E', 'E'} {}

  size_t size() const { return bytes_.size(); }
  size_t Align(size_t alignment) {
    while (bytes_.size() % alignment) bytes_.push_back(0);
    return bytes_.size();
  }
  size_t U32(uint32_t value) {
    const size_t at = Align(4);
    bytes_.resize(at + 4);
    Put32(at, value);
    return at;
  }
  void Put16(size_t at, uint16_t value) {
    if (bytes_.size() < at + 2) bytes_.resize(at + 2);
    StoreLE(&bytes_[at], value);
  }
  void Put32(size_t at, uint32_t value) { StoreLE(&bytes_[at], value); }
  // Points the uoffset word at `at` to `target` (which must follow it).
  void Link(size_t at, size_t target) {
    Put32(at, static_cast<uint32_t>(target - at));
  }

  // A table of 4-byte words, word k in vtable slot `slots[k]`; returns its
  // position (word k lives at position + 4 + 4 * k).
  size_t Table(const std::vector<int>& slots) {
    int max_slot = -1;
    for (int slot : slots) max_slot = std::max(max_slot, slot);
    std::vector<uint16_t> fields(static_cast<size_t>(max_slot + 1), 0);
    for (size_t k = 0; k < slots.size(); ++k) {
      fields[static_cast<size_t>(slots[k])] = static_cast<uint16_t>(4 + 4 * k);
    }
    Align(2);
    const size_t vtable = bytes_.size();
    Push16(static_cast<uint16_t>(4 + 2 * fields.size()));
    Push16(static_cast<uint16_t>(4 + 4 * slots.size()));
    for (uint16_t field : fields) Push16(field);
    const size_t at = U32(0);
    Put32(at, static_cast<uint32_t>(at - vtable));  // soffset to the vtable
    for (size_t k = 0; k < slots.size(); ++k) U32(0);
    return at;
  }
  // A table with a word for every slot in [0, slot_count), of which those in
  // `present` are set in the vtable; slot s lives at Field(position, s).
  size_t TableWithAllSlots(int slot_count, std::initializer_list<int> present) {
    Align(2);
    const size_t vtable = bytes_.size();
    Push16(static_cast<uint16_t>(4 + 2 * slot_count));
    Push16(static_cast<uint16_t>(4 + 4 * slot_count));
    for (int slot = 0; slot < slot_count; ++slot) {
      const bool set =
          std::find(present.begin(), present.end(), slot) != present.end();
      Push16(set ? static_cast<uint16_t>(4 + 4 * slot) : uint16_t{0});
    }
    const size_t at = U32(0);
    Put32(at, static_cast<uint32_t>(at - vtable));
    for (int slot = 0; slot < slot_count; ++slot) U32(0);
    return at;
  }
  static size_t Field(size_t table, int slot) {
    return table + 4 + 4 * static_cast<size_t>(slot);
  }

  size_t String(std::string_view text) {
    const size_t at = U32(static_cast<uint32_t>(text.size()));
    bytes_.insert(bytes_.end(), text.begin(), text.end());
    bytes_.push_back(0);
    return at;
  }
  // A vector of `count` offsets (element i at position + 4 + 4 * i).
  size_t OffsetVector(size_t count) {
    const size_t at = U32(static_cast<uint32_t>(count));
    for (size_t i = 0; i < count; ++i) U32(0);
    return at;
  }
  // A vector of `count` zeroed elements of `element_size` bytes (element i
  // at position + 4 + element_size * i).
  size_t Vector(uint32_t count, size_t element_size) {
    const size_t at = U32(count);
    bytes_.resize(bytes_.size() + count * element_size);
    return at;
  }
  // A vector of `count` scalars or structs whose bytes are `data`.
  size_t ScalarVector(std::span<const uint8_t> data, size_t count) {
    const size_t at = U32(static_cast<uint32_t>(count));
    bytes_.insert(bytes_.end(), data.begin(), data.end());
    return at;
  }

  // The module archive: a u32 size prefix, the FlatBuffer, padding to 64.
  std::vector<uint8_t> Archive() {
    Align(4);
    // Sized once and filled in place: growing a 4-byte vector by insert()
    // trips GCC 12's -Warray-bounds at -O2 and above.
    std::vector<uint8_t> out((4 + bytes_.size() + 63) / 64 * 64, 0);
    StoreLE(out.data(), static_cast<uint32_t>(bytes_.size()));
    std::copy(bytes_.begin(), bytes_.end(), out.begin() + 4);
    return out;
  }

 private:
  void Push16(uint16_t value) {
    const size_t at = bytes_.size();
    bytes_.resize(at + 2);
    StoreLE(&bytes_[at], value);
  }

  std::vector<uint8_t> bytes_;
};

}  // namespace ember::testing
