// Context linking: dependencies, import resolution (names, cconvs, optional
// imports), cross-module calls including variadic spans, __init/__deinit
// order, the call-depth limit, and type tables resolved against the types
// that native modules register. Uses a tiny native module written here and
// the vm_imports corpus program (tests/corpus/vm/imports.mlir).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "runtime/testing/corpus.h"
#include "runtime/vm/bytecode/bytecode_module.h"
#include "runtime/vm/context.h"
#include "runtime/vm/instance.h"
#include "runtime/vm/native_module.h"

namespace ember::vm::bytecode {
namespace {

// Stand-ins for the hal module's ref types (this layer cannot see the hal
// module): the same names, registered the same way.
Status RegisterStandInHalTypes(Instance& instance) {
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

// A native module whose exports are described by (name, cconv) pairs and
// implemented by one switch. Every call is appended to `log`.
class TestModule final : public Module {
 public:
  struct Export {
    std::string name;
    std::string cconv;
  };
  TestModule(std::string name, uint32_t version, std::vector<Export> exports,
             std::vector<std::string>* log)
      : name_(std::move(name)),
        version_(version),
        exports_(std::move(exports)),
        log_(log) {}

  std::vector<ModuleDependency> dependencies_list;

  std::string_view name() const override { return name_; }
  uint32_t version() const override { return version_; }
  std::span<const ModuleDependency> dependencies() const override {
    return dependencies_list;
  }
  size_t export_count() const override { return exports_.size(); }
  ExportInfo export_info(size_t i) const override {
    return ExportInfo{exports_[i].name, exports_[i].cconv, {}};
  }
  size_t import_count() const override { return 0; }
  ImportInfo import_info(size_t) const override { return {}; }
  Result<std::unique_ptr<ModuleState>> CreateState(Context&) override {
    return std::make_unique<ModuleState>();
  }
  Status ResolveImport(ModuleState&, size_t, const Function&) override {
    return InternalError("no imports");
  }
  Status Call(Context& context, ModuleState&, const Function& function,
              std::span<const Variant> args,
              std::span<Variant> results) override {
    const std::string& name = exports_[function.ordinal].name;
    if (name == "add_one") {
      results[0] = Variant(Value::I32(args[0].value().i32() + 1));
    } else if (name == "sum") {
      // Layout: a, then the span count N, then N elements.
      int32_t total = args[0].value().i32();
      int32_t count = args[1].value().i32();
      EXPECT_EQ(args.size(), static_cast<size_t>(2 + count));
      for (int32_t i = 0; i < count; ++i) total += args[2 + i].value().i32();
      results[0] = Variant(Value::I32(total));
    } else if (name == "note") {
      log_->push_back(name_ + ".note " + std::to_string(args[0].value().i32()));
    } else if (name == "recurse") {
      // Calls itself through the context until the depth limit trips.
      Variant inner;
      EMBER_RETURN_IF_ERROR(context.Call(function, args, std::span(&inner, 1)));
      results[0] = inner;
    } else {
      log_->push_back(name_ + "." + name);
    }
    return Status::Ok();
  }

 private:
  std::string name_;
  uint32_t version_;
  std::vector<Export> exports_;
  std::vector<std::string>* log_;
};

std::shared_ptr<TestModule> MakeNative(std::vector<std::string>* log,
                                       std::string add_one_cconv = "0i_i") {
  return std::make_shared<TestModule>(
      "native", 1,
      std::vector<TestModule::Export>{{"add_one", add_one_cconv},
                                      {"sum", "0iCiD_i"},
                                      {"note", "0i_v"},
                                      {"__init", "0v_v"},
                                      {"__deinit", "0v_v"},
                                      {"recurse", "0i_i"}},
      log);
}

std::shared_ptr<BytecodeModule> LoadImporter(
    const std::shared_ptr<const Instance>& instance) {
  return ember::testing::LoadCorpusModule(instance, "vm_imports.embedded");
}

std::shared_ptr<Instance> FrozenInstance() {
  auto instance = Instance::Create();
  instance->Freeze();
  return instance;
}

TEST(ContextTest, ImportsCallIntoNativeModule) {
  std::vector<std::string> log;
  auto instance = FrozenInstance();
  {
    Context context(instance);
    ASSERT_TRUE(context.RegisterModule(MakeNative(&log)).ok());
    auto importer = LoadImporter(instance);
    ASSERT_NE(importer, nullptr);
    Status status = context.RegisterModule(importer);
    ASSERT_TRUE(status.ok()) << status.ToString();

    auto call_add = context.LookupFunction("importer.call_add");
    ASSERT_TRUE(call_add.ok());
    auto results =
        context.Invoke(*call_add, std::vector<Variant>{Value::I32(20)});
    ASSERT_TRUE(results.ok()) << results.status().ToString();
    EXPECT_EQ((*results)[0].value().i32(), 42);

    auto sum = context.LookupFunction("importer.sum_span");
    ASSERT_TRUE(sum.ok());
    results = context.Invoke(
        *sum,
        std::vector<Variant>{Value::I32(1), Value::I32(20), Value::I32(300)});
    ASSERT_TRUE(results.ok()) << results.status().ToString();
    EXPECT_EQ((*results)[0].value().i32(), 321);

    // The optional import native.missing is not exported: left unresolved.
    auto has_optional = context.LookupFunction("importer.has_optional");
    results = context.Invoke(*has_optional, {});
    ASSERT_TRUE(results.ok()) << results.status().ToString();
    EXPECT_EQ((*results)[0].value().i32(), 0);
  }
  // __init in registration order, __deinit in reverse.
  std::vector<std::string> expected = {"native.__init", "native.note 1",
                                       "native.note 2", "native.__deinit"};
  EXPECT_EQ(log, expected);
}

TEST(ContextTest, OptionalImportResolvesWhenPresent) {
  std::vector<std::string> log;
  auto instance = FrozenInstance();
  auto native = std::make_shared<TestModule>(
      "native", 1,
      std::vector<TestModule::Export>{{"add_one", "0i_i"},
                                      {"sum", "0iCiD_i"},
                                      {"note", "0i_v"},
                                      {"missing", "0i_i"}},
      &log);
  Context context(instance);
  ASSERT_TRUE(context.RegisterModule(native).ok());
  auto importer = LoadImporter(instance);
  ASSERT_NE(importer, nullptr);
  ASSERT_TRUE(context.RegisterModule(importer).ok());
  auto results =
      context.Invoke(*context.LookupFunction("importer.has_optional"), {});
  ASSERT_TRUE(results.ok());
  EXPECT_EQ((*results)[0].value().i32(), 1);
}

TEST(ContextTest, MissingRequiredDependencyFails) {
  auto instance = FrozenInstance();
  Context context(instance);
  auto importer = LoadImporter(instance);
  ASSERT_NE(importer, nullptr);
  Status status = context.RegisterModule(importer);
  EXPECT_EQ(status.code(), StatusCode::kNotFound);
  EXPECT_NE(status.ToString().find("'native'"), std::string::npos)
      << status.ToString();
  EXPECT_EQ(context.module_count(), 0u);
}

TEST(ContextTest, MissingRequiredImportFails) {
  std::vector<std::string> log;
  auto instance = FrozenInstance();
  auto native = std::make_shared<TestModule>(
      "native", 1, std::vector<TestModule::Export>{{"add_one", "0i_i"}}, &log);
  Context context(instance);
  ASSERT_TRUE(context.RegisterModule(native).ok());
  auto importer = LoadImporter(instance);
  ASSERT_NE(importer, nullptr);
  Status status = context.RegisterModule(importer);
  EXPECT_EQ(status.code(), StatusCode::kNotFound);
  EXPECT_NE(status.ToString().find("native.sum"), std::string::npos)
      << status.ToString();
}

TEST(ContextTest, CallingConventionMismatchNamesBoth) {
  std::vector<std::string> log;
  auto instance = FrozenInstance();
  Context context(instance);
  ASSERT_TRUE(context.RegisterModule(MakeNative(&log, "0I_i")).ok());
  auto importer = LoadImporter(instance);
  ASSERT_NE(importer, nullptr);
  Status status = context.RegisterModule(importer);
  EXPECT_EQ(status.code(), StatusCode::kInternal);  // as IREE
  std::string text = status.ToString();
  EXPECT_NE(text.find("'0i_i'"), std::string::npos) << text;
  EXPECT_NE(text.find("'0I_i'"), std::string::npos) << text;
  EXPECT_NE(text.find("native.add_one"), std::string::npos) << text;
}

TEST(ContextTest, DependencyVersions) {
  std::vector<std::string> log;
  auto instance = FrozenInstance();
  Context context(instance);
  ASSERT_TRUE(context.RegisterModule(MakeNative(&log)).ok());  // version 1

  auto too_new = std::make_shared<TestModule>(
      "user", 0, std::vector<TestModule::Export>{}, &log);
  too_new->dependencies_list = {{"native", 5, false}};
  Status status = context.RegisterModule(too_new);
  EXPECT_EQ(status.code(), StatusCode::kNotFound) << status.ToString();

  auto optional_missing = std::make_shared<TestModule>(
      "user2", 0, std::vector<TestModule::Export>{}, &log);
  optional_missing->dependencies_list = {{"native", 1, false},
                                         {"absent", 3, true}};
  EXPECT_TRUE(context.RegisterModule(optional_missing).ok());

  auto duplicate = MakeNative(&log);
  EXPECT_EQ(context.RegisterModule(duplicate).code(),
            StatusCode::kAlreadyExists);
}

TEST(ContextTest, LookupFunctionSplitsAtFirstDot) {
  std::vector<std::string> log;
  auto instance = FrozenInstance();
  auto dotted = std::make_shared<TestModule>(
      "hal", 0, std::vector<TestModule::Export>{{"executable.create", "0v_v"}},
      &log);
  Context context(instance);
  ASSERT_TRUE(context.RegisterModule(dotted).ok());
  auto function = context.LookupFunction("hal.executable.create");
  ASSERT_TRUE(function.ok()) << function.status().ToString();
  EXPECT_EQ(function->ordinal, 0u);
  EXPECT_EQ(context.LookupFunction("hal.nothing").status().code(),
            StatusCode::kNotFound);
  EXPECT_EQ(context.LookupFunction("nomodule.f").status().code(),
            StatusCode::kNotFound);
}

// Exports found by name through BytecodeModule's index, and the reflection
// attrs of a function exported under several names built once
// (tests/corpus/vm/exports.mlir).
TEST(ContextTest, ExportsByNameAndSharedAttrs) {
  auto instance = FrozenInstance();
  auto module =
      ember::testing::LoadCorpusModule(instance, "vm_exports.embedded");
  ASSERT_NE(module, nullptr);
  BytecodeModule& m = *module;
  ASSERT_EQ(m.export_count(), 4u);
  const char* names[] = {"first", "second", "third", "other"};
  for (uint32_t i = 0; i < 4; ++i) {
    std::optional<Function> found = m.LookupExport(names[i]);
    ASSERT_TRUE(found.has_value()) << names[i];
    EXPECT_EQ(found->ordinal, i);
    EXPECT_EQ(found->linkage, FunctionLinkage::kExport);
    EXPECT_EQ(m.export_info(i).name, names[i]);
  }
  EXPECT_FALSE(m.LookupExport("twice").has_value())
      << "exported only under other names";
  EXPECT_FALSE(m.LookupExport("").has_value());
  EXPECT_FALSE(m.LookupExport("firs").has_value());

  std::span<const ReflectionAttr> attrs = m.export_info(0).attrs;
  ASSERT_EQ(attrs.size(), 2u);
  std::vector<std::pair<std::string, std::string>> pairs;
  for (const ReflectionAttr& attr : attrs)
    pairs.emplace_back(attr.key, attr.value);
  std::sort(pairs.begin(), pairs.end());
  EXPECT_EQ(pairs, (std::vector<std::pair<std::string, std::string>>{
                       {"owner", "ember"}, {"purpose", "testing"}}));
  // One array for all three exports of the function.
  EXPECT_EQ(m.export_info(1).attrs.data(), attrs.data());
  EXPECT_EQ(m.export_info(2).attrs.data(), attrs.data());
  EXPECT_TRUE(m.export_info(3).attrs.empty());

  // Calls through a looked-up export.
  Context context(instance);
  ASSERT_TRUE(context.RegisterModule(module).ok());
  auto function = context.LookupFunction("exports.second");
  ASSERT_TRUE(function.ok()) << function.status().ToString();
  EXPECT_EQ(function->ordinal, 1u);
}

TEST(ContextTest, CallDepthIsLimited) {
  std::vector<std::string> log;
  auto instance = FrozenInstance();
  Context context(instance);
  ASSERT_TRUE(context.RegisterModule(MakeNative(&log)).ok());
  auto recurse = context.LookupFunction("native.recurse");
  ASSERT_TRUE(recurse.ok());
  auto results = context.Invoke(*recurse, std::vector<Variant>{Value::I32(0)});
  EXPECT_EQ(results.status().code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(context.call_depth(), 0);
}

// ---- type tables against registered types -----------------------------------

// A corpus program compiled for a device: its type table names hal types.
std::shared_ptr<const ModuleFile> LoadHalProgram(std::vector<uint8_t>* bytes) {
  auto files = ember::testing::LoadCorpus("elementwise.embedded");
  EXPECT_EQ(files.size(), 1u);
  if (files.empty()) return nullptr;
  if (bytes) *bytes = files[0].bytes;
  auto file = ModuleFile::LoadCopy(files[0].bytes);
  EXPECT_TRUE(file.ok()) << file.status().ToString();
  return file.ok() ? *file : nullptr;
}

struct NoState : ModuleState {};

TEST(TypeTableTest, TypesRegisteredByANativeModuleResolve) {
  auto file = LoadHalProgram(nullptr);
  ASSERT_TRUE(file);
  // A stand-in for the hal module: it brings one descriptor per hal type
  // the program names, and nothing else.
  std::vector<std::unique_ptr<RefType>> descriptors;
  std::vector<const RefType*> owned;
  for (std::string_view name : file->def().types) {
    if (!name.starts_with("!hal.")) continue;
    descriptors.push_back(std::make_unique<RefType>(name.substr(1)));
    owned.push_back(descriptors.back().get());
  }
  ASSERT_FALSE(owned.empty());
  NativeModule<NoState> stand_in(
      "hal", 1, {},
      [](Context&) -> Result<std::unique_ptr<NoState>> {
        return std::make_unique<NoState>();
      },
      owned);

  // Unregistered, the first hal type is named in the error.
  auto bare = FrozenInstance();
  auto unresolved = BytecodeModule::Create(bare, file);
  ASSERT_FALSE(unresolved.ok());
  EXPECT_EQ(unresolved.status().code(), StatusCode::kNotFound);
  EXPECT_NE(unresolved.status().ToString().find("'!hal."), std::string::npos)
      << unresolved.status().ToString();

  auto instance = Instance::Create();
  ASSERT_TRUE(stand_in.RegisterTypes(*instance).ok());
  instance->Freeze();
  auto module = BytecodeModule::Create(instance, file);
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  size_t matched = 0;
  for (size_t i = 0; i < file->def().types.size(); ++i) {
    std::string_view name = file->def().types[i];
    if (!name.starts_with("!hal.")) continue;
    ASSERT_TRUE((*module)->types()[i].is_ref());
    EXPECT_EQ((*module)->types()[i].ref_type(), owned[matched++]);
  }
}

TEST(TypeTableTest, AWellFormedNameNobodyRegisteredFailsNamingIt) {
  std::vector<uint8_t> bytes;
  ASSERT_TRUE(LoadHalProgram(&bytes));
  // Rename the type-table string "!hal.fence" in place (same length, so the
  // file stays valid): the file layer accepts the spelling, the instance
  // does not know the name.
  const std::string from = "!hal.fence";
  const std::string to = "!hal.nonse";
  std::vector<uint8_t> pattern = {static_cast<uint8_t>(from.size()), 0, 0, 0};
  pattern.insert(pattern.end(), from.begin(), from.end());
  auto at =
      std::search(bytes.begin(), bytes.end(), pattern.begin(), pattern.end());
  ASSERT_NE(at, bytes.end());
  std::copy(to.begin(), to.end(), at + 4);
  auto file = ModuleFile::LoadCopy(bytes);
  ASSERT_TRUE(file.ok()) << file.status().ToString();

  auto instance = Instance::Create();
  ASSERT_TRUE(RegisterStandInHalTypes(*instance).ok());
  instance->Freeze();
  auto module = BytecodeModule::Create(instance, *file);
  ASSERT_FALSE(module.ok());
  EXPECT_EQ(module.status().code(), StatusCode::kNotFound);
  EXPECT_NE(module.status().ToString().find("'!hal.nonse'"), std::string::npos)
      << module.status().ToString();
}

// With the hal types registered a device program is created; linking it
// without the `hal` module then fails naming that module.
TEST(TypeTableTest, HalTypesLetHalProgramsLoadButLinkingNeedsTheModule) {
  auto file = LoadHalProgram(nullptr);
  ASSERT_TRUE(file);
  auto instance = Instance::Create();
  ASSERT_TRUE(RegisterStandInHalTypes(*instance).ok());
  instance->Freeze();
  auto module = BytecodeModule::Create(instance, file);
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  Context context(instance);
  Status status = context.RegisterModule(*module);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.ToString().find("'hal'"), std::string::npos)
      << status.ToString();
  // A frozen instance takes no more.
  EXPECT_EQ(RegisterStandInHalTypes(*instance).code(),
            StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace ember::vm::bytecode
