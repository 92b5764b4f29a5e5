// The one place where Ember's Status becomes a Python exception.
//
// The mapping follows iree.runtime's: INVALID_ARGUMENT and NOT_FOUND ->
// ValueError, OUT_OF_RANGE -> IndexError, UNIMPLEMENTED ->
// NotImplementedError, everything else -> RuntimeError. The message is the
// core's full text ("CODE: message; while ...") so nothing is lost.
#pragma once

#include <nanobind/nanobind.h>

#include <utility>

#include "runtime/base/status.h"

namespace ember::python {

[[noreturn]] void ThrowStatus(const Status& status,
                              const char* context = nullptr);

inline void CheckStatus(const Status& status, const char* context = nullptr) {
  if (!status.ok()) ThrowStatus(status, context);
}

template <typename T>
T Unwrap(Result<T> result, const char* context = nullptr) {
  if (!result.ok()) ThrowStatus(result.status(), context);
  return std::move(result).value();
}

}  // namespace ember::python
