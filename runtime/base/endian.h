// Little-endian loads and stores at any alignment: how Ember reads and
// writes the formats it shares with IREE (bytecode, FlatBuffers, the module
// archive header, buffer contents).
//
// A fixed-size memcpy compiles to one plain load or store, so these cost
// nothing on the interpreter's hot path, and they are well defined on
// unaligned bytes where a cast pointer would not be.
#pragma once

#include <bit>
#include <cstring>
#include <type_traits>

namespace ember {

// The formats are little-endian and so are all hosts Ember runs on; the
// loads below would need byte swaps on any other.
static_assert(std::endian::native == std::endian::little,
              "Ember reads little-endian data with plain loads");

template <typename T>
inline T LoadLE(const void* bytes) {
  static_assert(std::is_trivially_copyable_v<T>);
  T value;
  std::memcpy(&value, bytes, sizeof(T));
  return value;
}

template <typename T>
inline void StoreLE(void* bytes, T value) {
  static_assert(std::is_trivially_copyable_v<T>);
  std::memcpy(bytes, &value, sizeof(T));
}

}  // namespace ember
