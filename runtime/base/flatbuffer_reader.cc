#include "runtime/base/flatbuffer_reader.h"

#include <algorithm>
#include <cstdarg>
#include <cstring>

namespace ember {

FlatBufferReader::FlatBufferReader(std::span<const uint8_t> buffer)
    : buffer_(buffer), budget_(buffer.size() / 4 + 64) {}

std::string FlatBufferReader::Path() const {
  std::string path;
  for (size_t i = 0; i < std::min(depth_, kMaxPathDepth); ++i) {
    const PathEntry& entry = path_[i];
    if (!path.empty() && entry.name[0] != '\0') path += '.';
    path += entry.name;
    if (entry.index >= 0) {
      path += '[';
      path += std::to_string(entry.index);
      path += ']';
    }
  }
  return path.empty() ? std::string("<root>") : path;
}

Status FlatBufferReader::Error(uint64_t offset, const char* format, ...) {
  va_list args;
  va_start(args, format);
  std::string detail = StringPrintfV(format, args);
  va_end(args);
  return InvalidArgumentError(StringPrintf(
      "malformed module FlatBuffer at %s (offset 0x%llx of %zu bytes): %s",
      Path().c_str(), static_cast<unsigned long long>(offset), buffer_.size(),
      detail.c_str()));
}

// The checked paths: the public reads run these only when their fast path
// (flatbuffer_reader.h) finds something wrong, to say what.

Result<uint32_t> FlatBufferReader::FollowOffset(uint32_t at) {
  if (!InBounds(at, 4)) return Error(at, "offset field runs past the end");
  uint64_t target = uint64_t{at} + Load<uint32_t>(at);
  if (target == at) return Error(at, "offset field points at itself");
  if (target >= buffer_.size()) {
    return Error(at, "offset 0x%llx points past the end",
                 static_cast<unsigned long long>(target));
  }
  return static_cast<uint32_t>(target);
}

Result<FlatTable> FlatBufferReader::TableAtOffset(uint32_t offset) {
  EMBER_RETURN_IF_ERROR(Charge(offset));
  if (!InBounds(offset, 4) || offset % 4 != 0) {
    return Error(offset, "table is out of bounds or misaligned");
  }
  int64_t vtable = int64_t{offset} - Load<int32_t>(offset);
  if (vtable < 0 || !InBounds(static_cast<uint64_t>(vtable), 4) ||
      vtable % 2 != 0) {
    return Error(offset, "table's vtable offset %lld is out of bounds",
                 static_cast<long long>(vtable));
  }
  FlatTable table;
  table.offset = offset;
  table.vtable = static_cast<uint32_t>(vtable);
  table.vtable_size = Load<uint16_t>(table.vtable);
  table.inline_size = Load<uint16_t>(table.vtable + 2);
  if (table.vtable_size < 4 || table.vtable_size % 2 != 0 ||
      !InBounds(table.vtable, table.vtable_size)) {
    return Error(table.vtable, "vtable size %u is invalid", table.vtable_size);
  }
  if (table.inline_size < 4 || !InBounds(offset, table.inline_size)) {
    return Error(offset, "table inline size %u runs past the end",
                 table.inline_size);
  }
  table.present = true;
  return table;
}

Result<uint32_t> FlatBufferReader::FieldOffset(const FlatTable& table, int slot,
                                               size_t field_size) {
  if (!table.present) return uint32_t{0};
  uint32_t entry = 4 + 2 * static_cast<uint32_t>(slot);
  if (entry + 2 > table.vtable_size) return uint32_t{0};
  uint16_t field = Load<uint16_t>(table.vtable + entry);
  if (field == 0) return uint32_t{0};
  if (field < 4 || field + field_size > table.inline_size) {
    return Error(table.offset + uint64_t{field},
                 "field in vtable slot %d lies outside its table", slot);
  }
  return table.offset + uint32_t{field};
}

Result<FlatTable> FlatBufferReader::TableChecked(const FlatTable& table,
                                                 int slot) {
  EMBER_ASSIGN_OR_RETURN(uint32_t at, FieldOffset(table, slot, 4));
  if (at == 0) return FlatTable{};
  EMBER_ASSIGN_OR_RETURN(uint32_t target, FollowOffset(at));
  return TableAtOffset(target);
}

Result<std::string_view> FlatBufferReader::StringAtOffset(uint32_t offset) {
  EMBER_RETURN_IF_ERROR(Charge(offset));
  if (!InBounds(offset, 4) || offset % 4 != 0) {
    return Error(offset, "string header is out of bounds or misaligned");
  }
  uint32_t length = Load<uint32_t>(offset);
  if (!InBounds(uint64_t{offset} + 4, uint64_t{length} + 1)) {
    return Error(offset, "string of %u bytes runs past the end", length);
  }
  if (buffer_[offset + 4 + length] != 0) {
    return Error(offset + 4 + uint64_t{length},
                 "string of %u bytes is not NUL-terminated", length);
  }
  return std::string_view(
      reinterpret_cast<const char*>(buffer_.data()) + offset + 4, length);
}

Result<std::string_view> FlatBufferReader::StringChecked(const FlatTable& table,
                                                         int slot,
                                                         bool* present) {
  if (present) *present = false;
  EMBER_ASSIGN_OR_RETURN(uint32_t at, FieldOffset(table, slot, 4));
  if (at == 0) return std::string_view();
  EMBER_ASSIGN_OR_RETURN(uint32_t target, FollowOffset(at));
  if (present) *present = true;
  return StringAtOffset(target);
}

Result<FlatVector> FlatBufferReader::VectorChecked(const FlatTable& table,
                                                   int slot,
                                                   size_t element_size) {
  EMBER_ASSIGN_OR_RETURN(uint32_t at, FieldOffset(table, slot, 4));
  if (at == 0) return FlatVector{};
  EMBER_ASSIGN_OR_RETURN(uint32_t offset, FollowOffset(at));
  EMBER_RETURN_IF_ERROR(Charge(offset));
  if (!InBounds(offset, 4) || offset % 4 != 0) {
    return Error(offset, "vector header is out of bounds or misaligned");
  }
  uint32_t count = Load<uint32_t>(offset);
  uint64_t available = buffer_.size() - (uint64_t{offset} + 4);
  if (count > available / element_size) {
    return Error(offset, "vector of %u elements of %zu bytes runs past the end",
                 count, element_size);
  }
  return FlatVector{offset + 4, count, true};
}

Result<FlatVector> FlatBufferReader::ScalarVectorChecked(const FlatTable& table,
                                                         int slot,
                                                         size_t element_size) {
  EMBER_ASSIGN_OR_RETURN(FlatVector vector,
                         VectorChecked(table, slot, element_size));
  if (!vector.present) return vector;
  // Vector() has checked that the elements fit in the buffer, so this cannot
  // overflow.
  uint64_t bytes = uint64_t{vector.count} * element_size;
  EMBER_RETURN_IF_ERROR(Charge(vector.data - 4, (bytes + 3) / 4));
  return vector;
}

Result<FlatTable> FlatBufferReader::TableAtChecked(const FlatVector& vector,
                                                   uint32_t index) {
  EMBER_ASSIGN_OR_RETURN(uint32_t target,
                         FollowOffset(vector.data + 4 * index));
  return TableAtOffset(target);
}

Result<std::string_view> FlatBufferReader::StringAtChecked(
    const FlatVector& vector, uint32_t index) {
  EMBER_ASSIGN_OR_RETURN(uint32_t target,
                         FollowOffset(vector.data + 4 * index));
  return StringAtOffset(target);
}

Status FlatBufferReader::BudgetExhausted(uint32_t offset) {
  budget_ = 0;
  return Error(offset,
               "too many objects for the buffer size (offsets share "
               "subtrees; a valid module never does this)");
}

Result<FlatTable> FlatBufferReader::Root(std::string_view file_identifier) {
  if (buffer_.size() < 8) {
    return Error(0, "buffer of %zu bytes is too small for a FlatBuffer",
                 buffer_.size());
  }
  if (std::memcmp(buffer_.data() + 4, file_identifier.data(), 4) != 0) {
    return Error(4, "file identifier is not \"%.*s\"",
                 static_cast<int>(file_identifier.size()),
                 file_identifier.data());
  }
  EMBER_ASSIGN_OR_RETURN(uint32_t root, FollowOffset(0));
  return TableAtOffset(root);
}

}  // namespace ember
