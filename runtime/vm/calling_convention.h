// Calling conventions: the signature strings of VM functions.
//
// Every function the VM can call -- a bytecode function, a native export, an
// import -- carries a cconv string "0<arguments>_<results>": version '0',
// one character per value (i = i32, I = i64, f = f32, F = f64, r = ref),
// variadic spans C...D on the argument side, and "v" for an empty side. It is
// the contract checked when imports are linked and the layout of the boxed
// arguments a call passes (module.h).
#pragma once

#include <string_view>

#include "runtime/base/status.h"

namespace ember::vm {

// The arguments and results of a cconv string such as "0rIr_r".
struct CallingConvention {
  std::string_view arguments;  // "v" spelled as empty
  std::string_view results;
};

// Parses and validates a cconv ("0" + args + "_" + results; chars i I f F r,
// spans C...D, "v" for an empty side).
Result<CallingConvention> ParseCallingConvention(std::string_view cconv);

}  // namespace ember::vm
