// WriteIrpaArchive: writes a parameter index out as an IRPA archive, the
// format IREE's runtime reads and iree.runtime's create_archive_file writes.
//
// The layout is IREE's archive builder's: header, entry table, metadata and
// name segments, then the data segment with every entry 64-byte aligned so
// that programs can use the file in place. Splat entries stay splat entries
// (no data written).
#pragma once

#include <cstdint>
#include <string>

#include "runtime/base/status.h"
#include "runtime/io/parameter_index.h"

namespace ember::io {

// Writes an IRPA archive holding every entry of `source` into `path` starting
// at `file_offset` and adds to `target` entries with the same keys/metadata
// that reference the new file (splats stay splats).
Status WriteIrpaArchive(const ParameterIndex& source, const std::string& path,
                        uint64_t file_offset, ParameterIndex& target);

}  // namespace ember::io
