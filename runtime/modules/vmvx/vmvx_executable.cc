#include "runtime/modules/vmvx/vmvx_executable.h"

#include <charconv>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "runtime/modules/vmvx/vmvx_module.h"
#include "runtime/vm/buffer.h"
#include "runtime/vm/bytecode/bytecode_module.h"
#include "runtime/vm/bytecode/module_file.h"
#include "runtime/vm/context.h"
#include "runtime/vm/instance.h"
#include "runtime/vm/list.h"

namespace ember::modules::vmvx {
namespace {

using hal::cpu::DispatchArguments;
using hal::cpu::WorkgroupRange;

// IREE's entry-point calling convention (vmvx_module_loader.c).
constexpr std::string_view kEntryCconv = "0rrriiiiiiiii_v";
constexpr size_t kEntryArgumentCount = 12;
// Limits of the local executable ABI's dispatch attributes, which IREE
// stores the reflection attributes in: 8-bit counts, 16-bit pages of 4 KiB.
constexpr uint32_t kMaxConstants = 255;
constexpr uint32_t kMaxBindings = 64;
constexpr uint64_t kLocalMemoryPageSize = 4096;
constexpr uint64_t kMaxLocalMemoryPages = 0xFFFF;

struct EntryPoint {
  std::string name;
  vm::Function function;
  uint32_t constant_count = 0;
  uint32_t binding_count = 0;
  size_t local_memory_size = 0;
};

// One worker's VM state: a context linking `vmvx` and the executable's
// module, and the argument slots reused from call to call.
struct Worker {
  // Declared before `context`, so that wrappers released when the context
  // is destroyed still find it.
  uint64_t released_wrappers = 0;
  std::unique_ptr<vm::Context> context;
  Ref<vm::List> bindings;
  std::vector<vm::Variant> arguments;
};

class VmvxExecutable final : public hal::cpu::LocalExecutable {
 public:
  static Result<Ref<VmvxExecutable>> Create(
      std::shared_ptr<const vm::Instance> instance,
      std::shared_ptr<vm::Module> vmvx_module,
      std::shared_ptr<vm::bytecode::BytecodeModule> module);

  size_t export_count() const override { return entries_.size(); }
  ExportInfo export_info(size_t ordinal) const override {
    ExportInfo info;
    if (ordinal >= entries_.size()) return info;
    info.name = entries_[ordinal].name;
    info.constant_count = entries_[ordinal].constant_count;
    info.binding_count = entries_[ordinal].binding_count;
    return info;
  }
  std::string_view debug_name() const override { return name_; }

  Status ValidateDispatch(const DispatchArguments& arguments) const override;
  size_t LocalMemorySize(uint32_t export_ordinal) const override {
    return export_ordinal < entries_.size()
               ? entries_[export_ordinal].local_memory_size
               : 0;
  }
  bool IsSequential(uint32_t) const override { return false; }
  Status RunWorkgroups(const DispatchArguments& arguments,
                       const WorkgroupRange& range,
                       std::span<uint8_t> local_memory,
                       uint32_t max_concurrency) const override;

 private:
  VmvxExecutable() = default;
  Result<std::unique_ptr<Worker>> AcquireWorker() const;
  void ReleaseWorker(std::unique_ptr<Worker> worker) const;
  Status RunRange(Worker& worker, const DispatchArguments& arguments,
                  const WorkgroupRange& range,
                  std::span<uint8_t> local_memory) const;
  std::string Where(uint32_t ordinal) const {
    return "dispatch of VMVX executable '" + name_ + "' export " +
           std::to_string(ordinal) + " (" + entries_[ordinal].name + ")";
  }

