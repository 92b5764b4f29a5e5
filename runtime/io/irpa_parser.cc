// The IRPA reader: IREE's parameter archive, read as IREE 3.11's
// iree_io_parse_irpa_index reads it (same entries, offsets, errors), with
// every offset checked against the file without overflow.
#include <cinttypes>
#include <vector>

#include "runtime/base/endian.h"
#include "runtime/io/parsers_internal.h"

namespace ember::io {
namespace {

// A linked header chain longer than this is refused: each header rescans
// its own entry table, so an unbounded chain of headers sharing one table
// would cost time quadratic in the file size.
constexpr int kMaxLinkedHeaders = 64;

struct Range {
  uint64_t offset;
  uint64_t length;
};

Range LoadRange(const uint8_t* p) {
  return {LoadLE<uint64_t>(p), LoadLE<uint64_t>(p + 8)};
}

// offset + length <= limit, without overflow.
bool Fits(uint64_t offset, uint64_t length, uint64_t limit) {
  return offset <= limit && length <= limit - offset;
}

struct Reader {
  const Ref<FileHandle>& file;
  const uint8_t* data;
  uint64_t size;
  std::vector<ParameterEntry>& entries;

  Status VerifySegment(uint64_t base, Range range, const char* what) {
    if (range.length == 0) return Status();
    if (base > size || !Fits(range.offset, range.length, size - base)) {
      return OutOfRangeError(StringPrintf(
          "%s [%" PRIu64 ", +%" PRIu64 ") at archive offset %" PRIu64
          " lies outside the file of %" PRIu64 " bytes",
          what, range.offset, range.length, base, size));
    }
    return Status();
  }

  // A name or metadata reference into the metadata segment.
  Status ResolveMetadata(uint64_t base, Range segment, Range ref,
                         const char* what, std::string* out) {
    out->clear();
    if (ref.length == 0) return Status();
    if (!Fits(ref.offset, ref.length, segment.length)) {
      return OutOfRangeError(StringPrintf(
          "%s reference [%" PRIu64 ", +%" PRIu64
          ") lies outside the metadata segment of %" PRIu64 " bytes",
          what, ref.offset, ref.length, segment.length));
    }
    out->assign(reinterpret_cast<const char*>(data + base + segment.offset +
                                              ref.offset),
                static_cast<size_t>(ref.length));
    return Status();
  }

  Status ParseV0(uint64_t base) {
    const uint8_t* header = data + base;
    uint64_t entry_count = LoadLE<uint64_t>(header + 32);
    Range entry_segment = LoadRange(header + 40);
    Range metadata_segment = LoadRange(header + 56);
    Range storage_segment = LoadRange(header + 72);
    EMBER_RETURN_IF_ERROR(VerifySegment(base, entry_segment, "entry table"));
    EMBER_RETURN_IF_ERROR(
        VerifySegment(base, metadata_segment, "metadata segment"));
    EMBER_RETURN_IF_ERROR(
        VerifySegment(base, storage_segment, "storage segment"));

    uint64_t entry_offset = base + entry_segment.offset;
    uint64_t remaining = entry_segment.length;
    // Each entry takes at least 64 bytes of the verified table, so the loop
    // ends within table/64 steps whatever entry_count claims.
    for (uint64_t i = 0; i < entry_count; ++i) {
      if (remaining < irpa::kEntryHeaderSize) {
        return OutOfRangeError(
            StringPrintf("entry %" PRIu64 ": entry table truncated (%" PRIu64
                         " bytes left, an entry header takes %" PRIu64 ")",
                         i, remaining, irpa::kEntryHeaderSize));
      }
      const uint8_t* entry = data + entry_offset;
      uint64_t entry_size = LoadLE<uint64_t>(entry);
      if (entry_size < irpa::kEntryHeaderSize || remaining < entry_size) {
        return OutOfRangeError(StringPrintf(
            "entry %" PRIu64 ": entry size %" PRIu64
            " is smaller than its header or larger than the %" PRIu64
            " bytes left in the entry table",
            i, entry_size, remaining));
      }
      uint64_t aligned = (entry_size + irpa::kEntryAlignment - 1) &
                         ~(irpa::kEntryAlignment - 1);
      entry_offset += aligned;
      remaining = aligned > remaining ? 0 : remaining - aligned;

      uint32_t type = LoadLE<uint32_t>(entry + 8);
      ParameterEntry parsed;
      EMBER_RETURN_IF_ERROR(
          ResolveMetadata(base, metadata_segment, LoadRange(entry + 20), "name",
                          &parsed.key),
          "resolving the name of entry %" PRIu64, i);
      EMBER_RETURN_IF_ERROR(
          ResolveMetadata(base, metadata_segment, LoadRange(entry + 36),
                          "metadata", &parsed.metadata),
          "resolving the metadata of entry %" PRIu64, i);
      switch (type) {
        case irpa::kSkip: break;
        case irpa::kSplat: {
          if (entry_size < irpa::kSplatEntrySize) {
            return OutOfRangeError(
                StringPrintf("entry %" PRIu64 ": splat entry of %" PRIu64
                             " bytes is shorter than %" PRIu64,
                             i, entry_size, irpa::kSplatEntrySize));
          }
          uint8_t pattern_length = entry[84];
          if (pattern_length > kMaxSplatPatternLength) {
            return InvalidArgumentError(StringPrintf(
                "entry %" PRIu64 ": splat pattern length %u exceeds %zu", i,
                pattern_length, kMaxSplatPatternLength));
          }
          parsed.kind = ParameterEntry::Kind::kSplat;
          parsed.length = LoadLE<uint64_t>(entry + 60);
          std::memcpy(parsed.pattern.data(), entry + 68, pattern_length);
          parsed.pattern_length = pattern_length;
          entries.push_back(std::move(parsed));
          break;
        }
        case irpa::kData: {
          if (entry_size < irpa::kDataEntrySize) {
            return OutOfRangeError(
                StringPrintf("entry %" PRIu64 ": data entry of %" PRIu64
                             " bytes is shorter than %" PRIu64,
                             i, entry_size, irpa::kDataEntrySize));
          }
          Range storage = LoadRange(entry + 60);
          uint64_t offset = 0;
          if (storage.length != 0) {
            if (!Fits(storage.offset, storage.length, storage_segment.length)) {
              return OutOfRangeError(StringPrintf(
                  "entry %" PRIu64 ": storage [%" PRIu64 ", +%" PRIu64
                  ") lies outside the storage segment of %" PRIu64 " bytes",
                  i, storage.offset, storage.length, storage_segment.length));
            }
            offset = base + storage_segment.offset + storage.offset;
          }
          parsed.kind = ParameterEntry::Kind::kFile;
          parsed.file = file;
          parsed.offset = offset;
          parsed.length = storage.length;
          entries.push_back(std::move(parsed));
          break;
        }
        default:
          return UnimplementedError(StringPrintf(
              "entry %" PRIu64 ": IRPA entry type %u is not supported%s", i,
              type, type == irpa::kExternal ? " (external file entries)" : ""));
      }
    }
    return Status();
  }

