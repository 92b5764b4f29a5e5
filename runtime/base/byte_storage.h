// ByteStorage: an immutable run of bytes with an owner, the unit in which
// Ember holds module files.
//
// A module is used in place (bytecode, embedded constants, external rodata),
// so its bytes must stay put and stay alive for as long as anything loaded
// from it exists. ByteStorage says who owns them -- an aligned heap copy, a
// read-only file mapping, or memory owned by someone else (a Python buffer)
// whose release callback runs when the last user lets go -- and makes every
// kind look the same to the loader. Copies and mappings are aligned to
// kStorageAlignment (64 bytes), as IREE's archive format requires of
// everything used in place.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>

#include "runtime/base/status.h"

namespace ember {

inline constexpr size_t kStorageAlignment = 64;

class ByteStorage {
 public:
  enum class Kind { kHeapCopy, kFileMapping, kExternal };

  ByteStorage(const ByteStorage&) = delete;
  ByteStorage& operator=(const ByteStorage&) = delete;
  ~ByteStorage();

  // Copies `bytes` into fresh 64-byte-aligned memory.
  static Result<std::shared_ptr<const ByteStorage>> CopyOf(
      std::span<const uint8_t> bytes);

  // Maps `path` read-only. An empty file yields an empty storage.
  static Result<std::shared_ptr<const ByteStorage>> MapFile(
      const std::string& path);

  // Wraps memory owned elsewhere without copying. `release` runs exactly once,
  // when the storage is destroyed (also when this call fails). The memory must
  // not change while the storage lives.
  static Result<std::shared_ptr<const ByteStorage>> WrapExternal(
      std::span<const uint8_t> bytes, std::function<void()> release);

  // A private, writable view of `bytes`, which must lie inside a live file
  // mapping made by MapFile: the same file pages, copied page by page only
  // where the view is written (copy-on-write), so the storage itself never
  // changes. What a program that may write into its constants gets instead
  // of a copy: no bytes move until one is written. Null (no error) when
  // `bytes` is not inside a file mapping; the caller then copies.
  // `unmap` the view when done.
  struct PrivateView {
    uint8_t* data = nullptr;  // `bytes`' first byte in the view
    void* mapping = nullptr;  // what to unmap
    size_t mapping_size = 0;
  };
  static Result<PrivateView> MapPrivateView(std::span<const uint8_t> bytes);
  static void UnmapPrivateView(const PrivateView& view);

  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  std::span<const uint8_t> span() const { return {data_, size_}; }
  Kind kind() const { return kind_; }

 private:
  ByteStorage(Kind kind, const uint8_t* data, size_t size,
              std::function<void()> release)
      : kind_(kind), data_(data), size_(size), release_(std::move(release)) {}

  Kind kind_;
  const uint8_t* data_;
  size_t size_;
  std::function<void()> release_;
};

}  // namespace ember