  std::shared_ptr<const vm::Instance> instance_;
  std::shared_ptr<vm::Module> vmvx_module_;
  std::shared_ptr<vm::bytecode::BytecodeModule> module_;
  std::string name_;
  std::vector<EntryPoint> entries_;
  mutable std::mutex idle_mutex_;
  mutable std::vector<std::unique_ptr<Worker>> idle_;
};

// A reflection attribute as a decimal uint32 (absent: 0).
Result<uint32_t> ReadCountAttr(const vm::ExportInfo& info,
                               std::string_view key) {
  for (const vm::ReflectionAttr& attr : info.attrs) {
    if (attr.key != key) continue;
    uint32_t value = 0;
    auto [end, error] = std::from_chars(
        attr.value.data(), attr.value.data() + attr.value.size(), value);
    if (error != std::errc() || end != attr.value.data() + attr.value.size()) {
      return InvalidArgumentError("VMVX export '" + std::string(info.name) +
                                  "' has a malformed reflection attribute " +
                                  std::string(key) + " = '" +
                                  std::string(attr.value) + "'");
    }
    return value;
  }
  return uint32_t{0};
}

Result<Ref<VmvxExecutable>> VmvxExecutable::Create(
    std::shared_ptr<const vm::Instance> instance,
    std::shared_ptr<vm::Module> vmvx_module,
    std::shared_ptr<vm::bytecode::BytecodeModule> module) {
  Ref<VmvxExecutable> executable =
      Ref<VmvxExecutable>::Adopt(new VmvxExecutable());
  executable->name_ = std::string(module->name());
  for (size_t i = 0; i < module->export_count(); ++i) {
    const vm::ExportInfo info = module->export_info(i);
    if (info.calling_convention != kEntryCconv) {
      return InvalidArgumentError(
          "VMVX executable '" + executable->name_ + "' export " +
          std::to_string(i) + " (" + std::string(info.name) +
          ") has calling convention '" + std::string(info.calling_convention) +
          "'; entry points take '" + std::string(kEntryCconv) +
          "' (IREE's VMVX ABI)");
    }
    EntryPoint entry;
    entry.name = std::string(info.name);
    entry.function = vm::Function{module.get(), static_cast<uint32_t>(i),
                                  vm::FunctionLinkage::kExport};
    EMBER_ASSIGN_OR_RETURN(entry.constant_count,
                           ReadCountAttr(info, "constant_count"));
    EMBER_ASSIGN_OR_RETURN(entry.binding_count,
                           ReadCountAttr(info, "binding_count"));
    EMBER_ASSIGN_OR_RETURN(uint32_t local_memory,
                           ReadCountAttr(info, "local_memory"));
    const uint64_t pages = (uint64_t{local_memory} + kLocalMemoryPageSize - 1) /
                           kLocalMemoryPageSize;
    if (entry.constant_count > kMaxConstants ||
        entry.binding_count > kMaxBindings || pages > kMaxLocalMemoryPages) {
      return InvalidArgumentError(
          "VMVX export '" + entry.name + "' declares " +
          std::to_string(entry.constant_count) + " constants, " +
          std::to_string(entry.binding_count) + " bindings and " +
          std::to_string(local_memory) +
          " bytes of local memory; the limits are 255, 64 and 65535 pages");
    }
    entry.local_memory_size = static_cast<size_t>(pages * kLocalMemoryPageSize);
    executable->entries_.push_back(std::move(entry));
  }
  executable->instance_ = std::move(instance);
  executable->vmvx_module_ = std::move(vmvx_module);
  executable->module_ = std::move(module);
  // Link once now, so that a module whose imports `vmvx` cannot satisfy
  // (or whose __init fails) is refused at load, not at its first dispatch.
  EMBER_ASSIGN_OR_RETURN(std::unique_ptr<Worker> worker,
                         executable->AcquireWorker());
  executable->ReleaseWorker(std::move(worker));
  return executable;
}

Status VmvxExecutable::ValidateDispatch(
    const DispatchArguments& arguments) const {
  const uint32_t ordinal = arguments.export_ordinal;
  if (ordinal >= entries_.size()) {
    return InvalidArgumentError("export ordinal " + std::to_string(ordinal) +
                                " out of range; VMVX executable '" + name_ +
                                "' has " + std::to_string(entries_.size()) +
                                " exports");
  }
  const EntryPoint& entry = entries_[ordinal];
  if (arguments.constants.size() != entry.constant_count) {
    return InvalidArgumentError(Where(ordinal) + " passes " +
                                std::to_string(arguments.constants.size()) +
                                " constants; the export takes " +
                                std::to_string(entry.constant_count));
  }
  if (arguments.binding_pointers.size() != entry.binding_count ||
      arguments.binding_lengths.size() != entry.binding_count) {
    return InvalidArgumentError(
        Where(ordinal) + " passes " +
        std::to_string(arguments.binding_pointers.size()) +
        " bindings; the export takes " + std::to_string(entry.binding_count));
  }
  for (size_t i = 0; i < arguments.binding_pointers.size(); ++i) {
    if (!arguments.binding_pointers[i]) {
      return FailedPreconditionError(Where(ordinal) + ": required binding " +
                                     std::to_string(i) + " is NULL");
    }
  }
  return Status::Ok();
}

Result<std::unique_ptr<Worker>> VmvxExecutable::AcquireWorker() const {
  {
    std::lock_guard lock(idle_mutex_);
    if (!idle_.empty()) {
      std::unique_ptr<Worker> worker = std::move(idle_.back());
      idle_.pop_back();
      return worker;
    }
  }
  auto worker = std::make_unique<Worker>();
  const std::shared_ptr<vm::Module> modules[] = {vmvx_module_, module_};
  EMBER_ASSIGN_OR_RETURN(worker->context,
                         vm::Context::Create(instance_, modules),
                         "while linking VMVX executable '%s'", name_.c_str());
  EMBER_ASSIGN_OR_RETURN(
      worker->bindings,
      vm::List::Create(vm::TypeDef::OfRef(vm::Buffer::Type()), kMaxBindings));
  worker->arguments.resize(kEntryArgumentCount);
  return worker;
}

void VmvxExecutable::ReleaseWorker(std::unique_ptr<Worker> worker) const {
  // Nothing of the last dispatch stays reachable from an idle worker.
  for (size_t i = 0; i < 3; ++i) worker->arguments[i] = vm::Variant();
  worker->bindings->Clear();
  std::lock_guard lock(idle_mutex_);
  idle_.push_back(std::move(worker));
}

Status VmvxExecutable::RunWorkgroups(const DispatchArguments& arguments,
                                     const WorkgroupRange& range,
                                     std::span<uint8_t> local_memory,
                                     uint32_t max_concurrency) const {
  (void)max_concurrency;
  EMBER_ASSIGN_OR_RETURN(std::unique_ptr<Worker> worker, AcquireWorker());
  Status status = RunRange(*worker, arguments, range, local_memory);
  // The wrappers of this range are gone once the argument slots and the
  // list let go of them, unless the module kept one.
  for (size_t i = 0; i < 3; ++i) worker->arguments[i] = vm::Variant();
  worker->bindings->Clear();
  const uint64_t created = 2 + arguments.binding_pointers.size();
  if (worker->released_wrappers != created) {
    // Destroying the context drops whatever the module kept (before any
    // later dispatch could reach memory this one no longer owns).
    worker.reset();
    if (status.ok()) {
      status = FailedPreconditionError(
          Where(arguments.export_ordinal) +
          ": the executable kept a reference to a dispatch buffer past its "
          "workgroups; its VM state was discarded");
    }
    return status;
  }
  worker->released_wrappers = 0;
  if (!status.ok()) return status;  // the worker's state may be half-updated
  ReleaseWorker(std::move(worker));
  return Status::Ok();
}

Status VmvxExecutable::RunRange(Worker& worker,
                                const DispatchArguments& arguments,
                                const WorkgroupRange& range,
                                std::span<uint8_t> local_memory) const {
  const uint32_t ordinal = arguments.export_ordinal;
  const EntryPoint& entry = entries_[ordinal];
  uint64_t* released = &worker.released_wrappers;
  auto on_release = [released] { ++*released; };
  constexpr vm::BufferAccess kWritable =
      vm::BufferAccess::kMutable | vm::BufferAccess::kOriginHost;

  // Wrappers of this range's memory, each reporting its release.
  EMBER_ASSIGN_OR_RETURN(
      Ref<vm::Buffer> local,
      vm::Buffer::WrapExternalMutable(local_memory, kWritable, on_release));
  EMBER_ASSIGN_OR_RETURN(
      Ref<vm::Buffer> constants,
      vm::Buffer::WrapExternal(
          std::span<const uint8_t>(
              reinterpret_cast<const uint8_t*>(arguments.constants.data()),
              arguments.constants.size() * sizeof(uint32_t)),
          vm::BufferAccess::kOriginHost, on_release));
  Ref<vm::Buffer> bindings_storage[kMaxBindings];
  const size_t binding_count = arguments.binding_pointers.size();
  for (size_t i = 0; i < binding_count; ++i) {
    EMBER_ASSIGN_OR_RETURN(
        bindings_storage[i],
        vm::Buffer::WrapExternalMutable(
            std::span<uint8_t>(
                static_cast<uint8_t*>(arguments.binding_pointers[i]),
                arguments.binding_lengths[i]),
            kWritable, on_release));
  }

  std::vector<vm::Variant>& args = worker.arguments;
  // The callee gets the arguments as a const span (it copies what it
  // keeps), so the three refs and the sizes are set once per range.
  args[0] = vm::Variant(vm::VmRef::Of<vm::Buffer>(local));
  args[1] = vm::Variant(vm::VmRef::Of<vm::Buffer>(constants));
  args[2] = vm::Variant(vm::VmRef::Of<vm::List>(worker.bindings));
  for (size_t i = 0; i < 3; ++i) {
    args[6 + i] = vm::Variant(vm::Value::I32(1));  // workgroup size
    args[9 + i] = vm::Variant(
        vm::Value::I32(static_cast<int32_t>(arguments.workgroup_count[i])));
  }
  // Workgroup ids advance x fastest, then y, then z: divided out once.
  const uint32_t count_x = arguments.workgroup_count[0];
  const uint32_t count_y = arguments.workgroup_count[1];
  if (count_x == 0 || count_y == 0) return Status::Ok();  // no workgroups
  uint32_t id_x = static_cast<uint32_t>(range.begin % count_x);
  uint32_t id_y = static_cast<uint32_t>((range.begin / count_x) % count_y);
  uint32_t id_z =
      static_cast<uint32_t>(range.begin / (uint64_t{count_x} * count_y));
  vm::Context& context = *worker.context;
  vm::List& list = *worker.bindings;
  for (uint64_t linear = range.begin; linear < range.end; ++linear) {
    // Refilled every time: the callee may have rewritten the list or moved
    // an element out of it (vm.list.get.ref with a dead list register).
    list.Clear();
    for (size_t i = 0; i < binding_count; ++i) {
      EMBER_RETURN_IF_ERROR(
          list.PushRef(vm::VmRef::Of<vm::Buffer>(bindings_storage[i])));
    }
    args[3] = vm::Variant(vm::Value::I32(static_cast<int32_t>(id_x)));
    args[4] = vm::Variant(vm::Value::I32(static_cast<int32_t>(id_y)));
    args[5] = vm::Variant(vm::Value::I32(static_cast<int32_t>(id_z)));
    Status status = context.Invoke(entry.function, args, {});
    if (!status.ok()) [[unlikely]] {
      return Status(status.code(), Where(ordinal) + " failed in workgroup (" +
                                       std::to_string(id_x) + ", " +
                                       std::to_string(id_y) + ", " +
                                       std::to_string(id_z) +
                                       "): " + std::string(status.message()));
    }
    if (++id_x == count_x) {
      id_x = 0;
      if (++id_y == count_y) {
        id_y = 0;
        ++id_z;
      }
    }
  }
  return Status::Ok();
}

class VmvxExecutableLoader final : public hal::cpu::ExecutableLoader {
 public:
  VmvxExecutableLoader() {
    std::shared_ptr<vm::Instance> instance = vm::Instance::Create();
    instance->Freeze();  // vm.buffer and vm.list are all VMVX modules use
    instance_ = std::move(instance);
    vmvx_module_ = CreateVmvxModule();
  }

