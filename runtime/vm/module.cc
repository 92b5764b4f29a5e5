#include "runtime/vm/module.h"

#include <string>

namespace ember::vm {

std::optional<Function> Module::LookupExport(std::string_view name) {
  for (size_t i = 0; i < export_count(); ++i) {
    if (export_info(i).name == name) {
      return Function{this, static_cast<uint32_t>(i), FunctionLinkage::kExport};
    }
  }
  return std::nullopt;
}

Status Module::CallWithRegisters(Context&, ModuleState&, const Function&,
                                 const RegisterCall&) {
  return UnimplementedError("module '" + std::string(name()) +
                            "' takes no register calls");
}

}  // namespace ember::vm
