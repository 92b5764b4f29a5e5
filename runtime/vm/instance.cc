#include "runtime/vm/instance.h"

namespace ember::vm {

std::shared_ptr<Instance> Instance::Create() {
  return std::shared_ptr<Instance>(new Instance());
}

}  // namespace ember::vm