  bool SupportsFormat(std::string_view format) const override {
    return format == kVmvxFormat;
  }

  Result<Ref<hal::cpu::LocalExecutable>> Load(
      std::string_view format, std::span<const uint8_t> data,
      std::span<const uint32_t> constants) const override {
    if (format != kVmvxFormat) {
      return Status(StatusCode::kIncompatible,
                    "executable format '" + std::string(format) + "' is not " +
                        std::string(kVmvxFormat));
    }
    if (!constants.empty()) {
      return InvalidArgumentError(
          "VMVX executable has no executable-level constants but " +
          std::to_string(constants.size()) + " were provided");
    }
    // Copied: the program's rodata need not outlive the executable.
    EMBER_ASSIGN_OR_RETURN(std::shared_ptr<const vm::bytecode::ModuleFile> file,
                           vm::bytecode::ModuleFile::LoadCopy(data),
                           "while loading a %s executable",
                           std::string(kVmvxFormat).c_str());
    EMBER_ASSIGN_OR_RETURN(
        std::shared_ptr<vm::bytecode::BytecodeModule> module,
        vm::bytecode::BytecodeModule::Create(instance_, std::move(file)),
        "while loading a %s executable", std::string(kVmvxFormat).c_str());
    EMBER_ASSIGN_OR_RETURN(
        Ref<VmvxExecutable> executable,
        VmvxExecutable::Create(instance_, vmvx_module_, std::move(module)));
    return Ref<hal::cpu::LocalExecutable>(std::move(executable));
  }

 private:
  std::shared_ptr<const vm::Instance> instance_;
  std::shared_ptr<vm::Module> vmvx_module_;
};

}  // namespace

Ref<hal::cpu::ExecutableLoader> CreateVmvxExecutableLoader() {
  return Ref<hal::cpu::ExecutableLoader>::Adopt(new VmvxExecutableLoader());
}

const Ref<hal::cpu::ExecutableLoader>& SharedVmvxExecutableLoader() {
  static const Ref<hal::cpu::ExecutableLoader>* loader =
      new Ref<hal::cpu::ExecutableLoader>(CreateVmvxExecutableLoader());
  return *loader;
}

}  // namespace ember::modules::vmvx
