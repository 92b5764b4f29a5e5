#include "runtime/vm/bytecode/compiler_family.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace ember::vm::bytecode {
namespace {

// Releases are numbered by their minor version (iree-compile 3.N). The
// known ones with bytecode 17.0 are 3.11 through 3.13; a mark that only a
// later release could leave raises the floor past kNewest.
constexpr int kOldestSupported = 11;
constexpr int kNewest = 13;

// The range of releases the marks seen so far allow, and the marks.
struct Range {
  int low = kOldestSupported;
  int high = kNewest;
  std::vector<std::string> marks;

  // Each takes the mark that tells, or none when it is already listed.
  void AtLeast(int release, std::string mark = {}) {
    low = std::max(low, release);
    if (!mark.empty()) marks.push_back(std::move(mark));
  }
  void AtMost(int release, std::string mark = {}) {
    high = std::min(high, release);
    if (!mark.empty()) marks.push_back(std::move(mark));
  }
};

std::string Release(int minor) { return "3." + std::to_string(minor); }

std::string JoinMarks(const std::vector<std::string>& marks) {
  std::string text;
  for (const std::string& mark : marks) {
    if (!text.empty()) text += ", ";
    text += mark;
  }
  return text;
}

std::string BytecodeMark(uint32_t major, uint32_t minor) {
  return "bytecode " + std::to_string(major) + "." + std::to_string(minor);
}

}  // namespace

CompilerFamily InferCompilerFamily(const ModuleDef& def) {
  const uint32_t major = def.bytecode_version >> 16;
  const uint32_t minor = def.bytecode_version & 0xFFFF;
  CompilerFamily family;
  if (major < 17) {
    // 16.0 was iree-compile 3.10's; 3.9 and older wrote 15.0 or less.
    family.name =
        major == 16 ? "iree-compile 3.10" : "iree-compile 3.9 or older";
    family.evidence = BytecodeMark(major, minor);
    return family;
  }
  if (major > 17 || minor > 0) {
    family.name = "an iree-compile newer than 3.13";
    family.evidence = BytecodeMark(major, minor);
    return family;
  }

  Range range;
  range.marks.push_back(BytecodeMark(major, minor));
  for (const ModuleDependencyDef& dependency : def.dependencies) {
    const std::string mark =
        "requires " + std::string(dependency.name) +
        " >= " + std::to_string(dependency.minimum_version);
    if (dependency.name == "hal" || dependency.name == "hal_loader") {
      range.marks.push_back(mark);
    }
    if (dependency.name == "hal") {
      // 3.11 declared hal 6; 3.12 and 3.13 declare 7 when they use a
      // version-7 import. No known release declares more.
      if (dependency.minimum_version >= 8) {
        range.AtLeast(kNewest + 1);
      } else if (dependency.minimum_version == 7) {
        range.AtLeast(12);
      }
    } else if (dependency.name == "hal_loader") {
      // The inline HAL's loader module: version 0 up to 3.11, 1 from 3.12.
      if (dependency.minimum_version >= 2) {
        range.AtLeast(kNewest + 1);
      } else if (dependency.minimum_version == 1) {
        range.AtLeast(12);
      }
    }
  }
  bool dispatch_seen = false;
  for (const ImportFunctionDef& import : def.imported_functions) {
    const std::string_view name = import.full_name;
    const std::string_view cconv = import.signature.calling_convention;
    if (name == "hal.command_buffer.dispatch" && !dispatch_seen) {
      dispatch_seen = true;
      if (cconv == "0rriiiiICiDCiirIID_v") {
        range.AtMost(11, "dispatches by export ordinal (i32)");
      } else if (cconv == "0rrIiiiICiDCiirIID_v") {
        range.AtLeast(12, "dispatches by function id (i64)");
      }
    } else if (name == "hal.executable.lookup.function") {
      range.AtLeast(12, "imports hal.executable.lookup.function");
    } else if (name == "hal.command_buffer.flush_buffer" ||
               name == "hal.command_buffer.invalidate_buffer") {
      range.AtLeast(13, "imports " + std::string(name));
    }
  }

  family.evidence = JoinMarks(range.marks);
  if (range.low > range.high) {
    // Marks of different releases: no release Ember knows wrote this.
    family.name = range.low > kNewest ? "an iree-compile newer than 3.13"
                                      : "an unknown iree-compile";
    return family;
  }
  family.supported = true;
  if (range.low == range.high) {
    family.name = "iree-compile " + Release(range.low);
  } else if (range.high == range.low + 1) {
    family.name =
        "iree-compile " + Release(range.low) + " or " + Release(range.high);
  } else {
    family.name =
        "iree-compile " + Release(range.low) + " to " + Release(range.high);
  }
  return family;
}

std::string DescribeCompilerFamily(const CompilerFamily& family) {
  return "built by " + family.name + " (" + family.evidence + ")";
}

}  // namespace ember::vm::bytecode
