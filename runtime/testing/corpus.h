// Test helper: finds the compiled test corpus (tools/ember_corpus.py build)
// and turns its files into modules ready to call.
//
// Tests that need real modules read them from $EMBER_CORPUS_DIR, falling back
// to <source>/build/corpus. A missing corpus is a test failure, not a skip:
// the loader tests mean nothing without real compiler output. The *OrFail
// helpers and LoadCorpusModule/LoadCorpusProgram record that failure once,
// with the directory searched and how to build the corpus, and return
// nothing, so a caller ASSERTs on the result and stops cleanly.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/vm/bytecode/bytecode_module.h"
#include "runtime/vm/context.h"
#include "runtime/vm/instance.h"
#include "runtime/vm/list.h"

namespace ember::testing {

struct CorpusFile {
  std::string name;  // e.g. "matmul.embedded"
  std::string path;
  std::vector<uint8_t> bytes;
};

// The directory holding the compiled corpus, or "" when there is none.
std::string CorpusDirectory();

// Every `*.vmfb` in the corpus directory whose name contains `filter`,
// sorted by name. Empty when the directory is missing.
std::vector<CorpusFile> LoadCorpus(const std::string& filter = "");

// Why the corpus file `name` (or the files matching a filter) could not be
// found: where they were looked for and how to build them.
std::string MissingCorpusMessage(const std::string& name);

// LoadCorpus, recording a test failure when nothing matches `filter`.
std::vector<CorpusFile> LoadCorpusOrFail(const std::string& filter = "");

// The corpus file named exactly `name` plus ".vmfb" (e.g.
// "vm_imports.embedded"); nullopt, after recording a test failure, when it
// is not there.
std::optional<CorpusFile> LoadCorpusFileOrFail(const std::string& name);

// Corpus file `name` loaded and made a BytecodeModule of `instance`; null,
// after recording a test failure that says why, when it is missing or does
// not load.
std::shared_ptr<vm::bytecode::BytecodeModule> LoadCorpusModule(
    const std::shared_ptr<const vm::Instance>& instance,
    const std::string& name,
    const vm::bytecode::BytecodeModule::Options& options = {});
// The same for a file LoadCorpus found.
std::shared_ptr<vm::bytecode::BytecodeModule> LoadCorpusModule(
    const std::shared_ptr<const vm::Instance>& instance, const CorpusFile& file,
    const vm::bytecode::BytecodeModule::Options& options = {});

// A corpus module registered alone in a context of its own (frozen)
// instance: what a test needs to call its exports.
struct CorpusProgram {
  std::shared_ptr<vm::Instance> instance;
  std::shared_ptr<vm::bytecode::BytecodeModule> module;
  std::unique_ptr<vm::Context> context;

  // Calls export `export_name` of the module.
  Result<std::vector<vm::Variant>> Call(const std::string& export_name,
                                        std::vector<vm::Variant> arguments);
  // The single result of a call that must succeed (an empty Variant, after
  // recording a test failure, otherwise).
  vm::Variant Call1(const std::string& export_name,
                    std::vector<vm::Variant> arguments);
};

// Corpus file `name` as a CorpusProgram; null, after recording a test
// failure that says why, when it is missing, does not load or does not
// register.
std::unique_ptr<CorpusProgram> LoadCorpusProgram(const std::string& name);

std::vector<uint8_t> ReadFileBytes(const std::string& path);

}  // namespace ember::testing
