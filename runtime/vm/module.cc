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

std::optional<Function> Module::LookupExport(std::string_view name,
                                             std::string_view cconv) {
  std::optional<Function> first = LookupExport(name);
  if (!first) return std::nullopt;
  if (export_info(first->ordinal).calling_convention == cconv) return first;
  for (size_t i = first->ordinal + 1; i < export_count(); ++i) {
    ExportInfo info = export_info(i);
    if (info.name == name && info.calling_convention == cconv) {
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
