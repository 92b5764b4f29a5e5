#include "runtime/testing/corpus.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#ifndef EMBER_SOURCE_DIR
#define EMBER_SOURCE_DIR "."
#endif

namespace ember::testing {

std::string CorpusDirectory() {
  namespace fs = std::filesystem;
  if (const char* env = std::getenv("EMBER_CORPUS_DIR"); env && *env) {
    return fs::is_directory(env) ? std::string(env) : std::string();
  }
  fs::path fallback = fs::path(EMBER_SOURCE_DIR) / "build" / "corpus";
  return fs::is_directory(fallback) ? fallback.string() : std::string();
}

std::vector<uint8_t> ReadFileBytes(const std::string& path) {
  std::ifstream stream(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(stream),
                              std::istreambuf_iterator<char>());
}

std::vector<CorpusFile> LoadCorpus(const std::string& filter) {
  namespace fs = std::filesystem;
  std::vector<CorpusFile> files;
  std::string directory = CorpusDirectory();
  if (directory.empty()) return files;
  for (const auto& entry : fs::directory_iterator(directory)) {
    if (entry.path().extension() != ".vmfb") continue;
    std::string name = entry.path().stem().string();
    if (!filter.empty() && name.find(filter) == std::string::npos) continue;
    files.push_back(
        {name, entry.path().string(), ReadFileBytes(entry.path().string())});
  }
  std::sort(
      files.begin(), files.end(),
      [](const CorpusFile& a, const CorpusFile& b) { return a.name < b.name; });
  return files;
}

std::string MissingCorpusMessage(const std::string& name) {
  const char* env = std::getenv("EMBER_CORPUS_DIR");
  std::string where = (env && *env)
                          ? "$EMBER_CORPUS_DIR ('" + std::string(env) + "')"
                          : "'" EMBER_SOURCE_DIR
                            "/build/corpus' ($EMBER_CORPUS_DIR is unset)";
  return "corpus file '" + name + "' not found in " + where +
         "; build the corpus with `python3 tools/ember_corpus.py build`";
}

std::vector<CorpusFile> LoadCorpusOrFail(const std::string& filter) {
  std::vector<CorpusFile> files = LoadCorpus(filter);
  if (files.empty()) {
    ADD_FAILURE() << MissingCorpusMessage(filter.empty() ? "*"
                                                         : "*" + filter + "*");
  }
  return files;
}

std::optional<CorpusFile> LoadCorpusFileOrFail(const std::string& name) {
  namespace fs = std::filesystem;
  const std::string directory = CorpusDirectory();
  if (!directory.empty()) {
    const fs::path path = fs::path(directory) / (name + ".vmfb");
    if (fs::is_regular_file(path)) {
      return CorpusFile{name, path.string(), ReadFileBytes(path.string())};
    }
  }
  ADD_FAILURE() << MissingCorpusMessage(name + ".vmfb");
  return std::nullopt;
}

std::shared_ptr<vm::bytecode::BytecodeModule> LoadCorpusModule(
    const std::shared_ptr<const vm::Instance>& instance,
    const std::string& name,
    const vm::bytecode::BytecodeModule::Options& options) {
  std::optional<CorpusFile> file = LoadCorpusFileOrFail(name);
  if (!file) return nullptr;
  return LoadCorpusModule(instance, *file, options);
}

std::shared_ptr<vm::bytecode::BytecodeModule> LoadCorpusModule(
    const std::shared_ptr<const vm::Instance>& instance, const CorpusFile& file,
    const vm::bytecode::BytecodeModule::Options& options) {
  auto loaded = vm::bytecode::ModuleFile::LoadCopy(file.bytes);
  if (!loaded.ok()) {
    ADD_FAILURE() << file.name << ": " << loaded.status().ToString();
    return nullptr;
  }
  auto module =
      vm::bytecode::BytecodeModule::Create(instance, *loaded, options);
  if (!module.ok()) {
    ADD_FAILURE() << file.name << ": " << module.status().ToString();
    return nullptr;
  }
  return *module;
}

Result<std::vector<vm::Variant>> CorpusProgram::Call(
    const std::string& export_name, std::vector<vm::Variant> arguments) {
  std::string full_name = std::string(module->name()) + "." + export_name;
  EMBER_ASSIGN_OR_RETURN(vm::Function function,
                         context->LookupFunction(full_name));
  return context->Invoke(function, arguments);
}

vm::Variant CorpusProgram::Call1(const std::string& export_name,
                                 std::vector<vm::Variant> arguments) {
  auto results = Call(export_name, std::move(arguments));
  EXPECT_TRUE(results.ok()) << results.status().ToString();
  if (!results.ok() || results->size() != 1) return vm::Variant();
  return (*results)[0];
}

std::unique_ptr<CorpusProgram> LoadCorpusProgram(const std::string& name) {
  auto program = std::make_unique<CorpusProgram>();
  program->instance = vm::Instance::Create();
  program->instance->Freeze();
  program->module = LoadCorpusModule(program->instance, name);
  if (!program->module) return nullptr;
  program->context = std::make_unique<vm::Context>(program->instance);
  Status status = program->context->RegisterModule(program->module);
  if (!status.ok()) {
    ADD_FAILURE() << name << ": " << status.ToString();
    return nullptr;
  }
  return program;
}

}  // namespace ember::testing
