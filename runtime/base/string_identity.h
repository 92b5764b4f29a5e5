// StringIdentity: a string identified by where it lies (first byte and
// length), not by its contents, so hashing and comparing one costs O(1)
// however long it is.
//
// A module file can point any number of references at one string (FlatBuffer
// offsets may alias). Work that reads a string in full -- parsing a cconv,
// scanning or hashing a name -- is done once per StringIdentity, which keeps
// it proportional to the file's bytes instead of to the references.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>

namespace ember {

struct StringIdentity {
  const char* data = nullptr;
  size_t size = 0;

  StringIdentity() = default;
  explicit StringIdentity(std::string_view text)
      : data(text.data()), size(text.size()) {}
  bool operator==(const StringIdentity&) const = default;
};

struct StringIdentityHash {
  size_t operator()(const StringIdentity& key) const {
    return std::hash<const void*>()(key.data) ^
           (key.size * uint64_t{0x9E3779B97F4A7C15});
  }
};

}  // namespace ember
