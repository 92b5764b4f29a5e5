#include "runtime/vm/provisional_hal_types.h"

#include <array>

namespace ember::vm {

Status RegisterProvisionalHalTypes(Instance& instance) {
  // The hal.* types of IREE 3.11's `hal` module (hal.imports.mlir).
  static const std::array<RefType, 11> kTypes = {
      RefType("hal.allocator"),      RefType("hal.buffer"),
      RefType("hal.buffer_view"),    RefType("hal.channel"),
      RefType("hal.command_buffer"), RefType("hal.device"),
      RefType("hal.event"),          RefType("hal.executable"),
      RefType("hal.fence"),          RefType("hal.file"),
      RefType("hal.semaphore")};
  for (const RefType& type : kTypes) {
    EMBER_RETURN_IF_ERROR(instance.RegisterType(type));
  }
  return Status::Ok();
}

}  // namespace ember::vm
