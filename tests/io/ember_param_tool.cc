// ember-param-tool: drives runtime/io from the Python tests
// (tests/python/test_parameter_formats.py), which compare what it reads and
// writes with the official runtime. A test helper, not an installed tool.
//
//   ember_param_tool dump FILE [FORMAT]     the index of FILE as JSON
//   ember_param_tool repr FILE [FORMAT]     ParameterIndex::Dump of FILE
//   ember_param_tool write FILE OUT.irpa [FILE_OFFSET]
//       reads FILE, writes its entries as an IRPA archive, prints the
//       target index as JSON
//
// JSON: {"entries": [{"key": hex, "kind": "file"|"splat", "offset": n,
// "length": n, "metadata": hex, "pattern": hex}]} or {"error": "..."} with
// exit status 1. Keys and metadata are hex so that any bytes survive.
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "runtime/io/file_handle.h"
#include "runtime/io/irpa_writer.h"
#include "runtime/io/parameter_index.h"

namespace {

using namespace ember;

std::string Hex(const void* data, size_t size) {
  static const char kDigits[] = "0123456789abcdef";
  const uint8_t* p = static_cast<const uint8_t*>(data);
  std::string out;
  for (size_t i = 0; i < size; ++i) {
    out += kDigits[p[i] >> 4];
    out += kDigits[p[i] & 15];
  }
  return out;
}

std::string JsonString(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20 ||
               static_cast<unsigned char>(c) >= 0x7f) {
      out += StringPrintf("\\u%04x", static_cast<unsigned char>(c));
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string IndexJson(const io::ParameterIndex& index) {
  std::string out = "{\"entries\": [";
  for (size_t i = 0; i < index.size(); ++i) {
    const io::ParameterEntry& e = index.entry(i);
    if (i) out += ", ";
    bool splat = e.kind == io::ParameterEntry::Kind::kSplat;
    out += StringPrintf(
        "{\"key\": \"%s\", \"kind\": \"%s\", \"offset\": %" PRIu64
        ", \"length\": %" PRIu64 ", \"metadata\": \"%s\", \"pattern\": \"%s\"}",
        Hex(e.key.data(), e.key.size()).c_str(), splat ? "splat" : "file",
        e.offset, e.length, Hex(e.metadata.data(), e.metadata.size()).c_str(),
        Hex(e.pattern.data(), e.pattern_length).c_str());
  }
  return out + "]}";
}

int Fail(const Status& status) {
  std::printf("{\"error\": %s}\n", JsonString(status.ToString()).c_str());
  return 1;
}

Status Load(const std::string& path, const char* format,
            io::ParameterIndex& index) {
  std::string name;
  if (format) {
    name = format;
  } else {
    EMBER_ASSIGN_OR_RETURN(name, io::FormatFromPath(path));
  }
  EMBER_ASSIGN_OR_RETURN(Ref<io::FileHandle> file,
                         io::FileHandle::Open(path, /*writable=*/false));
  return io::ParseParameterFile(name, file, index);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr,
                 "usage: ember_param_tool dump|repr FILE [FORMAT]\n"
                 "       ember_param_tool write FILE OUT.irpa [OFFSET]\n");
    return 2;
  }
  std::string command = argv[1];
  Ref<io::ParameterIndex> index = io::ParameterIndex::Create();
  if (command == "dump" || command == "repr") {
    Status status = Load(argv[2], argc > 3 ? argv[3] : nullptr, *index);
    if (!status.ok()) return Fail(status);
    if (command == "dump") {
      std::printf("%s\n", IndexJson(*index).c_str());
    } else {
      std::fputs(index->Dump().c_str(), stdout);
    }
    return 0;
  }
  if (command == "write" && argc >= 4) {
    Status status = Load(argv[2], nullptr, *index);
    if (!status.ok()) return Fail(status);
    uint64_t offset = argc > 4 ? std::strtoull(argv[4], nullptr, 10) : 0;
    Ref<io::ParameterIndex> target = io::ParameterIndex::Create();
    status = io::WriteIrpaArchive(*index, argv[3], offset, *target);
    if (!status.ok()) return Fail(status);
    std::printf("%s\n", IndexJson(*target).c_str());
    return 0;
  }
  std::fprintf(stderr, "unknown command '%s'\n", command.c_str());
  return 2;
}
