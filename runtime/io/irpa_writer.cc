#include "runtime/io/irpa_writer.h"

namespace ember::io {

Status WriteIrpaArchive(const ParameterIndex& source, const std::string& path,
                        uint64_t file_offset, ParameterIndex& target) {
  return UnimplementedError("io::WriteIrpaArchive is not implemented yet");
}

}  // namespace ember::io