  Status Parse() {
    uint64_t base = 0;
    for (int header_index = 0;; ++header_index) {
      if (header_index >= kMaxLinkedHeaders) {
        return ResourceExhaustedError(StringPrintf(
            "more than %d linked IRPA headers", kMaxLinkedHeaders));
      }
      if (base > size || size - base < irpa::kPrefixSize) {
        return InvalidArgumentError(StringPrintf(
            "not enough bytes for an IRPA header at offset %" PRIu64
            " (file of %" PRIu64 " bytes); the file may be empty or truncated",
            base, size));
      }
      const uint8_t* prefix = data + base;
      uint32_t magic = LoadLE<uint32_t>(prefix);
      if (magic != irpa::kMagic) {
        return InvalidArgumentError(StringPrintf(
            "IRPA file magic missing or invalid %08X; expected %08X", magic,
            irpa::kMagic));
      }
      uint16_t major = LoadLE<uint16_t>(prefix + 4);
      uint16_t minor = LoadLE<uint16_t>(prefix + 6);
      uint64_t header_size = LoadLE<uint64_t>(prefix + 8);
      uint64_t next_header = LoadLE<uint64_t>(prefix + 16);
      if (header_size > size - base) {
        return OutOfRangeError(
            StringPrintf("IRPA header of %" PRIu64 " bytes at offset %" PRIu64
                         " runs past the end of the file (%" PRIu64 " bytes)",
                         header_size, base, size));
      }
      if (next_header != 0 && (next_header > size - base ||
                               size - base - next_header < irpa::kPrefixSize)) {
        return OutOfRangeError(
            StringPrintf("linked IRPA header at offset %" PRIu64 " + %" PRIu64
                         " lies outside the file of %" PRIu64 " bytes",
                         base, next_header, size));
      }
      if (major != 0) {
        return UnimplementedError(StringPrintf(
            "IRPA major version %u.%u not supported by this runtime", major,
            minor));
      }
      if (minor > 0) {
        return UnimplementedError(StringPrintf(
            "IRPA version %u.%u not supported (major supported but minor is "
            "newer than this runtime)",
            major, minor));
      }
      if (header_size != irpa::kHeaderV0Size) {
        return InvalidArgumentError(
            StringPrintf("IRPA v0 header expected to be exactly %" PRIu64
                         " bytes but was reported as %" PRIu64,
                         irpa::kHeaderV0Size, header_size));
      }
      EMBER_RETURN_IF_ERROR(ParseV0(base),
                            "parsing the IRPA header at offset %" PRIu64, base);
      if (next_header == 0) return Status();
      base += next_header;
    }
  }
};

}  // namespace

Status ParseIrpa(const Ref<FileHandle>& file, ParameterIndex& index) {
  std::vector<ParameterEntry> entries;
  Reader reader{file, file->bytes().data(), file->length(), entries};
  EMBER_RETURN_IF_ERROR(reader.Parse());
  return index.AddAll(std::move(entries));
}

}  // namespace ember::io
