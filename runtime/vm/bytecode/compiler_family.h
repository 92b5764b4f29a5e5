// Which iree-compile built a module: read from what the module declares.
//
// A `.vmfb` carries no compiler version (users ask for one upstream: a
// module from a newer or older compiler fails with a message about module
// versions or signatures that names neither compiler). But every release
// leaves marks a runtime can read (docs/compiler-versions.md):
//
//   - the bytecode version: 15.0 up to iree-compile 3.9, 16.0 in 3.10, 17.0
//     from 3.11 through 3.13;
//   - the minimum `hal` module version it declares: 7 when any import it
//     uses needs version 7 (3.12 and later; a program without dispatches may
//     still declare 6);
//   - the signatures it imports: `hal.command_buffer.dispatch` takes an i32
//     export ordinal from 3.11 (`0rriiiiICiDCiirIID_v`) and an i64 function
//     id from 3.12 (`0rrIiiiICiDCiirIID_v`); `hal.executable.lookup.function`
//     appears in 3.12; `hal.command_buffer.flush_buffer` and
//     `invalidate_buffer` in 3.13.
//
// InferCompilerFamily narrows a range of releases with each mark. The
// answer is the narrowest range the marks allow ("iree-compile 3.11",
// "iree-compile 3.12 or 3.13"; a VM-only module says nothing beyond its
// bytecode version: "iree-compile 3.11 to 3.13"), with the marks that gave
// it, so that a message can say both what built a module and why Ember
// thinks so. It reads only the parsed module definition, so it answers for
// modules Ember refuses to load too.
#pragma once

#include <string>
#include <string_view>

#include "runtime/vm/bytecode/module_def.h"

namespace ember::vm::bytecode {

// The compilers whose modules Ember runs, for messages.
inline constexpr std::string_view kSupportedCompilers =
    "iree-compile 3.11-3.13";

struct CompilerFamily {
  // e.g. "iree-compile 3.12 or 3.13", "iree-compile 3.10",
  // "an iree-compile newer than 3.13".
  std::string name;
  // The marks the answer rests on, e.g. "bytecode 17.0, requires hal >= 7,
  // dispatches by function id".
  std::string evidence;
  // Whether Ember runs modules of this family.
  bool supported = false;
};

CompilerFamily InferCompilerFamily(const ModuleDef& def);

// "built by <name> (<evidence>)", the form messages use.
std::string DescribeCompilerFamily(const CompilerFamily& family);

}  // namespace ember::vm::bytecode
