// Human- and machine-readable descriptions of a verified ModuleFile, shared
// by `ember-dump-module` and the Python bindings.
#pragma once

#include <string>

#include "runtime/vm/bytecode/module_file.h"

namespace ember::vm::bytecode {

struct DumpOptions {
  // Include every debug-location entry of every function source map (the
  // text form otherwise prints counts only).
  bool verbose = false;
};

std::string DumpModuleText(const ModuleFile& file, const DumpOptions& options);
// A single JSON object; every string is escaped, so hostile names are safe.
std::string DumpModuleJson(const ModuleFile& file);

}  // namespace ember::vm::bytecode
