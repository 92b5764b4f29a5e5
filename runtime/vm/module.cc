#include "runtime/vm/module.h"

namespace ember::vm {

std::optional<Function> Module::LookupExport(std::string_view name) {
  for (size_t i = 0; i < export_count(); ++i) {
    if (export_info(i).name == name) {
      return Function{this, static_cast<uint32_t>(i), FunctionLinkage::kExport};
    }
  }
  return std::nullopt;
}

}  // namespace ember::vm
