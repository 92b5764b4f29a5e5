#include "tools/tool_support.h"

#include <utility>

#include "runtime/hal/cpu/local_device.h"
#include "runtime/hal/driver.h"
#include "runtime/modules/hal/hal_module.h"
#include "runtime/vm/bytecode/module_file.h"

namespace ember::tools {
namespace {

bool ImportsFrom(const vm::Module& module, std::string_view prefix) {
  for (size_t i = 0; i < module.import_count(); ++i) {
    if (module.import_info(i).full_name.starts_with(prefix)) return true;
  }
  return false;
}

}  // namespace

Result<Program> LoadProgram(
    const std::string& path, const std::string& device_uri,
    std::shared_ptr<modules::check::CheckFailures> check_failures) {
  Program program;
  program.instance = vm::Instance::Create();
  EMBER_RETURN_IF_ERROR(modules::hal::RegisterHalTypes(*program.instance));
  program.instance->Freeze();
  EMBER_ASSIGN_OR_RETURN(auto file, vm::bytecode::ModuleFile::LoadFile(path),
                         "loading %s", path.c_str());
  EMBER_ASSIGN_OR_RETURN(
      program.module,
      vm::bytecode::BytecodeModule::Create(program.instance, file),
      "loading %s", path.c_str());
  if (ImportsFrom(*program.module, "hal.")) {
    hal::DriverRegistry drivers;
    EMBER_RETURN_IF_ERROR(hal::cpu::RegisterLocalDrivers(drivers));
    EMBER_ASSIGN_OR_RETURN(program.device, drivers.CreateDevice(device_uri),
                           "creating device '%s'", device_uri.c_str());
    EMBER_ASSIGN_OR_RETURN(auto hal_module,
                           modules::hal::CreateHalModule({program.device}));
    program.modules.push_back(std::move(hal_module));
  }
  if (check_failures) {
    EMBER_ASSIGN_OR_RETURN(auto check_module, modules::check::CreateCheckModule(
                                                  std::move(check_failures)));
    program.modules.push_back(std::move(check_module));
  }
  program.modules.push_back(program.module);
  return program;
}

std::vector<std::string> ExportNames(const vm::Module& module) {
  std::vector<std::string> names;
  for (size_t i = 0; i < module.export_count(); ++i) {
    std::string_view name = module.export_info(i).name;
    if (!name.starts_with("__")) names.emplace_back(name);
  }
  return names;
}

}  // namespace ember::tools
