// FileHandle: the bytes of a parameter file (or of memory standing in for
// one), shared by every parameter entry that points into it.
//
// Parameter archives are used in place: an index entry is a (file, offset,
// length) triple and a program's constants alias the file's pages, so the
// handle maps the whole file once and lives as long as any entry, buffer or
// index refers to it (RefCounted). A read-only file goes through
// ByteStorage::MapFile so that ByteStorage::MapPrivateView can give a
// copy-on-write view of its bytes; a writable handle is a shared mapping whose
// writes reach the file. Host memory owned elsewhere (a Python buffer) is
// wrapped without a copy and released exactly once.
//
// Thread-safety: immutable after creation; the bytes themselves are not
// synchronised (writers of a writable handle coordinate among themselves).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>

#include "runtime/base/byte_storage.h"
#include "runtime/base/ref_counted.h"
#include "runtime/base/status.h"

namespace ember::io {

class FileHandle final : public RefCounted {
 public:
  // Maps the whole file at `path`: read-only (through ByteStorage::MapFile,
  // so ByteStorage::MapPrivateView works on its bytes for copy-on-write), or
  // a shared writable mapping when `writable`.
  static Result<Ref<FileHandle>> Open(const std::string& path, bool writable);

  // Host memory owned elsewhere; `release` runs exactly once when the handle
  // dies (also on failure).
  static Ref<FileHandle> WrapMemory(std::span<uint8_t> bytes, bool readable,
                                    bool writable,
                                    std::function<void()> release);

  // Maps the file open at `fd` (the handle dups it; the caller keeps its own
  // fd).
  static Result<Ref<FileHandle>> WrapFd(int fd, bool readable, bool writable);

  std::span<uint8_t> bytes() const { return {data_, size_}; }
  uint64_t length() const { return size_; }
  bool readable() const { return readable_; }
  bool writable() const { return writable_; }
  // True for WrapMemory handles.
  bool is_host_allocation() const { return kind_ == Kind::kHostMemory; }
  // The handle's own fd for Open/WrapFd, -1 otherwise.
  int fd() const { return fd_; }

  // The bytes [offset, offset + length), checked without overflow;
  // OUT_OF_RANGE when they do not lie inside the handle.
  Result<std::span<uint8_t>> Range(uint64_t offset, uint64_t length) const;

  ~FileHandle() override;

 private:
  enum class Kind : uint8_t { kReadOnlyMapping, kSharedMapping, kHostMemory };
  FileHandle() = default;

  Kind kind_ = Kind::kHostMemory;
  uint8_t* data_ = nullptr;
  uint64_t size_ = 0;
  bool readable_ = false;
  bool writable_ = false;
  int fd_ = -1;
  // kReadOnlyMapping: keeps the mapping alive.
  std::shared_ptr<const ByteStorage> storage_;
  // kSharedMapping: what to munmap (null for an empty file).
  void* mapping_ = nullptr;
  size_t mapping_size_ = 0;
  // kHostMemory.
  std::function<void()> release_;

  template <typename T, typename... Args>
  friend Ref<T> ember::MakeRef(Args&&... args);
};

}  // namespace ember::io
