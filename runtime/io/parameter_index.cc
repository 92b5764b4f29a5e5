#include "runtime/io/parameter_index.h"

namespace ember::io {

struct ParameterIndex::State {};

ParameterIndex::ParameterIndex() : state_(std::make_unique<State>()) {}
ParameterIndex::~ParameterIndex() = default;

Ref<ParameterIndex> ParameterIndex::Create() {
  return MakeRef<ParameterIndex>();
}
Status ParameterIndex::Reserve(size_t capacity) { return Status(); }
Status ParameterIndex::Add(ParameterEntry entry) {
  return UnimplementedError("io::ParameterIndex::Add is not implemented yet");
}
size_t ParameterIndex::size() const { return 0; }
const ParameterEntry& ParameterIndex::entry(size_t i) const {
  __builtin_trap();
}
const ParameterEntry* ParameterIndex::Lookup(std::string_view key) const {
  return nullptr;
}
std::string ParameterIndex::Dump(std::string_view scope) const { return {}; }

Status ParseParameterFile(std::string_view format, const Ref<FileHandle>& file,
                          ParameterIndex& index) {
  return UnimplementedError("io::ParseParameterFile is not implemented yet");
}
Result<std::string> FormatFromPath(std::string_view path) {
  return UnimplementedError("io::FormatFromPath is not implemented yet");
}

}  // namespace ember::io
