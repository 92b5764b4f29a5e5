// The `check` module: the assertions of IREE's e2e test programs.
//
// Test programs compiled from `check.expect_*` ops import five functions
// (docs/hal-module.md, "The `check` module"): expect_true / expect_false on an
// i32, expect_all_true on a tensor, expect_eq (same type, shape and bytes) and
// expect_almost_eq (same type and shape, elements within atol + rtol * |rhs|,
// NaN equal to NaN). As in IREE, a failed expectation does not stop the
// program: it is recorded in the module's CheckFailures, with a message that
// shows both operands, and the call returns normally; the test runner reads the
// failures afterwards. Every import is optional in the compiled program, so a
// runner that forgets this module makes every check silently pass -- the
// runner's tests prove it is registered with a check that must fail.
//
// Thread safety: CheckFailures is thread-safe.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/vm/module.h"

namespace ember::modules::check {

class CheckFailures {
 public:
  void Add(std::string message);
  std::vector<std::string> Take();  // the failures so far, clearing them
  size_t count() const;

 private:
  mutable std::mutex mutex_;
  std::vector<std::string> failures_;
};

// A `check` module (version 0) recording into `failures`.
Result<std::shared_ptr<vm::Module>> CreateCheckModule(
    std::shared_ptr<CheckFailures> failures);

}  // namespace ember::modules::check
